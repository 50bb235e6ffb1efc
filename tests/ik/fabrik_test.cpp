// FABRIK: random chains of 3-30 joints reach reachable targets within tolerance in the iteration
// cap and keep their lengths; two-bone chains land where the closed-form solver does; limits are
// never exceeded; the rotations are the seed's option 2; every degenerate input stays finite.
#include "ik/chains/fabrik.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"
#include "ik/two_bone/two_bone_ik.h"
#include "tests/ik/humanoid_rig.h"
#include "tests/ik/ik_test_util.h"
#include "tests/ik/limit_check.h"
#include "tests/support/allocations.h"

namespace {

using iktest::AngleBetween;
using iktest::Position;
using iktest::RandomRotation;
using iktest::RandomUnit;
using iktest::Uniform;

// A skeleton: a placed, rotated, uniformly scaled (possibly mirrored) root, then a chain of
// `chain_joints` joints (indices 1..chain_joints) with random bends and lengths, and a side branch
// (a "finger") on every third chain joint. The FABRIK chain runs from joint 1 to the last.
struct ChainSkeleton {
  ik::Skeleton skeleton;
  ik::Pose pose;
  std::vector<glm::mat4> models;
  int root = 1;
  int end = 1;
};

ChainSkeleton RandomChainSkeleton(std::mt19937& rng, int chain_joints, float bend = 0.6f,
                                  bool zero_segments = false) {
  std::vector<ik::JointDesc> joints;
  ik::Transform base;
  base.translation = RandomUnit(rng) * Uniform(rng, 0.0f, 2.0f);
  base.rotation = RandomRotation(rng);
  const float s = Uniform(rng, 0.5f, 2.0f) * (Uniform(rng, 0, 1) < 0.2f ? -1.0f : 1.0f);
  base.scale = glm::vec3(s);
  joints.push_back({"base", -1, base, {}});
  std::vector<int> chain;
  for (int i = 0; i < chain_joints; ++i) {
    ik::Transform t;
    const int parent = i == 0 ? 0 : chain.back();
    if (i > 0) {
      float length = Uniform(rng, 0.1f, 1.0f);
      if (zero_segments && Uniform(rng, 0, 1) < 0.3f) length = 0.0f;
      t.translation = glm::vec3(0.0f, length, 0.0f);
    } else {
      t.translation = RandomUnit(rng) * 0.3f;
    }
    t.rotation =
        i == 0 ? RandomRotation(rng) : glm::angleAxis(Uniform(rng, 0.0f, bend), RandomUnit(rng));
    chain.push_back(static_cast<int>(joints.size()));
    joints.push_back({"c" + std::to_string(i), parent, t, {}});
    if (i % 3 == 1) {
      ik::Transform finger;
      finger.translation = RandomUnit(rng) * 0.2f;
      joints.push_back({"f" + std::to_string(i), chain.back(), finger, {}});
    }
  }
  ChainSkeleton out;
  out.skeleton = iktest::MustBuild(std::move(joints));
  out.pose = ik::Pose::Rest(out.skeleton);
  ik::LocalToModel(out.skeleton, out.pose, &out.models);
  out.root = chain.front();
  out.end = chain.back();
  return out;
}

struct Reach {
  float total = 0.0f, shortest = 0.0f;
};

Reach ChainReach(const std::vector<glm::vec3>& p) {
  Reach r;
  float longest = 0.0f;
  for (size_t i = 0; i + 1 < p.size(); ++i) {
    const float l = glm::length(p[i + 1] - p[i]);
    r.total += l;
    longest = std::max(longest, l);
  }
  r.shortest = std::max(0.0f, 2.0f * longest - r.total);
  return r;
}

std::vector<glm::vec3> ChainPositions(const ChainSkeleton& c) {
  std::vector<glm::vec3> p;
  for (int j : ik::FabrikChainJoints(c.skeleton, c.root, c.end)) p.push_back(Position(c.models, j));
  return p;
}

// Reachable distances, weighted toward the hard places: next to full reach, next to the shortest
// reach, and near the root.
float ReachableDistance(std::mt19937& rng, const Reach& reach) {
  const float span = reach.total - reach.shortest;
  const float pick = Uniform(rng, 0, 1);
  if (pick < 0.55f) return reach.shortest + span * Uniform(rng, 0.0f, 1.0f);
  if (pick < 0.75f) return reach.total - span * Uniform(rng, 0.0f, 0.01f);
  if (pick < 0.85f) return reach.shortest + span * Uniform(rng, 0.0f, 0.01f);
  return reach.shortest + span * Uniform(rng, 0.0f, 0.1f);
}

void ExpectLengthsKept(const std::vector<glm::vec3>& before, const std::vector<glm::vec3>& after,
                       float total, int i) {
  ASSERT_EQ(before.size(), after.size());
  for (size_t k = 0; k + 1 < before.size(); ++k) {
    ASSERT_TRUE(ik::IsFinite(after[k + 1])) << i;
    ASSERT_NEAR(glm::length(after[k + 1] - after[k]), glm::length(before[k + 1] - before[k]),
                1e-5f * total)
        << i << " segment " << k;
  }
}

TEST(Fabrik, RandomChainsOf3To30JointsReachReachableTargetsWithinTheIterationCap) {
  std::mt19937 rng(301);
  const ik::FabrikOptions options;  // defaults: tolerance 1e-4·L, 64 iterations
  int total_iterations = 0, solves = 0, max_iterations = 0;
  for (int joints = 3; joints <= 30; ++joints) {
    for (int k = 0; k < 60; ++k) {
      ChainSkeleton c = RandomChainSkeleton(rng, joints, Uniform(rng, 0.0f, 1.5f));
      const std::vector<glm::vec3> before = ChainPositions(c);
      const Reach reach = ChainReach(before);
      const glm::vec3 target = before.front() + RandomUnit(rng) * ReachableDistance(rng, reach);
      const ik::FabrikResult r = ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, options,
                                                     nullptr, &c.pose, &c.models);
      ASSERT_FALSE(r.degenerate) << joints << " " << k;
      ASSERT_TRUE(r.reached) << joints << " " << k << " error " << r.error / reach.total;
      ASSERT_LE(r.error, 1e-4f * reach.total);
      ASSERT_LE(glm::length(Position(c.models, c.end) - target), 1e-4f * reach.total);
      ASSERT_LE(r.iterations, options.max_iterations);
      ASSERT_FALSE(r.unreachable);
      const std::vector<glm::vec3> after = ChainPositions(c);
      ExpectLengthsKept(before, after, reach.total, k);
      ASSERT_EQ(r.positions.size(), after.size());
      for (size_t p = 0; p < after.size(); ++p) ASSERT_EQ(r.positions[p], after[p]);
      total_iterations += r.iterations;
      max_iterations = std::max(max_iterations, r.iterations);
      ++solves;
    }
  }
  // The accelerations keep it fast, not just within the cap (plain FABRIK needs thousands here).
  const float mean_iterations = static_cast<float>(total_iterations) / solves;
  RecordProperty("mean_iterations", std::to_string(mean_iterations));
  RecordProperty("max_iterations", max_iterations);
  EXPECT_LT(mean_iterations, 8.0f);
  EXPECT_LE(max_iterations, 32);
}

