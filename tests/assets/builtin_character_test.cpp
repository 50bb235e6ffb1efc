// Built-in character tests: rig naming and proportions, a watertight well-weighted mesh, rolled
// rest frames, exact bind pose, and clips that loop with feet on the floor.
#include "assets/builtin/builtin_character.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <set>
#include <utility>

#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "ik/core/kinematics.h"

namespace assets {
namespace {

constexpr float kPi = 3.14159265358979f;

const Model& Character() {
  static const Model model = MakeBuiltinCharacter();
  return model;
}

glm::vec3 RestPosition(const char* joint) {
  const Model& m = Character();
  return glm::vec3(m.skeleton.rest_models()[m.skeleton.Find(joint)][3]);
}

float DegreesBetween(const glm::vec3& a, const glm::vec3& b) {
  return std::acos(std::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.0f, 1.0f)) *
         180.0f / kPi;
}

TEST(BuiltinCharacter, HasTheMixamoJointsInParentOrder) {
  const ik::Skeleton& s = Character().skeleton;
  const std::vector<std::string> expected = {
      "Hips",         "Spine",     "Spine1",      "Spine2",      "Neck",          "Head",
      "LeftShoulder", "LeftArm",   "LeftForeArm", "LeftHand",    "RightShoulder", "RightArm",
      "RightForeArm", "RightHand", "LeftUpLeg",   "LeftLeg",     "LeftFoot",      "LeftToeBase",
      "RightUpLeg",   "RightLeg",  "RightFoot",   "RightToeBase"};
  EXPECT_EQ(s.names(), expected);
  EXPECT_EQ(s.parent(s.Find("Hips")), -1);
  auto parent_name = [&](const char* joint) { return s.name(s.parent(s.Find(joint))); };
  EXPECT_EQ(parent_name("LeftForeArm"), "LeftArm");
  EXPECT_EQ(parent_name("LeftShoulder"), "Spine2");
  EXPECT_EQ(parent_name("RightUpLeg"), "Hips");
  EXPECT_EQ(parent_name("RightToeBase"), "RightFoot");
  EXPECT_EQ(parent_name("Head"), "Neck");
  for (bool bone : Character().is_bone) EXPECT_TRUE(bone);
}

TEST(BuiltinCharacter, StandsAboutOnePointSevenFiveMetresOnTheFloorFacingPlusZ) {
  const Bounds b = RestBounds(Character());
  EXPECT_NEAR(b.max.y, 1.75f, 0.03f);
  EXPECT_NEAR(b.min.y, 0.0f, 0.01f);
  EXPECT_GT(RestPosition("LeftHand").x, 0.3f);  // its left side is +X when it faces +Z
  EXPECT_LT(RestPosition("RightHand").x, -0.3f);
  EXPECT_GT(RestPosition("LeftToeBase").z, RestPosition("LeftFoot").z + 0.1f);
}

TEST(BuiltinCharacter, RelaxedAPoseWithSlightlyBentKneesAndElbows) {
  for (const char* side : {"Left", "Right"}) {
    const std::string s = side;
    const glm::vec3 arm = RestPosition((s + "Arm").c_str());
    const glm::vec3 elbow = RestPosition((s + "ForeArm").c_str());
    const glm::vec3 wrist = RestPosition((s + "Hand").c_str());
    const float below_horizontal =
        DegreesBetween(elbow - arm, glm::vec3(elbow.x - arm.x, 0, elbow.z - arm.z));
    EXPECT_NEAR(below_horizontal, 45.0f, 8.0f) << side;
    const float elbow_bend = DegreesBetween(elbow - arm, wrist - elbow);
    EXPECT_GT(elbow_bend, 3.0f);
    EXPECT_LT(elbow_bend, 25.0f);
    // Bent forward: the wrist ends up in front of the straight-arm line.
    EXPECT_GT(wrist.z,
              (elbow + (elbow - arm) * (glm::length(wrist - elbow) / glm::length(elbow - arm))).z);
    const glm::vec3 hip = RestPosition((s + "UpLeg").c_str());
    const glm::vec3 knee = RestPosition((s + "Leg").c_str());
    const glm::vec3 ankle = RestPosition((s + "Foot").c_str());
    const float knee_bend = DegreesBetween(knee - hip, ankle - knee);
    EXPECT_GT(knee_bend, 2.0f);
    EXPECT_LT(knee_bend, 15.0f);
    const float along = glm::dot(knee - hip, glm::normalize(ankle - hip));
    const glm::vec3 on_line = hip + glm::normalize(ankle - hip) * along;
    EXPECT_GT(knee.z, on_line.z) << "knee points forward";
  }
}

TEST(BuiltinCharacter, RestFramesAreRolledAwayFromTheWorldAxes) {
  // The 24 rotations that map axes onto axes.
  std::vector<glm::mat3> axis_aligned;
  const glm::vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const auto& x : axes)
    for (const auto& y : axes)
      if (glm::dot(x, y) == 0.0f) axis_aligned.push_back(glm::mat3(x, y, glm::cross(x, y)));
  ASSERT_EQ(axis_aligned.size(), 24u);
  const Model& m = Character();
  std::set<int> roll_angles;
  for (int j = 0; j < m.skeleton.joint_count(); ++j) {
    const glm::mat3 r(m.skeleton.rest_models()[j]);
    float nearest = 180.0f;
    for (const glm::mat3& a : axis_aligned) {
      const float trace = glm::dot(r[0], a[0]) + glm::dot(r[1], a[1]) + glm::dot(r[2], a[2]);
      nearest = std::min(nearest,
                         std::acos(std::clamp((trace - 1.0f) / 2.0f, -1.0f, 1.0f)) * 180.0f / kPi);
    }
    EXPECT_GT(nearest, 10.0f) << m.skeleton.name(j);
    // Frames are bone aligned: local Y points at the child joint (checked where there is one).
    for (int child : m.skeleton.children(j)) {
      if (child != m.skeleton.children(j).front()) continue;
      const glm::vec3 to_child =
          glm::vec3(m.skeleton.rest_models()[child][3]) - glm::vec3(m.skeleton.rest_models()[j][3]);
      EXPECT_LT(DegreesBetween(r[1], to_child), 0.1f) << m.skeleton.name(j);
    }
  }
}

