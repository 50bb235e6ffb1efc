// Two-bone IK: properties over 100,000 random chains (fixed seeds), each degenerate input, each
// option, the pose-level API and a 10,000-frame drift run.
#include "ik/two_bone/two_bone_ik.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "ik/core/cpu_features.h"
#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"
#include "ik/two_bone/two_bone_ik_fast_io.h"
#include "ik/two_bone/two_bone_ik_internal.h"
#include "tests/ik/ik_test_util.h"

namespace {

using iktest::ChainRig;
using iktest::Position;
using iktest::RandomChainRig;
using iktest::Uniform;

constexpr int kRandomChains = 100000;
constexpr float kTol = 1e-5f;  // relative to the chain length

struct Solved {
  ChainRig rig;
  glm::vec3 a, b, c, t;  // before
  glm::vec3 b_after, c_after;
  ik::TwoBoneIkResult result;
  float length() const { return rig.upper + rig.lower; }
};

// 60% reachable, 20% too far, 20% too close (when the bones differ enough to have a hole).
float RandomTargetDistance(std::mt19937& rng, float upper, float lower) {
  const float lo = std::abs(upper - lower), hi = upper + lower;
  const float pick = Uniform(rng, 0, 1);
  if (pick < 0.6f) return Uniform(rng, lo, hi);
  if (pick < 0.8f) return Uniform(rng, hi, 2.0f * hi);
  return Uniform(rng, 0.0f, lo);
}

Solved SolveRandom(std::mt19937& rng, const ik::TwoBoneIkOptions& options = {}) {
  Solved s;
  s.rig = RandomChainRig(rng);
  auto& m = s.rig.models;
  s.a = Position(m, 1);
  s.b = Position(m, 2);
  s.c = Position(m, 3);
  s.t = iktest::TargetAt(rng, s.a, RandomTargetDistance(rng, s.rig.upper, s.rig.lower));
  s.result = ik::SolveTwoBoneIk(m[1], m[2], m[3], s.t, options);
  iktest::ApplyCorrections(s.result, &s.rig);
  s.b_after = Position(s.rig.models, 2);
  s.c_after = Position(s.rig.models, 3);
  return s;
}

// Nearest point of the knee circle (computed in double) to `p`, and whether that is well defined.
bool NearestCirclePoint(const Solved& s, const glm::vec3& p, glm::dvec3* nearest) {
  const glm::dvec3 a(s.a), t(s.t);
  const double l_ab = static_cast<double>(s.rig.upper);
  const double l_bc = static_cast<double>(s.rig.lower);
  const glm::dvec3 v = t - a;
  const double d = glm::length(v);
  const glm::dvec3 n = v / d;
  const double x = (d * d + l_ab * l_ab - l_bc * l_bc) / (2.0 * d);
  const double r = std::sqrt(std::max(0.0, l_ab * l_ab - x * x));
  const glm::dvec3 w = glm::dvec3(p) - a;
  const glm::dvec3 perp = w - glm::dot(w, n) * n;
  const double perp_len = glm::length(perp);
  *nearest = a + x * n + r * perp / perp_len;
  // Well conditioned: the knee is clearly off the axis and the circle is not a point.
  return perp_len > 1e-2 * glm::length(w) && r > 1e-2 * l_ab;
}

TEST(TwoBoneIk, CaseAndFallbackNamesMatchTheJsonContract) {
  EXPECT_STREQ(ik::CaseName(ik::TwoBoneCase::kReachable), "reachable");
  EXPECT_STREQ(ik::CaseName(ik::TwoBoneCase::kTooFar), "too_far");
  EXPECT_STREQ(ik::CaseName(ik::TwoBoneCase::kTooClose), "too_close");
  EXPECT_STREQ(ik::CaseName(ik::TwoBoneCase::kDegenerate), "degenerate");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kNone), "none");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kTargetAtRoot), "target_at_root");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kZeroLengthBone), "zero_length_bone");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kColinearChain), "colinear_chain");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kPoleColinear), "pole_colinear");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kAntiparallel), "antiparallel");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kNonFiniteInput), "non_finite_input");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kSingularFrame), "singular_frame");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kInvalidOptions), "invalid_options");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kInvalidChain), "invalid_chain");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kHingeAxisUnusable), "hinge_axis_unusable");
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kNoTargetRotation), "no_target_rotation");
}

TEST(TwoBoneIk, RandomChainsReachReachableTargetsAndKeepBoneLengths) {
  std::mt19937 rng(20240601);
  int reachable = 0, too_far = 0, too_close = 0;
  float worst_reach = 0.0f, worst_length = 0.0f, worst_report = 0.0f;
  for (int i = 0; i < kRandomChains; ++i) {
    const Solved s = SolveRandom(rng);
    const float len = s.length();
    ASSERT_NE(s.result.solve_case, ik::TwoBoneCase::kDegenerate) << "chain " << i;
    ASSERT_TRUE(ik::IsFinite(s.b_after) && ik::IsFinite(s.c_after)) << "chain " << i;
    // Rotations only: both bones keep their length.
    const float upper_err = std::abs(glm::length(s.b_after - s.a) - s.rig.upper) / s.rig.upper;
    const float lower_err =
        std::abs(glm::length(s.c_after - s.b_after) - s.rig.lower) / s.rig.lower;
    worst_length = std::max({worst_length, upper_err, lower_err});
    ASSERT_LE(upper_err, kTol) << "chain " << i;
    ASSERT_LE(lower_err, kTol) << "chain " << i;
    // The report says where the joints went.
    const float report_err = std::max(glm::length(s.result.b_final - s.b_after),
                                      glm::length(s.result.c_final - s.c_after)) /
                             len;
    worst_report = std::max(worst_report, report_err);
    ASSERT_LE(report_err, kTol) << "chain " << i;
    if (s.result.solve_case == ik::TwoBoneCase::kReachable) {
      ++reachable;
      const float err = glm::length(s.c_after - s.t) / len;
      worst_reach = std::max(worst_reach, err);
      ASSERT_LE(err, kTol) << "chain " << i << " case " << ik::CaseName(s.result.solve_case);
      ASSERT_TRUE(s.result.reached);
    } else if (s.result.solve_case == ik::TwoBoneCase::kTooFar) {
      ++too_far;
      ASSERT_FALSE(s.result.reached);
    } else {
      ++too_close;
      ASSERT_FALSE(s.result.reached);
    }
  }
  EXPECT_GT(reachable, kRandomChains / 2);
  EXPECT_GT(too_far, kRandomChains / 10);
  EXPECT_GT(too_close, kRandomChains / 10);
  RecordProperty("worst_reach_error_relative", std::to_string(worst_reach));
  RecordProperty("worst_length_error_relative", std::to_string(worst_length));
  RecordProperty("worst_report_error_relative", std::to_string(worst_report));
}

// The fast path (SSE2, similarity frames, no options) and the general path (any frame, every
// option) must agree. A soft zone of 1e-6·L sends every solve down the general path while
// changing no target by more than 1e-6·L.
TEST(TwoBoneIk, RandomChainsGeneralPathReachesAndAgreesWithTheFastPath) {
  std::mt19937 rng(76);
  ik::TwoBoneIkOptions general;
  general.soft = 1e-6f;
  for (int i = 0; i < kRandomChains; ++i) {
    const ChainRig rig = RandomChainRig(rng);
    const auto& m = rig.models;
    const glm::vec3 a = Position(m, 1);
    const float len = rig.upper + rig.lower;
    const glm::vec3 t = iktest::TargetAt(rng, a, RandomTargetDistance(rng, rig.upper, rig.lower));
    const ik::TwoBoneIkResult fast = ik::SolveTwoBoneIk(m[1], m[2], m[3], t);
    const ik::TwoBoneIkResult slow = ik::SolveTwoBoneIk(m[1], m[2], m[3], t, general);
    ASSERT_EQ(fast.solve_case, slow.solve_case) << i;
    ChainRig applied = rig;
    iktest::ApplyCorrections(slow, &applied);
    ASSERT_LE(glm::length(Position(applied.models, 3) - slow.c_final), kTol * len) << i;
    ASSERT_LE(glm::length(Position(applied.models, 2) - slow.b_final), kTol * len) << i;
    ASSERT_LE(glm::length(slow.c_final - fast.c_final), 2e-6f * len) << i;
    ASSERT_LE(glm::length(slow.b_final - fast.b_final), 1e-4f * len) << i;  // knee: conditioning
    if (fast.solve_case == ik::TwoBoneCase::kReachable) {
      ASSERT_LE(glm::length(Position(applied.models, 3) - t), kTol * len) << i;
    }
  }
}

// The fast path is built twice, for SSE2 and for AVX2 + FMA, and SolveTwoBoneIk runs only one of
// them on a given CPU: run each build directly and check it reaches like the public solver.
using FastBuild = bool (*)(const ik::internal::FastInput&, ik::internal::FastOutput*);

