// --morph MESH:TARGET=W on the command line and morph targets in `info`: a small glTF triangle
// with two named targets and default weights, run through the built binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/assets/gltf_reference.h"
#include "tests/run_process.h"
#include "tests/support/bad_input.h"
#include "tests/test_paths.h"

namespace {

using nlohmann::json;
using testing::HasSubstr;

using gltfref::Base64;

// A triangle (mesh "face") whose target "Up" lifts every vertex by 1 along y and "Out" pushes
// vertex 0 by 1 along z; default weights 0.72 and 0.28. With `clip`, a 1 s clip "Blend" takes the
// weights linearly from (0, 0) to (1, 0.5).
std::string MorphTriangle(bool clip = false) {
  const std::vector<float> floats = {0, 0, 0, 1,   0, 0, 0, 1, 0,  // positions
                                     0, 1, 0, 0,   1, 0, 0, 1, 0,  // Up
                                     0, 0, 1, 0,   0, 0, 0, 0, 0,  // Out
                                     0, 1,                         // key times
                                     0, 0, 1, 0.5f};               // key weights
  std::vector<uint8_t> bytes(floats.size() * 4);
  std::memcpy(bytes.data(), floats.data(), bytes.size());
  json doc = {{"asset", {{"version", "2.0"}}},
              {"scene", 0},
              {"scenes", {{{"nodes", {0}}}}},
              {"nodes", {{{"name", "face_node"}, {"mesh", 0}}}},
              {"meshes",
               {{{"name", "face"},
                 {"weights", {0.72, 0.28}},
                 {"extras", {{"targetNames", {"Up", "Out"}}}},
                 {"primitives",
                  {{{"attributes", {{"POSITION", 0}}},
                    {"targets", {{{"POSITION", 1}}, {{"POSITION", 2}}}}}}}}}},
              {"buffers",
               {{{"byteLength", bytes.size()},
                 {"uri", "data:application/octet-stream;base64," + Base64(bytes)}}}},
              {"bufferViews", {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", bytes.size()}}}},
              {"accessors", json::array()}};
  for (int a = 0; a < 3; ++a) {
    json accessor = {{"bufferView", 0},
                     {"byteOffset", a * 36},
                     {"componentType", 5126},
                     {"type", "VEC3"},
                     {"count", 3}};
    if (a == 0) {
      accessor["min"] = {0, 0, 0};
      accessor["max"] = {1, 1, 0};
    }
    doc["accessors"].push_back(accessor);
  }
  if (clip) {
    doc["accessors"].push_back({{"bufferView", 0},
                                {"byteOffset", 108},
                                {"componentType", 5126},
                                {"type", "SCALAR"},
                                {"count", 2},
                                {"min", {0}},
                                {"max", {1}}});
    doc["accessors"].push_back({{"bufferView", 0},
                                {"byteOffset", 116},
                                {"componentType", 5126},
                                {"type", "SCALAR"},
                                {"count", 4}});
    doc["animations"] = {
        {{"name", "Blend"},
         {"samplers", {{{"input", 3}, {"output", 4}, {"interpolation", "LINEAR"}}}},
         {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}}}}}};
  }
  const std::string path =
      testpaths::TempDir() + (clip ? "/morph_triangle_clip.gltf" : "/morph_triangle.gltf");
  std::ofstream(path) << doc.dump();
  return path;
}

