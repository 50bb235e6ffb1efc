// Helpers shared by the ik tests: random rotations and chains with fixed seeds, and applying a
// two-bone solve's corrections to a pose so tests measure what forward kinematics really gives.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <string>
#include <vector>

#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"
#include "ik/core/skeleton.h"
#include "ik/two_bone/two_bone_ik.h"

namespace iktest {

inline float Uniform(std::mt19937& rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(rng);
}

// Uniformly distributed unit quaternion (Shoemake).
inline glm::quat RandomRotation(std::mt19937& rng) {
  const float u1 = Uniform(rng, 0.0f, 1.0f), u2 = Uniform(rng, 0.0f, ik::kTwoPi),
              u3 = Uniform(rng, 0.0f, ik::kTwoPi);
  const float s1 = std::sqrt(1.0f - u1), s2 = std::sqrt(u1);
  return glm::normalize(
      glm::quat(s2 * std::cos(u3), s1 * std::sin(u2), s1 * std::cos(u2), s2 * std::sin(u3)));
}

inline glm::vec3 RandomUnit(std::mt19937& rng) {
  for (;;) {
    const glm::vec3 v(Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1));
    const float len2 = glm::dot(v, v);
    if (len2 > 1e-4f && len2 <= 1.0f) return v / std::sqrt(len2);
  }
}

// A skeleton root -> start -> mid -> end (indices 0..3) and a pose of it.
struct ChainRig {
  ik::Skeleton skeleton;
  ik::Pose pose;
  std::vector<glm::mat4> models;
  ik::TwoBoneChain chain{1, 2, 3};
  float upper = 0.0f, lower = 0.0f;  // bone lengths in model space
};

inline ik::Skeleton MustBuild(std::vector<ik::JointDesc> joints) {
  std::string error;
  auto s = ik::Skeleton::Build(std::move(joints), &error);
  if (!s) std::abort();
  return *s;
}

// Random chain: a root with random placement, rotation and uniform (possibly mirroring) scale,
// a start joint with random local rotation, bones of random direction and length.
inline ChainRig RandomChainRig(std::mt19937& rng, bool mirror_allowed = true) {
  ik::Transform root;
  root.translation = glm::vec3(Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1));
  root.rotation = RandomRotation(rng);
  float s = Uniform(rng, 0.5f, 2.0f);
  if (mirror_allowed && Uniform(rng, 0, 1) < 0.2f) s = -s;
  root.scale = glm::vec3(s);
  ik::Transform start;
  start.translation = RandomUnit(rng) * Uniform(rng, 0.0f, 0.5f);
  start.rotation = RandomRotation(rng);
  ik::Transform mid;
  mid.translation = RandomUnit(rng) * Uniform(rng, 0.1f, 1.5f);
  mid.rotation = RandomRotation(rng);
  ik::Transform end;
  end.translation = RandomUnit(rng) * Uniform(rng, 0.1f, 1.5f);
  end.rotation = RandomRotation(rng);
  ChainRig rig;
  rig.skeleton = MustBuild(
      {{"root", -1, root, {}}, {"start", 0, start, {}}, {"mid", 1, mid, {}}, {"end", 2, end, {}}});
  rig.pose = ik::Pose::Rest(rig.skeleton);
  ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
  rig.upper = glm::length(glm::vec3(rig.models[2][3] - rig.models[1][3]));
  rig.lower = glm::length(glm::vec3(rig.models[3][3] - rig.models[2][3]));
  return rig;
}

inline glm::vec3 Position(const std::vector<glm::mat4>& models, int joint) {
  return glm::vec3(models[joint][3]);
}

// Applies a job-level result's corrections to the rig's pose and recomputes its models.
inline void ApplyCorrections(const ik::TwoBoneIkResult& r, ChainRig* rig) {
  auto& locals = rig->pose.locals;
  locals[rig->chain.start].rotation =
      glm::normalize(locals[rig->chain.start].rotation * r.start_correction);
  locals[rig->chain.mid].rotation =
      glm::normalize(locals[rig->chain.mid].rotation * r.mid_correction);
  ik::LocalToModel(rig->skeleton, rig->pose, &rig->models);
}

// Target at a given distance from `a` in a random direction.
inline glm::vec3 TargetAt(std::mt19937& rng, const glm::vec3& a, float distance) {
  return a + RandomUnit(rng) * distance;
}

}  // namespace iktest
