// Rotating a bone in the view, as Blender's modal rotate (R): the bone turns about the view axis
// through its head by the angle the cursor sweeps about the head on screen; X, Y or Z constrain
// the turn to a global axis (pressed again: the bone's own axis, a third time: back to the view
// axis); typed digits give the angle in degrees; R again is the free trackball. Quaternions
// throughout. The result is the joint's rotation offset: turned onto its animated rotation
// (EditState::joint_offsets), so the clip plays under it. Pure math, testable without a window.
// Also: Euler angles shown continuously (the Joints panel's fields never jump).
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>

#include "app/scene/camera.h"

namespace app {

enum class RotateAxis { kView, kX, kY, kZ, kLocalX, kLocalY, kLocalZ, kTrackball };
// "view", "x", "y", "z", "local_x", "local_y", "local_z", "trackball"
const char* RotateAxisName(RotateAxis axis);

// The constraint after pressing X (0), Y (1) or Z (2) with `current` in force: the global axis,
// pressed again its local axis, a third time the view axis again.
RotateAxis NextConstraint(RotateAxis current, int axis);

// The degrees typed during a rotate: digits, one decimal point, '-' (toggles the sign wherever it
// is typed) and Backspace (drops the last character typed, the sign last).
class TypedNumber {
 public:
  void Digit(int digit);  // 0..9
  void Point();
  void Negate() { negative_ = !negative_; }
  void Backspace();
  void Clear() { *this = TypedNumber(); }
  // Nothing typed (the mouse gives the angle). A lone '-' counts as typed (-0).
  bool empty() const { return text_.empty() && !negative_; }
  float value() const;       // 0 for nothing or a lone point
  std::string text() const;  // as shown: "-30.5"

 private:
  std::string text_;
  bool negative_ = false;
};

// What a rotate starts from, in one space (the model's): the joint's head and frames, the view.
struct RotateStart {
  glm::vec3 head{0.0f};                               // the joint's position
  glm::quat parent_rotation{1.0f, 0.0f, 0.0f, 0.0f};  // the parent's rotation (identity: root)
  glm::quat local_rotation{1.0f, 0.0f, 0.0f, 0.0f};   // the joint's local rotation as shown
  glm::quat offset{1.0f, 0.0f, 0.0f, 0.0f};   // the edit's offset of the joint before the rotate
  glm::vec3 view_forward{0.0f, 0.0f, -1.0f};  // unit, from the eye into the screen
  glm::vec3 view_up{0.0f, 1.0f, 0.0f};        // unit, the screen's up
  glm::vec2 head_px{0.0f};                    // the head on screen (y down)
  glm::vec2 cursor_px{0.0f};                  // the cursor when the rotate began
};

// One modal rotate: the angle from the cursor (or the typed degrees) about the constraint's axis.
class BoneRotate {
 public:
  BoneRotate() = default;
  explicit BoneRotate(const RotateStart& start);

  const RotateStart& start() const { return start_; }
  RotateAxis axis() const { return axis_; }
  // A new constraint (the angle swept so far is kept; the trackball starts from the cursor).
  void SetAxis(RotateAxis axis);
  // The cursor moved to `px`: the angle it swept about the head (unwrapped: several turns add
  // up), or in trackball mode the turn its travel gives.
  void MoveCursor(const glm::vec2& px);
  TypedNumber& typed() { return typed_; }
  const TypedNumber& typed_number() const { return typed_; }

  // The turn's axis (unit, model space) and angle in degrees, signed so that a positive angle
  // turns counterclockwise looking down the axis toward the head; the typed degrees when typed.
  // Trackball: the axis and angle of the whole turn.
  glm::vec3 AxisVector() const;
  float Degrees() const;
  // The turn, in model space (about the head).
  glm::quat Turn() const;
  // The joint's local rotation and its offset after the turn.
  glm::quat LocalRotation() const;
  glm::quat Offset() const;

 private:
  glm::vec3 ConstraintAxis() const;  // unit; for kView the axis toward the viewer
  RotateStart start_;
  RotateAxis axis_ = RotateAxis::kView;
  TypedNumber typed_;
  float swept_ = 0.0f;  // radians swept counterclockwise on screen since the start
  float last_screen_angle_ = 0.0f;
  glm::vec2 trackball_from_{0.0f};  // where the trackball's cursor travel is measured from
  glm::vec2 cursor_{0.0f};
};

// The rotate gizmo on the selected bone's head, for mouse users: a ring facing the view (turns
// about the view axis) around three axis rings (X red, Y green, Z blue; the model's axes, or the
// bone's own). Grab a ring and drag: the turn is the cursor's sweep about the head, as with R.
enum class RingPart { kNone, kView, kX, kY, kZ };
struct RotateGizmo {
  glm::mat4 view{1.0f};  // model → eye
  glm::mat4 projection{1.0f};
  Viewport viewport;                        // drawable pixels
  glm::vec3 center{0.0f};                   // the bone's head, model space
  glm::quat frame{1.0f, 0.0f, 0.0f, 0.0f};  // the axis rings' frame (local: the bone's)
  bool local = false;                       // the rings are the bone's own axes
  float radius_px = 70.0f;                  // the axis rings
  float view_radius_px = 86.0f;             // the view ring
  float pick_px = 6.0f;                     // how near the cursor must be to a ring
};
constexpr int kRingSegments = 64;
// The ring's points on screen (drawable pixels; kRingSegments of them, closed), false when the
// gizmo is behind the camera.
bool RingOnScreen(const RotateGizmo& gizmo, RingPart part, glm::vec2* points);
// The ring nearest the cursor within pick_px, or kNone.
RingPart HitRotateGizmo(const RotateGizmo& gizmo, const glm::vec2& cursor_px);
// The constraint a ring turns about (kView for the view ring).
RotateAxis RingConstraint(const RotateGizmo& gizmo, RingPart part);

// Euler angles (degrees, glm's X-Y-Z: q = qz·qy·qx) of `q` that are nearest to `previous`: of the
// two triples that give each rotation, each angle moved by whole turns, the one closest to what
// was shown before; at gimbal lock (Y at ±90°) X keeps its value and Z takes the rest. So the
// fields never jump by 360° or flip to the other triple while a joint turns smoothly.
glm::vec3 ContinuousEulerDegrees(const glm::quat& q, const glm::vec3& previous);

}  // namespace app
