// The IK target gizmo: a translate handle drawn at a fixed size on screen — a centre disc that
// drags on the camera-facing plane, X/Y/Z arrows that constrain to an axis and XY/YZ/ZX squares
// that constrain to a plane (as three.js's TransformControls and Blender's grab do). Hit testing
// and drag math are pure functions of the camera, testable without a window.
#pragma once

#include <glm/glm.hpp>

#include "app/scene/camera.h"
#include "renderer/debug_geometry.h"

namespace app {

enum class GizmoPart { kNone, kCenter, kAxisX, kAxisY, kAxisZ, kPlaneXY, kPlaneYZ, kPlaneZX };
const char* GizmoPartName(GizmoPart part);

// Sizes in pixels, whatever the camera distance.
struct GizmoStyle {
  float axis_length_px = 75.0f;
  float center_radius_px = 9.0f;
  float plane_inner_px = 16.0f;  // the squares span [inner, outer] along their two axes
  float plane_outer_px = 32.0f;
  float pick_tolerance_px = 7.0f;
};

// Where a gizmo is and how it is seen.
struct GizmoView {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  Viewport viewport;
  glm::vec3 origin{0.0f};  // world position of the handle (the IK target)
};

// Whether `projection` is a parallel (orthographic) one.
bool IsOrthographic(const glm::mat4& projection);

// World units per pixel at the gizmo's depth (so handles keep their pixel size), for a
// perspective or an orthographic projection.
float WorldPerPixel(const GizmoView& gizmo);

// The part under the cursor (top-left pixel coordinates), or kNone. The centre disc wins over the
// squares, which win over the arrows; among arrows the nearest.
GizmoPart HitTestGizmo(const GizmoView& gizmo, const GizmoStyle& style, const glm::vec2& cursor);

// One drag of one part: starts with the cursor ray at press, then maps each later cursor ray to
// the new handle position so that the point grabbed stays under the cursor (on the constraint).
class GizmoDrag {
 public:
  GizmoDrag() = default;
  // `camera_forward`: unit view direction, the normal of the centre disc's plane.
  GizmoDrag(GizmoPart part, const glm::vec3& origin, const Ray& press_ray,
            const glm::vec3& camera_forward);

  GizmoPart part() const { return part_; }
  const glm::vec3& start_origin() const { return start_origin_; }
  // New handle position for the cursor ray; returns the previous one when the ray runs parallel
  // to the constraint (no finite answer), so the handle never jumps to infinity.
  glm::vec3 Update(const Ray& ray);

 private:
  GizmoPart part_ = GizmoPart::kNone;
  glm::vec3 start_origin_{0.0f};
  glm::vec3 grab_{0.0f};    // grabbed point on the constraint at press
  glm::vec3 normal_{0.0f};  // plane drags: plane normal
  glm::vec3 axis_{0.0f};    // axis drags: unit axis
  float grab_t_ = 0.0f;     // axis drags: parameter along the axis at press
  glm::vec3 last_{0.0f};
  bool valid_ = false;
};

// Ray–plane intersection; false when (nearly) parallel or behind the ray's origin.
bool IntersectPlane(const Ray& ray, const glm::vec3& point, const glm::vec3& normal,
                    glm::vec3* hit);
// Parameter t of the point on the line point + t·axis (unit axis) closest to the ray; false when
// the ray runs (nearly) parallel to the line.
bool ClosestOnLine(const Ray& ray, const glm::vec3& point, const glm::vec3& axis, float* t);
// Distance in pixels from p to the segment a–b.
float DistanceToSegment(const glm::vec2& p, const glm::vec2& a, const glm::vec2& b);

// Draws the gizmo into screen-sized shapes (discs, arrow heads) and lines. `hovered` and `active`
// parts are drawn brighter; `center_color` tints the centre disc (e.g. reached / not reached).
void DrawGizmo(const GizmoView& gizmo, const GizmoStyle& style, GizmoPart hovered, GizmoPart active,
               const glm::vec4& center_color, renderer::DebugLines* lines,
               renderer::DebugShapes* shapes);

}  // namespace app
