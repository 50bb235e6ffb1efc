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

void EvaluatePose(const assets::Model& model, const ClipTime& clip_time,
                  const std::vector<IkChainRequest>& requests, PoseState* state) {
  const ik::Skeleton& skeleton = model.skeleton;
  if (clip_time.clip >= 0 && clip_time.clip < static_cast<int>(model.clips.size())) {
    const assets::Clip& clip = model.clips[clip_time.clip];
    assets::SampleClip(skeleton, clip, std::clamp(clip_time.time, 0.0f, clip.duration),
                       &state->pose);
  } else {
    state->pose.locals = skeleton.rest_locals();
  }
  ik::LocalToModel(skeleton, state->pose, &state->models);
  state->ik.clear();
  for (const IkChainRequest& request : requests) {
    state->ik.push_back(ik::SolveTwoBoneIkPose(skeleton, request.chain, request.target,
                                               request.options, &state->pose, &state->models));
  }
}

}  // namespace app
