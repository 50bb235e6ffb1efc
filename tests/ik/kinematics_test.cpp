// Skeleton construction and queries, forward kinematics (full and from one joint down) and the
// skin palette, against straightforward recursive definitions.
#include "ik/core/kinematics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "ik/core/skeleton.h"
#include "tests/ik/ik_test_util.h"

namespace {

using iktest::RandomRotation;
using iktest::RandomUnit;
using iktest::Uniform;

float MaxDifference(const glm::mat4& a, const glm::mat4& b) {
  float worst = 0.0f;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(a[c][r] - b[c][r]));
  return worst;
}

// Random tree, parents before children; `depth_first` orders joints so subtrees are contiguous.
std::vector<ik::JointDesc> RandomJoints(std::mt19937& rng, int count, bool depth_first) {
  std::vector<ik::JointDesc> joints(count);
  for (int i = 0; i < count; ++i) {
    joints[i].name = "j" + std::to_string(i);
    // depth_first: each joint's parent is the previous joint or one of its ancestors (so the
    // order is a depth-first walk); otherwise any earlier joint.
    if (i == 0) {
      joints[i].parent = -1;
    } else if (depth_first) {
      int p = i - 1;
      const int climb = static_cast<int>(rng() % 3);
      for (int k = 0; k < climb && joints[p].parent >= 0; ++k) p = joints[p].parent;
      joints[i].parent = p;
    } else {
      joints[i].parent = static_cast<int>(rng() % i);
    }
    joints[i].rest.translation = RandomUnit(rng) * Uniform(rng, 0.05f, 0.5f);
    joints[i].rest.rotation = RandomRotation(rng);
    joints[i].rest.scale = glm::vec3(Uniform(rng, 0.8f, 1.25f));
  }
  return joints;
}

glm::mat4 NaiveModel(const ik::Skeleton& s, const ik::Pose& pose, int joint) {
  const glm::mat4 local = pose.locals[joint].ToMatrix();
  return s.parent(joint) < 0 ? local : NaiveModel(s, pose, s.parent(joint)) * local;
}

ik::Pose RandomPose(std::mt19937& rng, const ik::Skeleton& s) {
  ik::Pose pose = ik::Pose::Rest(s);
  for (auto& local : pose.locals) local.rotation = RandomRotation(rng);
  return pose;
}

TEST(Skeleton, BuildKeepsNamesParentsAndRestPose) {
  std::mt19937 rng(1);
  const auto joints = RandomJoints(rng, 40, true);
  std::string error;
  const auto s = ik::Skeleton::Build(joints, &error);
  ASSERT_TRUE(s) << error;
  ASSERT_EQ(s->joint_count(), 40);
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(s->name(i), joints[i].name);
    EXPECT_EQ(s->parent(i), joints[i].parent);
    EXPECT_LE(MaxDifference(s->rest_models()[i], NaiveModel(*s, ik::Pose::Rest(*s), i)), 1e-5f);
    // Without explicit inverse binds: the inverse of the rest model matrix.
    EXPECT_LE(MaxDifference(s->inverse_binds()[i] * s->rest_models()[i], glm::mat4(1.0f)), 1e-4f);
  }
  EXPECT_EQ(s->Find("j17"), 17);
  EXPECT_EQ(s->Find("nope"), -1);
}

TEST(Skeleton, BuildRejectsBadParentsAndNonFiniteData) {
  std::string error;
  std::vector<ik::JointDesc> forward = {{"a", 1, {}, {}}, {"b", -1, {}, {}}};
  EXPECT_FALSE(ik::Skeleton::Build(forward, &error));
  EXPECT_NE(error.find("not an earlier joint"), std::string::npos);
  std::vector<ik::JointDesc> self = {{"a", 0, {}, {}}};
  EXPECT_FALSE(ik::Skeleton::Build(self, &error));
  ik::JointDesc nan_joint{"n", -1, {}, {}};
  nan_joint.rest.translation.x = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(ik::Skeleton::Build({nan_joint}, &error));
  EXPECT_NE(error.find("non-finite"), std::string::npos);
  ik::JointDesc bad_bind{"b", -1, {}, glm::mat4(std::numeric_limits<float>::infinity())};
  EXPECT_FALSE(ik::Skeleton::Build({bad_bind}, &error));
}

