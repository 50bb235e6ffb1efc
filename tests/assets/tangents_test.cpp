// Tangents and the tangent deltas of morph targets: read from glTF (dense, sparse, quantized),
// checked (bad arrays dropped with a warning, the rest of the file kept), welded, blended, kept by
// the model cache and written back by the exporter.
#include <gtest/gtest.h>
#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "assets/export/exporter.h"
#include "assets/files/model_io.h"
#include "assets/importer.h"
#include "assets/model/mesh_cleanup.h"
#include "assets/model/morph.h"
#include "tests/assets/gltf_builder.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using json = nlohmann::json;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct TangentOptions {
  bool normals = true;
  size_t tangent_count = 5;         // elements of the TANGENT accessor (the mesh has 5 vertices)
  float first_tangent_x = 1.0f;     // NaN or 0 (with zero y, z) makes the array invalid
  bool quantized = false;           // TANGENT as normalized signed bytes
  size_t target_tangent_count = 5;  // elements of target 0's TANGENT accessor
  float target_tangent_y = 0.5f;    // NaN makes target 0's tangent deltas invalid
};

// The file's tangents: vertex 4 repeats vertex 1 (position, normal, uv) with the other handedness,
// as on a mirrored-uv seam; vertex 3's is not unit length (read normalised).
const std::vector<float> kTangents = {1, 0,  0, 1, 1, 0, 0, 1, 0.6f, 0.8f,
                                      0, -1, 2, 0, 0, 1, 1, 0, 0,    -1};
const std::vector<glm::vec4> kReadTangents = {
    {1, 0, 0, 1}, {1, 0, 0, 1}, {0.6f, 0.8f, 0, -1}, {1, 0, 0, 1}, {1, 0, 0, -1}};

// A quad in the XY plane facing +Z (vertices 0-3) plus vertex 4 (see kTangents), on one node,
// with NORMAL, TEXCOORD_0 and TANGENT and two targets: "Smile" moves every vertex along +x (4 as
// much as 1) and tilts every tangent by (0, 0.5, 0) (dense), "Blink" moves every vertex along +z
// and tilts vertex 2's tangent by (0.1, 0, 0.2) (a sparse accessor without a bufferView).
testgltf::Builder TangentQuad(const TangentOptions& o = {}) {
  testgltf::Builder b;
  const std::vector<float> positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0};
  std::vector<float> normals, uvs = {0, 1, 1, 1, 1, 0, 0, 0, 1, 1};
  for (int v = 0; v < 5; ++v) normals.insert(normals.end(), {0, 0, 1});
  const std::vector<uint16_t> indices = {0, 1, 2, 0, 2, 3, 4, 2, 0};
  json attributes = {{"POSITION", b.Positions(positions)},
                     {"TEXCOORD_0", b.Floats(uvs, "VEC2", 5)}};
  if (o.normals) attributes["NORMAL"] = b.Floats(normals, "VEC3", 5);
  std::vector<float> tangents = kTangents;
  tangents[0] = o.first_tangent_x;
  tangents.resize(o.tangent_count * 4);
  if (o.quantized) {
    std::vector<int8_t> bytes;
    for (float t : tangents) {
      bytes.push_back(static_cast<int8_t>(std::lround(std::clamp(t, -1.0f, 1.0f) * 127.0f)));
    }
    attributes["TANGENT"] = b.Accessor(bytes.data(), bytes.size(), 5120, "VEC4", o.tangent_count,
                                       /*normalized=*/true);
    b.doc["extensionsUsed"] = {"KHR_mesh_quantization"};
    b.doc["extensionsRequired"] = {"KHR_mesh_quantization"};
  } else {
    attributes["TANGENT"] = b.Floats(tangents, "VEC4", o.tangent_count);
  }
  std::vector<float> smile, smile_tangents, blink;
  for (int v = 0; v < 5; ++v) {
    smile.insert(smile.end(), {0.1f * static_cast<float>(v == 4 ? 2 : v + 1), 0, 0});
    smile_tangents.insert(smile_tangents.end(), {0, o.target_tangent_y, 0});
    blink.insert(blink.end(), {0, 0, 0.25f});
  }
  smile_tangents.resize(o.target_tangent_count * 3);
  const int smile_accessor = b.Floats(smile, "VEC3", 5);
  const int smile_tangent_accessor = b.Floats(smile_tangents, "VEC3", o.target_tangent_count);
  const int blink_accessor = b.Floats(blink, "VEC3", 5);
  // Blink's sparse TANGENT: index 2 -> (0.1, 0, 0.2) over zeros.
  const std::vector<uint16_t> sparse_index = {2, 0};  // one index, padded to 4 bytes
  const std::vector<float> sparse_value = {0.1f, 0, 0.2f};
  const int index_view =
      b.Accessor(sparse_index.data(), 4, 5123, "SCALAR", 1);  // for its bufferView only
  const int value_view = b.Accessor(sparse_value.data(), 12, 5126, "VEC3", 1);
  b.doc["accessors"].push_back(
      {{"componentType", 5126},
       {"type", "VEC3"},
       {"count", 5},
       {"sparse",
        {{"count", 1},
         {"indices",
          {{"bufferView", b.doc["accessors"][index_view]["bufferView"]}, {"componentType", 5123}}},
         {"values", {{"bufferView", b.doc["accessors"][value_view]["bufferView"]}}}}}});
  const size_t blink_tangent_accessor = b.doc["accessors"].size() - 1;
  b.doc["meshes"] = json::array({json{
      {"name", "quad"},
      {"weights", {0.5, 0.25}},
      {"extras", {{"targetNames", {"Smile", "Blink"}}}},
      {"primitives",
       json::array({json{
           {"attributes", attributes},
           {"indices", b.Accessor(indices.data(), indices.size() * 2, 5123, "SCALAR", 9)},
           {"targets",
            json::array(
                {json{{"POSITION", smile_accessor}, {"TANGENT", smile_tangent_accessor}},
                 json{{"POSITION", blink_accessor}, {"TANGENT", blink_tangent_accessor}}})}}})}}});
  b.Node({{"name", "quad_node"}, {"mesh", 0}}, true);
  return b;
}

