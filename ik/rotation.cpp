// Trig-free minimal rotations and quaternion helpers.
#include "ik/rotation.h"

#include <cmath>

namespace ik {

glm::vec3 AnyPerpendicular(const glm::vec3& v) {
  const glm::vec3 a = glm::abs(v);
  glm::vec3 axis(0.0f);
  if (a.x <= a.y && a.x <= a.z) {
    axis.x = 1.0f;
  } else if (a.y <= a.z) {
    axis.y = 1.0f;
  } else {
    axis.z = 1.0f;
  }
  const glm::vec3 p = glm::cross(v, axis);
  const float pp = glm::dot(p, p);
  if (!(pp > 0.0f) || !std::isfinite(pp)) return glm::vec3(1.0f, 0.0f, 0.0f);
  return p / std::sqrt(pp);
}

glm::quat RotationBetween(const glm::vec3& from, const glm::vec3& to, const glm::vec3& hint,
                          RotationFallback* fallback) {
  if (fallback) *fallback = RotationFallback::kNone;
  glm::vec3 f = from, t = to;
  float ff = glm::dot(f, f), tt = glm::dot(t, t);
  if (!(ff > 1e-30f) || !(tt > 1e-30f) || !std::isfinite(ff) || !std::isfinite(tt)) {
    if (fallback) *fallback = RotationFallback::kZeroVector;
    return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  }
  // The formulas below raise |f||t| to the fourth power; bring extreme magnitudes to unit length.
  if (!(ff * tt > 1e-16f && ff * tt < 1e16f)) {
    f /= std::sqrt(ff);
    t /= std::sqrt(tt);
    ff = tt = 1.0f;
  }
  const float r = std::sqrt(ff * tt);  // |f||t|
  const float d = glm::dot(f, t);      // r cos(angle)
  // The axis f × t, made exactly perpendicular to f: next to 180° the cross product carries an
  // absolute error of ~1e-7·r that would otherwise tilt the axis and throw `to` off by 1e-7/sin.
  glm::vec3 c = glm::cross(f, t);
  c -= (glm::dot(c, f) / ff) * f;
  const float cc = glm::dot(c, c);  // r² sin²(angle)
  if (d < 0.0f && !(cc > 1e-10f * ff * tt)) {
    // Within ~1e-5 rad of opposite: the axis is noise. Turn 180° about the hint (or any axis)
    // perpendicular to f, which maps f exactly to -f, then the small turn from -f onto t.
    if (fallback) *fallback = RotationFallback::kAntiparallel;
    glm::vec3 n = hint - (glm::dot(hint, f) / ff) * f;
    float nn = glm::dot(n, n);
    if (!(nn > 1e-12f * glm::dot(hint, hint)) || !(nn > 1e-30f) || !std::isfinite(nn)) {
      n = AnyPerpendicular(f);
      nn = 1.0f;
    }
    n /= std::sqrt(nn);
    const glm::quat small = RotationBetween(-f, t);
    // small ⊗ (0, n)
    const glm::vec3 v(small.x, small.y, small.z);
    const glm::vec3 xyz = small.w * n + glm::cross(v, n);
    return glm::quat(-glm::dot(v, n), xyz.x, xyz.y, xyz.z);
  }
  // q ∝ (r + d, c) = (r² + r d, r c)/r. For d < 0, r + d cancels; there r + d = |c|²/(r - d)
  // instead. Both as (num, denom·c) with denom = r + |d|, so one select and no division:
  // num = denom² when d >= 0, |c|² when d < 0.
  const float denom = r + std::abs(d);
  const float num = d >= 0.0f ? denom * denom : cc;
  const float s = 1.0f / std::sqrt(num * num + denom * denom * cc);
  const float cs = denom * s;
  return glm::quat(num * s, c.x * cs, c.y * cs, c.z * cs);
}

glm::quat RotationAbout(const glm::vec3& unit_axis, const glm::vec3& from, const glm::vec3& to) {
  const glm::vec3 f = from - glm::dot(from, unit_axis) * unit_axis;
  const glm::vec3 t = to - glm::dot(to, unit_axis) * unit_axis;
  const float x = glm::dot(f, t);                         // r cos(angle)
  const float y = glm::dot(glm::cross(f, t), unit_axis);  // r sin(angle)
  const float r2 = x * x + y * y;
  const float scale2 = glm::dot(from, from) * glm::dot(to, to);
  if (!(r2 > 1e-30f) || !(r2 > 1e-12f * scale2) || !std::isfinite(r2)) {
    return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  }
  const float r = std::sqrt(r2);
  float w, v;  // q = (w, v·axis), |q|² = 2r(r ± x)
  if (x >= 0.0f) {
    w = r + x;
    v = y;
  } else {
    w = std::abs(y);
    v = y < 0.0f ? -(r - x) : (r - x);
  }
  const float s = 1.0f / std::sqrt(w * w + v * v);
  return glm::quat(w * s, unit_axis.x * (v * s), unit_axis.y * (v * s), unit_axis.z * (v * s));
}

glm::quat NormalizeOrIdentity(const glm::quat& q) {
  const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  if (!(len2 > 1e-30f) || !std::isfinite(len2)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  const float s = 1.0f / std::sqrt(len2);
  return glm::quat(q.w * s, q.x * s, q.y * s, q.z * s);
}

glm::quat Nlerp(const glm::quat& a, const glm::quat& b, float t) {
  const float dot = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
  const float sb = dot < 0.0f ? -t : t;
  const float sa = 1.0f - t;
  return NormalizeOrIdentity(glm::quat(sa * a.w + sb * b.w, sa * a.x + sb * b.x,
                                       sa * a.y + sb * b.y, sa * a.z + sb * b.z));
}

}  // namespace ik
