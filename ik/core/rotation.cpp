// Trig-free minimal rotations and the quaternion and angle helpers. The float versions of the
// direction functions compute in float in the common range and in double, on unit-sized copies of
// their inputs, outside it: every finite input has an answer.
#include "ik/core/rotation.h"

#include <algorithm>
#include <cmath>

namespace ik {

namespace {

template <typename T>
using Vec3 = glm::vec<3, T, glm::defaultp>;
template <typename T>
using Quat = glm::qua<T, glm::defaultp>;

template <typename T>
bool Finite(T x) {
  return std::isfinite(x);
}

template <typename T>
Vec3<T> AnyPerpendicularImpl(const Vec3<T>& v) {
  const Vec3<T> a = glm::abs(v);
  Vec3<T> axis(0);
  if (a.x <= a.y && a.x <= a.z) {
    axis.x = 1;
  } else if (a.y <= a.z) {
    axis.y = 1;
  } else {
    axis.z = 1;
  }
  Vec3<T> p = glm::cross(v, axis);
  // Scaled to its largest component first, so that the square neither overflows nor underflows.
  const T big = std::max(std::abs(p.x), std::max(std::abs(p.y), std::abs(p.z)));
  if (!(big > 0) || !Finite(big)) return Vec3<T>(1, 0, 0);
  p /= big;
  return p / std::sqrt(glm::dot(p, p));
}

// Inputs are finite and nonzero, and their squares fit in T (always so for float values in
// double).
template <typename T>
Quat<T> RotationBetweenImpl(const Vec3<T>& from, const Vec3<T>& to, const Vec3<T>& hint,
                            RotationFallback* fallback) {
  const Vec3<T> f = from, t = to;
  const T ff = glm::dot(f, f), tt = glm::dot(t, t);
  const T r = std::sqrt(ff * tt);  // |f||t|
  const T d = glm::dot(f, t);      // r cos(angle)
  // The axis f × t, made exactly perpendicular to f: next to 180° the cross product carries an
  // absolute error of ~ε·r that would otherwise tilt the axis and throw `to` off by ε/sin.
  Vec3<T> c = glm::cross(f, t);
  c -= (glm::dot(c, f) / ff) * f;
  const T cc = glm::dot(c, c);  // r² sin²(angle)
  if (d < 0 && !(cc > T(1e-10) * ff * tt)) {
    // Within ~1e-5 rad of opposite: the axis is noise. Turn 180° about the hint (or any axis)
    // perpendicular to f, which maps f exactly to -f, then the small turn from -f onto t.
    if (fallback) *fallback = RotationFallback::kAntiparallel;
    Vec3<T> n = hint - (glm::dot(hint, f) / ff) * f;
    T nn = glm::dot(n, n);
    if (!(nn > T(1e-12) * glm::dot(hint, hint)) || !(nn > 0) || !Finite(nn)) {
      n = AnyPerpendicularImpl(f);
      nn = 1;
    }
    n /= std::sqrt(nn);
    const Quat<T> small = RotationBetweenImpl<T>(-f, t, Vec3<T>(0), nullptr);
    // small ⊗ (0, n)
    const Vec3<T> v(small.x, small.y, small.z);
    const Vec3<T> xyz = small.w * n + glm::cross(v, n);
    return Quat<T>(-glm::dot(v, n), xyz.x, xyz.y, xyz.z);
  }
  // q ∝ (r + d, c) = (r² + r d, r c)/r. For d < 0, r + d cancels; there r + d = |c|²/(r - d)
  // instead. Both as (num, denom·c) with denom = r + |d|, so one select and no division:
  // num = denom² when d >= 0, |c|² when d < 0.
  const T denom = r + std::abs(d);
  const T num = d >= 0 ? denom * denom : cc;
  const T s = 1 / std::sqrt(num * num + denom * denom * cc);
  const T cs = denom * s;
  return Quat<T>(num * s, c.x * cs, c.y * cs, c.z * cs);
}

// A vector scaled so that its largest component is 1 (zero stays zero): squares and products of
// such vectors never overflow or underflow.
template <typename T>
Vec3<T> Unitish(const Vec3<T>& v) {
  const T big = std::max(std::abs(v.x), std::max(std::abs(v.y), std::abs(v.z)));
  return big > 0 ? v * (1 / big) : v;
}

template <typename T>
bool AllFinite(const Vec3<T>& v) {
  return Finite(v.x) && Finite(v.y) && Finite(v.z);
}

template <typename T>
bool ZeroOrNonFinite(const Vec3<T>& v) {
  return (v.x == 0 && v.y == 0 && v.z == 0) || !AllFinite(v);
}

template <typename T>
Quat<T> RotationAboutImpl(const Vec3<T>& unit_axis, const Vec3<T>& from, const Vec3<T>& to) {
  const Vec3<T> f = from - glm::dot(from, unit_axis) * unit_axis;
  const Vec3<T> t = to - glm::dot(to, unit_axis) * unit_axis;
  const T x = glm::dot(f, t);                         // r cos(angle)
  const T y = glm::dot(glm::cross(f, t), unit_axis);  // r sin(angle)
  const T r2 = x * x + y * y;
  const T scale2 = glm::dot(from, from) * glm::dot(to, to);
  if (!(r2 > 0) || !(r2 > T(1e-12) * scale2) || !Finite(r2)) return Quat<T>(1, 0, 0, 0);
  const T r = std::sqrt(r2);
  T w, v;  // q = (w, v·axis), |q|² = 2r(r ± x)
  if (x >= 0) {
    w = r + x;
    v = y;
  } else {
    w = std::abs(y);
    v = y < 0 ? -(r - x) : (r - x);
  }
  const T s = 1 / std::sqrt(w * w + v * v);
  return Quat<T>(w * s, unit_axis.x * (v * s), unit_axis.y * (v * s), unit_axis.z * (v * s));
}

}  // namespace

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
  if (pp > 1e-30f && pp < 1e30f) return p / std::sqrt(pp);
  return glm::vec3(AnyPerpendicularImpl(glm::dvec3(v)));  // extreme magnitudes, zero, non-finite
}

