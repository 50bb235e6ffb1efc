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
// This file holds that general path (every option and fallback), in double: the squares and
// products of any finite float fit there, so a target at 1e30 or a rig of denormal size needs no
// special case, and every threshold is relative to the chain. Common chains take the SIMD fast
// path in two_bone_ik_fast.inc, which computes the same thing in float.
// The hinge replaces step 1's knee choice: bend the knee about its axis to the distance needed,
// swing the limb onto the target, and twist it about the start-target line toward the pole.
// `reached` is measured: the end is put where the corrections really take it (the start's and
// the mid's turns applied to the bones in their frames) and compared with the target.
#include "ik/two_bone/two_bone_ik.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"
#include "ik/core/transform.h"
#include "ik/two_bone/two_bone_ik_internal.h"

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
    case TwoBoneFallback::kOutOfRange:
      return "out_of_range";
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

float ReachTolerance(float chain_length, const glm::vec3& start_model,
                     const glm::vec3& target_model) {
  const glm::vec3 s = glm::abs(start_model), t = glm::abs(target_model);
  const float largest =
      std::max(std::max(std::max(s.x, s.y), std::max(s.z, t.x)), std::max(t.y, t.z));
  return kReachTolerance * chain_length + 4.0f * std::numeric_limits<float>::epsilon() * largest +
         8.0f * std::numeric_limits<float>::denorm_min();
}

