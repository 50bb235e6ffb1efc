// Offscreen renders checked pixel by pixel: a lit skinned model over the background, the ground
// grid, debug lines and shapes in each depth mode, textures, styles, and a 1,025-joint rig.
// Every image is also written to /tmp/skelview-renderer-tests/ for looking at.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <glm/gtc/matrix_transform.hpp>

#include "renderer/offscreen.h"
#include "renderer/renderer.h"
#include "tests/renderer/gl_test_context.h"
#include "tests/renderer/test_rigs.h"

namespace {

using rendertest::ColorDistance;
using rendertest::Image;
using rendertest::Luma;

constexpr int kSize = 256;

class RenderTest : public rendertest::GlTest {
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

  // Clears the target with the default background, runs `draw`, reads the pixels back.
  Image Render(const renderer::View& view, const std::function<void()>& draw,
               const std::string& save_as = "") {
    target_->Bind();
    renderer_->BeginFrame(view);
    draw();
    Image image{kSize, kSize, target_->ReadPixels()};
    renderer::OffscreenTarget::BindDefault();
    if (!save_as.empty()) rendertest::SaveForInspection(image, save_as);
    return image;
  }

  renderer::GpuModel Upload(const assets::Model& model) {
    std::string error;
    std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(model, &error);
    EXPECT_TRUE(gpu) << error;
    return gpu ? std::move(*gpu) : renderer::GpuModel();
  }

  glm::ivec2 Pixel(const renderer::View& view, const glm::vec3& world) {
    bool in_front = false;
    const glm::vec2 p = rendertest::ProjectToPixel(view, world, &in_front);
    EXPECT_TRUE(in_front);
    return glm::ivec2(glm::floor(p));
  }

  std::optional<renderer::Renderer> renderer_;
  std::optional<renderer::OffscreenTarget> target_;
};

// The tube bent at its two upper joints.
std::vector<glm::mat4> BentTube(const assets::Model& tube) {
  ik::Pose pose = ik::Pose::Rest(tube.skeleton);
  pose.locals[1].rotation = glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  pose.locals[2].rotation = glm::angleAxis(0.4f, glm::vec3(0, 0, 1));
  return rendertest::JointModels(tube.skeleton, pose);
}

// Pixels where two images differ by more than `threshold` in some channel.
std::vector<glm::ivec2> Differing(const Image& a, const Image& b, int threshold) {
  std::vector<glm::ivec2> pixels;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x)
      if (ColorDistance(a.At(x, y), b.At(x, y)) > threshold) pixels.push_back({x, y});
  return pixels;
}

