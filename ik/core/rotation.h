// Rotations between directions without trigonometry, and the quaternion and angle helpers every
// solver in ik/ shares (one set: use these rather than writing local copies). Every function here
// is total and scale-free: any finite input, denormal to the largest float, gives a finite result;
// zero vectors give the identity.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ik {

constexpr float kPi = 3.14159265358979f;
constexpr float kTwoPi = 6.28318530717959f;

inline glm::quat IdentityRotation() { return glm::quat(1.0f, 0.0f, 0.0f, 0.0f); }

// What RotationBetween had to fall back on.
enum class RotationFallback {
  kNone,          // the ordinary minimal rotation
  kZeroVector,    // `from` or `to` is zero or not finite: identity
  kAntiparallel,  // `from` and `to` (nearly) opposite: 180° about `hint` or any perpendicular
};

// The minimal rotation taking direction `from` to direction `to` (any lengths; only directions
// matter): the turn about from × to by the angle between them, built without acos. With
// r = |f||t|, d = f·t and c = f × t (made exactly perpendicular to f), q ∝ (r + d, c), written
// as (|c|²/(r - d), c) when d < 0 so that nothing cancels next to 180°: the result maps `from`
// onto `to` to float precision at every angle. Computed in double, so the lengths may be anything
// finite. Fallbacks: a zero or non-finite vector gives the identity; vectors within about 1e-5 rad
// of opposite turn 180° about `hint` made perpendicular to `from` (or an arbitrary perpendicular
// when `hint` is zero or parallel to `from`) and then by the remaining small angle — never the
// identity. `fallback` (optional) says which fired.
glm::quat RotationBetween(const glm::vec3& from, const glm::vec3& to,
                          const glm::vec3& hint = glm::vec3(0.0f),
                          RotationFallback* fallback = nullptr);
glm::dquat RotationBetween(const glm::dvec3& from, const glm::dvec3& to,
                           const glm::dvec3& hint = glm::dvec3(0.0),
                           RotationFallback* fallback = nullptr);

// The rotation about `unit_axis` (unit length) that turns the part of `from` perpendicular to the
// axis onto the part of `to` perpendicular to it: a twist or hinge turn that leaves the axis
// exactly fixed, which RotationBetween of the projected vectors would not do next to 180°.
// Trig-free: with x = f⊥·t⊥ and y = (f⊥ × t⊥)·axis, q ∝ (r + x, y·axis) for x >= 0 and
// q ∝ (y, (r - x)·axis) otherwise, r = |f⊥||t⊥|, so neither branch cancels. Identity when either
// perpendicular part is (nearly) zero: r² below 1e-12 of |f|²|t|², or zero.
glm::quat RotationAbout(const glm::vec3& unit_axis, const glm::vec3& from, const glm::vec3& to);
glm::dquat RotationAbout(const glm::dvec3& unit_axis, const glm::dvec3& from, const glm::dvec3& to);

// q · v · q⁻¹ for a unit quaternion, without building a matrix.
template <typename T, glm::qualifier Q>
inline glm::vec<3, T, Q> Rotate(const glm::qua<T, Q>& q, const glm::vec<3, T, Q>& v) {
  const glm::vec<3, T, Q> u(q.x, q.y, q.z);
  const glm::vec<3, T, Q> t = T(2) * glm::cross(u, v);
  return v + q.w * t + glm::cross(u, t);
}

// A unit vector perpendicular to `v`: v crossed with the coordinate axis v is least aligned with,
// normalized, so the choice is deterministic and well conditioned. (1, 0, 0) for a zero or
// non-finite vector.
glm::vec3 AnyPerpendicular(const glm::vec3& v);
glm::dvec3 AnyPerpendicular(const glm::dvec3& v);

// q / |q|, or the identity when q is zero or not finite. Any finite magnitude works. A quaternion
// already unit to float precision comes back unchanged in the common case (len² rounds to 1).
glm::quat NormalizeOrIdentityRare(const glm::quat& q);
inline glm::quat NormalizeOrIdentity(const glm::quat& q) {
  const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  if (!(len2 > 1e-30f && len2 < 1e30f)) return NormalizeOrIdentityRare(q);
  const float s = 1.0f / std::sqrt(len2);
  return glm::quat(q.w * s, q.x * s, q.y * s, q.z * s);
}

// Normalized linear blend from `a` to `b` along the shorter arc (b's sign is flipped when a·b < 0).
// t = 0 gives a, t = 1 gives b (up to sign).
glm::quat Nlerp(const glm::quat& a, const glm::quat& b, float t);

// The rotation by `angle` radians about `unit_axis`.
glm::quat AxisAngle(const glm::vec3& unit_axis, float angle);

// Rotation angle of a unit quaternion, radians in [0, π].
float RotationAngle(const glm::quat& q);

// Angle of the rotation taking a to b (unit quaternions), radians in [0, π].
float AngleBetweenRotations(const glm::quat& a, const glm::quat& b);

// Angle between two directions (any finite lengths), radians in [0, π], accurate at every angle
// (atan2, not acos). 0 when either is zero.
float AngleBetweenDirections(const glm::vec3& a, const glm::vec3& b);
double AngleBetweenDirections(const glm::dvec3& a, const glm::dvec3& b);

// The same axis, `fraction` of the angle (the short way round). Exact in angle, unlike Nlerp.
glm::quat ScaleRotation(const glm::quat& q, float fraction);

// An angle wrapped into [-π, π].
float WrapAngle(float radians);

}  // namespace ik
