// Benchmarks of the constraint solvers: FABRIK on chains of 4, 16 and 64 joints (pose level, the
// position-only core, and with joint limits: targets the limits allow, and targets anywhere in
// reach), and points-at (aim) per joint. Each FABRIK benchmark
// cycles through 256 problems: a chain bent 0-35° at every joint with segments 0.1-1.0 long, and a
// target at a uniformly random direction and distance within the chain's reach. items_per_second
// counts solves; "iterations" is the mean number of FABRIK iterations per solve. The pose is reset
// to the input before every solve (as each frame solves a freshly sampled pose); the reset is
// timed with the solve.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <string>
#include <vector>

#include "ik/chains/aim.h"
#include "ik/chains/fabrik.h"
#include "ik/core/kinematics.h"
#include "ik/core/skeleton.h"
#include "ik/limits/joint_limits.h"

namespace {

constexpr int kProblems = 256;

float Uniform(std::mt19937& rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(rng);
}

glm::vec3 RandomUnit(std::mt19937& rng) {
  for (;;) {
    const glm::vec3 v(Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1));
    const float len2 = glm::dot(v, v);
    if (len2 > 1e-4f && len2 <= 1.0f) return v / std::sqrt(len2);
  }
}

struct FabrikProblem {
  ik::Skeleton skeleton;
  ik::Pose pose;
  std::vector<glm::mat4> models;
  std::vector<glm::vec3> positions;  // the chain's joints, root to end
  std::vector<float> lengths;
  glm::vec3 target{0.0f};
  int root = 1, end = 1;
};

// A base joint, then `chain_joints` joints along local +Y, each bent by up to 35°.
FabrikProblem MakeProblem(std::mt19937& rng, int chain_joints) {
  std::vector<ik::JointDesc> joints;
  joints.push_back({"base", -1, ik::Transform{}, {}});
  for (int i = 0; i < chain_joints; ++i) {
    ik::Transform t;
    t.translation = i == 0 ? glm::vec3(0.0f) : glm::vec3(0.0f, Uniform(rng, 0.1f, 1.0f), 0.0f);
    t.rotation = glm::angleAxis(glm::radians(Uniform(rng, 0.0f, 35.0f)), RandomUnit(rng));
    joints.push_back({"j" + std::to_string(i), i, t, {}});
  }
  FabrikProblem p;
  std::string error;
  p.skeleton = *ik::Skeleton::Build(joints, &error);
  p.pose = ik::Pose::Rest(p.skeleton);
  ik::LocalToModel(p.skeleton, p.pose, &p.models);
  p.root = 1;
  p.end = chain_joints;
  float total = 0.0f, longest = 0.0f;
  for (int j = 1; j <= chain_joints; ++j) p.positions.push_back(glm::vec3(p.models[j][3]));
  for (int i = 0; i + 1 < chain_joints; ++i) {
    p.lengths.push_back(glm::length(p.positions[i + 1] - p.positions[i]));
    total += p.lengths.back();
    longest = std::max(longest, p.lengths.back());
  }
  const float shortest = std::max(0.0f, 2.0f * longest - total);
  p.target = p.positions.front() + RandomUnit(rng) * Uniform(rng, shortest, total);
  return p;
}

const std::vector<FabrikProblem>& Problems(int chain_joints) {
  static std::vector<std::vector<FabrikProblem>> cache(65);
  std::vector<FabrikProblem>& out = cache[chain_joints];
  if (out.empty()) {
    std::mt19937 rng(4242 + chain_joints);
    for (int i = 0; i < kProblems; ++i) out.push_back(MakeProblem(rng, chain_joints));
  }
  return out;
}

void SetCounters(benchmark::State& state, double iterations) {
  state.SetItemsProcessed(state.iterations());
  state.counters["iterations"] = benchmark::Counter(iterations, benchmark::Counter::kAvgIterations);
}

// Pose level: positions, rotations root to tip, forward kinematics of the chain's subtree.
void BM_Fabrik(benchmark::State& state) {
  const int joints = static_cast<int>(state.range(0));
  const auto& problems = Problems(joints);
  ik::Pose pose = problems[0].pose;
  std::vector<glm::mat4> models = problems[0].models;
  const ik::FabrikOptions options;
  ik::FabrikWorkspace workspace;
  ik::FabrikResult r;
  double iterations = 0.0;
  size_t i = 0;
  for (auto _ : state) {
    const FabrikProblem& p = problems[i++ % problems.size()];
    std::copy(p.pose.locals.begin(), p.pose.locals.end(), pose.locals.begin());
    std::copy(p.models.begin(), p.models.end(), models.begin());
    ik::SolveFabrikPose(p.skeleton, p.root, p.end, p.target, options, nullptr, &pose, &models,
                        &workspace, &r);
    iterations += r.iterations;
    benchmark::DoNotOptimize(models.data());
  }
  SetCounters(state, iterations);
}