TEST_F(RenderTest, SkinnedModelIsLitWithAGradientOverTheGrid) {
  const assets::Model tube = rendertest::MakeTube();
  renderer::GpuModel gpu = Upload(tube);
  ASSERT_TRUE(gpu.UpdatePose(BentTube(tube)));
  const renderer::View view = rendertest::LookAt({1.0f, 1.3f, 3.2f}, {0.0f, 0.7f, 0.0f}, kSize);
  const renderer::GridParams grid = renderer::GridForModelSize(1.6f);

  const Image background = Render(
      view, [] {}, "background");
  const Image grid_only = Render(
      view, [&] { renderer_->DrawGrid(view, grid); }, "grid_only");
  const Image scene = Render(
      view,
      [&] {
        renderer_->DrawModel(gpu, view);
        renderer_->DrawGrid(view, grid);
      },
      "tube_scene");

  // The background is a gradient, lighter at the top.
  EXPECT_GT(Luma(background.At(kSize / 2, 2)), Luma(background.At(kSize / 2, kSize - 3)) + 20);

  // The model covers its projection and not the whole frame.
  const std::vector<glm::ivec2> model = Differing(scene, grid_only, 24);
  EXPECT_GT(model.size(), 2000u);
  EXPECT_LT(model.size(), static_cast<size_t>(kSize * kSize / 3));
  const glm::ivec2 low_axis = Pixel(view, {0.0f, 0.3f, 0.0f});  // inside the unbent part
  EXPECT_GT(ColorDistance(scene.At(low_axis.x, low_axis.y), grid_only.At(low_axis.x, low_axis.y)),
            40);
  // Far from the model (top left corner) the scene is just background.
  EXPECT_LE(ColorDistance(scene.At(3, 3), background.At(3, 3)), 2);

  // Lit, not a flat silhouette: brightness varies a lot across the model's pixels.
  std::vector<float> luma;
  for (const glm::ivec2& p : model) luma.push_back(Luma(scene.At(p.x, p.y)));
  std::sort(luma.begin(), luma.end());
  const float p5 = luma[luma.size() / 20], p95 = luma[luma.size() * 19 / 20];
  EXPECT_GT(p95 - p5, 40.0f) << "p5 " << p5 << " p95 " << p95;
  // And the bent upper part is where the pose put it: the top of the tube is to the left of x=0
  // (bending about +z turns +y towards -x).
  const glm::ivec2 top = Pixel(view, glm::vec3(BentTube(tube)[3][3]) + glm::vec3(0, -0.05f, 0));
  const glm::ivec2 unbent_top = Pixel(view, {0.0f, 1.55f, 0.0f});
  EXPECT_GT(ColorDistance(scene.At(top.x, top.y), grid_only.At(top.x, top.y)), 24);
  EXPECT_LE(
      ColorDistance(scene.At(unbent_top.x, unbent_top.y), grid_only.At(unbent_top.x, unbent_top.y)),
      24);

  // The grid is drawn on the ground: lines near the origin, red along x, blue along z.
  EXPECT_GT(Differing(grid_only, background, 8).size(), 1500u);
  const glm::ivec2 on_x = Pixel(view, {0.8f, 0.0f, 0.0f});
  const glm::ivec4 x_axis = grid_only.At(on_x.x, on_x.y);
  EXPECT_GT(x_axis.r, x_axis.b + 40) << on_x.x << "," << on_x.y;
  const glm::ivec2 on_z = Pixel(view, {0.0f, 0.0f, 0.6f});
  const glm::ivec4 z_axis = grid_only.At(on_z.x, on_z.y);
  EXPECT_GT(z_axis.b, z_axis.r + 40) << on_z.x << "," << on_z.y;
  // Nothing of the grid above the horizon.
  EXPECT_TRUE(
      Differing(
          Image{kSize, 20, {grid_only.rgba.begin(), grid_only.rgba.begin() + kSize * 20 * 4}},
          Image{kSize, 20, {background.rgba.begin(), background.rgba.begin() + kSize * 20 * 4}}, 2)
          .empty());
}

TEST_F(RenderTest, DebugLinesHaveTheirColourAndPixelWidth) {
  const renderer::View view = rendertest::LookAt({0.0f, 0.0f, 3.0f}, {0.0f, 0.0f, 0.0f}, kSize);
  const glm::vec4 green(0.0f, 1.0f, 0.0f, 1.0f);
  const Image background = Render(view, [] {});
  auto draw_line = [&](float width) {
    renderer::DebugLines lines;
    lines.width = width;
    // Slightly off the pixel grid, so that coverage rather than rounding decides.
    lines.AddLine({-0.5f, 0.013f, 0.0f}, {0.5f, 0.013f, 0.0f}, green);
    return Render(
        view, [&] { renderer_->DrawLines(lines, view, renderer::DepthMode::kOnTop); },
        "line_width_" + std::to_string(static_cast<int>(width)));
  };
  // Summed green coverage of a column near the frame's middle row: the line's width in pixels
  // (multisampled edges count partially).
  auto coverage = [&](const Image& image, int column) {
    float sum = 0.0f;
    for (int y = image.height / 2 - 20; y < image.height / 2 + 20; ++y) {
      const float bg = static_cast<float>(background.At(column, y).g);
      sum += (static_cast<float>(image.At(column, y).g) - bg) / (255.0f - bg);
    }
    return sum;
  };
  const Image thin = draw_line(1.0f);
  const Image thick = draw_line(3.0f);
  const int column = kSize / 2 - 40;
  EXPECT_NEAR(coverage(thin, column), 1.0f, 0.3f);
  EXPECT_NEAR(coverage(thick, column), 3.0f, 0.3f);
  // Pure line colour where the thick line fully covers pixels.
  int solid = 0;
  for (int y = 0; y < kSize; ++y) {
    const glm::ivec4 p = thick.At(column, y);
    if (p.g > 240 && p.r < 15 && p.b < 15) ++solid;
  }
  EXPECT_GE(solid, 2);
  // The line ends where its endpoints project, not at the frame's edge.
  EXPECT_NEAR(coverage(thick, 5), 0.0f, 0.05f);
}

