// The Model a glTF 2.0 file becomes (gltf_model.cpp, through LoadModel): the scene's node tree as
// joints, meshes placed on their nodes and named, materials, and what the file holds that a Model
// has no place for, on small files made here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "assets/importer.h"
#include "ik/core/kinematics.h"
#include "ik/core/skeleton.h"
#include "tests/assets/gltf_builder.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

bool AnyContains(const std::vector<std::string>& warnings, const std::string& text) {
  for (const std::string& w : warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

Model Load(const testgltf::Builder& b, const std::string& name) {
  const std::string path = testpaths::TempDir() + "/" + name;
  b.WriteGltf(path);
  LoadResult r = LoadModel(path);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.ok() ? std::move(*r.model) : Model();
}

// A rigid triangle in the xy plane (no normals, no skin), as mesh `name` ("" for none).
int AddTriangle(testgltf::Builder* b, const std::string& name) {
  const int positions = b->Positions({0, 0, 0, 1, 0, 0, 0, 1, 0});
  json mesh = {{"primitives", json::array({json{{"attributes", {{"POSITION", positions}}}}})}};
  if (!name.empty()) mesh["name"] = name;
  b->doc["meshes"].push_back(mesh);
  return static_cast<int>(b->doc["meshes"].size() - 1);
}

// Model-space rest matrices of every joint.
std::vector<glm::mat4> RestModels(const Model& m) {
  std::vector<glm::mat4> models;
  ik::LocalToModel(m.skeleton, ik::Pose::Rest(m.skeleton), &models);
  return models;
}

void ExpectNear(const glm::mat4& a, const glm::mat4& b, float tolerance) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) EXPECT_NEAR(a[c][r], b[c][r], tolerance) << c << "," << r;
}

TEST(GltfModel, SeveralSceneRootsStayRootsWithoutANodeAboveThem) {
  testgltf::Builder b;
  b.Node({{"name", "left"}, {"children", {1}}}, true);
  b.Node({{"name", "left child"}}, false);
  b.Node({{"name", "right"}}, true);
  b.Node({{"name", "not in the scene"}}, false);
  const Model m = Load(b, "roots.gltf");
  EXPECT_EQ(m.skeleton.names(), (std::vector<std::string>{"left", "left child", "right"}));
  EXPECT_EQ(m.skeleton.parent(0), -1);
  EXPECT_EQ(m.skeleton.parent(1), 0);
  EXPECT_EQ(m.skeleton.parent(2), -1);
}

TEST(GltfModel, JointsSitWhereTheNodesMatricesAndTransformsPutThem) {
  testgltf::Builder b;
  const double h = std::sqrt(0.5);
  // A turn of 90 degrees about z, a negative scale and a translation...
  b.Node({{"name", "trs"},
          {"translation", {1.0, 2.0, 3.0}},
          {"rotation", {0.0, 0.0, h, h}},
          {"scale", {2.0, -1.0, 0.5}},
          {"children", {1}}},
         true);
  // ...then a column-major matrix (scale 3, translation (4, 5, 6)) below it.
  b.Node({{"name", "matrix"}, {"matrix", {3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 4, 5, 6, 1}}}, false);
  const Model m = Load(b, "transforms.gltf");
  ASSERT_EQ(m.skeleton.joint_count(), 2);
  const glm::mat4 trs = glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3)) *
                        glm::mat4_cast(glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1))) *
                        glm::scale(glm::mat4(1.0f), glm::vec3(2, -1, 0.5f));
  const glm::mat4 matrix = glm::translate(glm::mat4(1.0f), glm::vec3(4, 5, 6)) *
                           glm::scale(glm::mat4(1.0f), glm::vec3(3.0f));
  const std::vector<glm::mat4> models = RestModels(m);
  ExpectNear(models[0], trs, 1e-5f);
  ExpectNear(models[1], trs * matrix, 1e-5f);
  // The file's own TRS is the joint's rest local, so a clip replacing the rotation keeps the
  // negative scale where the file has it.
  EXPECT_EQ(m.skeleton.rest_locals()[0].scale, glm::vec3(2.0f, -1.0f, 0.5f));
  EXPECT_TRUE(m.warnings.empty()) << m.warnings[0];
}

