// Internal: pieces of the two-bone solver shared between its translation units. Not part of the
// public API.
#pragma once

#include <glm/glm.hpp>

#include "ik/two_bone_ik.h"

namespace ik {
namespace internal {

// How near a reach limit (ℓ_ab + ℓ_bc or |ℓ_ab - ℓ_bc|), relative to ℓ_ab + ℓ_bc, a target counts
// as on it: four float roundings, what bone lengths measured on float positions are known to.
constexpr float kReachLimitFuzz = 4.0f * 1.1920929e-7f;

// The seed's solve (with an optional pole) for the common case, with SIMD vectors (the AVX2 + FMA
// build when the CPU has both, else SSE2): no fallback, hinge, soft IK or weight. Fills *result and
// returns true, or returns false (leaving *result in an unspecified state) when the chain needs the
// general solver: a bone or the target distance below epsilon·L, a knee or pole on the start-target
// line, a turn within ~1e-5 rad of 180°, a frame that is not a similarity, extreme magnitudes,
// anything non-finite. Always false without SSE2.
bool SolveTwoBoneIkFast(const glm::mat4& start_model, const glm::mat4& mid_model,
                        const glm::mat4& end_model, const glm::vec3& target_model,
                        const TwoBoneIkOptions& options, TwoBoneIkResult* result);

}  // namespace internal
}  // namespace ik
