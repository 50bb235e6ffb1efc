// Onion skins and trails on the CPU: what a playing frame pays for 2×4 ghosts evaluated with the
// IK (GhostCache::Update as the time moves), next to the one frame it shows, and what a full
// trail of the clip costs when an edit invalidates it. CesiumMan (shared models) and the built-in
// character, with their detected limbs as default chains.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <string>

#include "app/core/ghost_poses.h"
#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"

namespace {

struct Scene {
  assets::Model model;
  app::Character character;  // of `model`, once loaded
  app::EditState edit;
  bool ok = false;
};

const Scene& LoadScene(const std::string& path) {
  static std::map<std::string, Scene> scenes;
  auto found = scenes.find(path);
  if (found != scenes.end()) return found->second;
  Scene& scene = scenes[path];
  if (path.empty()) {
    scene.model = assets::MakeBuiltinCharacter();
  } else if (assets::LoadResult loaded = assets::LoadModel(path); loaded.ok()) {
    scene.model = std::move(*loaded.model);
  }
  scene.ok = !scene.model.clips.empty();
  scene.character = app::Character(scene.model);
  if (scene.ok) scene.edit.chains = app::DefaultChains(scene.character);
  return scene;
}

// 0: the built-in character; 1: CesiumMan ($SKELVIEW_MODELS overrides the shared models' folder).
std::string ModelPath(int which) {
  if (which == 0) return "";
  const char* models = std::getenv("SKELVIEW_MODELS");
  return std::string(models ? models : SKELVIEW_SHARED_MODELS) +
         "/khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf";
}

// One frame's pose, for scale.
void BM_CurrentFrame(benchmark::State& state) {
  const Scene& scene = LoadScene(ModelPath(int(state.range(0))));
  if (!scene.ok) return state.SkipWithError("model not found");
  app::EditedFrame frame;
  app::PoseState pose;
  float t = 0.0f;
  for (auto _ : state) {
    t = t > 0.9f ? 0.0f : t + 0.01f;
    app::EvaluateEditedFrame(scene.character, app::ClipTime{0, t}, scene.edit, &frame, &pose);
    benchmark::DoNotOptimize(pose.models.data());
  }
}
BENCHMARK(BM_CurrentFrame)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// Onion 4: the ghosts recomputed as playback moves the time (8 poses with the IK).
void BM_GhostsOnion4(benchmark::State& state) {
  const Scene& scene = LoadScene(ModelPath(int(state.range(0))));
  if (!scene.ok) return state.SkipWithError("model not found");
  app::GhostCache cache;
  app::Playback playback;
  playback.clip = 0;
  for (auto _ : state) {
    playback.time = playback.time > 0.9f ? 0.0f : playback.time + 0.01f;
    cache.Update(scene.character, playback, scene.edit, 4, 1, -1);
    benchmark::DoNotOptimize(cache.ghosts().data());
  }
  state.counters["ghosts"] = double(cache.ghosts().size());
}
BENCHMARK(BM_GhostsOnion4)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// An idle frame with onion 4 and a trail on: nothing changed, nothing recomputed.
void BM_GhostsCached(benchmark::State& state) {
  const Scene& scene = LoadScene(ModelPath(int(state.range(0))));
  if (!scene.ok) return state.SkipWithError("model not found");
  app::GhostCache cache;
  app::Playback playback;
  playback.clip = 0;
  playback.time = 0.5f;
  const int joint = scene.model.skeleton.joint_count() - 1;
  for (auto _ : state) {
    cache.Update(scene.character, playback, scene.edit, 4, 1, joint);
    benchmark::DoNotOptimize(cache.ghosts().data());
  }
}
BENCHMARK(BM_GhostsCached)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// The whole trail of the clip, recomputed after an edit (a target moved).
void BM_TrailAfterEdit(benchmark::State& state) {
  const Scene& scene = LoadScene(ModelPath(int(state.range(0))));
  if (!scene.ok) return state.SkipWithError("model not found");
  app::GhostCache cache;
  app::Playback playback;
  playback.clip = 0;
  app::EditState edit = scene.edit;
  const int joint = edit.chains.empty() ? 0 : edit.chains.front().chain.end;
  for (auto _ : state) {
    if (!edit.chains.empty()) edit.chains.front().offset.y += 1e-4f;
    cache.Update(scene.character, playback, edit, 0, 1, joint);
    benchmark::DoNotOptimize(cache.trail().positions.data());
  }
  state.counters["frames"] = double(cache.trail().positions.size());
}
BENCHMARK(BM_TrailAfterEdit)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