json RunJson(const std::vector<std::string>& args) {
  const testproc::Result r = testproc::Skelview(args, 60.0);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.err;
  return json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

using testsupport::ExpectBadInput;

// Vertex `v` of mesh 0 from `pose --vertices`.
std::vector<double> Vertex(const json& doc, size_t v) {
  return doc["meshes"][0]["positions"][v].get<std::vector<double>>();
}

TEST(CliMorph, InfoListsTargetsWithNamesAndDefaultWeights) {
  const std::string path = MorphTriangle();
  const json info = RunJson({"info", "--json", path});
  const json& targets = info["meshes"][0]["morph_targets"];
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(targets[0]["name"], "Up");
  EXPECT_NEAR(targets[0]["default_weight"].get<double>(), 0.72, 1e-6);
  EXPECT_EQ(targets[1]["name"], "Out");
  EXPECT_NEAR(targets[1]["default_weight"].get<double>(), 0.28, 1e-6);
  // Printed as the float's shortest decimal, not widened to 0.7200000286102295.
  const testproc::Result raw = testproc::Skelview({"info", "--json", path}, 60.0);
  EXPECT_THAT(raw.out, HasSubstr("\"default_weight\": 0.72\n"));
  EXPECT_THAT(raw.out, HasSubstr("\"default_weight\": 0.28\n"));
  const testproc::Result text = testproc::Skelview({"info", path}, 60.0);
  EXPECT_THAT(text.out, HasSubstr("morph targets: 2 on 1 mesh"));
  EXPECT_THAT(text.out, HasSubstr(" Up 0.72, Out 0.28\n"));
}

TEST(CliMorph, DefaultWeightsMoveTheRestPoseOnBothSkinningPaths) {
  const std::string path = MorphTriangle();
  for (const char* skinning : {"cpu", "gpu"}) {
    const json doc = RunJson({"pose", path, "--vertices", "--skinning", skinning});
    const std::vector<double> v0 = Vertex(doc, 0);
    EXPECT_NEAR(v0[1], 0.72, 1e-6) << skinning;
    EXPECT_NEAR(v0[2], 0.28, 1e-6) << skinning;
  }
}

TEST(CliMorph, MorphOverridesTargetsByNameOrIndex) {
  const std::string path = MorphTriangle();
  const json doc =
      RunJson({"pose", path, "--vertices", "--morph", "face:Up=0", "--morph", "0:1=2"});
  const std::vector<double> v0 = Vertex(doc, 0), v1 = Vertex(doc, 1);
  EXPECT_NEAR(v0[1], 0.0, 1e-6);
  EXPECT_NEAR(v0[2], 2.0, 1e-6);
  EXPECT_NEAR(v1[1], 0.0, 1e-6);
}

TEST(CliMorph, ExportWritesTheMorphedWeightsAsDefaults) {
  const std::string path = MorphTriangle();
  const std::string out = testpaths::TempDir() + "/morph_export.glb";
  const testproc::Result r =
      testproc::Skelview({"export", path, "-o", out, "--morph", "face:Up=0.5"}, 60.0);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.err;
  const json info = RunJson({"info", "--json", out});
  const json& targets = info["meshes"][0]["morph_targets"];
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(targets[0]["name"], "Up");
  EXPECT_NEAR(targets[0]["default_weight"].get<double>(), 0.5, 1e-6);
  EXPECT_NEAR(targets[1]["default_weight"].get<double>(), 0.28, 1e-6);
}

// A pose export is the pose: the clip's blend-shape weights at --time (and --morph over them)
// become the file's defaults, and the file has no clips, so it opens showing what was exported.
TEST(CliMorph, PoseExportKeepsTheClipsWeightsAtThatTimeAndNoClips) {
  const std::string path = MorphTriangle(/*clip=*/true);
  const std::string out = testpaths::TempDir() + "/morph_pose_export.glb";
  const std::vector<std::string> posed = {"--anim", "0", "--time", "0.5", "--morph", "face:Out=2"};
  std::vector<std::string> args = {"export", path, "-o", out};
  args.insert(args.end(), posed.begin(), posed.end());
  const testproc::Result r = testproc::Skelview(args, 60.0);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.err;
  const json info = RunJson({"info", "--json", out});
  EXPECT_EQ(info["counts"]["clips"], 0);
  const json& targets = info["meshes"][0]["morph_targets"];
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_NEAR(targets[0]["default_weight"].get<double>(), 0.5, 1e-6);
  EXPECT_NEAR(targets[1]["default_weight"].get<double>(), 2.0, 1e-6);
  std::vector<std::string> shown = {"pose", path, "--vertices"};
  shown.insert(shown.end(), posed.begin(), posed.end());
  const json expected = RunJson(shown);
  const json opened = RunJson({"pose", out, "--vertices"});  // what the file opens on
  for (size_t v = 0; v < 3; ++v) {
    const std::vector<double> a = Vertex(expected, v), b = Vertex(opened, v);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(a[k], b[k], 1e-6) << "vertex " << v;
  }
  EXPECT_NEAR(Vertex(opened, 0)[1], 0.5, 1e-6);
}

// Blender (Debian's `blender`, run headless) when it is on the PATH, else "".
std::string FindBlender() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (size_t start = 0; start <= dirs.size();) {
    const size_t colon = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, colon - start) + "/blender";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = colon + 1;
  }
  return "";
}