// The position-only core (no allocation, no rotations).
void BM_FabrikPositions(benchmark::State& state) {
  const int joints = static_cast<int>(state.range(0));
  const auto& problems = Problems(joints);
  std::vector<glm::vec3> positions(joints);
  const ik::FabrikOptions options;
  double iterations = 0.0;
  size_t i = 0;
  for (auto _ : state) {
    const FabrikProblem& p = problems[i++ % problems.size()];
    std::copy(p.positions.begin(), p.positions.end(), positions.begin());
    const ik::FabrikPositionsResult r =
        ik::SolveFabrikPositions(positions.data(), p.lengths.data(), joints, p.target, options);
    iterations += r.iterations;
    benchmark::DoNotOptimize(positions.data());
  }
  SetCounters(state, iterations);
}

// Limits on every joint but the end: alternating 60° cones (twist ±0.5 rad) and ±90° hinges
// across the bone.
ik::JointLimits BenchLimits(int joints) {
  ik::JointLimits limits;
  for (int j = 1; j < joints; ++j) {
    if (j % 2) {
      limits.Set(j, ik::JointLimit::Cone(glm::vec3(0, 1, 0), 1.05f, -0.5f, 0.5f));
    } else {
      limits.Set(j, ik::JointLimit::Hinge(glm::vec3(1, 0, 0), -1.57f, 1.57f));
    }
  }
  return limits;
}

// Targets the limits allow, made as the reporter did: every joint of the chain swung and
// twisted (cones) or turned (hinges) from its rest rotation by a random amount within its limit;
// the target is where the end then is. The solve starts from the rest pose.
const std::vector<glm::vec3>& AllowedTargets(int chain_joints) {
  static std::vector<std::vector<glm::vec3>> cache(65);
  std::vector<glm::vec3>& out = cache[chain_joints];
  if (out.empty()) {
    const auto& problems = Problems(chain_joints);
    const ik::JointLimits limits = BenchLimits(chain_joints);
    std::mt19937 rng(777 + chain_joints);
    for (const FabrikProblem& p : problems) {
      ik::Pose goal = p.pose;
      for (int j = 1; j < chain_joints; ++j) {
        const ik::JointLimit& l = *limits.Find(j);
        glm::quat delta;
        if (l.type == ik::JointLimit::Type::kHinge) {
          delta = glm::angleAxis(Uniform(rng, l.min_angle, l.max_angle), l.axis_local);
        } else {
          const glm::vec3 across = glm::normalize(glm::cross(l.twist_axis_local, RandomUnit(rng)));
          delta = glm::angleAxis(Uniform(rng, 0.0f, l.cone_angle), across) *
                  glm::angleAxis(Uniform(rng, l.twist_min, l.twist_max), l.twist_axis_local);
        }
        goal.locals[j].rotation = p.skeleton.rest_locals()[j].rotation * delta;
      }
      std::vector<glm::mat4> models;
      ik::LocalToModel(p.skeleton, goal, &models);
      out.push_back(glm::vec3(models[p.end][3]));
    }
  }
  return out;
}

// With limits on every joint, targets the limits allow (state.range(1) = 1) or targets anywhere
// within the chain's reach sphere (0; many of these the limits do not allow). "reached" is the
// fraction of solves that ended within the tolerance (1e-3 of the chain's length).
void BM_FabrikLimits(benchmark::State& state) {
  const int joints = static_cast<int>(state.range(0));
  const bool allowed = state.range(1) != 0;
  const auto& problems = Problems(joints);
  const std::vector<glm::vec3>* targets = allowed ? &AllowedTargets(joints) : nullptr;
  const ik::JointLimits limits = BenchLimits(joints);
  ik::Pose pose = problems[0].pose;
  std::vector<glm::mat4> models = problems[0].models;
  ik::FabrikOptions options;
  options.tolerance = 1e-3f;
  ik::FabrikWorkspace workspace;
  ik::FabrikResult r;
  double iterations = 0.0, reached = 0.0;
  size_t i = 0;
  for (auto _ : state) {
    const size_t k = i++ % problems.size();
    const FabrikProblem& p = problems[k];
    std::copy(p.pose.locals.begin(), p.pose.locals.end(), pose.locals.begin());
    std::copy(p.models.begin(), p.models.end(), models.begin());
    ik::SolveFabrikPose(p.skeleton, p.root, p.end, targets ? (*targets)[k] : p.target, options,
                        &limits, &pose, &models, &workspace, &r);
    iterations += r.iterations;
    reached += r.reached ? 1.0 : 0.0;
    benchmark::DoNotOptimize(models.data());
  }
  SetCounters(state, iterations);
  state.counters["reached"] = benchmark::Counter(reached, benchmark::Counter::kAvgIterations);
}