void ExpectFastBuildReaches(FastBuild solve, uint32_t seed) {
  std::mt19937 rng(seed);
  int solved = 0;
  for (int i = 0; i < kRandomChains; ++i) {
    const ChainRig rig = RandomChainRig(rng);
    const auto& m = rig.models;
    const float len = rig.upper + rig.lower;
    const glm::vec3 t =
        iktest::TargetAt(rng, Position(m, 1), RandomTargetDistance(rng, rig.upper, rig.lower));
    const ik::internal::FastInput in{
        &m[1][0][0], &m[2][0][0], &m[3][0][0], &t.x, nullptr, 1e-5f, ik::internal::kReachLimitFuzz};
    ik::internal::FastOutput out;
    if (!solve(in, &out)) continue;  // the general path's business
    ++solved;
    ik::TwoBoneIkResult r;
    r.start_correction = glm::quat(out.start_correction[3], out.start_correction[0],
                                   out.start_correction[1], out.start_correction[2]);
    r.mid_correction = glm::quat(out.mid_correction[3], out.mid_correction[0],
                                 out.mid_correction[1], out.mid_correction[2]);
    ChainRig applied = rig;
    iktest::ApplyCorrections(r, &applied);
    const glm::vec3 c_final(out.c_final[0], out.c_final[1], out.c_final[2]);
    ASSERT_LE(glm::length(Position(applied.models, 3) - c_final), kTol * len) << i;
    if (out.solve_case == static_cast<int>(ik::TwoBoneCase::kReachable)) {
      ASSERT_LE(glm::length(Position(applied.models, 3) - t), kTol * len) << i;
    }
    ASSERT_NEAR(glm::length(Position(applied.models, 2) - Position(m, 1)), rig.upper, kTol * len);
  }
  EXPECT_GT(solved, kRandomChains * 9 / 10);
}

TEST(TwoBoneIk, RandomChainsFastPathSse2BuildReaches) {
  ExpectFastBuildReaches(ik::internal::SolveFastSse2, 75);
}

TEST(TwoBoneIk, RandomChainsFastPathAvx2BuildReaches) {
  if (!ik::CpuHasAvx2Fma()) GTEST_SKIP() << "this CPU has no AVX2 + FMA: the AVX2 build cannot run";
  ExpectFastBuildReaches(ik::internal::SolveFastAvx2, 76);
}

TEST(TwoBoneIk, RandomChainsTooFarExtendColinearTowardTheTarget) {
  std::mt19937 rng(77);
  int checked = 0;
  for (int i = 0; i < kRandomChains; ++i) {
    const Solved s = SolveRandom(rng);
    if (s.result.solve_case != ik::TwoBoneCase::kTooFar) continue;
    ++checked;
    const float len = s.length();
    const glm::vec3 dir = glm::normalize(s.t - s.a);
    ASSERT_LE(glm::length(s.b_after - (s.a + s.rig.upper * dir)), kTol * len) << "chain " << i;
    ASSERT_LE(glm::length(s.c_after - (s.a + len * dir)), kTol * len) << "chain " << i;
    ASSERT_NEAR(s.result.error, glm::length(s.t - s.a) - len, kTol * len);
  }
  EXPECT_GT(checked, kRandomChains / 10);
}

TEST(TwoBoneIk, RandomChainsTooCloseFoldTheLongerBoneTowardTheTarget) {
  std::mt19937 rng(78);
  int checked = 0;
  for (int i = 0; i < kRandomChains; ++i) {
    const Solved s = SolveRandom(rng);
    if (s.result.solve_case != ik::TwoBoneCase::kTooClose) continue;
    if (glm::length(s.t - s.a) < 1e-3f * s.length()) continue;  // direction ill defined
    ++checked;
    const float len = s.length();
    const glm::vec3 dir = glm::normalize(s.t - s.a);
    const float sign = s.rig.upper >= s.rig.lower ? 1.0f : -1.0f;
    ASSERT_LE(glm::length(s.b_after - (s.a + sign * s.rig.upper * dir)), kTol * len)
        << "chain " << i;
    ASSERT_LE(glm::length(s.c_after - (s.a + std::abs(s.rig.upper - s.rig.lower) * dir)),
              kTol * len)
        << "chain " << i;
  }
  EXPECT_GT(checked, kRandomChains / 10);
}

TEST(TwoBoneIk, RandomChainsPutTheKneeAtTheCirclePointNearestTheCurrentKnee) {
  std::mt19937 rng(79);
  int exact = 0;
  for (int i = 0; i < kRandomChains; ++i) {
    const Solved s = SolveRandom(rng);
    if (s.result.solve_case != ik::TwoBoneCase::kReachable) continue;
    glm::dvec3 nearest;
    const bool well_conditioned = NearestCirclePoint(s, s.b, &nearest);
    const double len = static_cast<double>(s.length());
    if (well_conditioned) {
      ++exact;
      ASSERT_LE(glm::length(glm::dvec3(s.b_after) - nearest), 2e-5 * len) << "chain " << i;
    }
    // Always: no circle point is nearer the old knee than the new knee (up to tolerance).
    ASSERT_LE(glm::length(glm::dvec3(s.b_after) - glm::dvec3(s.b)),
              glm::length(nearest - glm::dvec3(s.b)) + 2e-5 * len)
        << "chain " << i;
    // The reported circle is that circle.
    const float lenf = s.length();
    ASSERT_LE(std::abs(glm::dot(s.b_after - s.result.circle.center, s.result.circle.normal)),
              kTol * lenf);
    ASSERT_NEAR(glm::length(s.b_after - s.result.circle.center), s.result.circle.radius,
                2 * kTol * lenf);
  }
  EXPECT_GT(exact, kRandomChains / 3);
}

TEST(TwoBoneIk, RandomChainsWithPolePutTheKneeAtTheCirclePointNearestThePole) {
  std::mt19937 rng(80);
  int exact = 0;
  for (int i = 0; i < kRandomChains; ++i) {
    ChainRig rig = RandomChainRig(rng);
    const glm::vec3 a = Position(rig.models, 1);
    const glm::vec3 pole = a + iktest::RandomUnit(rng) * Uniform(rng, 0.1f, 3.0f);
    ik::TwoBoneIkOptions options;
    options.pole_model = pole;
    Solved s;
    s.rig = rig;
    s.a = a;
    s.b = Position(rig.models, 2);
    s.c = Position(rig.models, 3);
    s.t = iktest::TargetAt(rng, a,
                           Uniform(rng, std::abs(rig.upper - rig.lower), rig.upper + rig.lower));
    s.result = ik::SolveTwoBoneIk(rig.models[1], rig.models[2], rig.models[3], s.t, options);
    iktest::ApplyCorrections(s.result, &s.rig);
    s.b_after = Position(s.rig.models, 2);
    s.c_after = Position(s.rig.models, 3);
    ASSERT_LE(glm::length(s.c_after - s.t), kTol * s.length()) << "chain " << i;
    glm::dvec3 nearest;
    if (NearestCirclePoint(s, pole, &nearest)) {
      ++exact;
      ASSERT_LE(glm::length(glm::dvec3(s.b_after) - nearest),
                2e-5 * static_cast<double>(s.length()))
          << "chain " << i;
    }
  }
  EXPECT_GT(exact, kRandomChains / 2);
}

// --- Degenerate and bad input ---------------------------------------------------------------

// A straight or bent leg along -y from the origin: start at 0, knee at (0, -upper, 0) (or tilted
// by `knee_tilt`, keeping the upper length), end `lower` below the knee. Identity rotations.
struct Leg {
  glm::mat4 start{1.0f}, mid{1.0f}, end{1.0f};
};

Leg MakeLeg(float upper, float lower, glm::vec3 knee_tilt = glm::vec3(0.0f)) {
  Leg leg;
  leg.mid[3] = glm::vec4(upper * glm::normalize(glm::vec3(0.0f, -1.0f, 0.0f) + knee_tilt), 1.0f);
  leg.end[3] = glm::vec4(glm::vec3(leg.mid[3]) + glm::vec3(0.0f, -lower, 0.0f), 1.0f);
  return leg;
}

void ExpectAllFinite(const ik::TwoBoneIkResult& r) {
  EXPECT_TRUE(ik::IsFinite(r.start_correction));
  EXPECT_TRUE(ik::IsFinite(r.mid_correction));
  EXPECT_TRUE(ik::IsFinite(r.a) && ik::IsFinite(r.b_before) && ik::IsFinite(r.c_before));
  EXPECT_TRUE(ik::IsFinite(r.b_final) && ik::IsFinite(r.c_final) && ik::IsFinite(r.target));
  EXPECT_TRUE(ik::IsFinite(r.circle.center) && ik::IsFinite(r.circle.normal));
  EXPECT_TRUE(std::isfinite(r.circle.radius) && std::isfinite(r.error));
  EXPECT_NEAR(glm::length(r.start_correction), 1.0f, 1e-5f);
  EXPECT_NEAR(glm::length(r.mid_correction), 1.0f, 1e-5f);
}

// Positions a result's corrections give for a leg built by MakeLeg (identity rotations).
void ApplyToLeg(const Leg& leg, const ik::TwoBoneIkResult& r, glm::vec3* b, glm::vec3* c) {
  const glm::mat4 start = leg.start * glm::mat4_cast(r.start_correction);
  const glm::mat4 mid_local = glm::inverse(leg.start) * leg.mid;
  const glm::mat4 mid = start * mid_local * glm::mat4_cast(r.mid_correction);
  const glm::mat4 end_local = glm::inverse(leg.mid) * leg.end;
  *b = glm::vec3(mid[3]);
  *c = glm::vec3((mid * end_local)[3]);
}

TEST(TwoBoneIkDegenerate, TargetAtRootWithEqualBonesFoldsCompletelyKeepingTheKnee) {
  const Leg leg = MakeLeg(0.4f, 0.4f, glm::vec3(0.0f, 0.0f, 0.1f));
  const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(0.0f));
  ExpectAllFinite(r);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kReachable);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kTargetAtRoot);
  glm::vec3 b, c;
  ApplyToLeg(leg, r, &b, &c);
  EXPECT_LE(glm::length(c), 1e-5f);
  EXPECT_LE(glm::length(b - glm::vec3(leg.mid[3])), 1e-5f);  // the knee did not move
}