// Largest extent of mesh 0's posed vertices over the three axes.
double Extent(const json& doc) {
  double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
  for (const json& p : doc["meshes"][0]["positions"]) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], p[a].get<double>());
      hi[a] = std::max(hi[a], p[a].get<double>());
    }
  }
  return std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
}

TEST(CliMorph, FbxShapeKeysFromBlenderLoadAsTargets) {
  const std::string blender = FindBlender();
  if (blender.empty())
    GTEST_SKIP() << "blender is not installed; cannot make an FBX with shape keys";
  const std::string script = testpaths::TempDir() + "/shape_keys.py";
  const std::string fbx = testpaths::TempDir() + "/shape_keys.fbx";
  // A unit cube with a shape key "Tall" that triples its height, exported by Blender's FBX add-on
  // (which needs numpy.bool with Debian's NumPy 1.24).
  std::ofstream(script) << "import numpy\n"
                           "if not hasattr(numpy, 'bool'): numpy.bool = bool\n"
                           "import bpy, sys\n"
                           "bpy.ops.wm.read_factory_settings(use_empty=True)\n"
                           "bpy.ops.mesh.primitive_cube_add(size=1)\n"
                           "ob = bpy.context.active_object\n"
                           "ob.shape_key_add(name='Basis')\n"
                           "k = ob.shape_key_add(name='Tall')\n"
                           "for v in k.data: v.co.z *= 3.0\n"
                           "k.value = 0.4\n"
                           "bpy.ops.export_scene.fbx(filepath=sys.argv[-1], bake_anim=False)\n";
  const testproc::Result made =
      testproc::Run({blender, "-b", "--factory-startup", "--python", script, "--", fbx}, 300.0);
  ASSERT_TRUE(made.exited && made.exit_code == 0) << made.err;
  const json info = RunJson({"info", "--json", fbx});
  const json& targets = info["meshes"][0]["morph_targets"];
  ASSERT_EQ(targets.size(), 1u);
  EXPECT_EQ(targets[0]["name"], "Tall");
  const double rest = Extent(RunJson({"pose", fbx, "--vertices"}));
  const std::string mesh = info["meshes"][0]["name"];
  const double tall = Extent(RunJson({"pose", fbx, "--vertices", "--morph", mesh + ":Tall=1"}));
  EXPECT_NEAR(tall / rest, 3.0, 1e-4);
}

TEST(CliMorph, BadMeshOrTargetIsBadInputNamingTheArgument) {
  const std::string path = MorphTriangle();
  ExpectBadInput({"pose", path, "--morph", "nose:Up=1"},
                 "--morph 'nose:Up=1': the model has no mesh");
  ExpectBadInput({"pose", path, "--morph", "face:Smile=1"},
                 "mesh 'face' has no morph target 'Smile' (it has Up, Out)");
  ExpectBadInput({"pose", path, "--morph", "face:Up=x"}, "expected MESH:TARGET=W");
  ExpectBadInput({"render", path, "-o", testpaths::TempDir() + "/m.png", "--morph", "face:7=1"},
                 "has no morph target '7'");
}

}  // namespace
