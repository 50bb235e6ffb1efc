// The malformed-file set: truncations at many cut points, fixed-seed bit flips of a small
// exported .glb and .gltf, and files claiming huge counts. Each must come back with one clear
// line naming the file (or, for harmless flips, a valid Model), without crashing, without a
// sanitizer report and without allocating what the counts claim. Regression inputs found by the
// fuzzers live in tests/data/import/ and are loaded here too.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include "assets/export/exporter.h"
#include "assets/files/model_io.h"
#include "assets/importer.h"
#include "ik/core/kinematics.h"
#include "tests/assets/gltf_builder.h"
#include "tests/assets/small_models.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

std::string Temp(const std::string& name) { return testpaths::TempDir() + "/" + name; }

std::vector<uint8_t> ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

// The small character exported by our exporter: a real skinned, animated .glb of a few KiB.
const std::vector<uint8_t>& SmallGlb() {
  static const std::vector<uint8_t> bytes = [] {
    const std::string path = Temp("small_character.glb");
    std::string error;
    EXPECT_TRUE(ExportGltf(testmodels::SmallCharacter(), path, &error)) << error;
    return ReadAll(path);
  }();
  return bytes;
}

// The same as one self-contained .gltf (its buffer embedded as a data URI).
const std::string& SmallGltf() {
  static const std::string text = [] {
    const std::string path = Temp("small_character_text.gltf");
    std::string error;
    EXPECT_TRUE(ExportGltf(testmodels::SmallCharacter(), path, &error)) << error;
    json doc = json::parse(ReadAll(path));
    for (json& buffer : doc["buffers"]) {
      if (buffer["uri"].get<std::string>().rfind("data:", 0) == 0) continue;
      const std::string bin = Temp(buffer["uri"].get<std::string>());
      buffer["uri"] = "data:application/octet-stream;base64," + gltfref::Base64(ReadAll(bin));
    }
    return doc.dump();
  }();
  return text;
}

// What every successfully loaded model must satisfy, whatever the file was.
void ExpectUsable(const Model& model) {
  const int joints = model.skeleton.joint_count();
  ASSERT_EQ(model.is_bone.size(), static_cast<size_t>(joints));
  for (const Mesh& mesh : model.meshes) {
    const size_t n = mesh.positions.size();
    ASSERT_EQ(mesh.normals.size(), n);
    ASSERT_EQ(mesh.weights.size(), n);
    for (uint32_t i : mesh.indices) ASSERT_LT(i, n);
    for (int j : mesh.bone_joints) ASSERT_TRUE(j >= 0 && j < joints);
    for (size_t v = 0; v < n; ++v) {
      ASSERT_TRUE(std::isfinite(mesh.positions[v].x + mesh.positions[v].y + mesh.positions[v].z));
      const glm::vec4& w = mesh.weights[v];
      ASSERT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-3f);
      for (int k = 0; k < 4; ++k) {
        if (w[k] > 0.0f) {
          ASSERT_LT(mesh.joints[v][k], mesh.bone_joints.size());
        }
      }
    }
  }
  for (const Clip& clip : model.clips) {
    ik::Pose pose;
    SampleClip(model.skeleton, clip, 0.5f * clip.duration, &pose);
    for (const ik::Transform& t : pose.locals) ASSERT_TRUE(t.IsFinite());
  }
  // The viewer moves a model through the serialiser; a loaded model must pass its checks.
  Model back;
  std::string error;
  ASSERT_TRUE(DeserializeModel(SerializeModel(model), &back, &error)) << error;
}

// Loads `path`: a refusal must be one line naming the file; a success a usable model.
void ExpectCleanResult(const std::string& path, bool must_fail, const std::string& reason = "") {
  const LoadResult r = LoadModel(path);
  if (r.ok()) {
    EXPECT_FALSE(must_fail) << path << " loaded";
    ExpectUsable(*r.model);
    return;
  }
  EXPECT_THAT(r.error, HasSubstr(path));
  EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
  if (!reason.empty()) {
    EXPECT_THAT(r.error, HasSubstr(reason));
  }
}