TEST(GltfModel, ANodeListedUnderTwoParentsIsAJointUnderEachAndItsClipMovesBoth) {
  testgltf::Builder b;
  b.Node({{"name", "a"}, {"children", {2}}}, true);
  b.Node({{"name", "b"}, {"translation", {1.0, 0.0, 0.0}}, {"children", {2}}}, true);
  b.Node({{"name", "shared"}, {"translation", {0.0, 1.0, 0.0}}}, false);
  const int times = b.Floats({0.0f, 1.0f}, "SCALAR", 2);
  const int values = b.Floats({0, 1, 0, 0, 2, 0}, "VEC3", 2);
  b.doc["animations"] = {
      {{"samplers", {{{"input", times}, {"output", values}}}},
       {"channels", {{{"sampler", 0}, {"target", {{"node", 2}, {"path", "translation"}}}}}}}};
  const std::string path = testpaths::TempDir() + "/two_parents.gltf";
  b.WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  EXPECT_EQ(m.skeleton.names(), (std::vector<std::string>{"a", "shared", "b", "shared.001"}));
  EXPECT_EQ(m.skeleton.parent(3), 2);
  EXPECT_TRUE(AnyContains(r.warnings, "renamed to keep joint names unique"));
  ASSERT_EQ(m.clips.size(), 1u);
  ASSERT_EQ(m.clips[0].channels.size(), 2u);
  EXPECT_EQ(m.clips[0].channels[0].joint, 1);
  EXPECT_EQ(m.clips[0].channels[1].joint, 3);
}

TEST(GltfModel, AMeshShownByTwoNodesBecomesOneRigidMeshOnEach) {
  testgltf::Builder b;
  const int mesh = AddTriangle(&b, "tri");
  b.Node({{"name", "first"}, {"mesh", mesh}}, true);
  b.Node({{"name", "second"}, {"mesh", mesh}, {"translation", {0.0, 0.0, 5.0}}}, true);
  const Model m = Load(b, "instanced.gltf");
  ASSERT_EQ(m.meshes.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const Mesh& mesh_i = m.meshes[static_cast<size_t>(i)];
    EXPECT_EQ(mesh_i.name, "tri");
    EXPECT_FALSE(mesh_i.skinned);
    EXPECT_EQ(mesh_i.node, i);
    EXPECT_EQ(mesh_i.bone_joints, (std::vector<int>{i}));
    EXPECT_EQ(mesh_i.positions.size(), 3u);
    // No normals in the file: made from the face (+z for this winding).
    for (const glm::vec3& n : mesh_i.normals) EXPECT_EQ(n, glm::vec3(0.0f, 0.0f, 1.0f));
  }
  EXPECT_FALSE(m.is_bone[0]);
}

TEST(GltfModel, UnnamedMeshesAreNamedAfterTheirNodes) {
  testgltf::Builder b;
  const int unnamed = AddTriangle(&b, "");
  const int named = AddTriangle(&b, "Body");
  b.Node({{"name", "Face"}, {"mesh", unnamed}}, true);
  b.Node({{"name", "Teeth"}, {"mesh", unnamed}}, true);
  b.Node({{"name", "Hero"}, {"mesh", named}}, true);
  b.Node({{"mesh", unnamed}}, true);  // no name either: the mesh's index
  // Two primitives: "<node>-<primitive>".
  const int positions = b.Positions({0, 0, 0, 1, 0, 0, 0, 1, 0});
  const json primitive = {{"attributes", {{"POSITION", positions}}}};
  b.doc["meshes"].push_back({{"primitives", {primitive, primitive}}});
  b.Node({{"name", "Eyes"}, {"mesh", 2}}, true);
  const Model m = Load(b, "mesh_names.gltf");
  std::vector<std::string> names;
  for (const Mesh& mesh : m.meshes) names.push_back(mesh.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"Face", "Teeth", "Body", "meshes[0]", "Eyes-0", "Eyes-1"}));
}

