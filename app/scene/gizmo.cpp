// Gizmo hit testing, drag math and drawing.
#include "app/scene/gizmo.h"

#include <algorithm>
#include <cmath>

namespace app {

namespace {

const glm::vec3 kAxes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
const glm::vec4 kAxisColors[3] = {
    {0.93f, 0.27f, 0.27f, 1.0f}, {0.35f, 0.85f, 0.3f, 1.0f}, {0.3f, 0.5f, 1.0f, 1.0f}};

// The two axes spanning each plane part, and its normal axis.
struct PlaneAxes {
  int u, v, normal;
};
PlaneAxes AxesOfPlane(GizmoPart part) {
  switch (part) {
    case GizmoPart::kPlaneXY:
      return {0, 1, 2};
    case GizmoPart::kPlaneYZ:
      return {1, 2, 0};
    default:
      return {2, 0, 1};  // kPlaneZX
  }
}

int AxisIndex(GizmoPart part) {
  return part == GizmoPart::kAxisX ? 0 : part == GizmoPart::kAxisY ? 1 : 2;
}

bool IsAxis(GizmoPart p) {
  return p == GizmoPart::kAxisX || p == GizmoPart::kAxisY || p == GizmoPart::kAxisZ;
}
bool IsPlane(GizmoPart p) {
  return p == GizmoPart::kPlaneXY || p == GizmoPart::kPlaneYZ || p == GizmoPart::kPlaneZX;
}

glm::vec4 Brighter(const glm::vec4& c) {
  return glm::vec4(glm::min(glm::vec3(c) * 0.45f + 0.55f, glm::vec3(1.0f)), 1.0f);
}

// A square seen nearly edge-on cannot be dragged precisely.
bool PlaneFacesCamera(const GizmoView& gizmo, int normal_axis) {
  const glm::mat4 camera = glm::inverse(gizmo.view);
  // Parallel projection: every point is seen along the camera's back axis.
  const glm::vec3 to_eye = IsOrthographic(gizmo.projection)
                               ? glm::normalize(glm::vec3(camera[2]))
                               : glm::normalize(glm::vec3(camera[3]) - gizmo.origin);
  return std::abs(to_eye[normal_axis]) > 0.12f;
}

float Cross2(const glm::vec2& a, const glm::vec2& b) { return a.x * b.y - a.y * b.x; }

bool PointInQuad(const glm::vec2& p, const glm::vec2 q[4]) {
  // Convex quad: p is inside when it is on the same side of all four edges.
  float sign = 0.0f;
  for (int i = 0; i < 4; ++i) {
    const float c = Cross2(q[(i + 1) % 4] - q[i], p - q[i]);
    if (c == 0.0f) continue;
    if (sign == 0.0f) sign = c;
    if ((c > 0.0f) != (sign > 0.0f)) return false;
  }
  return true;
}

}  // namespace

const char* GizmoPartName(GizmoPart part) {
  switch (part) {
    case GizmoPart::kNone:
      return "none";
    case GizmoPart::kCenter:
      return "center";
    case GizmoPart::kAxisX:
      return "x";
    case GizmoPart::kAxisY:
      return "y";
    case GizmoPart::kAxisZ:
      return "z";
    case GizmoPart::kPlaneXY:
      return "xy";
    case GizmoPart::kPlaneYZ:
      return "yz";
    case GizmoPart::kPlaneZX:
      return "zx";
  }
  return "none";
}

bool IsOrthographic(const glm::mat4& projection) {
  // A parallel projection keeps w = 1; a perspective one makes w = -z_eye.
  return projection[2][3] == 0.0f && projection[3][3] != 0.0f;
}

float WorldPerPixel(const GizmoView& gizmo) {
  const float rows_px = std::max(float(gizmo.viewport.height), 1.0f);
  if (IsOrthographic(gizmo.projection)) {
    // The same scale at every depth: the view's height in world units over its pixels.
    return 2.0f / (std::max(std::abs(gizmo.projection[1][1]), 1e-12f) * rows_px);
  }
  // Distance along the view direction, then the perspective scale at that depth.
  const glm::vec4 eye = gizmo.view * glm::vec4(gizmo.origin, 1.0f);
  const float depth = std::max(-eye.z, 1e-6f);
  const float focal_px = gizmo.projection[1][1] * 0.5f * rows_px;
  return depth / std::max(focal_px, 1e-6f);
}

bool IntersectPlane(const Ray& ray, const glm::vec3& point, const glm::vec3& normal,
                    glm::vec3* hit) {
  const float denom = glm::dot(ray.direction, normal);
  if (std::abs(denom) < 1e-5f) return false;
  const float t = glm::dot(point - ray.origin, normal) / denom;
  if (!(t >= 0.0f) || !std::isfinite(t)) return false;
  *hit = ray.origin + t * ray.direction;
  return true;
}

bool ClosestOnLine(const Ray& ray, const glm::vec3& point, const glm::vec3& axis, float* t) {
  // Minimise |point + t·axis − (o + s·d)| over t and s.
  const glm::vec3 w = point - ray.origin;
  const float b = glm::dot(axis, ray.direction);
  const float denom = 1.0f - b * b;
  if (denom < 1e-3f) return false;  // within ~2° of parallel: no stable answer
  const float d = glm::dot(axis, w), e = glm::dot(ray.direction, w);
  *t = (b * e - d) / denom;
  return std::isfinite(*t);
}

float DistanceToSegment(const glm::vec2& p, const glm::vec2& a, const glm::vec2& b) {
  const glm::vec2 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + t * ab));
}