TEST(TwoBoneIkDegenerate, TargetAtRootWithUnequalBonesIsTooCloseAndKeepsTheUpperBone) {
  const Leg leg = MakeLeg(0.5f, 0.3f, glm::vec3(0.0f, 0.0f, 0.1f));
  const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(0.0f));
  ExpectAllFinite(r);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kTooClose);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kTargetAtRoot);
  glm::vec3 b, c;
  ApplyToLeg(leg, r, &b, &c);
  EXPECT_LE(glm::length(b - glm::vec3(leg.mid[3])), 1e-5f);
  EXPECT_NEAR(glm::length(c), 0.2f, 1e-5f);  // as close as the bones allow
  EXPECT_NEAR(r.error, 0.2f, 1e-5f);
}

TEST(TwoBoneIkDegenerate, ZeroLengthUpperBoneSolvesTheLowerBoneAlone) {
  Leg leg = MakeLeg(0.0f, 0.4f);
  const glm::vec3 target(0.3f, 0.0f, 0.0f);
  const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target);
  ExpectAllFinite(r);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kZeroLengthBone);
  glm::vec3 b, c;
  ApplyToLeg(leg, r, &b, &c);
  EXPECT_LE(glm::length(b), 1e-6f);
  // Best possible: the lower bone points at the target.
  EXPECT_LE(glm::length(c - glm::vec3(0.4f, 0.0f, 0.0f)), 1e-5f);
}

TEST(TwoBoneIkDegenerate, ZeroLengthLowerBonePointsTheUpperBoneAtTheTarget) {
  const Leg leg = MakeLeg(0.4f, 0.0f);
  const glm::vec3 target(0.0f, 0.0f, 1.0f);
  const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target);
  ExpectAllFinite(r);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kZeroLengthBone);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kTooFar);
  glm::vec3 b, c;
  ApplyToLeg(leg, r, &b, &c);
  EXPECT_LE(glm::length(b - glm::vec3(0.0f, 0.0f, 0.4f)), 1e-5f);
  EXPECT_LE(glm::length(c - b), 1e-6f);
}

TEST(TwoBoneIkDegenerate, BothBonesZeroLengthMoveNothingAndStayFinite) {
  const Leg leg = MakeLeg(0.0f, 0.0f);
  const ik::TwoBoneIkResult r =
      ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(1.0f, 2.0f, 3.0f));
  ExpectAllFinite(r);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kZeroLengthBone);
  EXPECT_EQ(r.start_correction, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  EXPECT_EQ(r.mid_correction, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
}

TEST(TwoBoneIkDegenerate, StraightChainBendsTheKneeTowardTheBendAxisSide) {
  // Straight leg down -y; bend axis +x in the mid frame means the knee goes to ŝ × x = +z... with
  // ŝ = -y: (-y) × x = +z.
  const Leg leg = MakeLeg(0.45f, 0.42f);
  ik::TwoBoneIkOptions options;
  options.bend_axis_local = glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 target(0.0f, -0.6f, 0.0f);
  const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target, options);
  ExpectAllFinite(r);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kReachable);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kColinearChain);
  glm::vec3 b, c;
  ApplyToLeg(leg, r, &b, &c);
  EXPECT_LE(glm::length(c - target), 1e-5f);
  EXPECT_GT(b.z, 0.1f);  // bent forward, not sideways or backward
  EXPECT_NEAR(b.x, 0.0f, 1e-5f);
  EXPECT_GT(glm::dot(glm::cross(b, c - b), glm::vec3(1.0f, 0.0f, 0.0f)), 0.0f);
}

TEST(TwoBoneIkDegenerate, StraightChainWithoutBendAxisStillReaches) {
  const Leg leg = MakeLeg(0.45f, 0.42f);
  const glm::vec3 target(0.0f, -0.3f, 0.0f);
  const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target);
  ExpectAllFinite(r);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kColinearChain);
  glm::vec3 b, c;
  ApplyToLeg(leg, r, &b, &c);
  EXPECT_LE(glm::length(c - target), 1e-5f);
  EXPECT_NEAR(glm::length(b), 0.45f, 1e-5f);
  EXPECT_NEAR(glm::length(c - b), 0.42f, 1e-5f);
}

TEST(TwoBoneIkDegenerate, PoleOnTheStartTargetLineFallsBackToTheCurrentKnee) {
  const Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.05f));
  const glm::vec3 target(0.0f, -0.7f, 0.0f);
  ik::TwoBoneIkOptions options;
  options.pole_model = glm::vec3(0.0f, -2.0f, 0.0f);  // on the line through a and t
  const ik::TwoBoneIkResult with_pole =
      ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target, options);
  const ik::TwoBoneIkResult without = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target);
  ExpectAllFinite(with_pole);
  EXPECT_EQ(with_pole.fallback, ik::TwoBoneFallback::kPoleColinear);
  EXPECT_LE(glm::length(with_pole.b_final - without.b_final), 1e-6f);
  EXPECT_GT(with_pole.b_final.z, 0.0f);
}

TEST(TwoBoneIkDegenerate, TargetStraightBehindTurnsTheLimb180DegreesAboutTheBendAxis) {
  // Straight leg down -y, target far above: the upper bone must turn by exactly 180°.
  const Leg leg = MakeLeg(0.45f, 0.42f);
  ik::TwoBoneIkOptions options;
  options.bend_axis_local = glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 target(0.0f, 2.0f, 0.0f);
  const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target, options);
  ExpectAllFinite(r);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kTooFar);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kAntiparallel);
  EXPECT_NEAR(r.start_correction.w, 0.0f, 1e-6f);            // a half turn, not the identity
  EXPECT_NEAR(std::abs(r.start_correction.x), 1.0f, 1e-6f);  // about the bend axis
  glm::vec3 b, c;
  ApplyToLeg(leg, r, &b, &c);
  EXPECT_LE(glm::length(b - glm::vec3(0.0f, 0.45f, 0.0f)), 1e-5f);
  EXPECT_LE(glm::length(c - glm::vec3(0.0f, 0.87f, 0.0f)), 1e-5f);
}

TEST(TwoBoneIkDegenerate, NonFiniteTargetsAreDegenerateWithIdentityCorrections) {
  const Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.1f));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const glm::vec3& target : {glm::vec3(nan, 0, 0), glm::vec3(0, inf, 0), glm::vec3(0, 0, -inf),
                                  glm::vec3(nan, nan, nan)}) {
    const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target);
    ExpectAllFinite(r);
    EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kDegenerate);
    EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kNonFiniteInput);
    EXPECT_FALSE(r.reached);
    EXPECT_EQ(r.start_correction, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    EXPECT_EQ(r.mid_correction, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  }
}

TEST(TwoBoneIkDegenerate, NonFiniteJointMatricesAreDegenerate) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (int which = 0; which < 3; ++which) {
    for (float bad : {nan, inf}) {
      Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.1f));
      glm::mat4* m = which == 0 ? &leg.start : which == 1 ? &leg.mid : &leg.end;
      (*m)[which == 2 ? 3 : 1][0] = bad;
      const ik::TwoBoneIkResult r =
          ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(0.1f, -0.5f, 0.2f));
      ExpectAllFinite(r);
      EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kDegenerate) << which;
      EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kNonFiniteInput) << which;
    }
  }
}

TEST(TwoBoneIkDegenerate, TargetsWhoseDistanceOverflowsFloatAreOutOfRangeNotNaN) {
  Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.1f));
  const ik::TwoBoneIkResult r =
      ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(3e38f, -3e38f, 3e38f));
  ExpectAllFinite(r);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kDegenerate);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kOutOfRange);
  EXPECT_FALSE(r.reached);
  EXPECT_STREQ(ik::FallbackName(ik::TwoBoneFallback::kOutOfRange), "out_of_range");
}

TEST(TwoBoneIkDegenerate, SingularStartFrameIsDegenerate) {
  Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.1f));
  leg.start[2] = glm::vec4(0.0f);  // zero z scale
  const ik::TwoBoneIkResult r =
      ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(0.1f, -0.5f, 0.2f));
  ExpectAllFinite(r);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kDegenerate);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kSingularFrame);
}

TEST(TwoBoneIkDegenerate, InvalidOptionsAreRejectedWithAReason) {
  const Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.1f));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<ik::TwoBoneIkOptions> bad(21);
  bad[0].pole_model = glm::vec3(nan, 0, 0);
  bad[1].weight = 1.5f;
  bad[2].weight = nan;
  bad[3].soft = -0.1f;
  bad[4].hinge_min_angle = 1.0f;
  bad[4].hinge_max_angle = 0.5f;
  bad[5].epsilon = 0.0f;
  bad[6].bend_axis_local = glm::vec3(0.0f);
  // The same checks where nothing else would leave the fast path.
  bad[7].pole_model = glm::vec3(0, inf, 0);
  bad[8].pole_model = glm::vec3(0, 0, -inf);
  bad[9].bend_axis_local = glm::vec3(1, nan, 0);
  bad[10].bend_axis_local = glm::vec3(0, 0, inf);
  bad[11].hinge_min_angle = -0.1f;
  bad[12].hinge_max_angle = 3.2f;
  bad[13].hinge_min_angle = nan;
  bad[14].hinge_max_angle = nan;
  bad[15].hinge_min_angle = inf;
  bad[15].hinge_max_angle = inf;
  bad[16].epsilon = 0.2f;
  bad[17].epsilon = nan;
  bad[18].epsilon = -1e-5f;
  bad[19].end_orientation = static_cast<ik::EndOrientation>(7);
  bad[20].end_orientation = static_cast<ik::EndOrientation>(-1);
  for (size_t i = 0; i < bad.size(); ++i) {
    std::string why;
    EXPECT_FALSE(bad[i].Validate(&why)) << i;
    EXPECT_FALSE(why.empty()) << i;
    const ik::TwoBoneIkResult r =
        ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(0.1f, -0.5f, 0.2f), bad[i]);
    ExpectAllFinite(r);
    EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kDegenerate) << i;
    EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kInvalidOptions) << i;
  }
  EXPECT_TRUE(ik::TwoBoneIkOptions{}.Validate());
  // Valid options of every kind still solve.
  ik::TwoBoneIkOptions good;
  good.pole_model = glm::vec3(1.0f, -0.5f, 2.0f);
  good.bend_axis_local = glm::vec3(1.0f, 0.0f, 0.0f);
  good.hinge_min_angle = 0.1f;
  good.hinge_max_angle = ik::kPi;
  good.epsilon = 0.1f;
  good.end_orientation = ik::EndOrientation::kTarget;
  EXPECT_TRUE(good.Validate());
  const ik::TwoBoneIkResult r =
      ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(0.1f, -0.5f, 0.2f), good);
  EXPECT_TRUE(r.reached);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kNone);
}

