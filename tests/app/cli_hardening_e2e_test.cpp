// End-to-end tests of the command line against hostile use: outputs that cannot be written
// (/dev/full, ulimit -f), outputs that are the input model's own files, file names that look like
// options, meaningless numbers, a killed skelview and its import worker, --allow-outside-files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stb_image.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/run_process.h"
#include "tests/support/bad_input.h"
#include "tests/test_paths.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::HasSubstr;

const std::string kPngMagic = "\x89PNG\r\n\x1a\n";
const std::string kJpegMagic = "\xff\xd8\xff";

std::string Fresh(const std::string& name) {
  const std::string dir = testpaths::TempDir() + "/" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::vector<std::string> FileNames(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

size_t Lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Runs a shell command line in which "$SKELVIEW" is this build's binary (for redirections,
// `cd` and `ulimit`).
testproc::Result Shell(const std::string& script, double timeout_seconds = 60.0) {
  return testproc::Run({"/bin/sh", "-c", script}, timeout_seconds,
                       {"SKELVIEW=" + testpaths::SkelviewBinary()});
}

using testsupport::ExpectBadInput;

// Exit 1 with one line on stderr containing `expected`.
void ExpectWriteFailure(const testproc::Result& r, const std::string& expected) {
  ASSERT_FALSE(r.timed_out);
  ASSERT_TRUE(r.exited) << "killed by signal " << r.signal << "\n" << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr(expected));
  EXPECT_EQ(Lines(r.err), 1u) << r.err;
}

bool IsCharacterDevice(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

std::string ExportBuiltin(const std::string& path) {
  const testproc::Result r = testproc::Skelview({"export", "-o", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return path;
}

// --- writes that fail ---

TEST(CliWrites, FullDeviceIsAFailedWriteNotSuccess) {
  ExpectWriteFailure(testproc::Skelview({"render", "-o", "/dev/full", "--size", "64x64"}),
                     "/dev/full: cannot write: No space left on device");
  for (const char* command : {"pose", "pose --vertices", "info", "info --json", "--help",
                              "bench --frames 2 --characters 2 --no-draw"}) {
    ExpectWriteFailure(Shell(std::string("\"$SKELVIEW\" ") + command + " > /dev/full"),
                       "cannot write to standard output: No space left on device");
  }
  EXPECT_TRUE(IsCharacterDevice("/dev/full"));
}

TEST(CliWrites, FailedTraceWriteIsReportedOnceAndTheViewerExitsOne) {
  const testproc::Result r = testproc::Skelview({"--frames", "3", "--trace", "/dev/full"}, 60.0);
  ExpectWriteFailure(r, "--trace /dev/full: cannot write: No space left on device");
  EXPECT_TRUE(IsCharacterDevice("/dev/full"));
}

TEST(CliWrites, FileSizeLimitFailsTheRenderAndKeepsThePreviousImage) {
  const std::string dir = Fresh("ulimit-render");
  const std::string out = dir + "/out.png";
  ASSERT_EQ(testproc::Skelview({"render", "-o", out, "--size", "320x240"}).exit_code, 0);
  const std::string before = ReadFile(out);
  ASSERT_EQ(before.substr(0, 8), kPngMagic);
  // ulimit -f counts 512-byte blocks: 16 KiB, less than a 640x480 render.
  const testproc::Result r =
      Shell("ulimit -f 32 && exec \"$SKELVIEW\" render -o '" + out + "' --size 640x480");
  ExpectWriteFailure(r, out + ": cannot write: File too large");
  EXPECT_TRUE(ReadFile(out) == before) << out << " changed";
  // A new file is not left behind half-written either.
  const std::string fresh = dir + "/new.png";
  ExpectWriteFailure(
      Shell("ulimit -f 32 && exec \"$SKELVIEW\" render -o '" + fresh + "' --size 640x480"),
      fresh + ": cannot write: File too large");
  EXPECT_EQ(FileNames(dir), std::vector<std::string>{"out.png"});
}

TEST(CliWrites, FileSizeLimitFailsTheExportAndKeepsBothPreviousFiles) {
  const std::string dir = Fresh("ulimit-export");
  const std::string out = dir + "/out.gltf";
  ExportBuiltin(out);
  const std::string gltf = ReadFile(out), bin = ReadFile(dir + "/out.bin");
  const testproc::Result r =
      Shell("ulimit -f 32 && exec \"$SKELVIEW\" export -o '" + out + "' --anim 0 --time 0.3");
  ExpectWriteFailure(r, "File too large");
  EXPECT_TRUE(ReadFile(out) == gltf) << out << " changed";
  EXPECT_TRUE(ReadFile(dir + "/out.bin") == bin) << "out.bin changed";
  EXPECT_EQ(FileNames(dir), (std::vector<std::string>{"out.bin", "out.gltf"}));
}

TEST(CliWrites, ImageToDevStdoutGoesDownThePipe) {
  const testproc::Result r =
      testproc::Skelview({"render", "-o", "/dev/stdout", "--size", "64x48"}, 60.0);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_GE(r.out.size(), 8u);
  EXPECT_EQ(r.out.substr(0, 8), kPngMagic);
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels =
      stbi_load_from_memory(reinterpret_cast<const unsigned char*>(r.out.data()),
                            static_cast<int>(r.out.size()), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr);
  stbi_image_free(pixels);
  EXPECT_EQ(w, 64);
  EXPECT_EQ(h, 48);
}

// --- outputs that are inputs ---

TEST(CliOutputs, RefusesToOverwriteTheInputModelByAnyName) {
  const std::string dir = Fresh("clobber");
  const std::string model = ExportBuiltin(dir + "/m.glb");
  const std::string bytes = ReadFile(model);
  fs::create_symlink("m.glb", dir + "/link.png");
  fs::create_hard_link(model, dir + "/hard.glb");
  ExpectBadInput(
      testproc::Skelview({"export", model, "-o", model}),
      "-o " + model + ": that is the input model " + model + "; refusing to overwrite it");
  ExpectBadInput(testproc::Skelview({"export", model, "-o", dir + "/hard.glb", "--time", "0.2"}),
                 "-o " + dir + "/hard.glb: that is the input model");
  ExpectBadInput(testproc::Skelview({"render", model, "-o", dir + "/link.png"}),
                 "-o " + dir + "/link.png: that is the input model");
  ExpectBadInput(testproc::Skelview({"bench", model, "-o", dir + "/link.png", "--frames", "1"}),
                 "-o " + dir + "/link.png: that is the input model");
  ExpectBadInput(testproc::Skelview({model, "--trace", dir + "/hard.glb", "--frames", "1"}),
                 "--trace " + dir + "/hard.glb: that is the input model");
  EXPECT_TRUE(ReadFile(model) == bytes) << model << " changed";
  EXPECT_TRUE(fs::is_symlink(dir + "/link.png"));
  EXPECT_EQ(FileNames(dir), (std::vector<std::string>{"hard.glb", "link.png", "m.glb"}));
}

TEST(CliOutputs, GltfExportNeverWritesItsBinOverTheModelsBuffer) {
  // CesiumMan.gltf reads CesiumMan0.bin: exporting it to CesiumMan0.gltf would write its .bin
  // over that buffer. Needs the importer to list the files it read (Model::source_files).
  const std::string source =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf");
  SKIP_IF_NO_MODEL(source, "CesiumMan glTF");
  const std::string dir = Fresh("cesium-sidecar");
  for (const char* name : {"CesiumMan.gltf", "CesiumMan0.bin", "CesiumMan.jpg"}) {
    fs::copy_file(fs::path(source).parent_path() / name, dir + "/" + name);
    fs::permissions(dir + "/" + name, fs::perms::owner_write, fs::perm_options::add);
  }
  const std::string buffer = ReadFile(dir + "/CesiumMan0.bin");
  const testproc::Result r =
      testproc::Skelview({"export", dir + "/CesiumMan.gltf", "-o", dir + "/CesiumMan0.gltf"}, 60.0);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("-o " + dir + "/CesiumMan0.gltf: writing it also writes " + dir +
                               "/CesiumMan0.bin"));
  EXPECT_TRUE(ReadFile(dir + "/CesiumMan0.bin") == buffer) << "CesiumMan0.bin was overwritten";
  EXPECT_FALSE(fs::exists(dir + "/CesiumMan0.gltf"));
  EXPECT_EQ(testproc::Skelview({"info", dir + "/CesiumMan.gltf"}).exit_code, 0);
}

TEST(CliOutputs, RenderWritesTheFormatItsExtensionNames) {
  const std::string dir = Fresh("formats");
  for (const char* name : {"a.jpg", "b.JPEG", "c.png"}) {
    const testproc::Result r =
        testproc::Skelview({"render", "-o", dir + "/" + name, "--size", "64x48"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string bytes = ReadFile(dir + "/" + name);
    const bool png = std::string(name) == "c.png";
    EXPECT_EQ(bytes.substr(0, png ? 8 : 3), png ? kPngMagic : kJpegMagic) << name;
  }
  ExpectBadInput(testproc::Skelview({"render", "-o", dir + "/d.bmp"}),
                 "-o " + dir + "/d.bmp: unknown image extension '.bmp'");
  ExpectBadInput(testproc::Skelview({"export", "-o", dir + "/e.obj"}),
                 "-o " + dir + "/e.obj: unsupported extension '.obj'");
  EXPECT_EQ(FileNames(dir), (std::vector<std::string>{"a.jpg", "b.JPEG", "c.png"}));
}

// --- names ---

TEST(CliNames, FileNamesStartingWithDashAreFiles) {
  const std::string dir = Fresh("dash-names");
  const std::string model = ExportBuiltin(dir + "/source.glb");
  for (const char* name : {"-x.glb", "--help.glb", "--help"}) {
    fs::copy_file(model, dir + "/" + name);
  }
  // A .glb is known by its content: --help, without an extension, is one too.
  for (const char* name : {"-x.glb", "--help.glb", "--help"}) {
    const testproc::Result r =
        Shell("cd '" + dir + "' && exec \"$SKELVIEW\" info -- '" + name + "'");
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_THAT(r.out, HasSubstr("model:     " + std::string(name))) << name;
    EXPECT_THAT(r.out, HasSubstr("joints:    22")) << name;
  }
  // A file called --version is read as a file (and, text without an extension, is no format the
  // importer knows), not taken for the worker's --version.
  std::ofstream(dir + "/--version") << "not a model\n";
  const testproc::Result help = Shell("cd '" + dir + "' && exec \"$SKELVIEW\" info -- --version");
  ExpectBadInput(help, "--version: ");
  EXPECT_THAT(help.err, testing::Not(HasSubstr("crashed")));
  EXPECT_THAT(help.err, testing::Not(HasSubstr("import worker")));
  const testproc::Result pose = Shell("cd '" + dir + "' && exec \"$SKELVIEW\" pose -- -x.glb");
  EXPECT_EQ(pose.exit_code, 0) << pose.err;
}

TEST(CliNames, EmptyModelNameIsRefused) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"info", ""},
                                             {"pose", ""},
                                             {"render", "", "-o", "x.png"},
                                             {"export", "", "-o", "x.glb"},
                                             {"bench", ""},
                                             {""}}) {
    ExpectBadInput(testproc::Skelview(args, 20.0), "MODEL '': the file name is empty");
  }
}

// --- numbers ---

TEST(CliNumbers, TimeMustBeAFiniteNumber) {
  for (const char* time : {"nan", "inf", "1e39", "-1e39", "5s", ""}) {
    ExpectBadInput(testproc::Skelview({"pose", "--time", time}, 20.0),
                   std::string("--time '") + time + "': expected a finite number of seconds");
  }
  ExpectBadInput(testproc::Skelview({"--time", "nan", "--frames", "1"}, 20.0), "--time 'nan'");
}

TEST(CliNumbers, TimeOutsideTheClipIsClampedAndReported) {
  const testproc::Result info = testproc::Skelview({"info", "--json"});
  const json clips = json::parse(info.out)["clips"];
  ASSERT_FALSE(clips.empty());
  const double duration = clips[0]["duration"].get<double>();
  auto pose = [](const std::string& time) {
    return testproc::Skelview({"pose", "--anim", "0", "--time", time});
  };
  const testproc::Result start = pose("0");
  const testproc::Result before = pose("-5"), after = pose("1e6");
  ASSERT_EQ(before.exit_code, 0) << before.err;
  ASSERT_EQ(after.exit_code, 0) << after.err;
  const json b = json::parse(before.out), a = json::parse(after.out);
  EXPECT_EQ(b["anim"]["time"].get<double>(), 0.0);
  EXPECT_NEAR(a["anim"]["time"].get<double>(), duration, 1e-6);
  EXPECT_EQ(b["joints"], json::parse(start.out)["joints"]);  // posed at 0, not before it
  EXPECT_THAT(before.err, HasSubstr("warning: --time -5: clamped to 0 (clip '"));
  EXPECT_THAT(after.err, HasSubstr("warning: --time 1e+06: clamped to "));
  EXPECT_TRUE(start.err.empty()) << start.err;
}

TEST(CliNumbers, CountsMustBeMeaningful) {
  ExpectBadInput(testproc::Skelview({"--frames", "0"}, 20.0),
                 "--frames '0': expected a whole number from 1 to");
  ExpectBadInput(testproc::Skelview({"--frames", "-1"}, 20.0), "--frames '-1'");
  ExpectBadInput(testproc::Skelview({"--frames", "2.5"}, 20.0), "--frames '2.5'");
  ExpectBadInput(testproc::Skelview({"bench", "--frames", "0"}, 20.0),
                 "--frames '0': expected a whole number from 1 to 100000");
  ExpectBadInput(testproc::Skelview({"bench", "--characters", "0"}, 20.0), "--characters '0'");
  ExpectBadInput(testproc::Skelview({"bench", "--characters", "1e3"}, 20.0), "--characters '1e3'");
  ExpectBadInput(testproc::Skelview({"bench", "--anim", "-2"}, 20.0), "--anim '-2'");
  ExpectBadInput(testproc::Skelview({"pose", "--anim", "-1"}, 20.0), "--anim '-1'");
  ExpectBadInput(testproc::Skelview({"pose", "--anim", "99999999999"}, 20.0),
                 "--anim '99999999999'");
  ExpectBadInput(testproc::Skelview({"render", "-o", "x.png", "--size", "40000x10"}, 20.0),
                 "--size '40000x10'");
}

TEST(CliNumbers, SizeBeyondWhatTheDriverRendersIsRefused) {
  // Mesa's llvmpipe (and most drivers) render at most 16384 pixels a side; a driver that renders
  // 32768 must then produce the image.
  const std::string out = Fresh("big") + "/wide.png";
  const testproc::Result r = testproc::Skelview({"render", "-o", out, "--size", "32768x16"}, 120.0);
  if (r.exit_code == 0) {
    int w = 0, h = 0, channels = 0;
    ASSERT_TRUE(stbi_info(out.c_str(), &w, &h, &channels));
    EXPECT_EQ(w, 32768);
  } else {
    ExpectBadInput(r, "--size 32768x16: larger than the ");
    EXPECT_THAT(r.err, HasSubstr("pixels this OpenGL driver can render"));
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST(CliNumbers, WindowSizeBeyondWhatSdlOpensIsRefused) {
  // SDL 2 opens no window over 16384 pixels a side; that is bad input, not a failure to get GL.
  ExpectBadInput(testproc::Skelview({"--size", "20000x10", "--frames", "1"}, 60.0),
                 "--size 20000x10: larger than the 16384x16384 pixels SDL opens a window at");
  ExpectBadInput(testproc::Skelview({"--size", "40000x10", "--frames", "1"}, 60.0),
                 "--size '40000x10'");
}

TEST(CliNumbers, NonFiniteCoordinatesAreBadInputNamingTheOption) {
  const std::string dir = Fresh("non-finite");
  for (const char* bad : {"nan", "inf", "1e39"}) {
    const std::string v = bad;
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"pose", "--ik", "LeftFoot=0," + v + ",0"},
             {"pose", "--ik", "LeftFoot=0,0,0,pole=" + v + ",0,0"},
             {"pose", "--aim", "Head=" + v + ",0,0"},
             {"pose", "--fabrik", "Hips:Head=0,0," + v},
             {"pose", "--limit", "LeftKnee=hinge,1,0,0," + v + ",10"},
             {"render", "-o", dir + "/x.png", "--ik", "LeftFoot=" + v + ",0,0"},
             {"export", "-o", dir + "/x.glb", "--aim", "Head=0," + v + ",0"},
             {"--frames", "1", "--ik", "LeftFoot=0,0," + v}}) {
      const testproc::Result r = testproc::Skelview(args, 20.0);
      ExpectBadInput(r, args[args.size() - 2] + " '" + args.back() + "': ");
      EXPECT_THAT(r.err, testing::AnyOf(HasSubstr("not a finite number"),
                                        HasSubstr("three finite coordinates"),
                                        HasSubstr("a hinge needs an axis and two angles")))
          << args.back();
    }
  }
  EXPECT_TRUE(fs::is_empty(dir));
}

