// End-to-end tests of rigs built other ways and avatars: `info` on generated files says which limbs
// it found and why, and which of the rig's own IK controls it offers as their targets and poles.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <glm/glm.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/assets/vrm_builder.h"
#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

using nlohmann::json;
using testing::HasSubstr;

std::string TempPath(const std::string& name) { return testpaths::TempDir() + "/" + name; }

json RunJson(const std::vector<std::string>& args) {
  const testproc::Result r = testproc::Skelview(args, 60.0);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.err;
  return json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

// A node-only glTF (a skeleton) from (name, parent index, offset from the parent) rows.
struct Row {
  std::string name;
  int parent;
  glm::vec3 offset;
};

void WriteSkeleton(const std::string& path, const std::vector<Row>& rows) {
  json doc = {{"asset", {{"version", "2.0"}}}, {"scene", 0}, {"nodes", json::array()}};
  json roots = json::array();
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    doc["nodes"].push_back(
        {{"name", r.name}, {"translation", {r.offset.x, r.offset.y, r.offset.z}}});
    if (r.parent < 0) {
      roots.push_back(i);
    } else {
      doc["nodes"][static_cast<size_t>(r.parent)]["children"].push_back(i);
    }
  }
  doc["scenes"] = json::array({json{{"nodes", roots}}});
  std::ofstream(path, std::ios::binary) << doc.dump();
}

// The Blender export of issue 28: Armature → Root bone → Hips; legs UpperLeg → LowerLeg → an end
// joint (no foot); lower arms forking straight into palm chains (no wrist); the foot IK controls
// and knee poles children of the root bone, beside the hips. Facing +Z, left at +X, T-pose.
std::vector<Row> BlenderRig() {
  std::vector<Row> rows;
  auto add = [&](const std::string& name, int parent, glm::vec3 offset) {
    rows.push_back({name, parent, offset});
    return static_cast<int>(rows.size()) - 1;
  };
  const int armature = add("Armature", -1, {0, 0, 0});
  const int root = add("Root", armature, {0, 0, -0.05f});
  const int hips = add("Hips", root, {0, 1.0f, 0.05f});
  const int spine = add("Spine", hips, {0, 0.12f, 0});
  const int spine2 = add("Spine.001", spine, {0, 0.25f, 0});
  add("Neck", spine2, {0, 0.2f, 0});
  for (int s = 0; s < 2; ++s) {
    const float x = s == 0 ? 1.0f : -1.0f;
    const std::string side = s == 0 ? ".L" : ".R";
    const int up = add("UpperLeg" + side, hips, {0.1f * x, -0.05f, 0});
    const int low = add("LowerLeg" + side, up, {0, -0.45f, 0.03f});
    add("LowerLeg" + side + "_end", low, {0, -0.42f, -0.03f});
    const int shoulder = add("Shoulder" + side, spine2, {0.05f * x, 0.15f, 0});
    const int upper = add("UpperArm" + side, shoulder, {0.12f * x, 0, 0});
    const int lower = add("LowerArm" + side, upper, {0.25f * x, 0, 0});
    for (int f = 0; f < 4; ++f) {
      const std::string n = std::to_string(f + 1) + side;
      const int palm =
          add("Palm" + n, lower, {0.25f * x, 0, 0.03f - 0.02f * static_cast<float>(f)});
      const int f1 = add("Finger" + n, palm, {0.09f * x, 0, 0});
      add("Finger" + n + "_end", f1, {0.07f * x, 0, 0});
    }
    add("Foot" + side, root, {0.1f * x, 0.08f, 0.05f});
    add("Pole" + side, root, {0.1f * x, 0.5f, 0.6f});
  }
  return rows;
}

TEST(CliLimbs, ABlenderRigsLimbsSayWhyAndGetItsIkControlsAsTargetAndPole) {
  const std::string path = TempPath("blender_ik_rig.gltf");
  WriteSkeleton(path, BlenderRig());
  const json info = RunJson({"info", path, "--json"});
  ASSERT_FALSE(info.is_discarded());
  ASSERT_EQ(info["limbs"].size(), 4u) << info["limbs"].dump();
  std::vector<std::string> limbs;
  for (const json& l : info["limbs"]) {
    limbs.push_back(l["label"].get<std::string>() + ": " + l["start"].get<std::string>() + "/" +
                    l["mid"].get<std::string>() + "/" + l["end"].get<std::string>() + " by " +
                    l["found_by"].get<std::string>() + ", target " + l["target"].dump() +
                    ", pole " + l["pole"].dump());
  }
  EXPECT_THAT(
      limbs,
      testing::ElementsAre(
          R"(LeftLeg: UpperLeg.L/LowerLeg.L/LowerLeg.L_end by symmetry, target "Foot.L", pole "Pole.L")",
          R"(RightLeg: UpperLeg.R/LowerLeg.R/LowerLeg.R_end by symmetry, target "Foot.R", pole "Pole.R")",
          R"(LeftArm: UpperArm.L/LowerArm.L/Palm2.L by symmetry, target null, pole null)",
          R"(RightArm: UpperArm.R/LowerArm.R/Palm2.R by symmetry, target null, pole null)"));
  // The text output says the same.
  const testproc::Result text = testproc::Skelview({"info", path}, 60.0);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("UpperLeg.L / LowerLeg.L / LowerLeg.L_end  (by symmetry)\n"
                                  "            rig controls: target Foot.L, pole Pole.L\n"));
}

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