TEST(TwoBoneIkDegenerate, NearlyAntiparallelTurnsStayAccurate) {
  // Targets a hair off straight behind the leg: the minimal rotation is close to 180°, where the
  // direct quaternion formula loses precision.
  const Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 1e-3f));
  for (float off : {1e-2f, 1e-3f, 1e-4f, 1e-5f, 1e-6f}) {
    const glm::vec3 target(off, 0.6f, 0.0f);
    const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target);
    ExpectAllFinite(r);
    glm::vec3 b, c;
    ApplyToLeg(leg, r, &b, &c);
    EXPECT_LE(glm::length(c - target), 1e-5f) << off;
    EXPECT_LE(glm::length(b - r.b_final), 1e-5f) << off;
  }
}

// --- The knee circle -------------------------------------------------------------------------

// A chain with identity frames at positions a, b, c.
Leg LegAt(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  Leg leg;
  leg.start[3] = glm::vec4(a, 1.0f);
  leg.mid[3] = glm::vec4(b, 1.0f);
  leg.end[3] = glm::vec4(c, 1.0f);
  return leg;
}

TEST(TwoBoneKneeCircle, IsTheSeedsCircle) {
  const glm::vec3 a(0.0f), b(0.0f, -0.45f, 0.1f), c(0.0f, -0.87f, 0.1f);
  const glm::vec3 t(0.0f, -0.6f, 0.0f);
  const Leg leg = LegAt(a, b, c);
  const ik::TwoBoneIkResult p = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, t);
  const float l_ab = glm::length(b - a), l_bc = glm::length(c - b);
  EXPECT_EQ(p.solve_case, ik::TwoBoneCase::kReachable);
  // Law of cosines, as in the seed: cos θ = (ℓ_bc² - ℓ_ab² - d²) / (-2 ℓ_ab d).
  const float d = 0.6f;
  const float cos_theta = (l_bc * l_bc - l_ab * l_ab - d * d) / (-2.0f * l_ab * d);
  EXPECT_NEAR(p.circle.radius, l_ab * std::sqrt(1.0f - cos_theta * cos_theta), 1e-5f);
  EXPECT_LE(glm::length(p.circle.center - glm::vec3(0.0f, -l_ab * cos_theta, 0.0f)), 1e-5f);
  EXPECT_LE(glm::length(p.circle.normal - glm::vec3(0.0f, -1.0f, 0.0f)), 1e-6f);
  EXPECT_LE(glm::length(p.c_final - t), 1e-6f);
  EXPECT_NEAR(glm::length(p.b_final - a), l_ab, 1e-5f);
  EXPECT_NEAR(glm::length(p.c_final - p.b_final), l_bc, 1e-5f);
  EXPECT_GT(p.b_final.z, 0.0f);  // stays on the knee's side
  EXPECT_NEAR(p.reach_max, l_ab + l_bc, 1e-6f);
  EXPECT_NEAR(p.reach_min, std::abs(l_ab - l_bc), 1e-6f);
}

TEST(TwoBoneKneeCircle, AtTheReachLimitTheRadiusIsZeroNotNaN) {
  // Lengths and a target distance whose float sum rounds past ℓ_ab + ℓ_bc.
  std::mt19937 rng(5);
  for (int i = 0; i < 10000; ++i) {
    const float l_ab = Uniform(rng, 0.1f, 1.0f), l_bc = Uniform(rng, 0.1f, 1.0f);
    const glm::vec3 dir = iktest::RandomUnit(rng);
    const glm::vec3 a = dir * Uniform(rng, -1.0f, 1.0f);
    const glm::vec3 b = a + glm::vec3(l_ab, 0, 0), c = b + glm::vec3(0, l_bc, 0);
    const float d = (i % 2 ? l_ab + l_bc : std::abs(l_ab - l_bc));
    const Leg leg = LegAt(a, b, c);
    const ik::TwoBoneIkResult p = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, a + d * dir);
    ASSERT_TRUE(std::isfinite(p.circle.radius)) << i;
    ASSERT_TRUE(ik::IsFinite(p.b_final)) << i;
    ASSERT_LE(p.circle.radius, std::min(l_ab, l_bc) * 1.00001f) << i;
    ASSERT_NEAR(glm::length(p.b_final - a), l_ab, 1e-5f) << i;
    ASSERT_NEAR(glm::length(p.c_final - p.b_final), l_bc, 1e-5f) << i;
  }
}

// --- Options ----------------------------------------------------------------------------------

TEST(TwoBoneIkOptions, WeightZeroChangesNothingAndHalfIsHalfTheTurn) {
  std::mt19937 rng(11);
  for (int i = 0; i < 1000; ++i) {
    ChainRig rig = RandomChainRig(rng);
    const auto& m = rig.models;
    const glm::vec3 t = iktest::TargetAt(rng, Position(m, 1), rig.upper + rig.lower * 0.5f);
    ik::TwoBoneIkOptions options;
    const ik::TwoBoneIkResult full = ik::SolveTwoBoneIk(m[1], m[2], m[3], t, options);
    options.weight = 0.0f;
    const ik::TwoBoneIkResult none = ik::SolveTwoBoneIk(m[1], m[2], m[3], t, options);
    options.weight = 0.5f;
    const ik::TwoBoneIkResult half = ik::SolveTwoBoneIk(m[1], m[2], m[3], t, options);
    EXPECT_EQ(none.start_correction, glm::quat(1, 0, 0, 0));
    EXPECT_EQ(none.mid_correction, glm::quat(1, 0, 0, 0));
    EXPECT_LE(glm::length(none.c_final - Position(m, 3)), 1e-5f);
    EXPECT_FALSE(half.reached);
    // nlerp at one half is the half-angle rotation about the same axis.
    const float full_angle = 2.0f * std::acos(std::min(1.0f, std::abs(full.start_correction.w)));
    const float half_angle = 2.0f * std::acos(std::min(1.0f, std::abs(half.start_correction.w)));
    EXPECT_NEAR(half_angle, 0.5f * full_angle, 1e-3f);
    // The weighted report matches forward kinematics of the weighted corrections.
    ChainRig applied = rig;
    iktest::ApplyCorrections(half, &applied);
    EXPECT_LE(glm::length(Position(applied.models, 3) - half.c_final), 1e-5f);
    EXPECT_LE(glm::length(Position(applied.models, 2) - half.b_final), 1e-5f);
  }
}

TEST(TwoBoneIkOptions, SoftIkIsExactInsideTheSoftZoneAndEasesBeyond) {
  const Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.1f));
  const float len = glm::length(glm::vec3(leg.mid[3])) + 0.42f;
  ik::TwoBoneIkOptions soft;
  soft.soft = 0.1f;
  // Inside (1 - soft)·L: unchanged.
  const glm::vec3 inside(0.0f, -0.85f * len, 0.0f);
  const auto a = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, inside);
  const auto b = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, inside, soft);
  EXPECT_LE(glm::length(a.c_final - b.c_final), 1e-6f);
  EXPECT_TRUE(b.reached);
  EXPECT_FALSE(b.softened);
  // Beyond: the end stays short of full extension, approaches it, and never overshoots.
  float previous = 0.0f;
  for (float f = 0.9f; f < 2.0f; f += 0.01f) {
    const glm::vec3 t(0.0f, -f * len, 0.0f);
    const auto r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, t, soft);
    const float reach = glm::length(r.c_final);
    EXPECT_LT(reach, len);
    EXPECT_GE(reach, previous - 1e-6f);
    previous = reach;
    if (f > 0.905f) {
      EXPECT_TRUE(r.softened);
    }
  }
  EXPECT_GT(previous, 0.99f * len);
}

TEST(TwoBoneIkOptions, SoftIkKeepsTheKneeFromPoppingAtTheReachLimit) {
  // Sweep the target through the reach limit in small steps and watch the knee's speed.
  const Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.05f));
  const float len = glm::length(glm::vec3(leg.mid[3])) + 0.42f;
  auto max_knee_speed = [&](const ik::TwoBoneIkOptions& options) {
    const float step = 1e-4f * len;
    float worst = 0.0f;
    glm::vec3 previous =
        ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(0, -0.95f * len, 0), options)
            .b_final;
    for (float d = 0.95f * len + step; d < 1.05f * len; d += step) {
      const glm::vec3 knee =
          ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, glm::vec3(0, -d, 0), options).b_final;
      worst = std::max(worst, glm::length(knee - previous) / step);
      previous = knee;
    }
    return worst;
  };
  ik::TwoBoneIkOptions soft;
  soft.soft = 0.05f;
  const float hard_speed = max_knee_speed({});
  const float soft_speed = max_knee_speed(soft);
  EXPECT_GT(hard_speed, 10.0f);  // the knee snaps straight in the last step before the limit
  EXPECT_LT(soft_speed, 5.0f);
}

// A random rig whose bones are both perpendicular to the mid joint's local x axis, so a hinge
// about x is exactly satisfiable. `backwards` bends the rest knee the wrong way.
struct HingeRig {
  ChainRig rig;
  glm::vec3 axis_local{1.0f, 0.0f, 0.0f};
};

