// The glTF reader on its own: what it decodes natively, and the repairs it writes for Assimp
// when Assimp must read the meshes (files with compressed meshes), checked on the patched file.
#include "assets/gltf/gltf_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "assets/gltf/gltf_document.h"
#include "tests/assets/gltf_builder.h"
#include "tests/test_paths.h"

namespace assets::gltf {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

std::vector<uint8_t> Bytes(const testgltf::Builder& b) {
  const std::string text = b.Finished().dump();
  return std::vector<uint8_t>(text.begin(), text.end());
}

bool AnyContains(const std::vector<std::string>& warnings, const std::string& text) {
  for (const std::string& w : warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

// The patched file Assimp would read, parsed back.
json Patched(const Contents& p) { return json::parse(p.patched.begin(), p.patched.end()); }

PrepareOptions AssimpMeshes() {
  PrepareOptions o;
  o.native_meshes = false;
  return o;
}

TEST(GltfReader, NativePathDecodesMeshesAndHandsAssimpOnlyTheNodes) {
  testgltf::StripOptions options;
  options.weight_type = 5121;
  const testgltf::Builder b = testgltf::SkinnedStrip(options);
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/strip.gltf", Bytes(b), 0, {}, &p, &error)) << error;
  ASSERT_TRUE(p.native_meshes);
  ASSERT_EQ(p.meshes.size(), 1u);
  ASSERT_EQ(p.meshes[0].size(), 1u);
  const Primitive& strip = p.meshes[0][0];
  EXPECT_EQ(strip.positions.size(), 6u);
  EXPECT_EQ(strip.indices.size(), 12u);
  // Normalized bytes read as their values (0.5 → 128/255), largest first.
  EXPECT_NEAR(strip.weights[2].x, 128.0f / 255.0f, 1e-6f);
  ASSERT_EQ(p.skins.size(), 1u);
  EXPECT_EQ(p.skins[0].joints, (std::vector<int>{0, 1}));
  const json scene = Patched(p);
  EXPECT_FALSE(scene.contains("meshes"));
  EXPECT_FALSE(scene.contains("accessors"));
  EXPECT_FALSE(scene["nodes"][2].contains("mesh"));
  EXPECT_EQ(scene["nodes"].size(), 3u);
}

TEST(GltfReader, StripsAndFansBecomeTriangles) {
  testgltf::Builder b;
  const int positions = b.Positions({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0});
  b.doc["meshes"] = json::array(
      {json{{"primitives",
             json::array({json{{"attributes", {{"POSITION", positions}}}, {"mode", 5}},
                          json{{"attributes", {{"POSITION", positions}}}, {"mode", 6}},
                          json{{"attributes", {{"POSITION", positions}}}, {"mode", 1}}})}}});
  b.Node({{"mesh", 0}}, true);
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/modes.gltf", Bytes(b), 0, {}, &p, &error)) << error;
  const auto& primitives = p.meshes.at(0);
  // Strip: (0 1 2) (2 1 3) (2 3 4), every other one flipped to keep the winding.
  EXPECT_EQ(primitives[0].indices, (std::vector<uint32_t>{0, 1, 2, 2, 1, 3, 2, 3, 4}));
  // Fan around vertex 0.
  EXPECT_EQ(primitives[1].indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 0, 3, 4}));
  EXPECT_FALSE(primitives[2].triangles);  // lines are not loaded
  EXPECT_EQ(primitives[0].name, "meshes[0]-0");
}

TEST(GltfReader, AssimpPathWritesIdentityInverseBindsForASkinWithout) {
  testgltf::StripOptions options;
  options.inverse_binds = false;
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/no_ibm.gltf", Bytes(testgltf::SkinnedStrip(options)),
                      0, AssimpMeshes(), &p, &error))
      << error;
  EXPECT_FALSE(p.native_meshes);
  EXPECT_TRUE(AnyContains(p.warnings, "inverseBindMatrices"));
  Document d;
  ASSERT_TRUE(d.Parse(testpaths::TempDir() + "/no_ibm.gltf", p.patched, &error)) << error;
  const auto accessor = IndexMember(d.root["skins"][0], "inverseBindMatrices");
  ASSERT_TRUE(accessor);
  AccessorData data;
  ASSERT_TRUE(d.ReadAccessor(*accessor, &data, &error)) << error;
  ASSERT_EQ(data.count, 2u);
  for (size_t i = 0; i < 32; ++i) EXPECT_EQ(data.values[i], (i % 16) % 5 == 0 ? 1.0f : 0.0f);
}