TEST(Skeleton, ChildrenSubtreesAncestryAndDepth) {
  // 0 -> 1 -> 2, 1 -> 3, 0 -> 4
  const auto s = ik::Skeleton::Build(
      {{"r", -1, {}, {}}, {"a", 0, {}, {}}, {"b", 1, {}, {}}, {"c", 1, {}, {}}, {"d", 0, {}, {}}},
      nullptr);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->children(1), (std::vector<int>{2, 3}));
  EXPECT_TRUE(s->subtree_contiguous());
  EXPECT_EQ(s->subtree_end(1), 4);
  EXPECT_EQ(s->subtree_end(0), 5);
  EXPECT_TRUE(s->IsAncestorOrSelf(0, 3));
  EXPECT_TRUE(s->IsAncestorOrSelf(3, 3));
  EXPECT_FALSE(s->IsAncestorOrSelf(4, 3));
  EXPECT_EQ(s->Depth(2), 2);
  EXPECT_EQ(s->Depth(0), 0);
  // Not depth-first: 0 -> 1, 0 -> 2, 1 -> 3.
  const auto mixed = ik::Skeleton::Build(
      {{"r", -1, {}, {}}, {"a", 0, {}, {}}, {"b", 0, {}, {}}, {"c", 1, {}, {}}}, nullptr);
  ASSERT_TRUE(mixed);
  EXPECT_FALSE(mixed->subtree_contiguous());
}

TEST(Skeleton, HumanoidMapIsCheckedBeforeItIsKept) {
  auto s = ik::Skeleton::Build({{"r", -1, {}, {}}, {"a", 0, {}, {}}, {"b", 1, {}, {}}}, nullptr);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->humanoid().empty());
  EXPECT_EQ(s->HumanoidJoint("hips"), -1);
  std::string error;
  ASSERT_TRUE(s->SetHumanoid({{"hips", 0}, {"spine", 2}}, &error)) << error;
  EXPECT_EQ(s->HumanoidJoint("spine"), 2);
  EXPECT_EQ(s->HumanoidJoint("chest"), -1);
  const std::vector<ik::HumanoidBone> kept = s->humanoid();
  // Each bad map is refused with its reason, and the map set before stays.
  EXPECT_FALSE(s->SetHumanoid({{"hips", 0}, {"spine", 3}}, &error));
  EXPECT_EQ(error, "humanoid bone 'spine' is on joint 3, which does not exist");
  EXPECT_FALSE(s->SetHumanoid({{"hips", -1}}, &error));
  EXPECT_FALSE(s->SetHumanoid({{"hips", 0}, {"hips", 1}}, &error));
  EXPECT_EQ(error, "humanoid bone 'hips' is listed twice");
  EXPECT_FALSE(s->SetHumanoid({{"hips", 1}, {"spine", 1}}, &error));
  EXPECT_EQ(error, "joint 'a' has two humanoid roles");
  EXPECT_FALSE(s->SetHumanoid({{"", 1}}, &error));
  EXPECT_EQ(s->humanoid(), kept);
  // A copy keeps it.
  const ik::Skeleton copy = *s;
  EXPECT_EQ(copy.HumanoidJoint("hips"), 0);
}

TEST(Kinematics, LocalToModelMatchesTheRecursiveDefinition) {
  std::mt19937 rng(2);
  for (bool depth_first : {true, false}) {
    const auto s = ik::Skeleton::Build(RandomJoints(rng, 200, depth_first), nullptr);
    ASSERT_TRUE(s);
    const ik::Pose pose = RandomPose(rng, *s);
    std::vector<glm::mat4> models;
    ik::LocalToModel(*s, pose, &models);
    ASSERT_EQ(models.size(), 200u);
    for (int i = 0; i < 200; ++i) {
      ASSERT_LE(MaxDifference(models[i], NaiveModel(*s, pose, i)), 1e-4f) << i;
    }
  }
}