HingeRig RandomHingeRig(std::mt19937& rng, bool backwards) {
  HingeRig h;
  ik::Transform root;
  root.translation = iktest::RandomUnit(rng);
  root.rotation = iktest::RandomRotation(rng);
  root.scale = glm::vec3(Uniform(rng, 0.5f, 2.0f));
  ik::Transform start;
  start.rotation = iktest::RandomRotation(rng);
  const float upper = Uniform(rng, 0.2f, 1.0f), lower = Uniform(rng, 0.2f, 1.0f);
  const float bend = Uniform(rng, 0.1f, 2.5f) * (backwards ? -1.0f : 1.0f);
  // Mid frame: upper bone arrives along -y (so, in the mid frame, p = -y direction reversed: the
  // mid sits at +(-y)·upper from start in the mid's own axes), lower bone bent about x.
  ik::Transform mid;
  mid.rotation = iktest::RandomRotation(rng);
  mid.translation = mid.rotation * glm::vec3(0.0f, -upper, 0.0f);
  ik::Transform end;
  end.translation = glm::angleAxis(bend, glm::vec3(1, 0, 0)) * glm::vec3(0.0f, -lower, 0.0f);
  h.rig.skeleton = iktest::MustBuild(
      {{"root", -1, root, {}}, {"start", 0, start, {}}, {"mid", 1, mid, {}}, {"end", 2, end, {}}});
  h.rig.pose = ik::Pose::Rest(h.rig.skeleton);
  ik::LocalToModel(h.rig.skeleton, h.rig.pose, &h.rig.models);
  h.rig.upper = glm::length(Position(h.rig.models, 2) - Position(h.rig.models, 1));
  h.rig.lower = glm::length(Position(h.rig.models, 3) - Position(h.rig.models, 2));
  return h;
}

// Signed bend of the chain about the mid joint's axis, in model space.
float SignedBend(const ChainRig& rig, const glm::vec3& axis_local) {
  const glm::vec3 a = Position(rig.models, 1), b = Position(rig.models, 2),
                  c = Position(rig.models, 3);
  const glm::vec3 axis = glm::normalize(glm::mat3(rig.models[2]) * axis_local);
  const glm::vec3 u = glm::normalize(b - a), v = glm::normalize(c - b);
  return std::atan2(glm::dot(glm::cross(u, v), axis), glm::dot(u, v));
}

TEST(TwoBoneIkOptions, HingeBendsOnlyAboutItsAxisOneWayWithinLimits) {
  std::mt19937 rng(12);
  ik::TwoBoneIkOptions options;
  options.hinge = true;
  options.bend_axis_local = glm::vec3(1.0f, 0.0f, 0.0f);
  options.hinge_min_angle = 0.05f;
  options.hinge_max_angle = 2.6f;
  int reached = 0;
  for (int i = 0; i < 20000; ++i) {
    HingeRig h = RandomHingeRig(rng, i % 4 == 0);
    ChainRig& rig = h.rig;
    const glm::vec3 a = Position(rig.models, 1);
    const glm::vec3 t =
        iktest::TargetAt(rng, a, Uniform(rng, 0.0f, 1.3f) * (rig.upper + rig.lower));
    const ik::TwoBoneIkResult r =
        ik::SolveTwoBoneIk(rig.models[1], rig.models[2], rig.models[3], t, options);
    ASSERT_NE(r.solve_case, ik::TwoBoneCase::kDegenerate);
    // The mid correction turns about the hinge axis only.
    const glm::vec3 turn_axis(r.mid_correction.x, r.mid_correction.y, r.mid_correction.z);
    ASSERT_LE(glm::length(glm::cross(turn_axis, glm::vec3(1, 0, 0))), 1e-5f) << i;
    iktest::ApplyCorrections(r, &rig);
    // One way and within the limits (never backwards, never hyperextended).
    const float bend = SignedBend(rig, glm::vec3(1, 0, 0));
    ASSERT_GE(bend, options.hinge_min_angle - 1e-3f) << i;
    ASSERT_LE(bend, options.hinge_max_angle + 1e-3f) << i;
    const float len = rig.upper + rig.lower;
    ASSERT_NEAR(glm::length(Position(rig.models, 2) - a), rig.upper, kTol * len);
    ASSERT_NEAR(glm::length(Position(rig.models, 3) - Position(rig.models, 2)), rig.lower,
                kTol * len);
    ASSERT_LE(glm::length(Position(rig.models, 3) - r.c_final), kTol * len) << i;
    if (r.reached) {
      ++reached;
      ASSERT_LE(glm::length(Position(rig.models, 3) - t), kTol * len) << i;
    } else {
      // Not reached: the end is on the target's line at the nearest distance the limits allow.
      const float d = glm::length(t - a);
      const float expected = std::min(std::max(d, r.reach_min), r.reach_max);
      ASSERT_NEAR(glm::length(Position(rig.models, 3) - a), expected, kTol * len) << i;
    }
  }
  EXPECT_GT(reached, 8000);
}

TEST(TwoBoneIkOptions, HingeWithPolePutsTheKneeNearestThePole) {
  std::mt19937 rng(13);
  ik::TwoBoneIkOptions options;
  options.hinge = true;
  options.bend_axis_local = glm::vec3(1.0f, 0.0f, 0.0f);
  for (int i = 0; i < 5000; ++i) {
    HingeRig h = RandomHingeRig(rng, false);
    ChainRig& rig = h.rig;
    const glm::vec3 a = Position(rig.models, 1);
    const float len = rig.upper + rig.lower;
    const glm::vec3 t = iktest::TargetAt(
        rng, a, Uniform(rng, std::abs(rig.upper - rig.lower) + 0.05f * len, 0.95f * len));
    const glm::vec3 pole = a + iktest::RandomUnit(rng) * len;
    options.pole_model = pole;
    const ik::TwoBoneIkResult r =
        ik::SolveTwoBoneIk(rig.models[1], rig.models[2], rig.models[3], t, options);
    Solved s;
    s.rig = rig;
    s.a = a;
    s.t = t;
    iktest::ApplyCorrections(r, &rig);
    ASSERT_LE(glm::length(Position(rig.models, 3) - t), kTol * len) << i;
    glm::dvec3 nearest;
    if (NearestCirclePoint(s, pole, &nearest)) {
      ASSERT_LE(glm::length(glm::dvec3(Position(rig.models, 2)) - nearest),
                2e-5 * static_cast<double>(len))
          << i;
    }
    ASSERT_GT(SignedBend(rig, glm::vec3(1, 0, 0)), 0.0f) << i;
  }
}

TEST(TwoBoneIkOptions, HingeWithoutAnyAxisFallsBackToTheSeedSolve) {
  const Leg leg = MakeLeg(0.45f, 0.42f);  // straight: no current bend to take an axis from
  ik::TwoBoneIkOptions options;
  options.hinge = true;
  const glm::vec3 target(0.1f, -0.6f, 0.0f);
  const auto r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target, options);
  ExpectAllFinite(r);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kHingeAxisUnusable);
  EXPECT_TRUE(r.reached);
}

// --- Pose level ---------------------------------------------------------------------------------

ChainRig TwistRig(std::mt19937& rng) {
  // root -> start -> twist_a -> mid -> twist_b -> end, with twist joints along the bones.
  ChainRig rig;
  ik::Transform root, start, twist_a, mid, twist_b, end;
  root.rotation = iktest::RandomRotation(rng);
  start.translation = glm::vec3(0.1f, 1.0f, 0.0f);
  start.rotation = iktest::RandomRotation(rng);
  twist_a.translation = glm::vec3(0.0f, -0.2f, 0.0f);
  twist_a.rotation = glm::angleAxis(0.7f, glm::vec3(0, 1, 0));
  mid.translation = glm::vec3(0.0f, -0.25f, 0.02f);
  mid.rotation = glm::angleAxis(0.4f, glm::vec3(1, 0, 0));
  twist_b.translation = glm::vec3(0.0f, -0.2f, 0.0f);
  twist_b.rotation = glm::angleAxis(-0.5f, glm::vec3(0, 1, 0));
  end.translation = glm::vec3(0.0f, -0.22f, 0.0f);
  end.rotation = iktest::RandomRotation(rng);
  rig.skeleton = iktest::MustBuild({{"root", -1, root, {}},
                                    {"start", 0, start, {}},
                                    {"twist_a", 1, twist_a, {}},
                                    {"mid", 2, mid, {}},
                                    {"twist_b", 3, twist_b, {}},
                                    {"end", 4, end, {}},
                                    {"toe", 5, ik::Transform{glm::vec3(0, 0, 0.1f)}, {}}});
  rig.chain = {1, 3, 5};
  rig.pose = ik::Pose::Rest(rig.skeleton);
  ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
  rig.upper = glm::length(Position(rig.models, 3) - Position(rig.models, 1));
  rig.lower = glm::length(Position(rig.models, 5) - Position(rig.models, 3));
  return rig;
}

TEST(TwoBoneIkPose, ChainsWithTwistJointsBetweenReachAndKeepTheTwists) {
  std::mt19937 rng(21);
  for (int i = 0; i < 2000; ++i) {
    ChainRig rig = TwistRig(rng);
    const glm::vec3 a = Position(rig.models, 1);
    const float len = rig.upper + rig.lower;
    const glm::vec3 t = iktest::TargetAt(
        rng, a, Uniform(rng, std::abs(rig.upper - rig.lower) + 0.01f, len - 0.01f));
    const ik::Pose before = rig.pose;
    const auto r =
        ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {t, {}}, {}, &rig.pose, &rig.models);
    ASSERT_TRUE(r.reached) << i;
    ASSERT_LE(r.error, kTol * len) << i;
    ASSERT_LE(glm::length(Position(rig.models, 5) - t), kTol * len) << i;
    ASSERT_NEAR(glm::length(Position(rig.models, 3) - a), rig.upper, kTol * len);
    ASSERT_NEAR(glm::length(Position(rig.models, 5) - Position(rig.models, 3)), rig.lower,
                kTol * len);
    EXPECT_EQ(rig.pose.locals[2].rotation, before.locals[2].rotation);
    EXPECT_EQ(rig.pose.locals[4].rotation, before.locals[4].rotation);
    // models stays consistent with the pose for every joint, including the toe below the end.
    std::vector<glm::mat4> fresh;
    ik::LocalToModel(rig.skeleton, rig.pose, &fresh);
    for (int j = 0; j < rig.skeleton.joint_count(); ++j) {
      ASSERT_LE(glm::length(Position(fresh, j) - Position(rig.models, j)), 1e-5f);
    }
  }
}

