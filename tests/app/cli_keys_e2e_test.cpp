// Keyed targets on the command line, run through the built binary: `--ik END@T=...` repeated per
// key animates the target (pose at a time between the keys, export --bake follows the keys),
// --save-session carries the keys and --session gives the same pose back; bad keys are one-line
// errors naming the argument, exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

using nlohmann::json;

std::string TempPath(const std::string& name) { return testpaths::TempDir() + "/" + name; }

// `pose`'s world position of joint `name`.
std::vector<double> JointAt(const std::vector<std::string>& args, const std::string& name) {
  std::vector<std::string> all = {"pose"};
  all.insert(all.end(), args.begin(), args.end());
  const testproc::Result r = testproc::Skelview(all, 120.0);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.err;
  if (r.exit_code != 0) return {};
  const json doc = json::parse(r.out);
  for (const json& j : doc["joints"]) {
    if (j["name"] == name) return j["world"].get<std::vector<double>>();
  }
  ADD_FAILURE() << "no joint " << name;
  return {};
}

const std::vector<std::string> kKeys = {"--ik", "RightFoot@0=-0.1,0.2,0.1", "--ik",
                                        "RightFoot@1=-0.1,0.4,0.1"};

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliKeys, ATargetKeyedAtTwoTimesIsBetweenThemAndHeldOutside) {
  for (const auto& [time, y] :
       std::vector<std::pair<std::string, double>>{{"0", 0.2}, {"0.5", 0.3}, {"1", 0.4}}) {
    const auto foot = JointAt(With(kKeys, {"--anim", "0", "--time", time}), "RightFoot");
    ASSERT_EQ(foot.size(), 3u);
    EXPECT_NEAR(foot[1], y, 1e-3) << "at t=" << time;
  }
  // The rest pose (no clip) is at time 0: the first key.
  const auto rest = JointAt(kKeys, "RightFoot");
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_NEAR(rest[1], 0.2, 1e-3);
}

TEST(CliKeys, ExportBakeBakesTheKeyedMotion) {
  const std::string out = TempPath("keyed-baked.glb");
  const testproc::Result r =
      testproc::Skelview(With({"export", "-o", out, "--anim", "0", "--bake"}, kKeys));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  double last = 0.0;
  for (const char* time : {"0", "0.25", "0.5", "0.75", "1"}) {
    const auto foot = JointAt({out, "--anim", "0", "--time", time}, "RightFoot");
    ASSERT_EQ(foot.size(), 3u);
    const auto keyed = JointAt(With(kKeys, {"--anim", "0", "--time", time}), "RightFoot");
    ASSERT_EQ(keyed.size(), 3u);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(foot[k], keyed[k], 1e-3) << "at t=" << time;
    EXPECT_GT(foot[1], last - 1e-4) << "at t=" << time;  // rising from key to key
    last = foot[1];
  }
  EXPECT_NEAR(last, 0.4, 1e-3);
}

TEST(CliKeys, ASavedSessionCarriesTheKeys) {
  const std::string session = TempPath("keys.skelview");
  const auto before = JointAt(
      With(kKeys, {"--anim", "0", "--time", "0.3", "--save-session", session}), "RightFoot");
  std::ifstream in(session);
  const json doc = json::parse(in);
  const json& keys = doc["chains"][0]["target"]["keys"];
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[1]["time"], 1.0);
  EXPECT_EQ(keys[1]["position"][1].get<float>(), 0.4f);
  // Opened at another time, the session's target is where its keys put it then.
  const auto same = JointAt({"--session", session}, "RightFoot");
  const auto later = JointAt({"--session", session, "--anim", "0", "--time", "1"}, "RightFoot");
  ASSERT_EQ(same.size(), 3u);
  ASSERT_EQ(later.size(), 3u);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(same[k], before[k], 1e-5);
  EXPECT_NEAR(later[1], 0.4, 1e-3);
}

TEST(CliKeys, BadKeysAreOneLineErrorsNamingTheArgument) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--ik", "RightFoot@nan=0,0.2,0"}, "--ik 'RightFoot@nan=0,0.2,0': the key time 'nan'"},
      {{"--ik", "RightFoot@1=0,0.2,0", "--ik", "RightFoot@1=0,0.3,0"},
       "--ik 'RightFoot@1=0,0.3,0': RightFoot has two keys at 1 s"},
      {{"--ik", "RightFoot@0=0,0.2,0,hinge", "--ik", "RightFoot@1=0,0.3,0"},
       "--ik 'RightFoot@1=0,0.3,0': a key's options must be those of the first key"},
      {{"--pin", "Hips@0=0,1,0", "--pin", "Hips=0,1,0"},
       "--pin 'Hips=0,1,0': Hips is given both with key times (@T) and without"},
  };
  for (const auto& [args, message] : cases) {
    const testproc::Result r = testproc::Skelview(With({"pose"}, args));
    EXPECT_TRUE(r.exited && r.exit_code == 2) << message;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("skelview: " + message, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
