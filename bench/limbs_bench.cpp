// Limb detection (ik::DetectLimbs) on a humanoid and on joints with very many children: a fan of
// 65,534 leaf children (a hostile file; it took seconds to minutes while pairing was quadratic)
// and a joint with 21,844 alike three-joint branches (every pair of them a mirror image: the
// worst case for pairing). items_per_second counts joints.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "ik/body/limbs.h"
#include "ik/core/skeleton.h"

namespace {

ik::JointDesc Joint(const std::string& name, int parent, glm::vec3 offset) {
  ik::JointDesc d;
  d.name = name;
  d.parent = parent;
  d.rest.translation = offset;
  return d;
}

ik::Skeleton Build(std::vector<ik::JointDesc> joints) {
  std::string error;
  return *ik::Skeleton::Build(std::move(joints), &error);
}

// Hips, spine, head, and two arms and two legs of three joints, unnamed ("j7"): found by symmetry.
ik::Skeleton Humanoid() {
  std::vector<ik::JointDesc> j;
  j.push_back(Joint("j0", -1, {0, 1, 0}));
  j.push_back(Joint("j1", 0, {0, 0.3f, 0}));
  j.push_back(Joint("j2", 1, {0, 0.3f, 0}));
  for (float side : {-1.0f, 1.0f}) {
    const int leg = static_cast<int>(j.size());
    j.push_back(Joint("j" + std::to_string(leg), 0, {side * 0.1f, 0, 0}));
    j.push_back(Joint("j" + std::to_string(leg + 1), leg, {0, -0.45f, 0}));
    j.push_back(Joint("j" + std::to_string(leg + 2), leg + 1, {0, -0.42f, 0.02f}));
    j.push_back(Joint("j" + std::to_string(leg + 3), leg + 2, {0, -0.05f, 0.12f}));
    const int arm = static_cast<int>(j.size());
    j.push_back(Joint("j" + std::to_string(arm), 2, {side * 0.15f, 0, 0}));
    j.push_back(Joint("j" + std::to_string(arm + 1), arm, {side * 0.3f, 0, 0}));
    j.push_back(Joint("j" + std::to_string(arm + 2), arm + 1, {side * 0.27f, 0, -0.02f}));
  }
  return Build(std::move(j));
}

// A root with `children` leaf children on a circle.
ik::Skeleton Fan(int children) {
  std::vector<ik::JointDesc> j = {Joint("root", -1, {0, 0, 0})};
  for (int i = 0; i < children; ++i) {
    const float a = 6.2831853f * float(i) / float(children);
    j.push_back(Joint("c" + std::to_string(i), 0, {std::cos(a), 0, std::sin(a)}));
  }
  return Build(std::move(j));
}

// A root with `branches` alike two-bone branches around it.
ik::Skeleton Star(int branches) {
  std::vector<ik::JointDesc> j = {Joint("root", -1, {0, 0, 0})};
  for (int i = 0; i < branches; ++i) {
    const float a = 6.2831853f * float(i) / float(branches);
    const glm::vec3 out(std::cos(a), 0, std::sin(a));
    const int first = static_cast<int>(j.size());
    j.push_back(Joint("b" + std::to_string(first), 0, 0.1f * out));
    j.push_back(Joint("b" + std::to_string(first + 1), first, 0.4f * out));
    j.push_back(Joint("b" + std::to_string(first + 2), first + 1, 0.4f * out));
  }
  return Build(std::move(j));
}

void DetectLimbs(benchmark::State& state, const ik::Skeleton& skeleton) {
  for (auto _ : state) benchmark::DoNotOptimize(ik::DetectLimbs(skeleton));
  state.SetItemsProcessed(state.iterations() * skeleton.joint_count());
}

}  // namespace

int main(int argc, char** argv) {
  static const ik::Skeleton humanoid = Humanoid(), fan = Fan(65534), star = Star(21844);
  benchmark::RegisterBenchmark("BM_DetectLimbs/humanoid",
                               [](benchmark::State& s) { DetectLimbs(s, humanoid); });
  benchmark::RegisterBenchmark("BM_DetectLimbs/fan_65534_leaves", [](benchmark::State& s) {
    DetectLimbs(s, fan);
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_DetectLimbs/star_21844_branches", [](benchmark::State& s) {
    DetectLimbs(s, star);
  })->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