// The correction sits between a joint's rotation and its own scale, so a non-uniform scale on the
// mid joint (which stretches only the lower bone) keeps both lengths. (A non-uniform scale on the
// start joint shears the mid joint's frame; no rotation can then keep the lower bone's length.)
TEST(TwoBoneIkPose, NonUniformScaleOnTheMidJointStillReachesAndKeepsLengths) {
  std::mt19937 rng(22);
  for (int i = 0; i < 5000; ++i) {
    ChainRig rig = RandomChainRig(rng, false);
    rig.pose.locals[1].scale = glm::vec3(Uniform(rng, 0.5f, 2.0f));
    rig.pose.locals[2].scale =
        glm::vec3(Uniform(rng, 0.5f, 2.0f), Uniform(rng, 0.5f, 2.0f), Uniform(rng, 0.5f, 2.0f));
    ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
    const glm::vec3 a = Position(rig.models, 1);
    const float upper = glm::length(Position(rig.models, 2) - a);
    const float lower = glm::length(Position(rig.models, 3) - Position(rig.models, 2));
    const float len = upper + lower;
    const glm::vec3 t =
        iktest::TargetAt(rng, a, Uniform(rng, std::abs(upper - lower) + 0.01f * len, 0.99f * len));
    const auto r =
        ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {t, {}}, {}, &rig.pose, &rig.models);
    ASSERT_TRUE(r.reached) << i;
    ASSERT_LE(r.error, kTol * len) << i;
    ASSERT_NEAR(glm::length(Position(rig.models, 2) - a), upper, kTol * len) << i;
    ASSERT_NEAR(glm::length(Position(rig.models, 3) - Position(rig.models, 2)), lower, kTol * len)
        << i;
  }
}

glm::quat ModelRotation(const glm::mat4& m) {
  ik::Transform t;
  EXPECT_TRUE(ik::Transform::FromMatrix(m, &t));
  return t.rotation;
}

float QuatDistance(const glm::quat& a, const glm::quat& b) {
  return 1.0f - std::abs(glm::dot(a, b));
}

TEST(TwoBoneIkPose, EndOrientationKeepModelKeepsTheFootsModelRotation) {
  std::mt19937 rng(23);
  for (int i = 0; i < 1000; ++i) {
    ChainRig rig = RandomChainRig(rng, false);
    const glm::quat before = ModelRotation(rig.models[3]);
    const glm::vec3 a = Position(rig.models, 1);
    const glm::vec3 t = iktest::TargetAt(rng, a, 0.7f * (rig.upper + rig.lower));
    ik::TwoBoneIkOptions options;
    options.end_orientation = ik::EndOrientation::kKeepModel;
    const auto r =
        ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {t, {}}, options, &rig.pose, &rig.models);
    ASSERT_NE(r.solve_case, ik::TwoBoneCase::kDegenerate);
    ASSERT_LE(QuatDistance(ModelRotation(rig.models[3]), before), 1e-6f) << i;
  }
}

TEST(TwoBoneIkPose, EndOrientationTargetTakesTheTargetRotationAndKeepLocalDoesNot) {
  std::mt19937 rng(24);
  for (int i = 0; i < 1000; ++i) {
    ChainRig rig = RandomChainRig(rng, false);
    ChainRig other = rig;
    const glm::vec3 a = Position(rig.models, 1);
    const float reach = 0.5f * (std::abs(rig.upper - rig.lower) + rig.upper + rig.lower);
    const ik::TwoBoneTarget target{iktest::TargetAt(rng, a, reach), iktest::RandomRotation(rng)};
    ik::TwoBoneIkOptions options;
    options.end_orientation = ik::EndOrientation::kTarget;
    const auto r =
        ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, target, options, &rig.pose, &rig.models);
    ASSERT_TRUE(r.reached);
    ASSERT_LE(QuatDistance(ModelRotation(rig.models[3]), *target.rotation), 1e-6f) << i;
    const glm::quat local_before = other.pose.locals[3].rotation;
    ik::SolveTwoBoneIkPose(other.skeleton, other.chain, target, {}, &other.pose, &other.models);
    EXPECT_EQ(other.pose.locals[3].rotation, local_before);
  }
}

TEST(TwoBoneIkPose, EndOrientationTargetWithoutRotationSaysSo) {
  std::mt19937 rng(25);
  ChainRig rig = RandomChainRig(rng, false);
  ik::TwoBoneIkOptions options;
  options.end_orientation = ik::EndOrientation::kTarget;
  const glm::vec3 t = Position(rig.models, 1) + glm::vec3(0.0f, 0.0f, 0.5f * rig.upper);
  const auto r =
      ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {t, {}}, options, &rig.pose, &rig.models);
  EXPECT_NE(r.solve_case, ik::TwoBoneCase::kDegenerate);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kNoTargetRotation);
}

TEST(TwoBoneIkPose, NonFiniteInputLeavesPoseAndModelsUnchanged) {
  std::mt19937 rng(26);
  ChainRig rig = RandomChainRig(rng);
  const ik::Pose pose_before = rig.pose;
  const std::vector<glm::mat4> models_before = rig.models;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {glm::vec3(nan, 0, 0), {}}, {},
                                  &rig.pose, &rig.models);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kDegenerate);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kNonFiniteInput);
  ExpectAllFinite(r);
  // A NaN in the pose's own locals.
  rig.pose.locals[2].rotation.x = nan;
  r = ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {glm::vec3(0.1f), {}}, {}, &rig.pose,
                             &rig.models);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kDegenerate);
  rig.pose.locals[2].rotation = pose_before.locals[2].rotation;
  for (int j = 0; j < rig.skeleton.joint_count(); ++j) {
    EXPECT_EQ(rig.pose.locals[j].rotation, pose_before.locals[j].rotation);
    EXPECT_EQ(rig.models[j], models_before[j]);
  }
}

TEST(TwoBoneIkPose, InvalidChainsAreDegenerateAndExplained) {
  std::mt19937 rng(27);
  ChainRig rig = RandomChainRig(rng);
  auto why_not = [&](const ik::TwoBoneChain& chain) {
    std::string why;
    return chain.Validate(rig.skeleton, &why) ? std::string("valid") : why;
  };
  EXPECT_TRUE(ik::TwoBoneChain({1, 2, 3}).Validate(rig.skeleton));
  EXPECT_EQ(why_not({1, 2, 3}), "valid");
  EXPECT_NE(why_not({2, 1, 3}).find("not a descendant"), std::string::npos);
  EXPECT_NE(why_not({1, 3, 2}).find("not a descendant"), std::string::npos);
  EXPECT_NE(why_not({1, 2, 9}).find("out of range"), std::string::npos);
  EXPECT_NE(why_not({1, 1, 3}).find("not a descendant"), std::string::npos);
  EXPECT_FALSE(ik::TwoBoneChain({1, 1, 3}).Validate(rig.skeleton));  // the reason is optional
  const auto r = ik::SolveTwoBoneIkPose(rig.skeleton, {2, 1, 3}, {glm::vec3(0.0f), {}}, {},
                                        &rig.pose, &rig.models);
  EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kDegenerate);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kInvalidChain);
  std::vector<glm::mat4> wrong_size(2);
  EXPECT_EQ(ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {glm::vec3(0.0f), {}}, {}, &rig.pose,
                                   &wrong_size)
                .fallback,
            ik::TwoBoneFallback::kInvalidChain);
}

TEST(TwoBoneIkPose, ChainFromEndIsGrandparentParentEnd) {
  std::mt19937 rng(28);
  ChainRig rig = RandomChainRig(rng);
  std::string error;
  const auto chain = ik::ChainFromEnd(rig.skeleton, 3, &error);
  ASSERT_TRUE(chain);
  EXPECT_EQ(chain->start, 1);
  EXPECT_EQ(chain->mid, 2);
  EXPECT_EQ(chain->end, 3);
  EXPECT_FALSE(ik::ChainFromEnd(rig.skeleton, 1, &error));
  EXPECT_NE(error.find("'start'"), std::string::npos);
  EXPECT_FALSE(ik::ChainFromEnd(rig.skeleton, 17, &error));
}

TEST(TwoBoneIkPose, DetectBendAxisGivesAPositiveRestBendAndNothingForAStraightRest) {
  std::mt19937 rng(29);
  for (int i = 0; i < 200; ++i) {
    HingeRig h = RandomHingeRig(rng, i % 2 == 1);
    const auto axis = ik::DetectBendAxis(h.rig.skeleton, h.rig.chain);
    ASSERT_TRUE(axis);
    // The rigs bend about the mid joint's x axis, positively or (backwards) negatively.
    EXPECT_NEAR(std::abs(axis->x), 1.0f, 1e-4f);
    EXPECT_EQ(axis->x > 0.0f, i % 2 == 0);
  }
  ik::Transform down;
  down.translation = glm::vec3(0, -0.4f, 0);
  const ik::Skeleton straight =
      iktest::MustBuild({{"hip", -1, {}, {}}, {"knee", 0, down, {}}, {"ankle", 1, down, {}}});
  EXPECT_FALSE(ik::DetectBendAxis(straight, {0, 1, 2}));
}

