// What the processor running the program offers, for picking a SIMD build at run time.
#pragma once

namespace ik {

// True when the CPU has both AVX2 and FMA (x86 only; false elsewhere). The AVX2 + FMA builds of
// the two-bone solver and its batch kernel may only run when this is true. Checked once, cached.
bool CpuHasAvx2Fma();

}  // namespace ik
