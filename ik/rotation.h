// Rotations between directions without trigonometry, and the small quaternion helpers the solvers
// share. Every function here is total: zero, parallel, antiparallel and tiny inputs give a finite
// unit quaternion.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ik {

// What RotationBetween had to fall back on.
enum class RotationFallback {
  kNone,          // the ordinary minimal rotation
  kZeroVector,    // `from` or `to` (nearly) zero: identity
  kAntiparallel,  // `from` and `to` (nearly) opposite: 180° about `hint` or any perpendicular
};

// The minimal rotation taking direction `from` to direction `to` (any lengths; only directions
// matter): the turn about from × to by the angle between them, built without acos. With
// r = |f||t|, d = f·t and c = f × t (made exactly perpendicular to f), q ∝ (r + d, c), written
// as (|c|²/(r - d), c) when d < 0 so that nothing cancels next to 180°: the result maps `from`
// onto `to` to float precision at every angle. Fallbacks: a zero vector (squared length below
// 1e-30 or not finite) gives the identity; vectors within about 1e-5 rad of opposite turn 180°
// about `hint` made perpendicular to `from` (or an arbitrary perpendicular when `hint` is zero or
// parallel to `from`) and then by the remaining small angle — never the identity. `fallback`
// (optional) says which fired.
glm::quat RotationBetween(const glm::vec3& from, const glm::vec3& to,
                          const glm::vec3& hint = glm::vec3(0.0f),
                          RotationFallback* fallback = nullptr);

// The rotation about `unit_axis` (unit length) that turns the part of `from` perpendicular to the
// axis onto the part of `to` perpendicular to it: a twist or hinge turn that leaves the axis
// exactly fixed, which RotationBetween of the projected vectors would not do next to 180°.
// Trig-free: with x = f⊥·t⊥ and y = (f⊥ × t⊥)·axis, q ∝ (r + x, y·axis) for x >= 0 and
// q ∝ (y, (r - x)·axis) otherwise, r = |f⊥||t⊥|, so neither branch cancels. Identity when either
// perpendicular part is (nearly) zero (r² below 1e-30 or below 1e-12 of |f|²|t|²).
glm::quat RotationAbout(const glm::vec3& unit_axis, const glm::vec3& from, const glm::vec3& to);

// q · v · q⁻¹ for a unit quaternion, without building a matrix.
inline glm::vec3 Rotate(const glm::quat& q, const glm::vec3& v) {
  const glm::vec3 u(q.x, q.y, q.z);
  const glm::vec3 t = 2.0f * glm::cross(u, v);
  return v + q.w * t + glm::cross(u, t);
}

// A unit vector perpendicular to `v`: v crossed with the coordinate axis v is least aligned with,
// normalized, so the choice is deterministic and well conditioned. (1, 0, 0) for a zero vector.
glm::vec3 AnyPerpendicular(const glm::vec3& v);

// Normalized linear blend from `a` to `b` along the shorter arc (b's sign is flipped when a·b < 0).
// t = 0 gives a, t = 1 gives b (up to sign).
glm::quat Nlerp(const glm::quat& a, const glm::quat& b, float t);

// q / |q|, or the identity when |q| is zero or not finite.
glm::quat NormalizeOrIdentity(const glm::quat& q);

}  // namespace ik
