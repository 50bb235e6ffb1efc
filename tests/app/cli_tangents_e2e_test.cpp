// Tangents through the built binary: `info --json` says which meshes have them, and `export`
// writes TANGENT and the targets' TANGENT deltas into a file the Khronos glTF Validator accepts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/assets/gltf_reference.h"
#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

using nlohmann::json;

using gltfref::Base64;

// Two triangles on nodes of their own: "plain" without tangents, "lit" with NORMAL, TANGENT (one
// left-handed) and a target "Bend" that moves vertex 2 and tilts its tangent.
std::string TangentFile() {
  const std::vector<float> floats = {0, 0, 0, 1, 0, 0, 0,     1, 0,               // 0: positions
                                     0, 0, 1, 0, 0, 1, 0,     0, 1,               // 1: normals
                                     1, 0, 0, 1, 1, 0, 0,     1, 0,    1, 0, -1,  // 2: tangents
                                     0, 0, 0, 0, 0, 0, 0,     0, 0.5f,  // 3: Bend positions
                                     0, 0, 0, 0, 0, 0, 0.25f, 0, 0};    // 4: Bend tangents
  std::vector<uint8_t> bytes(floats.size() * 4);
  std::memcpy(bytes.data(), floats.data(), bytes.size());
  json accessors = json::array();
  const int offsets[] = {0, 36, 72, 120, 156};
  const char* types[] = {"VEC3", "VEC3", "VEC4", "VEC3", "VEC3"};
  for (int a = 0; a < 5; ++a) {
    accessors.push_back({{"bufferView", 0},
                         {"byteOffset", offsets[a]},
                         {"componentType", 5126},
                         {"type", types[a]},
                         {"count", 3}});
  }
  accessors[0]["min"] = {0, 0, 0};
  accessors[0]["max"] = {1, 1, 0};
  accessors[3]["min"] = {0, 0, 0};
  accessors[3]["max"] = {0, 0, 0.5f};
  const json doc = {
      {"asset", {{"version", "2.0"}}},
      {"scene", 0},
      {"scenes", {{{"nodes", {0, 1}}}}},
      {"nodes", {{{"name", "plain_node"}, {"mesh", 0}}, {{"name", "lit_node"}, {"mesh", 1}}}},
      {"meshes",
       {{{"name", "plain"}, {"primitives", {{{"attributes", {{"POSITION", 0}, {"NORMAL", 1}}}}}}},
        {{"name", "lit"},
         {"weights", {0.5}},
         {"extras", {{"targetNames", {"Bend"}}}},
         {"primitives",
          {{{"attributes", {{"POSITION", 0}, {"NORMAL", 1}, {"TANGENT", 2}}},
            {"targets", {{{"POSITION", 3}, {"TANGENT", 4}}}}}}}}}},
      {"buffers",
       {{{"byteLength", bytes.size()},
         {"uri", "data:application/octet-stream;base64," + Base64(bytes)}}}},
      {"bufferViews", {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", bytes.size()}}}},
      {"accessors", accessors}};
  const std::string path = testpaths::TempDir() + "/tangent_triangles.gltf";
  std::ofstream(path) << doc.dump();
  return path;
}

json RunJson(const std::vector<std::string>& args) {
  const testproc::Result r = testproc::Skelview(args, 60.0);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.err;
  return json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

// The npm gltf-validator package as tests/reference/validate_exports.py finds it, or "".
std::string ValidatorPackage() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string base = cache && *cache ? cache : std::string(home ? home : "") + "/.cache";
  const std::string path = base + "/skelview/npm/node_modules/gltf-validator";
  return std::ifstream(path + "/package.json").good() ? path : "";
}

TEST(CliTangents, InfoSaysWhichMeshesHaveTangents) {
  const json info = RunJson({"info", "--json", TangentFile()});
  ASSERT_EQ(info["meshes"].size(), 2u);
  EXPECT_EQ(info["meshes"][0]["name"], "plain");
  EXPECT_EQ(info["meshes"][0]["tangents"], false);
  EXPECT_EQ(info["meshes"][1]["name"], "lit");
  EXPECT_EQ(info["meshes"][1]["tangents"], true);
}

TEST(CliTangents, ExportWritesTangentsTheValidatorAccepts) {
  const std::string out = testpaths::TempDir() + "/tangent_export.glb";
  const testproc::Result r =
      testproc::Skelview({"export", TangentFile(), "-o", out, "--allow-outside-files"}, 60.0);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.err;
  // Read back: the tangents are there again.
  const json info = RunJson({"info", "--json", out});
  ASSERT_EQ(info["meshes"].size(), 2u);
  EXPECT_EQ(info["meshes"][0]["tangents"], false);
  EXPECT_EQ(info["meshes"][1]["tangents"], true);
  const std::string validator = ValidatorPackage();
  if (validator.empty() || std::system("command -v node > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "node or the gltf-validator package is missing (scripts/install-deps.sh "
                    "installs both); the written file was not validated";
  }
  const testproc::Result check = testproc::Run(
      {"/usr/bin/env", "node", testpaths::SourceDir() + "/tests/reference/validate_gltf.js", out},
      120.0, {"GLTF_VALIDATOR=" + validator});
  ASSERT_TRUE(check.exited && check.exit_code == 0) << check.err;
  const json report = json::parse(check.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(report.is_object()) << check.out;
  EXPECT_EQ(report["errors"], 0) << report.dump(1);
  EXPECT_EQ(report["warnings"], 0) << report.dump(1);
}

}  // namespace
