// The two-bone fast path built for SSE2, which every x86-64 CPU has.
#include "ik/two_bone/two_bone_ik_fast_io.h"

#if defined(__SSE2__)
#include <emmintrin.h>

#include "ik/two_bone/two_bone_ik_fast.inc"
#endif

namespace ik {
namespace internal {

#if defined(__SSE2__)
bool SolveFastSse2(const FastInput& in, FastOutput* out) { return SolveFast(in, out); }
#else
bool SolveFastSse2(const FastInput&, FastOutput*) { return false; }  // general path only
#endif

}  // namespace internal
}  // namespace ik
