// The glTF-Asset-Generator Animation_Skin set: each case's README line ("what it must show") as
// assertions on the loaded Model. Skinned positions of every case are also compared with an
// independent glTF evaluation in importer_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "assets/importer.h"
#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "ik/core/kinematics.h"
#include "tests/assets/model_compare.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

constexpr float kPi = 3.14159265358979f;

std::string CasePath(int i) {
  char name[96];
  std::snprintf(name, sizeof(name), "glTF-Asset-Generator/Animation_Skin/Animation_Skin_%02d.gltf",
                i);
  return testpaths::SharedModel(name);
}

#define LOAD_CASE(var, i)                                \
  const std::string var##_path = CasePath(i);            \
  SKIP_IF_NO_MODEL(var##_path, "Animation_Skin_" #i);    \
  const LoadResult var##_result = LoadModel(var##_path); \
  ASSERT_TRUE(var##_result.ok()) << var##_result.error;  \
  const Model& var = *var##_result.model

int Joint(const Model& m, const char* name) {
  const int j = m.skeleton.Find(name);
  EXPECT_GE(j, 0) << name;
  return j;
}

// World positions of every vertex of mesh `m` in the given pose.
std::vector<glm::vec3> Skinned(const Model& model, size_t m, const ik::Pose& pose) {
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, pose, &models);
  std::vector<glm::vec3> out;
  SkinMesh(model.meshes[m], models, &out, nullptr);
  return out;
}

ik::Pose PoseAt(const Model& model, float time) {
  ik::Pose pose = ik::Pose::Rest(model.skeleton);
  if (!model.clips.empty()) SampleClip(model, model.clips[0], time, &pose);
  return pose;
}

float RotationDegrees(const glm::quat& q) {
  const float s = glm::length(glm::vec3(q.x, q.y, q.z));
  return 2.0f * std::atan2(s, std::abs(q.w)) * 180.0f / kPi;
}

// Time in the first clip where it is farthest from its start (its keys' middle).
float MidClip(const Model& model) { return 0.5f * model.clips.at(0).duration; }

TEST(AnimationSkin, Case00SkinAIsAPlaneOnATwoJointChain) {
  LOAD_CASE(model, 0);
  ASSERT_EQ(model.meshes.size(), 1u);
  const Mesh& mesh = model.meshes[0];
  EXPECT_TRUE(mesh.skinned);
  const int joint0 = Joint(model, "joint0"), joint1 = Joint(model, "joint1");
  EXPECT_EQ(mesh.bone_joints, (std::vector<int>{joint0, joint1}));
  EXPECT_EQ(model.skeleton.parent(joint1), joint0);
  EXPECT_TRUE(model.is_bone[joint0] && model.is_bone[joint1]);
  EXPECT_FALSE(model.is_bone[Joint(model, "plane")]);
  // skinA: three rows of two vertices, the first row on joint0, the others on joint1.
  ASSERT_EQ(mesh.positions.size(), 6u);
  int on_joint0 = 0, on_joint1 = 0;
  for (size_t v = 0; v < 6; ++v) {
    EXPECT_FLOAT_EQ(mesh.weights[v].x, 1.0f);
    (mesh.bone_joints[mesh.joints[v].x] == joint0 ? on_joint0 : on_joint1) += 1;
  }
  EXPECT_EQ(on_joint0, 2);
  EXPECT_EQ(on_joint1, 4);
  EXPECT_TRUE(model.clips.empty());
}

TEST(AnimationSkin, Case01OnlyJoint1RotatesAndOnlyItsVerticesMove) {
  LOAD_CASE(model, 1);
  ASSERT_EQ(model.clips.size(), 1u);
  ASSERT_EQ(model.clips[0].channels.size(), 1u);
  const JointAnimation& channel = model.clips[0].channels[0];
  EXPECT_EQ(channel.joint, Joint(model, "joint1"));
  EXPECT_FALSE(channel.rotation.empty());
  EXPECT_TRUE(channel.translation.empty() && channel.scale.empty());
  const Mesh& mesh = model.meshes[0];
  const std::vector<glm::vec3> start = Skinned(model, 0, PoseAt(model, 0.0f));
  const std::vector<glm::vec3> middle = Skinned(model, 0, PoseAt(model, MidClip(model)));
  int moved = 0, still = 0;
  for (size_t v = 0; v < start.size(); ++v) {
    // Weight carried by joint1 (mesh bone 1).
    float w1 = 0.0f;
    for (int k = 0; k < 4; ++k) w1 += mesh.joints[v][k] == 1 ? mesh.weights[v][k] : 0.0f;
    const float d = glm::length(middle[v] - start[v]);
    if (w1 == 0.0f) {
      EXPECT_LT(d, 1e-5f) << "vertex " << v << " only on joint0 moved";
      ++still;
    } else if (d > 1e-2f) {
      ++moved;  // vertices on joint1's rotation axis stay, the others swing
    }
  }
  EXPECT_EQ(moved, 2);
  EXPECT_EQ(still, 2);
}

TEST(AnimationSkin, Case02TransformsOfTheSkinnedNodeAndItsParentAreIgnored) {
  LOAD_CASE(plain, 0);
  LOAD_CASE(transformed, 2);
  // Same skin, same joints: the plane's own rotation and its parent's must not show.
  testcompare::ExpectSameSkinnedSurface(plain, transformed, -1, 0.0f, 1e-5f);
}

TEST(AnimationSkin, Case03MissingInverseBindMatricesAreIdentity) {
  LOAD_CASE(model, 3);
  bool warned = false;
  for (const std::string& w : model.warnings) warned |= w.find("inverseBindMatrices") != w.npos;
  EXPECT_TRUE(warned);
  ASSERT_EQ(model.meshes.size(), 1u);
  for (const glm::mat4& m : model.meshes[0].bone_inverse_binds) EXPECT_EQ(m, glm::mat4(1.0f));
  // With identity inverse binds a vertex fully on joint0 lands at joint0's world transform of
  // its bind position.
  const ik::Pose rest = ik::Pose::Rest(model.skeleton);
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, rest, &models);
  const std::vector<glm::vec3> skinned = Skinned(model, 0, rest);
  const Mesh& mesh = model.meshes[0];
  const int joint0 = Joint(model, "joint0");
  for (size_t v = 0; v < skinned.size(); ++v) {
    if (mesh.weights[v].x > 0.999f && mesh.bone_joints[mesh.joints[v].x] == joint0) {
      const glm::vec3 expected = glm::vec3(models[joint0] * glm::vec4(mesh.positions[v], 1.0f));
      EXPECT_LT(glm::length(skinned[v] - expected), 1e-5f);
    }
  }
}

