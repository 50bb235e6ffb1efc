// KHR_draco_mesh_compression (gltf_draco.cpp): the skinned strip compressed with Debian's libdraco
// encoder loads as the same model as the uncompressed file; broken streams are refused.
#include <draco/compression/encode.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "assets/importer.h"
#include "tests/assets/gltf_builder.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

// The strip's data (tests/assets/gltf_builder.h), with normals and uvs.
struct StripData {
  std::vector<float> positions = {-0.5f, 0, 0, 0.5f,  0, 0, -0.5f, 1, 0,
                                  0.5f,  1, 0, -0.5f, 2, 0, 0.5f,  2, 0};
  std::vector<float> normals = std::vector<float>(18, 0.0f);
  std::vector<float> uvs = {0, 1, 1, 1, 0, 0.5f, 1, 0.5f, 0, 0, 1, 0};
  std::vector<uint16_t> joints = {0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0,
                                  0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
  std::vector<float> weights = {1,     0,     0, 0, 1, 0, 0, 0, 0.25f, 0.75f, 0, 0,
                                0.25f, 0.75f, 0, 0, 0, 1, 0, 0, 0,     1,     0, 0};
  std::vector<uint16_t> indices = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4};
  StripData() {
    for (size_t v = 0; v < 6; ++v) normals[v * 3 + 2] = 1.0f;
  }
};

// Adds attribute `values` (`components` per point, 6 points) to `mesh`; returns its unique id.
template <typename T>
uint32_t AddAttribute(draco::Mesh* mesh, draco::GeometryAttribute::Type type, int components,
                      draco::DataType data_type, const std::vector<T>& values) {
  draco::GeometryAttribute attribute;
  attribute.Init(type, nullptr, static_cast<uint8_t>(components), data_type, false,
                 static_cast<int64_t>(sizeof(T)) * components, 0);
  const int id = mesh->AddAttribute(attribute, /*identity_mapping=*/true, 6);
  for (uint32_t p = 0; p < 6; ++p) {
    mesh->attribute(id)->SetAttributeValue(draco::AttributeValueIndex(p),
                                           &values[p * static_cast<size_t>(components)]);
  }
  return mesh->attribute(id)->unique_id();
}

