// Import cost: assets::LoadModel (glTF read by our own reader) against Assimp's own ReadFile of
// the same file with the flags LoadModel gives Assimp for other formats, model serialisation for
// the worker pipe, on CesiumMan and on skinned glTFs generated here. Also a command-line tool for
// scripts/measure_import.sh:
//   import_bench --generate OUT.glb VERTICES   write a skinned, animated test model
//   import_bench --load MODEL                  LoadModel only, print counts and decoded bytes
//   import_bench --assimp MODEL                Assimp's ReadFile only, same flags as LoadModel
//   import_bench --assimp-join MODEL           the same plus Assimp's JoinIdenticalVertices
//   import_bench --assimp-textures MODEL       the same plus decoding the base colour textures
//                                              (Assimp hands images over still encoded; a
//                                              viewer built on it must decode them too)
// Without these flags it runs the Google Benchmark cases. Every iteration of a load case (ours or
// Assimp's) starts from a trimmed heap (ColdHeap), as a load in the import worker, a fresh process
// for every file, does: without that, how much freed memory glibc kept from the iteration before
// decides the result (it keeps it only below a threshold that the largest block freed so far
// raises, so a loader that allocates one large buffer runs warm and one that does not runs cold).
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <assimp/Importer.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <glm/gtc/quaternion.hpp>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "assets/files/image_decode.h"
#include "assets/files/model_io.h"
#include "assets/importer.h"

namespace {

using json = nlohmann::json;

std::string SharedModel(const std::string& relative) {
  const char* env = std::getenv("SKELVIEW_MODELS");
  const std::string dir = env && *env ? env : SKELVIEW_SHARED_MODELS;
  const std::string path = dir + "/" + relative;
  return std::filesystem::exists(path) ? path : std::string();
}

// Writes `doc` and its binary chunk `bin` as a .glb at `path` (sets the buffer's length, pads
// both chunks); false when the write fails.
bool WriteGlb(const std::string& path, json* doc_in, std::vector<uint8_t>* bin_in) {
  json& doc = *doc_in;
  std::vector<uint8_t>& bin = *bin_in;
  while (bin.size() % 4) bin.push_back(0);
  doc["buffers"] = {{{"byteLength", bin.size()}}};
  std::string text = doc.dump();
  while (text.size() % 4) text.push_back(' ');
  std::ofstream out(path, std::ios::binary);
  auto u32 = [&](uint32_t v) { out.write(reinterpret_cast<const char*>(&v), 4); };
  u32(0x46546C67);
  u32(2);
  u32(static_cast<uint32_t>(12 + 8 + text.size() + 8 + bin.size()));
  u32(static_cast<uint32_t>(text.size()));
  u32(0x4E4F534A);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  u32(static_cast<uint32_t>(bin.size()));
  u32(0x004E4942);
  out.write(reinterpret_cast<const char*>(bin.data()), static_cast<std::streamsize>(bin.size()));
  return static_cast<bool>(out);
}

// A tube of `vertices` vertices (rings of 64) around a chain of 64 joints, each vertex weighted to
// the two joints nearest its height (four influences where chain segments meet), with normals,
// uvs and a 1 s clip of 31 keys swaying every joint: the shape of a real skinned character's
// data, at any size.
bool GenerateSkinnedGlb(const std::string& path, size_t vertices) {
  constexpr int kSegments = 64, kJoints = 64;
  constexpr float kHeight = 2.0f, kRadius = 0.2f, kPi = 3.14159265f;
  const size_t rings = std::max<size_t>(2, vertices / kSegments);
  const size_t n = rings * kSegments;
  std::vector<float> positions, normals, uvs, weights, ibms, times, rotations;
  std::vector<uint16_t> joints;
  std::vector<uint32_t> indices;
  positions.reserve(n * 3);
  normals.reserve(n * 3);
  uvs.reserve(n * 2);
  weights.reserve(n * 4);
  joints.reserve(n * 4);
  const float segment = kHeight / kJoints;
  for (size_t r = 0; r < rings; ++r) {
    const float y = kHeight * static_cast<float>(r) / static_cast<float>(rings - 1);
    const float along = std::min(y / segment, kJoints - 1.001f);
    const int j0 = static_cast<int>(along);
    const float f = along - static_cast<float>(j0);
    for (int s = 0; s < kSegments; ++s) {
      const float a = 2.0f * kPi * static_cast<float>(s) / kSegments;
      positions.insert(positions.end(), {kRadius * std::cos(a), y, kRadius * std::sin(a)});
      normals.insert(normals.end(), {std::cos(a), 0.0f, std::sin(a)});
      uvs.insert(uvs.end(), {static_cast<float>(s) / kSegments,
                             static_cast<float>(r) / static_cast<float>(rings)});
      const int j1 = std::min(j0 + 1, kJoints - 1);
      const int jm = std::max(j0 - 1, 0), jp = std::min(j0 + 2, kJoints - 1);
      // Mostly two influences; the four neighbours near a joint.
      const float w0 = 0.8f * (1.0f - f), w1 = 0.8f * f;
      joints.insert(joints.end(), {static_cast<uint16_t>(j0), static_cast<uint16_t>(j1),
                                   static_cast<uint16_t>(jm), static_cast<uint16_t>(jp)});
      weights.insert(weights.end(), {w0, w1, 0.1f, 0.1f});
    }
  }
  for (size_t r = 0; r + 1 < rings; ++r) {
    for (uint32_t s = 0; s < kSegments; ++s) {
      const uint32_t a = static_cast<uint32_t>(r * kSegments) + s;
      const uint32_t b = static_cast<uint32_t>(r * kSegments) + (s + 1) % kSegments;
      const uint32_t c = a + kSegments, d = b + kSegments;
      indices.insert(indices.end(), {a, c, b, b, c, d});
    }
  }
  for (int j = 0; j < kJoints; ++j) {
    const float world_y = segment * static_cast<float>(j);
    const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -world_y, 0, 1};
    ibms.insert(ibms.end(), m, m + 16);
  }
  for (int k = 0; k <= 30; ++k) times.push_back(static_cast<float>(k) / 30.0f);

