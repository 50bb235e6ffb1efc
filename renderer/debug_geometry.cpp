// Building debug lines and shapes on the CPU.
#include "renderer/debug_geometry.h"

#include <cmath>
#include <glm/gtc/constants.hpp>

namespace renderer {

namespace {

// Two unit vectors spanning the plane perpendicular to the unit vector n.
void PlaneBasis(const glm::vec3& n, glm::vec3* u, glm::vec3* v) {
  // Cross with the world axis least aligned with n, so the result is never near zero.
  const glm::vec3 a = std::fabs(n.x) < 0.6f   ? glm::vec3(1, 0, 0)
                      : std::fabs(n.y) < 0.6f ? glm::vec3(0, 1, 0)
                                              : glm::vec3(0, 0, 1);
  *u = glm::normalize(glm::cross(n, a));
  *v = glm::cross(n, *u);
}

glm::vec2 CirclePoint(int i, int segments, float radius) {
  const float angle = glm::two_pi<float>() * static_cast<float>(i) / static_cast<float>(segments);
  return radius * glm::vec2(std::cos(angle), std::sin(angle));
}

}  // namespace

void DebugLines::AddLine(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color) {
  AddLine(a, b, color, color);
}

void DebugLines::AddLine(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color_a,
                         const glm::vec4& color_b) {
  vertices_.push_back({a, color_a, width});
  vertices_.push_back({b, color_b, width});
}

void DebugLines::AddCircle(const glm::vec3& center, const glm::vec3& normal, float radius,
                           const glm::vec4& color, int segments) {
  const float length = glm::length(normal);
  if (!(length > 0.0f) || segments < 3) return;
  glm::vec3 u, v;
  PlaneBasis(normal / length, &u, &v);
  glm::vec3 previous = center + radius * u;
  for (int i = 1; i <= segments; ++i) {
    const glm::vec2 p = CirclePoint(i, segments, radius);
    const glm::vec3 current = center + p.x * u + p.y * v;
    AddLine(previous, current, color);
    previous = current;
  }
}

void DebugLines::AddSphere(const glm::vec3& center, float radius, const glm::vec4& color,
                           int segments) {
  AddCircle(center, {1, 0, 0}, radius, color, segments);
  AddCircle(center, {0, 1, 0}, radius, color, segments);
  AddCircle(center, {0, 0, 1}, radius, color, segments);
}

void DebugLines::AddAxes(const glm::mat4& frame, float length) {
  const glm::vec3 origin(frame[3]);
  const glm::vec4 axis_colors[3] = {colors::kRed, colors::kGreen, colors::kBlue};
  for (int i = 0; i < 3; ++i) {
    const glm::vec3 axis(frame[i]);
    const float norm = glm::length(axis);
    if (!(norm > 0.0f)) continue;
    AddLine(origin, origin + axis * (length / norm), axis_colors[i]);
  }
}

void DebugLines::AddCross(const glm::vec3& center, float size, const glm::vec4& color) {
  const float h = 0.5f * size;
  AddLine(center - glm::vec3(h, 0, 0), center + glm::vec3(h, 0, 0), color);
  AddLine(center - glm::vec3(0, h, 0), center + glm::vec3(0, h, 0), color);
  AddLine(center - glm::vec3(0, 0, h), center + glm::vec3(0, 0, h), color);
}

void DebugLines::AddBox(const glm::vec3& min_corner, const glm::vec3& max_corner,
                        const glm::vec4& color) {
  const glm::vec3 center = 0.5f * (min_corner + max_corner);
  glm::mat4 frame(1.0f);
  frame[3] = glm::vec4(center, 1.0f);
  AddBox(frame, 0.5f * (max_corner - min_corner), color);
}

void DebugLines::AddBox(const glm::mat4& frame, const glm::vec3& half_extents,
                        const glm::vec4& color) {
  glm::vec3 corners[8];
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 local((i & 1) ? half_extents.x : -half_extents.x,
                          (i & 2) ? half_extents.y : -half_extents.y,
                          (i & 4) ? half_extents.z : -half_extents.z);
    corners[i] = glm::vec3(frame * glm::vec4(local, 1.0f));
  }
  // Each edge joins two corners whose indices differ in one bit.
  for (int i = 0; i < 8; ++i)
    for (int bit = 1; bit < 8; bit <<= 1)
      if (!(i & bit)) AddLine(corners[i], corners[i | bit], color);
}

void DebugLines::AddSkeleton(const ik::Skeleton& skeleton,
                             const std::vector<glm::mat4>& joint_models, const glm::vec4& color,
                             float joint_size, const std::vector<bool>* is_bone) {
  const int count = skeleton.joint_count();
  if (static_cast<int>(joint_models.size()) < count) return;
  auto shown = [&](int joint) {
    return !is_bone || (joint < static_cast<int>(is_bone->size()) && (*is_bone)[joint]);
  };
  for (int j = 0; j < count; ++j) {
    if (!shown(j)) continue;
    const glm::vec3 position(joint_models[j][3]);
    if (joint_size > 0.0f) AddCross(position, joint_size, color);
    const int parent = skeleton.parent(j);
    if (parent >= 0 && shown(parent)) AddLine(glm::vec3(joint_models[parent][3]), position, color);
  }
}

void DebugShapes::AddTriangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                              const glm::vec4& color) {
  const glm::vec3 no_axis(0.0f);
  const glm::vec2 no_offset(0.0f);
  vertices_.push_back({a, no_axis, no_offset, color});
  vertices_.push_back({b, no_axis, no_offset, color});
  vertices_.push_back({c, no_axis, no_offset, color});
}

void DebugShapes::AddQuad(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                          const glm::vec3& d, const glm::vec4& color) {
  AddTriangle(a, b, c, color);
  AddTriangle(a, c, d, color);
}

void DebugShapes::AddScreenTriangle(const glm::vec3& anchor, const glm::vec3& axis,
                                    const glm::vec2& a, const glm::vec2& b, const glm::vec2& c,
                                    const glm::vec4& color) {
  vertices_.push_back({anchor, axis, a, color});
  vertices_.push_back({anchor, axis, b, color});
  vertices_.push_back({anchor, axis, c, color});
}

void DebugShapes::AddDisc(const glm::vec3& center, float radius, const glm::vec4& color,
                          int segments) {
  if (segments < 3) return;
  for (int i = 0; i < segments; ++i)
    AddScreenTriangle(center, glm::vec3(0.0f), glm::vec2(0.0f), CirclePoint(i, segments, radius),
                      CirclePoint(i + 1, segments, radius), color);
}

void DebugShapes::AddSquare(const glm::vec3& center, float half_size, const glm::vec4& color) {
  const float h = half_size;
  const glm::vec3 no_axis(0.0f);
  AddScreenTriangle(center, no_axis, {-h, -h}, {h, -h}, {h, h}, color);
  AddScreenTriangle(center, no_axis, {-h, -h}, {h, h}, {-h, h}, color);
}

void DebugShapes::AddArrowHead(const glm::vec3& tip, const glm::vec3& direction, float length,
                               float half_width, const glm::vec4& color) {
  AddScreenTriangle(tip, direction, {0.0f, 0.0f}, {-length, half_width}, {-length, -half_width},
                    color);
}

}  // namespace renderer
