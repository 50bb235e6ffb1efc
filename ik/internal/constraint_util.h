// Small helpers shared by the constraint solvers (aim, FABRIK, joint limits): joint frames without
// their own scale, directions taken into a frame, and angles of quaternions. Internal to ik/.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/transform.h"

namespace ik {
namespace internal {

constexpr float kPi = 3.14159265358979f;
constexpr float kTwoPi = 6.28318530717959f;
inline glm::quat IdentityQuat() { return glm::quat(1.0f, 0.0f, 0.0f, 0.0f); }

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
// scale has a zero component, or anything is not finite.
inline bool MakeJointFrame(const glm::mat4& model, const glm::vec3& own_scale, JointFrame* out) {
  if (!(std::abs(own_scale.x) > 1e-20f && std::abs(own_scale.y) > 1e-20f &&
        std::abs(own_scale.z) > 1e-20f)) {
    return false;
  }
  const glm::vec3 c0 = glm::vec3(model[0]) / own_scale.x;
  const glm::vec3 c1 = glm::vec3(model[1]) / own_scale.y;
  const glm::vec3 c2 = glm::vec3(model[2]) / own_scale.z;
  const glm::vec3 r0 = glm::cross(c1, c2), r1 = glm::cross(c2, c0), r2 = glm::cross(c0, c1);
  const float det = glm::dot(c0, r0);
  const float scale = glm::dot(c0, c0) * glm::dot(c1, c1) * glm::dot(c2, c2);
  if (!(det * det > 1e-12f * scale) || !(scale > 0.0f) || !std::isfinite(det * det)) return false;
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

// Angle between two directions in [0, π], robust at every angle (atan2, not acos). 0 when either
// is zero.
inline float AngleBetweenDirections(const glm::vec3& a, const glm::vec3& b) {
  const float s = glm::length(glm::cross(a, b));
  const float c = glm::dot(a, b);
  if (!(s > 0.0f) && !(std::abs(c) > 0.0f)) return 0.0f;
  return std::atan2(s, c);
}

// Rotation angle of a unit quaternion in [0, π].
inline float RotationAngle(const glm::quat& q) {
  const float v = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  return 2.0f * std::atan2(v, std::abs(q.w));
}

// Angle of the rotation taking a to b, in [0, π].
inline float AngleBetweenRotations(const glm::quat& a, const glm::quat& b) {
  return RotationAngle(glm::conjugate(a) * b);
}

// The rotation by `angle` radians about `unit_axis`.
inline glm::quat AxisAngle(const glm::vec3& unit_axis, float angle) {
  const float s = std::sin(0.5f * angle);
  return glm::quat(std::cos(0.5f * angle), unit_axis.x * s, unit_axis.y * s, unit_axis.z * s);
}

// The same axis, `fraction` of the angle (the short way round). Exact in angle, unlike Nlerp.
inline glm::quat ScaleRotation(const glm::quat& q_in, float fraction) {
  glm::quat q = q_in.w < 0.0f ? -q_in : q_in;
  const glm::vec3 v(q.x, q.y, q.z);
  const float len = glm::length(v);
  if (!(len > 1e-20f)) return IdentityQuat();
  const float angle = 2.0f * std::atan2(len, q.w);
  return AxisAngle(v / len, angle * fraction);
}

// q / |q|, or the identity when |q| is zero or not finite. Inline: the constraint solvers
// normalize in their inner loops (ik::NormalizeOrIdentity is the same, out of line).
inline glm::quat Normalize(const glm::quat& q) {
  const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  if (!(len2 > 1e-30f && len2 < 1e30f)) return IdentityQuat();
  const float s = 1.0f / std::sqrt(len2);
  return glm::quat(q.w * s, q.x * s, q.y * s, q.z * s);
}

// Wraps an angle into [-π, π].
inline float WrapAngle(float a) {
  if (a >= -kPi && a <= kPi) return a;
  a = std::fmod(a + kPi, kTwoPi);
  if (a < 0.0f) a += kTwoPi;
  return a - kPi;
}

}  // namespace internal
}  // namespace ik
