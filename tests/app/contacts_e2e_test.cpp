// `skelview contacts` and `export --bake --lock-feet [--ground SPEC]` run through the built
// binary: the JSON document the README promises, the numbers of the lock, bad arguments refused
// with exit 2 naming the option.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/assets/gltf_builder.h"
#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

using nlohmann::json;

json Contacts(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"contacts", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const testproc::Result r = testproc::Skelview(args, 120.0);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.err;
  return json::parse(r.out, nullptr, false);
}

TEST(ContactsCommand, JsonListsEachFootsContactsWithTheirSkate) {
  const json doc = Contacts({});
  ASSERT_TRUE(doc.is_object());
  ASSERT_TRUE(doc["feet"].is_array());
  ASSERT_EQ(doc["feet"].size(), 2u);
  EXPECT_EQ(doc["feet"][0]["joint"], "LeftFoot");
  EXPECT_EQ(doc["feet"][1]["joint"], "RightFoot");
  for (const json& foot : doc["feet"]) {
    ASSERT_GE(foot["contacts"].size(), 1u);
    for (const json& c : foot["contacts"]) {
      for (const char* key : {"start", "end", "skate_mm", "height_mm"}) {
        ASSERT_TRUE(c.contains(key) && c[key].is_number()) << key;
      }
      EXPECT_LT(c["start"].get<double>(), c["end"].get<double>());
      EXPECT_GE(c["start"].get<double>(), 0.0);
      EXPECT_LE(c["end"].get<double>(), 1.0);                // the built-in walk runs 1 s
      EXPECT_NEAR(c["height_mm"].get<double>(), 88.0, 5.0);  // its ankles while planted
    }
  }
  ASSERT_TRUE(doc["max_skate_mm"].is_number());
  EXPECT_EQ(doc["in_place"], true);
  for (const char* key :
       {"max_skate_mm", "mean_skate_mm", "penetration_mm", "float_mm", "knee_step_deg"}) {
    EXPECT_TRUE(doc["before"][key].is_number()) << key;
    EXPECT_TRUE(doc["after"][key].is_number()) << key;
  }
  EXPECT_LE(doc["after"]["max_skate_mm"].get<double>(), 1.0);
  EXPECT_LE(doc["knee_jump_deg"].get<double>(), 5.0);
}

TEST(ContactsCommand, GroundChangesPenetrationAndFloatNotTheContacts) {
  const json flat = Contacts({});
  const json ramp = Contacts({"--ground", "ramp,degrees=10"});
  ASSERT_EQ(flat["feet"].size(), ramp["feet"].size());
  for (size_t i = 0; i < flat["feet"].size(); ++i) {
    EXPECT_EQ(flat["feet"][i]["contacts"].size(), ramp["feet"][i]["contacts"].size());
  }
  EXPECT_EQ(ramp["ground"], "ramp,degrees=10");
  EXPECT_GT(ramp["before"]["penetration_mm"].get<double>(), 10.0);
  EXPECT_GT(ramp["before"]["float_mm"].get<double>(), 10.0);
  EXPECT_LE(ramp["after"]["penetration_mm"].get<double>(), 1.0);
  // A few millimetres where a heel peels off at a stance's end (the foot turned about its toe so
  // that the knee keeps the source's pace): the ankle rises over the planted toe.
  EXPECT_LE(ramp["after"]["float_mm"].get<double>(), 5.0);
}

