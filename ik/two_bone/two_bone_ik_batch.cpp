// TwoBoneIkBatch: storage, kernel dispatch (AVX2 + FMA when the CPU has both), and the scalar
// solve of chains the kernel hands back.
#include "ik/two_bone/two_bone_ik_batch.h"

#include <cassert>

#include "ik/core/cpu_features.h"
#include "ik/two_bone/two_bone_ik_internal.h"

namespace ik {

using namespace batch_internal;

const char* TwoBoneIkBatch::KernelName() { return CpuHasAvx2Fma() ? "avx2" : "sse2"; }

void TwoBoneIkBatch::Resize(int count) {
  assert(count >= 0);
  const int block_count = (count + kLanes - 1) / kLanes;
  blocks_.resize(block_count);
  // New lanes (and the padding lanes of the last block) get a valid bent chain so the kernel never
  // sees garbage.
  for (int i = count_; i < block_count * kLanes; ++i) {
    glm::mat4 start(1.0f), mid(1.0f), end(1.0f);
    mid[3] = glm::vec4(0.0f, -1.0f, 0.0f, 1.0f);
    end[3] = glm::vec4(0.0f, -1.5f, 0.5f, 1.0f);
    SetChain(i, start, mid, end, glm::vec3(0.0f, -1.0f, 0.5f));
    ClearResult(i);
  }
  count_ = count;
}

void TwoBoneIkBatch::ClearResult(int i) {
  for (int row = 0; row < kOutRows; ++row) Out(i, row) = 0.0f;
  Out(i, kStartCorrection + 3) = Out(i, kMidCorrection + 3) = 1.0f;
}

void TwoBoneIkBatch::SetChain(int i, const glm::mat4& start_model, const glm::mat4& mid_model,
                              const glm::mat4& end_model, const glm::vec3& target_model) {
  assert(i >= 0 && i < static_cast<int>(blocks_.size()) * kLanes);
  for (int col = 0; col < 3; ++col) {
    for (int row = 0; row < 3; ++row) {
      In(i, kStartCols + 3 * col + row) = start_model[col][row];
      In(i, kMidCols + 3 * col + row) = mid_model[col][row];
    }
  }
  for (int row = 0; row < 3; ++row) {
    In(i, kStartPos + row) = start_model[3][row];
    In(i, kMidPos + row) = mid_model[3][row];
    In(i, kEndPos + row) = end_model[3][row];
    In(i, kTarget + row) = target_model[row];
  }
}

void TwoBoneIkBatch::SolveScalar(int i, const TwoBoneIkOptions& options) {
  glm::mat4 start(1.0f), mid(1.0f), end(1.0f);
  for (int col = 0; col < 3; ++col) {
    for (int row = 0; row < 3; ++row) {
      start[col][row] = In(i, kStartCols + 3 * col + row);
      mid[col][row] = In(i, kMidCols + 3 * col + row);
    }
  }
  glm::vec3 target;
  for (int row = 0; row < 3; ++row) {
    start[3][row] = In(i, kStartPos + row);
    mid[3][row] = In(i, kMidPos + row);
    end[3][row] = In(i, kEndPos + row);
    target[row] = In(i, kTarget + row);
  }
  const TwoBoneIkResult r = SolveTwoBoneIk(start, mid, end, target, options);
  const glm::quat& qk = r.start_correction;
  const glm::quat& qj = r.mid_correction;
  Out(i, kStartCorrection + 0) = qk.x;
  Out(i, kStartCorrection + 1) = qk.y;
  Out(i, kStartCorrection + 2) = qk.z;
  Out(i, kStartCorrection + 3) = qk.w;
  Out(i, kMidCorrection + 0) = qj.x;
  Out(i, kMidCorrection + 1) = qj.y;
  Out(i, kMidCorrection + 2) = qj.z;
  Out(i, kMidCorrection + 3) = qj.w;
  Out(i, kReached) = r.reached ? 1.0f : 0.0f;
}

void TwoBoneIkBatch::Solve(const TwoBoneIkOptions& options) { Solve(options, Kernel::kAuto); }

void TwoBoneIkBatch::Solve(const TwoBoneIkOptions& options, Kernel kernel) {
  special_count_ = 0;
  if (!options.Validate()) {
    for (int i = 0; i < count_; ++i) ClearResult(i);
    return;
  }
  if (options.hinge || options.soft > 0.0f) {
    for (int i = 0; i < count_; ++i) SolveScalar(i, options);
    special_count_ = count_;
    return;
  }
  Params params{};
  params.epsilon = options.epsilon;
  params.reach_fuzz = internal::kReachLimitFuzz;
  params.weight = options.weight;
  params.has_pole = options.pole_model.has_value();
  if (options.pole_model) {
    params.pole[0] = options.pole_model->x;
    params.pole[1] = options.pole_model->y;
    params.pole[2] = options.pole_model->z;
  }
  const int block_count = static_cast<int>(blocks_.size());
  if (kernel != Kernel::kSse2 && CpuHasAvx2Fma()) {
    SolveBlocksAvx2(blocks_.data(), block_count, params);
  } else {
    SolveBlocksSse2(blocks_.data(), block_count, params);
  }
  for (int blk = 0; blk < block_count; ++blk) {
    const float* special = blocks_[blk].out[kSpecial];
    float any = 0.0f;
    for (int lane = 0; lane < kLanes; ++lane) any += special[lane];
    if (any == 0.0f) continue;
    for (int lane = 0; lane < kLanes; ++lane) {
      const int i = blk * kLanes + lane;
      if (special[lane] != 0.0f && i < count_) {
        SolveScalar(i, options);
        ++special_count_;
      }
    }
  }
}

glm::quat TwoBoneIkBatch::start_correction(int i) const {
  return glm::quat(Out(i, kStartCorrection + 3), Out(i, kStartCorrection + 0),
                   Out(i, kStartCorrection + 1), Out(i, kStartCorrection + 2));
}

glm::quat TwoBoneIkBatch::mid_correction(int i) const {
  return glm::quat(Out(i, kMidCorrection + 3), Out(i, kMidCorrection + 0),
                   Out(i, kMidCorrection + 1), Out(i, kMidCorrection + 2));
}

bool TwoBoneIkBatch::reached(int i) const { return Out(i, kReached) != 0.0f; }

}  // namespace ik
