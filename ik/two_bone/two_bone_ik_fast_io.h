// Internal: plain-data input and output of the two-bone fast path, shared by its SSE2 and AVX2
// builds. Includes nothing, so the AVX2 build compiles no inline library code (glm, std) that the
// linker could then hand to callers on CPUs without AVX2.
#pragma once

namespace ik {
namespace internal {

struct FastInput {
  const float* start;   // 16 floats, column major: the start joint's model matrix
  const float* mid;     // 16 floats: the mid joint's model matrix
  const float* end;     // 16 floats: the end joint's model matrix (translation used)
  const float* target;  // 3 floats, model space
  const float* pole;    // 3 floats, model space, or null
  float epsilon;
  float reach_fuzz;  // kReachLimitFuzz
};

// Laid out exactly as ik::TwoBoneIkResult (two_bone_ik.cpp checks every field's offset), so that a
// solve becomes the result in one copy. The fast path fills every field.
struct FastOutput {
  int solve_case;  // TwoBoneCase
  int fallback;    // TwoBoneFallback: always kNone (0)
  bool reached, softened, hinge_limited;
  float error;
  float a[3], b_before[3], c_before[3], b_final[3], c_final[3], target[3];
  float center[3], normal[3], radius;  // KneeCircle
  float reach_min, reach_max;
  float start_correction[4], mid_correction[4];  // x, y, z, w
};

// The fast path built for SSE2 (any x86-64) and for AVX2 + FMA (call only when the CPU has
// both). True when the chain was solved; false sends it to the general path (*out is then left
// in an unspecified state).
bool SolveFastSse2(const FastInput& in, FastOutput* out);
bool SolveFastAvx2(const FastInput& in, FastOutput* out);

}  // namespace internal
}  // namespace ik