  std::vector<uint8_t> bin;
  json doc = {{"asset", {{"version", "2.0"}, {"generator", "skelview import_bench"}}},
              {"scene", 0},
              {"accessors", json::array()},
              {"bufferViews", json::array()}};
  auto add = [&](const void* data, size_t bytes, int component, const char* type, size_t count,
                 json extra = json::object()) {
    while (bin.size() % 4) bin.push_back(0);
    doc["bufferViews"].push_back(
        {{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes}});
    bin.insert(bin.end(), static_cast<const uint8_t*>(data),
               static_cast<const uint8_t*>(data) + bytes);
    json accessor = {{"bufferView", doc["bufferViews"].size() - 1},
                     {"componentType", component},
                     {"type", type},
                     {"count", count}};
    accessor.update(extra);
    doc["accessors"].push_back(accessor);
    return doc["accessors"].size() - 1;
  };
  const size_t p = add(positions.data(), positions.size() * 4, 5126, "VEC3", n,
                       {{"min", {-kRadius, 0.0f, -kRadius}}, {"max", {kRadius, kHeight, kRadius}}});
  const size_t nn = add(normals.data(), normals.size() * 4, 5126, "VEC3", n);
  const size_t uv = add(uvs.data(), uvs.size() * 4, 5126, "VEC2", n);
  const size_t jt = add(joints.data(), joints.size() * 2, 5123, "VEC4", n);
  const size_t wt = add(weights.data(), weights.size() * 4, 5126, "VEC4", n);
  const size_t ix = add(indices.data(), indices.size() * 4, 5125, "SCALAR", indices.size());
  const size_t ib = add(ibms.data(), ibms.size() * 4, 5126, "MAT4", kJoints);
  const size_t tm = add(times.data(), times.size() * 4, 5126, "SCALAR", times.size(),
                        {{"min", {0.0}}, {"max", {1.0}}});
  json nodes = json::array(), channels = json::array(), samplers = json::array(),
       skin_joints = json::array();
  nodes.push_back({{"name", "tube"}, {"mesh", 0}, {"skin", 0}});
  for (int j = 0; j < kJoints; ++j) {
    json node = {{"name", "joint" + std::to_string(j)}};
    if (j > 0) node["translation"] = {0.0f, segment, 0.0f};
    if (j + 1 < kJoints) node["children"] = {j + 2};
    nodes.push_back(node);
    skin_joints.push_back(j + 1);
    std::vector<float> keys;
    for (int k = 0; k <= 30; ++k) {
      const glm::quat q =
          glm::angleAxis(0.05f * std::sin(2.0f * kPi * static_cast<float>(k) / 30.0f + 0.1f * j),
                         glm::vec3(0, 0, 1));
      keys.insert(keys.end(), {q.x, q.y, q.z, q.w});
    }
    const size_t out = add(keys.data(), keys.size() * 4, 5126, "VEC4", times.size());
    samplers.push_back({{"input", tm}, {"output", out}});
    channels.push_back({{"sampler", j}, {"target", {{"node", j + 1}, {"path", "rotation"}}}});
  }
  doc["nodes"] = nodes;
  doc["scenes"] = {{{"nodes", {0, 1}}}};
  json attributes = {
      {"POSITION", p}, {"NORMAL", nn}, {"TEXCOORD_0", uv}, {"JOINTS_0", jt}, {"WEIGHTS_0", wt}};
  json primitive = {{"attributes", attributes}, {"indices", ix}};
  json mesh = {{"name", "tube"}, {"primitives", json::array({primitive})}};
  doc["meshes"] = json::array({mesh});
  doc["skins"] = {{{"joints", skin_joints}, {"inverseBindMatrices", ib}}};
  doc["animations"] = {{{"name", "sway"}, {"samplers", samplers}, {"channels", channels}}};
  return WriteGlb(path, &doc, &bin);
}

