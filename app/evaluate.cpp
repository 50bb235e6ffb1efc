// Sample → IK → FK for one character.
#include "app/evaluate.h"

#include <algorithm>

#include "assets/animation.h"
#include "ik/kinematics.h"

namespace app {

bool ResolveIkSpecs(const ik::Skeleton& skeleton, const std::vector<IkSpec>& specs,
                    std::vector<IkChainRequest>* out, std::string* error) {
  out->clear();
  for (const IkSpec& spec : specs) {
    const int end = skeleton.Find(spec.end);
    if (end < 0) {
      *error = "--ik " + spec.end + "=...: the model has no joint named '" + spec.end + "'";
      return false;
    }
    std::string why;
    const auto chain = ik::ChainFromEnd(skeleton, end, &why);
    if (!chain) {
      *error = "--ik " + spec.end + "=...: " + why;
      return false;
    }
    IkChainRequest request;
    request.chain = *chain;
    request.target.position = spec.target;
    request.options.pole_model = spec.pole;
    request.options.weight = spec.weight;
    request.options.soft = spec.soft;
    request.options.hinge = spec.hinge;
    out->push_back(request);
  }
  return true;
}

void SamplePose(const assets::Model& model, const ClipTime& clip_time, ik::Pose* pose) {
  if (clip_time.clip >= 0 && clip_time.clip < static_cast<int>(model.clips.size())) {
    const assets::Clip& clip = model.clips[clip_time.clip];
    assets::SampleClip(model.skeleton, clip, std::clamp(clip_time.time, 0.0f, clip.duration), pose);
  } else {
    pose->locals = model.skeleton.rest_locals();
  }
}

void SolveChains(const ik::Skeleton& skeleton, const std::vector<IkChainRequest>& requests,
                 PoseState* state) {
  state->ik.clear();
  for (const IkChainRequest& request : requests) {
    state->ik.push_back(ik::SolveTwoBoneIkPose(skeleton, request.chain, request.target,
                                               request.options, &state->pose, &state->models));
  }
}

void EvaluatePose(const assets::Model& model, const ClipTime& clip_time,
                  const std::vector<IkChainRequest>& requests, PoseState* state) {
  SamplePose(model, clip_time, &state->pose);
  ik::LocalToModel(model.skeleton, state->pose, &state->models);
  SolveChains(model.skeleton, requests, state);
}

}  // namespace app
