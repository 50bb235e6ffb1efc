// The two-bone IK batch kernel for AVX2 + FMA: eight chains per vector. This file alone is built
// with -mavx2 -mfma (ik/CMakeLists.txt); it is only called after a runtime CPU check.
#include "ik/two_bone/two_bone_ik_batch_layout.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

// clang-format off
#include "ik/two_bone/two_bone_ik_kernel.inc"
// clang-format on

namespace ik {
namespace batch_internal {
namespace {

// A plain vector type (no may_alias attribute, which templates would drop), cast to __m256 for the
// intrinsics.
typedef float Vec8 __attribute__((vector_size(32)));

struct Avx2 {
  using F = Vec8;
  static F Set(float x) { return F(_mm256_set1_ps(x)); }
  static F Load(const float* p) { return F(_mm256_load_ps(p)); }
  static void Store(float* p, F v) { _mm256_store_ps(p, __m256(v)); }
  static F Sqrt(F v) { return F(_mm256_sqrt_ps(__m256(v))); }
  static F Min(F a, F b) { return F(_mm256_min_ps(__m256(a), __m256(b))); }
  static F Max(F a, F b) { return F(_mm256_max_ps(__m256(a), __m256(b))); }
};

}  // namespace

void SolveBlocksAvx2(Block* blocks, int count, const Params& params) {
  for (int i = 0; i < count; ++i) Kernel<Avx2>::Solve(blocks[i], 0, params);
}

}  // namespace batch_internal
}  // namespace ik

#else  // not built for AVX2: hand every chain to the scalar solver

namespace ik {
namespace batch_internal {

void SolveBlocksAvx2(Block* blocks, int count, const Params&) {
  for (int i = 0; i < count; ++i)
    for (int lane = 0; lane < kLanes; ++lane) blocks[i].out[kSpecial][lane] = 1.0f;
}

}  // namespace batch_internal
}  // namespace ik

#endif