TEST(GltfModel, CamerasLightsAndUnknownNodeExtensionsAreIgnored) {
  testgltf::Builder b;
  b.doc["cameras"] = {{{"type", "perspective"}, {"perspective", {{"yfov", 0.8}, {"znear", 0.1}}}}};
  b.doc["extensionsUsed"] = {"KHR_lights_punctual"};
  b.doc["extensions"] = {{"KHR_lights_punctual", {{"lights", {{{"type", "point"}}}}}}};
  const int mesh = AddTriangle(&b, "tri");
  b.Node({{"name", "camera"}, {"camera", 0}, {"translation", {0.0, 0.0, 3.0}}}, true);
  b.Node({{"name", "lamp"}, {"extensions", {{"KHR_lights_punctual", {{"light", 0}}}}}}, true);
  b.Node({{"name", "shape"}, {"mesh", mesh}}, true);
  const Model m = Load(b, "camera_light.gltf");
  // Camera and light nodes stay plain joints (they may parent others); nothing else comes of them.
  EXPECT_EQ(m.skeleton.names(), (std::vector<std::string>{"camera", "lamp", "shape"}));
  EXPECT_EQ(m.meshes.size(), 1u);
  // The one warning is the unread extension's (for `skelview check`'s extension.unsupported).
  EXPECT_EQ(m.warnings, (std::vector<std::string>{"uses 'KHR_lights_punctual', an extension "
                                                  "skelview does not read; loaded without it"}));
}

TEST(GltfModel, UsedMaterialsKeepTheirBaseColourAndTexture) {
  testgltf::Builder b;
  const std::string tga = testgltf::SmallTga();
  b.doc["images"] = {{{"uri", "data:image/x-tga;base64," +
                                  gltfref::Base64(std::vector<uint8_t>(tga.begin(), tga.end()))}}};
  b.doc["textures"] = {{{"source", 0}}};
  b.doc["materials"] = {
      {{"name", "unused"}},
      {{"name", "skin"},
       {"pbrMetallicRoughness",
        {{"baseColorFactor", {0.5, 0.25, 1.0, 1.0}}, {"baseColorTexture", {{"index", 0}}}}}}};
  const int with_material = AddTriangle(&b, "dressed");
  b.doc["meshes"][with_material]["primitives"][0]["material"] = 1;
  const int without = AddTriangle(&b, "bare");
  b.Node({{"name", "a"}, {"mesh", with_material}}, true);
  b.Node({{"name", "b"}, {"mesh", without}}, true);
  const Model m = Load(b, "materials.gltf");
  ASSERT_EQ(m.materials.size(), 2u);
  ASSERT_EQ(m.meshes.size(), 2u);
  const Material& skin = m.materials[static_cast<size_t>(m.meshes[0].material)];
  EXPECT_EQ(skin.name, "skin");
  EXPECT_EQ(skin.base_color, glm::vec4(0.5f, 0.25f, 1.0f, 1.0f));
  ASSERT_EQ(skin.base_color_texture, 0);
  ASSERT_EQ(m.textures.size(), 1u);
  EXPECT_EQ(m.textures[0].width, 2);
  // A primitive without a material gets glTF's default: white.
  const Material& fallback = m.materials[static_cast<size_t>(m.meshes[1].material)];
  EXPECT_EQ(fallback.base_color, glm::vec4(1.0f));
  EXPECT_EQ(fallback.base_color_texture, -1);
}

