// Benchmarks of the ik library: one two-bone solve (job level), the batch (SIMD) solve, the seed's
// own formulation for comparison, forward kinematics and the skin palette. Two-bone figures are
// per solve over 4,096 leg problems: thigh 0.45 and shin 0.42 (each ±5%), random hip position and
// orientation, knee flexed 5-120°, targets 70% reachable, 15% too far, 15% too close.
// items_per_second counts solves (or joints for the FK/palette benchmarks); time_per_item is its
// inverse. BM_TwoBoneIk/batch times TwoBoneIkBatch::Solve on chains already stored in it.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <string>
#include <vector>

#include "ik/core/kinematics.h"
#include "ik/core/skeleton.h"
#include "ik/core/transform.h"
#include "ik/two_bone/two_bone_ik.h"
#include "ik/two_bone/two_bone_ik_batch.h"

namespace {

constexpr int kProblems = 4096;

struct Problem {
  glm::mat4 start, mid, end;  // model space
  ik::Transform mid_local;    // the mid joint's local transform (the seed's code rebuilds from it)
  glm::vec3 target;
};

float Uniform(std::mt19937& rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(rng);
}

glm::quat RandomRotation(std::mt19937& rng) {
  const float u1 = Uniform(rng, 0.0f, 1.0f), u2 = Uniform(rng, 0.0f, 6.2831853f),
              u3 = Uniform(rng, 0.0f, 6.2831853f);
  const float s1 = std::sqrt(1.0f - u1), s2 = std::sqrt(u1);
  return glm::normalize(
      glm::quat(s2 * std::cos(u3), s1 * std::sin(u2), s1 * std::cos(u2), s2 * std::sin(u3)));
}

glm::vec3 RandomUnit(std::mt19937& rng) {
  for (;;) {
    const glm::vec3 v(Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1));
    const float len2 = glm::dot(v, v);
    if (len2 > 1e-4f && len2 <= 1.0f) return v / std::sqrt(len2);
  }
}

const std::vector<Problem>& Problems() {
  static const std::vector<Problem> problems = [] {
    std::mt19937 rng(1234);
    std::vector<Problem> out(kProblems);
    for (Problem& p : out) {
      const float thigh = 0.45f * Uniform(rng, 0.95f, 1.05f);
      const float shin = 0.42f * Uniform(rng, 0.95f, 1.05f);
      const float flex = glm::radians(Uniform(rng, 5.0f, 120.0f));
      ik::Transform hip;
      hip.translation = glm::vec3(Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1));
      hip.rotation = RandomRotation(rng);
      p.mid_local.translation = glm::vec3(0.0f, -thigh, 0.0f);
      p.mid_local.rotation = glm::angleAxis(flex, glm::vec3(1.0f, 0.0f, 0.0f));
      ik::Transform ankle;
      ankle.translation = glm::vec3(0.0f, -shin, 0.0f);
      p.start = hip.ToMatrix();
      p.mid = p.start * p.mid_local.ToMatrix();
      p.end = p.mid * ankle.ToMatrix();
      const float reach = thigh + shin, hole = std::abs(thigh - shin);
      const float pick = Uniform(rng, 0.0f, 1.0f);
      const float distance = pick < 0.70f   ? Uniform(rng, hole, reach)
                             : pick < 0.85f ? Uniform(rng, reach, 1.5f * reach)
                                            : Uniform(rng, 0.0f, hole);
      p.target = hip.translation + RandomUnit(rng) * distance;
    }
    return out;
  }();
  return problems;
}

