// The generated range-of-motion clip: its groups and motions in order, knees and elbows bending
// the way they bend, hips forward, joint limits used as the range, joints outside a motion at
// rest; on the built-in character, a Mixamo-style rig and CesiumMan (found by symmetry).
#include "app/core/range_of_motion.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "ik/core/kinematics.h"
#include "tests/core/mixamo_gltf.h"
#include "tests/test_paths.h"

namespace app {
namespace {

constexpr float kDegree = 3.14159265f / 180.0f;

RangeOfMotion Generate(const assets::Model& model, const ik::JointLimits& limits = {}) {
  const std::vector<ik::Limb> limbs = ik::DetectLimbs(model.skeleton, &model.is_bone);
  ik::BodyRig body;
  const bool has_body = ik::BuildBodyRig(model.skeleton, &body, nullptr, &model.is_bone);
  return MakeRangeOfMotion(model.skeleton, limbs, has_body ? &body : nullptr, limits);
}

const RangeMotion* Find(const RangeOfMotion& rom, const std::string& group,
                        const std::string& what) {
  for (const RangeMotion& m : rom.motions) {
    if (m.group == group && m.what == what) return &m;
  }
  return nullptr;
}

// Model-space joint positions of the clip at `time`.
std::vector<glm::vec3> Positions(const assets::Model& model, const assets::Clip& clip, float time) {
  ik::Pose pose;
  assets::SampleClip(model.skeleton, clip, time, &pose);
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, pose, &models);
  std::vector<glm::vec3> positions;
  for (const glm::mat4& m : models) positions.push_back(glm::vec3(m[3]));
  return positions;
}

float AngleBetween(const glm::vec3& a, const glm::vec3& b) {
  return std::acos(std::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.0f, 1.0f));
}

TEST(RangeOfMotion, PutsEachLimbThenTheSpineThroughTheirRanges) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const RangeOfMotion rom = Generate(model);
  EXPECT_EQ(rom.clip.name, "Range of motion");
  ASSERT_EQ(rom.motions.size(), 4u * 4u + 3u);
  const char* groups[] = {"LeftLeg", "RightLeg", "LeftArm", "RightArm"};
  for (int g = 0; g < 4; ++g) {
    for (int k = 0; k < 4; ++k) EXPECT_EQ(rom.motions[size_t(4 * g + k)].group, groups[g]);
  }
  EXPECT_EQ(rom.motions[0].what, "hip flex");
  EXPECT_EQ(rom.motions[3].what, "knee bend");
  EXPECT_EQ(rom.motions[8].what, "shoulder flex");
  EXPECT_EQ(rom.motions[11].what, "elbow bend");
  EXPECT_EQ(rom.motions[16].group, "Spine");
  EXPECT_EQ(rom.motions[18].what, "spine twist");
  // One after another, two seconds each.
  for (size_t i = 0; i < rom.motions.size(); ++i) {
    EXPECT_FLOAT_EQ(rom.motions[i].start, 2.0f * float(i));
    EXPECT_FLOAT_EQ(rom.motions[i].end, 2.0f * float(i + 1));
  }
  EXPECT_FLOAT_EQ(rom.clip.duration, 2.0f * float(rom.motions.size()));
  // The spine's joints above the hips share its bend.
  const RangeMotion* bend = Find(rom, "Spine", "spine bend");
  ASSERT_NE(bend, nullptr);
  EXPECT_GE(bend->joints.size(), 2u);
  EXPECT_EQ(std::find(bend->joints.begin(), bend->joints.end(), model.skeleton.Find("Hips")),
            bend->joints.end());
}

TEST(RangeOfMotion, KneesBendBackElbowsForwardHipsSwingForward) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const RangeOfMotion rom = Generate(model);
  const ik::Skeleton& s = model.skeleton;
  const std::vector<glm::vec3> rest = Positions(model, rom.clip, 0.0f);
  auto at_peak = [&](const RangeMotion& m) {
    // rest → max is the first quarter (half, without a min): the peak is there.
    const float u = m.min_angle < 0.0f ? 0.25f : 0.5f;
    return Positions(model, rom.clip, m.start + u * (m.end - m.start));
  };
  const int hip = s.Find("LeftUpLeg"), knee = s.Find("LeftLeg"), foot = s.Find("LeftFoot");
  const RangeMotion* knee_bend = Find(rom, "LeftLeg", "knee bend");
  ASSERT_NE(knee_bend, nullptr);
  EXPECT_NEAR(knee_bend->max_angle, 140.0f * kDegree, 1e-5f);
  std::vector<glm::vec3> p = at_peak(*knee_bend);
  // The shin turned 140° from the thigh's line (the rest knee is nearly straight), the foot behind.
  const float bend_rest = AngleBetween(rest[knee] - rest[hip], rest[foot] - rest[knee]);
  const float bend_now = AngleBetween(p[knee] - p[hip], p[foot] - p[knee]);
  EXPECT_NEAR(bend_now - bend_rest, 140.0f * kDegree, 2.0f * kDegree);
  EXPECT_LT(p[foot].z, rest[foot].z - 0.2f);  // the character faces +Z
  EXPECT_EQ(p[hip], rest[hip]);
  // The hip flexes forward by 90°: the foot comes up in front.
  p = at_peak(*Find(rom, "LeftLeg", "hip flex"));
  EXPECT_GT(p[foot].z, rest[foot].z + 0.5f);
  EXPECT_NEAR(AngleBetween(p[knee] - p[hip], rest[knee] - rest[hip]), 90.0f * kDegree,
              1.0f * kDegree);
  // The elbow bends the hand forward.
  const int hand = s.Find("RightHand");
  p = at_peak(*Find(rom, "RightArm", "elbow bend"));
  // (140° folds the forearm past straight ahead: the hand ends in front, above the elbow.)
  const int elbow = s.Find("RightForeArm"), shoulder = s.Find("RightArm");
  EXPECT_GT(p[hand].z, p[elbow].z + 0.1f);
  EXPECT_GT(p[hand].y, p[elbow].y);
  EXPECT_NEAR(AngleBetween(p[elbow] - p[shoulder], p[hand] - p[elbow]) -
                  AngleBetween(rest[elbow] - rest[shoulder], rest[hand] - rest[elbow]),
              140.0f * kDegree, 2.0f * kDegree);
  // Outside its motions every joint is at rest: the left leg while the right arm moves.
  for (int j : {hip, knee, foot}) EXPECT_LT(glm::length(p[j] - rest[j]), 1e-5f);
}