Model Load(const testgltf::Builder& b, const std::string& name) {
  const std::string path = testpaths::TempDir() + "/" + name;
  b.WriteGltf(path);
  LoadResult loaded = LoadModel(path);
  EXPECT_TRUE(loaded.model) << loaded.error;
  return loaded.model ? std::move(*loaded.model) : Model();
}

bool HasWarning(const Model& model, const std::string& a, const std::string& b) {
  for (const std::string& w : model.warnings) {
    if (w.find(a) != std::string::npos && w.find(b) != std::string::npos) return true;
  }
  return false;
}

void ExpectNear(const glm::vec4& a, const glm::vec4& b, float tolerance, const std::string& what) {
  EXPECT_NEAR(glm::length(a - b), 0.0f, tolerance)
      << what << ": " << a.x << "," << a.y << "," << a.z << "," << a.w << " vs " << b.x << ","
      << b.y << "," << b.z << "," << b.w;
}

void ExpectNear(const glm::vec3& a, const glm::vec3& b, float tolerance, const std::string& what) {
  ExpectNear(glm::vec4(a, 0.0f), glm::vec4(b, 0.0f), tolerance, what);
}

const std::vector<glm::vec3> kBlinkTangents = {
    {0, 0, 0}, {0, 0, 0}, {0.1f, 0, 0.2f}, {0, 0, 0}, {0, 0, 0}};

// The quad's tangents and both targets' tangent deltas as TangentQuad writes them (vertex order
// as in the file: the importer keeps it, welding nothing here).
void ExpectQuadTangents(const Mesh& mesh, float tolerance, const std::string& what) {
  ASSERT_EQ(mesh.positions.size(), 5u) << what;
  ASSERT_EQ(mesh.tangents.size(), 5u) << what;
  for (size_t v = 0; v < 5; ++v) {
    ExpectNear(mesh.tangents[v], kReadTangents[v], tolerance,
               what + " tangent " + std::to_string(v));
  }
  ASSERT_EQ(mesh.targets.size(), 2u) << what;
  ASSERT_EQ(mesh.targets[0].tangents.size(), 5u) << what;
  ASSERT_EQ(mesh.targets[1].tangents.size(), 5u) << what;
  for (size_t v = 0; v < 5; ++v) {
    ExpectNear(mesh.targets[0].tangents[v], glm::vec3(0, 0.5f, 0), 1e-6f, what + " Smile");
    ExpectNear(mesh.targets[1].tangents[v], kBlinkTangents[v], 1e-6f, what + " Blink");
  }
}

