// Selecting a joint by clicking the view: bones on screen and points of the skinned mesh.
#include "app/scene/picking.h"

#include <gtest/gtest.h>

#include "assets/builtin/builtin_character.h"
#include "ik/core/kinematics.h"
#include "tests/support/builtin.h"

namespace {

using testsupport::Builtin;

app::PickView FrontView(app::OrbitCamera* camera) {
  camera->yaw = 0.0f;  // looking at the character's front (it faces +Z)
  camera->pitch = 0.0f;
  camera->target = {0, 0.9f, 0};
  camera->distance = 3.0f;
  app::PickView view;
  view.viewport = {800, 800};
  view.view = camera->View();
  view.projection = camera->Projection(1.0f);
  return view;
}

TEST(Picking, ClickOnABoneSelectsIt) {
  const assets::Model& model = Builtin();
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, ik::Pose::Rest(model.skeleton), &models);
  app::OrbitCamera camera;
  const app::PickView view = FrontView(&camera);
  // Halfway along the left thigh (LeftUpLeg → LeftLeg) on screen.
  const int up_leg = model.skeleton.Find("LeftUpLeg"), leg = model.skeleton.Find("LeftLeg");
  glm::vec2 a, b;
  ASSERT_TRUE(app::ProjectToPixel(view.view, view.projection, view.viewport,
                                  glm::vec3(models[up_leg][3]), &a));
  ASSERT_TRUE(app::ProjectToPixel(view.view, view.projection, view.viewport,
                                  glm::vec3(models[leg][3]), &b));
  EXPECT_EQ(app::PickBone(model, models, view, 0.5f * (a + b) + glm::vec2(2, 0), 8.0f), up_leg);
  // On the knee joint itself: the knee.
  EXPECT_EQ(app::PickBone(model, models, view, b, 8.0f), leg);
  // Far from every bone: nothing.
  EXPECT_EQ(app::PickBone(model, models, view, {5, 5}, 8.0f), -1);
}

TEST(Picking, ClickOnTheMeshSelectsTheJointWeighingMostThere) {
  const assets::Model& model = Builtin();
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, ik::Pose::Rest(model.skeleton), &models);
  app::OrbitCamera camera;
  const app::PickView view = FrontView(&camera);
  // Aim at the middle of the head and of the left shin.
  const int head = model.skeleton.Find("Head");
  const glm::vec3 head_centre = glm::vec3(models[head][3]) + glm::vec3(0, 0.08f, 0);
  glm::vec2 px;
  ASSERT_TRUE(app::ProjectToPixel(view.view, view.projection, view.viewport, head_centre, &px));
  const app::Ray ray = app::RayFromPixel(view.view, view.projection, view.viewport, px.x, px.y);
  EXPECT_EQ(app::PickJointOnMesh(model, models, ray), head);
  const int leg = model.skeleton.Find("LeftLeg"), foot = model.skeleton.Find("LeftFoot");
  const glm::vec3 shin = 0.5f * (glm::vec3(models[leg][3]) + glm::vec3(models[foot][3]));
  ASSERT_TRUE(app::ProjectToPixel(view.view, view.projection, view.viewport, shin, &px));
  EXPECT_EQ(
      app::PickJointOnMesh(
          model, models, app::RayFromPixel(view.view, view.projection, view.viewport, px.x, px.y)),
      leg);
  // Beside the body: nothing.
  EXPECT_EQ(app::PickJointOnMesh(
                model, models, app::RayFromPixel(view.view, view.projection, view.viewport, 5, 5)),
            -1);
}

TEST(Picking, IntersectMeshFindsTheNearestTriangle) {
  // Two parallel squares at z = 0 and z = -1, seen from +Z.
  const std::vector<glm::vec3> positions = {{-1, -1, 0},  {1, -1, 0},  {1, 1, 0},  {-1, 1, 0},
                                            {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}};
  const std::vector<uint32_t> indices = {4, 5, 6, 4, 6, 7, 0, 1, 2, 0, 2, 3};
  app::MeshHit hit;
  ASSERT_TRUE(app::IntersectMesh({{0.2f, 0.3f, 5.0f}, {0, 0, -1}}, positions, indices, &hit));
  EXPECT_NEAR(hit.t, 5.0f, 1e-5f);
  EXPECT_GE(hit.triangle, 2);  // one of the front square's triangles
  EXPECT_FALSE(app::IntersectMesh({{3, 3, 5}, {0, 0, -1}}, positions, indices, &hit));
}

}  // namespace