glm::dvec3 AnyPerpendicular(const glm::dvec3& v) { return AnyPerpendicularImpl(v); }

glm::dquat RotationBetween(const glm::dvec3& from, const glm::dvec3& to, const glm::dvec3& hint,
                           RotationFallback* fallback) {
  if (fallback) *fallback = RotationFallback::kNone;
  if (ZeroOrNonFinite(from) || ZeroOrNonFinite(to)) {
    if (fallback) *fallback = RotationFallback::kZeroVector;
    return glm::dquat(1.0, 0.0, 0.0, 0.0);
  }
  // Only directions matter: bring both to unit size, where no product can leave double's range.
  const glm::dvec3 h = AllFinite(hint) ? Unitish(hint) : glm::dvec3(0.0);
  return RotationBetweenImpl(Unitish(from), Unitish(to), h, fallback);
}

glm::quat RotationBetween(const glm::vec3& from, const glm::vec3& to, const glm::vec3& hint,
                          RotationFallback* fallback) {
  if (fallback) *fallback = RotationFallback::kNone;
  if (ZeroOrNonFinite(from) || ZeroOrNonFinite(to)) {
    if (fallback) *fallback = RotationFallback::kZeroVector;
    return IdentityRotation();
  }
  const float ff = glm::dot(from, from), tt = glm::dot(to, to), fftt = ff * tt;
  const glm::vec3 h = AllFinite(hint) ? hint : glm::vec3(0.0f);
  // The formulas raise |f||t| to the fourth power: in float while that stays well inside its
  // range (the common case), else in double with both brought to unit size.
  if (fftt > 1e-16f && fftt < 1e16f && glm::dot(h, h) < 1e30f) {
    return RotationBetweenImpl(from, to, h, fallback);
  }
  const glm::dquat q = RotationBetweenImpl(Unitish(glm::dvec3(from)), Unitish(glm::dvec3(to)),
                                           Unitish(glm::dvec3(h)), fallback);
  return glm::quat(static_cast<float>(q.w), static_cast<float>(q.x), static_cast<float>(q.y),
                   static_cast<float>(q.z));
}

