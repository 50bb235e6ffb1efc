// Immediate-mode debug geometry built on the CPU each frame and drawn by Renderer: DebugLines
// (world-space segments with pixel widths) and DebugShapes (filled triangles, and handles whose
// size is given in pixels). Plain data, no GL: safe to fill from anywhere, cheap to clear.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "ik/core/skeleton.h"

namespace renderer {

// Colours are linear RGBA in [0, 1]; alpha blends.
namespace colors {
constexpr glm::vec4 kRed{0.92f, 0.22f, 0.2f, 1.0f};
constexpr glm::vec4 kGreen{0.3f, 0.82f, 0.25f, 1.0f};
constexpr glm::vec4 kBlue{0.25f, 0.45f, 0.95f, 1.0f};
constexpr glm::vec4 kYellow{0.98f, 0.85f, 0.2f, 1.0f};
constexpr glm::vec4 kOrange{1.0f, 0.55f, 0.1f, 1.0f};
constexpr glm::vec4 kCyan{0.2f, 0.85f, 0.9f, 1.0f};
constexpr glm::vec4 kMagenta{0.9f, 0.3f, 0.85f, 1.0f};
constexpr glm::vec4 kWhite{1.0f, 1.0f, 1.0f, 1.0f};
constexpr glm::vec4 kBlack{0.0f, 0.0f, 0.0f, 1.0f};
}  // namespace colors

struct LineVertex {
  glm::vec3 position;  // world space
  glm::vec4 color;
  float width;  // pixels
};

// Line segments in world space. Every Add* uses `width` (pixels, default 2) at the time of the
// call. Widths below 1 px are drawn 1 px wide.
class DebugLines {
 public:
  float width = 2.0f;

  void Clear() { vertices_.clear(); }
  bool empty() const { return vertices_.empty(); }
  // Two vertices per segment.
  const std::vector<LineVertex>& vertices() const { return vertices_; }

  void AddLine(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color);
  // A line whose colour fades from color_a at a to color_b at b.
  void AddLine(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color_a,
               const glm::vec4& color_b);
  // Circle in the plane through `center` perpendicular to `normal` (any length but zero; a zero
  // normal draws nothing). `segments` >= 3.
  void AddCircle(const glm::vec3& center, const glm::vec3& normal, float radius,
                 const glm::vec4& color, int segments = 64);
  // Sphere as three great circles in the world's coordinate planes.
  void AddSphere(const glm::vec3& center, float radius, const glm::vec4& color, int segments = 64);
  // The frame's x, y, z axes (red, green, blue) from its origin, each `length` world units long
  // whatever the frame's scale (columns are normalized; a zero column is skipped).
  void AddAxes(const glm::mat4& frame, float length);
  // Three axis-aligned segments of total length `size` crossing at `center`: a point marker.
  void AddCross(const glm::vec3& center, float size, const glm::vec4& color);
  // Axis-aligned box between two corners.
  void AddBox(const glm::vec3& min_corner, const glm::vec3& max_corner, const glm::vec4& color);
  // Box [-half_extents, half_extents] placed by `frame` (any affine matrix).
  void AddBox(const glm::mat4& frame, const glm::vec3& half_extents, const glm::vec4& color);
  // A skeleton in a pose: a segment from each joint to its parent and a cross of `joint_size`
  // world units on each joint. `joint_models` holds one model-space matrix per joint (ik::
  // LocalToModel). With `is_bone` (one flag per joint), only bones are marked and only
  // bone-to-bone segments drawn, hiding scene roots and mesh holders.
  void AddSkeleton(const ik::Skeleton& skeleton, const std::vector<glm::mat4>& joint_models,
                   const glm::vec4& color, float joint_size,
                   const std::vector<bool>* is_bone = nullptr);

 private:
  std::vector<LineVertex> vertices_;
};

struct ShapeVertex {
  glm::vec3 position;  // world-space anchor
  glm::vec3 axis;      // world direction the offset's x follows on screen; zero: screen x
  glm::vec2 offset;    // pixels from the anchor's projection (y up)
  glm::vec4 color;
};

// Filled triangles: world-space ones, and screen-facing handles of a fixed pixel size anchored at
// world points (the gizmo's discs, squares, rings and arrow heads). A handle anchored behind the
// camera is not drawn.
class DebugShapes {
 public:
  void Clear() { vertices_.clear(); }
  bool empty() const { return vertices_.empty(); }
  // Three vertices per triangle.
  const std::vector<ShapeVertex>& vertices() const { return vertices_; }

  // World-space triangle and quad (a, b, c, d in order around the quad).
  void AddTriangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                   const glm::vec4& color);
  void AddQuad(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const glm::vec3& d,
               const glm::vec4& color);
  // Screen-facing filled disc of `radius` pixels at a world point.
  void AddDisc(const glm::vec3& center, float radius, const glm::vec4& color, int segments = 24);
  // Screen-facing square, `half_size` pixels from centre to edge.
  void AddSquare(const glm::vec3& center, float half_size, const glm::vec4& color);
  // Screen-space arrow head with its tip at a world point, pointing along the projection of the
  // world direction `direction` (e.g. a gizmo axis), `length` pixels long and `half_width` pixels
  // wide at its base.
  void AddArrowHead(const glm::vec3& tip, const glm::vec3& direction, float length,
                    float half_width, const glm::vec4& color);
  // A triangle in pixel offsets around an anchor; `axis` as in ShapeVertex.
  void AddScreenTriangle(const glm::vec3& anchor, const glm::vec3& axis, const glm::vec2& a,
                         const glm::vec2& b, const glm::vec2& c, const glm::vec4& color);

 private:
  std::vector<ShapeVertex> vertices_;
};

}  // namespace renderer
