// End-to-end tests of the command line against hostile and unlucky input (issue 26): names and
// paths that are not UTF-8, bakes without bound, huge coordinates, a joint with 65,534 children,
// FIFOs as outputs and settings, file names and option values that would break a message, sparse
// gigabyte files, exports killed half-way, and the import worker's sandbox. Every input is made
// here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "assets/files/text.h"
#include "assets/importer.h"
#include "tests/assets/gltf_builder.h"
#include "tests/run_process.h"
#include "tests/support/bad_input.h"
#include "tests/test_paths.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::HasSubstr;
using testing::Not;

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD

std::string Fresh(const std::string& name) {
  const std::string dir = testpaths::TempDir() + "/hostile-e2e/" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::vector<std::string> FileNames(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

using testsupport::ExpectBadInput;

void ExpectOk(const testproc::Result& r, const std::string& what) {
  ASSERT_FALSE(r.timed_out) << what << ": timed out";
  ASSERT_TRUE(r.exited) << what << ": killed by signal " << r.signal << "\n" << r.err;
  EXPECT_EQ(r.exit_code, 0) << what << ": " << r.err;
}

// A BVH skeleton of three joints with these names (bytes as given), two frames.
std::string Bvh(const std::string& root, const std::string& mid, const std::string& end) {
  return "HIERARCHY\nROOT " + root +
         "\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition Zrotation "
         "Xrotation Yrotation\n\tJOINT " +
         mid +
         "\n\t{\n\t\tOFFSET 0 -1 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n\t\tJOINT " +
         end +
         "\n\t\t{\n\t\t\tOFFSET 0 -1 0\n\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
         "\t\t\tEnd Site\n\t\t\t{\n\t\t\t\tOFFSET 0 -1 0\n\t\t\t}\n\t\t}\n\t}\n}\n"
         "MOTION\nFrames: 2\nFrame Time: 0.5\n0 1 0 0 0 0 0 0 0 0 0 0\n"
         "0 1 0 0 10 0 0 20 0 0 5 0\n";
}

std::string ExportBuiltin(const std::string& path) {
  const testproc::Result r = testproc::Skelview({"export", "-o", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return path;
}

// A chain of `joints` nodes 0.1 apart with one clip rotating all of them, keys at 0, 1/240,
// 2/240, 3/240, 4/240 and `last_time` seconds: a few close keys, then one far away.
std::string UnevenClip(const std::string& path, float last_time, int joints = 20) {
  testgltf::Builder b;
  const std::vector<float> times = {0.0f,       1 / 240.0f, 2 / 240.0f,
                                    3 / 240.0f, 4 / 240.0f, last_time};
  std::vector<float> rotations;
  for (size_t k = 0; k < times.size(); ++k) {
    const float half = k % 2 == 0 ? 0.0f : 0.05f;
    rotations.insert(rotations.end(), {0.0f, 0.0f, std::sin(half), std::cos(half)});
  }
  const int input = b.Floats(times, "SCALAR", times.size());
  b.doc["accessors"][input]["min"] = {0.0f};
  b.doc["accessors"][input]["max"] = {last_time};
  const int output = b.Floats(rotations, "VEC4", times.size());
  for (int j = 0; j < joints; ++j) {
    json node = {{"name", "j" + std::to_string(j)},
                 {"translation", {0.0f, j == 0 ? 0.0f : 0.1f, 0.0f}}};
    if (j + 1 < joints) node["children"] = {j + 1};
    b.Node(node, j == 0);
  }
  json channels = json::array();
  for (int j = 0; j < joints; ++j) {
    channels.push_back({{"sampler", 0}, {"target", {{"node", j}, {"path", "rotation"}}}});
  }
  b.doc["animations"] =
      json::array({json{{"name", "long"},
                        {"samplers", json::array({json{{"input", input}, {"output", output}}})},
                        {"channels", channels}}});
  testgltf::WriteBytes(path, b.Glb());
  return path;
}

// --- 1. names and paths that are not UTF-8 ---

TEST(CliHostileNames, NamesThatAreNotUtf8NeverAbortAnOutput) {
  const std::string dir = Fresh("names");
  const std::string model = dir + "/latin1.bvh";
  WriteFile(model, Bvh("Hips\xFF", "Knee\xE9", "Foot"));
  const std::string names[] = {"Hips" + kReplacement, "Knee" + kReplacement, "Foot"};

  const testproc::Result info = testproc::Skelview({"info", "--json", model});
  ExpectOk(info, "info --json");
  const json doc = json::parse(info.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << info.out;
  std::vector<std::string> joints;
  for (const json& joint : doc["joints"]) joints.push_back(joint["name"].get<std::string>());
  EXPECT_THAT(joints, testing::IsSupersetOf(names));
  // The warning says what happened (stderr stays one line per warning, escaped).
  EXPECT_THAT(info.err, HasSubstr("not valid UTF-8"));
  EXPECT_THAT(info.err, HasSubstr("Hips\\xFF"));

  const testproc::Result pose = testproc::Skelview({"pose", model});
  ExpectOk(pose, "pose");
  EXPECT_FALSE(json::parse(pose.out, nullptr, false).is_discarded());

  const testproc::Result text = testproc::Skelview({"info", model});
  ExpectOk(text, "info");
  EXPECT_THAT(text.out, HasSubstr("Hips" + kReplacement));

  const std::string out = dir + "/out.glb";
  ExpectOk(testproc::Skelview({"export", model, "-o", out}), "export");
  const assets::LoadResult back = assets::LoadModel(out);
  ASSERT_TRUE(back.ok()) << back.error;
  EXPECT_GE(back.model->skeleton.Find(names[0]), 0);

  // The viewer's trace.
  const std::string trace = dir + "/trace.jsonl";
  ExpectOk(testproc::Skelview({model, "--frames", "2", "--trace", trace}, 60.0), "viewer");
  std::istringstream lines(ReadFile(trace));
  int events = 0;
  for (std::string line; std::getline(lines, line); ++events) {
    EXPECT_FALSE(json::parse(line, nullptr, false).is_discarded()) << line;
  }
  EXPECT_GE(events, 2);
}

TEST(CliHostileNames, AModelInAFolderNamedInLatin1IsShownAndNamedEscaped) {
  const std::string dir = Fresh("folder") + "/mod\xE8les";
  fs::create_directories(dir);
  const std::string model = ExportBuiltin(dir + "/m.glb");
  const testproc::Result info = testproc::Skelview({"info", "--json", model});
  ExpectOk(info, "info --json");
  const json doc = json::parse(info.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  EXPECT_THAT(doc["source"].get<std::string>(), HasSubstr("mod" + kReplacement + "les/m.glb"));
  ExpectOk(testproc::Skelview({"pose", model}), "pose");
  // A message about a file there prints its name escaped, on one line.
  WriteFile(dir + "/bad.glb", "not a model");
  ExpectBadInput(testproc::Skelview({"info", dir + "/bad.glb"}), "mod\\xE8les/bad.glb: ");
}

// --- 2. and 5. bakes ---

TEST(CliHostileBake, AClipWithAFewCloseKeysAndOneAnHourLaterBakesAtACoarseRate) {
  const std::string dir = Fresh("bake-hour");
  const std::string model = UnevenClip(dir + "/hour.glb", 3600.0f);
  const std::string out = dir + "/baked.glb";
  const testproc::Result r = testproc::Skelview({"export", "--bake", model, "-o", out}, 120.0);
  ExpectOk(r, "export --bake");
  EXPECT_THAT(r.err, HasSubstr("baked 'long' at 1 fps"));
  EXPECT_THAT(r.err, HasSubstr("few keys over its 3600 s"));
  const assets::LoadResult back = assets::LoadModel(out);
  ASSERT_TRUE(back.ok()) << back.error;
  ASSERT_EQ(back.model->clips.size(), 1u);
  EXPECT_LE(back.model->clips[0].channels[0].rotation.times.size(), 3601u);
}

TEST(CliHostileBake, AClipAMillionSecondsLongIsRefusedNamingTheClipAndTheLimit) {
  const std::string dir = Fresh("bake-million");
  const std::string model = UnevenClip(dir + "/million.glb", 1e6f);
  const std::string out = dir + "/baked.glb";
  ExpectBadInput(testproc::Skelview({"export", "--bake", model, "-o", out}, 60.0),
                 "cannot bake clip 0 'long': it runs 1e+06 s, and even at 1 frame per second");
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliHostileBake, ExportBakeKeepsTheModelsOtherClips) {
  const std::string dir = Fresh("bake-clips");
  const std::string out = dir + "/baked.glb";
  ExpectOk(testproc::Skelview({"export", "--bake", "--anim", "1", "-o", out}), "export --bake");
  const assets::LoadResult back = assets::LoadModel(out);
  ASSERT_TRUE(back.ok()) << back.error;
  const testproc::Result info = testproc::Skelview({"info", "--json"});
  const json builtin = json::parse(info.out);
  ASSERT_EQ(back.model->clips.size(), builtin["clips"].size());
  EXPECT_EQ(back.model->clips[0].name, builtin["clips"][0]["name"].get<std::string>());
  EXPECT_EQ(back.model->clips[1].name, builtin["clips"][1]["name"].get<std::string>() + " (IK)");
}

// --- 4. huge coordinates ---

TEST(CliHostileNumbers, HugeFiniteCoordinatesAreBadInputNamingTheOption) {
  const std::string dir = Fresh("huge");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"pose", "--move", "Hips=0,0.8,0.1", "--pin", "LeftFoot=1e30,0,0"},
           {"pose", "--move", "Hips=0,1e30,0"},
           {"pose", "--ik", "LeftFoot=3e38,0,0,body"},
           {"pose", "--ik", "LeftFoot=0,0,0,pole=0,2e7,0"},
           {"pose", "--aim", "Head=0,0,1e8"},
           {"pose", "--fabrik", "Hips:Head=1e9,0,0"},
           {"export", "--bake", "--pin", "LeftFoot=1e30,0,0", "-o", dir + "/x.glb"}}) {
    const testproc::Result r = testproc::Skelview(args, 30.0);
    const std::string& option = args[args.size() - (args[0] == "export" ? 4 : 2)];
    ExpectBadInput(r, option + " '");
    EXPECT_THAT(r.err, HasSubstr("within -1e7..1e7")) << r.err;
  }
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(CliHostileNumbers, FarButBoundedTargetsGiveAFinitePoseNotReached) {
  const testproc::Result r =
      testproc::Skelview({"pose", "--pin", "LeftFoot=1e7,0,0", "--move", "Hips=0,0.8,0.1", "--ik",
                          "RightHand=-1e7,1e7,0,body"});
  ExpectOk(r, "pose");
  const json doc = json::parse(r.out);
  // Every number is finite: a non-finite one would be written as null, and no array (a
  // position, a rotation) holds null.
  std::function<void(const json&)> finite = [&](const json& v) {
    if (v.is_array()) {
      for (const json& x : v) {
        EXPECT_FALSE(x.is_null()) << v;
        finite(x);
      }
    } else if (v.is_object()) {
      for (const auto& [key, x] : v.items()) finite(x);
    } else if (v.is_number()) {
      EXPECT_TRUE(std::isfinite(v.get<double>()));
    }
  };
  finite(doc);
  EXPECT_FALSE(doc["body"]["reached"].get<bool>());
  EXPECT_GT(doc["body"]["max_error"].get<double>(), 1e6);
}

// --- 6. a joint with 65,534 children ---

TEST(CliHostileLimbs, AJointWithSixtyFiveThousandChildrenIsDescribedAndDrawn) {
  const std::string dir = Fresh("fan");
  testgltf::Builder b;
  json children = json::array();
  for (int i = 1; i <= 65534; ++i) children.push_back(i);
  b.Node({{"name", "root"}, {"children", children}}, true);
  for (int i = 0; i < 65534; ++i) {
    const float a = 6.2831853f * float(i) / 65534.0f;
    b.doc["nodes"].push_back(
        {{"name", "c" + std::to_string(i)}, {"translation", {std::cos(a), 0.0f, std::sin(a)}}});
  }
  const std::string model = dir + "/fan.glb";
  testgltf::WriteBytes(model, b.Glb());
  // Before limb detection was linear, `info` took seconds and `render` minutes.
  const testproc::Result info = testproc::Skelview({"info", model}, 60.0);
  ExpectOk(info, "info");
  EXPECT_THAT(info.out, HasSubstr("joints:    65535"));
  ExpectOk(testproc::Skelview({"render", model, "-o", dir + "/fan.png", "--size", "32x32"}, 60.0),
           "render");
}

// --- 7. FIFOs and settings ---

TEST(CliHostileOutputs, FifosAreRefusedInsteadOfBlocking) {
  const std::string dir = Fresh("fifos");
  for (const char* name : {"f.glb", "f.gltf", "f.png", "trace"}) {
    ASSERT_EQ(mkfifo((dir + "/" + name).c_str(), 0600), 0);
  }
  ASSERT_EQ(mkfifo((dir + "/g.bin").c_str(), 0600), 0);
  WriteFile(dir + "/g.gltf", "");
  const std::string why = "it is a FIFO (named pipe)";
  ExpectBadInput(testproc::Skelview({"export", "-o", dir + "/f.glb"}, 20.0), why);
  ExpectBadInput(testproc::Skelview({"export", "-o", dir + "/f.gltf"}, 20.0), why);
  ExpectBadInput(testproc::Skelview({"export", "-o", dir + "/g.gltf"}, 20.0), "its .bin ");
  ExpectBadInput(testproc::Skelview({"render", "-o", dir + "/f.png", "--size", "8x8"}, 20.0), why);
  ExpectBadInput(testproc::Skelview({"--frames", "1", "--trace", dir + "/trace"}, 20.0), why);
  // The standard streams are written whatever they are (here a pipe).
  const testproc::Result piped =
      testproc::Skelview({"render", "-o", "/dev/stdout", "--size", "8x8"}, 60.0);
  ExpectOk(piped, "render -o /dev/stdout");
  EXPECT_EQ(piped.out.substr(0, 4), "\x89PNG");
}

TEST(CliHostileOutputs, SettingsThatAreAFifoOrEndlessOrHugeAreWarnedAboutNotWaitedFor) {
  const std::string dir = Fresh("settings");
  struct Case {
    std::string name;
    std::string expected;
  };
  for (const Case& c :
       {Case{"fifo", "not a regular file"}, Case{"zero", "not a regular file"},
        Case{"huge", "larger than the 1024 KiB"}, Case{"far", "ignored camera.target"}}) {
    const std::string config = dir + "/" + c.name;
    fs::create_directories(config + "/skelview");
    const std::string settings = config + "/skelview/settings.json";
    if (c.name == "fifo") {
      ASSERT_EQ(mkfifo(settings.c_str(), 0600), 0);
    }
    if (c.name == "zero") fs::create_symlink("/dev/zero", settings);
    if (c.name == "huge") WriteFile(settings, "{\"pad\": \"" + std::string(2 << 20, 'x') + "\"}");
    if (c.name == "far") {
      WriteFile(settings, R"({"camera":{"yaw":0,"pitch":10,"distance":3,"target":[1e30,0,0]}})");
    }
    const std::string trace = config + "/trace.jsonl";
    const testproc::Result r = testproc::Skelview({"--frames", "2", "--trace", trace}, 30.0,
                                                  {"XDG_CONFIG_HOME=" + config});
    ExpectOk(r, c.name);
    EXPECT_THAT(r.err, HasSubstr(c.expected)) << c.name;
    const std::string text = ReadFile(trace);
    const json ready = json::parse(text.substr(0, text.find('\n')), nullptr, false);
    ASSERT_FALSE(ready.is_discarded()) << c.name;
    EXPECT_EQ(ready["event"], "ready") << c.name;
    ASSERT_FALSE(ready["chains"].empty()) << c.name;
    for (const json& chain : ready["chains"]) {
      for (const json& v : chain["handle_px"])
        EXPECT_TRUE(v.is_number()) << c.name << ": " << chain;
    }
  }
}

// --- 9. messages ---

TEST(CliHostileMessages, AFileNameWithALineBreakCannotSpoofAnotherFile) {
  const std::string dir = Fresh("spoof");
  const std::string name = dir + "/m.glb\nerror spoofed.glb: fake";
  WriteFile(name, "junk");
  const testproc::Result r = testproc::Skelview({"info", name});
  ExpectBadInput(r, "m.glb\\nerror spoofed.glb: fake: ");
  EXPECT_THAT(r.err, Not(HasSubstr("skelview: spoofed.glb")));
}

TEST(CliHostileMessages, OptionValuesAreEchoedShortAndOnOneLine) {
  const std::string huge = "LeftFoot=" + std::string(100000, 'x');
  const testproc::Result ik = testproc::Skelview({"pose", "--ik", huge});
  ExpectBadInput(ik, "--ik 'LeftFoot=xxx");
  EXPECT_LT(ik.err.size(), 600u);
  const testproc::Result morph = testproc::Skelview({"pose", "--morph", "a\nb:c=1"});
  ExpectBadInput(morph, "--morph 'a\\nb:c=1'");
  std::string clips = "0";
  for (int i = 0; i < 4000; ++i) clips += "+0";
  const testproc::Result anim = testproc::Skelview({"pose", "--anim", clips, "--time", "99"});
  ExpectOk(anim, "--anim with 4001 clips");
  EXPECT_LT(anim.err.size(), 600u) << anim.err.substr(0, 300);
  EXPECT_THAT(anim.err, HasSubstr("(4001 clips)"));
  const json doc = json::parse(anim.out);
  EXPECT_LT(doc["anim"]["name"].get<std::string>().size(), 200u);
}

TEST(CliHostileMessages, TextInfoShowsNamesWithoutTerminalControls) {
  const std::string dir = Fresh("escape");
  const std::string model = dir + "/esc.bvh";
  WriteFile(model, Bvh("Hips\x1B[2J\x1B[31mRED", "Knee", "Foot"));
  const testproc::Result r = testproc::Skelview({"info", model});
  ExpectOk(r, "info");
  EXPECT_EQ(r.out.find('\x1B'), std::string::npos);
  EXPECT_THAT(r.out, HasSubstr("Hips\\x1B[2J\\x1B[31mRED"));
}

// --- 10. sparse gigabyte files ---

TEST(CliHostileFiles, SparseGigabyteFilesAreRefusedFromTheirFirstBytes) {
  const std::string dir = Fresh("sparse");
  struct Case {
    std::string name, head, expected;
  };
  std::string glb_head = "glTF";
  auto u32 = [&glb_head](uint32_t v) {
    for (int i = 0; i < 4; ++i) glb_head.push_back(static_cast<char>(v >> (8 * i)));
  };
  u32(2);
  u32(1u << 30);
  u32((1u << 30) - 20);
  u32(0x4E4F534A);
  glb_head += "{";
  for (const Case& c : {Case{"sparse.glb", glb_head, "its JSON is 1023 MiB, more than"},
                        Case{"sparse.dae", "<?xml version=\"1.0\"?>\n<COLLADA>", "is 0x00"},
                        Case{"sparse.obj", "v 0 0 0\n", "is 0x00"}}) {
    const std::string path = dir + "/" + c.name;
    WriteFile(path, c.head);
    fs::resize_file(path, uintmax_t{1} << 30);
    ExpectBadInput(testproc::Skelview({"info", path}, 30.0), c.expected);
    fs::remove(path);
  }
}

// --- 11. exports killed half-way ---

TEST(CliHostileWrites, ExportsKilledHalfWayLeaveTheOldFileAndNoLitter) {
  const std::string dir = Fresh("killed");
  const std::string out = ExportBuiltin(dir + "/out.glb");
  const std::string before = ReadFile(out);
  for (int attempt = 0; attempt < 30; ++attempt) {
    const int pid = testproc::Spawn({testpaths::SkelviewBinary(), "export", "--bake", "--anim", "0",
                                     "--ik", "LeftFoot=0.1,0.1,0.1", "-o", out});
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(40 + 13 * attempt));
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    // The file is whole: the old one or a complete new one.
    const assets::LoadResult now = assets::LoadModel(out);
    ASSERT_TRUE(now.ok()) << "attempt " << attempt << ": " << now.error;
  }
  // Whatever a kill between naming and renaming left is gone after the next write.
  ExportBuiltin(out);
  EXPECT_EQ(FileNames(dir), std::vector<std::string>{"out.glb"});
  EXPECT_EQ(ReadFile(out).size(), before.size());
}

// --- 12. the import worker's sandbox ---

TEST(CliHostileWorker, TheImportWorkerCannotWriteSpawnConnectOrSignal) {
  const std::string dir = Fresh("sandbox");
  const std::string model = ExportBuiltin(dir + "/m.glb");
  const std::string probe = dir + "/written-by-the-worker";
  const testproc::Result r =
      testproc::Skelview({"info", model}, 60.0, {"SKELVIEW_TEST_WORKER_ESCAPE=" + probe});
  ExpectBadInput(r, "sandbox probe: ");
  for (const char* what : {"write denied", "mkdir denied", "socket denied", "fork denied",
                           "exec denied", "signal denied"}) {
    EXPECT_THAT(r.err, HasSubstr(what));
  }
  EXPECT_THAT(r.err, Not(HasSubstr("ALLOWED")));
  EXPECT_FALSE(fs::exists(probe));
  EXPECT_FALSE(fs::exists(probe + ".d"));
  // And under the sandbox the worker still reads every format (Assimp's included).
  const std::string bvh = dir + "/two.bvh";
  WriteFile(bvh, Bvh("hip", "knee", "ankle"));
  ExpectOk(testproc::Skelview({"info", bvh}, 60.0), "info of a BVH in the worker");
}

}  // namespace