TEST(Fabrik, OnlyTheChainRootsSubtreeMovesAndSideBranchesFollowRigidly) {
  std::mt19937 rng(302);
  ChainSkeleton c = RandomChainSkeleton(rng, 8);
  const std::vector<glm::mat4> before = c.models;
  const std::vector<glm::vec3> p = ChainPositions(c);
  const glm::vec3 target = p.front() + RandomUnit(rng) * 0.6f * ChainReach(p).total;
  const ik::FabrikResult r =
      ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, {}, nullptr, &c.pose, &c.models);
  ASSERT_TRUE(r.reached);
  EXPECT_EQ(c.models[0], before[0]);
  EXPECT_LE(glm::length(Position(c.models, c.root) - p.front()), 1e-6f);
  // A finger keeps its place in its parent's frame (forward kinematics ran for the subtree).
  for (int j = 0; j < c.skeleton.joint_count(); ++j) {
    if (c.skeleton.name(j)[0] != 'f') continue;
    const glm::mat4 expected = c.models[c.skeleton.parent(j)] * c.pose.locals[j].ToMatrix();
    EXPECT_LE(glm::length(glm::vec3(c.models[j][3] - expected[3])), 1e-6f);
  }
}

// The seed's option 2: each joint turns by the minimal rotation in its own frame, so a joint's
// new local rotation is old · c with c turning the child's offset straight onto its new
// direction: no roll about the bone.
TEST(Fabrik, RotationsAreMinimalPointsAtTurnsInEachJointsOwnFrame) {
  std::mt19937 rng(303);
  for (int i = 0; i < 300; ++i) {
    ChainSkeleton c = RandomChainSkeleton(rng, 6);
    const ik::Pose pose_before = c.pose;
    const std::vector<glm::vec3> p = ChainPositions(c);
    const glm::vec3 target =
        p.front() + RandomUnit(rng) * Uniform(rng, 0.2f, 0.9f) * ChainReach(p).total;
    const ik::FabrikResult r =
        ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, {}, nullptr, &c.pose, &c.models);
    ASSERT_TRUE(r.reached);
    const std::vector<int> joints = ik::FabrikChainJoints(c.skeleton, c.root, c.end);
    for (size_t k = 0; k + 1 < joints.size(); ++k) {
      const int j = joints[k];
      const glm::quat correction =
          glm::normalize(glm::inverse(pose_before.locals[j].rotation) * c.pose.locals[j].rotation);
      const glm::vec3 offset = c.pose.locals[joints[k + 1]].translation;
      if (glm::length(offset) < 1e-6f) continue;
      // Minimal: the turn's axis is perpendicular to the bone's offset.
      const glm::vec3 axis(correction.x, correction.y, correction.z);
      if (glm::length(axis) > 1e-4f) {
        ASSERT_LE(std::abs(glm::dot(glm::normalize(axis), glm::normalize(offset))), 1e-3f) << i;
      }
    }
  }
}