// --- the import worker ---

TEST(CliWorker, KilledSkelviewTakesItsWorkerAlong) {
  const std::string model = ExportBuiltin(Fresh("orphans") + "/m.glb");
  for (int signal : {SIGKILL, SIGTERM}) {
    const int skelview = testproc::Spawn({testpaths::SkelviewBinary(), "info", model},
                                         {"SKELVIEW_TEST_WORKER_HANG=1"});
    ASSERT_GT(skelview, 0);
    const std::vector<int> workers = testproc::WaitForChildren(skelview, 20.0);
    ASSERT_EQ(workers.size(), 1u) << "no import worker appeared";
    // The worker waits (SKELVIEW_TEST_WORKER_HANG): it is there until skelview goes.
    EXPECT_FALSE(testproc::WaitUntilGone(workers[0], 0.3)) << "the worker did not wait";
    kill(skelview, signal);
    waitpid(skelview, nullptr, 0);
    EXPECT_TRUE(testproc::WaitUntilGone(workers[0], 10.0))
        << "the worker outlived skelview killed by signal " << signal;
    kill(workers[0], SIGKILL);  // in case it did
  }
}

// --- --allow-outside-files ---

TEST(CliOutsideFiles, EveryCommandTakesTheFlag) {
  const std::string dir = Fresh("outside-flag");
  const std::string model = ExportBuiltin(dir + "/m.glb");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"info", model, "--allow-outside-files"},
           {"pose", model, "--allow-outside-files"},
           {"render", model, "-o", dir + "/r.png", "--size", "32x32", "--allow-outside-files"},
           {"export", model, "-o", dir + "/e.glb", "--allow-outside-files"},
           {"bench", model, "--frames", "1", "--characters", "1", "--allow-outside-files"},
           {model, "--frames", "1", "--allow-outside-files"}}) {
    const testproc::Result r = testproc::Skelview(args, 60.0);
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
  }
}

