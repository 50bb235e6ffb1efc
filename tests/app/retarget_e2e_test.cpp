// `skelview retarget` through the built binary: the target written with the clip added (its own
// clips kept, validator-clean), the report's fields, a user's map, and refusals with exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "assets/builtin/builtin_character.h"
#include "assets/export/exporter.h"
#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

using nlohmann::json;

std::string Cesium() {
  return testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf");
}

json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in, nullptr, false);
}

json Info(const std::string& path) {
  const testproc::Result r = testproc::Skelview({"info", "--json", path}, 60.0);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.err;
  return json::parse(r.out, nullptr, false);
}

std::string ValidatorPackage() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string base = cache && *cache ? cache : std::string(home ? home : "") + "/.cache";
  const std::string path = base + "/skelview/npm/node_modules/gltf-validator";
  return std::ifstream(path + "/package.json").good() ? path : "";
}

TEST(RetargetCommand, BuiltinWalkOntoCesiumManWritesTheClipAndTheReport) {
  const std::string cesium = Cesium();
  SKIP_IF_NO_MODEL(cesium, "khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf");
  const std::string dir = testpaths::TempDir();
  const std::string out = dir + "/cesium_walk.glb", report = dir + "/cesium_walk.json";
  const testproc::Result r = testproc::Skelview(
      {"retarget", "builtin", "--onto", cesium, "-o", out, "--report", report}, 120.0);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.err;
  EXPECT_NE(r.out.find("retargeted 'Walk'"), std::string::npos) << r.out;
  const json doc = ReadJson(report);
  ASSERT_TRUE(doc.is_object());
  ASSERT_TRUE(doc["mapping"].is_array());
  EXPECT_GE(doc["mapping"].size(), 18u);
  for (const json& p : doc["mapping"]) {
    EXPECT_TRUE(p["source"].is_string() && p["target"].is_string());
    const std::string by = p["by"].get<std::string>();
    EXPECT_TRUE(by == "name" || by == "humanoid" || by == "structure" || by == "user") << by;
  }
  ASSERT_EQ(doc["feet"].size(), 2u);
  for (const json& f : doc["feet"]) {
    EXPECT_GE(f["height_correlation"].get<double>(), 0.9);
    EXPECT_GE(f["contacts_kept"].get<double>(), 0.9);
    EXPECT_GE(f["planted_agreement"].get<double>(), 0.9);
    EXPECT_TRUE(f["sliding_added_mm"].is_number());
  }
  ASSERT_GE(doc["end_effectors"].size(), 2u);
  for (const json& e : doc["end_effectors"]) {
    EXPECT_TRUE(e["max_error_mm"].is_number() && e["mean_error_mm"].is_number());
  }
  EXPECT_EQ(doc["bone_length_ratios"].size(), 4u);
  EXPECT_TRUE(doc["warnings"].is_array());
  // The target's own clip kept, the walk added.
  const json info = Info(out);
  const json before = Info(cesium);
  ASSERT_TRUE(info["clips"].is_array());
  EXPECT_EQ(info["clips"].size(), before["clips"].size() + 1);
  EXPECT_EQ(info["joints"].size(), before["joints"].size());
  const std::string validator = ValidatorPackage();
  if (validator.empty() || std::system("command -v node > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "node or the gltf-validator package is missing (scripts/install-deps.sh "
                    "installs both); the written file was not validated";
  }
  const testproc::Result check = testproc::Run(
      {"/usr/bin/env", "node", testpaths::SourceDir() + "/tests/reference/validate_gltf.js", out},
      120.0, {"GLTF_VALIDATOR=" + validator});
  ASSERT_TRUE(check.exited && check.exit_code == 0) << check.err;
  const json validation = json::parse(check.out, nullptr, false);
  ASSERT_TRUE(validation.is_object()) << check.out;
  EXPECT_EQ(validation["errors"], 0) << validation.dump(1);
  EXPECT_EQ(validation["warnings"], 0) << validation.dump(1);
}

TEST(RetargetCommand, UserMapOverridesPairs) {
  const std::string dir = testpaths::TempDir();
  const std::string map = dir + "/swap.json", out = dir + "/swapped.glb",
                    report = dir + "/swapped.json";
  {
    std::ofstream m(map);
    m << R"({"LeftUpLeg": "RightUpLeg", "LeftLeg": "RightLeg", "LeftFoot": "RightFoot",
             "RightUpLeg": "LeftUpLeg", "RightLeg": "LeftLeg", "RightFoot": "LeftFoot"})";
  }
  const testproc::Result r = testproc::Skelview(
      {"retarget", "builtin", "--onto", "builtin", "-o", out, "--map", map, "--report", report},
      120.0);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.err;
  const json doc = ReadJson(report);
  int user = 0;
  for (const json& p : doc["mapping"]) {
    if (p["by"] == "user") {
      ++user;
      EXPECT_NE(p["source"], p["target"]);
    }
  }
  EXPECT_EQ(user, 6);
  for (const json& f : doc["feet"]) EXPECT_NE(f["source_leg"], f["target_leg"]);
}

