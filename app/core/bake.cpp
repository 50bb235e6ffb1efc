// Clip baking and the export of edits.
#include "app/core/bake.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "assets/exporter.h"

namespace app {

float EstimateFrameRate(const assets::Clip& clip) {
  // Histogram of key intervals rounded to 0.1 ms.
  std::map<long, int> counts;
  auto add = [&](const std::vector<float>& times) {
    for (size_t k = 1; k < times.size(); ++k) {
      const float dt = times[k] - times[k - 1];
      if (dt > 1e-5f) ++counts[std::lround(double(dt) * 1e4)];
    }
  };
  for (const assets::JointAnimation& c : clip.channels) {
    add(c.translation.times);
    add(c.rotation.times);
    add(c.scale.times);
  }
  if (counts.empty()) return 30.0f;
  const auto most =
      std::max_element(counts.begin(), counts.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  const double fps = 1e4 / double(most->first);
  return static_cast<float>(std::clamp(std::round(fps), 1.0, 240.0));
}

assets::Clip BakeClip(const Character& character, int clip_index, float fps,
                      const EditState& edit) {
  const assets::Clip& source = *character.clip(clip_index);
  const int joints = character.skeleton().joint_count();
  assets::Clip baked;
  baked.name = (source.name.empty() ? "clip" : source.name) + " (IK)";
  baked.duration = source.duration;
  baked.morph_channels = source.morph_channels;  // IK moves no blend shape: kept as keyed
  baked.channels.resize(joints);
  for (int j = 0; j < joints; ++j) {
    baked.channels[j].joint = j;
    baked.channels[j].translation.interpolation = assets::Interpolation::kLinear;
    baked.channels[j].rotation.interpolation = assets::Interpolation::kLinear;
    baked.channels[j].scale.interpolation = assets::Interpolation::kLinear;
  }
  const int frames =
      std::max(1, static_cast<int>(std::ceil(double(source.duration) * double(fps) - 1e-4)));
  EditedFrame frame;
  PoseState state;
  for (int f = 0; f <= frames; ++f) {
    const float t = f == frames ? source.duration : float(f) / fps;
    EvaluateEditedFrame(character, ClipTime{clip_index, t}, edit, &frame, &state);
    for (int j = 0; j < joints; ++j) {
      const ik::Transform& local = state.pose.locals[j];
      assets::JointAnimation& channel = baked.channels[j];
      channel.translation.times.push_back(t);
      channel.translation.values.push_back(local.translation);
      channel.rotation.times.push_back(t);
      // Keep consecutive keys in the same hemisphere so linear interpolation takes the short way.
      glm::quat q = local.rotation;
      if (!channel.rotation.values.empty() && glm::dot(channel.rotation.values.back(), q) < 0.0f) {
        q = -q;
      }
      channel.rotation.values.push_back(q);
      channel.scale.times.push_back(t);
      channel.scale.values.push_back(local.scale);
    }
    if (source.duration <= 0.0f) break;
  }
  return baked;
}

bool ExportEdited(const Character& character, const ik::Pose& solved_pose, int clip,
                  const EditState& edit, bool bake, const std::string& path, std::string* error) {
  const assets::Model& model = character.model();
  if (bake && character.clip(clip)) {
    // The played clip baked with the IK in its place (clips played together: after the model's
    // own), the model's other clips as they are.
    assets::Model baked = model;
    assets::Clip clip_baked =
        BakeClip(character, clip, EstimateFrameRate(*character.clip(clip)), edit);
    if (clip < character.file_clip_count()) {
      baked.clips[static_cast<size_t>(clip)] = std::move(clip_baked);
    } else {
      baked.clips.push_back(std::move(clip_baked));
    }
    return assets::ExportGltf(baked, path, error);
  }
  return assets::ExportGltf(model, solved_pose, path, error);
}

EditState EditForRequests(const Character& character, const ConstraintRequests& requests) {
  const assets::Model& model = character.model();
  EditState edit;
  edit.limits = requests.limits;
  for (const IkChainRequest& request : requests.ik) {
    ChainSettings chain;
    chain.label = model.skeleton.name(request.chain.end);
    chain.chain = request.chain;
    chain.mode = TargetMode::kPinned;
    chain.pinned = request.target.position;
    chain.use_pole = request.options.pole_model.has_value();
    if (chain.use_pole) chain.pole = *request.options.pole_model;
    chain.hinge = request.options.hinge;
    chain.soft = request.options.soft;
    chain.weight = request.options.weight;
    chain.end_orientation = request.options.end_orientation;
    chain.body_helps = request.body_helps;
    edit.chains.push_back(chain);
  }
  // Pins and moves: a pinned hand or foot is its limb's two-bone chain on the pin (a chain's
  // target holds the body whenever the body solve runs); a joint of the body is a body handle,
  // held (a pin) or placed (a move). A pin without a point follows the animation.
  edit.body_options = requests.body.options;
  const std::vector<ik::Limb>& limbs = character.limbs();
  for (const ik::BodyEffector& effector : requests.body.effectors) {
    ChainSettings chain;
    std::string error;
    const bool pin = effector.kind == ik::BodyEffector::Kind::kPin;
    const bool limb_end = pin && std::any_of(limbs.begin(), limbs.end(), [&](const ik::Limb& limb) {
                            return limb.chain.end == effector.joint;
                          });
    if (limb_end) {
      if (!MakeChain(character, effector.joint, &chain, &error)) continue;
    } else {
      if (!MakeBody(character, effector.joint, &chain, &error)) continue;
      chain.body_pin = pin;
    }
    if (effector.target_model) {
      chain.mode = TargetMode::kPinned;
      chain.pinned = *effector.target_model;
    }
    edit.chains.push_back(chain);
  }
  for (const FabrikRequest& request : requests.fabrik) {
    ChainSettings chain;
    std::string error;
    if (!MakeFabrik(model, request.root, request.end, &chain, &error)) continue;
    chain.mode = TargetMode::kPinned;
    chain.pinned = request.target;
    chain.tolerance = request.options.tolerance;
    chain.max_iterations = request.options.max_iterations;
    edit.chains.push_back(chain);
  }
  for (const AimRequest& request : requests.aim) {
    ChainSettings chain;
    std::string error;
    if (!MakeAim(model, request.joint, &chain, &error)) continue;
    chain.mode = TargetMode::kPinned;
    chain.pinned = request.target;
    chain.target_joint = request.target_joint;
    chain.weight = request.options.weight;
    chain.spread = request.options.spread;
    chain.spread_falloff = request.options.spread_falloff;
    chain.use_up = request.options.up_target_model.has_value();
    if (chain.use_up) chain.up = *request.options.up_target_model;
    edit.chains.push_back(chain);
  }
  return edit;
}

}  // namespace app
