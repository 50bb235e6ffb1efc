// Joint frames of extreme scale, in double (see constraint_util.h).
#include "ik/core/constraint_util.h"

namespace ik {
namespace internal {

bool MakeJointFrameWide(const glm::mat4& model, const glm::vec3& own_scale, JointFrame* out) {
  const glm::dvec3 s(own_scale);
  if (!(s.x != 0.0 && s.y != 0.0 && s.z != 0.0)) return false;
  const glm::dvec3 c0 = glm::dvec3(glm::vec3(model[0])) / s.x;
  const glm::dvec3 c1 = glm::dvec3(glm::vec3(model[1])) / s.y;
  const glm::dvec3 c2 = glm::dvec3(glm::vec3(model[2])) / s.z;
  const glm::dvec3 r0 = glm::cross(c1, c2), r1 = glm::cross(c2, c0), r2 = glm::cross(c0, c1);
  const double det = glm::dot(c0, r0);
  const double scale = glm::length(c0) * glm::length(c1) * glm::length(c2);
  if (!(std::abs(det) > 1e-6 * scale) || !std::isfinite(det) || !std::isfinite(scale)) return false;
  const double inv_det = 1.0 / det;
  const glm::mat3 basis{glm::vec3(c0), glm::vec3(c1), glm::vec3(c2)};
  const glm::mat3 inverse = glm::transpose(
      glm::mat3(glm::vec3(r0 * inv_det), glm::vec3(r1 * inv_det), glm::vec3(r2 * inv_det)));
  const glm::vec3 origin(model[3]);
  if (!IsFinite(glm::mat4(basis)) || !IsFinite(glm::mat4(inverse)) || !IsFinite(origin)) {
    return false;
  }
  out->basis = basis;
  out->inverse = inverse;
  out->origin = origin;
  return true;
}

}  // namespace internal
}  // namespace ik
