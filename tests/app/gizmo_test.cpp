// The target gizmo's math: hit testing in pixels and drags on the view plane, an axis or a plane.
#include "app/scene/gizmo.h"

#include <gtest/gtest.h>

namespace {

struct Scene {
  app::OrbitCamera camera;
  app::GizmoView gizmo;
  app::GizmoStyle style;

  explicit Scene(float yaw = 0.6f, float pitch = 0.3f, glm::vec3 origin = {0.1f, 0.8f, 0.2f},
                 bool ortho = false) {
    camera.yaw = yaw;
    camera.pitch = pitch;
    camera.distance = 3.0f;
    camera.ortho = ortho;
    gizmo.viewport = {900, 700};
    gizmo.view = camera.View();
    gizmo.projection = camera.Projection(gizmo.viewport.aspect());
    gizmo.origin = origin;
  }
  glm::vec2 Pixel(const glm::vec3& p) const {
    glm::vec2 px;
    EXPECT_TRUE(app::ProjectToPixel(gizmo.view, gizmo.projection, gizmo.viewport, p, &px));
    return px;
  }
  app::Ray RayAt(const glm::vec2& px) const {
    return app::RayFromPixel(gizmo.view, gizmo.projection, gizmo.viewport, px.x, px.y);
  }
};

TEST(Gizmo, WorldPerPixelGivesConstantScreenSize) {
  Scene s;
  const float wpp = app::WorldPerPixel(s.gizmo);
  const glm::vec3 right = glm::vec3(glm::transpose(s.gizmo.view)[0]);  // camera right, world
  const glm::vec2 a = s.Pixel(s.gizmo.origin);
  const glm::vec2 b = s.Pixel(s.gizmo.origin + right * (wpp * 40.0f));
  EXPECT_NEAR(glm::length(b - a), 40.0f, 0.5f);
}

TEST(Gizmo, WorldPerPixelGivesConstantScreenSizeInAnOrthographicView) {
  // Handles near and far from the camera: in a parallel projection a pixel is the same length
  // at every depth, and the arrows are as long on screen as in perspective.
  for (const glm::vec3& origin : {glm::vec3(0.1f, 0.8f, 0.2f), glm::vec3(-0.4f, 0.2f, -1.5f)}) {
    Scene s(0.6f, 0.3f, origin, /*ortho=*/true);
    ASSERT_TRUE(app::IsOrthographic(s.gizmo.projection));
    const float wpp = app::WorldPerPixel(s.gizmo);
    const glm::vec3 right = glm::vec3(glm::transpose(s.gizmo.view)[0]);
    const glm::vec2 a = s.Pixel(s.gizmo.origin);
    EXPECT_NEAR(glm::length(s.Pixel(s.gizmo.origin + right * (wpp * 40.0f)) - a), 40.0f, 0.05f);
  }
  EXPECT_FALSE(app::IsOrthographic(Scene().gizmo.projection));
}

TEST(Gizmo, ArrowsAndSquaresAreTheSameSizeOnScreenInOrthographicAndPerspectiveViews) {
  // Looking from the front: the Y arrow's tip and the XY square's far corner, in pixels from
  // the handle's centre, are the style's lengths in both projections.
  for (bool ortho : {false, true}) {
    Scene s(0.0f, 0.0f, {0.0f, 1.0f, 0.0f}, ortho);
    const float wpp = app::WorldPerPixel(s.gizmo);
    const glm::vec2 centre = s.Pixel(s.gizmo.origin);
    const glm::vec2 tip = s.Pixel(s.gizmo.origin + glm::vec3(0, wpp * s.style.axis_length_px, 0));
    EXPECT_NEAR(glm::length(tip - centre), s.style.axis_length_px, 0.5f) << "ortho " << ortho;
    const float outer = wpp * s.style.plane_outer_px;
    const glm::vec2 corner = s.Pixel(s.gizmo.origin + glm::vec3(outer, outer, 0));
    EXPECT_NEAR(corner.x - centre.x, s.style.plane_outer_px, 0.5f) << "ortho " << ortho;
    // Hit testing agrees: just past the arrow's tip is nothing, on it the Y arrow.
    EXPECT_EQ(app::HitTestGizmo(s.gizmo, s.style, centre + glm::vec2(0, -60)),
              app::GizmoPart::kAxisY);
    EXPECT_EQ(app::HitTestGizmo(s.gizmo, s.style, centre + glm::vec2(0, -90)),
              app::GizmoPart::kNone);
    // Seen from the front the XY square faces the camera and is hit; the edge-on ZX is not.
    EXPECT_EQ(app::HitTestGizmo(s.gizmo, s.style, centre + glm::vec2(24, -24)),
              app::GizmoPart::kPlaneXY);
  }
}

TEST(Gizmo, HitTestFindsEachPart) {
  Scene s;
  const float wpp = app::WorldPerPixel(s.gizmo);
  EXPECT_EQ(app::HitTestGizmo(s.gizmo, s.style, s.Pixel(s.gizmo.origin)), app::GizmoPart::kCenter);
  const app::GizmoPart axes[3] = {app::GizmoPart::kAxisX, app::GizmoPart::kAxisY,
                                  app::GizmoPart::kAxisZ};
  for (int a = 0; a < 3; ++a) {
    glm::vec3 along(0.0f);
    along[a] = wpp * 60.0f;  // on the arrow, beyond the squares
    EXPECT_EQ(app::HitTestGizmo(s.gizmo, s.style, s.Pixel(s.gizmo.origin + along)), axes[a])
        << "axis " << a;
  }
  const float mid = 0.5f * (s.style.plane_inner_px + s.style.plane_outer_px) * wpp;
  EXPECT_EQ(app::HitTestGizmo(s.gizmo, s.style, s.Pixel(s.gizmo.origin + glm::vec3(mid, mid, 0))),
            app::GizmoPart::kPlaneXY);
  EXPECT_EQ(app::HitTestGizmo(s.gizmo, s.style, s.Pixel(s.gizmo.origin + glm::vec3(0, mid, mid))),
            app::GizmoPart::kPlaneYZ);
  EXPECT_EQ(app::HitTestGizmo(s.gizmo, s.style, s.Pixel(s.gizmo.origin + glm::vec3(mid, 0, mid))),
            app::GizmoPart::kPlaneZX);
  EXPECT_EQ(app::HitTestGizmo(s.gizmo, s.style, s.Pixel(s.gizmo.origin) + glm::vec2(200, 150)),
            app::GizmoPart::kNone);
}

TEST(Gizmo, CenterDragFollowsTheCursorOnTheViewPlane) {
  Scene s;
  const glm::vec2 press = s.Pixel(s.gizmo.origin) + glm::vec2(3, -2);  // grabbed off-centre
  app::GizmoDrag drag(app::GizmoPart::kCenter, s.gizmo.origin, s.RayAt(press), s.camera.Forward());
  const glm::vec2 moved = press + glm::vec2(57, 31);
  const glm::vec3 next = drag.Update(s.RayAt(moved));
  // The handle moved by exactly the cursor's motion on screen, at the same depth.
  const glm::vec2 delta = s.Pixel(next) - s.Pixel(s.gizmo.origin);
  EXPECT_NEAR(delta.x, 57.0f, 0.05f);
  EXPECT_NEAR(delta.y, 31.0f, 0.05f);
  EXPECT_NEAR(glm::dot(next - s.gizmo.origin, s.camera.Forward()), 0.0f, 1e-5f);
}

TEST(Gizmo, AxisDragMovesOnlyAlongTheAxis) {
  Scene s;
  const float wpp = app::WorldPerPixel(s.gizmo);
  const glm::vec2 press = s.Pixel(s.gizmo.origin + glm::vec3(wpp * 50.0f, 0, 0));
  app::GizmoDrag drag(app::GizmoPart::kAxisX, s.gizmo.origin, s.RayAt(press), s.camera.Forward());
  // Move the cursor diagonally: only the part along the projected axis counts.
  const glm::vec3 next = drag.Update(s.RayAt(press + glm::vec2(40, 25)));
  EXPECT_NEAR(next.y, s.gizmo.origin.y, 1e-6f);
  EXPECT_NEAR(next.z, s.gizmo.origin.z, 1e-6f);
  EXPECT_NE(next.x, s.gizmo.origin.x);
  // The grabbed point (50 px out along the axis) is now where the cursor ray passes closest to
  // the axis: re-projecting the cursor onto the screen-space axis line gives the same point.
  const glm::vec2 grabbed_now = s.Pixel(next + glm::vec3(wpp * 50.0f, 0, 0));
  const glm::vec2 axis_dir =
      glm::normalize(s.Pixel(s.gizmo.origin + glm::vec3(1e-2f, 0, 0)) - s.Pixel(s.gizmo.origin));
  const glm::vec2 cursor = press + glm::vec2(40, 25);
  const glm::vec2 expected = press + axis_dir * glm::dot(cursor - press, axis_dir);
  EXPECT_LT(glm::length(grabbed_now - expected), 1.5f);
}

TEST(Gizmo, PlaneDragStaysInThePlaneUnderTheCursor) {
  Scene s;
  const float wpp = app::WorldPerPixel(s.gizmo);
  const float mid = 0.5f * (s.style.plane_inner_px + s.style.plane_outer_px) * wpp;
  const glm::vec3 grabbed = s.gizmo.origin + glm::vec3(mid, 0, mid);
  const glm::vec2 press = s.Pixel(grabbed);
  app::GizmoDrag drag(app::GizmoPart::kPlaneZX, s.gizmo.origin, s.RayAt(press), s.camera.Forward());
  const glm::vec2 cursor = press + glm::vec2(-35, 20);
  const glm::vec3 next = drag.Update(s.RayAt(cursor));
  EXPECT_NEAR(next.y, s.gizmo.origin.y, 1e-6f);  // the ZX plane keeps y
  const glm::vec2 grabbed_now = s.Pixel(grabbed + (next - s.gizmo.origin));
  EXPECT_NEAR(grabbed_now.x, cursor.x, 0.05f);
  EXPECT_NEAR(grabbed_now.y, cursor.y, 0.05f);
}

TEST(Gizmo, RayParallelToConstraintKeepsTheLastPosition) {
  // Looking straight along X: an X-axis drag has no answer, the handle must not jump.
  Scene s(/*yaw=*/-1.5707963f, /*pitch=*/0.0f, /*origin=*/{0.0f, 1.0f, 0.0f});
  // The arrow points at the camera, so it cannot be picked either.
  const float wpp = app::WorldPerPixel(s.gizmo);
  EXPECT_NE(
      app::HitTestGizmo(s.gizmo, s.style, s.Pixel(s.gizmo.origin + glm::vec3(wpp * 60, 0, 0))),
      app::GizmoPart::kAxisX);
  const glm::vec2 press = s.Pixel(s.gizmo.origin);
  app::GizmoDrag drag(app::GizmoPart::kAxisX, s.gizmo.origin, s.RayAt(press), s.camera.Forward());
  const glm::vec3 next = drag.Update(s.RayAt(press + glm::vec2(30, 30)));
  EXPECT_TRUE(std::isfinite(next.x) && std::isfinite(next.y) && std::isfinite(next.z));
  EXPECT_LT(glm::length(next - s.gizmo.origin), 1.0f);
}

TEST(Gizmo, IntersectPlaneAndClosestOnLine) {
  app::Ray ray{{0, 2, 0}, {0, -1, 0}};
  glm::vec3 hit;
  ASSERT_TRUE(app::IntersectPlane(ray, {5, 0.5f, 5}, {0, 1, 0}, &hit));
  EXPECT_EQ(hit, glm::vec3(0, 0.5f, 0));
  EXPECT_FALSE(app::IntersectPlane(ray, {0, 3, 0}, {0, 1, 0}, &hit));  // behind the ray
  EXPECT_FALSE(app::IntersectPlane(ray, {0, 0, 0}, {1, 0, 0}, &hit));  // parallel
  float t = 0;
  ASSERT_TRUE(app::ClosestOnLine(ray, {-3, 0, 0}, {1, 0, 0}, &t));
  EXPECT_NEAR(t, 3.0f, 1e-6f);
  EXPECT_FALSE(app::ClosestOnLine(ray, {0, 0, 0}, {0, 1, 0}, &t));
  EXPECT_NEAR(app::DistanceToSegment({0, 5}, {-1, 0}, {1, 0}), 5.0f, 1e-6f);
  EXPECT_NEAR(app::DistanceToSegment({4, 0}, {-1, 0}, {1, 0}), 3.0f, 1e-6f);
}

}  // namespace