TEST(Fabrik, TwoBoneChainsLandWhereTheClosedFormSolverPutsThem) {
  std::mt19937 rng(304);
  int reachable = 0;
  for (int i = 0; i < 3000; ++i) {
    iktest::ChainRig rig = iktest::RandomChainRig(rng);
    iktest::ChainRig closed = rig;
    const glm::vec3 a = Position(rig.models, 1);
    const float upper = rig.upper, lower = rig.lower, total = upper + lower;
    const float hole = std::abs(upper - lower);
    float d;
    const float pick = Uniform(rng, 0, 1);
    if (pick < 0.6f) {
      d = Uniform(rng, hole, total);
    } else if (pick < 0.8f) {
      d = Uniform(rng, total, 2.0f * total);
    } else {
      d = Uniform(rng, 0.0f, hole);
    }
    // Targets on the very edge of the reach could go either way in float.
    if (std::abs(d - total) < 1e-4f * total || std::abs(d - hole) < 1e-4f * total) continue;
    const glm::vec3 target = a + RandomUnit(rng) * d;
    const ik::TwoBoneIkResult two = ik::SolveTwoBoneIkPose(
        closed.skeleton, closed.chain, {target, {}}, {}, &closed.pose, &closed.models);
    const ik::FabrikResult fab =
        ik::SolveFabrikPose(rig.skeleton, 1, 3, target, {}, nullptr, &rig.pose, &rig.models);
    ASSERT_NE(two.solve_case, ik::TwoBoneCase::kDegenerate);
    ASSERT_FALSE(fab.degenerate);
    ASSERT_EQ(fab.reached, two.reached) << i;
    ASSERT_EQ(fab.unreachable, !two.reached) << i;
    // The same end position: on the target, or the nearest point the chain can reach. Inside
    // the hole that point lies along the direction to the target, which float rounding turns by
    // about ε/d for a target at distance d: the tolerance grows with the lever hole/d.
    const float lever = two.reached ? 1.0f : std::max(1.0f, hole / d);
    ASSERT_LE(glm::length(Position(rig.models, 3) - Position(closed.models, 3)),
              2e-4f * total * lever)
        << i;
    if (two.reached) {
      ++reachable;
      // FABRIK keeps the plane of hip, knee and target, so it lands on the knee circle point
      // nearest the current knee, like the closed-form default (when that point is well defined).
      if (two.circle.radius > 0.05f * total) {
        ASSERT_LE(glm::length(Position(rig.models, 2) - Position(closed.models, 2)), 1e-2f * total)
            << i;
      }
    }
  }
  EXPECT_GT(reachable, 1500);
}

TEST(Fabrik, UnreachableTargetsLayTheChainStraightTowardThem) {
  std::mt19937 rng(305);
  for (int i = 0; i < 200; ++i) {
    ChainSkeleton c = RandomChainSkeleton(rng, 3 + i % 20);
    const std::vector<glm::vec3> before = ChainPositions(c);
    const Reach reach = ChainReach(before);
    const glm::vec3 dir = RandomUnit(rng);
    const glm::vec3 target = before.front() + dir * reach.total * Uniform(rng, 1.01f, 3.0f);
    const ik::FabrikResult r =
        ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, {}, nullptr, &c.pose, &c.models);
    ASSERT_TRUE(r.unreachable);
    ASSERT_FALSE(r.reached);
    ASSERT_EQ(r.iterations, 0);
    const std::vector<glm::vec3> after = ChainPositions(c);
    for (size_t k = 1; k < after.size(); ++k) {
      ASSERT_LE(AngleBetween(after[k] - after[k - 1], dir), 1e-4) << i;
    }
    ASSERT_NEAR(glm::length(after.back() - after.front()), reach.total, 1e-5f * reach.total);
    ASSERT_NEAR(r.error, glm::length(target - before.front()) - reach.total, 1e-4f * reach.total);
  }
}

TEST(Fabrik, PositionCoreAndPoseLevelAgree) {
  std::mt19937 rng(306);
  for (int i = 0; i < 200; ++i) {
    ChainSkeleton c = RandomChainSkeleton(rng, 3 + i % 12);
    std::vector<glm::vec3> p = ChainPositions(c);
    const Reach reach = ChainReach(p);
    const glm::vec3 target = p.front() + RandomUnit(rng) * ReachableDistance(rng, reach);
    const ik::FabrikPositionsResult core = ik::SolveFabrikPositions(&p, target, {});
    const ik::FabrikResult pose =
        ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, {}, nullptr, &c.pose, &c.models);
    ASSERT_TRUE(core.reached);
    ASSERT_EQ(core.iterations, pose.iterations);
    for (size_t k = 0; k < p.size(); ++k) {
      ASSERT_LE(glm::length(p[k] - pose.positions[k]), 1e-5f * reach.total) << i;
    }
  }
}