TEST(TwoBoneIkPose, StraightRestLegWithDetectedAxisBendsTheRightWay) {
  // A rest leg bent slightly forward (+z) at the knee, then posed straight: the solver still
  // knows which way the knee goes from the rest pose.
  ik::Transform thigh, shin;
  thigh.translation = glm::vec3(0.0f, -0.45f, 0.02f);
  shin.translation = glm::vec3(0.0f, -0.42f, -0.02f);
  const ik::Skeleton skeleton = iktest::MustBuild(
      {{"pelvis", -1, {}, {}}, {"hip", 0, {}, {}}, {"knee", 1, thigh, {}}, {"ankle", 2, shin, {}}});
  ik::Pose pose = ik::Pose::Rest(skeleton);
  pose.locals[2].translation = glm::vec3(0.0f, -0.45f, 0.0f);
  pose.locals[3].translation = glm::vec3(0.0f, -0.42f, 0.0f);
  std::vector<glm::mat4> models;
  ik::LocalToModel(skeleton, pose, &models);
  const auto r = ik::SolveTwoBoneIkPose(skeleton, {1, 2, 3}, {glm::vec3(0.0f, -0.6f, 0.0f), {}}, {},
                                        &pose, &models);
  EXPECT_TRUE(r.reached);
  EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kColinearChain);
  EXPECT_GT(r.b_final.z, 0.1f);  // forward, like the rest pose's knee
}

// --- Extreme finite inputs --------------------------------------------------------------------
// Any finite input gets a finite answer, and `reached` is true only when the end, where the
// corrections really put it, is within ReachTolerance of the target.

// Where a job-level result's corrections put the end, in double: the start's turn D = A_k q_k A_k⁻¹
// applied to both bones, the mid's A_j q_j A_j⁻¹ to the lower one.
glm::dvec3 EndAfter(const glm::mat4& start, const glm::mat4& mid, const glm::mat4& end,
                    const ik::TwoBoneIkResult& r) {
  const glm::dmat3 k{glm::dvec3(glm::vec3(start[0])), glm::dvec3(glm::vec3(start[1])),
                     glm::dvec3(glm::vec3(start[2]))};
  const glm::dmat3 j{glm::dvec3(glm::vec3(mid[0])), glm::dvec3(glm::vec3(mid[1])),
                     glm::dvec3(glm::vec3(mid[2]))};
  const glm::dquat qk = glm::normalize(glm::dquat(r.start_correction.w, r.start_correction.x,
                                                  r.start_correction.y, r.start_correction.z));
  const glm::dquat qj = glm::normalize(
      glm::dquat(r.mid_correction.w, r.mid_correction.x, r.mid_correction.y, r.mid_correction.z));
  const glm::dmat3 d_k = k * glm::mat3_cast(qk) * glm::inverse(k);
  const glm::dmat3 d_j = j * glm::mat3_cast(qj) * glm::inverse(j);
  const glm::dvec3 a = glm::dvec3(glm::vec3(start[3])), b = glm::dvec3(glm::vec3(mid[3])),
                   c = glm::dvec3(glm::vec3(end[3]));
  return a + d_k * (b - a) + d_k * (d_j * (c - b));
}

// The honesty every solve owes: finite, and reached only when the end really is on the target.
void ExpectHonest(const glm::mat4& start, const glm::mat4& mid, const glm::mat4& end,
                  const glm::vec3& target, const ik::TwoBoneIkResult& r, const std::string& what) {
  ExpectAllFinite(r);
  if (r.solve_case == ik::TwoBoneCase::kDegenerate) {
    EXPECT_FALSE(r.reached) << what;
    return;
  }
  const glm::dvec3 a = glm::dvec3(glm::vec3(start[3])), b = glm::dvec3(glm::vec3(mid[3])),
                   c = glm::dvec3(glm::vec3(end[3]));
  const double length = glm::length(b - a) + glm::length(c - b);
  const double miss = glm::length(EndAfter(start, mid, end, r) - glm::dvec3(target));
  const double tolerance = static_cast<double>(
      ik::ReachTolerance(static_cast<float>(length), glm::vec3(start[3]), target));
  if (r.reached) {
    EXPECT_LE(miss, tolerance) << what << ": reported reached";
  }
  // The reported error is the measured one (to float precision of the chain).
  EXPECT_NEAR(static_cast<double>(r.error), miss, 2e-6 * length + tolerance) << what;
}

// A bent leg scaled by `scale` (in its translations: a rig in other units) and moved by `offset`.
Leg ScaledLeg(float scale, const glm::vec3& offset) {
  Leg leg = MakeLeg(0.45f * scale, 0.42f * scale, glm::vec3(0.0f, 0.0f, 0.1f));
  for (glm::mat4* m : {&leg.start, &leg.mid, &leg.end}) (*m)[3] += glm::vec4(offset, 0.0f);
  return leg;
}

TEST(TwoBoneIkExtreme, PolesAnyDistanceAwayPlaceTheKneeTowardThem) {
  const Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.1f));
  const glm::vec3 target(0.1f, -0.6f, 0.05f);
  for (const glm::vec3& pole_dir :
       {glm::vec3(1, 0, 1), glm::vec3(-1, 0.3f, 0), glm::vec3(0, 0, -1)}) {
    for (float distance : {1.0f, 1e10f, 1e20f, 1e30f, 3e38f}) {
      ik::TwoBoneIkOptions options;
      options.pole_model = glm::normalize(pole_dir) * distance;
      for (bool hinge : {false, true}) {
        options.hinge = hinge;
        options.bend_axis_local = glm::vec3(1, 0, 0);
        const std::string what = "pole " + std::to_string(distance) + (hinge ? " hinge" : "");
        const ik::TwoBoneIkResult r =
            ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target, options);
        ExpectHonest(leg.start, leg.mid, leg.end, target, r, what);
        EXPECT_TRUE(r.reached) << what;
        EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kNone) << what;
        // The knee is on the pole's side of the start-target line.
        const glm::dvec3 s = glm::normalize(glm::dvec3(target));
        const glm::dvec3 knee = glm::dvec3(r.b_final) - glm::dot(glm::dvec3(r.b_final), s) * s;
        const glm::dvec3 pole = glm::dvec3(glm::normalize(pole_dir));
        EXPECT_GT(glm::dot(knee, pole - glm::dot(pole, s) * s), 0.0) << what;
      }
    }
  }
}

TEST(TwoBoneIkExtreme, PolesOnTheStartTargetLineAtAnyDistanceFallBack) {
  const Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.1f));
  const glm::vec3 target(0.0f, -0.6f, 0.0f);
  for (float distance : {-1e30f, -2.0f, 1e-30f, 1e-40f, 0.3f, 1e20f, 3e38f}) {
    ik::TwoBoneIkOptions options;
    options.pole_model = glm::vec3(0.0f, -distance, 0.0f);
    const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target, options);
    ExpectHonest(leg.start, leg.mid, leg.end, target, r, std::to_string(distance));
    EXPECT_EQ(r.fallback, ik::TwoBoneFallback::kPoleColinear) << distance;
    EXPECT_TRUE(r.reached) << distance;
  }
}

TEST(TwoBoneIkExtreme, TargetsAtAnyFiniteDistanceAreSolvedOrOutOfRange) {
  const Leg leg = MakeLeg(0.45f, 0.42f, glm::vec3(0.0f, 0.0f, 0.1f));
  const float denormal = 1e-40f;
  for (const glm::vec3& target :
       {glm::vec3(1e20f, 0.0f, 1e20f), glm::vec3(-3e38f, 1.0f, 0.0f), glm::vec3(0.0f, 3e38f, 0.0f),
        glm::vec3(1e-30f, 0.0f, 0.0f), glm::vec3(denormal, -denormal, 0.0f), glm::vec3(0.0f),
        glm::vec3(0.0f, -0.87f, 0.1f), glm::vec3(1e-30f, -0.6f, 1e-30f)}) {
    for (bool hinge : {false, true}) {
      ik::TwoBoneIkOptions options;
      options.hinge = hinge;
      const ik::TwoBoneIkResult r =
          ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target, options);
      const std::string what =
          std::to_string(target.x) + "," + std::to_string(target.y) + (hinge ? " hinge" : "");
      ExpectHonest(leg.start, leg.mid, leg.end, target, r, what);
      EXPECT_NE(r.fallback, ik::TwoBoneFallback::kNonFiniteInput) << what;
      EXPECT_NE(r.solve_case, ik::TwoBoneCase::kDegenerate) << what;
      if (glm::length(target) > 1e10f) {
        // Far beyond reach: fully extended toward the target.
        EXPECT_EQ(r.solve_case, ik::TwoBoneCase::kTooFar) << what;
        const glm::dvec3 dir = glm::normalize(glm::dvec3(target));
        EXPECT_NEAR(glm::dot(glm::dvec3(r.c_final), dir), 0.87, 1e-5) << what;
      }
    }
  }
}

