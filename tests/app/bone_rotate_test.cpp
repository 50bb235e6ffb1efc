// Rotating a bone in the view (R): the turn about the view axis from the cursor's sweep, the axis
// constraints (global, local), typed degrees, the trackball, the offset it leaves, and the Euler
// fields shown continuously.
#include "app/scene/bone_rotate.h"

#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>

#include "app/core/undo_history.h"

namespace {

using app::BoneRotate;
using app::RotateAxis;
using app::RotateStart;

constexpr float kEps = 1e-4f;

void ExpectNear(const glm::vec3& a, const glm::vec3& b, float eps = kEps) {
  EXPECT_NEAR(a.x, b.x, eps) << "x";
  EXPECT_NEAR(a.y, b.y, eps) << "y";
  EXPECT_NEAR(a.z, b.z, eps) << "z";
}

// Same rotation (q and -q are one).
void ExpectSameRotation(const glm::quat& a, const glm::quat& b, float eps = kEps) {
  EXPECT_NEAR(std::abs(glm::dot(a, b)), 1.0f, eps)
      << "angle between: " << 2.0f * std::acos(std::min(1.0f, std::abs(glm::dot(a, b))));
}

// Looking down -Z (the default camera of a front view), the head at pixel (400, 300).
RotateStart FrontView(const glm::vec2& cursor = {500.0f, 300.0f}) {
  RotateStart s;
  s.head = {0.1f, 1.2f, 0.0f};
  s.view_forward = {0.0f, 0.0f, -1.0f};
  s.view_up = {0.0f, 1.0f, 0.0f};
  s.head_px = {400.0f, 300.0f};
  s.cursor_px = cursor;
  return s;
}

// The cursor carried a quarter turn counterclockwise on screen, in small steps.
void SweepQuarterCounterclockwise(BoneRotate* r) {
  for (int i = 1; i <= 9; ++i) {
    const float a = glm::radians(10.0f * float(i));
    r->MoveCursor({400.0f + 100.0f * std::cos(a), 300.0f - 100.0f * std::sin(a)});
  }
}

TEST(BoneRotate, TurnsAboutTheViewAxisByTheAngleTheCursorSweepsAboutTheHead) {
  BoneRotate r(FrontView());
  SweepQuarterCounterclockwise(&r);
  EXPECT_EQ(r.axis(), RotateAxis::kView);
  EXPECT_NEAR(r.Degrees(), 90.0f, 1e-3f);
  ExpectNear(r.AxisVector(), {0.0f, 0.0f, 1.0f});  // toward the viewer
  // A bone pointing right on screen now points up: counterclockwise, as the cursor went.
  ExpectNear(r.Turn() * glm::vec3(1.0f, 0.0f, 0.0f), {0.0f, 1.0f, 0.0f});
}

TEST(BoneRotate, SweepsOfMoreThanATurnAddUp) {
  BoneRotate r(FrontView());
  for (int i = 1; i <= 45; ++i) {  // 450° in 10° steps
    const float a = glm::radians(10.0f * float(i));
    r.MoveCursor({400.0f + 80.0f * std::cos(a), 300.0f - 80.0f * std::sin(a)});
  }
  EXPECT_NEAR(r.Degrees(), 450.0f, 1e-2f);
  // Back the other way past the start: negative.
  for (int i = 44; i >= -3; --i) {
    const float a = glm::radians(10.0f * float(i));
    r.MoveCursor({400.0f + 80.0f * std::cos(a), 300.0f - 80.0f * std::sin(a)});
  }
  EXPECT_NEAR(r.Degrees(), -30.0f, 1e-2f);
}

TEST(BoneRotate, ViewAxisFollowsTheCamera) {
  RotateStart s = FrontView();
  s.view_forward = glm::normalize(glm::vec3(1.0f, 0.0f, -1.0f));  // looking right and in
  BoneRotate r(s);
  SweepQuarterCounterclockwise(&r);
  ExpectNear(r.AxisVector(), -s.view_forward);
  ExpectSameRotation(r.Turn(), glm::angleAxis(glm::half_pi<float>(), -s.view_forward));
}

TEST(BoneRotate, XYZConstrainToGlobalThenLocalAxesThenBackToTheView) {
  EXPECT_EQ(app::NextConstraint(RotateAxis::kView, 0), RotateAxis::kX);
  EXPECT_EQ(app::NextConstraint(RotateAxis::kX, 0), RotateAxis::kLocalX);
  EXPECT_EQ(app::NextConstraint(RotateAxis::kLocalX, 0), RotateAxis::kView);
  EXPECT_EQ(app::NextConstraint(RotateAxis::kX, 1), RotateAxis::kY);
  EXPECT_EQ(app::NextConstraint(RotateAxis::kLocalY, 2), RotateAxis::kZ);
  EXPECT_EQ(app::NextConstraint(RotateAxis::kTrackball, 2), RotateAxis::kZ);
  EXPECT_STREQ(app::RotateAxisName(RotateAxis::kLocalZ), "local_z");
  EXPECT_STREQ(app::RotateAxisName(RotateAxis::kView), "view");
}

TEST(BoneRotate, GlobalAxisTurnsTheWayTheCursorGoesOnScreen) {
  // Z points at the viewer: the sweep's angle as is.
  BoneRotate toward(FrontView());
  toward.SetAxis(RotateAxis::kZ);
  SweepQuarterCounterclockwise(&toward);
  EXPECT_NEAR(toward.Degrees(), 90.0f, 1e-3f);
  ExpectNear(toward.AxisVector(), {0.0f, 0.0f, 1.0f});
  // Seen from behind (looking down +Z), Z points away: -90° about Z, still counterclockwise as
  // seen, so a bone pointing left on screen (+X from behind is screen left) ends up pointing up.
  RotateStart behind = FrontView();
  behind.view_forward = {0.0f, 0.0f, 1.0f};
  BoneRotate away(behind);
  away.SetAxis(RotateAxis::kZ);
  SweepQuarterCounterclockwise(&away);
  EXPECT_NEAR(away.Degrees(), -90.0f, 1e-3f);
  ExpectNear(away.Turn() * glm::vec3(-1.0f, 0.0f, 0.0f), {0.0f, 1.0f, 0.0f});
}

TEST(BoneRotate, LocalAxisIsTheJointsOwnAxisInTheModel) {
  RotateStart s = FrontView();
  s.parent_rotation = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0.0f, 1.0f, 0.0f));
  s.local_rotation = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0.0f, 0.0f, 1.0f));
  BoneRotate r(s);
  r.SetAxis(RotateAxis::kLocalX);
  const glm::vec3 joint_x = s.parent_rotation * s.local_rotation * glm::vec3(1.0f, 0.0f, 0.0f);
  ExpectNear(r.AxisVector(), joint_x);
  r.typed().Digit(3);
  r.typed().Digit(0);
  // A turn about the joint's own X is a turn about X of its local rotation.
  ExpectSameRotation(r.LocalRotation(),
                     s.local_rotation * glm::angleAxis(glm::radians(30.0f), glm::vec3(1, 0, 0)));
}