// The strip as a glTF file: plain, or with its one primitive Draco-compressed.
testgltf::Builder Strip(bool draco_compressed) {
  const StripData s;
  testgltf::Builder b;
  json attributes, extension;
  int indices = -1;
  if (!draco_compressed) {
    attributes = {{"POSITION", b.Positions(s.positions)},
                  {"NORMAL", b.Floats(s.normals, "VEC3", 6)},
                  {"TEXCOORD_0", b.Floats(s.uvs, "VEC2", 6)},
                  {"JOINTS_0", b.Accessor(s.joints.data(), 48, 5123, "VEC4", 6)},
                  {"WEIGHTS_0", b.Floats(s.weights, "VEC4", 6)}};
    indices = b.Accessor(s.indices.data(), 24, 5123, "SCALAR", 12);
  } else {
    draco::Mesh mesh;
    mesh.set_num_points(6);
    json ids = {
        {"POSITION", AddAttribute(&mesh, draco::GeometryAttribute::POSITION, 3, draco::DT_FLOAT32,
                                  s.positions)},
        {"NORMAL",
         AddAttribute(&mesh, draco::GeometryAttribute::NORMAL, 3, draco::DT_FLOAT32, s.normals)},
        {"TEXCOORD_0",
         AddAttribute(&mesh, draco::GeometryAttribute::TEX_COORD, 2, draco::DT_FLOAT32, s.uvs)},
        {"JOINTS_0",
         AddAttribute(&mesh, draco::GeometryAttribute::GENERIC, 4, draco::DT_UINT16, s.joints)},
        {"WEIGHTS_0",
         AddAttribute(&mesh, draco::GeometryAttribute::GENERIC, 4, draco::DT_FLOAT32, s.weights)}};
    for (size_t t = 0; t < 4; ++t) {
      mesh.AddFace({draco::PointIndex(s.indices[t * 3]), draco::PointIndex(s.indices[t * 3 + 1]),
                    draco::PointIndex(s.indices[t * 3 + 2])});
    }
    draco::Encoder encoder;
    encoder.SetEncodingMethod(draco::MESH_SEQUENTIAL_ENCODING);
    draco::EncoderBuffer encoded;
    EXPECT_TRUE(encoder.EncodeMeshToBuffer(mesh, &encoded).ok());
    while (b.data.size() % 4) b.data.push_back(0);
    const size_t offset = b.data.size();
    b.data.insert(b.data.end(), encoded.data(), encoded.data() + encoded.size());
    b.doc["bufferViews"].push_back(
        {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", encoded.size()}});
    // Accessors without data: their count and type describe what the stream decodes to.
    auto described = [&](int component, const char* type, size_t count) {
      b.doc["accessors"].push_back(
          {{"componentType", component}, {"type", type}, {"count", count}});
      return static_cast<int>(b.doc["accessors"].size() - 1);
    };
    attributes = {{"POSITION", described(5126, "VEC3", 6)},
                  {"NORMAL", described(5126, "VEC3", 6)},
                  {"TEXCOORD_0", described(5126, "VEC2", 6)},
                  {"JOINTS_0", described(5123, "VEC4", 6)},
                  {"WEIGHTS_0", described(5126, "VEC4", 6)}};
    indices = described(5123, "SCALAR", 12);
    extension = {{"bufferView", b.doc["bufferViews"].size() - 1}, {"attributes", ids}};
    b.doc["extensionsUsed"] = {"KHR_draco_mesh_compression"};
    b.doc["extensionsRequired"] = {"KHR_draco_mesh_compression"};
  }
  json primitive = {{"attributes", attributes}, {"indices", indices}};
  if (draco_compressed) primitive["extensions"] = {{"KHR_draco_mesh_compression", extension}};
  b.doc["meshes"] = {{{"name", "strip"}, {"primitives", {primitive}}}};
  b.Node({{"name", "joint0"}, {"children", {1}}}, true);
  b.Node({{"name", "joint1"}, {"translation", {0.0, 1.0, 0.0}}}, false);
  b.Node({{"name", "strip"}, {"mesh", 0}, {"skin", 0}}, true);
  b.doc["skins"] = {{{"joints", {0, 1}}}};
  return b;
}

LoadResult LoadStrip(const testgltf::Builder& b, const std::string& name) {
  const std::string path = testpaths::TempDir() + "/" + name;
  testgltf::WriteBytes(path, b.Glb());
  return LoadModel(path);
}

using Vertex = std::tuple<float, float, float, float, float, float, float>;

// Each vertex's position, uv and first two weights, in a sorted list (vertex order may differ).
std::vector<Vertex> Vertices(const Mesh& mesh) {
  std::vector<Vertex> out;
  for (size_t v = 0; v < mesh.positions.size(); ++v) {
    out.emplace_back(mesh.positions[v].x, mesh.positions[v].y, mesh.positions[v].z, mesh.uvs[v].x,
                     mesh.uvs[v].y, mesh.weights[v].x, mesh.weights[v].y);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(GltfDraco, CompressedStripLoadsAsTheUncompressedOne) {
  const LoadResult plain = LoadStrip(Strip(false), "strip_plain.glb");
  const LoadResult draco = LoadStrip(Strip(true), "strip_draco.glb");
  ASSERT_TRUE(plain.ok()) << plain.error;
  ASSERT_TRUE(draco.ok()) << draco.error;
  EXPECT_EQ(draco.warnings, plain.warnings);
  ASSERT_EQ(draco.model->meshes.size(), 1u);
  const Mesh& a = plain.model->meshes[0];
  const Mesh& b = draco.model->meshes[0];
  EXPECT_TRUE(b.skinned);
  EXPECT_EQ(b.bone_joints, a.bone_joints);
  EXPECT_EQ(b.indices.size(), a.indices.size());
  EXPECT_EQ(Vertices(b), Vertices(a));
  for (const glm::vec3& n : b.normals) EXPECT_EQ(n, glm::vec3(0.0f, 0.0f, 1.0f));
}

TEST(GltfDraco, StreamsThatDoNotDecodeAreRefused) {
  testgltf::Builder b = Strip(true);
  const size_t offset = b.doc["bufferViews"].back()["byteOffset"].get<size_t>();
  for (size_t i = offset + 4; i < b.data.size(); ++i) b.data[i] = 0xA5;
  const LoadResult r = LoadStrip(b, "strip_bad_draco.glb");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error, HasSubstr("Draco"));
}

TEST(GltfDraco, AnAttributeWhoseCountDiffersFromItsAccessorIsRefused) {
  testgltf::Builder b = Strip(true);
  const int position = b.doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"];
  b.doc["accessors"][position]["count"] = 7;
  const LoadResult r = LoadStrip(b, "strip_draco_count.glb");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error, HasSubstr("Draco attribute 'POSITION' has 6 elements"));
}

TEST(GltfDraco, AnAttributeMissingFromTheStreamIsRefused) {
  testgltf::Builder b = Strip(true);
  b.doc["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]["attributes"]
       ["NORMAL"] = 99;
  const LoadResult r = LoadStrip(b, "strip_draco_missing.glb");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error, HasSubstr("not in its Draco data"));
}

// glTF's rule: an accessor without a bufferView holds zeros. Morph targets beside a Draco stream
// (they are never in it) may be such accessors, with or without data in other targets.
TEST(GltfDraco, MorphTargetsWithoutDataAreZeroDeltasBesideTheStream) {
  testgltf::Builder b = Strip(true);
  auto no_data = [&b](const char* type) {
    b.doc["accessors"].push_back({{"componentType", 5126}, {"type", type}, {"count", 6}});
    return static_cast<int>(b.doc["accessors"].size() - 1);
  };
  const StripData s;
  std::vector<float> lift(18, 0.0f);  // each vertex moved along z by its height plus 1
  for (size_t v = 0; v < 6; ++v) lift[v * 3 + 2] = s.positions[v * 3 + 1] + 1.0f;
  json& primitive = b.doc["meshes"][0]["primitives"][0];
  primitive["targets"] = {{{"POSITION", no_data("VEC3")}, {"NORMAL", no_data("VEC3")}},
                          {{"POSITION", b.Floats(lift, "VEC3", 6)}, {"NORMAL", no_data("VEC3")}}};
  b.doc["meshes"][0]["weights"] = {0.25, 0.5};
  b.doc["meshes"][0]["extras"] = {{"targetNames", {"flat", "lift"}}};
  const LoadResult r = LoadStrip(b, "strip_draco_empty_targets.glb");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->meshes.size(), 1u);
  const Mesh& mesh = r.model->meshes[0];
  ASSERT_EQ(mesh.positions.size(), 6u);
  ASSERT_EQ(mesh.targets.size(), 2u);
  EXPECT_EQ(mesh.targets[0].name, "flat");
  EXPECT_EQ(mesh.targets[1].name, "lift");
  EXPECT_EQ(mesh.target_weights, (std::vector<float>{0.25f, 0.5f}));
  for (const MorphTarget& target : mesh.targets) {
    ASSERT_EQ(target.positions.size(), 6u);
    ASSERT_EQ(target.normals.size(), 6u);
    for (const glm::vec3& n : target.normals) EXPECT_EQ(n, glm::vec3(0.0f));
  }
  for (size_t v = 0; v < 6; ++v) {
    EXPECT_EQ(mesh.targets[0].positions[v], glm::vec3(0.0f));
    EXPECT_EQ(mesh.targets[1].positions[v], glm::vec3(0.0f, 0.0f, mesh.positions[v].y + 1.0f));
  }
  for (const std::string& warning : r.warnings) EXPECT_THAT(warning, Not(HasSubstr("target")));
}

}  // namespace
}  // namespace assets
