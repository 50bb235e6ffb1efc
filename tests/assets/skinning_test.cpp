// CPU skinning tests: blending, normals under scale and mirroring, robustness, bounds.
#include "assets/model/skinning.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace assets {
namespace {

constexpr float kPi = 3.14159265358979f;

// One triangle-less mesh of explicit vertices bound to two bones with identity inverse binds.
Mesh TwoBoneMesh(std::vector<glm::vec3> positions, std::vector<glm::vec3> normals,
                 std::vector<glm::vec4> weights) {
  Mesh mesh;
  mesh.skinned = true;
  mesh.positions = std::move(positions);
  mesh.normals = std::move(normals);
  mesh.weights = std::move(weights);
  mesh.joints.assign(mesh.positions.size(), glm::u16vec4(0, 1, 0, 0));
  mesh.bone_joints = {0, 1};
  mesh.bone_inverse_binds = {glm::mat4(1.0f), glm::mat4(1.0f)};
  return mesh;
}

void ExpectNear(const glm::vec3& a, const glm::vec3& b, float tolerance = 1e-5f) {
  EXPECT_NEAR(glm::length(a - b), 0.0f, tolerance)
      << a.x << "," << a.y << "," << a.z << " vs " << b.x << "," << b.y << "," << b.z;
}

TEST(SkinMesh, BlendsThePaletteMatricesByWeight) {
  const Mesh mesh =
      TwoBoneMesh({{1, 0, 0}, {1, 0, 0}, {1, 0, 0}}, {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}},
                  {{1, 0, 0, 0}, {0, 1, 0, 0}, {0.5f, 0.5f, 0, 0}});
  const std::vector<glm::mat4> models = {glm::translate(glm::mat4(1.0f), {0, 0, 2}),
                                         glm::rotate(glm::mat4(1.0f), kPi / 2, {0, 0, 1})};
  std::vector<glm::vec3> p, n;
  SkinMesh(mesh, models, &p, &n);
  ExpectNear(p[0], {1, 0, 2});
  ExpectNear(p[1], {0, 1, 0});
  ExpectNear(p[2], {0.5f, 0.5f, 1});
  ExpectNear(n[1], {-1, 0, 0});
}

TEST(SkinMesh, InverseBindMatricesTakeVerticesIntoJointSpace) {
  Mesh mesh = TwoBoneMesh({{0, 3, 0}}, {{1, 0, 0}}, {{0, 1, 0, 0}});
  // Joint 1 sits at y = 2 at bind time; its inverse bind undoes that.
  mesh.bone_inverse_binds[1] = glm::translate(glm::mat4(1.0f), {0, -2, 0});
  const glm::mat4 joint1 =
      glm::translate(glm::mat4(1.0f), {0, 2, 0}) * glm::rotate(glm::mat4(1.0f), kPi / 2, {0, 0, 1});
  std::vector<glm::vec3> p;
  SkinMesh(mesh, {glm::mat4(1.0f), joint1}, &p, nullptr);
  ExpectNear(p[0], {-1, 2, 0});  // 1 unit above the joint, turned to point along -X
}

TEST(SkinMesh, NormalsUseTheInverseTransposeUnderNonUniformScale) {
  const glm::vec3 slope = glm::normalize(glm::vec3(1, 1, 0));
  const Mesh mesh = TwoBoneMesh({{0, 0, 0}}, {slope}, {{1, 0, 0, 0}});
  const glm::mat4 stretch = glm::scale(glm::mat4(1.0f), {2, 1, 1});
  std::vector<glm::vec3> p, n;
  SkinMesh(mesh, {stretch, stretch}, &p, &n);
  // The surface x + y = c becomes x/2 + y = c: normal along (0.5, 1, 0).
  ExpectNear(n[0], glm::normalize(glm::vec3(0.5f, 1, 0)));
}

TEST(SkinMesh, MirroredTransformsKeepNormalsOnTheSurfaceSide) {
  const Mesh mesh = TwoBoneMesh({{1, 0, 0}}, {{1, 0, 0}}, {{1, 0, 0, 0}});
  const glm::mat4 mirror = glm::scale(glm::mat4(1.0f), {-1, 1, 1});
  std::vector<glm::vec3> p, n;
  SkinMesh(mesh, {mirror, mirror}, &p, &n);
  ExpectNear(p[0], {-1, 0, 0});
  ExpectNear(n[0], {-1, 0, 0});
}

TEST(SkinMesh, DegenerateTransformsNeverProduceNaN) {
  const Mesh mesh = TwoBoneMesh({{1, 2, 3}}, {{0, 0, 1}}, {{1, 0, 0, 0}});
  const glm::mat4 flat = glm::scale(glm::mat4(1.0f), {1, 1, 0});
  std::vector<glm::vec3> p, n;
  SkinMesh(mesh, {flat, flat}, &p, &n);
  EXPECT_TRUE(std::isfinite(n[0].x) && std::isfinite(n[0].y) && std::isfinite(n[0].z));
  EXPECT_NEAR(glm::length(n[0]), 1.0f, 1e-5f);
}

TEST(SkinMesh, BonesOutsideThePoseCountAsIdentity) {
  Mesh mesh = TwoBoneMesh({{1, 2, 3}}, {{0, 0, 1}}, {{0, 1, 0, 0}});
  mesh.bone_joints[1] = 42;  // the pose has only one joint
  std::vector<glm::vec3> p, n;
  SkinMesh(mesh, {glm::mat4(1.0f)}, &p, &n);
  ExpectNear(p[0], {1, 2, 3});
}

TEST(ModelBounds, CoverSkinnedMeshesOrJointsWithoutMeshes) {
  Model model;
  std::vector<ik::JointDesc> joints(2);
  joints[0].name = "a";
  joints[1].name = "b";
  joints[1].parent = 0;
  joints[1].rest.translation = {0, 2, 0};
  std::string error;
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  Bounds b = RestBounds(model);
  ExpectNear(b.min, {0, 0, 0});
  ExpectNear(b.max, {0, 2, 0});
  model.meshes.push_back(
      TwoBoneMesh({{-1, 0, 0}, {1, 0, 5}}, {{0, 1, 0}, {0, 1, 0}}, {{1, 0, 0, 0}, {0, 1, 0, 0}}));
  model.meshes[0].bone_inverse_binds[1] = glm::inverse(model.skeleton.rest_models()[1]);
  b = RestBounds(model);
  ExpectNear(b.min, {-1, 0, 0});
  ExpectNear(b.max, {1, 0, 5});
  EXPECT_NEAR(b.diagonal(), std::sqrt(29.0f), 1e-5f);
  EXPECT_TRUE(Bounds().empty());
  EXPECT_EQ(Bounds().diagonal(), 0.0f);
}

}  // namespace
}  // namespace assets
