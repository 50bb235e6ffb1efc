// Crowd update: sample → IK → FK → palette per character.
#include "app/crowd.h"

#include <cmath>

#include "assets/animation.h"
#include "ik/kinematics.h"
#include "ik/limbs.h"

namespace app {

Crowd::Crowd(const assets::Model& model, int count, int clip, float spacing, float lift)
    : model_(model), clip_(clip < static_cast<int>(model.clips.size()) ? clip : -1), lift_(lift) {
  for (const ik::Limb& limb : ik::DetectLimbs(model.skeleton, &model.is_bone)) {
    Chain chain;
    chain.chain = limb.chain;
    // Known once per model rather than re-detected by every solve.
    chain.options.bend_axis_local = ik::DetectBendAxis(model.skeleton, limb.chain);
    chains_.push_back(chain);
  }
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
  reached_ = 0;
  for (Character& c : characters_) {
    if (clip) {
      c.time = assets::WrapTime(c.time + dt_seconds, clip->duration, /*loop=*/true);
      assets::SampleClip(skeleton, *clip, c.time, &c.pose);
    }
    // Forward kinematics with the placement at the roots, so every matrix (and the IK) is in
    // world space.
    const int* parents = skeleton.parents().data();
    for (int j = 0; j < skeleton.joint_count(); ++j) {
      const glm::mat4 local = c.pose.locals[j].ToMatrix();
      c.models[j] = parents[j] < 0 ? c.placement * local : c.models[parents[j]] * local;
    }
    for (const Chain& chain : chains_) {
      ik::TwoBoneTarget target;
      target.position = glm::vec3(c.models[chain.chain.end][3]) + glm::vec3(0.0f, lift_, 0.0f);
      const ik::TwoBoneIkResult r =
          ik::SolveTwoBoneIkPose(skeleton, chain.chain, target, chain.options, &c.pose, &c.models);
      reached_ += r.reached ? 1 : 0;
    }
    for (size_t m = 0; m < model_.meshes.size(); ++m) {
      const assets::Mesh& mesh = model_.meshes[m];
      glm::mat4* out = c.palette.data() + palette_offsets_[m];
      for (size_t b = 0; b < mesh.bone_joints.size(); ++b) {
        out[b] = c.models[mesh.bone_joints[b]] * mesh.bone_inverse_binds[b];
      }
    }
  }
}

}  // namespace app