TEST(ContactsCommand, MeshGroundIsItsTriangles) {
  // A 4 m square at y = 0.1: the lock stands the feet on it, as on plane,y=0.1.
  testgltf::Builder b;
  const int positions = b.Positions({-2, 0.1f, -2, 2, 0.1f, -2, 2, 0.1f, 2, -2, 0.1f, 2});
  const std::vector<uint16_t> indices = {0, 2, 1, 0, 3, 2};
  const int index = b.Accessor(indices.data(), indices.size() * 2, 5123, "SCALAR", 6);
  b.doc["meshes"] = json::array(
      {{{"primitives",
         json::array({{{"attributes", {{"POSITION", positions}}}, {"indices", index}}})}}});
  b.Node({{"mesh", 0}}, true);
  const std::string path = testpaths::TempDir() + "/floor.glb";
  testgltf::WriteBytes(path, b.Glb());
  const json mesh = Contacts({"--ground", path});
  const json plane = Contacts({"--ground", "plane,y=0.1"});
  EXPECT_EQ(mesh["ground"], path);
  EXPECT_NEAR(mesh["before"]["penetration_mm"].get<double>(),
              plane["before"]["penetration_mm"].get<double>(), 0.01);
  EXPECT_NEAR(mesh["feet"][0]["contacts"][0]["height_mm"].get<double>(), -12.0, 1.0);
  EXPECT_LE(mesh["after"]["penetration_mm"].get<double>(), 1.0);
  EXPECT_LE(mesh["after"]["float_mm"].get<double>(), 1.0);
}

TEST(ContactsCommand, TextNamesEachFoot) {
  const testproc::Result r = testproc::Skelview({"contacts"}, 120.0);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.err;
  EXPECT_NE(r.out.find("LeftFoot: 1 contacts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("RightFoot:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("locked: skate max"), std::string::npos) << r.out;
}

TEST(ContactsCommand, BadArgumentsExit2NamingTheOption) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"contacts", "--ground", "hill"}, "--ground 'hill'"},
      {{"contacts", "--ground", "ramp"}, "--ground 'ramp'"},
      {{"contacts", "--ground", "stairs,step=0.2,depth=-1"}, "--ground"},
      {{"contacts", "--ground", "nowhere.glb"}, "--ground 'nowhere.glb'"},
      {{"contacts", "--anim", "9"}, "--anim"},
      {{"contacts", "--anim", "x"}, "--anim"},
      {{"export", "-o", testpaths::TempDir() + "/x.glb", "--lock-feet"}, "--lock-feet"},
      {{"export", "-o", testpaths::TempDir() + "/x.glb", "--bake", "--ground", "plane"},
       "--ground"},
      {{"export", "-o", testpaths::TempDir() + "/x.glb", "--bake", "--lock-feet", "--ground",
        "ramp,degrees=90"},
       "--ground"},
  };
  for (const auto& [args, named] : cases) {
    const testproc::Result r = testproc::Skelview(args, 60.0);
    EXPECT_TRUE(r.exited && r.exit_code == 2) << args.back() << ": " << r.err;
    EXPECT_NE(r.err.find(named), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(testpaths::TempDir() + "/x.glb"));
}

TEST(ContactsCommand, ExportLockFeetWritesTheFixedClipAndSaysWhatItDid) {
  const std::string out = testpaths::TempDir() + "/locked.glb";
  const testproc::Result r = testproc::Skelview(
      {"export", "-o", out, "--bake", "--lock-feet", "--ground", "plane,y=0.1"}, 120.0);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.err;
  EXPECT_NE(r.err.find("locked feet: skate max"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("knee jump"), std::string::npos) << r.err;
  // The written clip is locked: its planted feet stand 0.1 higher than the source's (88 mm above
  // y = 0) and do not slide.
  const json doc = Contacts({out});
  for (const json& foot : doc["feet"]) {
    ASSERT_GE(foot["contacts"].size(), 1u);
    for (const json& c : foot["contacts"]) {
      EXPECT_NEAR(c["height_mm"].get<double>(), 188.0, 2.0) << doc.dump();
      EXPECT_LE(c["skate_mm"].get<double>(), 1.0) << doc.dump();
    }
  }
  const testproc::Result info = testproc::Skelview({"info", out}, 60.0);
  EXPECT_NE(info.out.find("Walk (IK)"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("Idle"), std::string::npos) << info.out;  // the other clip kept
}

}  // namespace