TEST(BuiltinCharacter, SkinnedRestPoseReproducesTheBindPositions) {
  const Model& m = Character();
  ASSERT_EQ(m.meshes.size(), 1u);
  const Mesh& mesh = m.meshes[0];
  for (size_t b = 0; b < mesh.bone_joints.size(); ++b) {
    const glm::mat4 product =
        m.skeleton.rest_models()[mesh.bone_joints[b]] * mesh.bone_inverse_binds[b];
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(product[c][r], c == r ? 1.0f : 0.0f, 1e-5f);
  }
  std::vector<glm::vec3> p, n;
  SkinMesh(mesh, m.skeleton.rest_models(), &p, &n);
  float worst = 0.0f, worst_normal = 0.0f;
  for (size_t i = 0; i < p.size(); ++i) {
    worst = std::max(worst, glm::length(p[i] - mesh.positions[i]));
    worst_normal = std::max(worst_normal, glm::length(n[i] - mesh.normals[i]));
  }
  EXPECT_LT(worst, 1e-5f);
  EXPECT_LT(worst_normal, 1e-4f);
}

TEST(BuiltinCharacter, MeshIsAClosedConsistentlyOrientedSurface) {
  const Mesh& mesh = Character().meshes[0];
  EXPECT_GE(mesh.positions.size(), 8000u);
  EXPECT_LE(mesh.positions.size(), 20000u);
  ASSERT_EQ(mesh.indices.size() % 3, 0u);
  // Closed and oriented: every directed edge once, and its reverse once.
  std::map<std::pair<uint32_t, uint32_t>, int> directed;
  for (size_t t = 0; t < mesh.indices.size(); t += 3) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = mesh.indices[t + k], b = mesh.indices[t + (k + 1) % 3];
      ASSERT_NE(a, b);
      ASSERT_LT(a, mesh.positions.size());
      ++directed[{a, b}];
    }
  }
  size_t bad = 0;
  for (const auto& [edge, count] : directed) {
    if (count != 1 || directed.count({edge.second, edge.first}) != 1) ++bad;
  }
  EXPECT_EQ(bad, 0u);
  // Outward facing: positive enclosed volume of a plausible body (~60-80 litres).
  double volume = 0.0;
  for (size_t t = 0; t < mesh.indices.size(); t += 3) {
    const glm::dvec3 a(mesh.positions[mesh.indices[t]]), b(mesh.positions[mesh.indices[t + 1]]),
        c(mesh.positions[mesh.indices[t + 2]]);
    volume += glm::dot(a, glm::cross(b, c)) / 6.0;
  }
  EXPECT_GT(volume, 0.04);
  EXPECT_LT(volume, 0.12);
}