// Assimp's ReadFile with LoadModel's flags (validation, triangulation, smooth normals where
// missing, primitive sorting), for the overhead comparison; `join` adds the
// JoinIdenticalVertices step LoadModel used before it welded vertices itself.
const aiScene* AssimpRead(Assimp::Importer* importer, const std::string& path, bool join = false) {
  importer->SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                               aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  importer->SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  return importer->ReadFile(path, aiProcess_ValidateDataStructure | aiProcess_Triangulate |
                                      aiProcess_GenSmoothNormals | aiProcess_SortByPType |
                                      (join ? aiProcess_JoinIdenticalVertices : 0u));
}

// Decodes every base colour texture of an Assimp scene (embedded or a file beside the model), as
// a viewer built on Assimp alone must before it can draw; returns how many were decoded.
int DecodeAssimpTextures(const aiScene* scene, const std::string& path) {
  int decoded = 0;
  for (unsigned m = 0; m < scene->mNumMaterials; ++m) {
    for (aiTextureType type : {aiTextureType_BASE_COLOR, aiTextureType_DIFFUSE}) {
      aiString reference;
      if (scene->mMaterials[m]->GetTexture(type, 0, &reference) != AI_SUCCESS) continue;
      assets::Texture texture;
      std::string reason;
      if (const aiTexture* embedded = scene->GetEmbeddedTexture(reference.C_Str())) {
        if (embedded->mHeight == 0 &&
            assets::DecodeImage(reinterpret_cast<const uint8_t*>(embedded->pcData),
                                embedded->mWidth, &texture, &reason)) {
          ++decoded;
        }
      } else {
        std::ifstream file(std::filesystem::path(path).parent_path() / reference.C_Str(),
                           std::ios::binary);
        const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                         std::istreambuf_iterator<char>());
        if (assets::DecodeImage(bytes.data(), bytes.size(), &texture, &reason)) ++decoded;
      }
      break;  // one base colour texture per material, as the importer takes
    }
  }
  return decoded;
}

// Bytes of the Model's per-vertex arrays (positions, normals, uvs, joints, weights) and indices.
size_t DecodedVertexBytes(const assets::Model& m) {
  size_t n = 0;
  for (const assets::Mesh& mesh : m.meshes) {
    n += mesh.positions.size() * sizeof(glm::vec3) + mesh.normals.size() * sizeof(glm::vec3) +
         mesh.uvs.size() * sizeof(glm::vec2) + mesh.joints.size() * sizeof(glm::u16vec4) +
         mesh.weights.size() * sizeof(glm::vec4);
  }
  return n;
}

