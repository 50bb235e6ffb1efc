// The glTF reader on its own (Prepare): the nodes, the scene's tree, meshes, skins and the
// repairs, before the Model is built.
#include "assets/gltf/gltf_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

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

TEST(GltfReader, DecodesMeshesSkinsAndTheNodeTree) {
  testgltf::StripOptions options;
  options.weight_type = 5121;
  const testgltf::Builder b = testgltf::SkinnedStrip(options);
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/strip.gltf", Bytes(b), 0, {}, &p, &error)) << error;
  ASSERT_TRUE(p.is_gltf2);
  EXPECT_TRUE(p.patched.empty());
  ASSERT_EQ(p.meshes.size(), 1u);
  ASSERT_EQ(p.meshes[0].size(), 1u);
  EXPECT_EQ(p.mesh_names, (std::vector<std::string>{"strip"}));
  const Primitive& strip = p.meshes[0][0];
  EXPECT_EQ(strip.positions.size(), 6u);
  EXPECT_EQ(strip.indices.size(), 12u);
  // Normalized bytes read as their values (0.5 → 128/255), largest first.
  EXPECT_NEAR(strip.weights[2].x, 128.0f / 255.0f, 1e-6f);
  ASSERT_EQ(p.skins.size(), 1u);
  EXPECT_EQ(p.skins[0].joints, (std::vector<int>{0, 1}));
  // The scene's tree in preorder: joint0 > joint1, then the mesh node, a second root.
  EXPECT_EQ(p.preorder_nodes, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(p.preorder_parents, (std::vector<int>{-1, 0, -1}));
  ASSERT_EQ(p.nodes.size(), 3u);
  EXPECT_EQ(p.nodes[1].name, "joint1");
  EXPECT_EQ(p.nodes[1].rest.translation, glm::vec3(0.0f, 1.0f, 0.0f));
  EXPECT_EQ(p.nodes[2].mesh, 0);
  EXPECT_EQ(p.nodes[2].skin, 0);
  EXPECT_EQ(p.nodes[0].mesh, -1);
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
  EXPECT_EQ(p.mesh_names, (std::vector<std::string>{""}));
}

TEST(GltfReader, SkinWithoutInverseBindsGetsIdentitiesWithAWarning) {
  testgltf::StripOptions options;
  options.inverse_binds = false;
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/no_ibm.gltf", Bytes(testgltf::SkinnedStrip(options)),
                      0, {}, &p, &error))
      << error;
  EXPECT_TRUE(AnyContains(p.warnings, "inverseBindMatrices"));
  ASSERT_EQ(p.skins.size(), 1u);
  EXPECT_EQ(p.skins[0].inverse_binds, (std::vector<glm::mat4>(2, glm::mat4(1.0f))));
}

TEST(GltfReader, SeveralWeightSetsKeepTheEightLargestInDescendingOrder) {
  testgltf::Builder b = testgltf::SkinnedStrip();
  // A second set on every vertex: joint 1 at 0.75 (largest), joint 0 at 0.125.
  std::vector<uint16_t> second_joints;
  std::vector<float> second_weights;
  for (int v = 0; v < 6; ++v) {
    second_joints.insert(second_joints.end(), {1, 0, 0, 0});
    second_weights.insert(second_weights.end(), {0.75f, 0.125f, 0.0f, 0.0f});
  }
  json& attributes = b.doc["meshes"][0]["primitives"][0]["attributes"];
  attributes["JOINTS_1"] = b.Accessor(second_joints.data(), 48, 5123, "VEC4", 6);
  attributes["WEIGHTS_1"] = b.Floats(second_weights, "VEC4", 6);
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/two_sets.gltf", Bytes(b), 0, {}, &p, &error))
      << error;
  const Primitive& strip = p.meshes[0][0];
  // Vertex 0: joint0 at 1 (set 0), joint1 at 0.75, joint0 at 0.125 (set 1).
  EXPECT_EQ(strip.influence_counts[0], 3);
  EXPECT_EQ(strip.weights[0], glm::vec4(1.0f, 0.75f, 0.125f, 0.0f));
  EXPECT_EQ(strip.joints[0], glm::u16vec4(0, 1, 0, 0));
  EXPECT_TRUE(strip.extra_weights.empty());
}