TEST(Fabrik, RecordedIterationsStartAtTheInputAndEndAtTheSolution) {
  std::mt19937 rng(307);
  ChainSkeleton c = RandomChainSkeleton(rng, 12);
  const std::vector<glm::vec3> before = ChainPositions(c);
  const glm::vec3 target = before.front() + RandomUnit(rng) * 0.5f * ChainReach(before).total;
  ik::FabrikOptions options;
  options.record_iterations = true;
  const ik::FabrikResult r =
      ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, options, nullptr, &c.pose, &c.models);
  ASSERT_TRUE(r.reached);
  ASSERT_GE(r.iteration_positions.size(), static_cast<size_t>(r.iterations) + 1);
  EXPECT_EQ(r.iteration_positions.front(), before);
  EXPECT_EQ(r.positions_before, before);
  for (size_t k = 0; k < before.size(); ++k) {
    EXPECT_LE(glm::length(r.iteration_positions.back()[k] - r.positions[k]), 1e-5f);
  }
  // Not recorded unless asked.
  ChainSkeleton again = RandomChainSkeleton(rng, 12);
  EXPECT_TRUE(ik::SolveFabrikPose(again.skeleton, again.root, again.end, target, {}, nullptr,
                                  &again.pose, &again.models)
                  .iteration_positions.empty());
}

TEST(Fabrik, WeightZeroChangesNothingAndHalfGoesPartWay) {
  std::mt19937 rng(308);
  ChainSkeleton c = RandomChainSkeleton(rng, 6);
  const std::vector<glm::mat4> before = c.models;
  const std::vector<glm::vec3> p = ChainPositions(c);
  const glm::vec3 target = p.front() + RandomUnit(rng) * 0.5f * ChainReach(p).total;
  ik::FabrikOptions options;
  options.weight = 0.0f;
  ik::FabrikResult r =
      ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, options, nullptr, &c.pose, &c.models);
  EXPECT_EQ(c.models, before);
  EXPECT_FALSE(r.reached);
  options.weight = 0.5f;
  r = ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, options, nullptr, &c.pose, &c.models);
  EXPECT_LT(r.error, glm::length(p.back() - target));
  EXPECT_GT(r.error, r.tolerance_model);
}

// --- Limits inside the iterations ---

TEST(FabrikLimits, LimitsAreNeverExceededAndTargetsTheyAllowAreReached) {
  std::mt19937 rng(309);
  int reached = 0, trials = 0, limited = 0;
  for (int i = 0; i < 300; ++i) {
    ChainSkeleton c = RandomChainSkeleton(rng, 3 + i % 10);
    const std::vector<int> joints = ik::FabrikChainJoints(c.skeleton, c.root, c.end);
    // Bones run along local +Y: cones about it, hinges across it (knees, elbows), some free.
    ik::JointLimits limits;
    for (size_t k = 0; k + 1 < joints.size(); ++k) {
      const float pick = Uniform(rng, 0, 1);
      if (pick < 0.4f) {
        limits.Set(joints[k],
                   ik::JointLimit::Cone(glm::vec3(0, 1, 0), Uniform(rng, 0.2f, 1.2f), -0.3f, 0.3f));
      } else if (pick < 0.8f) {
        const glm::vec3 across = glm::normalize(glm::cross(glm::vec3(0, 1, 0), RandomUnit(rng)));
        limits.Set(joints[k], ik::JointLimit::Hinge(across, -Uniform(rng, 0.2f, 1.5f),
                                                    Uniform(rng, 0.2f, 1.5f)));
      }
    }
    const ik::JointLimit free;
    auto limit_of = [&](int j) { return limits.Find(j) ? *limits.Find(j) : free; };
    // A target the limits allow: the end of a random pose within them.
    ChainSkeleton goal = c;
    for (size_t k = 0; k + 1 < joints.size(); ++k) {
      const int j = joints[k];
      goal.pose.locals[j].rotation = ik::ClampRotation(
          limit_of(j), c.skeleton.rest_locals()[j].rotation,
          c.pose.locals[j].rotation * glm::angleAxis(Uniform(rng, 0.0f, 1.5f), RandomUnit(rng)));
    }
    ik::LocalToModel(goal.skeleton, goal.pose, &goal.models);
    // Every third target anywhere, often out of reach: the limits must hold there too.
    const glm::vec3 target = i % 3 == 2 ? Position(c.models, c.root) + RandomUnit(rng) * 3.0f
                                        : Position(goal.models, goal.end);
    ik::FabrikOptions options;
    options.tolerance = 1e-3f;
    const ik::FabrikResult r = ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, options,
                                                   &limits, &c.pose, &c.models);
    ASSERT_FALSE(r.degenerate);
    for (size_t k = 0; k + 1 < joints.size(); ++k) {
      const int j = joints[k];
      ASSERT_EQ(iktest::LimitViolation(limit_of(j), c.skeleton.rest_locals()[j].rotation,
                                       c.pose.locals[j].rotation),
                "")
          << i << " joint " << j;
    }
    // Positions are where the rotations put them, and the bones kept their lengths.
    const std::vector<glm::vec3> after = ChainPositions(c);
    for (size_t k = 0; k < after.size(); ++k) ASSERT_EQ(r.positions[k], after[k]);
    ExpectLengthsKept(r.positions_before, after, ChainReach(after).total, i);
    if (i % 3 != 2) {
      ++trials;
      reached += r.reached ? 1 : 0;
    }
    limited += r.limited ? 1 : 0;
  }
  EXPECT_GT(limited, 50);  // the limits were in play, and the result says so
  // Targets inside the limited workspace (before the refinement: about nine in ten).
  EXPECT_EQ(reached, trials);
}