TEST_F(RenderTest, LinesCrossingTheNearPlaneAreClippedNotFlipped) {
  const renderer::View view = rendertest::LookAt({0.0f, 0.0f, 3.0f}, {0.0f, 0.0f, 0.0f}, kSize);
  renderer::DebugLines lines;
  lines.width = 3.0f;
  // From behind the camera to well in front of it, below and right of the view axis.
  lines.AddLine({0.3f, -0.2f, 6.0f}, {0.3f, -0.2f, -3.0f}, {0, 1, 0, 1});
  // Entirely behind the camera: nothing at all.
  lines.AddLine({-0.3f, 0.2f, 4.0f}, {-0.3f, 0.2f, 8.0f}, {1, 0, 0, 1});
  const Image image = Render(
      view, [&] { renderer_->DrawLines(lines, view, renderer::DepthMode::kOnTop); }, "near_plane");
  int green = 0, red = 0, upper_left = 0;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const glm::ivec4 p = image.At(x, y);
      if (p.g > 150 && p.r < 80) {
        ++green;
        if (x < kSize / 2 && y < kSize / 2) ++upper_left;
      }
      if (p.r > 150 && p.g < 80) ++red;
    }
  EXPECT_GT(green, 100);                 // the visible part runs from the frame edge inwards
  EXPECT_LT(green, kSize * kSize / 20);  // as a line, not a quad blown up by w <= 0
  EXPECT_EQ(upper_left, 0);              // and on the side where it really is
  EXPECT_EQ(red, 0);
}

TEST_F(RenderTest, DebugLinesRespectTheDepthMode) {
  const assets::Model tube = rendertest::MakeTube();
  renderer::GpuModel gpu = Upload(tube);
  const renderer::View view = rendertest::LookAt({0.0f, 0.8f, 3.0f}, {0.0f, 0.8f, 0.0f}, kSize);
  const glm::vec4 magenta(1.0f, 0.0f, 1.0f, 1.0f);
  renderer::DebugLines lines;
  lines.width = 4.0f;
  lines.AddLine({-0.6f, 0.8f, -0.5f}, {0.6f, 0.8f, -0.5f}, magenta);  // behind the tube
  auto render = [&](renderer::DepthMode mode, const std::string& name) {
    return Render(
        view,
        [&] {
          renderer_->DrawModel(gpu, view);
          renderer_->DrawLines(lines, view, mode);
        },
        name);
  };
  const Image tested = render(renderer::DepthMode::kTested, "lines_tested");
  const Image on_top = render(renderer::DepthMode::kOnTop, "lines_on_top");
  const Image dimmed = render(renderer::DepthMode::kHiddenDimmed, "lines_dimmed");
  const glm::ivec2 hidden = Pixel(view, {0.0f, 0.8f, -0.5f});
  const glm::ivec2 visible = Pixel(view, {0.45f, 0.8f, -0.5f});
  auto is_magenta = [](const glm::ivec4& p) { return p.r > 220 && p.b > 220 && p.g < 40; };
  EXPECT_TRUE(is_magenta(tested.At(visible.x, visible.y)));
  EXPECT_FALSE(is_magenta(tested.At(hidden.x, hidden.y)));
  EXPECT_TRUE(is_magenta(on_top.At(hidden.x, hidden.y)));
  EXPECT_TRUE(is_magenta(dimmed.At(visible.x, visible.y)));
  // Hidden parts show faintly: between the surface and full magenta.
  const glm::ivec4 surface = tested.At(hidden.x, hidden.y), faint = dimmed.At(hidden.x, hidden.y);
  EXPECT_GT(ColorDistance(faint, surface), 15);
  EXPECT_FALSE(is_magenta(faint));
}

TEST_F(RenderTest, HandlesKeepTheirPixelSizeAndFaceTheScreen) {
  const glm::vec4 yellow(1.0f, 1.0f, 0.0f, 1.0f);
  auto disc_pixels = [&](float distance) {
    const renderer::View view = rendertest::LookAt({0.3f, 0.2f, distance}, {0, 0, 0}, kSize);
    renderer::DebugShapes shapes;
    shapes.AddDisc({0, 0, 0}, 10.0f, yellow, 32);
    const Image image = Render(
        view, [&] { renderer_->DrawShapes(shapes, view, renderer::DepthMode::kOnTop); },
        "disc_" + std::to_string(static_cast<int>(distance)));
    int count = 0;
    for (int y = 0; y < kSize; ++y)
      for (int x = 0; x < kSize; ++x) {
        const glm::ivec4 p = image.At(x, y);
        if (p.r > 128 && p.g > 128 && p.b < 100) ++count;
      }
    return count;
  };
  const float area = 3.14159f * 100.0f;
  const int near_count = disc_pixels(2.0f), far_count = disc_pixels(20.0f);
  EXPECT_NEAR(near_count, area, 0.15f * area);
  EXPECT_NEAR(far_count, area, 0.15f * area);
}

