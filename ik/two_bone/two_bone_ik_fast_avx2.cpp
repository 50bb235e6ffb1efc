// The two-bone fast path built for AVX2 + FMA (this file alone gets -mavx2 -mfma; see
// ik/CMakeLists.txt): the same code with three-operand instructions and fused multiply-adds.
// Called only when ik::CpuHasAvx2Fma().
#include "ik/two_bone/two_bone_ik_fast_io.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

#include "ik/two_bone/two_bone_ik_fast.inc"
#endif

namespace ik {
namespace internal {

#if defined(__AVX2__) && defined(__FMA__)
bool SolveFastAvx2(const FastInput& in, FastOutput* out) { return SolveFast(in, out); }
#else
bool SolveFastAvx2(const FastInput&, FastOutput*) { return false; }  // not built for AVX2
#endif

}  // namespace internal
}  // namespace ik
