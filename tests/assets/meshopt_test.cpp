// EXT_meshopt_compression: files packed by Debian's gltfpack (-c, -cc with its filters, -cf with a
// fallback buffer) load as the same model gltfpack writes uncompressed; an index sequence packed
// here with meshoptimizer's encoder; required extensions skelview cannot honour are named.
#include <gtest/gtest.h>
#include <meshoptimizer.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "assets/importer.h"
#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "ik/core/kinematics.h"
#include "tests/assets/gltf_builder.h"
#include "tests/test_paths.h"

extern char** environ;

namespace assets {
namespace {

using json = nlohmann::json;

const char kCesiumMan[] = "khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf";

// Runs a program with arguments; true when it exits 0.
bool RunProgram(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0) return false;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool HaveGltfpack() {
  for (const char* dir : {"/usr/bin", "/usr/local/bin"}) {
    if (access((std::string(dir) + "/gltfpack").c_str(), X_OK) == 0) return true;
  }
  return false;
}

// `source` packed by gltfpack with `flags` into the build directory (regenerated each run).
std::string Pack(const std::string& source, const std::string& name,
                 const std::vector<std::string>& flags) {
  const std::filesystem::path dir =
      std::filesystem::path(testpaths::BinaryDir()) / "tests" / "meshopt";
  std::filesystem::create_directories(dir);
  const std::string out = (dir / name).string();
  std::vector<std::string> argv = {"gltfpack", "-i", source, "-o", out};
  argv.insert(argv.end(), flags.begin(), flags.end());
  return RunProgram(argv) ? out : std::string();
}

// Skinned positions of every mesh with clip 0 at `time` (the rest pose when time < 0).
std::vector<glm::vec3> Skinned(const Model& model, float time) {
  ik::Pose pose = ik::Pose::Rest(model.skeleton);
  if (time >= 0.0f && !model.clips.empty()) SampleClip(model, model.clips[0], time, &pose);
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, pose, &models);
  std::vector<glm::vec3> all, skinned;
  for (const Mesh& mesh : model.meshes) {
    SkinMesh(mesh, models, &skinned, nullptr);
    all.insert(all.end(), skinned.begin(), skinned.end());
  }
  return all;
}

// Worst distance from a point of `a` to the nearest point of `b`.
float WorstNearest(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  float worst = 0.0f;
  for (const glm::vec3& p : a) {
    float best = INFINITY;
    for (const glm::vec3& q : b) best = std::min(best, glm::length(p - q));
    worst = std::max(worst, best);
  }
  return worst;
}

// Each triangle as its corners' positions, rotated to start at the smallest, sorted.
std::vector<std::array<float, 9>> Triangles(const Mesh& mesh) {
  std::vector<std::array<float, 9>> out;
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    std::array<std::array<float, 3>, 3> corners;
    for (int k = 0; k < 3; ++k) {
      const glm::vec3& p = mesh.positions[mesh.indices[t + static_cast<size_t>(k)]];
      corners[static_cast<size_t>(k)] = {p.x, p.y, p.z};
    }
    const size_t first =
        static_cast<size_t>(std::min_element(corners.begin(), corners.end()) - corners.begin());
    std::array<float, 9> tri;
    for (size_t k = 0; k < 3; ++k) {
      for (size_t e = 0; e < 3; ++e) tri[k * 3 + e] = corners[(first + k) % 3][e];
    }
    out.push_back(tri);
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Packed {
  const char* name;
  std::vector<std::string> flags;
  float tolerance;  // of the model's size, against gltfpack's uncompressed output
};

TEST(Meshopt, GltfpackOutputDecodesToTheUncompressedModel) {
  const std::string source = testpaths::SharedModel(kCesiumMan);
  SKIP_IF_NO_MODEL(source, "CesiumMan");
  if (!HaveGltfpack()) GTEST_SKIP() << "gltfpack is not installed (Debian package gltfpack)";
  // The same processing without compression (KHR_mesh_quantization only): -c is lossless against
  // it; -cc's filters (octahedral normals, quaternion rotations, exponential floats) quantize.
  const std::string plain_path = Pack(source, "cesium_plain.glb", {});
  ASSERT_FALSE(plain_path.empty()) << "gltfpack failed";
  const LoadResult plain = LoadModel(plain_path);
  ASSERT_TRUE(plain.ok()) << plain.error;
  const LoadResult original = LoadModel(source);
  ASSERT_TRUE(original.ok()) << original.error;
  const float size = RestBounds(*original.model).diagonal();
  const std::vector<Packed> cases = {{"cesium_c.glb", {"-c"}, 1e-6f},
                                     {"cesium_cf.glb", {"-cf"}, 1e-6f},
                                     {"cesium_cc.glb", {"-cc"}, 2e-3f}};
  for (const Packed& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = Pack(source, c.name, c.flags);
    ASSERT_FALSE(path.empty()) << "gltfpack failed";
    const LoadResult packed = LoadModel(path);
    ASSERT_TRUE(packed.ok()) << packed.error;
    const Model& a = *packed.model;
    const Model& b = *plain.model;
    ASSERT_EQ(a.meshes.size(), b.meshes.size());
    ASSERT_EQ(a.clips.size(), b.clips.size());
    ASSERT_FALSE(a.clips.empty());
    // The codec may rotate each triangle's corners and -cc reorders vertices: compare triangles
    // as corner positions starting at the smallest (winding kept), and skinned vertices as sets.
    const bool lossless = c.tolerance < 1e-5f;
    for (size_t m = 0; m < a.meshes.size(); ++m) {
      EXPECT_EQ(a.meshes[m].positions.size(), b.meshes[m].positions.size());
      EXPECT_EQ(a.meshes[m].indices.size(), b.meshes[m].indices.size());
      if (lossless) {
        EXPECT_EQ(Triangles(a.meshes[m]), Triangles(b.meshes[m]));
      }
    }
    for (float time : {-1.0f, 0.0f, 0.37f * a.clips[0].duration, a.clips[0].duration}) {
      const std::vector<glm::vec3> pa = Skinned(a, time), pb = Skinned(b, time);
      EXPECT_LE(WorstNearest(pa, pb), c.tolerance * size) << "at t=" << time;
      EXPECT_LE(WorstNearest(pb, pa), c.tolerance * size) << "at t=" << time;
    }
    // And against the file gltfpack started from, at rest: within position quantization (14
    // bits over the model's extent), whatever order gltfpack put the vertices in.
    EXPECT_LE(WorstNearest(Skinned(a, -1.0f), Skinned(*original.model, -1.0f)), 1e-3f * size);
    EXPECT_LE(WorstNearest(Skinned(*original.model, -1.0f), Skinned(a, -1.0f)), 1e-3f * size);
  }
}

// The strip's triangle indices, packed as an EXT_meshopt_compression INDICES sequence; the
// bufferView itself points at a fallback buffer that has no data.
TEST(Meshopt, IndexSequenceModeDecodesAndTheFallbackBufferIsNeverRead) {
  testgltf::Builder b = testgltf::SkinnedStrip();
  const json& primitive = b.doc["meshes"][0]["primitives"][0];
  const size_t index_accessor = primitive["indices"].get<size_t>();
  const size_t view = b.doc["accessors"][index_accessor]["bufferView"].get<size_t>();
  const size_t count = b.doc["accessors"][index_accessor]["count"].get<size_t>();
  ASSERT_EQ(b.doc["accessors"][index_accessor]["componentType"].get<int>(), 5123);
  const size_t raw_offset = b.doc["bufferViews"][view]["byteOffset"].get<size_t>();
  std::vector<uint32_t> indices(count);
  for (size_t i = 0; i < count; ++i) {
    uint16_t v = 0;
    std::memcpy(&v, &b.data[raw_offset + 2 * i], 2);
    indices[i] = v;
  }
  std::vector<uint8_t> packed(meshopt_encodeIndexSequenceBound(count, 6));
  packed.resize(meshopt_encodeIndexSequence(packed.data(), packed.size(), indices.data(), count));
  ASSERT_FALSE(packed.empty());
  while (b.data.size() % 4) b.data.push_back(0);
  const size_t packed_offset = b.data.size();
  b.data.insert(b.data.end(), packed.begin(), packed.end());
  json& v = b.doc["bufferViews"][view];
  v["buffer"] = 1;
  v["byteOffset"] = 0;
  v["extensions"]["EXT_meshopt_compression"] = {{"buffer", 0},
                                                {"byteOffset", packed_offset},
                                                {"byteLength", packed.size()},
                                                {"byteStride", 2},
                                                {"count", count},
                                                {"mode", "INDICES"}};
  json doc = b.Finished();
  doc["buffers"].push_back(
      {{"byteLength", 1024}, {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}});
  doc["extensionsUsed"] = {"EXT_meshopt_compression"};
  doc["extensionsRequired"] = {"EXT_meshopt_compression"};
  const std::string path = testpaths::TempDir() + "/meshopt_indices.gltf";
  std::ofstream(path) << doc.dump();
  const LoadResult packed_model = LoadModel(path);
  ASSERT_TRUE(packed_model.ok()) << packed_model.error;
  const std::string plain_path = testpaths::TempDir() + "/meshopt_indices_plain.gltf";
  testgltf::SkinnedStrip().WriteGltf(plain_path);
  const LoadResult plain_model = LoadModel(plain_path);
  ASSERT_TRUE(plain_model.ok()) << plain_model.error;
  ASSERT_EQ(packed_model.model->meshes.size(), 1u);
  EXPECT_EQ(packed_model.model->meshes[0].indices, plain_model.model->meshes[0].indices);
  EXPECT_EQ(packed_model.model->meshes[0].positions, plain_model.model->meshes[0].positions);

  // Corrupt the compressed bytes: a clear error naming the view, not garbage.
  json bad = doc;
  bad["bufferViews"][view]["extensions"]["EXT_meshopt_compression"]["byteLength"] = 3;
  std::ofstream(path) << bad.dump();
  const LoadResult broken = LoadModel(path);
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error.find("EXT_meshopt_compression"), std::string::npos) << broken.error;
  EXPECT_NE(broken.error.find("bufferView " + std::to_string(view)), std::string::npos)
      << broken.error;
}

TEST(RequiredExtensions, EveryOneSkelviewCannotHonourIsNamed) {
  json doc = testgltf::SkinnedStrip().Finished();
  doc["extensionsRequired"] = {"KHR_mesh_quantization", "EXT_foo", "KHR_texture_basisu"};
  const std::string path = testpaths::TempDir() + "/requires_foo.gltf";
  std::ofstream(path) << doc.dump();
  const LoadResult r = LoadModel(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("requires_foo.gltf"), std::string::npos) << r.error;
  EXPECT_NE(
      r.error.find("requires EXT_foo and KHR_texture_basisu, which skelview does not support"),
      std::string::npos)
      << r.error;
  doc["extensionsRequired"] = {"KHR_mesh_quantization"};
  std::ofstream(path) << doc.dump();
  EXPECT_TRUE(LoadModel(path).ok());
}

}  // namespace
}  // namespace assets