TEST_F(RenderTest, ArrowHeadPointsAlongTheProjectedDirection) {
  const renderer::View view = rendertest::LookAt({0.0f, 0.0f, 3.0f}, {0, 0, 0}, kSize);
  renderer::DebugShapes shapes;
  // Points along world +x, which is screen right: the head lies left of its tip.
  shapes.AddArrowHead({0, 0, 0}, {1, 0, 0}, 20.0f, 8.0f, {1, 0, 0, 1});
  const Image image = Render(
      view, [&] { renderer_->DrawShapes(shapes, view, renderer::DepthMode::kOnTop); },
      "arrow_head");
  const glm::ivec2 tip = Pixel(view, {0, 0, 0});
  auto red = [&](int x, int y) { return image.At(x, y).r > 200 && image.At(x, y).g < 60; };
  EXPECT_TRUE(red(tip.x - 12, tip.y));
  EXPECT_FALSE(red(tip.x + 6, tip.y));
  EXPECT_FALSE(red(tip.x - 12, tip.y - 10));  // narrower than 8 px there
}

TEST_F(RenderTest, ReadPixelsReturnsTheTopRowFirst) {
  renderer::View view;  // identity: world = clip space
  view.viewport = {kSize, kSize};
  renderer::DebugShapes shapes;
  shapes.AddSquare({0.0f, 0.5f, 0.0f}, 6.0f, {0, 0, 1, 1});  // upper half of the frame
  const Image image =
      Render(view, [&] { renderer_->DrawShapes(shapes, view, renderer::DepthMode::kOnTop); });
  EXPECT_GT(image.At(kSize / 2, kSize / 4).b, 200);
  EXPECT_LT(image.At(kSize / 2, 3 * kSize / 4).b, 100);
  EXPECT_EQ(image.At(0, 0).a, 255);  // opaque even where blended
}

TEST_F(RenderTest, MultisamplingSmoothsEdgesWhenAvailable) {
  std::string error;
  std::optional<renderer::OffscreenTarget> plain =
      renderer::OffscreenTarget::Create(64, 32, &error, 0);
  ASSERT_TRUE(plain) << error;
  EXPECT_EQ(plain->samples(), 0);
  EXPECT_EQ(plain->ReadPixels().size(), 64u * 32u * 4u);
  renderer::OffscreenTarget::BindDefault();
  EXPECT_FALSE(renderer::OffscreenTarget::Create(0, 10, &error));
  EXPECT_FALSE(error.empty());

  // The default target asked for 4 samples; llvmpipe offers them. With them, a slanted edge has
  // pixels between the two colours.
  const int samples = target_->samples();
  RecordProperty("samples", samples);
  if (samples == 0) GTEST_SKIP() << "driver offers no multisampling; edges stay aliased";
  const renderer::View view = rendertest::LookAt({0, 0, 3}, {0, 0, 0}, kSize);
  renderer::DebugShapes shapes;
  shapes.AddTriangle({-1, -1, 0}, {1, -0.7f, 0}, {0, 1, 0}, {1, 1, 1, 1});
  const Image image =
      Render(view, [&] { renderer_->DrawShapes(shapes, view, renderer::DepthMode::kOnTop); });
  int partial = 0;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const int r = image.At(x, y).r;
      if (Luma(image.At(x, y)) > 0 && r > 90 && r < 200) ++partial;
    }
  EXPECT_GT(partial, 100);
}

TEST_F(RenderTest, TextureCoordinatesStartAtTheImagesTopRow) {
  assets::Model tube = rendertest::MakeTube();
  // Top half red, bottom half blue; the tube's v runs from 0 at its base to 1 at its top.
  assets::Texture texture{"halves", 8, 8, {}};
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      const bool top = y < 4;
      texture.rgba.insert(texture.rgba.end(), {static_cast<uint8_t>(top ? 255 : 0), 0,
                                               static_cast<uint8_t>(top ? 0 : 255), 255});
    }
  tube.textures.push_back(texture);
  tube.materials[0].base_color = glm::vec4(1.0f);
  tube.materials[0].base_color_texture = 0;
  renderer::GpuModel gpu = Upload(tube);
  const renderer::View view = rendertest::LookAt({0.0f, 0.8f, 3.2f}, {0.0f, 0.8f, 0.0f}, kSize);
  const Image textured = Render(
      view, [&] { renderer_->DrawModel(gpu, view); }, "textured");
  renderer::ModelStyle plain_style;
  plain_style.textures = false;
  const Image plain = Render(view, [&] { renderer_->DrawModel(gpu, view, plain_style); });
  const glm::ivec2 low = Pixel(view, {0.0f, 0.2f, 0.15f});
  const glm::ivec2 high = Pixel(view, {0.0f, 1.4f, 0.15f});
  EXPECT_GT(textured.At(low.x, low.y).r, textured.At(low.x, low.y).b + 60);
  EXPECT_GT(textured.At(high.x, high.y).b, textured.At(high.x, high.y).r + 60);
  const glm::ivec4 grey = plain.At(low.x, low.y);
  EXPECT_LT(std::abs(grey.r - grey.b), 20);
}