TEST(MalformedFiles, SmallExportsLoadIntact) {
  const std::string glb = Temp("intact.glb"), gltf = Temp("intact.gltf");
  testgltf::WriteBytes(glb, SmallGlb());
  std::ofstream(gltf) << SmallGltf();
  for (const std::string& path : {glb, gltf}) {
    const LoadResult r = LoadModel(path);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.model->skeleton.joint_count(), 22);
    EXPECT_EQ(r.model->clips.size(), 1u);
  }
}

TEST(MalformedFiles, TruncatedGlbAtEveryStructuralBoundaryAndFractionIsRefused) {
  const std::vector<uint8_t>& glb = SmallGlb();
  uint32_t json_length = 0;
  std::memcpy(&json_length, glb.data() + 12, 4);
  std::vector<size_t> cuts = {1,
                              4,
                              8,
                              11,
                              12,
                              16,
                              19,
                              20,
                              21,
                              20 + json_length - 1,
                              20 + json_length,
                              20 + json_length + 4,
                              20 + json_length + 8};
  for (int percent = 5; percent < 100; percent += 5) cuts.push_back(glb.size() * percent / 100);
  cuts.push_back(glb.size() - 1);
  for (size_t cut : cuts) {
    SCOPED_TRACE(cut);
    const std::string path = Temp("cut_" + std::to_string(cut) + ".glb");
    testgltf::WriteBytes(path, std::vector<uint8_t>(glb.begin(), glb.begin() + cut));
    ExpectCleanResult(path, /*must_fail=*/true);
  }
}

TEST(MalformedFiles, TruncatedGltfTextAndTruncatedBinFileAreRefused) {
  const std::string& text = SmallGltf();
  for (int percent = 5; percent < 100; percent += 5) {
    const std::string path = Temp("cut_" + std::to_string(percent) + ".gltf");
    std::ofstream(path) << text.substr(0, text.size() * percent / 100);
    ExpectCleanResult(path, /*must_fail=*/true);
  }
  // A .gltf whose external .bin lost its tail.
  const std::string path = Temp("external_bin.gltf");
  std::string error;
  ASSERT_TRUE(ExportGltf(testmodels::SmallCharacter(), path, &error)) << error;
  const json doc = json::parse(ReadAll(path));
  const std::string bin = Temp(doc["buffers"][0]["uri"].get<std::string>());
  std::vector<uint8_t> bytes = ReadAll(bin);
  bytes.resize(bytes.size() / 2);
  testgltf::WriteBytes(bin, bytes);
  ExpectCleanResult(path, /*must_fail=*/true, "truncated");
}

// Flips 1 to 8 random bits of the file, 200 times with a fixed seed.
void FlipBitsAndLoad(const std::vector<uint8_t>& original, const std::string& extension,
                     uint32_t seed) {
  std::mt19937 random(seed);
  int loaded = 0;
  for (int variant = 0; variant < 200; ++variant) {
    std::vector<uint8_t> bytes = original;
    const int flips = 1 + static_cast<int>(random() % 8);
    for (int f = 0; f < flips; ++f) {
      bytes[random() % bytes.size()] ^= static_cast<uint8_t>(1u << (random() % 8));
    }
    const std::string path = Temp("flipped_" + std::to_string(variant) + extension);
    testgltf::WriteBytes(path, bytes);
    SCOPED_TRACE(path);
    ExpectCleanResult(path, /*must_fail=*/false);
    loaded += LoadModel(path).ok() ? 1 : 0;
  }
  // Flips in vertex data and padding leave a loadable file; flips in structure do not.
  EXPECT_GT(loaded, 10);
  EXPECT_LT(loaded, 200);
}

TEST(MalformedFiles, BitFlippedGlbVariantsFailCleanlyOrLoadValidly) {
  FlipBitsAndLoad(SmallGlb(), ".glb", 1);
}

TEST(MalformedFiles, BitFlippedGltfVariantsFailCleanlyOrLoadValidly) {
  const std::string& text = SmallGltf();
  FlipBitsAndLoad(std::vector<uint8_t>(text.begin(), text.end()), ".gltf", 2);
}

// A skinned strip whose JSON a test then corrupts.
json StripDoc() { return testgltf::SkinnedStrip().Finished(); }

void WriteDoc(const json& doc, const std::string& path) { std::ofstream(path) << doc.dump(); }