namespace {

using D3 = glm::dvec3;
using DQ = glm::dquat;
using DM3 = glm::dmat3;

// Copied rather than default-constructed: GCC turns the many zero fields into a `rep stos`
// whose start-up is noticeable next to a solve.
const TwoBoneIkResult kEmptyResult{};

using internal::PositionSolve;
using internal::SetFallback;
using internal::SolvePositions;

// Why the options are invalid, or nullptr.
const char* OptionsProblem(const TwoBoneIkOptions& o) {
  if (o.pole_model && !IsFinite(*o.pole_model)) return "pole_model is not finite";
  if (o.bend_axis_local) {
    if (!IsFinite(*o.bend_axis_local)) return "bend_axis_local is not finite";
    const glm::vec3& v = *o.bend_axis_local;
    if (v.x == 0.0f && v.y == 0.0f && v.z == 0.0f) return "bend_axis_local is zero";
  }
  if (!std::isfinite(o.hinge_min_angle) || !std::isfinite(o.hinge_max_angle) ||
      !(o.hinge_min_angle >= 0.0f) || !(o.hinge_min_angle <= o.hinge_max_angle) ||
      !(o.hinge_max_angle <= kPi + 1e-5f)) {
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

// The options SolveTwoBoneIk's fast path takes, valid (OptionsProblem would find nothing): no
// hinge, soft IK or weight, every other option in range. Inline and without calls, for the common
// case; other options go through OptionsProblem. (The hinge angles' comparisons fail for NaN and
// infinities, as std::isfinite would.)
inline bool FastPathOptions(const TwoBoneIkOptions& o) {
  auto finite = [](const glm::vec3& v) {
    const float big = std::numeric_limits<float>::max();
    return std::fabs(v.x) <= big && std::fabs(v.y) <= big && std::fabs(v.z) <= big;
  };
  return !o.hinge && o.soft == 0.0f && o.weight == 1.0f && o.epsilon > 0.0f && o.epsilon <= 0.1f &&
         o.hinge_min_angle >= 0.0f && o.hinge_min_angle <= o.hinge_max_angle &&
         o.hinge_max_angle <= kPi + 1e-5f &&
         static_cast<unsigned>(o.end_orientation) <=
             static_cast<unsigned>(EndOrientation::kTarget) &&
         (!o.pole_model || finite(*o.pole_model)) &&
         (!o.bend_axis_local || (finite(*o.bend_axis_local) &&
                                 (o.bend_axis_local->x != 0.0f || o.bend_axis_local->y != 0.0f ||
                                  o.bend_axis_local->z != 0.0f)));
}

// Rows of the adjugate of the 3x3 matrix with columns c0, c1, c2 (its inverse times det), and det.
struct Adjugate3 {
  D3 r0, r1, r2;
  double det;
};

Adjugate3 MakeAdjugate(const DM3& m) {
  Adjugate3 a;
  a.r0 = glm::cross(m[1], m[2]);
  a.r1 = glm::cross(m[2], m[0]);
  a.r2 = glm::cross(m[0], m[1]);
  a.det = glm::dot(m[0], a.r0);
  return a;
}

inline D3 Apply(const Adjugate3& a, const D3& v) {
  return D3(glm::dot(a.r0, v), glm::dot(a.r1, v), glm::dot(a.r2, v));
}

// Invertible with room to spare: |det| is not tiny next to the product of the column lengths.
bool Invertible(const DM3& m, double det) {
  const double scale = glm::dot(m[0], m[0]) * glm::dot(m[1], m[1]) * glm::dot(m[2], m[2]);
  return det * det > 1e-12 * scale && scale > 0.0 && std::isfinite(det * det);
}

DM3 Frame3(const glm::mat4& m) {
  return DM3(D3(glm::vec3(m[0])), D3(glm::vec3(m[1])), D3(glm::vec3(m[2])));
}

// Normalized lerp from the identity to q, in double.
DQ WeightFromIdentity(DQ q, double weight) {
  if (q.w < 0.0) q = -q;
  const DQ l((1.0 - weight) + weight * q.w, weight * q.x, weight * q.y, weight * q.z);
  return l * (1.0 / std::sqrt(l.w * l.w + l.x * l.x + l.y * l.y + l.z * l.z));
}

bool FitsFloat(double x) {
  return std::abs(x) <= static_cast<double>(std::numeric_limits<float>::max());
}
bool FitsFloat(const D3& v) { return FitsFloat(v.x) && FitsFloat(v.y) && FitsFloat(v.z); }

glm::quat ToFloat(const DQ& q) {
  return NormalizeOrIdentity(glm::quat(static_cast<float>(q.w), static_cast<float>(q.x),
                                       static_cast<float>(q.y), static_cast<float>(q.z)));
}

bool InputsFinite(const glm::mat4& k, const glm::mat4& j, const glm::vec3& c, const glm::vec3& t) {
  return IsFinite(k) && IsFinite(j) && IsFinite(c) && IsFinite(t);
}

// Turns *result into a degenerate report: identity corrections, joints where they were.
void MakeDegenerate(TwoBoneIkResult* result, TwoBoneFallback why) {
  TwoBoneIkResult& r = *result;
  r.solve_case = TwoBoneCase::kDegenerate;
  r.fallback = why;
  r.reached = r.softened = r.hinge_limited = false;
  r.start_correction = r.mid_correction = IdentityRotation();
  const bool inputs_ok = IsFinite(r.a) && IsFinite(r.b_before) && IsFinite(r.c_before);
  r.a = inputs_ok ? r.a : glm::vec3(0.0f);
  r.b_before = inputs_ok ? r.b_before : glm::vec3(0.0f);
  r.c_before = inputs_ok ? r.c_before : glm::vec3(0.0f);
  r.b_final = r.b_before;
  r.c_final = r.c_before;
  r.target = IsFinite(r.target) ? r.target : glm::vec3(0.0f);
  const double error = glm::length(D3(r.c_final) - D3(r.target));
  r.error = inputs_ok && FitsFloat(error) ? static_cast<float>(error) : 0.0f;
  r.circle = KneeCircle{};
  r.circle.center = r.b_final;
  r.reach_min = r.reach_max = 0.0f;
}

// Everything the fast path does not take: fallbacks, hinge, soft IK, weight, extreme magnitudes.
// Fills *out (whose a, b_before, c_before and target are already set).
void SolveGeneral(const glm::mat4& start_model, const glm::mat4& mid_model, const glm::vec3& c_in,
                  const glm::vec3& target_in, const TwoBoneIkOptions& options,
                  TwoBoneIkResult* out) {
  TwoBoneIkResult& result = *out;
  if (!InputsFinite(start_model, mid_model, c_in, target_in)) {
    return MakeDegenerate(out, TwoBoneFallback::kNonFiniteInput);
  }
  const D3 a = D3(glm::vec3(start_model[3])), b = D3(glm::vec3(mid_model[3])), c = D3(c_in),
           t = D3(target_in);

  // Frames: adjugates of the 3x3 parts take model-space directions into local directions.
  const DM3 frame_k = Frame3(start_model), frame_j = Frame3(mid_model);
  const Adjugate3 adj_k = MakeAdjugate(frame_k), adj_j = MakeAdjugate(frame_j);
  if (!Invertible(frame_k, adj_k.det) || !Invertible(frame_j, adj_j.det)) {
    return MakeDegenerate(out, TwoBoneFallback::kSingularFrame);
  }

  D3 bend_axis_model(0.0);
  if (options.bend_axis_local) bend_axis_model = frame_j * D3(*options.bend_axis_local);
  const PositionSolve pos = SolvePositions(a, b, c, t, options, bend_axis_model, frame_j);
  result.solve_case = pos.solve_case;
  result.fallback = pos.fallback;
  result.softened = pos.softened;
  result.hinge_limited = pos.hinge_limited;

  // Start joint: turn b - a onto b′ - a in its local frame.
  const D3 upper_local = Apply(adj_k, b - a);
  const D3 upper_final_local = Apply(adj_k, pos.b_final - a);
  RotationFallback rf;
  // 180° turns go about the bend axis, which keeps the limb in its plane.
  const D3 hint_k = Apply(adj_k, pos.bend_axis);
  DQ q_k = RotationBetween(upper_local, upper_final_local, hint_k, &rf);
  if (rf == RotationFallback::kAntiparallel) {
    SetFallback(&result.fallback, TwoBoneFallback::kAntiparallel);
  }
  if (pos.hinge) {
    // Twist about the new upper bone so the bend axis lands where the hinge solve put it.
    q_k = RotationAbout(glm::normalize(upper_final_local), Rotate(q_k, hint_k),
                        Apply(adj_k, pos.bend_axis_after)) *
          q_k;
  }

  // Mid joint: its frame after the start's turn is D·A_j with D = A_k q_k A_k⁻¹, so the target
  // lower bone in its local frame is A_j⁻¹ A_k q_k⁻¹ A_k⁻¹ (c′ - b′); the current one
  // A_j⁻¹ (c - b).
  const double inv_det_k = 1.0 / adj_k.det, inv_det_j = 1.0 / adj_j.det;
  const D3 lower_local = Apply(adj_j, c - b);
  const D3 lower_final_start =
      Rotate(glm::conjugate(q_k), Apply(adj_k, pos.c_final - pos.b_final) * inv_det_k);
  const D3 lower_final_local = Apply(adj_j, frame_k * lower_final_start);
  const D3 hint_j = Apply(adj_j, pos.bend_axis);
  DQ q_j;
  if (pos.hinge) {
    // Only the bend about the axis, which stays exactly fixed.
    q_j = RotationAbout(glm::normalize(hint_j), lower_local, lower_final_local);
  } else {
    q_j = RotationBetween(lower_local, lower_final_local, hint_j, &rf);
    if (rf == RotationFallback::kAntiparallel) {
      SetFallback(&result.fallback, TwoBoneFallback::kAntiparallel);
    }
  }
  if (options.weight < 1.0f) {
    q_k = WeightFromIdentity(q_k, static_cast<double>(options.weight));
    q_j = WeightFromIdentity(q_j, static_cast<double>(options.weight));
  }

  // Where the turns put the joints: b = a + A_k q_k A_k⁻¹ (b - a), and the lower bone turns by
  // the start's D and the mid's A_j q_j A_j⁻¹.
  const D3 b_after = a + frame_k * (Rotate(q_k, upper_local) * inv_det_k);
  const D3 lower_mid = frame_j * (Rotate(q_j, lower_local) * inv_det_j);
  const D3 c_after = b_after + frame_k * (Rotate(q_k, Apply(adj_k, lower_mid)) * inv_det_k);
  const double error = glm::length(c_after - t);
  const bool fits =
      FitsFloat(b_after) && FitsFloat(c_after) && FitsFloat(pos.center) &&
      FitsFloat(pos.reach_max) && FitsFloat(error) &&
      std::isfinite(error + q_k.w + q_k.x + q_k.y + q_k.z + q_j.w + q_j.x + q_j.y + q_j.z);
  if (!fits) return MakeDegenerate(out, TwoBoneFallback::kOutOfRange);

  result.start_correction = ToFloat(q_k);
  result.mid_correction = ToFloat(q_j);
  result.b_final = glm::vec3(b_after);
  result.c_final = glm::vec3(c_after);
  result.error = static_cast<float>(error);
  result.circle.center = glm::vec3(pos.center);
  result.circle.normal = glm::vec3(pos.s_hat);
  result.circle.radius = static_cast<float>(pos.radius);
  result.reach_min = static_cast<float>(pos.reach_min);
  result.reach_max = static_cast<float>(pos.reach_max);
  const float chain_length = static_cast<float>(glm::length(b - a) + glm::length(c - b));
  result.reached = result.solve_case == TwoBoneCase::kReachable && !result.softened &&
                   !result.hinge_limited && options.weight >= 1.0f &&
                   result.error <= ReachTolerance(chain_length, result.a, result.target);
}

// The fast path's output has TwoBoneIkResult's layout, so that the field-by-field copy below is a
// handful of wide moves. (glm's vectors are not trivially copyable with GLM_FORCE_CTOR_INIT, so
// the copy is spelled out rather than a memcpy.)
static_assert(sizeof(internal::FastOutput) == sizeof(TwoBoneIkResult) &&
                  std::is_standard_layout<TwoBoneIkResult>::value,
              "FastOutput mirrors TwoBoneIkResult");
#define SKELVIEW_SAME_OFFSET(fast, field)                                                 \
  static_assert(offsetof(internal::FastOutput, fast) == offsetof(TwoBoneIkResult, field), \
                "FastOutput::" #fast " sits where TwoBoneIkResult::" #field " does")
SKELVIEW_SAME_OFFSET(solve_case, solve_case);
SKELVIEW_SAME_OFFSET(error, error);
SKELVIEW_SAME_OFFSET(a, a);
SKELVIEW_SAME_OFFSET(b_before, b_before);
SKELVIEW_SAME_OFFSET(c_before, c_before);
SKELVIEW_SAME_OFFSET(b_final, b_final);
SKELVIEW_SAME_OFFSET(c_final, c_final);
SKELVIEW_SAME_OFFSET(target, target);
SKELVIEW_SAME_OFFSET(center, circle.center);
SKELVIEW_SAME_OFFSET(normal, circle.normal);
SKELVIEW_SAME_OFFSET(radius, circle.radius);
SKELVIEW_SAME_OFFSET(reach_min, reach_min);
SKELVIEW_SAME_OFFSET(reach_max, reach_max);
SKELVIEW_SAME_OFFSET(start_correction, start_correction);
SKELVIEW_SAME_OFFSET(mid_correction, mid_correction);
#undef SKELVIEW_SAME_OFFSET

// The fast path reads matrices and vectors through float pointers.
static_assert(sizeof(glm::mat4) == 16 * sizeof(float) && sizeof(glm::vec3) == 3 * sizeof(float),
              "glm stores matrices and vectors as packed floats");

inline glm::vec3 Vec3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }

TwoBoneIkResult FromFastOutput(const internal::FastOutput& out) {
  const float* qk = out.start_correction;
  const float* qj = out.mid_correction;
  // Every field given, so nothing is zeroed first.
  return TwoBoneIkResult{static_cast<TwoBoneCase>(out.solve_case),
                         TwoBoneFallback::kNone,
                         out.reached,
                         false,
                         false,
                         out.error,
                         Vec3(out.a),
                         Vec3(out.b_before),
                         Vec3(out.c_before),
                         Vec3(out.b_final),
                         Vec3(out.c_final),
                         Vec3(out.target),
                         KneeCircle{Vec3(out.center), Vec3(out.normal), out.radius},
                         out.reach_min,
                         out.reach_max,
                         glm::quat(qk[3], qk[0], qk[1], qk[2]),
                         glm::quat(qj[3], qj[0], qj[1], qj[2])};
}

// Everything SolveTwoBoneIk's fast path did not take (kept out of it, so that the fast path saves
// and restores no registers for it).
[[gnu::noinline]] TwoBoneIkResult SolveOtherwise(const glm::mat4& start_model,
                                                 const glm::mat4& mid_model,
                                                 const glm::mat4& end_model,
                                                 const glm::vec3& target_model,
                                                 const TwoBoneIkOptions& options) {
  TwoBoneIkResult result = kEmptyResult;  // the only return value: built in place
  result.a = glm::vec3(start_model[3]);
  result.b_before = glm::vec3(mid_model[3]);
  result.c_before = glm::vec3(end_model[3]);
  result.target = target_model;
  if (OptionsProblem(options)) {
    MakeDegenerate(&result, TwoBoneFallback::kInvalidOptions);
  } else {
    SolveGeneral(start_model, mid_model, result.c_before, target_model, options, &result);
  }
  return result;
}

}  // namespace

bool TwoBoneIkOptions::Validate(std::string* why) const {
  const char* problem = OptionsProblem(*this);
  if (problem && why) *why = problem;
  return problem == nullptr;
}

TwoBoneIkResult SolveTwoBoneIk(const glm::mat4& start_model, const glm::mat4& mid_model,
                               const glm::mat4& end_model, const glm::vec3& target_model,
                               const TwoBoneIkOptions& options) {
  if (FastPathOptions(options)) {
    const internal::FastInput in{&start_model[0][0],
                                 &mid_model[0][0],
                                 &end_model[0][0],
                                 &target_model.x,
                                 options.pole_model ? &options.pole_model->x : nullptr,
                                 options.epsilon,
                                 internal::kReachLimitFuzz};
    internal::FastOutput out;
    if (internal::SolveTwoBoneIkFast(in, &out)) return FromFastOutput(out);
  }
  return SolveOtherwise(start_model, mid_model, end_model, target_model, options);
}

bool TwoBoneChain::Validate(const Skeleton& skeleton, std::string* why) const {
  const int n = skeleton.joint_count();
  auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  auto name = [&](int joint) { return "'" + skeleton.name(joint) + "'"; };
  if (start < 0 || start >= n) return fail("start joint index out of range");
  if (mid < 0 || mid >= n) return fail("mid joint index out of range");
  if (end < 0 || end >= n) return fail("end joint index out of range");
  if (mid == start || !skeleton.IsAncestorOrSelf(start, mid)) {
    return fail("mid joint " + name(mid) + " is not a descendant of start joint " + name(start));
  }
  if (end == mid || !skeleton.IsAncestorOrSelf(mid, end)) {
    return fail("end joint " + name(end) + " is not a descendant of mid joint " + name(mid));
  }
  return true;
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
  if (!(scale.x != 0.0f && scale.y != 0.0f && scale.z != 0.0f)) return false;
  *frame = model;
  (*frame)[0] /= scale.x;
  (*frame)[1] /= scale.y;
  (*frame)[2] /= scale.z;
  return IsFinite(*frame);
}

// Rotation part of a model matrix (scale removed), or nullopt when singular.
std::optional<glm::quat> ModelRotation(const glm::mat4& m) {
  Transform t;
  if (!Transform::FromMatrix(m, &t)) return std::nullopt;
  return t.rotation;
}

// The model matrix of `joint`, a descendant of `ancestor`, relative to `ancestor_model`: the local
// transforms along the path multiplied onto it, child end first so nothing is allocated. With
// `ancestor_model` holding no translation, the result's translation is the joint's offset from
// the ancestor, exact to float precision of the bones however far from the origin they are.
glm::mat4 DescendantModel(const Skeleton& skeleton, const Pose& pose, int ancestor,
                          const glm::mat4& ancestor_model, int joint) {
  glm::mat4 below = pose.locals[joint].ToMatrix();
  for (int j = skeleton.parent(joint); j != ancestor; j = skeleton.parent(j)) {
    MultiplyInto(pose.locals[j].ToMatrix(), below, &below);
  }
  glm::mat4 out;
  MultiplyInto(ancestor_model, below, &out);
  return out;
}

}  // namespace

std::optional<glm::vec3> DetectBendAxis(const Skeleton& skeleton, const TwoBoneChain& chain,
                                        float epsilon) {
  if (!chain.Validate(skeleton)) return std::nullopt;
  const auto& rest = skeleton.rest_models();
  const D3 a = D3(glm::vec3(rest[chain.start][3])), b = D3(glm::vec3(rest[chain.mid][3])),
           c = D3(glm::vec3(rest[chain.end][3]));
  const D3 bend = glm::cross(b - a, c - b);
  const double l_ab = glm::length(b - a), l_bc = glm::length(c - b);
  if (!(glm::length(bend) > static_cast<double>(epsilon) * l_ab * l_bc)) return std::nullopt;
  glm::mat4 frame;
  if (!FrameWithoutLocalScale(rest[chain.mid], skeleton.rest_locals()[chain.mid].scale, &frame)) {
    return std::nullopt;
  }
  const DM3 frame3 = Frame3(frame);
  const Adjugate3 adj = MakeAdjugate(frame3);
  if (!Invertible(frame3, adj.det)) return std::nullopt;
  const D3 axis = Apply(adj, bend) * (adj.det < 0.0 ? -1.0 : 1.0);
  const glm::vec3 unit(glm::normalize(
      axis / std::max(std::abs(axis.x), std::max(std::abs(axis.y), std::abs(axis.z)))));
  if (!IsFinite(unit)) return std::nullopt;
  return unit;
}

TwoBoneIkResult SolveTwoBoneIkPose(const Skeleton& skeleton, const TwoBoneChain& chain,
                                   const TwoBoneTarget& target, const TwoBoneIkOptions& options,
                                   Pose* pose, std::vector<glm::mat4>* models) {
  TwoBoneIkResult result;
  result.target = target.position;
  const int n = skeleton.joint_count();
  if (!pose || !models || static_cast<int>(pose->locals.size()) != n ||
      static_cast<int>(models->size()) != n || !chain.Validate(skeleton)) {
    MakeDegenerate(&result, TwoBoneFallback::kInvalidChain);
    return result;
  }
  auto& locals = pose->locals;
  const auto& m = *models;
  const glm::vec3 a(m[chain.start][3]);
  result.a = a;
  result.b_before = glm::vec3(m[chain.mid][3]);
  result.c_before = glm::vec3(m[chain.end][3]);
  if (OptionsProblem(options)) {
    MakeDegenerate(&result, TwoBoneFallback::kInvalidOptions);
    return result;
  }
  bool finite = IsFinite(target.position) && (!target.rotation || IsFinite(*target.rotation)) &&
                IsFinite(m[chain.start]) && IsFinite(m[chain.end]);
  for (int j = chain.end; finite && j != chain.start; j = skeleton.parent(j)) {
    finite = locals[j].IsFinite();
  }
  if (!finite || !locals[chain.start].IsFinite()) {
    MakeDegenerate(&result, TwoBoneFallback::kNonFiniteInput);
    return result;
  }

  // The chain relative to the start joint: its frame with the translation taken out, the mid and
  // end rebuilt from the local transforms below it, and the target and pole as offsets from it.
  glm::mat4 start_relative = m[chain.start];
  start_relative[3] = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
  const glm::mat4 mid_relative =
      DescendantModel(skeleton, *pose, chain.start, start_relative, chain.mid);
  const glm::mat4 end_relative =
      DescendantModel(skeleton, *pose, chain.mid, mid_relative, chain.end);
  glm::mat4 start_frame, mid_frame;
  if (!FrameWithoutLocalScale(start_relative, locals[chain.start].scale, &start_frame) ||
      !FrameWithoutLocalScale(mid_relative, locals[chain.mid].scale, &mid_frame) ||
      !IsFinite(end_relative)) {
    MakeDegenerate(&result, TwoBoneFallback::kSingularFrame);
    return result;
  }
  const D3 target_offset = D3(target.position) - D3(a);
  TwoBoneIkOptions solve_options = options;
  if (!solve_options.bend_axis_local) {
    solve_options.bend_axis_local = DetectBendAxis(skeleton, chain, 1e-3f);
  }
  D3 pole_offset(0.0);
  if (options.pole_model) {
    pole_offset = D3(*options.pole_model) - D3(a);
    solve_options.pole_model = glm::vec3(pole_offset);
  }
  if (!FitsFloat(target_offset) || !FitsFloat(pole_offset)) {
    MakeDegenerate(&result, TwoBoneFallback::kOutOfRange);
    return result;
  }
  const TwoBoneIkResult relative =
      SolveTwoBoneIk(start_frame, mid_frame, end_relative, glm::vec3(target_offset), solve_options);
  if (relative.solve_case == TwoBoneCase::kDegenerate) {
    MakeDegenerate(&result, relative.fallback);
    return result;
  }
  const TwoBoneIkResult before = result;
  result = relative;
  result.a = before.a;
  result.b_before = before.b_before;
  result.c_before = before.c_before;
  result.target = before.target;
  result.circle.center = glm::vec3(D3(relative.circle.center) + D3(a));

  const int end_parent = skeleton.parent(chain.end);
  const glm::mat4 end_parent_before = m[end_parent];
  Transform& start_local = locals[chain.start];
  Transform& mid_local = locals[chain.mid];
  start_local.rotation = NormalizeOrIdentity(start_local.rotation * result.start_correction);
  mid_local.rotation = NormalizeOrIdentity(mid_local.rotation * result.mid_correction);
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
          want_target ? glm::conjugate(*parent_now) * NormalizeOrIdentity(*target.rotation)
                      : glm::conjugate(*parent_now) * *parent_before * end_local.rotation;
      end_local.rotation = Nlerp(end_local.rotation, wanted, options.weight);
      LocalToModelFrom(skeleton, *pose, chain.end, models);
    }
  }
  // Measured where the joints are now.
  result.b_final = glm::vec3((*models)[chain.mid][3]);
  result.c_final = glm::vec3((*models)[chain.end][3]);
  result.error = static_cast<float>(glm::length(D3(result.c_final) - D3(result.target)));
  const float chain_length = glm::length(glm::vec3(mid_relative[3])) +
                             glm::length(glm::vec3(end_relative[3] - mid_relative[3]));
  result.reached =
      result.reached && result.error <= ReachTolerance(chain_length, result.a, result.target);
  return result;
}

}  // namespace ik