glm::dquat RotationAbout(const glm::dvec3& unit_axis, const glm::dvec3& from,
                         const glm::dvec3& to) {
  if (ZeroOrNonFinite(from) || ZeroOrNonFinite(to) || ZeroOrNonFinite(unit_axis)) {
    return glm::dquat(1.0, 0.0, 0.0, 0.0);
  }
  return RotationAboutImpl(unit_axis, Unitish(from), Unitish(to));
}

glm::quat RotationAbout(const glm::vec3& unit_axis, const glm::vec3& from, const glm::vec3& to) {
  if (ZeroOrNonFinite(from) || ZeroOrNonFinite(to) || ZeroOrNonFinite(unit_axis)) {
    return IdentityRotation();
  }
  const float fftt = glm::dot(from, from) * glm::dot(to, to);
  if (fftt > 1e-16f && fftt < 1e16f) return RotationAboutImpl(unit_axis, from, to);
  const glm::dquat q =
      RotationAboutImpl(glm::dvec3(unit_axis), Unitish(glm::dvec3(from)), Unitish(glm::dvec3(to)));
  return glm::quat(static_cast<float>(q.w), static_cast<float>(q.x), static_cast<float>(q.y),
                   static_cast<float>(q.z));
}

glm::quat NormalizeOrIdentityRare(const glm::quat& q) {
  // Extreme magnitudes: in double, where any float quaternion's square fits.
  const double w = double(q.w), x = double(q.x), y = double(q.y), z = double(q.z);
  const double len2 = w * w + x * x + y * y + z * z;
  if (!(len2 > 0.0) || !std::isfinite(len2)) return IdentityRotation();
  const double s = 1.0 / std::sqrt(len2);
  return glm::quat(static_cast<float>(w * s), static_cast<float>(x * s), static_cast<float>(y * s),
                   static_cast<float>(z * s));
}

glm::quat Nlerp(const glm::quat& a, const glm::quat& b, float t) {
  const float dot = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
  const float sb = dot < 0.0f ? -t : t;
  const float sa = 1.0f - t;
  return NormalizeOrIdentity(glm::quat(sa * a.w + sb * b.w, sa * a.x + sb * b.x,
                                       sa * a.y + sb * b.y, sa * a.z + sb * b.z));
}

glm::quat AxisAngle(const glm::vec3& unit_axis, float angle) {
  const float s = std::sin(0.5f * angle);
  return glm::quat(std::cos(0.5f * angle), unit_axis.x * s, unit_axis.y * s, unit_axis.z * s);
}

float RotationAngle(const glm::quat& q) {
  const float v = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  return 2.0f * std::atan2(v, std::abs(q.w));
}

float AngleBetweenRotations(const glm::quat& a, const glm::quat& b) {
  return RotationAngle(glm::conjugate(a) * b);
}

double AngleBetweenDirections(const glm::dvec3& a, const glm::dvec3& b) {
  if (ZeroOrNonFinite(a) || ZeroOrNonFinite(b)) return 0.0;
  const glm::dvec3 u = Unitish(a), v = Unitish(b);
  return std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v));
}

float AngleBetweenDirections(const glm::vec3& a, const glm::vec3& b) {
  return static_cast<float>(AngleBetweenDirections(glm::dvec3(a), glm::dvec3(b)));
}

glm::quat ScaleRotation(const glm::quat& q_in, float fraction) {
  const glm::quat q = q_in.w < 0.0f ? -q_in : q_in;
  const glm::vec3 v(q.x, q.y, q.z);
  const float len = glm::length(v);
  if (!(len > 1e-20f)) return IdentityRotation();
  const float angle = 2.0f * std::atan2(len, q.w);
  return AxisAngle(v / len, angle * fraction);
}

float WrapAngle(float a) {
  if (a >= -kPi && a <= kPi) return a;
  a = std::fmod(a + kPi, kTwoPi);
  if (a < 0.0f) a += kTwoPi;
  return a - kPi;
}

}  // namespace ik