TEST(MalformedFiles, AccessorCountOfTwoToThe31IsRefusedBeforeAllocating) {
  json doc = StripDoc();
  doc["accessors"][0]["count"] = int64_t{1} << 31;  // POSITION
  const std::string path = Temp("count_2_31.gltf");
  WriteDoc(doc, path);
  ExpectCleanResult(path, true, "accessor 0");
  // The same count on an accessor without data (zero-filled): refused by the size limit.
  doc["accessors"][0].erase("bufferView");
  WriteDoc(doc, path);
  ExpectCleanResult(path, true, "accessor 0");
}

TEST(MalformedFiles, BufferClaimingAPetabyteIsRefused) {
  json doc = StripDoc();
  doc["buffers"][0]["byteLength"] = int64_t{1000000000000000};
  const std::string path = Temp("petabyte_buffer.gltf");
  WriteDoc(doc, path);
  ExpectCleanResult(path, true, "buffer 0");
  // And in a .glb, whose binary chunk is the buffer.
  const std::vector<uint8_t>& glb = SmallGlb();
  uint32_t json_length = 0;
  std::memcpy(&json_length, glb.data() + 12, 4);
  json glb_doc = json::parse(glb.begin() + 20, glb.begin() + 20 + json_length);
  glb_doc["buffers"][0]["byteLength"] = int64_t{1000000000000000};
  std::string text = glb_doc.dump();
  while (text.size() % 4) text.push_back(' ');
  std::vector<uint8_t> patched(glb.begin(), glb.begin() + 12);
  const uint32_t new_length = static_cast<uint32_t>(text.size());
  patched.insert(patched.end(), reinterpret_cast<const uint8_t*>(&new_length),
                 reinterpret_cast<const uint8_t*>(&new_length) + 4);
  patched.insert(patched.end(), glb.begin() + 16, glb.begin() + 20);
  patched.insert(patched.end(), text.begin(), text.end());
  patched.insert(patched.end(), glb.begin() + 20 + json_length, glb.end());
  const uint32_t total = static_cast<uint32_t>(patched.size());
  std::memcpy(patched.data() + 8, &total, 4);
  const std::string glb_path = Temp("petabyte_buffer.glb");
  testgltf::WriteBytes(glb_path, patched);
  ExpectCleanResult(glb_path, true, "buffer 0");
}

TEST(MalformedFiles, MeshClaimingABillionVerticesIsRefused) {
  json doc = StripDoc();
  // A billion vertices but only the strip's bytes behind them.
  doc["accessors"][0]["count"] = 1000000000;
  const std::string path = Temp("billion_vertices.gltf");
  WriteDoc(doc, path);
  ExpectCleanResult(path, true, "accessor 0 claims 1000000000 elements");
  // Under the per-accessor limit, the bytes behind it decide.
  doc["accessors"][0]["count"] = 40000000;
  WriteDoc(doc, path);
  ExpectCleanResult(path, true, "more than its bufferView holds");
}

TEST(MalformedFiles, OneMeshShownByTooManyNodesIsRefusedByTheVertexLimit) {
  // 60,000 nodes each showing a 1,000-vertex mesh: 60 million vertex instances from 12 KB of
  // vertex data, more than kMaxVertices.
  testgltf::Builder b;
  std::vector<float> positions;
  for (int i = 0; i < 1000; ++i) positions.insert(positions.end(), {float(i), 0.0f, 0.0f});
  const int accessor = b.Positions(positions);
  b.doc["meshes"] = json::array(
      {json{{"primitives", json::array({json{{"attributes", {{"POSITION", accessor}}}}})}}});
  json children = json::array();
  for (int i = 1; i <= 60000; ++i) children.push_back(i);
  b.Node({{"name", "root"}, {"children", children}}, true);
  for (int i = 1; i <= 60000; ++i) b.doc["nodes"].push_back({{"mesh", 0}});
  const std::string path = Temp("instanced_bomb.gltf");
  b.WriteGltf(path);
  ExpectCleanResult(path, true, "vertices in all");
}

