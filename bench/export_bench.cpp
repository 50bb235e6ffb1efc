// Export cost: assets::ExportGltf writing a .glb (and a .gltf + .bin) of the built-in character,
// of it with its walk baked (a translation, rotation and scale key per joint per frame, as
// `export --bake` writes), and of CesiumMan; each case
// reports the bytes written as the counter `bytes`.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "app/core/bake.h"
#include "assets/builtin/builtin_character.h"
#include "assets/export/exporter.h"
#include "assets/importer.h"

namespace {

std::string SharedModel(const std::string& relative) {
  const char* env = std::getenv("SKELVIEW_MODELS");
  const std::string dir = env && *env ? env : SKELVIEW_SHARED_MODELS;
  const std::string path = dir + "/" + relative;
  return std::filesystem::exists(path) ? path : std::string();
}

const assets::Model& Builtin() {
  static const assets::Model model = assets::MakeBuiltinCharacter();
  return model;
}

// The built-in character with only its walk, baked at 30 fps, as `skelview export --anim 0 --bake`
// writes it (constraints change the keys' values, not their number).
const assets::Model& BuiltinBaked() {
  static const assets::Model model = [] {
    assets::Model baked = Builtin();
    const int walk = baked.FindClip("Walk");
    const app::Character character(Builtin());
    app::ConstraintRequests requests;
    app::EditState edit = app::EditForRequests(character, requests);
    baked.clips = {app::BakeClip(character, walk, 30.0f, edit)};
    return baked;
  }();
  return model;
}

const assets::Model* CesiumMan() {
  static const std::unique_ptr<assets::Model> model = [] {
    const std::string path =
        SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
    if (path.empty()) return std::unique_ptr<assets::Model>();
    assets::LoadResult loaded = assets::LoadModel(path);
    return loaded.ok() ? std::make_unique<assets::Model>(std::move(*loaded.model))
                       : std::unique_ptr<assets::Model>();
  }();
  return model.get();
}

std::string OutPath(const char* name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("skelview-export-bench-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

void RunExport(benchmark::State& state, const assets::Model* model, const char* name) {
  if (!model) {
    state.SkipWithError("shared model CesiumMan not found (set SKELVIEW_MODELS)");
    return;
  }
  const std::string path = OutPath(name);
  std::string error;
  for (auto _ : state) {
    if (!assets::ExportGltf(*model, path, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  double bytes = 0.0;
  for (const std::string& file : assets::ExportedFiles(path)) {
    bytes += static_cast<double>(std::filesystem::file_size(file));
  }
  state.counters["bytes"] = bytes;
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

void BM_ExportGltf_Builtin(benchmark::State& state) { RunExport(state, &Builtin(), "builtin.glb"); }
BENCHMARK(BM_ExportGltf_Builtin)->Name("BM_ExportGltf/builtin")->Unit(benchmark::kMillisecond);

void BM_ExportGltf_BuiltinText(benchmark::State& state) {
  RunExport(state, &Builtin(), "builtin.gltf");
}
BENCHMARK(BM_ExportGltf_BuiltinText)
    ->Name("BM_ExportGltf/builtin_gltf")
    ->Unit(benchmark::kMillisecond);

void BM_ExportGltf_BuiltinBaked(benchmark::State& state) {
  RunExport(state, &BuiltinBaked(), "baked.glb");
}
BENCHMARK(BM_ExportGltf_BuiltinBaked)
    ->Name("BM_ExportGltf/builtin_baked")
    ->Unit(benchmark::kMillisecond);

void BM_ExportGltf_CesiumMan(benchmark::State& state) {
  RunExport(state, CesiumMan(), "cesium_man.glb");
}
BENCHMARK(BM_ExportGltf_CesiumMan)->Name("BM_ExportGltf/cesium_man")->Unit(benchmark::kMillisecond);

}  // namespace
