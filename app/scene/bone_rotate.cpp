#include "app/scene/bone_rotate.h"

#include <cmath>
#include <glm/gtc/constants.hpp>

#include "app/scene/gizmo.h"

namespace app {

namespace {

constexpr float kTrackballRadiansPerPx = glm::radians(0.5f);

// The cursor's angle about the head on screen, counterclockwise as seen (screen y runs down).
float ScreenAngle(const glm::vec2& head, const glm::vec2& px) {
  const glm::vec2 d = px - head;
  return std::atan2(-d.y, d.x);
}

// `a` moved by whole turns (360°) to lie within half a turn of `near`.
float NearestTurn(float a, float near) { return a - 360.0f * std::round((a - near) / 360.0f); }

float Distance2(const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 d = a - b;
  return glm::dot(d, d);
}

}  // namespace

const char* RotateAxisName(RotateAxis axis) {
  switch (axis) {
    case RotateAxis::kView:
      return "view";
    case RotateAxis::kX:
      return "x";
    case RotateAxis::kY:
      return "y";
    case RotateAxis::kZ:
      return "z";
    case RotateAxis::kLocalX:
      return "local_x";
    case RotateAxis::kLocalY:
      return "local_y";
    case RotateAxis::kLocalZ:
      return "local_z";
    case RotateAxis::kTrackball:
      return "trackball";
  }
  return "view";
}

RotateAxis NextConstraint(RotateAxis current, int axis) {
  static constexpr RotateAxis kGlobal[3] = {RotateAxis::kX, RotateAxis::kY, RotateAxis::kZ};
  static constexpr RotateAxis kLocal[3] = {RotateAxis::kLocalX, RotateAxis::kLocalY,
                                           RotateAxis::kLocalZ};
  if (axis < 0 || axis > 2) return current;
  if (current == kGlobal[axis]) return kLocal[axis];
  if (current == kLocal[axis]) return RotateAxis::kView;
  return kGlobal[axis];
}

void TypedNumber::Digit(int digit) {
  if (digit < 0 || digit > 9 || text_.size() >= 12) return;
  text_.push_back(char('0' + digit));
}

void TypedNumber::Point() {
  if (text_.find('.') == std::string::npos && text_.size() < 12) text_.push_back('.');
}

void TypedNumber::Backspace() {
  if (!text_.empty()) {
    text_.pop_back();
  } else {
    negative_ = false;
  }
}

float TypedNumber::value() const {
  float v = 0.0f;
  float scale = 0.0f;  // 0 before the point, then 0.1, 0.01, ...
  for (char c : text_) {
    if (c == '.') {
      scale = 0.1f;
    } else if (scale == 0.0f) {
      v = v * 10.0f + float(c - '0');
    } else {
      v += scale * float(c - '0');
      scale *= 0.1f;
    }
  }
  return negative_ ? -v : v;
}

std::string TypedNumber::text() const { return (negative_ ? "-" : "") + text_; }

BoneRotate::BoneRotate(const RotateStart& start)
    : start_(start),
      last_screen_angle_(ScreenAngle(start.head_px, start.cursor_px)),
      trackball_from_(start.cursor_px),
      cursor_(start.cursor_px) {}

void BoneRotate::SetAxis(RotateAxis axis) {
  if (axis == RotateAxis::kTrackball && axis_ != RotateAxis::kTrackball) trackball_from_ = cursor_;
  axis_ = axis;
}

void BoneRotate::MoveCursor(const glm::vec2& px) {
  cursor_ = px;
  // Too near the head the angle is noise: the sweep waits until the cursor is away from it.
  if (glm::length(px - start_.head_px) < 2.0f) return;
  const float angle = ScreenAngle(start_.head_px, px);
  float step = angle - last_screen_angle_;
  if (step > glm::pi<float>()) step -= glm::two_pi<float>();
  if (step < -glm::pi<float>()) step += glm::two_pi<float>();
  swept_ += step;
  last_screen_angle_ = angle;
}

glm::vec3 BoneRotate::ConstraintAxis() const {
  const glm::mat3 joint = glm::mat3_cast(start_.parent_rotation * start_.local_rotation);
  switch (axis_) {
    case RotateAxis::kX:
      return {1.0f, 0.0f, 0.0f};
    case RotateAxis::kY:
      return {0.0f, 1.0f, 0.0f};
    case RotateAxis::kZ:
      return {0.0f, 0.0f, 1.0f};
    case RotateAxis::kLocalX:
      return glm::normalize(joint[0]);
    case RotateAxis::kLocalY:
      return glm::normalize(joint[1]);
    case RotateAxis::kLocalZ:
      return glm::normalize(joint[2]);
    case RotateAxis::kView:
    case RotateAxis::kTrackball:
      break;
  }
  return -start_.view_forward;
}

glm::quat BoneRotate::Turn() const {
  if (axis_ == RotateAxis::kTrackball) {
    const glm::vec2 travel = cursor_ - trackball_from_;
    const glm::vec3 up = start_.view_up;
    const glm::vec3 right = glm::normalize(glm::cross(start_.view_forward, up));
    // Right turns the front to the right (about up), down turns it down (about right).
    return glm::angleAxis(travel.y * kTrackballRadiansPerPx, right) *
           glm::angleAxis(travel.x * kTrackballRadiansPerPx, up);
  }
  return glm::angleAxis(glm::radians(Degrees()), ConstraintAxis());
}

glm::vec3 BoneRotate::AxisVector() const {
  if (axis_ != RotateAxis::kTrackball) return ConstraintAxis();
  const glm::quat q = Turn();
  const glm::vec3 v(q.x, q.y, q.z);
  const float length = glm::length(v);
  return length > 1e-7f ? v / (q.w < 0.0f ? -length : length) : -start_.view_forward;
}

float BoneRotate::Degrees() const {
  if (axis_ == RotateAxis::kTrackball) {
    const glm::quat q = Turn();
    return glm::degrees(2.0f * std::atan2(glm::length(glm::vec3(q.x, q.y, q.z)), std::abs(q.w)));
  }
  if (!typed_.empty()) return typed_.value();
  // The cursor's sweep turns the bone the same way on screen: about an axis pointing away from
  // the viewer that is a negative angle.
  const float toward_viewer = glm::dot(ConstraintAxis(), -start_.view_forward);
  return glm::degrees(toward_viewer < 0.0f ? -swept_ : swept_);
}

glm::quat BoneRotate::LocalRotation() const {
  const glm::quat& p = start_.parent_rotation;
  return glm::normalize(glm::inverse(p) * Turn() * p * start_.local_rotation);
}

glm::quat BoneRotate::Offset() const {
  // local = animated · offset, so the new offset is offset · local⁻¹ · new local.
  return glm::normalize(start_.offset * glm::inverse(start_.local_rotation) * LocalRotation());
}

bool RingOnScreen(const RotateGizmo& gizmo, RingPart part, glm::vec2* points) {
  if (part == RingPart::kNone) return false;
  const GizmoView at{gizmo.view, gizmo.projection, gizmo.viewport, gizmo.center};
  const float wpp = WorldPerPixel(at);
  if (!(wpp > 0.0f) || !std::isfinite(wpp)) return false;
  glm::vec3 axis;
  float radius = gizmo.radius_px * wpp;
  if (part == RingPart::kView) {
    // Toward the eye: model space's view direction, from the inverse of the view's rotation.
    const glm::mat3 to_model = glm::transpose(glm::mat3(gizmo.view));
    axis = glm::normalize(to_model * glm::vec3(0.0f, 0.0f, 1.0f));
    radius = gizmo.view_radius_px * wpp;
  } else {
    glm::vec3 unit(0.0f);
    unit[int(part) - int(RingPart::kX)] = 1.0f;
    axis = glm::normalize(gizmo.frame * unit);
  }
  // Two unit vectors across the axis.
  const glm::vec3 other =
      std::abs(axis.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
  const glm::vec3 u = glm::normalize(glm::cross(axis, other));
  const glm::vec3 v = glm::cross(axis, u);
  for (int i = 0; i < kRingSegments; ++i) {
    const float t = glm::two_pi<float>() * float(i) / float(kRingSegments);
    const glm::vec3 p = gizmo.center + radius * (std::cos(t) * u + std::sin(t) * v);
    if (!ProjectToPixel(gizmo.view, gizmo.projection, gizmo.viewport, p, &points[i])) return false;
  }
  return true;
}

RingPart HitRotateGizmo(const RotateGizmo& gizmo, const glm::vec2& cursor_px) {
  RingPart best = RingPart::kNone;
  float best_distance = gizmo.pick_px;
  glm::vec2 points[kRingSegments];
  for (RingPart part : {RingPart::kView, RingPart::kX, RingPart::kY, RingPart::kZ}) {
    if (!RingOnScreen(gizmo, part, points)) continue;
    for (int i = 0; i < kRingSegments; ++i) {
      const float d = DistanceToSegment(cursor_px, points[i], points[(i + 1) % kRingSegments]);
      if (d <= best_distance) {
        best_distance = d;
        best = part;
      }
    }
  }
  return best;
}

RotateAxis RingConstraint(const RotateGizmo& gizmo, RingPart part) {
  switch (part) {
    case RingPart::kX:
      return gizmo.local ? RotateAxis::kLocalX : RotateAxis::kX;
    case RingPart::kY:
      return gizmo.local ? RotateAxis::kLocalY : RotateAxis::kY;
    case RingPart::kZ:
      return gizmo.local ? RotateAxis::kLocalZ : RotateAxis::kZ;
    default:
      return RotateAxis::kView;
  }
}

glm::vec3 ContinuousEulerDegrees(const glm::quat& q, const glm::vec3& previous) {
  const glm::vec3 e = glm::degrees(glm::eulerAngles(glm::normalize(q)));
  if (std::abs(std::abs(e.y) - 90.0f) < 0.05f) {
    // Gimbal lock: only X and Z together are fixed. Keep X, give Z the rest of the turn.
    const float y = e.y > 0.0f ? 90.0f : -90.0f;
    const glm::quat yx = glm::angleAxis(glm::radians(y), glm::vec3(0.0f, 1.0f, 0.0f)) *
                         glm::angleAxis(glm::radians(previous.x), glm::vec3(1.0f, 0.0f, 0.0f));
    const glm::quat z = q * glm::inverse(yx);
    const float zd = glm::degrees(2.0f * std::atan2(z.z, z.w));
    return {previous.x, NearestTurn(y, previous.y), NearestTurn(zd, previous.z)};
  }
  const glm::vec3 a(NearestTurn(e.x, previous.x), NearestTurn(e.y, previous.y),
                    NearestTurn(e.z, previous.z));
  // The other triple of the same rotation: (x + 180°, 180° − y, z + 180°).
  const glm::vec3 b(NearestTurn(e.x + 180.0f, previous.x), NearestTurn(180.0f - e.y, previous.y),
                    NearestTurn(e.z + 180.0f, previous.z));
  return Distance2(a, previous) <= Distance2(b, previous) ? a : b;
}

}  // namespace app