TEST(GltfModel, TheFirstUvSetIsKeptAndOtherAttributesAreIgnored) {
  testgltf::Builder b;
  const int positions = b.Positions({0, 0, 0, 1, 0, 0, 0, 1, 0});
  const int uv0 = b.Floats({0, 0, 1, 0, 0, 1}, "VEC2", 3);
  const int uv1 = b.Floats({5, 5, 6, 5, 5, 6}, "VEC2", 3);
  const int colours = b.Floats({1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1}, "VEC4", 3);
  const json attributes = {{"POSITION", positions},
                           {"TEXCOORD_0", uv0},
                           {"TEXCOORD_1", uv1},
                           {"COLOR_0", colours},
                           {"_CUSTOM", colours}};
  const json primitive = {{"attributes", attributes}};
  b.doc["meshes"] = json::array({json{{"primitives", json::array({primitive})}}});
  b.Node({{"name", "shape"}, {"mesh", 0}}, true);
  const Model m = Load(b, "attributes.gltf");
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.meshes[0].uvs,
            (std::vector<glm::vec2>{glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(0, 1)}));
}

TEST(GltfModel, PointsAndLinesAreLeftOutWithAWarningAndAloneRefused) {
  testgltf::Builder b;
  const int positions = b.Positions({0, 0, 0, 1, 0, 0, 0, 1, 0});
  b.doc["meshes"] = {{{"primitives", {{{"attributes", {{"POSITION", positions}}}, {"mode", 1}}}}}};
  b.Node({{"name", "lines"}, {"mesh", 0}}, true);
  const std::string path = testpaths::TempDir() + "/only_lines.gltf";
  b.WriteGltf(path);
  const LoadResult lines = LoadModel(path);
  ASSERT_FALSE(lines.ok());
  EXPECT_THAT(lines.error, HasSubstr("nothing to show"));
  AddTriangle(&b, "tri");
  b.Node({{"name", "tri"}, {"mesh", 1}}, true);
  const std::string mixed = testpaths::TempDir() + "/lines_and_triangle.gltf";
  b.WriteGltf(mixed);
  const LoadResult r = LoadModel(mixed);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->meshes.size(), 1u);
  EXPECT_TRUE(AnyContains(r.warnings, "without triangles (points or lines) were not loaded"));
}

TEST(GltfModel, ANodeTransformBeyondTheLimitsIsRefusedNamingTheNode) {
  testgltf::Builder b;
  AddTriangle(&b, "tri");
  b.Node({{"name", "far"}, {"matrix", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1e30, 0, 0, 1}}}, true);
  b.Node({{"name", "tri"}, {"mesh", 0}}, true);
  const std::string path = testpaths::TempDir() + "/far_matrix.gltf";
  b.WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error, HasSubstr("node 'far' has a non-finite or huge transform"));
}

TEST(GltfModel, ClipsOfNodesOutsideTheSceneMoveNothing) {
  testgltf::Builder b;
  AddTriangle(&b, "tri");
  b.Node({{"name", "tri"}, {"mesh", 0}}, true);
  b.Node({{"name", "elsewhere"}}, false);
  const int times = b.Floats({0.0f, 1.0f}, "SCALAR", 2);
  const int values = b.Floats({0, 1, 0, 0, 2, 0}, "VEC3", 2);
  b.doc["animations"] = {
      {{"name", "moves"},
       {"samplers", {{{"input", times}, {"output", values}}}},
       {"channels",
        {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}},
         {{"sampler", 0}, {"target", {{"node", 1}, {"path", "translation"}}}}}}}};
  const Model m = Load(b, "outside_clip.gltf");
  ASSERT_EQ(m.clips.size(), 1u);
  EXPECT_EQ(m.clips[0].name, "moves");
  ASSERT_EQ(m.clips[0].channels.size(), 1u);
  EXPECT_EQ(m.clips[0].channels[0].joint, 0);
  EXPECT_FLOAT_EQ(m.clips[0].duration, 1.0f);
}

}  // namespace
}  // namespace assets