// --- Targets the limits allow, found like the reporter did ---

// Limits on every joint of the chain (bones along local +Y): cones about the bone with a twist
// range, hinges across it, and (when `free_joints`) some joints without a limit.
ik::JointLimits MakeChainLimits(std::mt19937& rng, const std::vector<int>& joints,
                                bool free_joints) {
  ik::JointLimits limits;
  for (size_t k = 0; k + 1 < joints.size(); ++k) {
    const float pick = Uniform(rng, 0, 1);
    if (free_joints && pick < 0.15f) continue;
    if (pick < 0.6f) {
      const float twist = Uniform(rng, 0.05f, 1.0f);
      limits.Set(joints[k], ik::JointLimit::Cone(glm::vec3(0, 1, 0), Uniform(rng, 0.1f, 1.3f),
                                                 -twist, Uniform(rng, 0.05f, 1.0f)));
    } else {
      const glm::vec3 across = glm::normalize(glm::cross(glm::vec3(0, 1, 0), RandomUnit(rng)));
      limits.Set(joints[k], ik::JointLimit::Hinge(across, -Uniform(rng, 0.1f, 1.5f),
                                                  Uniform(rng, 0.1f, 1.5f)));
    }
  }
  return limits;
}

// Δ (relative to rest) within `limit`: a swing within the cone and a twist within its range, or a
// hinge angle within its range; free joints turn by up to 1 rad about any axis.
glm::quat DeltaWithin(std::mt19937& rng, const ik::JointLimit* limit) {
  if (!limit) return glm::angleAxis(Uniform(rng, 0.0f, 1.0f), RandomUnit(rng));
  if (limit->type == ik::JointLimit::Type::kHinge) {
    return glm::angleAxis(Uniform(rng, limit->min_angle, limit->max_angle),
                          glm::normalize(limit->axis_local));
  }
  const glm::vec3 axis = glm::normalize(limit->twist_axis_local);
  const glm::vec3 across = glm::normalize(glm::cross(axis, RandomUnit(rng)));
  const glm::quat swing = glm::angleAxis(Uniform(rng, 0.0f, limit->cone_angle), across);
  const glm::quat twist = glm::angleAxis(Uniform(rng, limit->twist_min, limit->twist_max), axis);
  return swing * twist;
}

// The pose with every chain joint swung/twisted within its limit (from the rest rotation).
ik::Pose PoseWithin(std::mt19937& rng, const ChainSkeleton& c, const std::vector<int>& joints,
                    const ik::JointLimits& limits) {
  ik::Pose pose = c.pose;
  for (size_t k = 0; k + 1 < joints.size(); ++k) {
    const int j = joints[k];
    pose.locals[j].rotation =
        c.skeleton.rest_locals()[j].rotation * DeltaWithin(rng, limits.Find(j));
  }
  return pose;
}

struct LimitStats {
  int trials = 0, reached = 0, iterations = 0, max_iterations = 0;
};

// Solves for a target the limits allow (the end of a pose within them); checks limits, lengths
// and finiteness; counts reaches. `start_within`: start from another pose within the limits
// instead of the rest pose.
void SolveAllowedTarget(std::mt19937& rng, int chain_joints, bool free_joints, bool start_within,
                        LimitStats* stats) {
  ChainSkeleton c = RandomChainSkeleton(rng, chain_joints, Uniform(rng, 0.0f, 1.0f));
  const std::vector<int> joints = ik::FabrikChainJoints(c.skeleton, c.root, c.end);
  const ik::JointLimits limits = MakeChainLimits(rng, joints, free_joints);
  ik::Pose goal = PoseWithin(rng, c, joints, limits);
  std::vector<glm::mat4> goal_models;
  ik::LocalToModel(c.skeleton, goal, &goal_models);
  const glm::vec3 target = Position(goal_models, c.end);
  if (start_within) {
    c.pose = PoseWithin(rng, c, joints, limits);
    ik::LocalToModel(c.skeleton, c.pose, &c.models);
  }
  const std::vector<glm::vec3> before = ChainPositions(c);
  const float total = ChainReach(before).total;
  ik::FabrikOptions options;
  options.tolerance = 1e-3f;
  const ik::FabrikResult r =
      ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, options, &limits, &c.pose, &c.models);
  ASSERT_FALSE(r.degenerate);
  for (size_t k = 0; k + 1 < joints.size(); ++k) {
    const int j = joints[k];
    const ik::JointLimit* limit = limits.Find(j);
    if (!limit) continue;
    ASSERT_EQ(iktest::LimitViolation(*limit, c.skeleton.rest_locals()[j].rotation,
                                     c.pose.locals[j].rotation),
              "")
        << chain_joints << " joint " << j;
  }
  const std::vector<glm::vec3> after = ChainPositions(c);
  ExpectLengthsKept(before, after, total, chain_joints);
  ASSERT_TRUE(std::isfinite(r.error));
  ++stats->trials;
  stats->reached += r.reached ? 1 : 0;
  stats->iterations += r.iterations;
  stats->max_iterations = std::max(stats->max_iterations, r.iterations);
  if (r.reached) {
    ASSERT_LE(glm::length(Position(c.models, c.end) - target), 1e-3f * total);
  }
}