TEST(Kinematics, LocalToModelFromUpdatesTheSubtreeOnly) {
  std::mt19937 rng(3);
  for (bool depth_first : {true, false}) {
    const auto s = ik::Skeleton::Build(RandomJoints(rng, 120, depth_first), nullptr);
    ASSERT_TRUE(s);
    ik::Pose pose = RandomPose(rng, *s);
    std::vector<glm::mat4> models;
    ik::LocalToModel(*s, pose, &models);
    const int joint = 30;
    pose.locals[joint].rotation = RandomRotation(rng);
    const std::vector<glm::mat4> before = models;
    ik::LocalToModelFrom(*s, pose, joint, &models);
    std::vector<glm::mat4> full;
    ik::LocalToModel(*s, pose, &full);
    for (int i = 0; i < s->joint_count(); ++i) {
      if (s->IsAncestorOrSelf(joint, i)) {
        ASSERT_EQ(models[i], full[i]) << i;
      } else {
        ASSERT_EQ(models[i], before[i]) << i;  // untouched
      }
    }
  }
}

TEST(Kinematics, SkinPaletteIsModelTimesInverseBindAndIdentityAtRest) {
  std::mt19937 rng(4);
  const auto s = ik::Skeleton::Build(RandomJoints(rng, 64, true), nullptr);
  ASSERT_TRUE(s);
  std::vector<glm::mat4> models, palette;
  ik::LocalToModel(*s, ik::Pose::Rest(*s), &models);
  ik::SkinPalette(*s, models, &palette);
  for (int i = 0; i < 64; ++i) EXPECT_LE(MaxDifference(palette[i], glm::mat4(1.0f)), 1e-4f);
  const ik::Pose pose = RandomPose(rng, *s);
  ik::LocalToModel(*s, pose, &models);
  ik::SkinPalette(*s, models, &palette);
  for (int i = 0; i < 64; ++i) {
    EXPECT_LE(MaxDifference(palette[i], models[i] * s->inverse_binds()[i]), 1e-6f);
  }
}

TEST(Kinematics, MeshSkinPaletteMapsBonesToJointsWithTheirOwnInverseBinds) {
  std::mt19937 rng(5);
  std::vector<glm::mat4> models(6), inverse_binds(3);
  for (glm::mat4& m : models) {
    m = glm::mat4(glm::mat3_cast(RandomRotation(rng)) * Uniform(rng, 0.5f, 2.0f));
    m[3] = glm::vec4(RandomUnit(rng) * 3.0f, 1.0f);
  }
  for (glm::mat4& m : inverse_binds)
    m = glm::inverse(models[0]) * glm::mat4_cast(RandomRotation(rng));
  // Bones 0..2 use joints 4, 1, 4 (a joint may be several bones); bone 3 names no joint; bone 4
  // names a joint past the models; bones 3 to 5 have no inverse bind.
  const std::vector<int> joints = {4, 1, 4, -1, 6, 2};
  std::vector<glm::mat4> palette(joints.size(), glm::mat4(0.0f));
  ik::SkinPalette(ik::MakeSkinBones(models, joints, inverse_binds), palette.data());
  EXPECT_LE(MaxDifference(palette[0], models[4] * inverse_binds[0]), 1e-5f);
  EXPECT_LE(MaxDifference(palette[1], models[1] * inverse_binds[1]), 1e-5f);
  EXPECT_LE(MaxDifference(palette[2], models[4] * inverse_binds[2]), 1e-5f);
  EXPECT_EQ(palette[3], glm::mat4(1.0f));  // no joint: the identity
  EXPECT_EQ(palette[4], glm::mat4(1.0f));
  EXPECT_EQ(palette[5], models[2]);  // no inverse bind: the joint's matrix alone
}

TEST(Kinematics, SkinPaletteWritesOnlyItsBones) {
  const std::vector<glm::mat4> models = {glm::mat4(2.0f), glm::mat4(3.0f)};
  const std::vector<glm::mat4> inverse_binds = {glm::mat4(1.0f), glm::mat4(1.0f)};
  const std::vector<int> joints = {1, 0};
  const glm::mat4 sentinel(7.0f);
  std::vector<glm::mat4> out(4, sentinel);
  ik::SkinPalette(ik::MakeSkinBones(models, joints, inverse_binds), out.data() + 1);
  EXPECT_EQ(out[0], sentinel);
  EXPECT_EQ(out[1], models[1]);
  EXPECT_EQ(out[2], models[0]);
  EXPECT_EQ(out[3], sentinel);
}

}  // namespace