TEST(BoneRotate, TypedDegreesWinOverTheCursor) {
  BoneRotate r(FrontView());
  SweepQuarterCounterclockwise(&r);
  r.SetAxis(RotateAxis::kX);
  r.typed().Digit(3);
  r.typed().Digit(0);
  EXPECT_FLOAT_EQ(r.Degrees(), 30.0f);
  ExpectSameRotation(r.Turn(), glm::angleAxis(glm::radians(30.0f), glm::vec3(1.0f, 0.0f, 0.0f)));
  r.typed().Negate();
  EXPECT_FLOAT_EQ(r.Degrees(), -30.0f);
  r.typed().Backspace();
  EXPECT_FLOAT_EQ(r.Degrees(), -3.0f);
  r.typed().Backspace();  // "-" left: still typed, -0
  EXPECT_FALSE(r.typed_number().empty());
  EXPECT_EQ(r.typed_number().text(), "-");
  EXPECT_FLOAT_EQ(r.Degrees(), 0.0f);
  // Nothing typed: the cursor's quarter turn again (X is side-on, taken as toward the viewer).
  r.typed().Backspace();
  EXPECT_TRUE(r.typed_number().empty());
  EXPECT_NEAR(r.Degrees(), 90.0f, 1e-3f);
}

TEST(BoneRotate, TypedNumberReadsDecimalsAndOnePoint) {
  app::TypedNumber n;
  EXPECT_TRUE(n.empty());
  n.Digit(1);
  n.Digit(2);
  n.Point();
  n.Point();  // a second point is ignored
  n.Digit(5);
  EXPECT_EQ(n.text(), "12.5");
  EXPECT_FLOAT_EQ(n.value(), 12.5f);
  n.Negate();
  EXPECT_EQ(n.text(), "-12.5");
  n.Clear();
  EXPECT_TRUE(n.empty());
  EXPECT_FLOAT_EQ(n.value(), 0.0f);
}