size_t IndexBytes(const assets::Model& m) {
  size_t n = 0;
  for (const assets::Mesh& mesh : m.meshes) n += mesh.indices.size() * sizeof(uint32_t);
  return n;
}

// Generated models are written once per size into the temporary directory.
std::string GeneratedModel(size_t vertices) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("skelview_bench_" + std::to_string(vertices) + ".glb"))
                               .string();
  if (!std::filesystem::exists(path)) GenerateSkinnedGlb(path, vertices);
  return path;
}

// The generated model of `vertices` packed by gltfpack with `flags` ("-c": meshopt-compressed,
// "": the same processing uncompressed), or "" when gltfpack is not installed or fails.
std::string PackedModel(size_t vertices, const std::string& flags, const std::string& tag) {
  const std::string source = GeneratedModel(vertices);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("skelview_bench_" + std::to_string(vertices) + "_" + tag + ".glb"))
                               .string();
  if (std::filesystem::exists(path)) return path;
  const std::string command =
      "gltfpack -i '" + source + "' -o '" + path + "' " + flags + " > /dev/null 2>&1";
  return std::system(command.c_str()) == 0 ? path : std::string();
}

// Gives the memory freed so far back to the system with the timer stopped, so that the next
// iteration touches fresh pages as a fresh process would.
void ColdHeap(benchmark::State& state) {
  state.PauseTiming();
  malloc_trim(0);
  state.ResumeTiming();
}

void RunLoad(benchmark::State& state, const std::string& path) {
  if (path.empty()) {
    state.SkipWithError("model not found (set SKELVIEW_MODELS)");
    return;
  }
  size_t bytes = 0;
  for (auto _ : state) {
    ColdHeap(state);
    assets::LoadResult r = assets::LoadModel(path);
    if (!r.ok()) {
      state.SkipWithError(r.error.c_str());
      return;
    }
    bytes = DecodedVertexBytes(*r.model);
    benchmark::DoNotOptimize(r.model->meshes.data());
  }
  state.counters["decoded_MB"] = static_cast<double>(bytes) / 1e6;
}

void RunAssimp(benchmark::State& state, const std::string& path) {
  if (path.empty()) {
    state.SkipWithError("model not found (set SKELVIEW_MODELS)");
    return;
  }
  for (auto _ : state) {
    ColdHeap(state);
    Assimp::Importer importer;
    const aiScene* scene = AssimpRead(&importer, path);
    if (!scene) {
      state.SkipWithError(importer.GetErrorString());
      return;
    }
    benchmark::DoNotOptimize(scene->mMeshes);
  }
}

const char kCesiumMan[] = "khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb";

void BM_LoadModel_CesiumMan(benchmark::State& s) { RunLoad(s, SharedModel(kCesiumMan)); }
void BM_Assimp_CesiumMan(benchmark::State& s) { RunAssimp(s, SharedModel(kCesiumMan)); }
void BM_AssimpTextures_CesiumMan(benchmark::State& state) {
  const std::string path = SharedModel(kCesiumMan);
  if (path.empty()) {
    state.SkipWithError("../shared/models is missing");
    return;
  }
  for (auto _ : state) {
    ColdHeap(state);
    Assimp::Importer importer;
    const aiScene* scene = AssimpRead(&importer, path);
    if (!scene || DecodeAssimpTextures(scene, path) != 1) {
      state.SkipWithError("Assimp did not read CesiumMan and its texture");
      return;
    }
    benchmark::DoNotOptimize(scene->mMeshes);
  }
}
void BM_LoadModel_Generated(benchmark::State& s) {
  RunLoad(s, GeneratedModel(static_cast<size_t>(s.range(0))));
}
void BM_Assimp_Generated(benchmark::State& s) {
  RunAssimp(s, GeneratedModel(static_cast<size_t>(s.range(0))));
}

