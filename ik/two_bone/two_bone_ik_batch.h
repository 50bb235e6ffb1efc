// Two-bone IK for many chains per call (crowds, both legs of many characters, offline batches):
// chains are stored structure-of-arrays in blocks of eight and solved with SIMD across chains
// (AVX2 + FMA when the CPU has it, SSE2 otherwise). Each chain's result equals SolveTwoBoneIk's up
// to float rounding; chains that need a fallback are solved by SolveTwoBoneIk itself.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <vector>

#include "ik/two_bone/two_bone_ik.h"
#include "ik/two_bone/two_bone_ik_batch_layout.h"

namespace ik {

class TwoBoneIkBatch {
 public:
  TwoBoneIkBatch() = default;
  explicit TwoBoneIkBatch(int count) { Resize(count); }

  // Sets the number of chains. Chains kept keep their data; new ones start as a harmless bent
  // chain at the origin without a pole.
  void Resize(int count);
  int size() const { return count_; }

  // Chain i's inputs, exactly as for SolveTwoBoneIk: model-space matrices of the start, mid and
  // end joints (only the end's translation is used) and the model-space target. 0 <= i < size().
  void SetChain(int i, const glm::mat4& start_model, const glm::mat4& mid_model,
                const glm::mat4& end_model, const glm::vec3& target_model);

  // Solves every chain with `options` (options.pole_model, when set, is every chain's pole). The
  // SIMD kernel covers the seed's solve, the pole and weight; with options.hinge or options.soft
  // every chain goes through SolveTwoBoneIk instead, as do single chains that need a fallback (see
  // special_count()). options.end_orientation is ignored (as in SolveTwoBoneIk). Invalid options:
  // every chain keeps identity corrections and is not reached.
  void Solve(const TwoBoneIkOptions& options = {});

  // Which SIMD kernel Solve uses: kAuto picks AVX2 + FMA when CpuHasAvx2Fma(), else SSE2; kSse2
  // always runs SSE2 (for tests and benchmarks of that kernel).
  enum class Kernel { kAuto, kSse2 };
  void Solve(const TwoBoneIkOptions& options, Kernel kernel);

  // Results of the last Solve for chain i: local-space corrections and `reached`, as in
  // TwoBoneIkResult.
  glm::quat start_correction(int i) const;
  glm::quat mid_correction(int i) const;
  bool reached(int i) const;

  // How many chains the last Solve handed to the scalar solver.
  int special_count() const { return special_count_; }

  // The kernel Solve(options) uses on this machine: "avx2" or "sse2".
  static const char* KernelName();

 private:
  float& In(int i, int row) {
    return blocks_[i / batch_internal::kLanes].in[row][i % batch_internal::kLanes];
  }
  float In(int i, int row) const {
    return blocks_[i / batch_internal::kLanes].in[row][i % batch_internal::kLanes];
  }
  float& Out(int i, int row) {
    return blocks_[i / batch_internal::kLanes].out[row][i % batch_internal::kLanes];
  }
  float Out(int i, int row) const {
    return blocks_[i / batch_internal::kLanes].out[row][i % batch_internal::kLanes];
  }
  void SolveScalar(int i, const TwoBoneIkOptions& options);
  void ClearResult(int i);  // identity corrections, not reached

  std::vector<batch_internal::Block> blocks_;
  int count_ = 0;
  int special_count_ = 0;
};

}  // namespace ik