TEST(BuiltinCharacter, NormalsAreUnitAndAgreeWithTheFaces) {
  const Mesh& mesh = Character().meshes[0];
  ASSERT_EQ(mesh.normals.size(), mesh.positions.size());
  for (const glm::vec3& n : mesh.normals) ASSERT_NEAR(glm::length(n), 1.0f, 1e-4f);
  size_t agree = 0, faces = 0;
  for (size_t t = 0; t < mesh.indices.size(); t += 3) {
    const glm::vec3& a = mesh.positions[mesh.indices[t]];
    const glm::vec3 face = glm::cross(mesh.positions[mesh.indices[t + 1]] - a,
                                      mesh.positions[mesh.indices[t + 2]] - a);
    if (glm::length(face) < 1e-10f) continue;
    ++faces;
    const glm::vec3 smooth = mesh.normals[mesh.indices[t]] + mesh.normals[mesh.indices[t + 1]] +
                             mesh.normals[mesh.indices[t + 2]];
    if (glm::dot(face, smooth) > 0.0f) ++agree;
  }
  EXPECT_GT(static_cast<double>(agree), 0.995 * static_cast<double>(faces));
}

TEST(BuiltinCharacter, WeightsSumToOneWithAtMostFourInfluences) {
  const Mesh& mesh = Character().meshes[0];
  ASSERT_EQ(mesh.weights.size(), mesh.positions.size());
  ASSERT_EQ(mesh.bone_joints.size(), 22u);
  size_t blended = 0;
  for (size_t i = 0; i < mesh.weights.size(); ++i) {
    const glm::vec4 w = mesh.weights[i];
    ASSERT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f);
    int nonzero = 0;
    for (int k = 0; k < 4; ++k) {
      ASSERT_GE(w[k], 0.0f);
      ASSERT_LT(mesh.joints[i][k], mesh.bone_joints.size());
      if (w[k] > 0.0f) ++nonzero;
    }
    if (nonzero >= 2) ++blended;
  }
  EXPECT_GT(blended, mesh.positions.size() / 5) << "smooth weights, not rigid segments";
}

TEST(BuiltinCharacter, KneesAndElbowsBlendTheirTwoBones) {
  const Model& m = Character();
  const Mesh& mesh = m.meshes[0];
  for (const char* joint : {"LeftLeg", "RightLeg", "LeftForeArm", "RightForeArm"}) {
    const int j = m.skeleton.Find(joint);
    const int parent = m.skeleton.parent(j);
    const glm::vec3 center = RestPosition(joint);
    int blended = 0;
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
      if (glm::length(mesh.positions[i] - center) > 0.08f) continue;
      float wj = 0.0f, wp = 0.0f;
      for (int k = 0; k < 4; ++k) {
        const int bone = mesh.bone_joints[mesh.joints[i][k]];
        if (bone == j) wj += mesh.weights[i][k];
        if (bone == parent) wp += mesh.weights[i][k];
      }
      if (wj >= 0.2f && wp >= 0.2f) ++blended;
    }
    EXPECT_GE(blended, 10) << joint;
  }
}

TEST(BuiltinCharacter, ClipsAreThirtyFpsLinearLoops) {
  const Model& m = Character();
  ASSERT_GE(m.clips.size(), 1u);
  EXPECT_EQ(m.FindClip("Walk"), 0);
  ASSERT_GE(m.FindClip("Idle"), 0);
  EXPECT_NEAR(m.clips[0].duration, 1.0f, 1e-6f);
  for (const Clip& clip : m.clips) {
    ASSERT_FALSE(clip.channels.empty());
    for (const JointAnimation& a : clip.channels) {
      ASSERT_FALSE(a.rotation.empty()) << clip.name;
      EXPECT_EQ(a.rotation.interpolation, Interpolation::kLinear);
      const auto& times = a.rotation.times;
      EXPECT_NEAR(times.back(), clip.duration, 1e-5f);
      for (size_t k = 1; k < times.size(); ++k)
        EXPECT_NEAR(times[k] - times[k - 1], 1.0f / 30.0f, 1e-5f);
      // The last key equals the first, so looping has no jump.
      EXPECT_NEAR(std::abs(glm::dot(a.rotation.values.front(), a.rotation.values.back())), 1.0f,
                  1e-5f)
          << clip.name << " " << m.skeleton.name(a.joint);
      if (!a.translation.empty()) {
        EXPECT_LT(glm::length(a.translation.values.front() - a.translation.values.back()), 1e-5f);
      }
    }
  }
}