// The check: chains of 3 to 64 joints with a cone (and twist range) or hinge on every
// joint (and, every other chain, some free joints), the target being the end of a pose made by
// swinging and twisting each joint within its limit, so it is reachable by construction; solved
// from the rest pose and from another pose within the limits. Every target is reached within
// 1e-3 of the chain's length, the limits and lengths hold, nothing is NaN. (FABRIK with CCD sweeps
// alone missed about one in ten of these.)
TEST(FabrikLimits, ReachesEveryTargetMadeBySwingingEachJointWithinItsLimits) {
  std::mt19937 rng(320);
  for (bool start_within : {false, true}) {
    for (int joints : {3, 4, 5, 6, 8, 10, 12, 16, 24, 32, 48, 64}) {
      LimitStats stats;
      for (int k = 0; k < 60; ++k) {
        SolveAllowedTarget(rng, joints, k % 2 == 1, start_within, &stats);
        if (HasFatalFailure()) return;
      }
      RecordProperty(
          (start_within ? "mean_iterations_from_within_" : "mean_iterations_from_rest_") +
              std::to_string(joints),
          std::to_string(double(stats.iterations) / stats.trials));
      EXPECT_EQ(stats.reached, stats.trials) << joints << " joints";
    }
  }
}

// The frame path: with a workspace and a result that have held a chain this long, a solve does
// not touch the heap, with or without limits, reachable or not.
TEST(Fabrik, SolvingWithAWorkspaceAllocatesNothingAfterTheFirstSolve) {
  std::mt19937 rng(330);
  for (const bool with_limits : {false, true}) {
    const ChainSkeleton c = RandomChainSkeleton(rng, 16);
    ASSERT_TRUE(c.skeleton.subtree_contiguous());
    const std::vector<int> joints = ik::FabrikChainJoints(c.skeleton, c.root, c.end);
    const ik::JointLimits limits = MakeChainLimits(rng, joints, true);
    const ik::JointLimits* limits_or_null = with_limits ? &limits : nullptr;
    const std::vector<glm::vec3> before = ChainPositions(c);
    const float total = ChainReach(before).total;
    std::vector<glm::vec3> targets;
    for (int k = 0; k < 40; ++k) {
      targets.push_back(before.front() + RandomUnit(rng) * total * Uniform(rng, 0.0f, 1.5f));
    }
    ik::Pose pose = c.pose;
    std::vector<glm::mat4> models = c.models;
    ik::FabrikWorkspace workspace;
    ik::FabrikResult result;
    // The first solve grows the buffers.
    ik::SolveFabrikPose(c.skeleton, c.root, c.end, targets[0], {}, limits_or_null, &pose, &models,
                        &workspace, &result);
    int reached = 0, missed = 0;
    const long allocations = testsupport::AllocationsIn([&] {
      for (const glm::vec3& target : targets) {
        // Every frame starts from the freshly sampled pose.
        std::copy(c.pose.locals.begin(), c.pose.locals.end(), pose.locals.begin());
        std::copy(c.models.begin(), c.models.end(), models.begin());
        ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, {}, limits_or_null, &pose, &models,
                            &workspace, &result);
        (result.reached ? reached : missed) += 1;
      }
    });
    EXPECT_EQ(allocations, 0) << "limits " << with_limits;
    // The solves did real work: some targets reached, some (beyond reach, or not allowed by the
    // limits) missed.
    EXPECT_GT(reached, 0);
    EXPECT_GT(missed, 0);
    // And the result is the one the allocating overload gives.
    ik::Pose fresh_pose = c.pose;
    std::vector<glm::mat4> fresh_models = c.models;
    const ik::FabrikResult fresh = ik::SolveFabrikPose(
        c.skeleton, c.root, c.end, targets.back(), {}, limits_or_null, &fresh_pose, &fresh_models);
    EXPECT_EQ(fresh.positions, result.positions);
    EXPECT_EQ(fresh.iterations, result.iterations);
    EXPECT_EQ(fresh_models, models);
  }
}

