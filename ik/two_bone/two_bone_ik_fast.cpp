// The two-bone solver's fast path entry: the AVX2 + FMA build when the CPU has both, else the SSE2
// build (two_bone_ik_fast.inc holds the code), chosen on the first call.
#include <atomic>

#include "ik/core/cpu_features.h"
#include "ik/two_bone/two_bone_ik_internal.h"

namespace ik {
namespace internal {

namespace {

using FastSolver = bool (*)(const FastInput&, FastOutput*);

bool ChooseAndSolve(const FastInput& in, FastOutput* out);

// Starts as ChooseAndSolve, which replaces itself with the build for this CPU (constant
// initialized, so it is valid before any dynamic initialization; threads racing on the first
// call store the same value).
std::atomic<FastSolver> g_solver{&ChooseAndSolve};

bool ChooseAndSolve(const FastInput& in, FastOutput* out) {
  const FastSolver solver = CpuHasAvx2Fma() ? &SolveFastAvx2 : &SolveFastSse2;
  g_solver.store(solver, std::memory_order_relaxed);
  return solver(in, out);
}

}  // namespace

bool SolveTwoBoneIkFast(const FastInput& in, FastOutput* out) {
  return g_solver.load(std::memory_order_relaxed)(in, out);
}

}  // namespace internal
}  // namespace ik
