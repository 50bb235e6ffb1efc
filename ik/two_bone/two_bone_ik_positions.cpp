// Two-bone IK, step 1 of the general path: the positions of the knee and the end in model space,
// in double (the plane knee circle, or the hinge's bend, swing and twist); see the top of
// ik/two_bone/two_bone_ik.cpp.
#include <algorithm>
#include <cmath>

#include "ik/core/rotation.h"
#include "ik/two_bone/two_bone_ik_internal.h"

namespace ik {
namespace internal {

namespace {

using D3 = glm::dvec3;
using DQ = glm::dquat;
using DM3 = glm::dmat3;

inline D3 PerpendicularPart(const D3& v, const D3& unit_axis) {
  return v - glm::dot(v, unit_axis) * unit_axis;
}

// The unit direction of v's part perpendicular to unit_axis, when that part is longer than
// sqrt(min_len2). Projected twice: once is not enough when v is nearly along the axis, and a knee
// direction that leans along ŝ by ε changes |b′ - a| by 2·x·r·ε.
bool UnitPerpendicular(const D3& v, const D3& unit_axis, double min_len2, D3* out) {
  D3 perp = PerpendicularPart(v, unit_axis);
  const double len2 = glm::dot(perp, perp);
  if (!(len2 > min_len2) || !std::isfinite(len2)) return false;
  perp = PerpendicularPart(perp, unit_axis);
  *out = perp / std::sqrt(glm::dot(perp, perp));
  return true;
}

// The column of `frame` most perpendicular to `dir`: a rig-attached stand-in bend axis when
// neither the options nor the current bend give one.
D3 FrameAxisMostPerpendicular(const DM3& frame, const D3& dir) {
  double best = 2.0;
  D3 axis(0.0);
  for (int i = 0; i < 3; ++i) {
    const double len2 = glm::dot(frame[i], frame[i]);
    if (!(len2 > 0.0)) continue;
    const double cosine = std::abs(glm::dot(frame[i], dir)) / std::sqrt(len2 * glm::dot(dir, dir));
    if (cosine < best) {
      best = cosine;
      axis = frame[i];
    }
  }
  return axis;
}

// The chain's measures that the knee solves share.
struct LimbGeometry {
  D3 a{0.0}, p{0.0}, q{0.0};  // the start; p = b - a, q = c - b
  double l_ab = 0.0, l_bc = 0.0, sum = 0.0, diff = 0.0;
  double eps_len = 0.0;  // lengths below this count as zero
  D3 s_hat{0.0, 0.0, 1.0};
  D3 axis{0.0};  // the unit bend axis when axis_known
  bool axis_known = false;
  // Hinge: p = p∥ + p⊥, q = q∥ + q⊥ split along the axis; |p + q|² = K + 2 P Q cos ψ.
  double P = 0.0, Q = 0.0, K = 0.0, q_par = 0.0;
  D3 p_perp{0.0};
  double cos_at_hi = 1.0, cos_at_lo = -1.0;
};

// Direction toward the target. At the root it is undefined; take the one that keeps the knee
// where it is (the longer bone's current direction).
D3 TargetDirection(const LimbGeometry& g, const D3& v, double d, TwoBoneFallback* fallback) {
  if (d > g.eps_len) return v / d;
  SetFallback(fallback, TwoBoneFallback::kTargetAtRoot);
  if (g.l_ab > g.eps_len) return (g.l_ab >= g.l_bc ? g.p : -g.p) / g.l_ab;
  return g.q / g.l_bc;
}

// Hinge geometry (see LimbGeometry); false (with the fallback) when the axis is unknown or
// along a bone.
bool MeasureHinge(LimbGeometry* g, TwoBoneFallback* fallback) {
  D3 q_perp(0.0);
  if (g->axis_known) {
    const double p_par = glm::dot(g->p, g->axis);
    g->q_par = glm::dot(g->q, g->axis);
    g->p_perp = g->p - p_par * g->axis;
    q_perp = g->q - g->q_par * g->axis;
    g->P = std::sqrt(glm::dot(g->p_perp, g->p_perp));
    g->Q = std::sqrt(glm::dot(q_perp, q_perp));
    g->K = g->P * g->P + g->Q * g->Q + (p_par + g->q_par) * (p_par + g->q_par);
  }
  if (!g->axis_known || g->P <= g->eps_len || g->Q <= g->eps_len) {
    SetFallback(fallback, TwoBoneFallback::kHingeAxisUnusable);
    return false;
  }
  return true;
}

// Reach, case and soft IK: the distance the end is put at, from the start.
double EffectiveDistance(const TwoBoneIkOptions& options, double d, LimbGeometry* g,
                         PositionSolve* out) {
  double lo = g->diff, hi = g->sum;
  if (out->hinge) {
    g->cos_at_hi = std::cos(static_cast<double>(options.hinge_min_angle));
    g->cos_at_lo = std::cos(static_cast<double>(options.hinge_max_angle));
    hi = std::sqrt(std::max(0.0, g->K + 2.0 * g->P * g->Q * g->cos_at_hi));
    lo = std::sqrt(std::max(0.0, g->K + 2.0 * g->P * g->Q * g->cos_at_lo));
  }
  out->reach_min = lo;
  out->reach_max = hi;
  // Bone lengths measured on float positions are only known to a few float roundings of the
  // chain: a target that close to a reach limit is on it (and the clamp below moves it by no
  // more than that). The fast path and the batch kernel draw the same line.
  const double fuzz = static_cast<double>(internal::kReachLimitFuzz) * g->sum;
  out->solve_case = d > hi + fuzz   ? TwoBoneCase::kTooFar
                    : d < lo - fuzz ? TwoBoneCase::kTooClose
                                    : TwoBoneCase::kReachable;
  out->hinge_limited = out->hinge && out->solve_case != TwoBoneCase::kReachable &&
                       d <= g->sum + fuzz && d >= g->diff - fuzz;
  double d_eff = d;
  if (options.soft > 0.0f) {
    const double s = static_cast<double>(options.soft) * hi;
    const double start = hi - s;
    if (d > start && s > 0.0) {
      d_eff = start + s * (1.0 - std::exp(-(d - start) / s));
      out->softened = true;
    }
  }
  return std::min(std::max(d_eff, lo), hi);
}

// Without the hinge: the knee on its circle, facing the pole (else its current side).
void PlaneKnee(const LimbGeometry& g, double d_eff, const TwoBoneIkOptions& options,
               const DM3& mid_frame, PositionSolve* out) {
  TwoBoneFallback* fallback = &out->fallback;
  const D3& a = g.a;
  const D3& s_hat = g.s_hat;
  // Knee circle from the factored triangle formulas (see the top of ik/two_bone/two_bone_ik.cpp).
  double x, r;
  if (d_eff > g.eps_len) {
    const double half_inv = 0.5 / d_eff;
    x = (d_eff * d_eff + (g.l_ab - g.l_bc) * g.sum) * half_inv;
    const double r2 = (g.sum - d_eff) * (g.sum + d_eff) * (d_eff - g.diff) * (d_eff + g.diff);
    r = std::sqrt(std::max(0.0, r2)) * half_inv;
  } else {  // equal bones folded onto the root: keep the knee's direction
    x = g.l_ab >= g.l_bc ? g.l_ab : -g.l_ab;
    r = 0.0;
  }
  const D3 center = a + x * s_hat;
  D3 u_hat(0.0);
  if (r > 0.0) {
    const double min_len2 = g.eps_len * g.eps_len;
    bool have = false;
    if (options.pole_model) {
      have = UnitPerpendicular(D3(*options.pole_model) - a, s_hat, min_len2, &u_hat);
      if (!have) SetFallback(fallback, TwoBoneFallback::kPoleColinear);
    }
    if (!have) {
      have = UnitPerpendicular(g.p, s_hat, min_len2, &u_hat);
      if (!have) SetFallback(fallback, TwoBoneFallback::kColinearChain);
    }
    if (!have) {
      // Straight chain: bend so the bend axis stays positive (knee along ŝ × axis).
      const D3 fallback_axis = g.axis_known ? g.axis : FrameAxisMostPerpendicular(mid_frame, g.p);
      if (!UnitPerpendicular(glm::cross(s_hat, fallback_axis), s_hat,
                             1e-12 * glm::dot(fallback_axis, fallback_axis), &u_hat)) {
        u_hat = AnyPerpendicular(s_hat);
      }
    }
  }
  out->b_final = center + r * u_hat;
  out->c_final = a + d_eff * s_hat;
  out->center = center;
  out->radius = r;
}

// Hinge: bend the knee about the axis to the angle whose distance is d_eff (one way: ψ >= 0),
// then swing the limb onto the target direction and twist it toward the pole.
void HingeKnee(const LimbGeometry& g, double d_eff, const TwoBoneIkOptions& options,
               PositionSolve* out) {
  TwoBoneFallback* fallback = &out->fallback;
  const D3& a = g.a;
  const D3& p = g.p;
  const D3& s_hat = g.s_hat;
  const D3& axis = g.axis;
  const double cos_psi =
      std::min(std::max((d_eff * d_eff - g.K) / (2.0 * g.P * g.Q), g.cos_at_lo), g.cos_at_hi);
  const double sin_psi = std::sqrt(std::max(0.0, 1.0 - cos_psi * cos_psi));
  d_eff = std::sqrt(std::max(0.0, g.K + 2.0 * g.P * g.Q * cos_psi));
  const D3 p_hat = g.p_perp / g.P;
  const D3 q_new = g.q_par * axis + g.Q * (cos_psi * p_hat + sin_psi * glm::cross(axis, p_hat));
  const D3 end_bent = p + q_new;  // c_h - a
  // Swing the bent limb onto the target direction, about the bend axis if it must turn 180°.
  RotationFallback rf;
  DQ swing = RotationBetween(end_bent, s_hat, axis, &rf);
  if (rf == RotationFallback::kAntiparallel) SetFallback(fallback, TwoBoneFallback::kAntiparallel);
  if (options.pole_model) {
    // Twist about the start-target line so the knee faces the pole.
    const D3 pole_perp = PerpendicularPart(D3(*options.pole_model) - a, s_hat);
    D3 knee_perp = PerpendicularPart(Rotate(swing, p), s_hat);
    if (!(glm::dot(knee_perp, knee_perp) > g.eps_len * g.eps_len)) {
      knee_perp = glm::cross(s_hat, Rotate(swing, axis));  // straight limb: the knee's bend side
    }
    if (glm::dot(pole_perp, pole_perp) > g.eps_len * g.eps_len) {
      swing = RotationAbout(s_hat, knee_perp, pole_perp) * swing;
    } else {
      SetFallback(fallback, TwoBoneFallback::kPoleColinear);
    }
  }
  out->b_final = a + Rotate(swing, p);
  out->c_final = a + Rotate(swing, end_bent);
  out->bend_axis_after = Rotate(swing, axis);
  const double half_inv = d_eff > g.eps_len ? 0.5 / d_eff : 0.0;
  const double x =
      d_eff > g.eps_len ? (d_eff * d_eff + (g.l_ab - g.l_bc) * g.sum) * half_inv : g.l_ab;
  out->center = a + x * s_hat;
  out->radius = std::sqrt(std::max(
                    0.0, (g.sum - d_eff) * (g.sum + d_eff) * (d_eff - g.diff) * (d_eff + g.diff))) *
                half_inv;
}

}  // namespace

PositionSolve SolvePositions(const D3& a, const D3& b, const D3& c, const D3& t,
                             const TwoBoneIkOptions& options, const D3& bend_axis_model,
                             const DM3& mid_frame) {
  PositionSolve out;
  LimbGeometry g;
  g.a = a;
  g.p = b - a;
  g.q = c - b;
  const D3 v = t - a;
  g.l_ab = std::sqrt(glm::dot(g.p, g.p));
  g.l_bc = std::sqrt(glm::dot(g.q, g.q));
  const double d = std::sqrt(glm::dot(v, v));
  g.sum = g.l_ab + g.l_bc;
  g.diff = std::abs(g.l_ab - g.l_bc);
  g.eps_len = static_cast<double>(options.epsilon) * g.sum;

  out.b_final = b;
  out.c_final = c;
  out.center = b;
  if (!(g.sum > 0.0)) {  // both bones have no length: nothing can move
    SetFallback(&out.fallback, TwoBoneFallback::kZeroLengthBone);
    out.solve_case = d > 0.0 ? TwoBoneCase::kTooFar : TwoBoneCase::kReachable;
    return out;
  }
  if (g.l_ab <= g.eps_len || g.l_bc <= g.eps_len) {
    SetFallback(&out.fallback, TwoBoneFallback::kZeroLengthBone);
  }
  g.s_hat = TargetDirection(g, v, d, &out.fallback);
  out.s_hat = g.s_hat;

  // The bend axis, when known.
  g.axis = bend_axis_model;
  g.axis_known = glm::dot(g.axis, g.axis) > 0.0;
  if (!g.axis_known) {
    g.axis = glm::cross(g.p, g.q);
    g.axis_known = glm::dot(g.axis, g.axis) > g.eps_len * g.eps_len * g.l_ab * g.l_bc;
  }
  if (g.axis_known) g.axis = glm::normalize(g.axis);
  out.bend_axis = g.axis_known ? g.axis : D3(0.0);

  out.hinge = options.hinge && MeasureHinge(&g, &out.fallback);
  const double d_eff = EffectiveDistance(options, d, &g, &out);
  if (out.hinge) {
    HingeKnee(g, d_eff, options, &out);
  } else {
    PlaneKnee(g, d_eff, options, mid_frame, &out);
  }
  return out;
}

}  // namespace internal
}  // namespace ik