TEST(Tangents, ReadsTangentsAndDenseAndSparseTargetTangentDeltas) {
  const Model model = Load(TangentQuad(), "tangents_read.gltf");
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_NO_FATAL_FAILURE(ExpectQuadTangents(model.meshes[0], 1e-6f, "read"));
  // Vertex 4 differs from vertex 1 only in handedness: welding keeps both.
  EXPECT_EQ(model.meshes[0].tangents[1].w, 1.0f);
  EXPECT_EQ(model.meshes[0].tangents[4].w, -1.0f);
  EXPECT_TRUE(model.warnings.empty()) << model.warnings[0];
}

TEST(Tangents, QuantizedTangentsAreReadNormalised) {
  TangentOptions options;
  options.quantized = true;
  const Model model = Load(TangentQuad(options), "tangents_quantized.gltf");
  ASSERT_EQ(model.meshes.size(), 1u);
  // Bytes hold 2 as 1 (clamped) and 0.6/0.8 to 1/127: unit after reading, within that step.
  ASSERT_NO_FATAL_FAILURE(ExpectQuadTangents(model.meshes[0], 1e-2f, "quantized"));
  for (const glm::vec4& t : model.meshes[0].tangents) {
    EXPECT_NEAR(glm::length(glm::vec3(t)), 1.0f, 1e-6f);
  }
}

// Replaces accessor `accessor`'s bufferView with an EXT_meshopt_compression one (ATTRIBUTES mode)
// whose uncompressed view lies in buffer 1, a fallback buffer that is never read.
void CompressWithMeshopt(testgltf::Builder* b, size_t accessor, size_t stride) {
  const size_t view = b->doc["accessors"][accessor]["bufferView"].get<size_t>();
  const size_t count = b->doc["accessors"][accessor]["count"].get<size_t>();
  const size_t offset = b->doc["bufferViews"][view]["byteOffset"].get<size_t>();
  std::vector<uint8_t> packed(meshopt_encodeVertexBufferBound(count, stride));
  packed.resize(
      meshopt_encodeVertexBuffer(packed.data(), packed.size(), &b->data[offset], count, stride));
  while (b->data.size() % 4) b->data.push_back(0);
  const size_t packed_offset = b->data.size();
  b->data.insert(b->data.end(), packed.begin(), packed.end());
  json& v = b->doc["bufferViews"][view];
  v = {{"buffer", 1}, {"byteOffset", 0}, {"byteLength", count * stride}, {"byteStride", stride}};
  v["extensions"]["EXT_meshopt_compression"] = {{"buffer", 0},
                                                {"byteOffset", packed_offset},
                                                {"byteLength", packed.size()},
                                                {"byteStride", stride},
                                                {"count", count},
                                                {"mode", "ATTRIBUTES"}};
}

TEST(Tangents, MeshoptCompressedTangentsAndDeltasDecode) {
  testgltf::Builder b = TangentQuad();
  const json& primitive = b.doc["meshes"][0]["primitives"][0];
  const size_t tangents = primitive["attributes"]["TANGENT"].get<size_t>();
  const size_t deltas = primitive["targets"][0]["TANGENT"].get<size_t>();
  CompressWithMeshopt(&b, tangents, 16);
  CompressWithMeshopt(&b, deltas, 12);
  json doc = b.Finished();
  doc["buffers"].push_back(
      {{"byteLength", 1024}, {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}});
  doc["extensionsUsed"] = {"EXT_meshopt_compression"};
  doc["extensionsRequired"] = {"EXT_meshopt_compression"};
  const std::string path = testpaths::TempDir() + "/tangents_meshopt.gltf";
  std::ofstream(path) << doc.dump();
  const LoadResult loaded = LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  ASSERT_EQ(loaded.model->meshes.size(), 1u);
  ASSERT_NO_FATAL_FAILURE(ExpectQuadTangents(loaded.model->meshes[0], 1e-6f, "meshopt"));
  EXPECT_TRUE(loaded.model->warnings.empty()) << loaded.model->warnings[0];
}

TEST(Tangents, TangentsWithoutNormalsAreIgnoredAsGltfSpecifies) {
  TangentOptions options;
  options.normals = false;
  const Model model = Load(TangentQuad(options), "tangents_no_normals.gltf");
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_TRUE(model.meshes[0].tangents.empty());
  ASSERT_EQ(model.meshes[0].targets.size(), 2u);
  EXPECT_TRUE(model.meshes[0].targets[0].tangents.empty());
  // Without its handedness vertex 4 is vertex 1 again: welded.
  EXPECT_EQ(model.meshes[0].positions.size(), 4u);
  EXPECT_EQ(model.meshes[0].targets[0].positions.size(), 4u);
}