TEST(AnimationSkin, Case04TriangleAttachedToJoint1FollowsItsRotation) {
  LOAD_CASE(model, 4);
  ASSERT_EQ(model.meshes.size(), 2u);
  const int joint1 = Joint(model, "joint1");
  // The attached triangle is the unskinned mesh, on a child node of joint1.
  size_t rigid = model.meshes[0].skinned ? 1 : 0;
  const Mesh& triangle = model.meshes[rigid];
  EXPECT_FALSE(triangle.skinned);
  ASSERT_GE(triangle.node, 0);
  EXPECT_EQ(model.skeleton.parent(triangle.node), joint1);
  const ik::Pose start = PoseAt(model, 0.0f), middle = PoseAt(model, MidClip(model));
  std::vector<glm::mat4> m0, m1;
  ik::LocalToModel(model.skeleton, start, &m0);
  ik::LocalToModel(model.skeleton, middle, &m1);
  const std::vector<glm::vec3> a = Skinned(model, rigid, start);
  const std::vector<glm::vec3> b = Skinned(model, rigid, middle);
  float moved = 0.0f;
  for (size_t v = 0; v < a.size(); ++v) {
    // Rigid on joint1: its position in joint1's frame is the same at both times.
    const glm::vec3 local0 = glm::vec3(glm::inverse(m0[joint1]) * glm::vec4(a[v], 1.0f));
    const glm::vec3 local1 = glm::vec3(glm::inverse(m1[joint1]) * glm::vec4(b[v], 1.0f));
    EXPECT_LT(glm::length(local0 - local1), 1e-5f);
    moved = std::max(moved, glm::length(a[v] - b[v]));
  }
  EXPECT_GT(moved, 1e-3f);
}

TEST(AnimationSkin, Case05TwoMeshesShareOneSkin) {
  LOAD_CASE(model, 5);
  ASSERT_EQ(model.meshes.size(), 2u);
  EXPECT_TRUE(model.meshes[0].skinned);
  EXPECT_TRUE(model.meshes[1].skinned);
  EXPECT_EQ(model.meshes[0].bone_joints, model.meshes[1].bone_joints);
  for (size_t b = 0; b < model.meshes[0].bone_inverse_binds.size(); ++b) {
    EXPECT_EQ(model.meshes[0].bone_inverse_binds[b], model.meshes[1].bone_inverse_binds[b]);
  }
}

TEST(AnimationSkin, Case06Joint1IsARootNotAChildOfJoint0) {
  LOAD_CASE(model, 6);
  const int joint0 = Joint(model, "joint0"), joint1 = Joint(model, "joint1");
  EXPECT_FALSE(model.skeleton.IsAncestorOrSelf(joint0, joint1));
  EXPECT_EQ(model.skeleton.parent(joint1), -1);
  EXPECT_EQ(model.skeleton.parent(joint0), -1);
  EXPECT_TRUE(model.is_bone[joint0] && model.is_bone[joint1]);
}

