// Debug geometry built on the CPU: circles, spheres, axes, boxes, skeletons, handles.
#include "renderer/debug_geometry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "renderer/grid.h"

namespace {

TEST(DebugLinesTest, CircleLiesInItsPlaneAtItsRadius) {
  renderer::DebugLines lines;
  const glm::vec3 center(1, 2, 3), normal(0.3f, -1.0f, 0.5f);
  lines.AddCircle(center, normal * 4.0f, 0.7f, renderer::colors::kYellow, 40);
  ASSERT_EQ(lines.vertices().size(), 80u);
  for (const renderer::LineVertex& v : lines.vertices()) {
    EXPECT_NEAR(glm::distance(v.position, center), 0.7f, 1e-5f);
    EXPECT_NEAR(glm::dot(v.position - center, glm::normalize(normal)), 0.0f, 1e-5f);
    EXPECT_EQ(v.color, renderer::colors::kYellow);
  }
  // Consecutive segments join up and the loop closes.
  for (size_t i = 1; i + 1 < lines.vertices().size(); i += 2)
    EXPECT_EQ(lines.vertices()[i].position, lines.vertices()[i + 1].position);
  EXPECT_NEAR(glm::distance(lines.vertices().back().position, lines.vertices().front().position),
              0.0f, 1e-5f);
}

TEST(DebugLinesTest, ZeroNormalCircleDrawsNothing) {
  renderer::DebugLines lines;
  lines.AddCircle({0, 0, 0}, {0, 0, 0}, 1.0f, renderer::colors::kRed);
  EXPECT_TRUE(lines.empty());
}

TEST(DebugLinesTest, SphereIsThreeGreatCircles) {
  renderer::DebugLines lines;
  lines.AddSphere({0, 1, 0}, 2.0f, renderer::colors::kCyan, 16);
  EXPECT_EQ(lines.vertices().size(), 3u * 16u * 2u);
  for (const renderer::LineVertex& v : lines.vertices())
    EXPECT_NEAR(glm::distance(v.position, glm::vec3(0, 1, 0)), 2.0f, 1e-5f);
}

TEST(DebugLinesTest, AxesHaveTheRequestedLengthWhateverTheFrameScale) {
  renderer::DebugLines lines;
  glm::mat4 frame = glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 0)) *
                    glm::rotate(glm::mat4(1.0f), 0.7f, glm::vec3(0, 1, 0)) *
                    glm::scale(glm::mat4(1.0f), glm::vec3(3.0f, 0.2f, 1.0f));
  lines.AddAxes(frame, 0.5f);
  ASSERT_EQ(lines.vertices().size(), 6u);
  const glm::vec4 expected_colors[3] = {renderer::colors::kRed, renderer::colors::kGreen,
                                        renderer::colors::kBlue};
  for (int axis = 0; axis < 3; ++axis) {
    const renderer::LineVertex& from = lines.vertices()[2 * axis];
    const renderer::LineVertex& to = lines.vertices()[2 * axis + 1];
    EXPECT_EQ(from.position, glm::vec3(1, 0, 0));
    EXPECT_NEAR(glm::distance(from.position, to.position), 0.5f, 1e-5f);
    EXPECT_NEAR(glm::dot(glm::normalize(to.position - from.position),
                         glm::normalize(glm::vec3(frame[axis]))),
                1.0f, 1e-5f);
    EXPECT_EQ(from.color, expected_colors[axis]);
  }
}

TEST(DebugLinesTest, BoxHasTwelveEdgesThroughItsCorners) {
  renderer::DebugLines lines;
  lines.AddBox(glm::vec3(-1, 0, 2), glm::vec3(1, 3, 4), renderer::colors::kWhite);
  ASSERT_EQ(lines.vertices().size(), 24u);
  for (const renderer::LineVertex& v : lines.vertices()) {
    EXPECT_TRUE(v.position.x == -1 || v.position.x == 1);
    EXPECT_TRUE(v.position.y == 0 || v.position.y == 3);
    EXPECT_TRUE(v.position.z == 2 || v.position.z == 4);
  }
}

