// Sessions, mirroring and the range-of-motion clip on the command line, run through the built
// binary: --save-session writes what --session reads back into the same pose; --mirror puts the
// left foot's target on the right foot, from a session too; export --rom writes a
// "Range of motion" clip; bad sessions and bad combinations are one-line errors with exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

using nlohmann::json;

std::string TempPath(const std::string& name) { return testpaths::TempDir() + "/" + name; }

// `pose`'s joints: name → world position.
std::map<std::string, std::vector<double>> Joints(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"pose"};
  all.insert(all.end(), args.begin(), args.end());
  const testproc::Result r = testproc::Skelview(all, 120.0);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.err;
  std::map<std::string, std::vector<double>> joints;
  if (r.exit_code != 0) return joints;
  const json doc = json::parse(r.out);
  for (const json& j : doc["joints"]) {
    joints[j["name"].get<std::string>()] = j["world"].get<std::vector<double>>();
  }
  return joints;
}

double Distance(const std::vector<double>& a, const std::vector<double>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

const std::vector<std::string> kFootTarget = {
    "--ik", "LeftFoot=0.2,0.3,0.1", "--anim", "0", "--time", "0.4"};

TEST(CliSession, ASavedSessionGivesTheSamePoseAgain) {
  const std::string session = TempPath("cli.skelview");
  std::vector<std::string> args = kFootTarget;
  args.insert(args.end(), {"--save-session", session});
  const auto before = Joints(args);
  ASSERT_FALSE(before.empty());
  std::ifstream in(session);
  const json doc = json::parse(in);
  EXPECT_EQ(doc["skelview_session"], 1);
  EXPECT_EQ(doc["chains"][0]["joints"]["end"], "LeftFoot");
  EXPECT_EQ(doc["animation"]["clip"], "Walk");
  const auto after = Joints({"--session", session});
  ASSERT_EQ(after.size(), before.size());
  for (const auto& [name, position] : before) {
    EXPECT_LT(Distance(position, after.at(name)), 1e-6) << name;
  }
  EXPECT_LT(Distance(after.at("LeftFoot"), {0.2, 0.3, 0.1}), 1e-3);
}

TEST(CliSession, MirrorPutsTheTargetOnTheOtherSideWithASessionToo) {
  std::vector<std::string> args = kFootTarget;
  args.push_back("--mirror");
  const auto mirrored = Joints(args);
  ASSERT_FALSE(mirrored.empty());
  EXPECT_LT(Distance(mirrored.at("RightFoot"), {-0.2, 0.3, 0.1}), 1e-3);
  // The same constraints from a session, mirrored: the same pose.
  const auto plain = Joints(kFootTarget);
  const std::string session = TempPath("mirror.skelview");
  args = kFootTarget;
  args.insert(args.end(), {"--save-session", session});
  Joints(args);
  const auto from_session = Joints({"--session", session, "--mirror"});
  ASSERT_EQ(from_session.size(), mirrored.size());
  for (const auto& [name, position] : mirrored) {
    EXPECT_LT(Distance(position, from_session.at(name)), 1e-5) << name;
  }
  EXPECT_GT(Distance(plain.at("LeftFoot"), mirrored.at("LeftFoot")), 0.05);
}

TEST(CliSession, ExportRomWritesARangeOfMotionClip) {
  const std::string out = TempPath("rom.glb");
  const testproc::Result r = testproc::Skelview({"export", "--rom", "-o", out}, 120.0);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.err;
  const testproc::Result info = testproc::Skelview({"info", "--json", out}, 60.0);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const json doc = json::parse(info.out);
  ASSERT_EQ(doc["clips"].size(), 1u);
  EXPECT_EQ(doc["clips"][0]["name"], "Range of motion");
  EXPECT_GT(doc["clips"][0]["duration"].get<double>(), 30.0);  // 19 motions of 2 s
}

TEST(CliSession, BadSessionsAndCombinationsAreOneLineErrors) {
  const std::string bad = TempPath("bad.skelview");
  std::ofstream(bad) << "{\"skelview_session\": 1, \"model\": null, \"camera\": {\"pitch\": 500}}";
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  const Case cases[] = {
      {{"pose", "--session", bad}, "bad.skelview: camera.pitch"},
      {{"pose", "--session", TempPath("missing.skelview")}, "missing.skelview"},
      {{"pose", "--save-session", TempPath("x.json")}, "ends in .skelview"},
      {{"export", "--rom", "--bake", "-o", TempPath("x.glb")}, "--rom and --bake"},
      {{"export", "--mirror", "--bake", "-o", TempPath("y.glb")}, "--mirror"},
  };
  for (const Case& c : cases) {
    const testproc::Result r = testproc::Skelview(c.args, 60.0);
    EXPECT_TRUE(r.exited && r.exit_code == 2) << c.expected << ": " << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