// EXT_meshopt_compression against the same gltfpack output uncompressed (KHR_mesh_quantization)
// and the generated float file it was packed from.
// Skipped with a message saying so when gltfpack is missing or fails.
void RunLoadPacked(benchmark::State& state, const std::string& flags, const std::string& tag) {
  const std::string path = PackedModel(static_cast<size_t>(state.range(0)), flags, tag);
  if (path.empty()) {
    state.SkipWithError("gltfpack is not installed (Debian's gltfpack package) or failed");
    return;
  }
  RunLoad(state, path);
}
void BM_LoadModel_Meshopt(benchmark::State& s) { RunLoadPacked(s, "-c", "meshopt"); }
void BM_LoadModel_Quantized(benchmark::State& s) { RunLoadPacked(s, "", "quantized"); }

void BM_SerializeModel_Generated(benchmark::State& state) {
  const assets::LoadResult r = assets::LoadModel(GeneratedModel(100000));
  if (!r.ok()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  size_t size = 0;
  for (auto _ : state) {
    const std::string bytes = assets::SerializeModel(*r.model);
    size = bytes.size();
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * size));
}

void BM_DeserializeModel_Generated(benchmark::State& state) {
  const assets::LoadResult r = assets::LoadModel(GeneratedModel(100000));
  if (!r.ok()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  const std::string bytes = assets::SerializeModel(*r.model);
  for (auto _ : state) {
    assets::Model model;
    std::string error;
    if (!assets::DeserializeModel(bytes, &model, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
    benchmark::DoNotOptimize(model.meshes.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}

BENCHMARK(BM_LoadModel_CesiumMan)->Name("BM_LoadModel/cesium_man")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Assimp_CesiumMan)->Name("BM_AssimpReadFile/cesium_man")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AssimpTextures_CesiumMan)
    ->Name("BM_AssimpReadFile/cesium_man_and_texture")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadModel_Generated)
    ->Name("BM_LoadModel/generated")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Assimp_Generated)
    ->Name("BM_AssimpReadFile/generated")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadModel_Meshopt)
    ->Name("BM_LoadModel/generated_gltfpack_meshopt")
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadModel_Quantized)
    ->Name("BM_LoadModel/generated_gltfpack_uncompressed")
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SerializeModel_Generated)
    ->Name("BM_SerializeModel/generated_100k")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DeserializeModel_Generated)
    ->Name("BM_DeserializeModel/generated_100k")
    ->Unit(benchmark::kMillisecond);

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--generate") == 0) {
    const size_t vertices = std::strtoull(argv[3], nullptr, 10);
    if (vertices == 0 || !GenerateSkinnedGlb(argv[2], vertices)) {
      std::fprintf(stderr, "cannot write %s\n", argv[2]);
      return 2;
    }
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "--load") == 0) {
    const auto start = std::chrono::steady_clock::now();
    const assets::LoadResult r = assets::LoadModel(argv[2]);
    const double seconds = Seconds(start);
    if (!r.ok()) {
      std::fprintf(stderr, "%s\n", r.error.c_str());
      return 2;
    }
    std::printf(
        "load_seconds %.4f vertices %zu triangles %zu decoded_vertex_bytes %zu "
        "index_bytes %zu\n",
        seconds, r.model->vertex_count(), r.model->triangle_count(), DecodedVertexBytes(*r.model),
        IndexBytes(*r.model));
    return 0;
  }
  const bool textures = argc == 3 && std::strcmp(argv[1], "--assimp-textures") == 0;
  if (argc == 3 && (std::strcmp(argv[1], "--assimp") == 0 ||
                    std::strcmp(argv[1], "--assimp-join") == 0 || textures)) {
    const auto start = std::chrono::steady_clock::now();
    Assimp::Importer importer;
    const aiScene* scene =
        AssimpRead(&importer, argv[2], std::strcmp(argv[1], "--assimp-join") == 0);
    const int decoded = scene && textures ? DecodeAssimpTextures(scene, argv[2]) : 0;
    const double seconds = Seconds(start);
    if (!scene) {
      std::fprintf(stderr, "%s\n", importer.GetErrorString());
      return 2;
    }
    std::printf("assimp_seconds %.4f meshes %u textures %d\n", seconds, scene->mNumMeshes, decoded);
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
