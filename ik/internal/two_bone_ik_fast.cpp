// The two-bone solver's fast path entry: picks the AVX2 + FMA build when the CPU has both, else
// the SSE2 build (two_bone_ik_fast.inc holds the code), and converts to and from glm types.
#include "ik/cpu_features.h"
#include "ik/internal/two_bone_ik_fast_io.h"
#include "ik/internal/two_bone_ik_internal.h"

namespace ik {
namespace internal {

bool SolveTwoBoneIkFast(const glm::mat4& start_model, const glm::mat4& mid_model,
                        const glm::mat4& end_model, const glm::vec3& target_model,
                        const TwoBoneIkOptions& options, TwoBoneIkResult* result) {
  static_assert(sizeof(glm::mat4) == 16 * sizeof(float) && sizeof(glm::vec3) == 3 * sizeof(float),
                "glm stores matrices and vectors as packed floats");
  const FastInput in{&start_model[0][0],
                     &mid_model[0][0],
                     &end_model[0][0],
                     &target_model.x,
                     options.pole_model ? &options.pole_model->x : nullptr,
                     options.epsilon,
                     kReachLimitFuzz};
  FastOutput out;
  if (!(CpuHasAvx2Fma() ? SolveFastAvx2(in, &out) : SolveFastSse2(in, &out))) return false;
  result->solve_case = static_cast<TwoBoneCase>(out.solve_case);
  result->fallback = TwoBoneFallback::kNone;
  result->reached = result->solve_case == TwoBoneCase::kReachable;
  result->softened = false;
  result->hinge_limited = false;
  result->error = out.error;
  result->b_final = glm::vec3(out.b_final[0], out.b_final[1], out.b_final[2]);
  result->c_final = glm::vec3(out.c_final[0], out.c_final[1], out.c_final[2]);
  result->circle.center = glm::vec3(out.center[0], out.center[1], out.center[2]);
  result->circle.normal = glm::vec3(out.normal[0], out.normal[1], out.normal[2]);
  result->circle.radius = out.radius;
  result->reach_min = out.reach_min;
  result->reach_max = out.reach_max;
  const float* qk = out.start_correction;
  const float* qj = out.mid_correction;
  result->start_correction = glm::quat(qk[3], qk[0], qk[1], qk[2]);
  result->mid_correction = glm::quat(qj[3], qj[0], qj[1], qj[2]);
  return true;
}

}  // namespace internal
}  // namespace ik
