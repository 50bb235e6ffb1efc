// The target handles' hit testing: the nearest disc under the cursor, every disc under it where
// handles overlap (two feet 2 cm apart), and going from one overlapping handle to the next.
#include "app/scene/handles.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

struct Scene {
  app::OrbitCamera camera;
  app::HandlesView view;
  app::GizmoStyle style;
  std::vector<app::Handle> handles;

  Scene() {
    camera.yaw = 0.0f;
    camera.pitch = 0.0f;
    camera.distance = 3.5f;
    camera.target = glm::vec3(0.0f, 0.9f, 0.0f);
    view.viewport = {1000, 620};
    view.view = camera.View();
    view.projection = camera.Projection(view.viewport.aspect());
    // Left foot, right foot 2 cm from it, a hand far away, and a disabled handle on the feet.
    for (const glm::vec3& target : {glm::vec3(0.02f, 0.09f, 0.0f), glm::vec3(0.0f, 0.09f, 0.0f),
                                    glm::vec3(0.5f, 1.0f, 0.0f), glm::vec3(0.01f, 0.09f, 0.0f)}) {
      app::Handle handle;
      handle.target = target;
      handle.enabled = true;
      handles.push_back(handle);
    }
    handles[3].enabled = false;
  }
  glm::vec2 Pixel(int handle) const {
    glm::vec2 px;
    EXPECT_TRUE(app::ProjectToPixel(view.view, view.projection, view.viewport,
                                    handles[size_t(handle)].target, &px));
    return px;
  }
};

TEST(Handles, EveryEnabledDiscUnderTheCursorIsListedInChainOrder) {
  Scene s;
  const glm::vec2 left = s.Pixel(0), right = s.Pixel(1);
  ASSERT_LT(glm::length(left - right), 8.0f) << "2 cm apart: the discs overlap on screen";
  int under[4] = {-1, -1, -1, -1};
  EXPECT_EQ(app::HandlesUnderCursor(s.view, s.style, s.handles, right, under, 4), 2);
  EXPECT_EQ(under[0], 0);
  EXPECT_EQ(under[1], 1);
  // HitHandles gives only the nearest of them.
  app::GizmoPart part = app::GizmoPart::kNone;
  EXPECT_EQ(app::HitHandles(s.view, s.style, s.handles, right, &part), 1);
  EXPECT_EQ(app::HitHandles(s.view, s.style, s.handles, left, &part), 0);
  // Away from every disc: none; on the hand: the hand alone; the count past `max` still counted.
  EXPECT_EQ(app::HandlesUnderCursor(s.view, s.style, s.handles, left + glm::vec2(0, 60), under, 4),
            0);
  EXPECT_EQ(app::HandlesUnderCursor(s.view, s.style, s.handles, s.Pixel(2), under, 4), 1);
  EXPECT_EQ(under[0], 2);
  EXPECT_EQ(app::HandlesUnderCursor(s.view, s.style, s.handles, left, under, 0), 2);
}

TEST(Handles, CyclingGoesToTheNextHandleUnderTheCursorAndWraps) {
  const int under[3] = {0, 1, 4};
  EXPECT_EQ(app::CycleHandle(under, 3, 0), 1);
  EXPECT_EQ(app::CycleHandle(under, 3, 1), 4);
  EXPECT_EQ(app::CycleHandle(under, 3, 4), 0);
  EXPECT_EQ(app::CycleHandle(under, 3, 0, -1), 4);
  EXPECT_EQ(app::CycleHandle(under, 3, 2), 0) << "the active one elsewhere: the first";
  EXPECT_EQ(app::CycleHandle(under, 3, -1, -1), 4) << "backwards: the last";
  EXPECT_EQ(app::CycleHandle(under, 1, 0), 0) << "one handle: itself";
  EXPECT_EQ(app::CycleHandle(under, 0, 0), -1);
}

}  // namespace
