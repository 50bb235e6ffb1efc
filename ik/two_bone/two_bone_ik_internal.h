// Internal: pieces of the two-bone solver shared between its translation units. Not part of the
// public API.
#pragma once

#include <glm/glm.hpp>

#include "ik/two_bone/two_bone_ik.h"
#include "ik/two_bone/two_bone_ik_fast_io.h"

namespace ik {
namespace internal {

// How near a reach limit (ℓ_ab + ℓ_bc or |ℓ_ab - ℓ_bc|), relative to ℓ_ab + ℓ_bc, a target counts
// as on it: four float roundings, what bone lengths measured on float positions are known to.
constexpr float kReachLimitFuzz = 4.0f * 1.1920929e-7f;

// The seed's solve (with an optional pole) for the common case, with SIMD vectors (the AVX2 + FMA
// build when the CPU has both, else SSE2): no fallback, hinge, soft IK or weight. Fills *out and
// returns true, or returns false (leaving *out in an unspecified state) when the chain needs the
// general solver: a bone or the target distance below epsilon·L, a knee or pole on the start-target
// line, a turn within ~1e-5 rad of 180°, a frame that is not a similarity, extreme magnitudes,
// anything non-finite. Always false without SSE2.
bool SolveTwoBoneIkFast(const FastInput& in, FastOutput* out);

// The position solve (model space) and what the rotation stage needs on top.
struct PositionSolve {
  TwoBoneCase solve_case = TwoBoneCase::kDegenerate;
  TwoBoneFallback fallback = TwoBoneFallback::kNone;
  glm::dvec3 b_final{0.0};          // new knee, |b_final - a| = ℓ_ab
  glm::dvec3 c_final{0.0};          // new end, |c_final - b_final| = ℓ_bc
  glm::dvec3 center{0.0};           // knee circle
  glm::dvec3 s_hat{0.0, 0.0, 1.0};  // unit direction from a toward the (effective) target
  double radius = 0.0;
  double reach_min = 0.0;           // |ℓ_ab - ℓ_bc| (or the hinge's limit)
  double reach_max = 0.0;           // ℓ_ab + ℓ_bc (or the hinge's limit)
  bool softened = false;            // soft IK moved the target
  bool hinge_limited = false;       // the hinge's angle limits kept the end from the target
  glm::dvec3 bend_axis{0.0};        // unit model-space bend axis used, or zero
  bool hinge = false;               // the hinge path ran
  glm::dvec3 bend_axis_after{0.0};  // hinge: the bend axis after the start joint's turn
};

// Records `f` unless an earlier fallback is already recorded (the first one is reported).
inline void SetFallback(TwoBoneFallback* slot, TwoBoneFallback f) {
  if (*slot == TwoBoneFallback::kNone) *slot = f;
}

// The position solve of the general path (ik/two_bone/two_bone_ik_positions.cpp): a, b, c the
// start, mid and end joints' positions and t the target, model space. `bend_axis_model`: the mid
// joint's bend axis in model space (zero = unknown: the current bend is used, then `mid_frame`'s
// most perpendicular column, then any perpendicular).
PositionSolve SolvePositions(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                             const glm::dvec3& t, const TwoBoneIkOptions& options,
                             const glm::dvec3& bend_axis_model, const glm::dmat3& mid_frame);

}  // namespace internal
}  // namespace ik