TEST(GltfReader, OneWeightSetIsSortedLargestFirstWithTiesInFileOrder) {
  testgltf::Builder b;
  const int positions = b.Positions({0, 0, 0, 1, 0, 0, 0, 1, 0});
  const std::vector<uint8_t> joints = {3, 1, 2, 0, 0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<float> weights = {0.25f, 0.5f, 0.25f, 0.0f,   // a tie: joint 3 before 2
                                      -1.0f, 0.0f, 0.5f,  0.25f,  // one invalid, one zero
                                      0.1f,  0.2f, 0.3f,  0.4f};  // reversed
  const json attributes = {{"POSITION", positions},
                           {"JOINTS_0", b.Accessor(joints.data(), 12, 5121, "VEC4", 3)},
                           {"WEIGHTS_0", b.Floats(weights, "VEC4", 3)}};
  b.doc["meshes"] =
      json::array({json{{"primitives", json::array({{{"attributes", attributes}}})}}});
  b.Node({{"mesh", 0}}, true);
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/sorted.gltf", Bytes(b), 0, {}, &p, &error)) << error;
  const Primitive& t = p.meshes.at(0).at(0);
  EXPECT_EQ(t.influence_counts, (std::vector<uint8_t>{3, 2, 4}));
  EXPECT_EQ(t.weights[0], glm::vec4(0.5f, 0.25f, 0.25f, 0.0f));
  EXPECT_EQ(t.joints[0], glm::u16vec4(1, 3, 2, 0));
  EXPECT_EQ(t.weights[1], glm::vec4(0.5f, 0.25f, 0.0f, 0.0f));
  EXPECT_EQ(t.joints[1], glm::u16vec4(2, 3, 0, 0));
  EXPECT_EQ(t.weights[2], glm::vec4(0.4f, 0.3f, 0.2f, 0.1f));
  EXPECT_EQ(t.joints[2], glm::u16vec4(7, 6, 5, 4));
  EXPECT_EQ(t.invalid_influences, 1u);
}

TEST(GltfReader, NodeTransformsComeFromTheirMatrixOrTheirTranslationRotationScale) {
  testgltf::Builder b;
  const double s = std::sqrt(0.5);
  b.Node({{"name", "trs"},
          {"translation", {1.0, 2.0, 3.0}},
          {"rotation", {0.0, 0.0, s, s}},
          {"scale", {2.0, -1.0, 0.5}}},
         true);
  // Column-major: a translation of (4, 5, 6) and a uniform scale of 3; its TRS is ignored.
  b.Node({{"name", "matrix"},
          {"matrix", {3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 4, 5, 6, 1}},
          {"translation", {9.0, 9.0, 9.0}}},
         true);
  b.Node({{"name", "sheared"}, {"matrix", {1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}}, true);
  b.Node({{"name", "bad"}, {"translation", {1.0, "two", 3.0}}}, true);
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/transforms.gltf", Bytes(b), 0, {}, &p, &error))
      << error;
  ASSERT_EQ(p.nodes.size(), 4u);
  // TRS as given, a negative scale included (a decomposed matrix would move the sign).
  EXPECT_EQ(p.nodes[0].rest.translation, glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_EQ(p.nodes[0].rest.scale, glm::vec3(2.0f, -1.0f, 0.5f));
  EXPECT_NEAR(p.nodes[0].rest.rotation.z, s, 1e-7);
  EXPECT_NEAR(p.nodes[0].rest.rotation.w, s, 1e-7);
  EXPECT_FALSE(p.nodes[0].approximated);
  EXPECT_EQ(p.nodes[1].rest.translation, glm::vec3(4.0f, 5.0f, 6.0f));
  EXPECT_NEAR(p.nodes[1].rest.scale.x, 3.0f, 1e-6f);
  EXPECT_FALSE(p.nodes[1].approximated);
  EXPECT_TRUE(p.nodes[2].approximated);
  // A malformed member is ignored, with a warning naming the node.
  EXPECT_EQ(p.nodes[3].rest.translation, glm::vec3(0.0f));
  EXPECT_TRUE(AnyContains(p.warnings, "node 'bad' has a 'translation' that is not 3 numbers"));
}

TEST(GltfReader, DuplicateNodeNamesAreMadeUniqueAndUnnamedNodesNamedByIndex) {
  testgltf::Builder b;
  b.Node({{"name", "arm"}}, true);
  b.Node({{"name", "arm"}}, true);
  b.Node(json::object(), true);
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/names.gltf", Bytes(b), 0, {}, &p, &error)) << error;
  EXPECT_EQ(p.nodes[0].name, "arm");
  EXPECT_EQ(p.nodes[1].name, "arm.1");
  EXPECT_EQ(p.nodes[2].name, "nodes[2]");
  EXPECT_TRUE(p.nodes[0].named);
  EXPECT_FALSE(p.nodes[2].named);
  EXPECT_TRUE(AnyContains(p.warnings, "renamed"));
}

TEST(GltfReader, TheSceneNamedByTheFileIsWalked) {
  testgltf::Builder b;
  b.Node({{"name", "first"}}, true);
  b.Node({{"name", "second"}, {"children", {2}}}, false);
  b.Node({{"name", "child"}}, false);
  b.doc["scenes"].push_back({{"nodes", {1}}});
  b.doc["scene"] = 1;
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/scenes.gltf", Bytes(b), 0, {}, &p, &error)) << error;
  EXPECT_EQ(p.preorder_nodes, (std::vector<int>{1, 2}));
  // Without `scene`, the first scene.
  b.doc.erase("scene");
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/scenes.gltf", Bytes(b), 0, {}, &p, &error)) << error;
  EXPECT_EQ(p.preorder_nodes, (std::vector<int>{0}));
}

TEST(GltfReader, Gltf1FilesAreLeftToAssimpWithUnitRotations) {
  const json doc = {{"asset", {{"version", "1.0"}}},
                    {"nodes", {{"a", {{"rotation", {0.0, 0.0, 0.0, 2.0}}}}}}};
  const std::string text = doc.dump();
  Contents p;
  std::string error;
  ASSERT_TRUE(Prepare(testpaths::TempDir() + "/one.gltf",
                      std::vector<uint8_t>(text.begin(), text.end()), 0, {}, &p, &error))
      << error;
  EXPECT_FALSE(p.is_gltf2);
  ASSERT_FALSE(p.patched.empty());
  const json patched = json::parse(p.patched.begin(), p.patched.end());
  EXPECT_EQ(patched["nodes"]["a"]["rotation"], json::array({0.0, 0.0, 0.0, 1.0}));
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
