// Transform <-> matrix conversions and small numeric helpers shared by the kinematics code.
#include "ik/core/transform.h"

#include <cmath>

namespace ik {

bool IsFinite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
bool IsFinite(const glm::quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}
bool IsFinite(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!std::isfinite(m[c][r])) return false;
  return true;
}

bool Transform::IsFinite() const {
  return ik::IsFinite(translation) && ik::IsFinite(rotation) && ik::IsFinite(scale);
}

bool Transform::FromMatrix(const glm::mat4& m, Transform* out) {
  if (!ik::IsFinite(m)) return false;
  glm::vec3 c0(m[0]), c1(m[1]), c2(m[2]);
  glm::vec3 s(glm::length(c0), glm::length(c1), glm::length(c2));
  if (s.x < 1e-12f || s.y < 1e-12f || s.z < 1e-12f) return false;
  if (glm::dot(glm::cross(c0, c1), c2) < 0.0f) s.x = -s.x;
  glm::mat3 r(c0 / s.x, c1 / s.y, c2 / s.z);
  glm::quat q = glm::quat_cast(r);
  const float len = glm::length(q);
  if (!(len > 0.0f)) return false;
  out->translation = glm::vec3(m[3]);
  out->rotation = q / len;
  out->scale = s;
  return true;
}

}  // namespace ik