GizmoPart HitTestGizmo(const GizmoView& gizmo, const GizmoStyle& style, const glm::vec2& cursor) {
  glm::vec2 origin_px;
  if (!ProjectToPixel(gizmo.view, gizmo.projection, gizmo.viewport, gizmo.origin, &origin_px)) {
    return GizmoPart::kNone;
  }
  if (glm::length(cursor - origin_px) <= style.center_radius_px + 2.0f) return GizmoPart::kCenter;
  const float wpp = WorldPerPixel(gizmo);
  for (GizmoPart part : {GizmoPart::kPlaneXY, GizmoPart::kPlaneYZ, GizmoPart::kPlaneZX}) {
    const PlaneAxes axes = AxesOfPlane(part);
    if (!PlaneFacesCamera(gizmo, axes.normal)) continue;
    const glm::vec3 u = kAxes[axes.u] * wpp, v = kAxes[axes.v] * wpp;
    const glm::vec3 corners[4] = {
        gizmo.origin + u * style.plane_inner_px + v * style.plane_inner_px,
        gizmo.origin + u * style.plane_outer_px + v * style.plane_inner_px,
        gizmo.origin + u * style.plane_outer_px + v * style.plane_outer_px,
        gizmo.origin + u * style.plane_inner_px + v * style.plane_outer_px};
    glm::vec2 q[4];
    bool visible = true;
    for (int i = 0; i < 4; ++i)
      visible = visible &&
                ProjectToPixel(gizmo.view, gizmo.projection, gizmo.viewport, corners[i], &q[i]);
    if (visible && PointInQuad(cursor, q)) return part;
  }
  GizmoPart best = GizmoPart::kNone;
  float best_distance = style.pick_tolerance_px;
  const GizmoPart axis_parts[3] = {GizmoPart::kAxisX, GizmoPart::kAxisY, GizmoPart::kAxisZ};
  for (int a = 0; a < 3; ++a) {
    glm::vec2 tip_px;
    const glm::vec3 tip = gizmo.origin + kAxes[a] * (wpp * style.axis_length_px);
    if (!ProjectToPixel(gizmo.view, gizmo.projection, gizmo.viewport, tip, &tip_px)) continue;
    // An arrow pointing at the camera has no usable drag direction.
    if (glm::length(tip_px - origin_px) < 0.2f * style.axis_length_px) continue;
    const float d = DistanceToSegment(cursor, origin_px, tip_px);
    if (d <= best_distance) {
      best_distance = d;
      best = axis_parts[a];
    }
  }
  return best;
}