TEST_F(RenderTest, GhostedModelBlendsWithWhatIsBehind) {
  const assets::Model tube = rendertest::MakeTube();
  renderer::GpuModel gpu = Upload(tube);
  const renderer::View view = rendertest::LookAt({0.0f, 0.8f, 3.0f}, {0.0f, 0.8f, 0.0f}, kSize);
  renderer::ModelStyle ghost;
  ghost.opacity = 0.4f;
  const Image solid = Render(view, [&] { renderer_->DrawModel(gpu, view); });
  const Image ghosted = Render(
      view, [&] { renderer_->DrawModel(gpu, view, ghost); }, "ghosted");
  const Image empty = Render(view, [] {});
  const glm::ivec2 c = Pixel(view, {0.0f, 0.8f, 0.15f});
  const float s = Luma(solid.At(c.x, c.y)), g = Luma(ghosted.At(c.x, c.y)),
              e = Luma(empty.At(c.x, c.y));
  EXPECT_NEAR(g, e + 0.4f * (s - e), 6.0f);
}

TEST_F(RenderTest, WeightHeatMapShowsTheChosenJoint) {
  const assets::Model tube = rendertest::MakeTube();
  renderer::GpuModel gpu = Upload(tube);
  const renderer::View view = rendertest::LookAt({0.0f, 0.8f, 3.2f}, {0.0f, 0.8f, 0.0f}, kSize);
  renderer::ModelStyle weights;
  weights.weight_joint = 0;  // weight 1 at the base, 0 from a third of the height up
  const Image image = Render(
      view, [&] { renderer_->DrawModel(gpu, view, weights); }, "weights");
  const glm::ivec2 base = Pixel(view, {0.0f, 0.02f, 0.15f});
  const glm::ivec2 top = Pixel(view, {0.0f, 1.2f, 0.15f});
  EXPECT_GT(image.At(base.x, base.y).r, image.At(base.x, base.y).b + 60);
  EXPECT_GT(image.At(top.x, top.y).b, image.At(top.x, top.y).r + 30);
}

TEST_F(RenderTest, ThousandJointRigRendersEveryBoneWhereCpuSkinningPutsIt) {
  const assets::Model rig = rendertest::MakeWideRig();
  ASSERT_GE(rig.skeleton.joint_count(), 1024);
  const std::vector<glm::mat4> joint_models =
      rendertest::JointModels(rig.skeleton, rendertest::RandomPose(rig.skeleton, 5, 0.3f, 0.1f));
  renderer::GpuModel gpu = Upload(rig);
  ASSERT_TRUE(gpu.UpdatePose(joint_models));

  std::vector<std::vector<glm::vec3>> skinned;
  for (const assets::Mesh& mesh : rig.meshes)
    skinned.push_back(rendertest::ReferenceSkin(mesh, joint_models));
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const auto& mesh : skinned)
    for (const glm::vec3& p : mesh) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  const glm::vec3 center = 0.5f * (lo + hi);
  const float radius = 0.5f * glm::length(hi - lo);
  const renderer::View view =
      rendertest::LookAt(center + radius * glm::vec3(0.0f, 1.6f, 2.2f), center, kSize);

  const Image empty = Render(view, [] {});
  const Image image = Render(
      view, [&] { renderer_->DrawModel(gpu, view); }, "wide_rig");
  // Each box is 24 vertices; its centre is the mean. Every box, including those of joints past
  // 1,000, must show on a model pixel.
  int boxes = 0, covered = 0;
  for (const auto& mesh : skinned) {
    for (size_t first = 0; first + 24 <= mesh.size(); first += 24) {
      glm::vec3 c(0.0f);
      for (size_t v = first; v < first + 24; ++v) c += mesh[v] / 24.0f;
      const glm::ivec2 p = Pixel(view, c);
      if (!image.Contains(p.x, p.y)) continue;
      ++boxes;
      if (ColorDistance(image.At(p.x, p.y), empty.At(p.x, p.y)) > 20) ++covered;
    }
  }
  EXPECT_EQ(boxes, rig.skeleton.joint_count() - 1);
  EXPECT_EQ(covered, boxes);
}

}  // namespace
