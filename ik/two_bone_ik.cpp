// Two-bone IK. The solve follows seeds/two-bone-ik.txt in two steps:
//  1. Positions (model space). With a = start, b = knee, c = end, t = target, ℓ_ab = |b - a|,
//     ℓ_bc = |c - b| and d = |t - a|, the end can reach distances in [|ℓ_ab - ℓ_bc|, ℓ_ab + ℓ_bc].
//     d is clamped into that range (after soft IK, if on), which gives the seed's three cases in
//     one formula: on the line ŝ = (t - a)/d the knee circle has center a + x ŝ and radius r with
//       x = (d² + ℓ_ab² - ℓ_bc²) / 2d,   r = sqrt((L - d)(L + d)(d - D)(d + D)) / 2d,
//     L = ℓ_ab + ℓ_bc, D = |ℓ_ab - ℓ_bc|. At d = L (too far) x = ℓ_ab, r = 0: fully extended. At
//     d = D (too close) x = ±ℓ_ab, r = 0: the longer bone toward t, the other back. The factored
//     form of r² has no cancellation and is never negative on the clamped range, which is the
//     seed's sqrt(1 - cos²) without the clamp it needed. The knee goes to the circle point nearest
//     the current knee (or the pole): b′ = center + r û, û the unit part of (b - a) perpendicular
//     to ŝ.
//  2. Rotations. The start joint turns by the minimal rotation taking b - a to b′ - a, both
//     taken into its local frame with the inverse of its 3x3 part; then the mid joint turns the
//     lower bone onto c′ - b′ in its local frame after the start's turn. Minimal rotations come
//     from RotationBetween (no acos). Inverses are adjugates: directions need no division by the
//     determinant, and they stay exact for any invertible frame, scaled or mirrored.
// This file holds that general path (every option and fallback); common chains take the SIMD fast
// path in two_bone_ik_fast.inc, which computes the same thing.
// The hinge replaces step 1's knee choice: bend the knee about its axis to the distance needed,
// swing the limb onto the target, and twist it about the start-target line toward the pole.
#include "ik/two_bone_ik.h"

#include <algorithm>
#include <cmath>

#include "ik/kinematics.h"
#include "ik/rotation.h"
#include "ik/transform.h"
#include "ik/internal/two_bone_ik_internal.h"

