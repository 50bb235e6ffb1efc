// A 22-joint humanoid for the constraint tests, built like the built-in character (same joint
// names, hierarchy and rest layout; each joint's frame has +Y along its bone and is rolled about
// it by a different angle, so no frame lines up with the world axes). ik tests cannot link assets/.
#pragma once

#include <array>
#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"
#include "ik/core/skeleton.h"
#include "tests/ik/ik_test_util.h"

namespace iktest {

struct Humanoid {
  ik::Skeleton skeleton;
  ik::Pose pose;
  std::vector<glm::mat4> models;
  int Joint(const char* name) const { return skeleton.Find(name); }
};

inline Humanoid MakeHumanoid() {
  constexpr int kCount = 22;
  const std::array<const char*, kCount> names = {
      "Hips",         "Spine",     "Spine1",      "Spine2",      "Neck",          "Head",
      "LeftShoulder", "LeftArm",   "LeftForeArm", "LeftHand",    "RightShoulder", "RightArm",
      "RightForeArm", "RightHand", "LeftUpLeg",   "LeftLeg",     "LeftFoot",      "LeftToeBase",
      "RightUpLeg",   "RightLeg",  "RightFoot",   "RightToeBase"};
  const std::array<int, kCount> parents = {-1, 0,  1,  2, 3,  4,  3,  6, 7,  8,  3,
                                           10, 11, 12, 0, 14, 15, 16, 0, 18, 19, 20};
  const std::array<float, kCount> roll_degrees = {27, -38, 52,  -21, 33,  -47, 61, -29,
                                                  44, -56, -61, 29,  -44, 56,  37, -24,
                                                  49, -33, -37, 24,  -49, 33};
  std::array<glm::vec3, kCount> p;
  p[0] = {0.0f, 0.975f, -0.010f};
  p[1] = {0.0f, 1.075f, -0.012f};
  p[2] = {0.0f, 1.195f, -0.015f};
  p[3] = {0.0f, 1.315f, -0.020f};
  p[4] = {0.0f, 1.470f, -0.022f};
  p[5] = {0.0f, 1.575f, -0.005f};
  const glm::vec3 upper_arm = glm::normalize(glm::vec3(0.70f, -0.70f, -0.03f));
  const glm::vec3 forearm = glm::normalize(upper_arm + glm::vec3(0.0f, 0.0f, 0.21f));
  p[6] = {0.035f, 1.445f, -0.015f};
  p[7] = {0.175f, 1.425f, -0.025f};
  p[8] = p[7] + 0.28f * upper_arm;
  p[9] = p[8] + 0.25f * forearm;
  p[14] = {0.092f, 0.935f, 0.000f};
  p[15] = {0.098f, 0.515f, 0.018f};
  p[16] = {0.104f, 0.088f, -0.022f};
  p[17] = {0.108f, 0.028f, 0.115f};
  auto mirror = [](const glm::vec3& v) { return glm::vec3(-v.x, v.y, v.z); };
  for (int i = 0; i < 4; ++i) {
    p[10 + i] = mirror(p[6 + i]);
    p[18 + i] = mirror(p[14 + i]);
  }
  // Bone tips: the first child, or a point along the limb for end joints.
  std::array<glm::vec3, kCount> tip;
  for (int j = 0; j < kCount; ++j) tip[j] = p[j] + glm::vec3(0.0f, 0.1f, 0.0f);
  std::array<bool, kCount> has_tip{};
  for (int j = 1; j < kCount; ++j) {
    if (!has_tip[parents[j]]) {
      tip[parents[j]] = p[j];
      has_tip[parents[j]] = true;
    }
  }
  tip[9] = p[9] + 0.18f * forearm;
  tip[13] = mirror(tip[9]);
  tip[17] = p[17] + glm::vec3(0.002f, -0.002f, 0.075f);
  tip[21] = mirror(tip[17]);

  std::array<glm::quat, kCount> world;
  std::vector<ik::JointDesc> joints(kCount);
  for (int j = 0; j < kCount; ++j) {
    const glm::vec3 bone = tip[j] - p[j];
    const glm::quat align = ik::RotationBetween(glm::vec3(0, 1, 0), bone);
    const glm::quat roll = glm::angleAxis(glm::radians(roll_degrees[j]), glm::vec3(0, 1, 0));
    world[j] = glm::normalize(align * roll);
    ik::JointDesc& d = joints[j];
    d.name = names[j];
    d.parent = parents[j];
    if (d.parent < 0) {
      d.rest.translation = p[j];
      d.rest.rotation = world[j];
    } else {
      const glm::quat parent_inverse = glm::inverse(world[d.parent]);
      d.rest.translation = parent_inverse * (p[j] - p[d.parent]);
      d.rest.rotation = glm::normalize(parent_inverse * world[j]);
    }
  }
  Humanoid h;
  h.skeleton = MustBuild(std::move(joints));
  h.pose = ik::Pose::Rest(h.skeleton);
  ik::LocalToModel(h.skeleton, h.pose, &h.models);
  return h;
}

// Angle between two directions in double precision, radians.
inline double AngleBetween(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 u(a), v(b);
  return std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v));
}

}  // namespace iktest