TEST(BoneRotate, TrackballTurnsTheFrontTheWayTheCursorTravels) {
  BoneRotate r(FrontView());
  r.MoveCursor({520.0f, 300.0f});
  r.SetAxis(RotateAxis::kTrackball);  // measured from here
  r.MoveCursor({520.0f + 180.0f, 300.0f});
  EXPECT_NEAR(r.Degrees(), 90.0f, 1e-2f);  // 0.5° per pixel
  // The front (toward the viewer) turned to the right.
  ExpectNear(r.Turn() * glm::vec3(0.0f, 0.0f, 1.0f), {1.0f, 0.0f, 0.0f}, 1e-3f);
  ExpectNear(r.AxisVector(), {0.0f, 1.0f, 0.0f}, 1e-3f);
  r.MoveCursor({520.0f, 300.0f + 180.0f});  // now down: the front turned down
  ExpectNear(r.Turn() * glm::vec3(0.0f, 0.0f, 1.0f), {0.0f, -1.0f, 0.0f}, 1e-3f);
}

TEST(BoneRotate, OffsetTurnsTheAnimatedRotationToTheNewOne) {
  RotateStart s = FrontView();
  s.parent_rotation = glm::normalize(glm::quat(0.9f, 0.2f, -0.3f, 0.1f));
  const glm::quat animated = glm::normalize(glm::quat(0.7f, 0.1f, 0.5f, -0.2f));
  s.offset = glm::normalize(glm::quat(0.95f, 0.0f, 0.2f, 0.1f));
  s.local_rotation = animated * s.offset;
  BoneRotate r(s);
  SweepQuarterCounterclockwise(&r);
  // local = animated · offset, and in the model the joint turned by the turn about the head.
  ExpectSameRotation(animated * r.Offset(), r.LocalRotation());
  ExpectSameRotation(s.parent_rotation * r.LocalRotation(),
                     r.Turn() * s.parent_rotation * s.local_rotation);
  // No turn: the offset is the one it started from.
  BoneRotate still(s);
  ExpectSameRotation(still.Offset(), s.offset);
}

TEST(BoneRotate, CancelPutsTheEditBackExactly) {
  app::EditState edit;
  edit.joint_offsets[3] = glm::normalize(glm::quat(0.9f, 0.1f, 0.2f, 0.3f));
  app::EditRecorder recorder;
  recorder.Reset(edit);
  const app::EditState before = edit;
  recorder.Begin();
  RotateStart s = FrontView();
  s.offset = edit.joint_offsets[3];
  BoneRotate r(s);
  SweepQuarterCounterclockwise(&r);
  edit.joint_offsets[3] = r.Offset();
  edit.joint_offsets[5] = r.Offset();
  EXPECT_FALSE(edit == before);
  ASSERT_TRUE(recorder.Cancel(&edit));
  EXPECT_TRUE(edit == before);
  EXPECT_EQ(edit.joint_offsets.size(), 1u);
  EXPECT_EQ(edit.joint_offsets[3], before.joint_offsets.at(3));  // bit for bit
  EXPECT_EQ(recorder.undo_count(), 0u);
}

// A gizmo on (0, 1, 0) seen straight from the front (looking down -Z), in the view's middle.
app::RotateGizmo FrontGizmo() {
  app::OrbitCamera camera;
  camera.yaw = 0.0f;
  camera.pitch = 0.0f;
  camera.distance = 3.0f;
  camera.target = {0.0f, 1.0f, 0.0f};
  app::RotateGizmo g;
  g.viewport = {900, 700};
  g.view = camera.View();
  g.projection = camera.Projection(g.viewport.aspect());
  g.center = camera.target;
  return g;
}

