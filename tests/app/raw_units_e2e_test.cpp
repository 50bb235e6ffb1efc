// --raw-units on the command line: the import worker keeps an FBX file's own frame, every command
// takes the flag, and by default a centimetre FBX is in metres.
#include <gtest/gtest.h>

#include <algorithm>
#include <glm/glm.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

std::map<std::string, glm::vec3> JointWorlds(const std::string& out) {
  std::map<std::string, glm::vec3> worlds;
  const nlohmann::json pose = nlohmann::json::parse(out);
  for (const auto& j : pose.at("joints")) {
    const auto& w = j.at("world");
    worlds[j.at("name").get<std::string>()] =
        glm::vec3(w[0].get<float>(), w[1].get<float>(), w[2].get<float>());
  }
  return worlds;
}

TEST(RawUnits, PoseKeepsTheFbxFilesCentimetresOnlyWhenAsked) {
  const std::string path = testpaths::SharedModel("assimp/huesitos/huesitos.fbx");
  SKIP_IF_NO_MODEL(path, "assimp/huesitos/huesitos.fbx");
  const auto metres = testproc::Skelview({"pose", "--anim", "0", "--time", "0.5", path});
  const auto raw =
      testproc::Skelview({"pose", "--anim", "0", "--time", "0.5", "--raw-units", path});
  ASSERT_EQ(metres.exit_code, 0) << metres.err;
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  const auto m = JointWorlds(metres.out), r = JointWorlds(raw.out);
  ASSERT_EQ(m.size(), r.size());
  float largest = 0.0f;
  for (const auto& [name, p] : r) {
    ASSERT_TRUE(m.count(name)) << name;
    EXPECT_LE(glm::length(m.at(name) - 0.01f * p), 1e-5f * (1.0f + glm::length(p))) << name;
    largest = std::max(largest, glm::length(p));
  }
  EXPECT_GT(largest, 100.0f);  // centimetres: the rig is several metres tall
}

TEST(RawUnits, EveryCommandTakesTheFlag) {
  const std::string path = testpaths::SharedModel("assimp/huesitos/huesitos.fbx");
  SKIP_IF_NO_MODEL(path, "assimp/huesitos/huesitos.fbx");
  for (const char* command : {"info", "pose", "render", "export", "bench"}) {
    const auto help = testproc::Skelview({command, "--help"});
    EXPECT_NE(help.out.find("--raw-units"), std::string::npos) << command;
  }
  EXPECT_NE(testproc::Skelview({"--help"}).out.find("--raw-units"), std::string::npos);  // viewer
  const auto info = testproc::Skelview({"info", "--raw-units", path});
  EXPECT_EQ(info.exit_code, 0) << info.err;
}

}  // namespace
