// The two-bone IK batch kernel for SSE2 (baseline x86-64): four chains per vector.
#include "ik/two_bone/two_bone_ik_batch_layout.h"

#if defined(__SSE2__)
#include <emmintrin.h>

// clang-format off
#include "ik/two_bone/two_bone_ik_kernel.inc"
// clang-format on

namespace ik {
namespace batch_internal {
namespace {

// A plain vector type (no may_alias attribute, which templates would drop), cast to __m128 for the
// intrinsics.
typedef float Vec4 __attribute__((vector_size(16)));

struct Sse2 {
  using F = Vec4;
  static F Set(float x) { return F(_mm_set1_ps(x)); }
  static F Load(const float* p) { return F(_mm_load_ps(p)); }
  static void Store(float* p, F v) { _mm_store_ps(p, __m128(v)); }
  static F Sqrt(F v) { return F(_mm_sqrt_ps(__m128(v))); }
  static F Min(F a, F b) { return F(_mm_min_ps(__m128(a), __m128(b))); }
  static F Max(F a, F b) { return F(_mm_max_ps(__m128(a), __m128(b))); }
};

}  // namespace

void SolveBlocksSse2(Block* blocks, int count, const Params& params) {
  for (int i = 0; i < count; ++i) {
    Kernel<Sse2>::Solve(blocks[i], 0, params);
    Kernel<Sse2>::Solve(blocks[i], 4, params);
  }
}

}  // namespace batch_internal
}  // namespace ik

#else  // no SSE2: hand every chain to the scalar solver

namespace ik {
namespace batch_internal {

void SolveBlocksSse2(Block* blocks, int count, const Params&) {
  for (int i = 0; i < count; ++i)
    for (int lane = 0; lane < kLanes; ++lane) blocks[i].out[kSpecial][lane] = 1.0f;
}

}  // namespace batch_internal
}  // namespace ik

#endif