TEST(RotateGizmo, RingsArePickedWhereTheyAreDrawn) {
  const app::RotateGizmo g = FrontGizmo();
  const glm::vec2 c(450.0f, 350.0f);  // the centre on screen
  glm::vec2 points[app::kRingSegments];
  ASSERT_TRUE(app::RingOnScreen(g, app::RingPart::kZ, points));
  for (const glm::vec2& p : points) EXPECT_NEAR(glm::length(p - c), 70.0f, 0.5f);  // faces us
  ASSERT_TRUE(app::RingOnScreen(g, app::RingPart::kView, points));
  for (const glm::vec2& p : points) EXPECT_NEAR(glm::length(p - c), 86.0f, 0.5f);
  EXPECT_EQ(app::HitRotateGizmo(g, c + glm::vec2(86.0f, 0.0f)), app::RingPart::kView);
  EXPECT_EQ(app::HitRotateGizmo(g, c + 70.0f * glm::vec2(0.7071f, -0.7071f)), app::RingPart::kZ);
  // X's ring is seen edge on as an upright line, Y's as a level one.
  EXPECT_EQ(app::HitRotateGizmo(g, c + glm::vec2(2.0f, -40.0f)), app::RingPart::kX);
  EXPECT_EQ(app::HitRotateGizmo(g, c + glm::vec2(40.0f, 2.0f)), app::RingPart::kY);
  EXPECT_EQ(app::HitRotateGizmo(g, c + glm::vec2(20.0f, 20.0f)), app::RingPart::kNone);
  EXPECT_EQ(app::HitRotateGizmo(g, c + glm::vec2(150.0f, 0.0f)), app::RingPart::kNone);
  EXPECT_EQ(app::RingConstraint(g, app::RingPart::kX), RotateAxis::kX);
  EXPECT_EQ(app::RingConstraint(g, app::RingPart::kView), RotateAxis::kView);
}

TEST(RotateGizmo, LocalRingsTurnWithTheBone) {
  app::RotateGizmo g = FrontGizmo();
  g.local = true;
  g.frame = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0.0f, 0.0f, 1.0f));  // X now up
  const glm::vec2 c(450.0f, 350.0f);
  // The bone's X ring is now level (its axis points up), its Y ring upright.
  EXPECT_EQ(app::HitRotateGizmo(g, c + glm::vec2(40.0f, 2.0f)), app::RingPart::kX);
  EXPECT_EQ(app::HitRotateGizmo(g, c + glm::vec2(2.0f, -40.0f)), app::RingPart::kY);
  EXPECT_EQ(app::RingConstraint(g, app::RingPart::kX), RotateAxis::kLocalX);
  EXPECT_EQ(app::RingConstraint(g, app::RingPart::kZ), RotateAxis::kLocalZ);
}

// The Euler triple shown reproduces the rotation.
void ExpectEulerGives(const glm::vec3& degrees, const glm::quat& q) {
  ExpectSameRotation(glm::quat(glm::radians(degrees)), q, 1e-4f);
}

TEST(ContinuousEuler, FieldsNeverJumpWhileAJointTurnsPastHalfATurn) {
  for (int axis = 0; axis < 3; ++axis) {
    glm::vec3 shown(0.0f), unit(0.0f);
    unit[axis] = 1.0f;
    for (int d = 1; d <= 400; ++d) {
      const glm::quat q = glm::angleAxis(glm::radians(float(d)), unit);
      const glm::vec3 next = app::ContinuousEulerDegrees(q, shown);
      EXPECT_LT(glm::length(next - shown), 1.5f) << "axis " << axis << " at " << d << " deg";
      ExpectEulerGives(next, q);
      shown = next;
    }
    EXPECT_NEAR(shown[axis], 400.0f, 0.05f) << "axis " << axis;
  }
}

TEST(ContinuousEuler, KeepsWhatWasTypedBeyondHalfATurn) {
  const glm::vec3 typed(200.0f, -20.0f, 370.0f);
  const glm::vec3 shown = app::ContinuousEulerDegrees(glm::quat(glm::radians(typed)), typed);
  ExpectNear(shown, typed, 0.02f);
}

TEST(ContinuousEuler, AtGimbalLockKeepsXAndGivesZTheRest) {
  const glm::vec3 previous(30.0f, 89.5f, 10.0f);
  const glm::quat q = glm::quat(glm::radians(glm::vec3(30.0f, 90.0f, 10.0f)));
  const glm::vec3 shown = app::ContinuousEulerDegrees(q, previous);
  EXPECT_FLOAT_EQ(shown.x, 30.0f);
  EXPECT_NEAR(shown.y, 90.0f, 1e-3f);
  EXPECT_NEAR(shown.z, 10.0f, 0.05f);
  ExpectEulerGives(shown, q);
}

}  // namespace
