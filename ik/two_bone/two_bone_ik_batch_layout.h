// Internal: the memory layout TwoBoneIkBatch shares with its SIMD kernels. Eight chains per block,
// one row of eight floats per input or output scalar (structure of arrays inside the block). This
// header includes nothing, so the AVX2 kernel's translation unit pulls in no inline library code
// that could be compiled with AVX2 and then picked by the linker for other callers.
#pragma once

namespace ik {
namespace batch_internal {

constexpr int kLanes = 8;

// Input rows.
enum InRow {
  kStartCols = 0,  // 9 rows: start 3x3 columns 0, 1, 2 (x, y, z each), model space
  kStartPos = 9,   // 3 rows: a
  kMidCols = 12,   // 9 rows: mid 3x3 columns
  kMidPos = 21,    // 3 rows: b
  kEndPos = 24,    // 3 rows: c
  kTarget = 27,    // 3 rows: t
  kInRows = 30,
};

// Output rows.
enum OutRow {
  kStartCorrection = 0,  // 4 rows: x, y, z, w
  kMidCorrection = 4,    // 4 rows
  kReached = 8,          // 1 or 0
  kSpecial = 9,          // 1: the kernel could not take this chain; solve it with the scalar code
  kOutRows = 10,
};

struct alignas(64) Block {
  float in[kInRows][kLanes];
  float out[kOutRows][kLanes];
};

struct Params {
  float epsilon;
  float reach_fuzz;  // kReachLimitFuzz (two_bone_ik_internal.h)
  float weight;
  bool has_pole;  // every chain's knee goes toward `pole` (model space)
  float pole[3];
};

// Kernels: solve `count` blocks in place. The AVX2+FMA one may only be called when
// ik::CpuHasAvx2Fma() is true.
void SolveBlocksSse2(Block* blocks, int count, const Params& params);
void SolveBlocksAvx2(Block* blocks, int count, const Params& params);

}  // namespace batch_internal
}  // namespace ik