TEST(Tangents, BadTangentsAreDroppedWithAWarningAndTheRestLoads) {
  TangentOptions short_array, not_a_number, zero;
  short_array.tangent_count = 4;
  not_a_number.first_tangent_x = kNaN;
  zero.first_tangent_x = 0.0f;
  for (const auto& [name, options] : {std::pair<std::string, TangentOptions>{"count", short_array},
                                      {"nan", not_a_number},
                                      {"zero", zero}}) {
    const Model model = Load(TangentQuad(options), "tangents_bad_" + name + ".gltf");
    ASSERT_EQ(model.meshes.size(), 1u) << name;
    const Mesh& mesh = model.meshes[0];
    EXPECT_TRUE(mesh.tangents.empty()) << name;
    EXPECT_TRUE(HasWarning(model, "'quad'", "tangents")) << name;
    // Everything else is there: vertices (4 welded into 1 without its handedness), uvs,
    // triangles, both targets' positions; the targets' tangent deltas go with the tangents they
    // would move.
    EXPECT_EQ(mesh.positions.size(), 4u) << name;
    EXPECT_EQ(mesh.uvs.size(), mesh.positions.size()) << name;
    EXPECT_EQ(mesh.indices.size(), 9u) << name;
    ASSERT_EQ(mesh.targets.size(), 2u) << name;
    for (const MorphTarget& t : mesh.targets) {
      EXPECT_EQ(t.positions.size(), mesh.positions.size()) << name;
      EXPECT_TRUE(t.tangents.empty()) << name;
    }
  }
}

TEST(Tangents, BadTargetTangentDeltasDropOnlyThoseDeltas) {
  TangentOptions short_array, not_a_number;
  short_array.target_tangent_count = 4;
  not_a_number.target_tangent_y = kNaN;
  for (const TangentOptions& options : {short_array, not_a_number}) {
    const Model model = Load(TangentQuad(options), "tangents_bad_target.gltf");
    ASSERT_EQ(model.meshes.size(), 1u);
    const Mesh& mesh = model.meshes[0];
    EXPECT_EQ(mesh.tangents.size(), 5u);
    ASSERT_EQ(mesh.targets.size(), 2u);
    EXPECT_EQ(mesh.targets[0].name, "Smile");
    EXPECT_EQ(mesh.targets[0].positions.size(), 5u);  // Smile still moves the vertices
    EXPECT_TRUE(mesh.targets[0].tangents.empty());
    EXPECT_EQ(mesh.targets[1].tangents.size(), 5u);  // Blink keeps its own
    EXPECT_TRUE(HasWarning(model, "'quad'", "tangent deltas"));
  }
}

TEST(Tangents, ExportRoundTripsTangentsAndTargetTangentDeltas) {
  const Model model = Load(TangentQuad(), "tangents_export_source.gltf");
  for (const char* extension : {".glb", ".gltf"}) {
    const std::string out = testpaths::TempDir() + "/tangents_export" + extension;
    std::string error;
    ASSERT_TRUE(ExportGltf(model, out, &error)) << error;
    LoadResult loaded = LoadModel(out);
    ASSERT_TRUE(loaded.model) << loaded.error;
    ASSERT_EQ(loaded.model->meshes.size(), 1u);
    EXPECT_TRUE(loaded.model->warnings.empty()) << loaded.model->warnings[0];
    ExpectQuadTangents(loaded.model->meshes[0], 1e-6f, extension);
  }
}

TEST(Tangents, MeshesWithoutTangentsExportNone) {
  Model model = Load(TangentQuad(), "tangents_export_none_source.gltf");
  model.meshes[0].tangents.clear();
  for (MorphTarget& t : model.meshes[0].targets) t.tangents.clear();
  const std::string out = testpaths::TempDir() + "/tangents_export_none.gltf";
  std::string error;
  ASSERT_TRUE(ExportGltf(model, out, &error)) << error;
  std::ifstream file(out);
  const json doc = json::parse(file);
  const json& primitive = doc["meshes"][0]["primitives"][0];
  EXPECT_FALSE(primitive["attributes"].contains("TANGENT"));
  ASSERT_EQ(primitive["targets"].size(), 2u);
  for (const json& target : primitive["targets"]) EXPECT_FALSE(target.contains("TANGENT"));
}

