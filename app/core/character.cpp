// A loaded model's rig facts and the clips it plays.
#include "app/core/character.h"

#include <atomic>

#include "assets/model/animation.h"

namespace app {

const assets::Model Character::kNothing;

namespace {
std::atomic<long> g_next_id{1};
}  // namespace

Character::Character(const assets::Model& model, const std::vector<ik::LimbPick>& picks,
                     std::vector<std::string>* problems)
    : model_(&model), id_(g_next_id++) {
  const ik::Skeleton& skeleton = model.skeleton;
  const int n = skeleton.joint_count();
  rig_.limbs = ik::DetectLimbs(skeleton, &model.is_bone);
  if (!picks.empty()) ik::ApplyLimbPicks(skeleton, picks, &rig_.limbs, problems);
  rig_.has_body = ik::BuildBodyRig(skeleton, rig_.limbs, &rig_.body, &rig_.body_problem);
  rig_.limb_end.assign(static_cast<size_t>(n), false);
  for (const ik::Limb& limb : rig_.limbs) {
    rig_.limb_bend_axes.push_back(ik::DetectBendAxis(skeleton, limb.chain));
    if (limb.chain.end >= 0 && limb.chain.end < n) rig_.limb_end[size_t(limb.chain.end)] = true;
  }
  rig_.end_bend_axes.resize(static_cast<size_t>(n));
  for (int j = 0; j < n; ++j) {
    if (const auto chain = ik::ChainFromEnd(skeleton, j, nullptr)) {
      rig_.end_bend_axes[size_t(j)] = ik::DetectBendAxis(skeleton, *chain);
    }
  }
}

Character::Character(const Character& other, const assets::Model& model) : Character(other) {
  model_ = &model;
}

const ik::BodyRig* Character::body_rig(std::string* why) const {
  if (rig_.has_body) return &rig_.body;
  if (why)
    *why = rig_.body_problem.empty() ? "no arms or legs were found in the skeleton"
                                     : rig_.body_problem;
  return nullptr;
}

bool Character::IsLimbEnd(int joint) const {
  return joint >= 0 && joint < static_cast<int>(rig_.limb_end.size()) &&
         rig_.limb_end[size_t(joint)];
}

std::optional<glm::vec3> Character::BendAxis(const ik::TwoBoneChain& chain) const {
  const auto same = [&](const ik::TwoBoneChain& c) {
    return c.start == chain.start && c.mid == chain.mid && c.end == chain.end;
  };
  for (size_t i = 0; i < rig_.limbs.size(); ++i) {
    if (same(rig_.limbs[i].chain)) return rig_.limb_bend_axes[i];
  }
  const ik::Skeleton& skeleton = model_->skeleton;
  const int n = skeleton.joint_count();
  if (chain.end >= 0 && chain.end < n && chain.mid == skeleton.parent(chain.end) &&
      chain.mid >= 0 && chain.start == skeleton.parent(chain.mid) && chain.start >= 0) {
    return rig_.end_bend_axes[size_t(chain.end)];
  }
  return ik::DetectBendAxis(skeleton, chain);
}

const assets::Clip* Character::clip(int index) const {
  if (index < 0) return nullptr;
  if (index < file_clip_count()) return &model_->clips[static_cast<size_t>(index)];
  if (index == file_clip_count() && !together_.empty()) return &combined_;
  return nullptr;
}

int Character::PlayTogether(const std::vector<int>& clips) {
  if (clips.size() < 2) {
    together_.clear();
    combined_ = assets::Clip();
    return clips.empty() ? -1 : clips[0];
  }
  if (clips != together_) {
    together_ = clips;
    combined_ = assets::CombineClips(*model_, together_);
  }
  return file_clip_count();
}

}  // namespace app
