// The GPU side of blend shapes: one offscreen frame (drawn and finished) of a 100k-vertex skinned
// mesh without morph targets, and of the same mesh with 50 targets all active (blended on the GPU
// before skinning), with weights that stay and with weights that change every frame. Run with
// random interleaving; the ratios to the frame without targets are the figures.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <optional>
#include <random>

#include "app/scene/camera.h"
#include "app/scene/gl_context.h"
#include "assets/model/morph.h"
#include "ik/core/kinematics.h"
#include "renderer/gl.h"
#include "renderer/offscreen.h"
#include "renderer/renderer.h"

namespace {

constexpr int kSide = 317;  // 317 × 317 = 100,489 vertices
constexpr int kTargets = 50;

// A wavy sheet of kSide² vertices in [-1, 1]², skinned to a chain of 8 bones along x, with
// `targets` morph targets (smooth waves, below), each at weight 0.5.
assets::Model MakeSheet(int targets) {
  assets::Model model;
  std::vector<ik::JointDesc> joints;
  for (int b = 0; b < 8; ++b) {
    ik::JointDesc joint;
    joint.name = "bone" + std::to_string(b);
    joint.parent = b - 1;
    joint.rest.translation = b == 0 ? glm::vec3(-1.0f, 0.0f, 0.0f) : glm::vec3(0.25f, 0.0f, 0.0f);
    joints.push_back(joint);
  }
  std::string error;
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  model.is_bone.assign(8, true);
  assets::Mesh mesh;
  mesh.skinned = true;
  std::mt19937 random(1);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (int y = 0; y < kSide; ++y) {
    for (int x = 0; x < kSide; ++x) {
      const float u = 2.0f * float(x) / float(kSide - 1) - 1.0f;
      const float v = 2.0f * float(y) / float(kSide - 1) - 1.0f;
      mesh.positions.emplace_back(u, v, 0.05f * std::sin(6.0f * u));
      mesh.normals.emplace_back(0.0f, 0.0f, 1.0f);
      const int bone = std::min(7, int((u + 1.0f) * 4.0f));
      mesh.joints.emplace_back(bone, std::min(7, bone + 1), 0, 0);
      mesh.weights.emplace_back(0.7f, 0.3f, 0.0f, 0.0f);
    }
  }
  for (int y = 0; y + 1 < kSide; ++y) {
    for (int x = 0; x + 1 < kSide; ++x) {
      const uint32_t a = uint32_t(y * kSide + x), b = a + 1, c = a + kSide, d = c + 1;
      mesh.indices.insert(mesh.indices.end(), {a, b, d, a, d, c});
    }
  }
  std::vector<glm::mat4> rest;
  ik::LocalToModel(model.skeleton, ik::Pose::Rest(model.skeleton), &rest);
  for (int b = 0; b < 8; ++b) {
    mesh.bone_joints.push_back(b);
    mesh.bone_inverse_binds.push_back(glm::inverse(rest[size_t(b)]));
  }
  // Smooth waves, as real shapes are: the blended sheet covers the same pixels as the plain one,
  // so the two frames differ in vertex work only. (Random per-vertex deltas several grid cells
  // long would crumple the sheet and measure overdraw instead.)
  for (int t = 0; t < targets; ++t) {
    assets::MorphTarget target;
    const float fu = 3.0f * unit(random), fv = 3.0f * unit(random), phase = 3.0f * unit(random);
    for (const glm::vec3& p : mesh.positions) {
      const float wave = std::sin(fu * p.x + fv * p.y + phase);
      target.positions.emplace_back(0.0f, 0.0f, 0.004f * wave);
      target.normals.emplace_back(0.01f * wave, -0.01f * wave, 0.0f);
    }
    mesh.targets.push_back(std::move(target));
    mesh.target_weights.push_back(0.5f);
  }
  model.meshes.push_back(std::move(mesh));
  return model;
}

struct Frame {
  assets::Model model;
  std::optional<renderer::GpuModel> gpu;
};

struct Context {
  std::unique_ptr<app::GlContext> gl;
  std::optional<renderer::Renderer> renderer;
  std::optional<renderer::OffscreenTarget> target;
  Frame plain, morphed;
  renderer::View view;
};

Context* GetContext() {
  static std::unique_ptr<Context> context = [] {
    auto c = std::make_unique<Context>();
    std::string error;
    c->gl = app::GlContext::Create(app::GlContext::Kind::kHeadless, "bench", 64, 64, &error);
    if (!c->gl) return std::unique_ptr<Context>();
    c->renderer = renderer::Renderer::Create(&error);
    c->target = renderer::OffscreenTarget::Create(1280, 720, &error);
    if (!c->renderer || !c->target) return std::unique_ptr<Context>();
    for (auto [frame, targets] : {std::pair<Frame*, int>{&c->plain, 0}, {&c->morphed, kTargets}}) {
      frame->model = MakeSheet(targets);
      frame->gpu = renderer::GpuModel::Create(frame->model, &error);
      if (!frame->gpu) return std::unique_ptr<Context>();
      std::vector<glm::mat4> models;
      ik::LocalToModel(frame->model.skeleton, ik::Pose::Rest(frame->model.skeleton), &models);
      frame->gpu->UpdatePose(models);
      assets::MorphWeights weights{frame->model.meshes[0].target_weights};
      frame->gpu->UpdateMorphWeights(weights);
    }
    app::OrbitCamera camera;
    camera.Frame(glm::vec3(-1.0f, -1.0f, -0.1f), glm::vec3(1.0f, 1.0f, 0.1f), 1280.0f / 720.0f);
    c->view.view = camera.View();
    c->view.projection = camera.Projection(1280.0f / 720.0f);
    c->view.viewport = {1280, 720};
    return c;
  }();
  return context.get();
}

// `changing`: every frame sets new weights first (as a playing clip with weight tracks does), so
// the blend pass runs in every frame; otherwise the weights were set once and stay.
void DrawFrames(benchmark::State& bench, bool morphed, bool changing) {
  Context* c = GetContext();
  if (!c) {
    bench.SkipWithError("no GL context, or the sheet did not upload");
    return;
  }
  Frame& frame = morphed ? c->morphed : c->plain;
  assets::MorphWeights weights{frame.model.meshes[0].target_weights};
  c->target->Bind();
  int step = 0;
  for (auto _ : bench) {
    if (changing) {
      for (float& w : weights[0]) w = 0.5f + 0.25f * std::sin(0.1f * float(++step));
      frame.gpu->UpdateMorphWeights(weights);
    }
    c->renderer->BeginFrame(c->view);
    c->renderer->DrawModel(*frame.gpu, c->view);
    glFinish();
  }
  bench.counters["targets"] = double(frame.model.meshes[0].targets.size());
}

void BM_Frame100k_NoTargets(benchmark::State& bench) { DrawFrames(bench, false, false); }
BENCHMARK(BM_Frame100k_NoTargets)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Frame100k_50Targets(benchmark::State& bench) { DrawFrames(bench, true, false); }
BENCHMARK(BM_Frame100k_50Targets)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Frame100k_50TargetsChanging(benchmark::State& bench) { DrawFrames(bench, true, true); }
BENCHMARK(BM_Frame100k_50TargetsChanging)->Unit(benchmark::kMillisecond)->UseRealTime();

// The blend pass alone: new weights for all 50 targets, blended into the mesh's vertices and
// finished, with nothing drawn.
void BM_Blend100k_50Targets(benchmark::State& bench) {
  Context* c = GetContext();
  if (!c) {
    bench.SkipWithError("no GL context, or the sheet did not upload");
    return;
  }
  Frame& frame = c->morphed;
  assets::MorphWeights weights{frame.model.meshes[0].target_weights};
  int step = 0;
  for (auto _ : bench) {
    for (float& w : weights[0]) w = 0.5f + 0.25f * std::sin(0.1f * float(++step));
    frame.gpu->UpdateMorphWeights(weights);
    glFinish();
  }
  const double vertex_targets = double(frame.model.meshes[0].positions.size()) * kTargets;
  bench.counters["vertex_targets_per_s"] =
      benchmark::Counter(vertex_targets * double(bench.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Blend100k_50Targets)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
