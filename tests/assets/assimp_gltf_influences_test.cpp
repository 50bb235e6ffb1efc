// The scene converter keeps up to eight influences per vertex from Assimp's bones, as the glTF
// reader does: checked on a glTF file read by Assimp's own glTF reader (which LoadModel no longer
// uses for glTF 2.0) against LoadModel's answer.
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <assimp/Importer.hpp>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "assets/assimp/scene_converter.h"
#include "assets/files/load_progress.h"
#include "assets/files/model_files.h"
#include "assets/importer.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

template <typename T>
void Append(std::vector<uint8_t>* bytes, const std::vector<T>& values) {
  const auto* p = reinterpret_cast<const uint8_t*>(values.data());
  bytes->insert(bytes->end(), p, p + values.size() * sizeof(T));
}

// One triangle skinned to eight joints through JOINTS_0/1 and WEIGHTS_0/1 (weights 0.2, 0.15,
// 0.15, 0.1 then 0.1 four times, the same for every vertex); joint k sits at (k/10, 0, 0).
std::string WriteEightInfluenceGltf() {
  const std::string dir = testpaths::TempDir();
  std::vector<uint8_t> bin;
  Append<float>(&bin, {0, 0, 0, 1, 0, 0, 0, 1, 0});
  Append<uint16_t>(&bin, {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3});
  Append<uint16_t>(&bin, {4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7});
  for (int v = 0; v < 3; ++v) Append<float>(&bin, {0.2f, 0.15f, 0.15f, 0.1f});
  for (int v = 0; v < 3; ++v) Append<float>(&bin, {0.1f, 0.1f, 0.1f, 0.1f});
  for (int j = 0; j < 8; ++j) {
    Append<float>(&bin, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -0.1f * float(j), 0, 0, 1});
  }
  Append<uint16_t>(&bin, {0, 1, 2, 0});
  std::ofstream(dir + "/eight.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(bin.data()), std::streamsize(bin.size()));
  const int offsets[] = {0, 36, 60, 84, 132, 180, 692};
  const int lengths[] = {36, 24, 24, 48, 48, 512, 6};
  std::string views, nodes;
  for (int i = 0; i < 7; ++i) {
    views += std::string(i ? "," : "") +
             "{\"buffer\":0,\"byteOffset\":" + std::to_string(offsets[i]) +
             ",\"byteLength\":" + std::to_string(lengths[i]) + "}";
  }
  for (int j = 0; j < 8; ++j) {
    nodes += ",{\"name\":\"j" + std::to_string(j) + "\",\"translation\":[" +
             std::to_string(0.1 * j) + ",0,0]}";
  }
  const std::string path = dir + "/eight.gltf";
  std::ofstream(path)
      << "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":" << bin.size()
      << ",\"uri\":\"eight.bin\"}],\"bufferViews\":[" << views
      << "],\"accessors\":["
         "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
         "\"min\":[0,0,0],\"max\":[1,1,0]},"
         "{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"VEC4\"},"
         "{\"bufferView\":2,\"componentType\":5123,\"count\":3,\"type\":\"VEC4\"},"
         "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
         "{\"bufferView\":4,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
         "{\"bufferView\":5,\"componentType\":5126,\"count\":8,\"type\":\"MAT4\"},"
         "{\"bufferView\":6,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}],"
         "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,"
         "\"JOINTS_1\":2,\"WEIGHTS_0\":3,\"WEIGHTS_1\":4},\"indices\":6}]}],"
         "\"skins\":[{\"joints\":[1,2,3,4,5,6,7,8],\"inverseBindMatrices\":5}],"
         "\"nodes\":[{\"name\":\"mesh\",\"mesh\":0,\"skin\":0}"
      << nodes << "],\"scenes\":[{\"nodes\":[0,1,2,3,4,5,6,7,8]}],\"scene\":0}";
  return path;
}

TEST(AssimpGltfInfluences, EightInfluencesSurviveTheAssimpRoute) {
  const std::string path = WriteEightInfluenceGltf();
  // The native reader's answer, for comparison.
  const LoadResult native = LoadModel(path);
  ASSERT_TRUE(native.ok()) << native.error;
  ASSERT_EQ(native.model->meshes.size(), 1u);
  ASSERT_FALSE(native.model->meshes[0].extra_weights.empty());

  // The same file through Assimp's glTF reader and the scene converter.
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(path, 0);
  ASSERT_NE(scene, nullptr) << importer.GetErrorString();
  LoadOptions options;
  LoadProgress progress(options.progress, options.cancelled);
  ModelFiles files(path, false);
  SceneConverter converter(const_cast<aiScene*>(scene), path, /*weld=*/true, &progress, &files);
  Model model;
  std::string error;
  ASSERT_TRUE(converter.Run(&model, &error)) << error;
  ASSERT_EQ(model.meshes.size(), 1u);
  const Mesh& mesh = model.meshes[0];
  ASSERT_EQ(mesh.extra_weights.size(), mesh.positions.size());
  EXPECT_EQ(model.influences.over_four, 3u);
  for (size_t v = 0; v < mesh.positions.size(); ++v) {
    const glm::vec4& w = mesh.weights[v];
    const glm::vec4& x = mesh.extra_weights[v];
    EXPECT_NEAR(w.x + w.y + w.z + w.w + x.x + x.y + x.z + x.w, 1.0f, 1e-6f);
    // The four smaller influences are kept: 0.1 each, on joints 4..7's slots.
    EXPECT_NEAR(x.x + x.y + x.z + x.w, 0.4f, 1e-6f) << v;
  }
}

}  // namespace
}  // namespace assets
