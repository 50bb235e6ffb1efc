// Run-time CPU feature check (GCC/Clang's cpuid builtins).
#include "ik/core/cpu_features.h"

namespace ik {

bool CpuHasAvx2Fma() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
#else
  return false;
#endif
}

}  // namespace ik