// "label: start/mid/end by found_by" for each limb of `info --json`.
std::vector<std::string> LimbLines(const json& info) {
  std::vector<std::string> out;
  for (const json& l : info["limbs"]) {
    out.push_back(l["label"].get<std::string>() + ": " + l["start"].get<std::string>() + "/" +
                  l["mid"].get<std::string>() + "/" + l["end"].get<std::string>() + " by " +
                  l["found_by"].get<std::string>());
  }
  return out;
}

TEST(CliAvatar, VrmFilesOfBothVersionsOpenWithTheirMetaAndHumanoidLimbs) {
  for (const testgltf::VrmVersion version : {testgltf::VrmVersion::k0, testgltf::VrmVersion::k1}) {
    const bool v0 = version == testgltf::VrmVersion::k0;
    SCOPED_TRACE(v0 ? "VRM 0.x" : "VRM 1.0");
    testgltf::VrmOptions options;
    options.version = version;
    options.title = v0 ? "Old Avatar" : "New Avatar";
    options.author = v0 ? "Somebody" : "First Author, Second Author";
    options.license = v0 ? "CC_BY" : "https://vrm.dev/licenses/1.0/";
    // Names that would make name-based detection take a leg for an arm: the map must win.
    options.lying_names = true;
    const std::string path = TempPath(v0 ? "avatar0.vrm" : "avatar1.vrm");
    WriteBytes(path, testgltf::VrmAvatar(options).Glb());
    const json info = RunJson({"info", path, "--json"});
    ASSERT_FALSE(info.is_discarded());
    ASSERT_TRUE(info["avatar"].is_object()) << info["avatar"].dump();
    EXPECT_EQ(info["avatar"]["format"], v0 ? "VRM 0.x" : "VRM 1.0");
    EXPECT_EQ(info["avatar"]["title"], options.title);
    EXPECT_EQ(info["avatar"]["author"], options.author);
    EXPECT_EQ(info["avatar"]["license"], options.license);
    EXPECT_EQ(info["avatar"]["humanoid"].size(), testgltf::VrmBones().size());
    EXPECT_EQ(info["avatar"]["humanoid"]["leftFoot"], "RightHand");
    EXPECT_THAT(LimbLines(info),
                testing::ElementsAre("LeftLeg: RightUpperArm/RightLowerArm/RightHand by humanoid",
                                     "RightLeg: LeftUpperArm/LeftLowerArm/LeftHand by humanoid",
                                     "LeftArm: RightThigh/RightShin/RightFoot by humanoid",
                                     "RightArm: LeftThigh/LeftShin/LeftFoot by humanoid"));
    const testproc::Result text = testproc::Skelview({"info", path}, 60.0);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr(std::string("avatar:    ") + (v0 ? "VRM 0.x" : "VRM 1.0") +
                                    ", 19 humanoid bones\n  title:   " + options.title +
                                    "\n  author:  " + options.author +
                                    "\n  licence: " + options.license + "\n"));
    EXPECT_THAT(text.out, HasSubstr("(by humanoid)"));
  }
}

TEST(CliAvatar, APlainGlbHasNoAvatar) {
  testgltf::VrmOptions options;
  testgltf::Builder b = testgltf::VrmAvatar(options);
  b.doc.erase("extensions");
  b.doc.erase("extensionsUsed");
  const std::string path = TempPath("not_an_avatar.glb");
  WriteBytes(path, b.Glb());
  const json info = RunJson({"info", path, "--json"});
  ASSERT_FALSE(info.is_discarded());
  EXPECT_TRUE(info["avatar"].is_null());
  for (const json& l : info["limbs"]) EXPECT_NE(l["found_by"], "humanoid");
}

}  // namespace