TEST(AnimationSkin, Case07TwoSkinsShareTheAnimatedJoint1) {
  LOAD_CASE(model, 7);
  ASSERT_EQ(model.meshes.size(), 2u);
  const int joint1 = Joint(model, "joint1");
  ASSERT_EQ(model.clips.size(), 1u);
  EXPECT_EQ(model.clips[0].channels.at(0).joint, joint1);
  const ik::Pose start = PoseAt(model, 0.0f), middle = PoseAt(model, MidClip(model));
  for (size_t m = 0; m < 2; ++m) {
    SCOPED_TRACE(model.meshes[m].name);
    EXPECT_TRUE(model.meshes[m].skinned);
    const auto& bones = model.meshes[m].bone_joints;
    EXPECT_NE(std::find(bones.begin(), bones.end(), joint1), bones.end());
    // Both prisms bend with joint1.
    const std::vector<glm::vec3> a = Skinned(model, m, start), b = Skinned(model, m, middle);
    float moved = 0.0f;
    for (size_t v = 0; v < a.size(); ++v) moved = std::max(moved, glm::length(a[v] - b[v]));
    EXPECT_GT(moved, 1e-3f);
  }
}

TEST(AnimationSkin, Case08JointsRotateMinusTenDegreesAndTheRootMinusNinety) {
  LOAD_CASE(model, 8);
  const char* names[] = {"joint0", "joint1", "joint2", "joint3", "joint4"};
  for (int i = 0; i < 5; ++i) {
    const int j = Joint(model, names[i]);
    ASSERT_GE(j, 0);
    const glm::quat r = model.skeleton.rest_locals()[j].rotation;
    EXPECT_NEAR(RotationDegrees(r), i == 0 ? 90.0f : 10.0f, 1e-3f) << names[i];
    // About -X: the rotation axis points along -X.
    EXPECT_LT(r.x * (r.w >= 0.0f ? 1.0f : -1.0f), 0.0f) << names[i];
    if (i > 0) {
      EXPECT_EQ(model.skeleton.parent(j), Joint(model, names[i - 1]));
    }
  }
  EXPECT_EQ(model.meshes.at(0).bone_joints.size(), 5u);
}

TEST(AnimationSkin, Case09NonJointTransformNodeCarriesAMeshAndEveryJointAnimates) {
  LOAD_CASE(model, 9);
  const int transform_node = Joint(model, "transformNode");
  ASSERT_GE(transform_node, 0);
  EXPECT_FALSE(model.is_bone[transform_node]);
  EXPECT_EQ(model.skeleton.parent(transform_node), Joint(model, "joint2"));
  EXPECT_EQ(model.skeleton.parent(Joint(model, "joint3")), transform_node);
  // Its mesh is the unskinned one, shown where the node is.
  int on_node = 0;
  for (const Mesh& mesh : model.meshes) on_node += !mesh.skinned && mesh.node == transform_node;
  EXPECT_EQ(on_node, 1);
  ASSERT_EQ(model.clips.size(), 1u);
  std::vector<int> animated;
  for (const JointAnimation& a : model.clips[0].channels) {
    EXPECT_FALSE(a.rotation.empty());
    animated.push_back(a.joint);
  }
  std::sort(animated.begin(), animated.end());
  std::vector<int> expected = {Joint(model, "joint1"), Joint(model, "joint2"),
                               Joint(model, "joint3")};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(animated, expected);
}

TEST(AnimationSkin, Case10SkinEBranchesIntoTwoJoints) {
  LOAD_CASE(model, 10);
  const int joint1 = Joint(model, "joint1");
  EXPECT_EQ(model.skeleton.parent(Joint(model, "joint2")), joint1);
  EXPECT_EQ(model.skeleton.parent(Joint(model, "joint3")), joint1);
  EXPECT_EQ(model.meshes.at(0).bone_joints.size(), 4u);
  // Every joint weighs on some vertex.
  std::vector<int> used(4, 0);
  const Mesh& mesh = model.meshes[0];
  for (size_t v = 0; v < mesh.positions.size(); ++v)
    for (int k = 0; k < 4; ++k)
      if (mesh.weights[v][k] > 0.0f) used[mesh.joints[v][k]] = 1;
  EXPECT_EQ(used, (std::vector<int>{1, 1, 1, 1}));
}

TEST(AnimationSkin, Case11TwoInstancesOfOneMeshKeepSeparateSkins) {
  LOAD_CASE(model, 11);
  ASSERT_EQ(model.meshes.size(), 2u);
  EXPECT_EQ(model.meshes[0].positions.size(), model.meshes[1].positions.size());
  EXPECT_NE(model.meshes[0].bone_joints, model.meshes[1].bone_joints);
  // Separate skins: no bone is shared.
  for (int j : model.meshes[0].bone_joints) {
    const auto& other = model.meshes[1].bone_joints;
    EXPECT_EQ(std::find(other.begin(), other.end(), j), other.end());
  }
}

}  // namespace
}  // namespace assets