GizmoDrag::GizmoDrag(GizmoPart part, const glm::vec3& origin, const Ray& press_ray,
                     const glm::vec3& camera_forward)
    : part_(part), start_origin_(origin), last_(origin) {
  if (part == GizmoPart::kCenter) {
    normal_ = glm::normalize(camera_forward);
  } else if (IsPlane(part)) {
    normal_ = kAxes[AxesOfPlane(part).normal];
  } else if (IsAxis(part)) {
    axis_ = kAxes[AxisIndex(part)];
  } else {
    return;
  }
  if (IsAxis(part)) {
    valid_ = ClosestOnLine(press_ray, origin, axis_, &grab_t_);
  } else {
    valid_ = IntersectPlane(press_ray, origin, normal_, &grab_);
  }
}

glm::vec3 GizmoDrag::Update(const Ray& ray) {
  if (!valid_) return last_;
  if (IsAxis(part_)) {
    float t = 0.0f;
    if (ClosestOnLine(ray, start_origin_, axis_, &t)) last_ = start_origin_ + axis_ * (t - grab_t_);
  } else {
    glm::vec3 hit;
    if (IntersectPlane(ray, start_origin_, normal_, &hit)) last_ = start_origin_ + (hit - grab_);
  }
  return last_;
}

void DrawGizmo(const GizmoView& gizmo, const GizmoStyle& style, GizmoPart hovered, GizmoPart active,
               const glm::vec4& center_color, renderer::DebugLines* lines,
               renderer::DebugShapes* shapes) {
  const float wpp = WorldPerPixel(gizmo);
  const GizmoPart axis_parts[3] = {GizmoPart::kAxisX, GizmoPart::kAxisY, GizmoPart::kAxisZ};
  const bool dragging = active != GizmoPart::kNone;
  for (int a = 0; a < 3; ++a) {
    const bool lit = hovered == axis_parts[a] || active == axis_parts[a];
    if (dragging && active != axis_parts[a]) continue;  // only the dragged part while dragging
    const glm::vec4 color = lit ? Brighter(kAxisColors[a]) : kAxisColors[a];
    const glm::vec3 tip = gizmo.origin + kAxes[a] * (wpp * style.axis_length_px);
    lines->width = lit ? 4.0f : 2.5f;
    lines->AddLine(gizmo.origin + kAxes[a] * (wpp * style.center_radius_px), tip, color);
    shapes->AddArrowHead(tip, kAxes[a], 14.0f, lit ? 7.0f : 5.5f, color);
  }
  for (GizmoPart part : {GizmoPart::kPlaneXY, GizmoPart::kPlaneYZ, GizmoPart::kPlaneZX}) {
    if (dragging && active != part) continue;
    const bool lit = hovered == part || active == part;
    const PlaneAxes axes = AxesOfPlane(part);
    const glm::vec3 u = kAxes[axes.u] * wpp, v = kAxes[axes.v] * wpp;
    glm::vec4 color = kAxisColors[axes.normal];
    color.a = lit ? 0.85f : 0.45f;
    if (lit) color = glm::vec4(glm::vec3(Brighter(color)), 0.85f);
    shapes->AddQuad(gizmo.origin + u * style.plane_inner_px + v * style.plane_inner_px,
                    gizmo.origin + u * style.plane_outer_px + v * style.plane_inner_px,
                    gizmo.origin + u * style.plane_outer_px + v * style.plane_outer_px,
                    gizmo.origin + u * style.plane_inner_px + v * style.plane_outer_px, color);
  }
  const bool center_lit = hovered == GizmoPart::kCenter || active == GizmoPart::kCenter;
  shapes->AddDisc(gizmo.origin, style.center_radius_px + 2.0f,
                  glm::vec4(0.05f, 0.05f, 0.05f, 0.9f));
  shapes->AddDisc(gizmo.origin, style.center_radius_px,
                  center_lit ? Brighter(center_color) : center_color);
}

}  // namespace app