TEST(MalformedFiles, SeventyThousandNodesAreRefused) {
  for (bool in_scene : {true, false}) {
    testgltf::Builder b;
    json children = json::array();
    for (int i = 1; i < 70000; ++i) children.push_back(i);
    b.Node({{"name", "root"}, {"children", in_scene ? children : json::array()}}, true);
    for (int i = 1; i < 70000; ++i) b.doc["nodes"].push_back(json::object());
    const std::string path = Temp("seventy_thousand_nodes.gltf");
    b.WriteGltf(path);
    // Outside the scene the nodes are ignored: the root alone is an empty scene.
    ExpectCleanResult(path, true, in_scene ? "65535" : "empty");
  }
}

TEST(MalformedFiles, SkinWithSeventyThousandJointsIsRefused) {
  json doc = StripDoc();
  doc["skins"][0]["joints"] = json::array();
  for (int i = 0; i < 70000; ++i) doc["skins"][0]["joints"].push_back(i % 2);
  const std::string path = Temp("huge_skin.gltf");
  WriteDoc(doc, path);
  ExpectCleanResult(path, true, "65,535 joints");
}

TEST(MalformedFiles, DeeplyNestedJsonIsRefusedBeforeParsing) {
  // Assimp's recursive JSON reader would overflow the stack on this.
  std::string text = R"({"asset":{"version":"2.0"},"extras":)";
  text += std::string(100000, '[') + std::string(100000, ']') + "}";
  const std::string path = Temp("nested.gltf");
  std::ofstream(path) << text;
  ExpectCleanResult(path, true, "nests deeper");
}

TEST(MalformedFiles, DanglingReferencesAreRefused) {
  struct Case {
    const char* name;
    std::function<void(json*)> corrupt;
    const char* reason;
  };
  const Case cases[] = {
      {"mesh index", [](json* d) { (*d)["nodes"][2]["mesh"] = 7; }, "mesh that does not exist"},
      {"skin index", [](json* d) { (*d)["nodes"][2]["skin"] = 3; }, "skin that does not exist"},
      {"joint index", [](json* d) { (*d)["skins"][0]["joints"][1] = 99; }, "not a node"},
      {"no joints", [](json* d) { (*d)["skins"][0]["joints"] = json::array(); }, "no joints"},
      {"attribute",
       [](json* d) { (*d)["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = 40; },
       "invalid accessor"},
      {"bufferView", [](json* d) { (*d)["accessors"][1]["bufferView"] = 40; }, "bufferView"},
      {"buffer", [](json* d) { (*d)["bufferViews"][0]["buffer"] = 4; }, "buffer 4"},
      {"view outside", [](json* d) { (*d)["bufferViews"][0]["byteOffset"] = 1 << 20; },
       "outside its buffer"},
      {"negative count", [](json* d) { (*d)["accessors"][2]["count"] = -5; }, "count"},
      {"sparse count",
       [](json* d) {
         (*d)["accessors"][0]["sparse"] = {
             {"count", 1 << 30},
             {"indices", {{"bufferView", 1}, {"componentType", 5123}}},
             {"values", {{"bufferView", 0}}}};
       },
       "sparse"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    json doc = StripDoc();
    c.corrupt(&doc);
    const std::string path = Temp(std::string("dangling_") + c.name + ".gltf");
    WriteDoc(doc, path);
    ExpectCleanResult(path, true, c.reason);
  }
}

TEST(MalformedFiles, OffFileClaimingHugeCountsIsRefusedBeforeAssimpReadsIt) {
  // Assimp's OFF reader reserves what the header claims (hundreds of gigabytes here).
  const std::string path = Temp("huge_counts.off");
  std::ofstream(path) << "OFF\n353535235358 6 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  ExpectCleanResult(path, true, "claims");
}

// Inputs the fuzzers found (minimised) that crashed or hung *our* code or were stopped by our
// pre-validation: each must now give a clean result. (Inputs that crash inside Assimp itself
// are in tests/data/import/crashes/ and are loaded by the lead's isolated-import tests.)
TEST(MalformedFiles, FuzzerRegressionInputsGiveCleanResults) {
  const std::filesystem::path dir =
      std::filesystem::path(testpaths::SourceDir()) / "tests/data/import/regressions";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no regression inputs";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(entry.path().string());
    ExpectCleanResult(entry.path().string(), /*must_fail=*/false);
    ++count;
  }
  EXPECT_GT(count, 0);
}

}  // namespace
}  // namespace assets
