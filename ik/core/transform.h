// Transform: a joint's local translation, rotation and scale (T·R·S), and conversions to and from
// 4x4 matrices. Rotations are unit quaternions; glm stores them x,y,z,w but constructs them w
// first.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ik {

struct Transform {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // identity: w = 1 (glm's constructor is w, x, y, z)
  glm::vec3 scale{1.0f};

  // The matrix trans(t) · rot(q) · scale(s). Unlike the seed's printed scale matrix, the scale
  // part's last column is (0, 0, 0, 1).
  glm::mat4 ToMatrix() const;

  // Decomposes an affine matrix without shear into T, R, S. A negative determinant is carried by
  // a negative x scale. Returns false (and leaves *out unchanged) for non-finite or singular input.
  static bool FromMatrix(const glm::mat4& m, Transform* out);

  bool IsFinite() const;
};

// Rotation matrix of a unit quaternion, written out (entry (3,2) is 2(yz + wx), not the seed's
// printed 2(yz - wx)). Inline: forward kinematics builds one per joint.
inline glm::mat3 RotationMatrix(const glm::quat& q) {
  const float x = q.x, y = q.y, z = q.z, w = q.w;
  const float xx = x * x, yy = y * y, zz = z * z;
  const float xy = x * y, xz = x * z, yz = y * z;
  const float wx = w * x, wy = w * y, wz = w * z;
  glm::mat3 r;  // glm is column major: r[col][row]
  r[0][0] = 1.0f - 2.0f * (yy + zz);
  r[0][1] = 2.0f * (xy + wz);
  r[0][2] = 2.0f * (xz - wy);
  r[1][0] = 2.0f * (xy - wz);
  r[1][1] = 1.0f - 2.0f * (xx + zz);
  r[1][2] = 2.0f * (yz + wx);  // row 3, column 2 in the seed's 1-based notation
  r[2][0] = 2.0f * (xz + wy);
  r[2][1] = 2.0f * (yz - wx);
  r[2][2] = 1.0f - 2.0f * (xx + yy);
  return r;
}

inline glm::mat4 Transform::ToMatrix() const {
  const glm::mat3 r = RotationMatrix(rotation);
  glm::mat4 m;
  m[0] = glm::vec4(r[0] * scale.x, 0.0f);
  m[1] = glm::vec4(r[1] * scale.y, 0.0f);
  m[2] = glm::vec4(r[2] * scale.z, 0.0f);
  m[3] = glm::vec4(translation, 1.0f);
  return m;
}

bool IsFinite(const glm::vec3& v);
bool IsFinite(const glm::quat& q);
bool IsFinite(const glm::mat4& m);

}  // namespace ik
