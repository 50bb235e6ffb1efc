// TwoBoneIkBatch: every chain's result agrees with SolveTwoBoneIk, with both SIMD kernels, with
// a pole, weights and chains that need the scalar fallbacks mixed in.
#include "ik/two_bone/two_bone_ik_batch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "ik/core/cpu_features.h"
#include "tests/ik/ik_test_util.h"

namespace {

using iktest::Position;
using iktest::Uniform;

struct Chain {
  glm::mat4 start, mid, end;
  glm::vec3 target;
  float length;
};

// Random chains; every 50th is one of the degenerate kinds the kernel hands back.
std::vector<Chain> RandomChains(int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Chain> chains;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int i = 0; i < count; ++i) {
    iktest::ChainRig rig = iktest::RandomChainRig(rng);
    Chain c{rig.models[1], rig.models[2], rig.models[3], glm::vec3(0.0f), rig.upper + rig.lower};
    const glm::vec3 a = Position(rig.models, 1);
    const float lo = std::abs(rig.upper - rig.lower), hi = rig.upper + rig.lower;
    c.target = iktest::TargetAt(rng, a, Uniform(rng, 0.5f * lo, 1.3f * hi));
    switch (i % 50) {
      case 7:
        c.target = a;  // target at the root
        break;
      case 17:
        c.target.y = nan;
        break;
      case 27:
        c.mid[3] = c.start[3];  // zero-length upper bone
        break;
      case 37:  // straight chain, target along it
        c.end[3] = c.mid[3] + (c.mid[3] - c.start[3]);
        c.target = glm::vec3(c.start[3]) + 1.5f * glm::vec3(c.mid[3] - c.start[3]);
        break;
      case 47:
        c.start[0] = glm::vec4(0.0f);  // singular frame
        break;
      default:
        break;
    }
    chains.push_back(c);
  }
  return chains;
}

float QuatDistance(const glm::quat& a, const glm::quat& b) {
  return std::min(glm::length(glm::vec4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w)),
                  glm::length(glm::vec4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w)));
}

// Where a chain's knee and end go with these corrections (frames with uniform scale).
void Apply(const Chain& c, const glm::quat& start, const glm::quat& mid, glm::vec3* knee,
           glm::vec3* end) {
  const glm::mat4 start_after = c.start * glm::mat4_cast(start);
  const glm::mat4 mid_after = start_after * (glm::inverse(c.start) * c.mid) * glm::mat4_cast(mid);
  *knee = glm::vec3(mid_after[3]);
  *end = glm::vec3(mid_after * (glm::inverse(c.mid) * c.end)[3]);
}

void ExpectBatchMatchesSingle(const std::vector<Chain>& chains, ik::TwoBoneIkOptions options,
                              ik::TwoBoneIkBatch::Kernel kernel) {
  ik::TwoBoneIkBatch batch(static_cast<int>(chains.size()));
  for (int i = 0; i < batch.size(); ++i) {
    batch.SetChain(i, chains[i].start, chains[i].mid, chains[i].end, chains[i].target);
  }
  batch.Solve(options, kernel);
  int fast = 0;
  for (int i = 0; i < batch.size(); ++i) {
    const Chain& c = chains[i];
    const ik::TwoBoneIkResult single = ik::SolveTwoBoneIk(c.start, c.mid, c.end, c.target, options);
    ASSERT_EQ(batch.reached(i), single.reached) << i;
    if (single.solve_case == ik::TwoBoneCase::kDegenerate) {
      ASSERT_EQ(batch.start_correction(i), single.start_correction) << i;
      ASSERT_EQ(batch.mid_correction(i), single.mid_correction) << i;
      continue;
    }
    // Both put the end in the same place, and the knee too up to the conditioning of its
    // direction (a knee or pole close to the start-target line leaves the circle point loosely
    // determined). Next to 180° turns the quaternions themselves may differ more: the axis is
    // ill-conditioned there; both are exact about their own, but a partial (weighted) turn is
    // not, so weighted chains are compared only away from 180°.
    ik::TwoBoneIkOptions unweighted = options;
    unweighted.weight = 1.0f;
    const ik::TwoBoneIkResult full =
        ik::SolveTwoBoneIk(c.start, c.mid, c.end, c.target, unweighted);
    const bool half_turn =
        std::min(std::abs(full.start_correction.w), std::abs(full.mid_correction.w)) < 0.1f;
    if (options.weight < 1.0f && half_turn) continue;
    glm::vec3 knee_batch, end_batch, knee_single, end_single;
    Apply(c, batch.start_correction(i), batch.mid_correction(i), &knee_batch, &end_batch);
    Apply(c, single.start_correction, single.mid_correction, &knee_single, &end_single);
    ASSERT_LE(glm::length(knee_batch - knee_single), 1e-4f * c.length) << i;
    ASSERT_LE(glm::length(end_batch - end_single), 1e-5f * c.length) << i;
    if (!half_turn) {
      ASSERT_LE(QuatDistance(batch.start_correction(i), single.start_correction), 1e-4f) << i;
      ASSERT_LE(QuatDistance(batch.mid_correction(i), single.mid_correction), 1e-4f) << i;
    }
    if (single.fallback == ik::TwoBoneFallback::kNone) ++fast;
  }
  EXPECT_GE(fast, batch.size() * 88 / 100);
  // The degenerate kinds (2 in 50) and little else took the scalar path.
  EXPECT_GE(batch.special_count(), batch.size() / 25);
  EXPECT_LE(batch.special_count(), batch.size() / 10);
}