TEST(RetargetCommand, RigWithoutLegsIsRefusedWithExit2NamingTheLegs) {
  const assets::Model base = assets::MakeBuiltinCharacter();
  assets::Model arms = base;
  // The built-in character with its legs cut off at the hips: legs joints become leaves of the
  // hips at the hips' place (no chain), the meshes dropped.
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < base.skeleton.joint_count(); ++j) {
    const std::string& n = base.skeleton.name(j);
    if (n.find("Leg") != std::string::npos || n.find("Foot") != std::string::npos ||
        n.find("Toe") != std::string::npos) {
      break;  // the legs come last in the built-in skeleton
    }
    ik::JointDesc d;
    d.name = n;
    d.parent = base.skeleton.parent(j);
    d.rest = base.skeleton.rest_locals()[size_t(j)];
    joints.push_back(d);
  }
  std::string error;
  arms.skeleton = *ik::Skeleton::Build(joints, &error);
  arms.meshes.clear();
  arms.clips.clear();
  arms.is_bone.assign(joints.size(), true);
  const std::string dir = testpaths::TempDir();
  const std::string file = dir + "/nolegs.glb", out = dir + "/never.glb";
  ASSERT_TRUE(assets::ExportGltf(arms, file, &error)) << error;
  const testproc::Result r =
      testproc::Skelview({"retarget", "builtin", "--onto", file, "-o", out}, 60.0);
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("legs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nolegs.glb"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(RetargetCommand, BadArgumentsExit2NamingThem) {
  const std::string dir = testpaths::TempDir();
  const std::string out = dir + "/bad.glb";
  struct Case {
    std::vector<std::string> args;
    std::string named;
  };
  const std::string bad_map = dir + "/bad_map.json";
  {
    std::ofstream m(bad_map);
    m << R"({"LeftFoot": "NoSuchJoint"})";
  }
  const std::vector<Case> cases = {
      {{"retarget", "builtin", "--onto", "builtin", "-o", out, "--anim", "9"}, "--anim"},
      {{"retarget", "builtin", "--onto", "builtin", "-o", dir + "/x.png"}, "-o"},
      {{"retarget", "builtin", "--onto", "builtin", "-o", out, "--map", dir + "/none.json"},
       "--map"},
      {{"retarget", "builtin", "--onto", "builtin", "-o", out, "--map", bad_map}, "NoSuchJoint"},
      {{"retarget", dir + "/missing.glb", "--onto", "builtin", "-o", out}, "missing.glb"},
  };
  for (const Case& c : cases) {
    const testproc::Result r = testproc::Skelview(c.args, 60.0);
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 2) << c.named << ": " << r.err;
    EXPECT_NE(r.err.find(c.named), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