void SetCounters(benchmark::State& state, int64_t items_per_iteration) {
  state.SetItemsProcessed(state.iterations() * items_per_iteration);
  // Seconds per item, printed with an SI prefix (e.g. 68.2n = 68.2 ns).
  state.counters["time_per_item"] =
      benchmark::Counter(static_cast<double>(state.iterations() * items_per_iteration),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void TwoBoneIkSingle(benchmark::State& state) {
  const std::vector<Problem>& problems = Problems();
  const ik::TwoBoneIkOptions options;
  for (auto _ : state) {
    for (const Problem& p : problems) {
      ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(p.start, p.mid, p.end, p.target, options);
      benchmark::DoNotOptimize(r);
    }
  }
  SetCounters(state, kProblems);
}

void TwoBoneIkBatch(benchmark::State& state, ik::TwoBoneIkBatch::Kernel kernel) {
  const std::vector<Problem>& problems = Problems();
  ik::TwoBoneIkBatch batch(kProblems);
  for (int i = 0; i < kProblems; ++i) {
    const Problem& p = problems[i];
    batch.SetChain(i, p.start, p.mid, p.end, p.target);
  }
  const ik::TwoBoneIkOptions options;
  for (auto _ : state) {
    batch.Solve(options, kernel);
    benchmark::ClobberMemory();
  }
  SetCounters(state, kProblems);
  const char* name =
      kernel == ik::TwoBoneIkBatch::Kernel::kSse2 ? "sse2" : ik::TwoBoneIkBatch::KernelName();
  state.SetLabel(std::string(name) + ", " + std::to_string(batch.special_count()) +
                 " chains via the scalar path");
}

// --- The seed's formulation (seeds/two-bone-ik.txt), for comparison -----------------------------
// acos for the angle, glm::angleAxis, and general 4x4 inverses (three, as printed). The printed
// bugs that would make it wrong or NaN are fixed (identity quaternion, clamped acos and sqrt) so
// that it does the same work as a correct solve.

glm::quat SeedRotationBetween(const glm::vec3& u, const glm::vec3& v) {
  glm::vec3 axis = glm::cross(u, v);
  const float len_axis = glm::length(axis);
  if (len_axis < 1e-3f) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  axis /= len_axis;
  const float angle = std::acos(std::min(1.0f, std::max(-1.0f, glm::dot(u, v))));
  return glm::angleAxis(angle, axis);
}

glm::vec3 SeedPerpendicular(const glm::vec3& n, const glm::vec3& v) {
  const glm::vec3 u = v - glm::dot(v, n) * n;
  const float len = glm::length(u);
  if (len > 1e-6f) return u / len;
  return glm::normalize(
      glm::cross(n, std::abs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0)));
}

struct SeedOut {
  glm::quat start, mid;
  bool reached;
};

SeedOut SeedSolve(const Problem& p) {
  const glm::mat4& TTk = p.start;
  const glm::mat4& TTj = p.mid;
  const glm::vec3 a(TTk[3]), b(TTj[3]), c(p.end[3]), t = p.target;
  const float len_ab = glm::length(b - a);
  const float len_bc = glm::length(c - b);
  const float len_at = glm::length(t - a);
  glm::vec3 n = (a - t) / len_at;
  if (len_at < 1e-3f) n = glm::vec3(1.0f, 0.0f, 0.0f);
  bool reached = false;
  glm::vec3 b_final, c_final;
  if (len_at < std::abs(len_ab - len_bc)) {
    const float sign = len_ab > len_bc ? 1.0f : -1.0f;
    b_final = a - sign * len_ab * n;
    c_final = b_final + sign * len_bc * n;
  } else if (len_at <= len_ab + len_bc) {
    reached = true;
    c_final = t;
    const float cos_theta =
        (len_bc * len_bc - len_ab * len_ab - len_at * len_at) / (-2.0f * len_ab * len_at);
    const float sin_theta = std::sqrt(std::max(0.0f, 1.0f - cos_theta * cos_theta));
    const float r = len_ab * sin_theta;
    const glm::vec3 m = a - len_ab * cos_theta * n;
    b_final = m + r * SeedPerpendicular(n, b - m);
  } else {
    b_final = a - len_ab * n;
    c_final = b_final - len_bc * n;
  }
  const glm::mat4 iTTk = glm::inverse(TTk);
  glm::vec3 local_currt = glm::normalize(glm::vec3(iTTk * glm::vec4(b, 1.0f)));
  glm::vec3 local_final = glm::normalize(glm::vec3(iTTk * glm::vec4(b_final, 1.0f)));
  SeedOut out;
  out.start = SeedRotationBetween(local_currt, local_final);
  out.reached = reached;
  // Transforms updated: the start's new model matrix, then the mid's from its local transform.
  const glm::mat4 TTk_new = TTk * glm::mat4_cast(out.start);
  const glm::mat4 TTj_new = TTk_new * p.mid_local.ToMatrix();
  local_currt = glm::normalize(glm::vec3(glm::inverse(TTj) * glm::vec4(c, 1.0f)));
  local_final = glm::normalize(glm::vec3(glm::inverse(TTj_new) * glm::vec4(c_final, 1.0f)));
  out.mid = SeedRotationBetween(local_currt, local_final);
  return out;
}

void TwoBoneIkSeedBaseline(benchmark::State& state) {
  const std::vector<Problem>& problems = Problems();
  for (auto _ : state) {
    for (const Problem& p : problems) {
      SeedOut out = SeedSolve(p);
      benchmark::DoNotOptimize(out);
    }
  }
  SetCounters(state, kProblems);
}

// --- Forward kinematics and palette --------------------------------------------------------------

ik::Skeleton RandomSkeleton(int joints) {
  std::mt19937 rng(99);
  std::vector<ik::JointDesc> descs(joints);
  for (int i = 0; i < joints; ++i) {
    descs[i].name = "joint" + std::to_string(i);
    // Mostly chains with branches, parents before children.
    descs[i].parent = i == 0 ? -1 : std::max(0, i - 1 - static_cast<int>(rng() % 3));
    descs[i].rest.translation = RandomUnit(rng) * 0.1f;
    descs[i].rest.rotation = RandomRotation(rng);
  }
  std::string error;
  return *ik::Skeleton::Build(std::move(descs), &error);
}

void LocalToModel(benchmark::State& state) {
  const int joints = static_cast<int>(state.range(0));
  const ik::Skeleton skeleton = RandomSkeleton(joints);
  const ik::Pose pose = ik::Pose::Rest(skeleton);
  std::vector<glm::mat4> models;
  for (auto _ : state) {
    ik::LocalToModel(skeleton, pose, &models);
    benchmark::DoNotOptimize(models.data());
    benchmark::ClobberMemory();
  }
  SetCounters(state, joints);
}

void SkinPalette(benchmark::State& state) {
  const int joints = static_cast<int>(state.range(0));
  const ik::Skeleton skeleton = RandomSkeleton(joints);
  std::vector<glm::mat4> models, palette;
  ik::LocalToModel(skeleton, ik::Pose::Rest(skeleton), &models);
  for (auto _ : state) {
    ik::SkinPalette(skeleton, models, &palette);
    benchmark::DoNotOptimize(palette.data());
    benchmark::ClobberMemory();
  }
  SetCounters(state, joints);
}

const bool kRegistered = [] {
  benchmark::RegisterBenchmark("BM_TwoBoneIk/single", TwoBoneIkSingle);
  benchmark::RegisterBenchmark("BM_TwoBoneIk/batch", TwoBoneIkBatch,
                               ik::TwoBoneIkBatch::Kernel::kAuto);
  benchmark::RegisterBenchmark("BM_TwoBoneIk/batch_sse2", TwoBoneIkBatch,
                               ik::TwoBoneIkBatch::Kernel::kSse2);
  benchmark::RegisterBenchmark("BM_TwoBoneIk/seed_baseline", TwoBoneIkSeedBaseline);
  benchmark::RegisterBenchmark("BM_LocalToModel", LocalToModel)->Arg(64)->Arg(256);
  benchmark::RegisterBenchmark("BM_SkinPalette", SkinPalette)->Arg(64)->Arg(256);
  return true;
}();

}  // namespace
