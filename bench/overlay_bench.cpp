// What the rig overlays cost on a heavy model: one offscreen frame (DrawScene, finished on the
// GPU) of a 1M-vertex character with the mesh alone, and with every overlay of issue 13 on —
// solid bones, joint axes, knee circles, limits, onion skins (4 each side), a trail and the
// legend. Both run in the same process on the same GL context, so their ratio is the figure.
#include <benchmark/benchmark.h>

#include <memory>
#include <unordered_map>

#include "app/core/evaluate.h"
#include "app/scene/anim_overlays.h"
#include "app/scene/gl_context.h"
#include "app/scene/legend.h"
#include "app/scene/scene_draw.h"
#include "assets/builtin/builtin_character.h"
#include "renderer/gl.h"
#include "renderer/offscreen.h"

namespace {

// Splits every triangle into four at its edges' midpoints (shared between neighbours); a new
// vertex takes the first end's skin.
void Subdivide(assets::Mesh* mesh) {
  std::unordered_map<uint64_t, uint32_t> midpoints;
  std::vector<uint32_t> indices;
  indices.reserve(mesh->indices.size() * 4);
  auto midpoint = [&](uint32_t a, uint32_t b) {
    const uint64_t key = (uint64_t(std::min(a, b)) << 32) | std::max(a, b);
    auto [it, added] = midpoints.emplace(key, uint32_t(mesh->positions.size()));
    if (!added) return it->second;
    mesh->positions.push_back(0.5f * (mesh->positions[a] + mesh->positions[b]));
    mesh->normals.push_back(glm::normalize(mesh->normals[a] + mesh->normals[b]));
    if (!mesh->uvs.empty()) mesh->uvs.push_back(0.5f * (mesh->uvs[a] + mesh->uvs[b]));
    mesh->joints.push_back(mesh->joints[a]);
    mesh->weights.push_back(mesh->weights[a]);
    if (!mesh->extra_joints.empty()) {
      mesh->extra_joints.push_back(mesh->extra_joints[a]);
      mesh->extra_weights.push_back(mesh->extra_weights[a]);
    }
    return it->second;
  };
  for (size_t t = 0; t + 2 < mesh->indices.size(); t += 3) {
    const uint32_t a = mesh->indices[t], b = mesh->indices[t + 1], c = mesh->indices[t + 2];
    const uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
    indices.insert(indices.end(), {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca});
  }
  mesh->indices = std::move(indices);
}

// The built-in character subdivided three times: 988,162 vertices, 1,976,320 triangles.
const assets::Model& MillionVertexCharacter() {
  static const assets::Model model = [] {
    assets::Model m = assets::MakeBuiltinCharacter();
    for (int level = 0; level < 3; ++level) Subdivide(&m.meshes[0]);
    return m;
  }();
  return model;
}

struct Scene {
  std::unique_ptr<app::GlContext> gl;
  std::optional<renderer::Renderer> renderer;
  std::optional<renderer::GpuModel> gpu;
  std::optional<renderer::OffscreenTarget> target;
  app::SceneExtent extent;
  app::Character character;
  app::ConstraintRequests requests;
  app::PoseState state;
  renderer::View view;
  app::SceneOverlays overlays;
  app::GhostCache ghosts;
  app::AnimationOverlays animation;
};

Scene* GetScene() {
  static std::unique_ptr<Scene> scene = [] {
    auto s = std::make_unique<Scene>();
    std::string error;
    s->gl = app::GlContext::Create(app::GlContext::Kind::kHeadless, "bench", 64, 64, &error);
    if (!s->gl) return std::unique_ptr<Scene>();
    s->renderer = renderer::Renderer::Create(&error);
    const assets::Model& model = MillionVertexCharacter();
    s->gpu = renderer::GpuModel::Create(model, &error);
    s->target = renderer::OffscreenTarget::Create(1280, 720, &error);
    if (!s->renderer || !s->gpu || !s->target) return std::unique_ptr<Scene>();
    s->character = app::Character(model);
    s->extent = app::MeasureModel(model, &s->character.limbs());
    app::EvaluatePose(s->character, app::ClipTime{0, 0.4f}, s->requests, &s->state);
    s->gpu->UpdatePose(s->state.models);
    // Onion skins, 4 on each side, and the left hand's trail, as the viewer would show them.
    app::Playback playback;
    playback.clip = 0;
    playback.time = 0.4f;
    const int hand = model.skeleton.Find("LeftHand");
    app::EditState edit;
    edit.chains = app::DefaultChains(s->character);  // the arms and legs solved in every ghost
    s->ghosts.Update(s->character, playback, edit, 4, 1, hand);
    s->animation.ghosts = &s->ghosts.ghosts();
    s->animation.trail = &s->ghosts.trail();
    s->animation.time = playback.time;
    s->animation.trail_now = glm::vec3(s->state.models[size_t(hand)][3]);
    s->animation.mark_now = true;
    const app::OrbitCamera camera = app::DefaultCamera(model, s->state.models, 1280.0f / 720.0f);
    s->view.view = camera.View();
    s->view.projection = camera.Projection(1280.0f / 720.0f);
    s->view.viewport = {1280, 720};
    return s;
  }();
  return scene.get();
}

void DrawFrames(benchmark::State& bench, const app::SceneOptions& options, bool animation) {
  Scene* scene = GetScene();
  if (!scene) {
    bench.SkipWithError("no GL context or the model did not upload");
    return;
  }
  const assets::Model& model = MillionVertexCharacter();
  scene->target->Bind();
  for (auto _ : bench) {
    app::DrawScene(*scene->renderer, *scene->gpu, model, scene->extent, scene->requests,
                   scene->state, options, scene->view, &scene->overlays,
                   animation ? &scene->animation : nullptr);
    if (options.legend) {
      app::LegendEntry entries[app::kMaxLegendEntries];
      const int count =
          app::LegendEntries(model, scene->extent, scene->requests, scene->state, options, entries);
      renderer::View pixels;
      app::BuildLegendImage(entries, count, 1280, 720, &scene->overlays.marks, &pixels);
      scene->renderer->DrawShapes(scene->overlays.marks, pixels, renderer::DepthMode::kOnTop);
    }
    glFinish();
  }
  bench.counters["vertices"] = double(model.meshes[0].positions.size());
}

void BM_FrameMeshAlone(benchmark::State& bench) {
  app::SceneOptions options;
  options.ik_overlay = false;
  options.joint_limits = false;
  DrawFrames(bench, options, false);
}
BENCHMARK(BM_FrameMeshAlone)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FrameEveryOverlay(benchmark::State& bench) {
  app::SceneOptions options;
  options.skeleton = true;
  options.joint_axes = true;
  options.legend = true;
  options.onion_count = 4;
  options.trail_joint = MillionVertexCharacter().skeleton.Find("LeftHand");
  DrawFrames(bench, options, true);
}
BENCHMARK(BM_FrameEveryOverlay)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