TEST(FabrikLimits, AHingeLimitOnTheKneeKeepsTheTwoBoneHingesBendRange) {
  std::mt19937 rng(310);
  for (int i = 0; i < 300; ++i) {
    iktest::ChainRig rig = iktest::RandomChainRig(rng);
    ik::TwoBoneIkOptions two;
    two.hinge = true;
    two.bend_axis_local = glm::normalize(
        glm::inverse(glm::mat3(rig.models[2])) *
        glm::cross(Position(rig.models, 2) - Position(rig.models, 1), RandomUnit(rng)));
    two.hinge_min_angle = 0.1f;
    two.hinge_max_angle = 2.2f;
    const auto limit = ik::HingeLimitFromTwoBone(rig.skeleton, rig.chain, two);
    if (!limit) continue;
    ik::JointLimits limits;
    limits.Set(2, *limit);
    const glm::vec3 target = Position(rig.models, 1) +
                             RandomUnit(rng) * Uniform(rng, 0.0f, 1.2f) * (rig.upper + rig.lower);
    const ik::FabrikResult r =
        ik::SolveFabrikPose(rig.skeleton, 1, 3, target, {}, &limits, &rig.pose, &rig.models);
    ASSERT_FALSE(r.degenerate);
    ASSERT_EQ(iktest::LimitViolation(*limit, rig.skeleton.rest_locals()[2].rotation,
                                     rig.pose.locals[2].rotation),
              "")
        << i;
  }
}

// --- Degenerate input ---

TEST(FabrikDegenerate, ZeroLengthSegmentsStayZeroAndTheRestReaches) {
  std::mt19937 rng(311);
  for (int i = 0; i < 300; ++i) {
    ChainSkeleton c = RandomChainSkeleton(rng, 4 + i % 12, 0.6f, true);
    const std::vector<glm::vec3> before = ChainPositions(c);
    const Reach reach = ChainReach(before);
    if (reach.total < 0.2f) continue;
    const glm::vec3 target = before.front() + RandomUnit(rng) * ReachableDistance(rng, reach);
    const ik::FabrikResult r =
        ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, {}, nullptr, &c.pose, &c.models);
    ASSERT_FALSE(r.degenerate);
    ExpectLengthsKept(before, ChainPositions(c), reach.total, i);
    ASSERT_TRUE(r.reached) << i;
  }
}

TEST(FabrikDegenerate, AllSegmentsZeroMovesNothing) {
  std::vector<glm::vec3> p(5, glm::vec3(1.0f, 2.0f, 3.0f));
  const ik::FabrikPositionsResult r = ik::SolveFabrikPositions(&p, glm::vec3(0.0f), {});
  EXPECT_EQ(r.fallback, ik::FabrikFallback::kZeroLengthChain);
  EXPECT_FALSE(r.reached);
  for (const glm::vec3& q : p) EXPECT_EQ(q, glm::vec3(1.0f, 2.0f, 3.0f));
}

TEST(FabrikDegenerate, TargetAtTheRootFoldsTheChainWhenItCan) {
  std::mt19937 rng(312);
  for (int i = 0; i < 200; ++i) {
    ChainSkeleton c = RandomChainSkeleton(rng, 3 + i % 10);
    const std::vector<glm::vec3> before = ChainPositions(c);
    const Reach reach = ChainReach(before);
    const ik::FabrikResult r = ik::SolveFabrikPose(c.skeleton, c.root, c.end, before.front(), {},
                                                   nullptr, &c.pose, &c.models);
    ASSERT_FALSE(r.degenerate);
    ExpectLengthsKept(before, ChainPositions(c), reach.total, i);
    if (reach.shortest > 1e-3f * reach.total) {
      // Too close: the end gets as near as the longest segment allows (FABRIK's best effort).
      ASSERT_TRUE(r.unreachable);
      ASSERT_LE(r.error, reach.shortest + 1e-2f * reach.total) << i;
    } else if (reach.shortest == 0.0f) {
      ASSERT_TRUE(r.reached) << i;
    }
  }
}

TEST(FabrikDegenerate, StraightChainWithTheTargetOnItsLineBendsAndReaches) {
  for (int joints : {3, 4, 8, 30}) {
    std::vector<ik::JointDesc> desc = {{"base", -1, {}, {}}};
    for (int i = 0; i < joints; ++i) {
      ik::Transform t;
      t.translation = i == 0 ? glm::vec3(0.0f) : glm::vec3(0.0f, 0.5f, 0.0f);
      desc.push_back({"c" + std::to_string(i), i, t, {}});
    }
    ChainSkeleton c;
    c.skeleton = iktest::MustBuild(std::move(desc));
    c.pose = ik::Pose::Rest(c.skeleton);
    ik::LocalToModel(c.skeleton, c.pose, &c.models);
    c.root = 1;
    c.end = joints;
    const float total = 0.5f * (joints - 1);
    for (const float along : {0.5f, -0.3f, 0.999f}) {
      ChainSkeleton s = c;
      ik::FabrikOptions options;
      options.bend_hint_model = glm::vec3(0.0f, 0.0f, 1.0f);
      const glm::vec3 target(0.0f, along * total, 0.0f);
      const ik::FabrikResult r = ik::SolveFabrikPose(s.skeleton, s.root, s.end, target, options,
                                                     nullptr, &s.pose, &s.models);
      ASSERT_FALSE(r.degenerate);
      EXPECT_EQ(r.fallback, ik::FabrikFallback::kStraightChain) << joints << " " << along;
      EXPECT_TRUE(r.reached) << joints << " " << along << " error " << r.error;
      ExpectLengthsKept(ChainPositions(c), ChainPositions(s), total, joints);
      // It bent toward the hint: the joints left the line on +z.
      float max_z = 0.0f;
      for (const glm::vec3& q : ChainPositions(s)) max_z = std::max(max_z, q.z);
      EXPECT_GT(max_z, 1e-3f) << joints << " " << along;
    }
  }
}