TEST(BuiltinCharacter, WalkBobsSwingsAndKeepsFeetOnTheFloor) {
  const Model& m = Character();
  const Clip& walk = m.clips[m.FindClip("Walk")];
  ik::Pose pose;
  std::vector<glm::mat4> models;
  std::vector<glm::vec3> skinned;
  float hips_low = 1e9f, hips_high = -1e9f;
  float left_ankle_back = 1e9f, left_ankle_front = -1e9f, hand_back = 1e9f, hand_front = -1e9f;
  const int hips = m.skeleton.Find("Hips"), ankle = m.skeleton.Find("LeftFoot");
  const int hand = m.skeleton.Find("LeftHand");
  for (int k = 0; k < 30; ++k) {
    SampleClip(m, walk, k / 30.0f, &pose);
    ik::LocalToModel(m.skeleton, pose, &models);
    SkinMesh(m.meshes[0], models, &skinned, nullptr);
    float lowest = 1e9f;
    for (const glm::vec3& p : skinned) lowest = std::min(lowest, p.y);
    EXPECT_NEAR(lowest, 0.0f, 0.012f) << "frame " << k;  // some foot is always planted
    hips_low = std::min(hips_low, models[hips][3].y);
    hips_high = std::max(hips_high, models[hips][3].y);
    left_ankle_back = std::min(left_ankle_back, models[ankle][3].z);
    left_ankle_front = std::max(left_ankle_front, models[ankle][3].z);
    hand_back = std::min(hand_back, models[hand][3].z);
    hand_front = std::max(hand_front, models[hand][3].z);
  }
  EXPECT_GT(hips_high - hips_low, 0.02f);
  EXPECT_GT(left_ankle_front - left_ankle_back, 0.25f);
  EXPECT_GT(hand_front - hand_back, 0.1f);
}

TEST(BuiltinCharacter, WalkBendsTheKneeForwardDuringTheSwing) {
  const Model& m = Character();
  ik::Pose pose;
  std::vector<glm::mat4> models;
  SampleClip(m, m.clips[0], 0.8f, &pose);  // left leg mid-swing
  ik::LocalToModel(m.skeleton, pose, &models);
  const glm::vec3 hip(models[m.skeleton.Find("LeftUpLeg")][3]);
  const glm::vec3 knee(models[m.skeleton.Find("LeftLeg")][3]);
  const glm::vec3 ankle(models[m.skeleton.Find("LeftFoot")][3]);
  EXPECT_GT(DegreesBetween(knee - hip, ankle - knee), 20.0f);
  EXPECT_GT(knee.z, ankle.z);  // the shin trails behind the knee
}

TEST(BuiltinCharacter, IsDeterministic) {
  const Model again = MakeBuiltinCharacter();
  EXPECT_EQ(again.meshes[0].positions, Character().meshes[0].positions);
  EXPECT_EQ(again.meshes[0].indices, Character().meshes[0].indices);
  EXPECT_EQ(again.meshes[0].weights, Character().meshes[0].weights);
}

TEST(BuiltinCharacter, HasANeutralOpaqueMaterial) {
  const Model& m = Character();
  ASSERT_EQ(m.materials.size(), 1u);
  EXPECT_EQ(m.meshes[0].material, 0);
  const glm::vec4 c = m.materials[0].base_color;
  EXPECT_EQ(c.a, 1.0f);
  EXPECT_GT(std::min(c.r, std::min(c.g, c.b)), 0.4f);
  EXPECT_LT(std::max(c.r, std::max(c.g, c.b)) - std::min(c.r, std::min(c.g, c.b)), 0.25f);
}

}  // namespace
}  // namespace assets
