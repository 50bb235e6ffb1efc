// Crowd update: sample → IK → FK → palette per character.
#include "app/core/crowd.h"

#include <cmath>

#include "assets/model/animation.h"
#include "ik/body/limbs.h"
#include "ik/core/kinematics.h"

namespace app {

Crowd::Crowd(const assets::Model& model, int count, int clip, float spacing, float lift, bool batch)
    : model_(model), clip_(clip < static_cast<int>(model.clips.size()) ? clip : -1), lift_(lift) {
  for (const ik::Limb& limb : ik::DetectLimbs(model.skeleton, &model.is_bone)) {
    Chain chain;
    chain.chain = limb.chain;
    // Known once per model rather than re-detected by every solve.
    chain.options.bend_axis_local = ik::DetectBendAxis(model.skeleton, limb.chain);
    chains_.push_back(chain);
  }
  // Solving all limbs at once is only the same as solving them in turn when no chain moves
  // another: their start joints' subtrees must be disjoint.
  batched_ = batch && !chains_.empty();
  for (size_t a = 0; a < chains_.size() && batched_; ++a) {
    for (size_t b = 0; b < chains_.size(); ++b) {
      if (a != b &&
          model.skeleton.IsAncestorOrSelf(chains_[a].chain.start, chains_[b].chain.start)) {
        batched_ = false;
      }
    }
  }
  if (batched_) batch_.Resize(count * static_cast<int>(chains_.size()));
  int total_bones = 0;
  for (const assets::Mesh& mesh : model.meshes) {
    palette_offsets_.push_back(total_bones);
    total_bones += static_cast<int>(mesh.bone_joints.size());
  }
  const int side = std::max(1, static_cast<int>(std::ceil(std::sqrt(double(count)))));
  const float duration = clip_ >= 0 ? model.clips[clip_].duration : 0.0f;
  characters_.resize(count);
  for (int i = 0; i < count; ++i) {
    Character& c = characters_[i];
    c.time = duration > 0.0f ? std::fmod(0.137f * float(i), duration) : 0.0f;
    c.placement[3] = glm::vec4(spacing * float(i % side - side / 2), 0.0f,
                               spacing * float(i / side - side / 2), 1.0f);
    c.pose = ik::Pose::Rest(model.skeleton);
    c.models.resize(model.skeleton.joint_count());
    c.palette.resize(total_bones);
  }
}

void Crowd::Update(float dt_seconds) {
  const ik::Skeleton& skeleton = model_.skeleton;
  const assets::Clip* clip = clip_ >= 0 ? &model_.clips[clip_] : nullptr;
  const int chains = static_cast<int>(chains_.size());
  reached_ = 0;
  // Sample and forward kinematics, with the placement at the roots so that every matrix (and
  // the IK) is in world space; the targets are the animated effectors, lifted.
  for (size_t i = 0; i < characters_.size(); ++i) {
    Character& c = characters_[i];
    if (clip) {
      c.time = assets::WrapTime(c.time + dt_seconds, clip->duration, /*loop=*/true);
      assets::SampleClip(skeleton, *clip, c.time, &c.pose);
    }
    ik::LocalToModel(skeleton, c.pose, c.placement, &c.models);
    if (!batched_) {
      for (const Chain& chain : chains_) {
        ik::TwoBoneTarget target;
        target.position = glm::vec3(c.models[chain.chain.end][3]) + glm::vec3(0.0f, lift_, 0.0f);
        const ik::TwoBoneIkResult r = ik::SolveTwoBoneIkPose(skeleton, chain.chain, target,
                                                             chain.options, &c.pose, &c.models);
        reached_ += r.reached ? 1 : 0;
      }
      continue;
    }
    for (int k = 0; k < chains; ++k) {
      const ik::TwoBoneChain& chain = chains_[k].chain;
      batch_.SetChain(static_cast<int>(i) * chains + k, c.models[chain.start], c.models[chain.mid],
                      c.models[chain.end],
                      glm::vec3(c.models[chain.end][3]) + glm::vec3(0.0f, lift_, 0.0f));
    }
  }
  if (batched_) {
    // Every limb of every character in one SIMD solve, then the corrections go into the poses
    // (local.rotation · correction, as the pose-level solver applies them).
    batch_.Solve(chains_.empty() ? ik::TwoBoneIkOptions() : chains_[0].options);
    for (size_t i = 0; i < characters_.size(); ++i) {
      Character& c = characters_[i];
      for (int k = 0; k < chains; ++k) {
        const int index = static_cast<int>(i) * chains + k;
        const ik::TwoBoneChain& chain = chains_[k].chain;
        glm::quat& start = c.pose.locals[chain.start].rotation;
        glm::quat& mid = c.pose.locals[chain.mid].rotation;
        start = glm::normalize(start * batch_.start_correction(index));
        mid = glm::normalize(mid * batch_.mid_correction(index));
        ik::LocalToModelFrom(skeleton, c.pose, chain.start, &c.models);
        reached_ += batch_.reached(index) ? 1 : 0;
      }
    }
  }
  for (Character& c : characters_) {
    for (size_t m = 0; m < model_.meshes.size(); ++m) {
      const assets::Mesh& mesh = model_.meshes[m];
      ik::SkinPalette(ik::MakeSkinBones(c.models, mesh.bone_joints, mesh.bone_inverse_binds),
                      c.palette.data() + palette_offsets_[m]);
    }
  }
}

}  // namespace app