BENCHMARK(BM_Fabrik)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_FabrikPositions)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_FabrikLimits)
    ->ArgNames({"joints", "allowed"})
    ->Args({4, 1})
    ->Args({16, 1})
    ->Args({64, 1})
    ->Args({4, 0})
    ->Args({16, 0})
    ->Args({64, 0});

// --- Aim ---

// A humanoid-like arm and neck: base -> spine -> neck -> head, base -> shoulder -> arm -> forearm
// -> hand, bones along +Y with random bends, and 256 targets around the body.
struct AimProblem {
  ik::Skeleton skeleton;
  ik::Pose pose;
  std::vector<glm::mat4> models;
  std::vector<glm::vec3> targets;
};

const AimProblem& Aim() {
  static const AimProblem problem = [] {
    std::mt19937 rng(99);
    std::vector<ik::JointDesc> joints;
    joints.push_back({"base", -1, ik::Transform{}, {}});
    for (int i = 1; i <= 7; ++i) {
      ik::Transform t;
      t.translation = glm::vec3(0.0f, 0.25f, 0.0f);
      t.rotation = glm::angleAxis(glm::radians(Uniform(rng, 0.0f, 30.0f)), RandomUnit(rng));
      joints.push_back({"j" + std::to_string(i), i - 1, t, {}});
    }
    AimProblem p;
    std::string error;
    p.skeleton = *ik::Skeleton::Build(joints, &error);
    p.pose = ik::Pose::Rest(p.skeleton);
    ik::LocalToModel(p.skeleton, p.pose, &p.models);
    for (int i = 0; i < kProblems; ++i) p.targets.push_back(RandomUnit(rng) * 3.0f);
    return p;
  }();
  return problem;
}

// One joint: the bone of joint 6 (to joint 7) points at the target; state.range(0) ancestors
// share the turn (0: the joint alone). items_per_second counts solves.
void BM_Aim(benchmark::State& state) {
  const AimProblem& p = Aim();
  ik::Pose pose = p.pose;
  std::vector<glm::mat4> models = p.models;
  ik::AimOptions options;
  options.spread = static_cast<int>(state.range(0));
  ik::AimWorkspace workspace;
  size_t i = 0;
  for (auto _ : state) {
    std::copy(p.pose.locals.begin(), p.pose.locals.end(), pose.locals.begin());
    std::copy(p.models.begin(), p.models.end(), models.begin());
    const ik::AimResult r = ik::SolveAimPose(p.skeleton, 6, p.targets[i++ % p.targets.size()],
                                             options, nullptr, &pose, &models, &workspace);
    benchmark::DoNotOptimize(r.angle_after);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["joints"] = static_cast<double>(options.spread + 1);
}
BENCHMARK(BM_Aim)->Arg(0)->Arg(3);

// One joint with an up reference and a cone limit.
void BM_AimUpLimit(benchmark::State& state) {
  const AimProblem& p = Aim();
  ik::Pose pose = p.pose;
  std::vector<glm::mat4> models = p.models;
  ik::AimOptions options;
  options.up_local = glm::vec3(0, 0, 1);
  options.up_direction_model = glm::vec3(0, 1, 0);
  ik::JointLimits limits;
  limits.Set(6, ik::JointLimit::Cone(glm::vec3(0, 1, 0), 1.0f, -0.5f, 0.5f));
  ik::AimWorkspace workspace;
  size_t i = 0;
  for (auto _ : state) {
    std::copy(p.pose.locals.begin(), p.pose.locals.end(), pose.locals.begin());
    std::copy(p.models.begin(), p.models.end(), models.begin());
    const ik::AimResult r = ik::SolveAimPose(p.skeleton, 6, p.targets[i++ % p.targets.size()],
                                             options, &limits, &pose, &models, &workspace);
    benchmark::DoNotOptimize(r.angle_after);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AimUpLimit);

// The job-level correction alone (no pose, no forward kinematics).
void BM_AimCorrection(benchmark::State& state) {
  const AimProblem& p = Aim();
  const glm::mat4 frame = p.models[6];
  const glm::vec3 axis(0.0f, 0.25f, 0.0f);
  size_t i = 0;
  for (auto _ : state) {
    const glm::quat q = ik::AimCorrection(frame, axis, p.targets[i++ % p.targets.size()]);
    benchmark::DoNotOptimize(q);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AimCorrection);

}  // namespace