// The AVX2 kernel runs only where the CPU has it (Kernel::kAuto picks it there).
#define SKIP_WITHOUT_AVX2()                                                     \
  do {                                                                          \
    if (!ik::CpuHasAvx2Fma())                                                   \
      GTEST_SKIP() << "this CPU has no AVX2 + FMA: the AVX2 kernel cannot run"; \
  } while (0)

TEST(TwoBoneIkBatch, Avx2KernelAgreesWithSingleSolves) {
  SKIP_WITHOUT_AVX2();
  ExpectBatchMatchesSingle(RandomChains(20000, 41), {}, ik::TwoBoneIkBatch::Kernel::kAuto);
}

TEST(TwoBoneIkBatch, Sse2KernelAgreesWithSingleSolves) {
  ExpectBatchMatchesSingle(RandomChains(20000, 42), {}, ik::TwoBoneIkBatch::Kernel::kSse2);
}

ik::TwoBoneIkOptions WithPole() {
  ik::TwoBoneIkOptions options;
  options.pole_model = glm::vec3(0.0f, 0.0f, 5.0f);
  return options;
}

TEST(TwoBoneIkBatch, Sse2KernelWithAPoleAgreesWithSingleSolves) {
  ExpectBatchMatchesSingle(RandomChains(10000, 44), WithPole(), ik::TwoBoneIkBatch::Kernel::kSse2);
}

TEST(TwoBoneIkBatch, Avx2KernelWithAPoleAgreesWithSingleSolves) {
  SKIP_WITHOUT_AVX2();
  ExpectBatchMatchesSingle(RandomChains(10000, 44), WithPole(), ik::TwoBoneIkBatch::Kernel::kAuto);
}

ik::TwoBoneIkOptions Weighted() {
  ik::TwoBoneIkOptions options;
  options.weight = 0.4f;
  return options;
}

TEST(TwoBoneIkBatch, Sse2KernelWeightedSolvesAgreeWithSingleSolves) {
  ExpectBatchMatchesSingle(RandomChains(10000, 45), Weighted(), ik::TwoBoneIkBatch::Kernel::kSse2);
}

TEST(TwoBoneIkBatch, Avx2KernelWeightedSolvesAgreeWithSingleSolves) {
  SKIP_WITHOUT_AVX2();
  ExpectBatchMatchesSingle(RandomChains(10000, 45), Weighted(), ik::TwoBoneIkBatch::Kernel::kAuto);
}

