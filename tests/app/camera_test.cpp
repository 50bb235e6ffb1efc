// Camera and cursor-ray math: rays through pixels hit what projects to those pixels.
#include "app/scene/camera.h"

#include <gtest/gtest.h>

namespace {

TEST(OrbitCamera, EyeIsDistanceAwayFromTarget) {
  app::OrbitCamera camera;
  camera.target = {1, 2, 3};
  camera.distance = 5;
  EXPECT_NEAR(glm::length(camera.Eye() - camera.target), 5.0f, 1e-5f);
}

TEST(OrbitCamera, RayThroughProjectedPointPassesThroughIt) {
  app::OrbitCamera camera;
  camera.yaw = 0.7f;
  camera.pitch = -0.3f;
  const app::Viewport viewport{800, 600};
  const glm::mat4 view = camera.View(), projection = camera.Projection(viewport.aspect());
  const glm::vec3 points[] = {{0, 1, 0}, {0.3f, 1.4f, -0.2f}, {-0.5f, 0.2f, 0.4f}};
  for (const glm::vec3& p : points) {
    glm::vec2 pixel;
    ASSERT_TRUE(app::ProjectToPixel(view, projection, viewport, p, &pixel));
    const app::Ray ray = app::RayFromPixel(view, projection, viewport, pixel.x, pixel.y);
    const glm::vec3 to_point = p - ray.origin;
    const float distance_to_ray =
        glm::length(to_point - glm::dot(to_point, ray.direction) * ray.direction);
    EXPECT_LT(distance_to_ray, 1e-4f);
    EXPECT_NEAR(glm::length(ray.direction), 1.0f, 1e-5f);
  }
}

TEST(OrbitCamera, CentrePixelLooksAtTarget) {
  app::OrbitCamera camera;
  const app::Viewport viewport{640, 480};
  glm::vec2 pixel;
  ASSERT_TRUE(app::ProjectToPixel(camera.View(), camera.Projection(viewport.aspect()), viewport,
                                  camera.target, &pixel));
  EXPECT_NEAR(pixel.x, 320.0f, 1e-3f);
  EXPECT_NEAR(pixel.y, 240.0f, 1e-3f);
}

TEST(OrbitCamera, PanKeepsPointUnderCursor) {
  app::OrbitCamera camera;
  const app::Viewport viewport{800, 600};
  glm::vec2 before;
  app::ProjectToPixel(camera.View(), camera.Projection(viewport.aspect()), viewport, camera.target,
                      &before);
  const glm::vec3 old_target = camera.target;
  camera.Pan(40.0f, -25.0f, viewport);
  glm::vec2 after;
  app::ProjectToPixel(camera.View(), camera.Projection(viewport.aspect()), viewport, old_target,
                      &after);
  EXPECT_NEAR(after.x - before.x, 40.0f, 0.05f);
  EXPECT_NEAR(after.y - before.y, -25.0f, 0.05f);
}

TEST(OrbitCamera, FrameFitsBoxOfAnyUnit) {
  for (float scale : {0.01f, 1.0f, 100.0f}) {
    app::OrbitCamera camera;
    const glm::vec3 lo = glm::vec3(-0.3f, 0.0f, -0.2f) * scale;
    const glm::vec3 hi = glm::vec3(0.3f, 1.8f, 0.2f) * scale;
    const app::Viewport viewport{800, 600};
    camera.Frame(lo, hi, viewport.aspect());
    const glm::mat4 view = camera.View(), projection = camera.Projection(viewport.aspect());
    for (int corner = 0; corner < 8; ++corner) {
      const glm::vec3 p((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y,
                        (corner & 4) ? hi.z : lo.z);
      glm::vec2 pixel;
      ASSERT_TRUE(app::ProjectToPixel(view, projection, viewport, p, &pixel));
      EXPECT_GE(pixel.x, 0.0f);
      EXPECT_LE(pixel.x, 800.0f);
      EXPECT_GE(pixel.y, 0.0f);
      EXPECT_LE(pixel.y, 600.0f);
      const glm::vec4 clip = projection * view * glm::vec4(p, 1.0f);
      EXPECT_LT(std::abs(clip.z / clip.w), 1.0f) << "clipped by near/far at scale " << scale;
    }
  }
}

TEST(OrbitCamera, LensShiftMovesTheTargetRightAndKeepsRaysConsistent) {
  app::OrbitCamera camera;
  camera.lens_shift_ndc = 0.3f;
  const app::Viewport viewport{1000, 600};
  const glm::mat4 view = camera.View(), projection = camera.Projection(viewport.aspect());
  glm::vec2 pixel;
  ASSERT_TRUE(app::ProjectToPixel(view, projection, viewport, camera.target, &pixel));
  EXPECT_NEAR(pixel.x, 500.0f * 1.3f, 1e-2f);
  EXPECT_NEAR(pixel.y, 300.0f, 1e-2f);
  const app::Ray ray = app::RayFromPixel(view, projection, viewport, pixel.x, pixel.y);
  const glm::vec3 to_target = camera.target - ray.origin;
  EXPECT_LT(glm::length(to_target - glm::dot(to_target, ray.direction) * ray.direction), 1e-4f);
  // Framing still keeps a box inside the visible part right of x = 0.3 in NDC.
  camera.Frame({-0.3f, 0.0f, -0.2f}, {0.3f, 1.8f, 0.2f}, viewport.aspect());
  const glm::mat4 v2 = camera.View(), p2 = camera.Projection(viewport.aspect());
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec3 p((corner & 1) ? 0.3f : -0.3f, (corner & 2) ? 1.8f : 0.0f,
                      (corner & 4) ? 0.2f : -0.2f);
    ASSERT_TRUE(app::ProjectToPixel(v2, p2, viewport, p, &pixel));
    EXPECT_GE(pixel.x, 0.3f * 500.0f);
    EXPECT_LE(pixel.x, 1000.0f);
  }
}

// Whether every corner of the box projects inside `free` (pixels, with a pixel's slack).
void ExpectBoxInside(const app::OrbitCamera& camera, const app::Viewport& viewport,
                     const glm::vec3& lo, const glm::vec3& hi, const app::FreeArea& free) {
  const glm::mat4 view = camera.View(), projection = camera.Projection(viewport.aspect());
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec3 p((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y,
                      (corner & 4) ? hi.z : lo.z);
    glm::vec2 pixel;
    ASSERT_TRUE(app::ProjectToPixel(view, projection, viewport, p, &pixel));
    EXPECT_GE(pixel.x, free.left - 1.0f) << "corner " << corner;
    EXPECT_LE(pixel.x, free.right + 1.0f) << "corner " << corner;
    EXPECT_GE(pixel.y, free.top - 1.0f) << "corner " << corner;
    EXPECT_LE(pixel.y, free.bottom + 1.0f) << "corner " << corner;
  }
}

TEST(OrbitCamera, FramingFitsTheBoxIntoThePartThePanelsLeaveFree) {
  // 1000 x 620 at 200 % UI: a side panel 640 wide (more than half the window), the menu bar
  // 38 high, the timeline from y = 327 down. Perspective and orthographic.
  const app::Viewport viewport{1000, 620};
  const app::FreeArea free{640.0f, 38.0f, 1000.0f, 327.0f};
  const glm::vec3 lo(-0.3f, 0.0f, -0.2f), hi(0.3f, 1.8f, 0.2f);
  for (bool ortho : {false, true}) {
    for (float yaw : {0.0f, 0.7f, 2.5f}) {
      app::OrbitCamera camera;
      camera.ortho = ortho;
      camera.yaw = yaw;
      app::CentreOnFreeArea(viewport, free, &camera);
      camera.Frame(lo, hi, viewport.aspect());
      glm::vec2 target;
      ASSERT_TRUE(app::ProjectToPixel(camera.View(), camera.Projection(viewport.aspect()), viewport,
                                      camera.target, &target));
      EXPECT_NEAR(target.x, 820.0f, 0.5f) << "the free part's centre";
      EXPECT_NEAR(target.y, 182.5f, 0.5f);
      ExpectBoxInside(camera, viewport, lo, hi, free);
    }
  }
}

TEST(OrbitCamera, AFreePartTooNarrowUsesTheWholeViewport) {
  const app::Viewport viewport{1000, 620};
  app::OrbitCamera camera;
  app::CentreOnFreeArea(viewport, {950.0f, 0.0f, 1000.0f, 620.0f}, &camera);
  EXPECT_EQ(camera.lens_shift_ndc, 0.0f);
  EXPECT_EQ(camera.free_half_width, 1.0f);
  EXPECT_EQ(camera.lens_shift_y_ndc, 0.0f);  // the free part is the whole height
  EXPECT_EQ(camera.free_half_height, 1.0f);
  // Nothing known yet (the first frame): the whole viewport.
  app::CentreOnFreeArea(viewport, {}, &camera);
  EXPECT_EQ(camera.lens_shift_ndc, 0.0f);
  EXPECT_EQ(camera.lens_shift_y_ndc, 0.0f);
  const glm::vec3 lo(-0.3f, 0.0f, -0.2f), hi(0.3f, 1.8f, 0.2f);
  camera.Frame(lo, hi, viewport.aspect());
  ExpectBoxInside(camera, viewport, lo, hi, {0.0f, 0.0f, 1000.0f, 620.0f});
}

TEST(OrbitCamera, PitchNeverReachesThePole) {
  app::OrbitCamera camera;
  camera.Orbit(0.0f, 1e6f);
  EXPECT_LT(camera.pitch, 1.5708f);
  const glm::mat4 view = camera.View();
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) EXPECT_TRUE(std::isfinite(view[c][r]));
}

}  // namespace

