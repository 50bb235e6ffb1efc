// Internal: joint frames as the constraint solvers (aim, FABRIK, joint limits) see them — the
// model matrix without the joint's own scale — and directions taken into and out of them.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/core/transform.h"

namespace ik {
namespace internal {

// A joint's frame as a local rotation correction sees it: the model matrix with the joint's own
// local scale divided out (local = T·R·S, so a correction sits between R and S). `basis` maps
// frame directions to model directions; `inverse` is its inverse (exact for mirrored and
// non-uniformly scaled parents).
struct JointFrame {
  glm::mat3 basis{1.0f};
  glm::mat3 inverse{1.0f};
  glm::vec3 origin{0.0f};
};

// False when the 3x3 part is singular (relative to the product of its column lengths), the own
// scale has a zero component, anything is not finite, or the inverse does not fit in float.
// Frames of any finite scale work: in float while the products stay in its range (the common
// case), else in double.
bool MakeJointFrameWide(const glm::mat4& model, const glm::vec3& own_scale, JointFrame* out);
inline bool MakeJointFrame(const glm::mat4& model, const glm::vec3& own_scale, JointFrame* out) {
  if (!(std::abs(own_scale.x) > 1e-20f && std::abs(own_scale.y) > 1e-20f &&
        std::abs(own_scale.z) > 1e-20f)) {
    return MakeJointFrameWide(model, own_scale, out);
  }
  const glm::vec3 c0 = glm::vec3(model[0]) / own_scale.x;
  const glm::vec3 c1 = glm::vec3(model[1]) / own_scale.y;
  const glm::vec3 c2 = glm::vec3(model[2]) / own_scale.z;
  const glm::vec3 r0 = glm::cross(c1, c2), r1 = glm::cross(c2, c0), r2 = glm::cross(c0, c1);
  const float det = glm::dot(c0, r0);
  const float scale = glm::dot(c0, c0) * glm::dot(c1, c1) * glm::dot(c2, c2);
  if (!(scale > 1e-30f && scale < 1e30f)) return MakeJointFrameWide(model, own_scale, out);
  if (!(det * det > 1e-12f * scale) || !std::isfinite(det * det)) return false;
  const float inv_det = 1.0f / det;
  out->basis = glm::mat3(c0, c1, c2);
  // Rows of the adjugate over det, stored column-major: inverse[col][row].
  out->inverse = glm::transpose(glm::mat3(r0 * inv_det, r1 * inv_det, r2 * inv_det));
  out->origin = glm::vec3(model[3]);
  return IsFinite(out->origin) && std::isfinite(inv_det);
}

inline glm::vec3 ToFrame(const JointFrame& f, const glm::vec3& direction_model) {
  return f.inverse * direction_model;
}
inline glm::vec3 FromFrame(const JointFrame& f, const glm::vec3& direction_frame) {
  return f.basis * direction_frame;
}

}  // namespace internal
}  // namespace ik