// A pole so far away that its squares overflow float: the kernel must not place the knee itself
// (it would land off the spheres and report reached); the scalar solver takes those chains.
TEST(TwoBoneIkBatch, FarPolesGoToTheScalarSolverAndReachedStaysHonest) {
  const std::vector<Chain> chains = RandomChains(2000, 49);
  for (float distance : {1e20f, 3e38f}) {
    ik::TwoBoneIkOptions options;
    options.pole_model = glm::normalize(glm::vec3(1.0f, 0.2f, 1.0f)) * distance;
    for (auto kernel : {ik::TwoBoneIkBatch::Kernel::kSse2, ik::TwoBoneIkBatch::Kernel::kAuto}) {
      ik::TwoBoneIkBatch batch(static_cast<int>(chains.size()));
      for (int i = 0; i < batch.size(); ++i) {
        batch.SetChain(i, chains[i].start, chains[i].mid, chains[i].end, chains[i].target);
      }
      batch.Solve(options, kernel);
      int reached = 0;
      for (int i = 0; i < batch.size(); ++i) {
        const Chain& c = chains[i];
        const ik::TwoBoneIkResult single =
            ik::SolveTwoBoneIk(c.start, c.mid, c.end, c.target, options);
        ASSERT_EQ(batch.reached(i), single.reached) << i;
        if (!batch.reached(i)) continue;
        ++reached;
        glm::vec3 knee, end;
        Apply(c, batch.start_correction(i), batch.mid_correction(i), &knee, &end);
        ASSERT_LE(glm::length(end - c.target), 1e-5f * c.length) << i;
      }
      EXPECT_GT(reached, batch.size() / 3);
    }
  }
}

TEST(TwoBoneIkBatch, HingeAndSoftGoThroughTheScalarSolverForEveryChain) {
  const std::vector<Chain> chains = RandomChains(500, 46);
  ik::TwoBoneIkBatch batch(static_cast<int>(chains.size()));
  for (int i = 0; i < batch.size(); ++i) {
    batch.SetChain(i, chains[i].start, chains[i].mid, chains[i].end, chains[i].target);
  }
  ik::TwoBoneIkOptions options;
  options.soft = 0.1f;
  batch.Solve(options);
  EXPECT_EQ(batch.special_count(), batch.size());
  for (int i = 0; i < batch.size(); ++i) {
    const Chain& c = chains[i];
    const auto single = ik::SolveTwoBoneIk(c.start, c.mid, c.end, c.target, options);
    ASSERT_EQ(batch.start_correction(i), single.start_correction);
    ASSERT_EQ(batch.mid_correction(i), single.mid_correction);
  }
}

TEST(TwoBoneIkBatch, InvalidOptionsLeaveEveryChainUnturnedAndNotReached) {
  const std::vector<Chain> chains = RandomChains(20, 47);
  ik::TwoBoneIkBatch batch(20);
  for (int i = 0; i < 20; ++i) {
    batch.SetChain(i, chains[i].start, chains[i].mid, chains[i].end, chains[i].target);
  }
  ik::TwoBoneIkOptions options;
  options.weight = -1.0f;
  batch.Solve(options);
  for (int i = 0; i < 20; ++i) {
    EXPECT_FALSE(batch.reached(i));
    EXPECT_EQ(batch.start_correction(i), glm::quat(1, 0, 0, 0));
    EXPECT_EQ(batch.mid_correction(i), glm::quat(1, 0, 0, 0));
  }
}

TEST(TwoBoneIkBatch, ResizeKeepsChainsAndCountsThatAreNotMultiplesOfEight) {
  const std::vector<Chain> chains = RandomChains(13, 48);
  ik::TwoBoneIkBatch batch(5);
  for (int i = 0; i < 5; ++i) {
    batch.SetChain(i, chains[i].start, chains[i].mid, chains[i].end, chains[i].target);
  }
  batch.Resize(13);
  for (int i = 5; i < 13; ++i) {
    batch.SetChain(i, chains[i].start, chains[i].mid, chains[i].end, chains[i].target);
  }
  batch.Solve();
  for (int i = 0; i < 13; ++i) {
    const Chain& c = chains[i];
    const auto single = ik::SolveTwoBoneIk(c.start, c.mid, c.end, c.target);
    EXPECT_LE(QuatDistance(batch.start_correction(i), single.start_correction), 2e-5f) << i;
  }
  EXPECT_TRUE(std::string(ik::TwoBoneIkBatch::KernelName()) == "avx2" ||
              std::string(ik::TwoBoneIkBatch::KernelName()) == "sse2");
}

}  // namespace