TEST(CliOutsideFiles, EveryCommandReadsOutsideTheFolderOnlyWithTheFlag) {
  // models/m.gltf reads ../buffers/m.bin. Needs the importer's folder rule
  // (assets::LoadOptions::allow_outside_files).
  const std::string dir = Fresh("outside-buffer");
  fs::create_directories(dir + "/models");
  ExportBuiltin(dir + "/m.gltf");
  fs::create_directories(dir + "/buffers");
  fs::rename(dir + "/m.bin", dir + "/buffers/m.bin");
  json doc = json::parse(ReadFile(dir + "/m.gltf"));
  doc["buffers"][0]["uri"] = "../buffers/m.bin";
  WriteFile(dir + "/models/m.gltf", doc.dump());
  const std::string model = dir + "/models/m.gltf";
  for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
           {"info", model},
           {"pose", model},
           {"render", model, "-o", dir + "/r.png", "--size", "32x32"},
           {"export", model, "-o", dir + "/e.glb"},
           {"bench", model, "--frames", "1", "--characters", "1"},
           {model, "--frames", "1"}}) {
    for (const char* inprocess : {"SKELVIEW_IMPORT_INPROCESS=0", "SKELVIEW_IMPORT_INPROCESS=1"}) {
      const std::string what = command[0] + " (" + inprocess + ")";
      const testproc::Result refused = testproc::Skelview(command, 60.0, {inprocess});
      EXPECT_EQ(refused.exit_code, 2) << what << ": " << refused.err;
      EXPECT_THAT(refused.err, HasSubstr(model)) << what;
      EXPECT_EQ(Lines(refused.err), 1u) << what << ": " << refused.err;
      std::vector<std::string> allowed_args = command;
      allowed_args.push_back("--allow-outside-files");
      const testproc::Result allowed = testproc::Skelview(allowed_args, 60.0, {inprocess});
      EXPECT_EQ(allowed.exit_code, 0) << what << ": " << allowed.err;
      if (command[0] == "info") {
        EXPECT_THAT(allowed.out, HasSubstr("joints:    22")) << what;
      }
    }
  }
  EXPECT_TRUE(fs::exists(dir + "/r.png"));
  EXPECT_TRUE(fs::exists(dir + "/e.glb"));
}

}  // namespace