TEST(GltfReader, AssimpPathRewritesNormalizedWeightsAsFloats) {
  for (int type : {5121, 5123}) {
    testgltf::StripOptions options;
    options.weight_type = type;
    options.middle_weights[0] = 0.25f;
    options.middle_weights[1] = 0.75f;
    Contents p;
    std::string error;
    const std::string path = testpaths::TempDir() + "/normalized.gltf";
    ASSERT_TRUE(
        Prepare(path, Bytes(testgltf::SkinnedStrip(options)), 0, AssimpMeshes(), &p, &error))
        << error;
    EXPECT_TRUE(AnyContains(p.warnings, "normalized"));
    Document d;
    ASSERT_TRUE(d.Parse(path, p.patched, &error)) << error;
    const json& attributes = d.root["meshes"][0]["primitives"][0]["attributes"];
    AccessorData weights;
    ASSERT_TRUE(d.ReadAccessor(attributes["WEIGHTS_0"].get<int64_t>(), &weights, &error));
    EXPECT_EQ(weights.component_type, kComponentFloat);
    // Middle row (vertices 2, 3): largest first, renormalised.
    EXPECT_NEAR(weights.values[2 * 4 + 0], 0.75f, 3e-3f);
    EXPECT_NEAR(weights.values[2 * 4 + 1], 0.25f, 3e-3f);
  }
}

TEST(GltfReader, AssimpPathGivesNodesSharingASkinnedMeshTheirOwnCopy) {
  testgltf::Builder b = testgltf::SkinnedStrip();
  b.doc["skins"].push_back({{"joints", {1}}});
  b.Node({{"name", "second"}, {"mesh", 0}, {"skin", 1}}, true);
  Contents p;
  std::string error;
  ASSERT_TRUE(
      Prepare(testpaths::TempDir() + "/shared.gltf", Bytes(b), 0, AssimpMeshes(), &p, &error))
      << error;
  EXPECT_TRUE(AnyContains(p.warnings, "own copy"));
  const json patched = Patched(p);
  EXPECT_EQ(patched["meshes"].size(), 2u);
  EXPECT_NE(patched["nodes"][2]["mesh"], patched["nodes"][3]["mesh"]);
}

TEST(GltfReader, CompressedMeshesKeepTheAssimpPath) {
  testgltf::Builder b = testgltf::SkinnedStrip();
  b.doc["meshes"][0]["primitives"][0]["extensions"] = {
      {"KHR_draco_mesh_compression", {{"bufferView", 0}, {"attributes", {{"POSITION", 0}}}}}};
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/draco.gltf", Bytes(b), 0, {}, &p, &error)) << error;
  EXPECT_FALSE(p.native_meshes);
  EXPECT_TRUE(p.meshes.empty());
}

TEST(GltfReader, RefusalsNameTheProblem) {
  testgltf::Builder b = testgltf::SkinnedStrip();
  b.doc["skins"][0]["inverseBindMatrices"] = 3;  // VEC4 weights, not matrices
  Contents p;
  std::string error;
  EXPECT_FALSE(Prepare(testpaths::TempDir() + "/bad_ibm.gltf", Bytes(b), 0, {}, &p, &error));
  EXPECT_THAT(error, HasSubstr("inverse bind"));
}

}  // namespace
}  // namespace assets::gltf