namespace {

glm::vec2 PixelOf(const app::OrbitCamera& camera, const app::Viewport& viewport,
                  const glm::vec3& world) {
  glm::vec2 pixel(-1.0f);
  EXPECT_TRUE(app::ProjectToPixel(camera.View(), camera.Projection(viewport.aspect()), viewport,
                                  world, &pixel));
  return pixel;
}

TEST(ViewPresets, EachLooksAlongItsAxisWithTheRightSideUp) {
  const app::Viewport viewport{800, 600};
  app::OrbitCamera camera;
  camera.target = glm::vec3(0.5f, 1.0f, -0.25f);
  camera.distance = 4.0f;
  struct Case {
    app::ViewPreset preset;
    glm::vec3 eye_direction;  // from the target toward the eye
    glm::vec3 screen_up;      // a world direction that must appear straight up on screen
  };
  const Case cases[] = {
      {app::ViewPreset::kFront, {0, 0, 1}, {0, 1, 0}},
      {app::ViewPreset::kBack, {0, 0, -1}, {0, 1, 0}},
      {app::ViewPreset::kRight, {1, 0, 0}, {0, 1, 0}},
      {app::ViewPreset::kLeft, {-1, 0, 0}, {0, 1, 0}},
      {app::ViewPreset::kTop, {0, 1, 0}, {0, 0, -1}},
      {app::ViewPreset::kBottom, {0, -1, 0}, {0, 0, 1}},
  };
  for (const Case& c : cases) {
    app::LookAlong(c.preset, &camera);
    const std::string name = app::ViewPresetName(c.preset);
    const glm::vec3 eye_dir = glm::normalize(camera.Eye() - camera.target);
    EXPECT_LT(glm::length(eye_dir - c.eye_direction), 1e-5f) << name;
    const glm::vec2 centre = PixelOf(camera, viewport, camera.target);
    const glm::vec2 above = PixelOf(camera, viewport, camera.target + 0.1f * c.screen_up);
    EXPECT_NEAR(above.x, centre.x, 1e-2f) << name;
    EXPECT_LT(above.y, centre.y - 5.0f) << name;
    app::ViewPreset parsed = app::ViewPreset::kFront;
    ASSERT_TRUE(app::ParseViewPreset(name, &parsed));
    EXPECT_EQ(parsed, c.preset);
  }
  app::ViewPreset parsed;
  EXPECT_FALSE(app::ParseViewPreset("diagonal", &parsed));
}

TEST(OrthoCamera, DepthDoesNotChangeWhereAPointAppearsAndRaysAreParallel) {
  const app::Viewport viewport{640, 480};
  app::OrbitCamera camera;
  camera.ortho = true;
  camera.yaw = 0.3f;
  camera.pitch = 0.2f;
  const glm::vec3 p(0.2f, 1.3f, 0.1f);
  const glm::vec2 near_px = PixelOf(camera, viewport, p + camera.Forward() * 0.5f);
  const glm::vec2 far_px = PixelOf(camera, viewport, p - camera.Forward() * 0.5f);
  EXPECT_LT(glm::length(near_px - far_px), 1e-3f);
  // As tall as the perspective view at the target: the same zoom shows the same height there.
  const float half_height = camera.distance * std::tan(camera.fov_y * 0.5f);
  const glm::vec2 top = PixelOf(
      camera, viewport, camera.target + half_height * glm::vec3(0, 1, 0) / std::cos(camera.pitch));
  EXPECT_NEAR(top.y, 0.0f, 1.0f);
  const glm::mat4 view = camera.View(), projection = camera.Projection(viewport.aspect());
  for (const glm::vec2& px : {glm::vec2(10, 10), glm::vec2(320, 240), glm::vec2(600, 400)}) {
    const app::Ray ray = app::RayFromPixel(view, projection, viewport, px.x, px.y);
    EXPECT_GT(glm::dot(ray.direction, camera.Forward()), 1.0f - 1e-5f);
    EXPECT_LT(glm::length(PixelOf(camera, viewport, ray.origin + ray.direction) - px), 1e-2f);
  }
}

}  // namespace
