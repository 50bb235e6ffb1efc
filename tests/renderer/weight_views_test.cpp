// The model program's weight views rendered offscreen: the influence-count palette and the
// weight-problem colours on a grey body (the images go to /tmp/skelview-renderer-tests/).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "renderer/offscreen.h"
#include "renderer/renderer.h"
#include "tests/renderer/gl_test_context.h"
#include "tests/renderer/test_rigs.h"

namespace {

using rendertest::Image;

constexpr int kSize = 256;

class WeightViewsTest : public rendertest::GlTest {
 protected:
  void SetUp() override {
    rendertest::GlTest::SetUp();
    if (HasFatalFailure()) return;
    std::string error;
    renderer_ = renderer::Renderer::Create(&error);
    ASSERT_TRUE(renderer_) << error;
    target_ = renderer::OffscreenTarget::Create(kSize, kSize, &error);
    ASSERT_TRUE(target_) << error;
  }
  void TearDown() override {
    target_.reset();
    renderer_.reset();
    rendertest::GlTest::TearDown();
  }

  // The tube (rendertest::MakeTube) drawn with `style`, the top fifth weighted to all four joints.
  Image Render(const assets::Model& tube, const renderer::ModelStyle& style,
               const std::string& name) {
    std::string error;
    std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(tube, &error);
    EXPECT_TRUE(gpu) << error;
    if (!gpu) return Image{};
    target_->Bind();
    renderer_->BeginFrame(view_);
    renderer_->DrawModel(*gpu, view_, style);
    Image image{kSize, kSize, target_->ReadPixels()};
    renderer::OffscreenTarget::BindDefault();
    rendertest::SaveForInspection(image, name);
    return image;
  }

  glm::ivec4 At(const Image& image, float y) const {
    bool in_front = false;
    const glm::vec2 p = rendertest::ProjectToPixel(view_, {0.0f, y, 0.15f}, &in_front);
    EXPECT_TRUE(in_front);
    return image.At(static_cast<int>(p.x), static_cast<int>(p.y));
  }

  const renderer::View view_ = rendertest::LookAt({0.0f, 0.8f, 3.2f}, {0.0f, 0.8f, 0.0f}, kSize);
  std::optional<renderer::Renderer> renderer_;
  std::optional<renderer::OffscreenTarget> target_;
};

// The tube with every vertex above y = 1.2 weighted a quarter to each of its four joints.
assets::Model FourInfluenceTop() {
  assets::Model tube = rendertest::MakeTube();
  assets::Mesh& mesh = tube.meshes.at(0);
  for (size_t v = 0; v < mesh.positions.size(); ++v) {
    if (mesh.positions[v].y <= 1.2f) continue;
    mesh.joints[v] = glm::u16vec4(0, 1, 2, 3);
    mesh.weights[v] = glm::vec4(0.25f);
  }
  return tube;
}

TEST_F(WeightViewsTest, InfluenceCountsHaveTheirColours) {
  renderer::ModelStyle style;
  style.influences = true;
  style.weight_joint = 0;  // the influence view wins over the heat map
  const Image image = Render(FourInfluenceTop(), style, "influences");
  // Two influences halfway between the first two joints: cyan.
  const glm::ivec4 two = At(image, 0.27f);
  EXPECT_GT(two.g, two.r + 60) << two.r << " " << two.g << " " << two.b;
  EXPECT_GT(two.b, two.r + 60);
  // Four at the top: yellow.
  const glm::ivec4 four = At(image, 1.4f);
  EXPECT_GT(four.r, four.b + 60) << four.r << " " << four.g << " " << four.b;
  EXPECT_GT(four.g, four.b + 60);
}

TEST_F(WeightViewsTest, ProblemVerticesAreBrightOnAGreyBody) {
  assets::Model tube = rendertest::MakeTube();
  assets::Mesh& mesh = tube.meshes.at(0);
  mesh.weight_flags.assign(mesh.positions.size(), 0);
  for (size_t v = 0; v < mesh.positions.size(); ++v) {
    const float y = mesh.positions[v].y;
    if (y > 1.2f) mesh.weight_flags[v] = assets::kWeightUnweighted;
    if (y > 0.45f && y < 0.85f) mesh.weight_flags[v] = assets::kWeightTooMany;
  }
  renderer::ModelStyle style;
  style.weight_problems = true;
  style.influences = true;  // the problem view wins
  const Image image = Render(tube, style, "weight_problems");
  const glm::ivec4 unweighted = At(image, 1.4f);  // magenta
  EXPECT_GT(unweighted.r, unweighted.g + 80);
  EXPECT_GT(unweighted.b, unweighted.g + 80);
  const glm::ivec4 too_many = At(image, 0.65f);  // red
  EXPECT_GT(too_many.r, too_many.g + 80);
  EXPECT_GT(too_many.r, too_many.b + 80);
  const glm::ivec4 clean = At(image, 0.2f);  // grey
  EXPECT_LT(std::abs(clean.r - clean.g), 12);
  EXPECT_LT(std::abs(clean.g - clean.b), 12);
  // The same mesh without flags (a second model, drawn after) is all grey: nothing leaks.
  assets::Model clean_tube = rendertest::MakeTube();
  const Image all_grey = Render(clean_tube, style, "weight_problems_none");
  const glm::ivec4 top = At(all_grey, 1.4f);
  EXPECT_LT(std::abs(top.r - top.g), 12);
  EXPECT_LT(std::abs(top.g - top.b), 12);
}

}  // namespace