TEST(TwoBoneIkExtreme, HugeAndTinyRigsReachTheirTargetsAtAnyPlacement) {
  std::mt19937 rng(91);
  int reached = 0, solves = 0;
  for (float scale : {1e-30f, 1e-20f, 1e-6f, 1.0f, 1e6f, 1e15f, 1e30f}) {
    for (float offset_scale : {0.0f, 1.0f, 100.0f}) {
      const glm::vec3 offset = iktest::RandomUnit(rng) * (offset_scale * scale);
      const Leg leg = ScaledLeg(scale, offset);
      for (int i = 0; i < 50; ++i) {
        const float d = scale * (0.05f + 0.8f * Uniform(rng, 0.0f, 1.0f));
        const glm::vec3 target = offset + iktest::RandomUnit(rng) * d;
        for (bool hinge : {false, true}) {
          ik::TwoBoneIkOptions options;
          options.hinge = hinge;
          const ik::TwoBoneIkResult r =
              ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target, options);
          const std::string what = "scale " + std::to_string(scale) + " offset " +
                                   std::to_string(offset_scale) + " #" + std::to_string(i);
          ExpectHonest(leg.start, leg.mid, leg.end, target, r, what);
          ASSERT_NE(r.solve_case, ik::TwoBoneCase::kDegenerate) << what;
          if (!hinge && r.solve_case == ik::TwoBoneCase::kReachable) {
            ++solves;
            reached += r.reached ? 1 : 0;
          }
        }
      }
    }
  }
  // Every reachable target is reached: the tolerance grows with what float positions can resolve.
  EXPECT_GT(solves, 500);
  EXPECT_EQ(reached, solves);
}

TEST(TwoBoneIkExtreme, DenormalRigsStayFiniteAndHonest) {
  const Leg leg = ScaledLeg(1e-40f, glm::vec3(0.0f));
  for (const glm::vec3& target : {glm::vec3(0.0f, -6e-41f, 0.0f), glm::vec3(3e-41f, -3e-41f, 0.0f),
                                  glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.0f)}) {
    for (bool hinge : {false, true}) {
      ik::TwoBoneIkOptions options;
      options.hinge = hinge;
      const ik::TwoBoneIkResult r =
          ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target, options);
      ExpectHonest(leg.start, leg.mid, leg.end, target, r, std::to_string(target.y));
      EXPECT_NE(r.solve_case, ik::TwoBoneCase::kDegenerate);
    }
  }
}

TEST(TwoBoneIkExtreme, HugeAndTinyFrameScalesWork) {
  // The scale in the matrices (a root scaled by 1e15 or 1e-15), not in the translations.
  for (float scale : {1e-15f, 1e15f}) {
    Leg leg = MakeLeg(0.45f * scale, 0.42f * scale, glm::vec3(0.0f, 0.0f, 0.1f));
    for (glm::mat4* m : {&leg.start, &leg.mid}) {
      for (int col = 0; col < 3; ++col) (*m)[col] *= scale;
    }
    const glm::vec3 target = glm::vec3(0.1f, -0.6f, 0.05f) * scale;
    const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(leg.start, leg.mid, leg.end, target);
    ExpectHonest(leg.start, leg.mid, leg.end, target, r, std::to_string(scale));
    EXPECT_TRUE(r.reached) << scale;
  }
}

// The pose level on rigs whose root puts them far away, in huge or tiny units: measured on the
// recomputed matrices, reached exactly when the end is within tolerance, and every reachable
// target reached while float positions there resolve the chain (the rig no more than 1,000
// chain lengths from the origin); beyond that, still never a false `reached`.
TEST(TwoBoneIkExtreme, PoseLevelReachesOnRigsOfAnyScaleAndPlacementAndNeverLies) {
  std::mt19937 rng(92);
  for (float scale : {1e-20f, 1e-3f, 100.0f, 1e20f}) {
    for (float distance : {0.0f, 1000.0f, 1e6f}) {
      iktest::ChainRig rig = iktest::RandomChainRig(rng, false);
      ik::Transform& root = rig.pose.locals[0];
      root.scale *= scale;
      root.translation = root.translation * scale + iktest::RandomUnit(rng) * (distance * scale);
      ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
      // Lengths in double: squares of 1e20 overflow float.
      const glm::vec3 a = Position(rig.models, 1);
      const glm::dvec3 b(Position(rig.models, 2)), c(Position(rig.models, 3));
      const double upper = glm::length(b - glm::dvec3(a)), lower = glm::length(c - b);
      const double lo = std::abs(upper - lower);
      const float hi = static_cast<float>(upper + lower);
      for (int i = 0; i < 30; ++i) {
        iktest::ChainRig solved = rig;
        const double d =
            lo + (static_cast<double>(hi) - lo) * static_cast<double>(Uniform(rng, 0.05f, 0.95f));
        const glm::vec3 target(glm::dvec3(a) + glm::dvec3(iktest::RandomUnit(rng)) * d);
        ik::TwoBoneIkOptions options;
        options.pole_model = a + iktest::RandomUnit(rng) * (1e17f * scale);
        const ik::TwoBoneIkResult r = ik::SolveTwoBoneIkPose(
            solved.skeleton, solved.chain, {target, {}}, options, &solved.pose, &solved.models);
        const std::string what = "scale " + std::to_string(scale) + " at " +
                                 std::to_string(distance) + " #" + std::to_string(i);
        ExpectAllFinite(r);
        const float miss = static_cast<float>(
            glm::length(glm::dvec3(Position(solved.models, 3)) - glm::dvec3(target)));
        EXPECT_EQ(r.error, miss) << what;
        if (r.reached) {
          EXPECT_LE(miss, ik::ReachTolerance(hi, a, target)) << what;
        }
        if (distance <= 1000.0f) {
          EXPECT_TRUE(r.reached) << what;
        }
      }
    }
  }
}

// --- Drift ----------------------------------------------------------------------------------

TEST(TwoBoneIkDrift, TenThousandFramesOfAMovingTargetLeaveNoDrift) {
  std::mt19937 rng(31);
  ChainRig rig = RandomChainRig(rng, false);
  const glm::vec3 a = Position(rig.models, 1);
  const float len = rig.upper + rig.lower;
  const float mid_reach = 0.5f * (std::abs(rig.upper - rig.lower) + len);
  const float swing = 0.4f * (len - std::abs(rig.upper - rig.lower));
  const glm::vec3 pole = a + glm::vec3(0.0f, 0.0f, 2.0f * len);
  auto target_at = [&](int frame) {
    const float phase = ik::kTwoPi * static_cast<float>(frame) / 10000.0f;
    const glm::vec3 dir =
        glm::normalize(glm::vec3(std::cos(3.0f * phase), -1.0f, 0.5f * std::sin(2.0f * phase)));
    return a + dir * (mid_reach + swing * std::sin(5.0f * phase));
  };
  ik::TwoBoneIkOptions options;
  options.pole_model = pole;
  const ik::Pose fresh = rig.pose;
  const std::vector<glm::mat4> fresh_models = rig.models;
  // Frame 0 solved on the fresh pose: the reference.
  const auto first = ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {target_at(0), {}}, options,
                                            &rig.pose, &rig.models);
  ASSERT_TRUE(first.reached);
  // Then keep solving on the previous frame's output (the worst case for accumulation).
  for (int frame = 1; frame <= 10000; ++frame) {
    const glm::vec3 t = target_at(frame);
    const auto r =
        ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {t, {}}, options, &rig.pose, &rig.models);
    ASSERT_TRUE(r.reached) << frame;
    ASSERT_LE(glm::length(Position(rig.models, 3) - t), kTol * len) << frame;
    ASSERT_NEAR(glm::length(Position(rig.models, 2) - a), rig.upper, kTol * len) << frame;
    ASSERT_NEAR(glm::length(Position(rig.models, 3) - Position(rig.models, 2)), rig.lower,
                kTol * len)
        << frame;
    for (int j = 0; j < rig.skeleton.joint_count(); ++j) {
      ASSERT_NEAR(glm::length(rig.pose.locals[j].rotation), 1.0f, 1e-6f);
      ASSERT_EQ(rig.pose.locals[j].translation, fresh.locals[j].translation);
    }
  }
  // Frame 10000's target is frame 0's: the knee and end are back where the fresh solve put them.
  EXPECT_LE(glm::length(Position(rig.models, 2) - first.b_final), 1e-4f * len);
  EXPECT_LE(glm::length(Position(rig.models, 3) - first.c_final), 1e-4f * len);
  // And solving each frame from the fresh pose (what the app does) is repeatable.
  ik::Pose again = fresh;
  std::vector<glm::mat4> again_models = fresh_models;
  const auto repeat = ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {target_at(0), {}}, options,
                                             &again, &again_models);
  EXPECT_EQ(repeat.b_final, first.b_final);
}

TEST(TwoBoneIkDrift, HingeWithPoleReturnsTheWholePoseAfterAClosedPath) {
  std::mt19937 rng(32);
  HingeRig h = RandomHingeRig(rng, false);
  ChainRig& rig = h.rig;
  const glm::vec3 a = Position(rig.models, 1);
  const float len = rig.upper + rig.lower;
  const float lo = std::abs(rig.upper - rig.lower);
  ik::TwoBoneIkOptions options;
  options.hinge = true;
  options.bend_axis_local = glm::vec3(1, 0, 0);
  options.pole_model = a + glm::vec3(0.0f, 0.0f, 3.0f * len);
  auto target_at = [&](int frame) {
    const float phase = ik::kTwoPi * static_cast<float>(frame) / 10000.0f;
    const glm::vec3 dir =
        glm::normalize(glm::vec3(0.6f * std::sin(phase), -1.0f, 0.3f * std::sin(2.0f * phase)));
    return a + dir * (lo + (len - lo) * (0.5f + 0.3f * std::cos(phase)));
  };
  ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {target_at(0), {}}, options, &rig.pose,
                         &rig.models);
  const std::vector<glm::mat4> first = rig.models;
  for (int frame = 1; frame <= 10000; ++frame) {
    const auto r = ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {target_at(frame), {}}, options,
                                          &rig.pose, &rig.models);
    ASSERT_TRUE(r.reached) << frame;
  }
  for (int j = 0; j < rig.skeleton.joint_count(); ++j) {
    for (int col = 0; col < 4; ++col) {
      EXPECT_LE(glm::length(rig.models[j][col] - first[j][col]), 1e-4f * len) << j << " " << col;
    }
  }
}

}  // namespace