TEST(Tangents, ModelCacheKeepsTangentsAndTargetTangentDeltas) {
  const Model model = Load(TangentQuad(), "tangents_cache.gltf");
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_EQ(model.meshes[0].tangents.size(), 5u);
  const std::string bytes = SerializeModel(model);
  Model back;
  std::string error;
  ASSERT_TRUE(DeserializeModel(bytes, &back, &error)) << error;
  ASSERT_EQ(back.meshes.size(), 1u);
  EXPECT_EQ(back.meshes[0].tangents, model.meshes[0].tangents);
  ASSERT_EQ(back.meshes[0].targets.size(), 2u);
  EXPECT_EQ(back.meshes[0].targets[0].tangents, model.meshes[0].targets[0].tangents);
  EXPECT_EQ(back.meshes[0].targets[1].tangents, model.meshes[0].targets[1].tangents);
  // A tangent whose handedness is not ±1 is corrupted data.
  Model bad = model;
  bad.meshes[0].tangents[2].w = 0.5f;
  EXPECT_FALSE(DeserializeModel(SerializeModel(bad), &back, &error));
  EXPECT_NE(error.find("tangent"), std::string::npos) << error;
}

Mesh WeldMesh() {
  Mesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 0, 0}};
  mesh.indices = {0, 1, 2, 0, 3, 2, 0, 4, 2};
  mesh.normals.assign(5, glm::vec3(0, 0, 1));
  mesh.joints.assign(5, glm::u16vec4(0));
  mesh.weights.assign(5, glm::vec4(1, 0, 0, 0));
  mesh.bone_joints = {0};
  mesh.bone_inverse_binds = {glm::mat4(1.0f)};
  // Vertex 3 repeats vertex 1 exactly; vertex 4 repeats it with the other handedness.
  mesh.tangents = {{1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, -1}};
  MorphTarget target;
  target.positions.assign(5, glm::vec3(0.0f));
  target.tangents = {{0, 0, 0}, {0, 1, 0}, {0, 0, 0}, {0, 1, 0}, {0, 1, 0}};
  mesh.targets = {target};
  mesh.target_weights = {0.0f};
  return mesh;
}

TEST(Tangents, WeldingKeepsOtherHandednessAndCarriesTangents) {
  Mesh mesh = WeldMesh();
  WeldIdenticalVertices(&mesh);
  ASSERT_EQ(mesh.positions.size(), 4u);  // 3 merged into 1; 4 kept
  ASSERT_EQ(mesh.tangents.size(), 4u);
  ASSERT_EQ(mesh.targets[0].tangents.size(), 4u);
  EXPECT_EQ(mesh.indices[4], 1u);
  const uint32_t mirrored = mesh.indices[7];
  EXPECT_EQ(mirrored, 3u);
  EXPECT_EQ(mesh.tangents[mirrored].w, -1.0f);
  EXPECT_EQ(mesh.targets[0].tangents[mirrored], glm::vec3(0, 1, 0));
  EXPECT_EQ(mesh.tangents[1].w, 1.0f);
}

TEST(Tangents, WeldingKeepsVerticesWhoseTangentDeltasDiffer) {
  Mesh mesh = WeldMesh();
  mesh.targets[0].tangents[3] = glm::vec3(0, 3, 0);
  WeldIdenticalVertices(&mesh);
  ASSERT_EQ(mesh.positions.size(), 5u);
  EXPECT_EQ(mesh.targets[0].tangents[3], glm::vec3(0, 3, 0));
}

TEST(Tangents, BlendAddsWeightedDeltasRenormalisesAndKeepsHandedness) {
  const Model model = Load(TangentQuad(), "tangents_blend.gltf");
  const Mesh& mesh = model.meshes[0];
  std::vector<glm::vec4> blended;
  ASSERT_TRUE(BlendMorphTangents(mesh, {0.5f, 0.25f}, &blended));
  ASSERT_EQ(blended.size(), 5u);
  for (size_t v = 0; v < 5; ++v) {
    const glm::vec3 sum =
        glm::vec3(mesh.tangents[v]) + 0.5f * glm::vec3(0, 0.5f, 0) + 0.25f * kBlinkTangents[v];
    ExpectNear(blended[v], glm::vec4(glm::normalize(sum), mesh.tangents[v].w), 1e-6f,
               "vertex " + std::to_string(v));
  }
  // Nothing to blend: no weight, or no tangents.
  EXPECT_FALSE(BlendMorphTangents(mesh, {0.0f, 0.0f}, &blended));
  Mesh without = mesh;
  without.tangents.clear();
  EXPECT_FALSE(BlendMorphTangents(without, {0.5f, 0.25f}, &blended));
}

}  // namespace
}  // namespace assets