TEST(RangeOfMotion, AJointWithALimitGoesThroughItsLimit) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const int knee = model.skeleton.Find("LeftLeg");
  const int shoulder = model.skeleton.Find("RightArm");
  ik::JointLimits limits;
  limits.Set(knee, ik::JointLimit::Hinge({1.0f, 0.0f, 0.0f}, -10.0f * kDegree, 95.0f * kDegree));
  limits.Set(shoulder, ik::JointLimit::Cone({0.0f, 1.0f, 0.0f}, 50.0f * kDegree, -20.0f * kDegree,
                                            35.0f * kDegree));
  const RangeOfMotion rom = Generate(model, limits);
  const RangeMotion* hinge = Find(rom, "LeftLeg", "knee hinge");
  ASSERT_NE(hinge, nullptr);
  EXPECT_TRUE(hinge->from_limit);
  EXPECT_FLOAT_EQ(hinge->min_angle, -10.0f * kDegree);
  EXPECT_FLOAT_EQ(hinge->max_angle, 95.0f * kDegree);
  EXPECT_EQ(hinge->axes_local[0], glm::vec3(1.0f, 0.0f, 0.0f));
  // The knee's rotation at every key stays within its limit.
  const assets::JointAnimation* channel = nullptr;
  for (const assets::JointAnimation& c : rom.clip.channels) {
    if (c.joint == knee) channel = &c;
  }
  ASSERT_NE(channel, nullptr);
  const glm::quat rest = model.skeleton.rest_locals()[size_t(knee)].rotation;
  float most = -10.0f, least = 10.0f;
  for (const glm::quat& q : channel->rotation.values) {
    const glm::quat delta = glm::inverse(rest) * q;
    const float angle = 2.0f * std::atan2(delta.x, delta.w);  // about +X
    most = std::max(most, angle);
    least = std::min(least, angle);
  }
  EXPECT_NEAR(most, 95.0f * kDegree, 1e-4f);
  EXPECT_NEAR(least, -10.0f * kDegree, 1e-4f);
  // The cone: two swings to its angle and the twist through its range.
  const RangeMotion* twist = Find(rom, "RightArm", "shoulder twist");
  ASSERT_NE(twist, nullptr);
  EXPECT_TRUE(twist->from_limit);
  EXPECT_FLOAT_EQ(twist->min_angle, -20.0f * kDegree);
  EXPECT_FLOAT_EQ(twist->max_angle, 35.0f * kDegree);
  EXPECT_NE(Find(rom, "RightArm", "shoulder swing across"), nullptr);
}

TEST(RangeOfMotion, WorksOnAMixamoRigAndCesiumMan) {
  const std::string path = testrig::WriteMixamoGltf(testpaths::TempDir() + "/mixamo.gltf");
  std::vector<std::string> files = {path};
  const std::string cesium =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  if (!cesium.empty()) files.push_back(cesium);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    assets::LoadResult loaded = assets::LoadModel(file);
    ASSERT_TRUE(loaded.ok()) << loaded.error;
    const assets::Model& model = *loaded.model;
    const RangeOfMotion rom = Generate(model);
    EXPECT_GE(rom.motions.size(), 16u);  // four limbs, four motions each
    EXPECT_GT(rom.clip.duration, 30.0f);
    for (const assets::JointAnimation& c : rom.clip.channels) {
      for (const glm::quat& q : c.rotation.values) {
        ASSERT_TRUE(std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) &&
                    std::isfinite(q.z));
      }
    }
    // The knee moves its foot 140° about the knee, whatever the rig's axes.
    const RangeMotion* knee = Find(rom, "LeftLeg", "knee bend");
    ASSERT_NE(knee, nullptr);
    const std::vector<ik::Limb> limbs = ik::DetectLimbs(model.skeleton, &model.is_bone);
    const ik::Limb& leg = limbs[0];
    const std::vector<glm::vec3> rest = Positions(model, rom.clip, 0.0f);
    const std::vector<glm::vec3> p = Positions(model, rom.clip, 0.5f * (knee->start + knee->end));
    const glm::vec3 mid = rest[size_t(leg.chain.mid)];
    EXPECT_NEAR(AngleBetween(rest[size_t(leg.chain.end)] - mid, p[size_t(leg.chain.end)] - mid),
                140.0f * kDegree, 2.0f * kDegree);
  }
  if (cesium.empty()) GTEST_SKIP() << "CesiumMan not found: tried the Mixamo-style rig only";
}

TEST(RangeOfMotion, NothingToMoveGivesAnEmptyClip) {
  const RangeOfMotion rom = MakeRangeOfMotion(ik::Skeleton(), {}, nullptr, {});
  EXPECT_TRUE(rom.motions.empty());
  EXPECT_TRUE(rom.clip.channels.empty());
  EXPECT_EQ(rom.clip.duration, 0.0f);
}

}  // namespace
}  // namespace app