TEST(FabrikDegenerate, NonFiniteOrHugeInputLeavesThePoseAndModelsUnchanged) {
  std::mt19937 rng(313);
  ChainSkeleton c = RandomChainSkeleton(rng, 5);
  const std::vector<glm::mat4> before = c.models;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const glm::vec3& target : {glm::vec3(nan, 0, 0), glm::vec3(0, inf, 0), glm::vec3(1e30f)}) {
    const ik::FabrikResult r =
        ik::SolveFabrikPose(c.skeleton, c.root, c.end, target, {}, nullptr, &c.pose, &c.models);
    EXPECT_TRUE(r.degenerate);
    EXPECT_EQ(r.fallback, ik::FabrikFallback::kNonFiniteInput);
    EXPECT_TRUE(std::isfinite(r.error));
    EXPECT_TRUE(ik::IsFinite(r.target_model));
  }
  EXPECT_EQ(c.models, before);
  std::vector<glm::vec3> p = ChainPositions(c);
  const std::vector<glm::vec3> p_before = p;
  EXPECT_EQ(ik::SolveFabrikPositions(&p, glm::vec3(nan), {}).fallback,
            ik::FabrikFallback::kNonFiniteInput);
  EXPECT_EQ(p, p_before);
}

TEST(FabrikDegenerate, InvalidChainsAndOptionsAreRefusedWithAReason) {
  const iktest::Humanoid h0 = iktest::MakeHumanoid();
  iktest::Humanoid h = h0;
  const glm::vec3 t(0.3f, 1.0f, 0.2f);
  EXPECT_NE(ik::ValidateFabrikChain(h.skeleton, h.Joint("LeftLeg"), h.Joint("RightFoot")), "");
  EXPECT_NE(ik::ValidateFabrikChain(h.skeleton, 3, 3), "");
  EXPECT_NE(ik::ValidateFabrikChain(h.skeleton, -1, 3), "");
  EXPECT_EQ(ik::ValidateFabrikChain(h.skeleton, h.Joint("Hips"), h.Joint("Head")), "");
  EXPECT_EQ(ik::FabrikChainJoints(h.skeleton, h.Joint("Spine"), h.Joint("Head")),
            (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_TRUE(ik::FabrikChainJoints(h.skeleton, 5, 1).empty());
  EXPECT_EQ(ik::SolveFabrikPose(h.skeleton, 5, 1, t, {}, nullptr, &h.pose, &h.models).fallback,
            ik::FabrikFallback::kInvalidChain);
  ik::FabrikOptions bad;
  bad.tolerance = 0.0f;
  std::string why;
  EXPECT_FALSE(bad.Validate(&why));
  EXPECT_NE(why.find("tolerance"), std::string::npos);
  EXPECT_EQ(ik::SolveFabrikPose(h.skeleton, 1, 5, t, bad, nullptr, &h.pose, &h.models).fallback,
            ik::FabrikFallback::kInvalidOptions);
  bad = {};
  bad.max_iterations = 0;
  EXPECT_FALSE(bad.Validate());
  EXPECT_EQ(h.models, h0.models);
  EXPECT_STREQ(ik::FabrikFallbackName(ik::FabrikFallback::kStraightChain), "straight_chain");
}

// A spine-to-head chain of the humanoid, as `--fabrik Spine:Head=...` would solve it.
TEST(Fabrik, HumanoidSpineToHeadReachesAndLeavesTheLegsAlone) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const std::vector<glm::mat4> before = h.models;
  const glm::vec3 target(0.15f, 1.5f, 0.2f);
  const ik::FabrikResult r = ik::SolveFabrikPose(h.skeleton, h.Joint("Spine"), h.Joint("Head"),
                                                 target, {}, nullptr, &h.pose, &h.models);
  ASSERT_TRUE(r.reached);
  EXPECT_LE(glm::length(Position(h.models, h.Joint("Head")) - target), r.tolerance_model);
  for (const char* leg : {"LeftUpLeg", "LeftFoot", "RightFoot", "Hips"}) {
    EXPECT_EQ(h.models[h.Joint(leg)], before[h.Joint(leg)]) << leg;
  }
}

}  // namespace