TEST(DebugLinesTest, WidthIsTakenAtTheTimeOfEachCall) {
  renderer::DebugLines lines;
  lines.width = 3.0f;
  lines.AddLine({0, 0, 0}, {1, 0, 0}, renderer::colors::kRed);
  lines.width = 1.0f;
  lines.AddLine({0, 0, 0}, {0, 1, 0}, renderer::colors::kRed);
  EXPECT_EQ(lines.vertices()[0].width, 3.0f);
  EXPECT_EQ(lines.vertices()[2].width, 1.0f);
}

TEST(DebugLinesTest, SkeletonDrawsParentSegmentsAndHidesNonBones) {
  std::vector<ik::JointDesc> joints(3);
  joints[0].name = "scene";
  joints[1].name = "hip";
  joints[1].parent = 0;
  joints[1].rest.translation = {0, 1, 0};
  joints[2].name = "knee";
  joints[2].parent = 1;
  joints[2].rest.translation = {0, -0.5f, 0};
  std::string error;
  std::optional<ik::Skeleton> skeleton = ik::Skeleton::Build(joints, &error);
  ASSERT_TRUE(skeleton) << error;
  const std::vector<glm::mat4>& models = skeleton->rest_models();

  renderer::DebugLines all;
  all.AddSkeleton(*skeleton, models, renderer::colors::kWhite, 0.0f);
  EXPECT_EQ(all.vertices().size(), 4u);  // scene-hip, hip-knee

  renderer::DebugLines bones_only;
  const std::vector<bool> is_bone = {false, true, true};
  bones_only.AddSkeleton(*skeleton, models, renderer::colors::kWhite, 0.1f, &is_bone);
  // Two joint crosses (3 segments each) and the hip-knee segment.
  ASSERT_EQ(bones_only.vertices().size(), 2u * (3u * 2u) + 2u);
  const renderer::LineVertex& a = bones_only.vertices()[bones_only.vertices().size() - 2];
  const renderer::LineVertex& b = bones_only.vertices().back();
  EXPECT_EQ(a.position, glm::vec3(0, 1, 0));
  EXPECT_EQ(b.position, glm::vec3(0, 0.5f, 0));
}

TEST(DebugShapesTest, DiscIsAFanOfPixelOffsetsAroundItsAnchor) {
  renderer::DebugShapes shapes;
  shapes.AddDisc({1, 2, 3}, 8.0f, renderer::colors::kOrange, 12);
  ASSERT_EQ(shapes.vertices().size(), 36u);
  for (size_t i = 0; i < shapes.vertices().size(); ++i) {
    const renderer::ShapeVertex& v = shapes.vertices()[i];
    EXPECT_EQ(v.position, glm::vec3(1, 2, 3));
    EXPECT_EQ(v.axis, glm::vec3(0.0f));
    EXPECT_NEAR(glm::length(v.offset), i % 3 == 0 ? 0.0f : 8.0f, 1e-4f);
  }
}

TEST(GridTest, SpacingFollowsTheModelSize) {
  const renderer::GridParams human = renderer::GridForModelSize(1.8f);
  EXPECT_FLOAT_EQ(human.cell, 0.1f);
  EXPECT_FLOAT_EQ(human.cell * human.major_every, 1.0f);
  EXPECT_GE(human.extent, 5.0f);
  const renderer::GridParams centimetres = renderer::GridForModelSize(180.0f);
  EXPECT_FLOAT_EQ(centimetres.cell, 10.0f);
  EXPECT_GE(centimetres.extent, 500.0f);
  const renderer::GridParams fallback = renderer::GridForModelSize(std::nanf(""));
  EXPECT_FLOAT_EQ(fallback.cell, 0.1f);
}

}  // namespace