// A viewer run by the tests keeps its recent files in the test's own config directory, never in
// the user's: the children's XDG_CONFIG_HOME is private even when this process's points elsewhere.
TEST(TestChildren, KeepTheirRecentFilesOutOfTheUsersConfig) {
  const std::string dir = Fresh("private-config");
  const std::string model = ExportBuiltin(dir + "/m.glb");
  const std::string users = dir + "/users-config";
  const char* saved = std::getenv("XDG_CONFIG_HOME");
  const std::string saved_value = saved ? saved : "";
  setenv("XDG_CONFIG_HOME", users.c_str(), 1);
  const std::string recent = testproc::ChildConfigDir() + "/skelview/recent-files";
  fs::remove(recent);
  const testproc::Result r = testproc::Skelview({model, "--frames", "1"}, 60.0);
  if (saved)
    setenv("XDG_CONFIG_HOME", saved_value.c_str(), 1);
  else
    unsetenv("XDG_CONFIG_HOME");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(users + "/skelview")) << "the viewer wrote into the user's config";
  EXPECT_THAT(ReadFile(recent), HasSubstr(model));
}

// Entries given for a child replace the inherited ones of the same name instead of following
// them (where getenv would never see them).
TEST(TestChildren, GivenEnvironmentReplacesTheInheritedEntry) {
  setenv("SKELVIEW_TEST_PROBE", "inherited", 1);
  const testproc::Result r = testproc::Run({"/bin/sh", "-c", "env | grep '^SKELVIEW_TEST_PROBE='"},
                                           10.0, {"SKELVIEW_TEST_PROBE=given"});
  unsetenv("SKELVIEW_TEST_PROBE");
  EXPECT_EQ(r.out, "SKELVIEW_TEST_PROBE=given\n");
}
