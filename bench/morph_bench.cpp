// CPU skinning of a 100k-vertex mesh (four influences over 64 bones) without morph targets, and
// with 50 targets all active (blended before skinning); the blend alone gives vertex-targets per
// second (items).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "assets/model/skinning.h"

namespace {

constexpr size_t kVertices = 100000;
constexpr int kBones = 64;
constexpr int kTargets = 50;

assets::Mesh MakeMesh(int targets) {
  assets::Mesh mesh;
  std::mt19937 random(1);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> bone(0, kBones - 1);
  for (size_t v = 0; v < kVertices; ++v) {
    mesh.positions.emplace_back(unit(random), unit(random), unit(random));
    mesh.normals.push_back(glm::normalize(glm::vec3(unit(random), unit(random), 1.0f)));
    mesh.joints.emplace_back(bone(random), bone(random), bone(random), bone(random));
    mesh.weights.emplace_back(0.4f, 0.3f, 0.2f, 0.1f);
  }
  for (int b = 0; b < kBones; ++b) {
    mesh.bone_joints.push_back(b);
    mesh.bone_inverse_binds.emplace_back(1.0f);
  }
  for (int t = 0; t < targets; ++t) {
    assets::MorphTarget target;
    for (size_t v = 0; v < kVertices; ++v) {
      target.positions.emplace_back(0.01f * unit(random), 0.01f * unit(random), 0.0f);
      target.normals.emplace_back(0.01f * unit(random), 0.0f, 0.01f * unit(random));
    }
    mesh.targets.push_back(std::move(target));
    mesh.target_weights.push_back(0.5f);
  }
  return mesh;
}

std::vector<glm::mat4> Models() {
  std::vector<glm::mat4> models(kBones);
  for (int b = 0; b < kBones; ++b) {
    models[b] = glm::mat4(1.0f);
    models[b][3] = glm::vec4(0.01f * static_cast<float>(b), 0.0f, 0.0f, 1.0f);
  }
  return models;
}

void BM_SkinMesh_NoTargets(benchmark::State& state) {
  const assets::Mesh mesh = MakeMesh(0);
  const std::vector<glm::mat4> models = Models();
  std::vector<glm::vec3> positions, normals;
  for (auto _ : state) {
    assets::SkinMesh(mesh, models, &positions, &normals);
    benchmark::DoNotOptimize(positions.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kVertices));
}
BENCHMARK(BM_SkinMesh_NoTargets)->Unit(benchmark::kMillisecond);

// MORPH_BENCHMARKS_BEGIN (the part that needs morph targets)
void BM_SkinMesh_50Targets(benchmark::State& state) {
  const assets::Mesh mesh = MakeMesh(kTargets);
  const std::vector<glm::mat4> models = Models();
  std::vector<glm::vec3> positions, normals;
  for (auto _ : state) {
    assets::SkinMesh(mesh, models, &positions, &normals);
    benchmark::DoNotOptimize(positions.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kVertices));
}
BENCHMARK(BM_SkinMesh_50Targets)->Unit(benchmark::kMillisecond);

// Items: vertex-targets blended (positions and normals).
void BM_BlendMorphTargets_50(benchmark::State& state) {
  const assets::Mesh mesh = MakeMesh(kTargets);
  std::vector<glm::vec3> positions, normals;
  for (auto _ : state) {
    assets::BlendMorphTargets(mesh, mesh.target_weights, &positions, &normals);
    benchmark::DoNotOptimize(positions.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kVertices) * kTargets);
}
BENCHMARK(BM_BlendMorphTargets_50)->Unit(benchmark::kMillisecond);
// MORPH_BENCHMARKS_END

}  // namespace