namespace ik {

const char* CaseName(TwoBoneCase c) {
  switch (c) {
    case TwoBoneCase::kReachable:
      return "reachable";
    case TwoBoneCase::kTooFar:
      return "too_far";
    case TwoBoneCase::kTooClose:
      return "too_close";
    case TwoBoneCase::kDegenerate:
      return "degenerate";
  }
  return "degenerate";
}

const char* FallbackName(TwoBoneFallback f) {
  switch (f) {
    case TwoBoneFallback::kNone:
      return "none";
    case TwoBoneFallback::kNonFiniteInput:
      return "non_finite_input";
    case TwoBoneFallback::kSingularFrame:
      return "singular_frame";
    case TwoBoneFallback::kInvalidOptions:
      return "invalid_options";
    case TwoBoneFallback::kInvalidChain:
      return "invalid_chain";
    case TwoBoneFallback::kZeroLengthBone:
      return "zero_length_bone";
    case TwoBoneFallback::kTargetAtRoot:
      return "target_at_root";
    case TwoBoneFallback::kPoleColinear:
      return "pole_colinear";
    case TwoBoneFallback::kColinearChain:
      return "colinear_chain";
    case TwoBoneFallback::kAntiparallel:
      return "antiparallel";
    case TwoBoneFallback::kHingeAxisUnusable:
      return "hinge_axis_unusable";
    case TwoBoneFallback::kNoTargetRotation:
      return "no_target_rotation";
  }
  return "none";
}

const char* EndOrientationName(EndOrientation e) {
  switch (e) {
    case EndOrientation::kKeepLocal:
      return "keep_local";
    case EndOrientation::kKeepModel:
      return "keep_model";
    case EndOrientation::kTarget:
      return "target";
  }
  return "keep_local";
}

namespace {

const glm::quat kIdentity = IdentityRotation();
// Copied rather than default-constructed: GCC turns the many zero fields into a `rep stos`
// whose startup costs about 10 ns, more than a tenth of a solve.
const TwoBoneIkResult kEmptyResult{};

bool Finite(float x) { return std::isfinite(x); }

// Why the options are invalid, or nullptr.
const char* OptionsProblem(const TwoBoneIkOptions& o) {
  if (o.pole_model && !IsFinite(*o.pole_model)) return "pole_model is not finite";
  if (o.bend_axis_local) {
    if (!IsFinite(*o.bend_axis_local)) return "bend_axis_local is not finite";
    if (!(glm::dot(*o.bend_axis_local, *o.bend_axis_local) > 1e-20f)) {
      return "bend_axis_local is zero";
    }
  }
  if (!Finite(o.hinge_min_angle) || !Finite(o.hinge_max_angle) || !(o.hinge_min_angle >= 0.0f) ||
      !(o.hinge_min_angle <= o.hinge_max_angle) || !(o.hinge_max_angle <= kPi + 1e-5f)) {
    return "hinge angles must satisfy 0 <= hinge_min_angle <= hinge_max_angle <= pi";
  }
  if (!(o.soft >= 0.0f && o.soft <= 1.0f)) return "soft must be in [0, 1]";
  if (!(o.weight >= 0.0f && o.weight <= 1.0f)) return "weight must be in [0, 1]";
  if (!(o.epsilon > 0.0f && o.epsilon <= 0.1f)) return "epsilon must be in (0, 0.1]";
  switch (o.end_orientation) {
    case EndOrientation::kKeepLocal:
    case EndOrientation::kKeepModel:
    case EndOrientation::kTarget:
      break;
    default:
      return "end_orientation is not a known value";
  }
  return nullptr;
}

// Rows of the adjugate of the 3x3 matrix with columns c0, c1, c2 (its inverse times det), and det.
struct Adjugate3 {
  glm::vec3 r0, r1, r2;
  float det;
};

inline Adjugate3 MakeAdjugate(const glm::vec3& c0, const glm::vec3& c1, const glm::vec3& c2) {
  Adjugate3 m;
  m.r0 = glm::cross(c1, c2);
  m.r1 = glm::cross(c2, c0);
  m.r2 = glm::cross(c0, c1);
  m.det = glm::dot(c0, m.r0);
  return m;
}

inline glm::vec3 Apply(const Adjugate3& m, const glm::vec3& v) {
  return glm::vec3(glm::dot(m.r0, v), glm::dot(m.r1, v), glm::dot(m.r2, v));
}

// Invertible with room to spare: |det| is not tiny next to the product of the column lengths.
inline bool Invertible(const glm::vec3& c0, const glm::vec3& c1, const glm::vec3& c2, float det) {
  const float scale = glm::dot(c0, c0) * glm::dot(c1, c1) * glm::dot(c2, c2);
  return det * det > 1e-12f * scale && scale > 0.0f;
}

inline glm::vec3 Col(const glm::mat4& m, int i) { return glm::vec3(m[i]); }

inline glm::vec3 Times(const glm::mat4& m, const glm::vec3& v) {
  return glm::vec3(m[0]) * v.x + glm::vec3(m[1]) * v.y + glm::vec3(m[2]) * v.z;
}

inline glm::quat Conjugate(const glm::quat& q) { return glm::conjugate(q); }
inline glm::quat Mul(const glm::quat& a, const glm::quat& b) { return a * b; }

inline glm::vec3 PerpendicularPart(const glm::vec3& v, const glm::vec3& unit_axis) {
  return v - glm::dot(v, unit_axis) * unit_axis;
}

// The unit direction of v's part perpendicular to unit_axis, when that part is longer than
// sqrt(min_len2). Projected twice: once is not enough when v is nearly along the axis, and a knee
// direction that leans along ŝ by ε changes |b′ - a| by 2·x·r·ε.
inline bool UnitPerpendicular(const glm::vec3& v, const glm::vec3& unit_axis, float min_len2,
                              glm::vec3* out) {
  glm::vec3 perp = PerpendicularPart(v, unit_axis);
  const float len2 = glm::dot(perp, perp);
  if (!(len2 > min_len2)) return false;
  perp = PerpendicularPart(perp, unit_axis);
  *out = perp / std::sqrt(glm::dot(perp, perp));
  return true;
}

// The column of `frame` most perpendicular to `dir`: a rig-attached stand-in bend axis when
// neither the options nor the current bend give one.
glm::vec3 FrameAxisMostPerpendicular(const glm::mat3& frame, const glm::vec3& dir) {
  float best = 2.0f;
  glm::vec3 axis(0.0f);
  for (int i = 0; i < 3; ++i) {
    const float len2 = glm::dot(frame[i], frame[i]);
    if (!(len2 > 0.0f)) continue;
    const float cosine = std::abs(glm::dot(frame[i], dir)) / std::sqrt(len2 * glm::dot(dir, dir));
    if (cosine < best) {
      best = cosine;
      axis = frame[i];
    }
  }
  return axis;
}

// The position solve with what the rotation stage needs on top of the public result.
struct PositionSolve {
  TwoBonePositions out;
  glm::vec3 s_hat{0.0f};            // unit direction from a toward the (effective) target
  glm::vec3 bend_axis{0.0f};        // unit model-space bend axis used, or zero
  bool hinge = false;               // the hinge path ran
  glm::vec3 bend_axis_after{0.0f};  // hinge: the bend axis after the start joint's turn
};

inline void SetFallback(TwoBoneFallback* slot, TwoBoneFallback f) {
  if (*slot == TwoBoneFallback::kNone) *slot = f;
}

// `bend_axis_model`: the mid joint's bend axis in model space (zero = unknown: the current bend is
// used, then `mid_frame`'s most perpendicular column if given, then any perpendicular).
PositionSolve SolvePositionsImpl(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                 const glm::vec3& t, const TwoBoneIkOptions& options,
                                 const glm::vec3& bend_axis_model, const glm::mat3* mid_frame) {
  PositionSolve ps;
  TwoBonePositions& out = ps.out;
  TwoBoneFallback* fallback = &out.fallback;
  const glm::vec3 p = b - a;
  const glm::vec3 q = c - b;
  const glm::vec3 v = t - a;
  const float l_ab = std::sqrt(glm::dot(p, p));
  const float l_bc = std::sqrt(glm::dot(q, q));
  const float d = std::sqrt(glm::dot(v, v));
  const float sum = l_ab + l_bc;
  const float diff = std::abs(l_ab - l_bc);
  const float eps_len = options.epsilon * sum;

  out.b_final = b;
  out.c_final = c;
  out.circle.center = b;
  if (!(sum > 1e-30f)) {  // both bones have no length: nothing can move
    SetFallback(fallback, TwoBoneFallback::kZeroLengthBone);
    out.solve_case = d > 0.0f ? TwoBoneCase::kTooFar : TwoBoneCase::kReachable;
    return ps;
  }
  if (l_ab <= eps_len || l_bc <= eps_len) SetFallback(fallback, TwoBoneFallback::kZeroLengthBone);

  // Direction toward the target. At the root it is undefined; take the one that keeps the knee
  // where it is (the longer bone's current direction).
  glm::vec3 s_hat;
  if (d > eps_len) {
    s_hat = v / d;
  } else {
    SetFallback(fallback, TwoBoneFallback::kTargetAtRoot);
    if (l_ab > eps_len) {
      s_hat = (l_ab >= l_bc ? p : -p) / l_ab;
    } else {
      s_hat = q / l_bc;
    }
  }
  ps.s_hat = s_hat;

  // The bend axis, when known.
  glm::vec3 axis = bend_axis_model;
  bool axis_known = glm::dot(axis, axis) > 0.0f;
  if (!axis_known) {
    axis = glm::cross(p, q);
    axis_known = glm::dot(axis, axis) > eps_len * eps_len * l_ab * l_bc;
  }
  if (axis_known) axis = glm::normalize(axis);
  ps.bend_axis = axis_known ? axis : glm::vec3(0.0f);

  // Hinge geometry: with p = p∥ + p⊥, q = q∥ + q⊥ split along the axis h and ψ the bend between
  // p⊥ and q⊥, the start-end distance is |p + q|² = K + 2 P Q cos ψ.
  bool hinge = options.hinge;
  float P = 0.0f, Q = 0.0f, K = 0.0f, q_par = 0.0f;
  glm::vec3 p_perp(0.0f), q_perp(0.0f);
  if (hinge) {
    if (axis_known) {
      const float p_par = glm::dot(p, axis);
      q_par = glm::dot(q, axis);
      p_perp = p - p_par * axis;
      q_perp = q - q_par * axis;
      P = std::sqrt(glm::dot(p_perp, p_perp));
      Q = std::sqrt(glm::dot(q_perp, q_perp));
      K = P * P + Q * Q + (p_par + q_par) * (p_par + q_par);
    }
    if (!axis_known || P <= eps_len || Q <= eps_len) {
      SetFallback(fallback, TwoBoneFallback::kHingeAxisUnusable);
      hinge = false;
    }
  }
  ps.hinge = hinge;

  // Reach, case, soft IK and the effective distance.
  float lo = diff, hi = sum;
  float cos_at_hi = 1.0f, cos_at_lo = -1.0f;
  if (hinge) {
    cos_at_hi = std::cos(options.hinge_min_angle);
    cos_at_lo = std::cos(options.hinge_max_angle);
    hi = std::sqrt(std::max(0.0f, K + 2.0f * P * Q * cos_at_hi));
    lo = std::sqrt(std::max(0.0f, K + 2.0f * P * Q * cos_at_lo));
  }
  out.reach_min = lo;
  out.reach_max = hi;
  out.solve_case =
      d > hi ? TwoBoneCase::kTooFar : (d < lo ? TwoBoneCase::kTooClose : TwoBoneCase::kReachable);
  out.hinge_limited = hinge && (d > hi || d < lo) && d <= sum && d >= diff;
  float d_eff = d;
  if (options.soft > 0.0f) {
    const float s = options.soft * hi;
    const float start = hi - s;
    if (d > start && s > 0.0f) {
      d_eff = start + s * (1.0f - std::exp(-(d - start) / s));
      out.softened = true;
    }
  }
  d_eff = std::min(std::max(d_eff, lo), hi);

  if (!hinge) {
    // Knee circle from the factored triangle formulas (see the top of the file).
    float x, r;
    if (d_eff > eps_len) {
      const float half_inv = 0.5f / d_eff;
      x = (d_eff * d_eff + (l_ab - l_bc) * sum) * half_inv;
      const float r2 = (sum - d_eff) * (sum + d_eff) * (d_eff - diff) * (d_eff + diff);
      r = std::sqrt(std::max(0.0f, r2)) * half_inv;
    } else {  // equal bones folded onto the root: keep the knee's direction
      x = l_ab >= l_bc ? l_ab : -l_ab;
      r = 0.0f;
    }
    const glm::vec3 center = a + x * s_hat;
    glm::vec3 u_hat(0.0f);
    if (r > 0.0f) {
      const float min_len2 = eps_len * eps_len;
      bool have = false;
      if (options.pole_model) {
        have = UnitPerpendicular(*options.pole_model - a, s_hat, min_len2, &u_hat);
        if (!have) SetFallback(fallback, TwoBoneFallback::kPoleColinear);
      }
      if (!have) {
        have = UnitPerpendicular(p, s_hat, min_len2, &u_hat);
        if (!have) SetFallback(fallback, TwoBoneFallback::kColinearChain);
      }
      if (!have) {
        // Straight chain: bend so the bend axis stays positive (knee along ŝ × axis).
        glm::vec3 fallback_axis = axis;
        if (!axis_known && mid_frame) fallback_axis = FrameAxisMostPerpendicular(*mid_frame, p);
        if (!UnitPerpendicular(glm::cross(s_hat, fallback_axis), s_hat,
                               1e-12f * glm::dot(fallback_axis, fallback_axis), &u_hat)) {
          u_hat = AnyPerpendicular(s_hat);
        }
      }
    }
    out.b_final = center + r * u_hat;
    out.c_final = a + d_eff * s_hat;
    out.circle.center = center;
    out.circle.normal = s_hat;
    out.circle.radius = r;
    return ps;
  }

  // Hinge: bend the knee about the axis to the angle whose distance is d_eff (one way: ψ >= 0).
  const float cos_psi =
      std::min(std::max((d_eff * d_eff - K) / (2.0f * P * Q), cos_at_lo), cos_at_hi);
  const float sin_psi = std::sqrt(std::max(0.0f, 1.0f - cos_psi * cos_psi));
  d_eff = std::sqrt(std::max(0.0f, K + 2.0f * P * Q * cos_psi));
  const glm::vec3 p_hat = p_perp / P;
  const glm::vec3 q_new = q_par * axis + Q * (cos_psi * p_hat + sin_psi * glm::cross(axis, p_hat));
  const glm::vec3 end_bent = p + q_new;  // c_h - a
  // Swing the bent limb onto the target direction, about the bend axis if it must turn 180°.
  RotationFallback rf;
  glm::quat swing = RotationBetween(end_bent, s_hat, axis, &rf);
  if (rf == RotationFallback::kAntiparallel) SetFallback(fallback, TwoBoneFallback::kAntiparallel);
  if (options.pole_model) {
    // Twist about the start-target line so the knee faces the pole.
    const glm::vec3 pole_perp = PerpendicularPart(*options.pole_model - a, s_hat);
    glm::vec3 knee_perp = PerpendicularPart(Rotate(swing, p), s_hat);
    if (!(glm::dot(knee_perp, knee_perp) > eps_len * eps_len)) {
      knee_perp = glm::cross(s_hat, Rotate(swing, axis));  // straight limb: the knee's bend side
    }
    if (glm::dot(pole_perp, pole_perp) > eps_len * eps_len) {
      swing = Mul(RotationAbout(s_hat, knee_perp, pole_perp), swing);
    } else {
      SetFallback(fallback, TwoBoneFallback::kPoleColinear);
    }
  }
  out.b_final = a + Rotate(swing, p);
  out.c_final = a + Rotate(swing, end_bent);
  ps.bend_axis_after = Rotate(swing, axis);
  const float half_inv = d_eff > eps_len ? 0.5f / d_eff : 0.0f;
  const float x = d_eff > eps_len ? (d_eff * d_eff + (l_ab - l_bc) * sum) * half_inv : l_ab;
  out.circle.center = a + x * s_hat;
  out.circle.normal = s_hat;
  out.circle.radius =
      std::sqrt(std::max(0.0f, (sum - d_eff) * (sum + d_eff) * (d_eff - diff) * (d_eff + diff))) *
      half_inv;
  return ps;
}

bool AllFinite(const TwoBoneIkResult& r) {
  const float sum = r.start_correction.x + r.start_correction.y + r.start_correction.z +
                    r.start_correction.w + r.mid_correction.x + r.mid_correction.y +
                    r.mid_correction.z + r.mid_correction.w + r.b_final.x + r.b_final.y +
                    r.b_final.z + r.c_final.x + r.c_final.y + r.c_final.z + r.circle.center.x +
                    r.circle.center.y + r.circle.center.z + r.circle.normal.x + r.circle.normal.y +
                    r.circle.normal.z + r.circle.radius + r.error + r.reach_min + r.reach_max;
  return std::isfinite(sum);
}

bool InputsFinite(const glm::mat4& k, const glm::mat4& j, const glm::vec3& c, const glm::vec3& t) {
  // One sum: any NaN or infinity makes it non-finite (finite values that overflow are rejected
  // too).
  glm::vec4 s = k[0] + k[1] + k[2] + k[3] + j[0] + j[1] + j[2] + j[3];
  const float total = s.x + s.y + s.z + c.x + c.y + c.z + t.x + t.y + t.z;
  return std::isfinite(total);
}

// Turns *result into a degenerate report: identity corrections, joints where they were.
void MakeDegenerate(TwoBoneIkResult* result, TwoBoneFallback why) {
  TwoBoneIkResult& r = *result;
  r.solve_case = TwoBoneCase::kDegenerate;
  r.fallback = why;
  r.reached = r.softened = r.hinge_limited = false;
  r.start_correction = r.mid_correction = kIdentity;
  const bool inputs_ok = IsFinite(r.a) && IsFinite(r.b_before) && IsFinite(r.c_before);
  r.a = inputs_ok ? r.a : glm::vec3(0.0f);
  r.b_before = inputs_ok ? r.b_before : glm::vec3(0.0f);
  r.c_before = inputs_ok ? r.c_before : glm::vec3(0.0f);
  r.b_final = r.b_before;
  r.c_final = r.c_before;
  r.target = IsFinite(r.target) ? r.target : glm::vec3(0.0f);
  r.error = inputs_ok ? glm::length(r.c_final - r.target) : 0.0f;
  if (!std::isfinite(r.error)) r.error = 0.0f;
  r.circle = KneeCircle{};
  r.circle.center = r.b_final;
  r.reach_min = r.reach_max = 0.0f;
}

}  // namespace

bool TwoBoneIkOptions::Validate(std::string* why) const {
  const char* problem = OptionsProblem(*this);
  if (problem && why) *why = problem;
  return problem == nullptr;
}

TwoBonePositions SolveTwoBonePositions(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                       const glm::vec3& target, const TwoBoneIkOptions& options,
                                       const glm::vec3& bend_axis_model) {
  TwoBonePositions bad;
  bad.b_final = IsFinite(b) ? b : glm::vec3(0.0f);
  bad.c_final = IsFinite(c) ? c : glm::vec3(0.0f);
  bad.circle.center = bad.b_final;
  if (OptionsProblem(options)) {
    bad.fallback = TwoBoneFallback::kInvalidOptions;
    return bad;
  }
  if (!IsFinite(a) || !IsFinite(b) || !IsFinite(c) || !IsFinite(target) ||
      !IsFinite(bend_axis_model)) {
    bad.fallback = TwoBoneFallback::kNonFiniteInput;
    return bad;
  }
  const TwoBonePositions out =
      SolvePositionsImpl(a, b, c, target, options, bend_axis_model, nullptr).out;
  if (!IsFinite(out.b_final) || !IsFinite(out.c_final) || !IsFinite(out.circle.center) ||
      !std::isfinite(out.circle.radius) || !std::isfinite(out.reach_max)) {
    bad.fallback = TwoBoneFallback::kNonFiniteInput;
    return bad;
  }
  return out;
}

namespace {

// Everything the fast path does not take: fallbacks, hinge, soft IK, weight. Fills *out (whose
// a, b_before, c_before and target are already set).
void SolveGeneral(const glm::mat4& start_model, const glm::mat4& mid_model, const glm::vec3& c,
                  const glm::vec3& target_model, const TwoBoneIkOptions& options,
                  TwoBoneIkResult* out) {
  TwoBoneIkResult& result = *out;
  const glm::vec3 a(start_model[3]);
  const glm::vec3 b(mid_model[3]);
  if (!InputsFinite(start_model, mid_model, c, target_model)) {
    return MakeDegenerate(out, TwoBoneFallback::kNonFiniteInput);
  }

  // Frames: adjugates of the 3x3 parts take model-space directions into local directions.
  const glm::vec3 k0 = Col(start_model, 0), k1 = Col(start_model, 1), k2 = Col(start_model, 2);
  const glm::vec3 j0 = Col(mid_model, 0), j1 = Col(mid_model, 1), j2 = Col(mid_model, 2);
  const Adjugate3 adj_k = MakeAdjugate(k0, k1, k2);
  const Adjugate3 adj_j = MakeAdjugate(j0, j1, j2);
  if (!Invertible(k0, k1, k2, adj_k.det) || !Invertible(j0, j1, j2, adj_j.det)) {
    return MakeDegenerate(out, TwoBoneFallback::kSingularFrame);
  }

  glm::vec3 bend_axis_model(0.0f);
  if (options.bend_axis_local) bend_axis_model = Times(mid_model, *options.bend_axis_local);
  const glm::mat3 mid_frame(j0, j1, j2);
  const PositionSolve ps =
      SolvePositionsImpl(a, b, c, target_model, options, bend_axis_model, &mid_frame);
  const TwoBonePositions& pos = ps.out;
  result.solve_case = pos.solve_case;
  result.fallback = pos.fallback;
  result.softened = pos.softened;
  result.hinge_limited = pos.hinge_limited;
  result.circle = pos.circle;
  result.reach_min = pos.reach_min;
  result.reach_max = pos.reach_max;

  // Start joint: turn b - a onto b′ - a in its local frame.
  const glm::vec3 upper_local = Apply(adj_k, b - a);
  const glm::vec3 upper_final_local = Apply(adj_k, pos.b_final - a);
  RotationFallback rf;
  // 180° turns go about the bend axis, which keeps the limb in its plane.
  const glm::vec3 hint_k = Apply(adj_k, ps.bend_axis);
  glm::quat q_k = RotationBetween(upper_local, upper_final_local, hint_k, &rf);
  if (rf == RotationFallback::kAntiparallel) {
    SetFallback(&result.fallback, TwoBoneFallback::kAntiparallel);
  }
  if (ps.hinge) {
    // Twist about the new upper bone so the bend axis lands where the hinge solve put it.
    q_k = Mul(RotationAbout(glm::normalize(upper_final_local), Rotate(q_k, hint_k),
                            Apply(adj_k, ps.bend_axis_after)),
              q_k);
  }

  // Mid joint: its frame after the start's turn is D·A_j with D = A_k q_k A_k⁻¹, so the target
  // lower bone in its local frame is A_j⁻¹ A_k q_k⁻¹ A_k⁻¹ (c′ - b′); the current one A_j⁻¹ (c -
  // b).
  const float inv_det_k = 1.0f / adj_k.det;
  const glm::vec3 lower_local = Apply(adj_j, c - b);
  const glm::vec3 lower_final_start =
      Rotate(Conjugate(q_k), Apply(adj_k, pos.c_final - pos.b_final) * inv_det_k);
  const glm::vec3 lower_final_local = Apply(adj_j, Times(start_model, lower_final_start));
  const glm::vec3 hint_j = Apply(adj_j, ps.bend_axis);
  glm::quat q_j;
  if (ps.hinge) {
    // Only the bend about the axis, which stays exactly fixed.
    q_j = RotationAbout(glm::normalize(hint_j), lower_local, lower_final_local);
  } else {
    q_j = RotationBetween(lower_local, lower_final_local, hint_j, &rf);
    if (rf == RotationFallback::kAntiparallel) {
      SetFallback(&result.fallback, TwoBoneFallback::kAntiparallel);
    }
  }

  result.b_final = pos.b_final;
  result.c_final = pos.c_final;
  if (options.weight < 1.0f) {
    q_k = Nlerp(kIdentity, q_k, options.weight);
    q_j = Nlerp(kIdentity, q_j, options.weight);
    // Where the weighted turns put the joints: b = a + A_k q_k A_k⁻¹ (b - a), and the lower bone
    // turns by the start's D and the mid's A_j q_j A_j⁻¹.
    const float inv_det_j = 1.0f / adj_j.det;
    result.b_final = a + Times(start_model, Rotate(q_k, upper_local * inv_det_k));
    const glm::vec3 lower_mid = Times(mid_model, Rotate(q_j, lower_local * inv_det_j));
    result.c_final =
        result.b_final + Times(start_model, Rotate(q_k, Apply(adj_k, lower_mid) * inv_det_k));
  }
  result.start_correction = q_k;
  result.mid_correction = q_j;
  result.error = glm::length(result.c_final - target_model);
  result.reached = result.solve_case == TwoBoneCase::kReachable && !result.softened &&
                   !result.hinge_limited && options.weight >= 1.0f;
  if (!AllFinite(result)) MakeDegenerate(out, TwoBoneFallback::kNonFiniteInput);
}

}  // namespace

TwoBoneIkResult SolveTwoBoneIk(const glm::mat4& start_model, const glm::mat4& mid_model,
                               const glm::mat4& end_model, const glm::vec3& target_model,
                               const TwoBoneIkOptions& options) {
  TwoBoneIkResult result = kEmptyResult;  // the only return value: built in place
  result.a = glm::vec3(start_model[3]);
  result.b_before = glm::vec3(mid_model[3]);
  result.c_before = glm::vec3(end_model[3]);
  result.target = target_model;
  if (OptionsProblem(options)) {
    MakeDegenerate(&result, TwoBoneFallback::kInvalidOptions);
  } else if (options.hinge || options.soft != 0.0f || options.weight != 1.0f ||
             !internal::SolveTwoBoneIkFast(start_model, mid_model, end_model, target_model, options,
                                           &result)) {
    SolveGeneral(start_model, mid_model, result.c_before, target_model, options, &result);
  }
  return result;
}

std::string ValidateChain(const Skeleton& skeleton, const TwoBoneChain& chain) {
  const int n = skeleton.joint_count();
  auto name = [&](int joint) { return "'" + skeleton.name(joint) + "'"; };
  if (chain.start < 0 || chain.start >= n) return "start joint index out of range";
  if (chain.mid < 0 || chain.mid >= n) return "mid joint index out of range";
  if (chain.end < 0 || chain.end >= n) return "end joint index out of range";
  if (chain.mid == chain.start || !skeleton.IsAncestorOrSelf(chain.start, chain.mid)) {
    return "mid joint " + name(chain.mid) + " is not a descendant of start joint " +
           name(chain.start);
  }
  if (chain.end == chain.mid || !skeleton.IsAncestorOrSelf(chain.mid, chain.end)) {
    return "end joint " + name(chain.end) + " is not a descendant of mid joint " + name(chain.mid);
  }
  return "";
}

std::optional<TwoBoneChain> ChainFromEnd(const Skeleton& skeleton, int end, std::string* error) {
  if (end < 0 || end >= skeleton.joint_count()) {
    if (error) *error = "joint index out of range";
    return std::nullopt;
  }
  const int mid = skeleton.parent(end);
  const int start = mid >= 0 ? skeleton.parent(mid) : -1;
  if (start < 0) {
    if (error) {
      *error =
          "joint '" + skeleton.name(end) + "' needs a parent and a grandparent for two-bone IK";
    }
    return std::nullopt;
  }
  return TwoBoneChain{start, mid, end};
}

namespace {

// The joint's model matrix with its own local scale divided out of the 3x3 part: the frame in which
// a local rotation correction acts (local = T·R·S, so the correction sits between R and S).
bool FrameWithoutLocalScale(const glm::mat4& model, const glm::vec3& scale, glm::mat4* frame) {
  if (!(std::abs(scale.x) > 1e-20f && std::abs(scale.y) > 1e-20f && std::abs(scale.z) > 1e-20f)) {
    return false;
  }
  *frame = model;
  (*frame)[0] /= scale.x;
  (*frame)[1] /= scale.y;
  (*frame)[2] /= scale.z;
  return true;
}

// Rotation part of a model matrix (scale removed), or nullopt when singular.
std::optional<glm::quat> ModelRotation(const glm::mat4& m) {
  Transform t;
  if (!Transform::FromMatrix(m, &t)) return std::nullopt;
  return t.rotation;
}

}  // namespace

std::optional<glm::vec3> DetectBendAxis(const Skeleton& skeleton, const TwoBoneChain& chain,
                                        float epsilon) {
  if (!ValidateChain(skeleton, chain).empty()) return std::nullopt;
  const auto& rest = skeleton.rest_models();
  const glm::vec3 a(rest[chain.start][3]), b(rest[chain.mid][3]), c(rest[chain.end][3]);
  const glm::vec3 bend = glm::cross(b - a, c - b);
  const float l_ab = glm::length(b - a), l_bc = glm::length(c - b);
  if (!(glm::length(bend) > epsilon * l_ab * l_bc)) return std::nullopt;
  glm::mat4 frame;
  if (!FrameWithoutLocalScale(rest[chain.mid], skeleton.rest_locals()[chain.mid].scale, &frame)) {
    return std::nullopt;
  }
  const Adjugate3 adj = MakeAdjugate(Col(frame, 0), Col(frame, 1), Col(frame, 2));
  if (!Invertible(Col(frame, 0), Col(frame, 1), Col(frame, 2), adj.det)) return std::nullopt;
  glm::vec3 axis = Apply(adj, bend) * (adj.det < 0.0f ? -1.0f : 1.0f);
  axis = glm::normalize(axis);
  if (!IsFinite(axis)) return std::nullopt;
  return axis;
}

TwoBoneIkResult SolveTwoBoneIkPose(const Skeleton& skeleton, const TwoBoneChain& chain,
                                   const TwoBoneTarget& target, const TwoBoneIkOptions& options,
                                   Pose* pose, std::vector<glm::mat4>* models) {
  TwoBoneIkResult result;
  result.target = target.position;
  const int n = skeleton.joint_count();
  if (!pose || !models || static_cast<int>(pose->locals.size()) != n ||
      static_cast<int>(models->size()) != n || !ValidateChain(skeleton, chain).empty()) {
    MakeDegenerate(&result, TwoBoneFallback::kInvalidChain);
    return result;
  }
  auto& locals = pose->locals;
  const auto& m = *models;
  result.a = glm::vec3(m[chain.start][3]);
  result.b_before = glm::vec3(m[chain.mid][3]);
  result.c_before = glm::vec3(m[chain.end][3]);
  if (OptionsProblem(options)) {
    MakeDegenerate(&result, TwoBoneFallback::kInvalidOptions);
    return result;
  }
  if (!IsFinite(target.position) || (target.rotation && !IsFinite(*target.rotation)) ||
      !locals[chain.start].IsFinite() || !locals[chain.mid].IsFinite() ||
      !locals[chain.end].IsFinite() || !IsFinite(m[chain.end])) {
    MakeDegenerate(&result, TwoBoneFallback::kNonFiniteInput);
    return result;
  }
  glm::mat4 start_frame, mid_frame;
  if (!FrameWithoutLocalScale(m[chain.start], locals[chain.start].scale, &start_frame) ||
      !FrameWithoutLocalScale(m[chain.mid], locals[chain.mid].scale, &mid_frame)) {
    MakeDegenerate(&result, TwoBoneFallback::kSingularFrame);
    return result;
  }
  TwoBoneIkOptions solve_options = options;
  if (!solve_options.bend_axis_local) {
    solve_options.bend_axis_local = DetectBendAxis(skeleton, chain, 1e-3f);
  }
  result = SolveTwoBoneIk(start_frame, mid_frame, m[chain.end], target.position, solve_options);
  if (result.solve_case == TwoBoneCase::kDegenerate) return result;

  const int end_parent = skeleton.parent(chain.end);
  const glm::mat4 end_parent_before = m[end_parent];
  Transform& start_local = locals[chain.start];
  Transform& mid_local = locals[chain.mid];
  start_local.rotation = NormalizeOrIdentity(Mul(start_local.rotation, result.start_correction));
  mid_local.rotation = NormalizeOrIdentity(Mul(mid_local.rotation, result.mid_correction));
  LocalToModelFrom(skeleton, *pose, chain.start, models);

  // End orientation: undo (or replace) the turn its parent frame took, in the end's local frame.
  const bool want_target = options.end_orientation == EndOrientation::kTarget;
  if (want_target && !target.rotation) {
    SetFallback(&result.fallback, TwoBoneFallback::kNoTargetRotation);
  } else if (options.end_orientation != EndOrientation::kKeepLocal) {
    const auto parent_now = ModelRotation((*models)[end_parent]);
    const auto parent_before = ModelRotation(end_parent_before);
    if (parent_now && parent_before) {
      Transform& end_local = locals[chain.end];
      const glm::quat wanted =
          want_target ? Mul(Conjugate(*parent_now), NormalizeOrIdentity(*target.rotation))
                      : Mul(Mul(Conjugate(*parent_now), *parent_before), end_local.rotation);
      end_local.rotation = Nlerp(end_local.rotation, wanted, options.weight);
      LocalToModelFrom(skeleton, *pose, chain.end, models);
    }
  }
  result.b_final = glm::vec3((*models)[chain.mid][3]);
  result.c_final = glm::vec3((*models)[chain.end][3]);
  result.error = glm::length(result.c_final - result.target);
  return result;
}

}  // namespace ik
