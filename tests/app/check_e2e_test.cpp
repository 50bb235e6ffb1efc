// End-to-end tests of `skelview check` and batch `render`: the built binary run as a pipeline
// would, on rigs and hostile files made here, tests/data and the shared models.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stb_image.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/core/test_rig.h"
#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::HasSubstr;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A fresh folder for one test: <temp>/check/<test name>.
std::string Folder() {
  const std::string dir = testpaths::TempDir() + "/check/" +
                          ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A clean humanoid, a humanoid with a not-normalised vertex (a warning), and a broken file (an
// error), in `dir`; returns their paths.
std::vector<std::string> ThreeModels(const std::string& dir) {
  const std::string clean = dir + "/clean.gltf", warned = dir + "/sub/warned.glb",
                    broken = dir + "/broken.glb";
  fs::create_directories(dir);
  testrig::Humanoid().Build().WriteGltf(clean);
  testrig::Rig rig = testrig::Humanoid();
  rig.vertices[0].influences = {{0, 0.5f}};
  fs::create_directories(dir + "/sub");
  testgltf::WriteBytes(warned, rig.Build().Glb());
  WriteFile(broken, "glTF but nothing more");
  return {broken, clean, warned};  // sorted
}

testproc::Result Check(const std::vector<std::string>& args,
                       const std::vector<std::string>& env = {}) {
  std::vector<std::string> all = {"check"};
  all.insert(all.end(), args.begin(), args.end());
  return testproc::Skelview(all, 300.0, env);
}

// Runs a check that must be refused as misuse: exit 2, one line on stderr containing `expected`.
void ExpectMisuse(const std::vector<std::string>& args, const std::string& expected) {
  const testproc::Result r = Check(args);
  ASSERT_TRUE(r.exited) << "killed by signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(expected));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(Check, ExitsZeroWithoutErrorsAndOneWithThem) {
  const std::string dir = Folder();
  const std::vector<std::string> files = ThreeModels(dir);
  const testproc::Result clean = Check({files[1], files[2]});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_THAT(clean.out, HasSubstr("warned.glb: warning: "));
  EXPECT_THAT(clean.out, HasSubstr("[weights.not-normalized]"));
  EXPECT_THAT(clean.out, HasSubstr("checked 2 files: 0 errors, 1 warning, 0 notes"));
  const testproc::Result all = Check({dir});
  EXPECT_EQ(all.exit_code, 1) << all.err;
  EXPECT_THAT(all.out, HasSubstr(files[0] + ": error: "));
  EXPECT_THAT(all.out, HasSubstr("[load]"));
  EXPECT_EQ(all.err, "");
}

TEST(Check, MisuseExitsTwoWithOneLineNamingTheArgument) {
  const std::string dir = Folder();
  const std::string model = ThreeModels(dir)[1];
  ExpectMisuse({"--nope", model}, "--nope");
  ExpectMisuse({"--format", "xml", model}, "--format 'xml'");
  ExpectMisuse({"--config", dir + "/missing.json", model}, "missing.json");
  WriteFile(dir + "/bad.json", "{\"rules\": {\"weights.unweighted\": \"loud\"}}");
  ExpectMisuse({"--config", dir + "/bad.json", model}, "weights.unweighted");
  WriteFile(dir + "/unknown.json", "{\"rules\": {\"no.such.rule\": \"off\"}}");
  ExpectMisuse({"--config", dir + "/unknown.json", model}, "no.such.rule");
  WriteFile(dir + "/garbage.json", "{rules");
  ExpectMisuse({"--config", dir + "/garbage.json", model}, "not valid JSON");
  ExpectMisuse({"--shard", "3/3", model}, "--shard '3/3'");
  ExpectMisuse({"--jobs", "0", model}, "--jobs");
  ExpectMisuse({}, "FILE or DIR");
  ExpectMisuse({"-o", dir + "/no/such/folder/r.txt", model}, "does not exist");
  ExpectMisuse({"-o", model, model}, "refusing to overwrite");
}

TEST(Check, JsonLinesAreOnePerInputInListOrderAndTheSameEveryRun) {
  const std::string dir = Folder();
  const std::vector<std::string> files = ThreeModels(dir);
  const testproc::Result one = Check({"--format", "jsonl", "--jobs", "1", dir});
  EXPECT_EQ(one.exit_code, 1) << one.err;
  const std::vector<std::string> lines = Lines(one.out);
  ASSERT_EQ(lines.size(), files.size()) << one.out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const json line = json::parse(lines[i]);
    EXPECT_EQ(line["file"], files[i]);
    EXPECT_TRUE(line["findings"].is_array());
    for (const json& finding : line["findings"]) {
      for (const char* key : {"rule", "severity", "message", "location"}) {
        EXPECT_TRUE(finding.contains(key)) << key;
      }
    }
  }
  EXPECT_EQ(json::parse(lines[0])["findings"][0]["rule"], "load");
  EXPECT_EQ(json::parse(lines[1])["findings"].size(), 0u);
  // Byte for byte the same with more jobs, and again.
  EXPECT_EQ(Check({"--format", "jsonl", "--jobs", "3", dir}).out, one.out);
  EXPECT_EQ(Check({"--format", "jsonl", dir}).out, one.out);
}

TEST(Check, TheShardsTogetherAreTheWholeRun) {
  const std::string dir = Folder();
  for (int i = 0; i < 7; ++i) {
    testrig::Humanoid().Build().WriteGltf(dir + "/m" + std::to_string(i) + ".gltf");
  }
  ThreeModels(dir);
  const std::string whole = Check({"--format", "jsonl", dir}).out;
  ASSERT_EQ(Lines(whole).size(), 10u);
  std::string joined, slurm, kubernetes;
  for (int i = 0; i < 3; ++i) {
    const std::string index = std::to_string(i);
    const testproc::Result part = Check({"--format", "jsonl", "--shard", index + "/3", dir});
    EXPECT_TRUE(part.exited && (part.exit_code == 0 || part.exit_code == 1)) << part.err;
    EXPECT_GE(Lines(part.out).size(), 3u);
    joined += part.out;
    slurm +=
        Check({"--format", "jsonl", "--shard", "3", dir}, {"SLURM_ARRAY_TASK_ID=" + index}).out;
    kubernetes +=
        Check({"--format", "jsonl", "--shard", "3", dir}, {"JOB_COMPLETION_INDEX=" + index}).out;
  }
  EXPECT_EQ(joined, whole);
  EXPECT_EQ(slurm, whole);
  EXPECT_EQ(kubernetes, whole);
  ExpectMisuse({"--shard", "3", dir}, "SLURM_ARRAY_TASK_ID");
}

TEST(Check, SarifAndJunitReportsGoToTheOutputFile) {
  const std::string dir = Folder();
  const std::vector<std::string> files = ThreeModels(dir);
  const std::string sarif_path = dir + "/report.sarif", junit_path = dir + "/report.xml";
  const testproc::Result sarif = Check({"--format", "sarif", "-o", sarif_path, dir});
  EXPECT_EQ(sarif.exit_code, 1) << sarif.err;
  EXPECT_EQ(sarif.out, "");
  const json log = json::parse(ReadFile(sarif_path));
  EXPECT_EQ(log["version"], "2.1.0");
  const json& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "skelview");
  EXPECT_GE(run["tool"]["driver"]["rules"].size(), 20u);
  std::set<std::string> uris;
  for (const json& result : run["results"]) {
    EXPECT_FALSE(result["ruleId"].get<std::string>().empty());
    uris.insert(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]);
  }
  EXPECT_EQ(uris, (std::set<std::string>{"file://" + files[0], "file://" + files[2]}));
  const testproc::Result junit = Check({"--format", "junit", "-o", junit_path, dir});
  EXPECT_EQ(junit.exit_code, 1) << junit.err;
  const std::string xml = ReadFile(junit_path);
  EXPECT_THAT(xml, HasSubstr("tests=\"3\" failures=\"1\""));
  EXPECT_THAT(xml, HasSubstr("name=\"" + files[0] + "\""));
}

TEST(Check, ListRulesPrintsEachRuleWithItsSeverity) {
  const testproc::Result r = Check({"--list-rules"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  EXPECT_GE(lines.size(), 20u);
  EXPECT_THAT(lines[0], testing::MatchesRegex("load +error +The file cannot be loaded.*"));
  const std::string dir = Folder();
  WriteFile(dir + "/c.json", "{\"rules\": {\"load\": \"off\"}}");
  const testproc::Result configured = Check({"--list-rules", "--config", dir + "/c.json"});
  EXPECT_THAT(Lines(configured.out)[0], testing::MatchesRegex("load +off +.*"));
}

TEST(Check, TheConfigDecidesWhatFailsTheRun) {
  const std::string dir = Folder();
  const std::vector<std::string> files = ThreeModels(dir);
  WriteFile(dir + "/strict.json", "{\"rules\": {\"weights.not-normalized\": \"error\"}}");
  EXPECT_EQ(Check({"--config", dir + "/strict.json", files[2]}).exit_code, 1);
  WriteFile(dir + "/lenient.json", "{\"rules\": {\"load\": \"note\"}}");
  const testproc::Result lenient = Check({"--config", dir + "/lenient.json", files[0]});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.out;
  EXPECT_THAT(lenient.out, HasSubstr(": note: "));
}

TEST(Check, ImporterCrashesAreLoadFindingsAndTheRunGoesOn) {
  const std::string dir = Folder();
  const std::vector<std::string> files = ThreeModels(dir);
  const testproc::Result r = Check({"--format", "jsonl", dir}, {"SKELVIEW_TEST_WORKER_CRASH=1"});
  ASSERT_TRUE(r.exited) << r.signal;
  EXPECT_EQ(r.exit_code, 1);
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), files.size());
  for (const std::string& line : lines) {
    const json doc = json::parse(line);
    EXPECT_EQ(doc["loaded"], false);
    EXPECT_THAT(doc["findings"][0]["message"].get<std::string>(), HasSubstr("crashed"));
  }
}

// Hostile and broken files made here, the kinds the hostile-input tests make: truncated, empty,
// garbage, a FIFO, a missing file, buffers outside the folder, huge declared counts, deep JSON,
// names that are not UTF-8. Returns the paths to give `check` (the FIFO and the missing file are
// given by name: a walk finds only regular files).
std::vector<std::string> HostileFiles(const std::string& dir) {
  const std::string model = dir + "/model";
  fs::create_directories(model);
  const testgltf::Builder strip = testgltf::SkinnedStrip();
  const std::vector<uint8_t> glb = strip.Glb();
  testgltf::WriteBytes(model + "/truncated.glb",
                       std::vector<uint8_t>(glb.begin(), glb.begin() + glb.size() / 2));
  WriteFile(model + "/empty.gltf", "");
  WriteFile(model + "/garbage.fbx", std::string(3000, '\x7f'));
  WriteFile(model + "/deep.gltf", std::string(100000, '[') + std::string(100000, ']'));
  json outside = strip.Finished();
  outside["buffers"][0]["uri"] = "../secret.bin";
  testgltf::WriteBytes(dir + "/secret.bin", strip.data);
  WriteFile(model + "/outside.gltf", outside.dump());
  json huge = strip.Finished();
  huge["accessors"][0]["count"] = 4000000000u;
  WriteFile(model + "/huge-count.gltf", huge.dump());
  WriteFile(model + "/huge.off", "OFF\n999999999 999999999 0\n");
  WriteFile(model + "/latin1.obj", "o caf\xE9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  const std::string fifo = model + "/fifo.glb";
  EXPECT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  return {model, fifo, model + "/missing.glb"};
}

// Every input gets one line; files that do not load are `load` errors; the run ends by itself.
void ExpectOneLinePerInput(const testproc::Result& r, size_t inputs) {
  ASSERT_FALSE(r.timed_out);
  ASSERT_TRUE(r.exited) << "killed by signal " << r.signal;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Lines(r.out).size(), inputs) << r.out;
}

TEST(Check, HostileFilesAndTheImportRegressionsInOneRun) {
  const std::string dir = Folder();
  std::vector<std::string> args = {"--format", "jsonl"};
  const std::vector<std::string> hostile = HostileFiles(dir);
  args.insert(args.end(), hostile.begin(), hostile.end());
  args.push_back(testpaths::SourceDir() + "/tests/data");
  const testproc::Result r = Check(args);
  std::map<std::string, json> by_name;
  for (const std::string& line : Lines(r.out)) {
    const json doc = json::parse(line);
    by_name[fs::path(doc["file"].get<std::string>()).filename().string()] = doc;
  }
  ExpectOneLinePerInput(r, by_name.size());
  for (const char* name : {"truncated.glb", "empty.gltf", "garbage.fbx", "deep.gltf",
                           "outside.gltf", "huge-count.gltf", "huge.off", "fifo.glb", "missing.glb",
                           "fbx_skin_cluster_double_free.fbx", "x_mesh_count_allocates_3gb.x",
                           "gltf_skin_without_joints.glb"}) {
    ASSERT_TRUE(by_name.count(name)) << name;
    const json& findings = by_name[name]["findings"];
    ASSERT_EQ(findings.size(), 1u) << name << ": " << findings.dump();
    EXPECT_EQ(findings[0]["rule"], "load") << name;
    EXPECT_EQ(findings[0]["severity"], "error") << name;
  }
  EXPECT_THAT(
      by_name["fbx_skin_cluster_double_free.fbx"]["findings"][0]["message"].get<std::string>(),
      HasSubstr("crashed"));
  EXPECT_THAT(by_name["outside.gltf"]["findings"][0]["message"].get<std::string>(),
              HasSubstr("outside the model's folder"));
  EXPECT_EQ(by_name["latin1.obj"]["findings"][0]["rule"], "names.not-utf8");
}

TEST(Check, EverySharedModelWithTheHostileFilesInOneRun) {
  const std::string shared = testpaths::SharedModels();
  SKIP_IF_NO_MODEL(shared, "folder");
  const std::string dir = Folder();
  std::vector<std::string> args = {"--format", "jsonl", shared,
                                   testpaths::SourceDir() + "/tests/data"};
  const std::vector<std::string> hostile = HostileFiles(dir);
  args.insert(args.end(), hostile.begin(), hostile.end());
  const testproc::Result r = Check(args);
  long shared_files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(shared)) {
    const std::string ext = entry.path().extension().string();
    for (const char* model : {".gltf", ".glb", ".fbx", ".X"}) shared_files += ext == model ? 1 : 0;
  }
  std::set<std::string> files;
  for (const std::string& line : Lines(r.out)) {
    const json doc = json::parse(line);
    EXPECT_TRUE(files.insert(doc["file"]).second) << doc["file"];
    if (doc["file"].get<std::string>().rfind(shared, 0) == 0) {
      // Third-party models all load; what they get wrong is reported, not refused.
      EXPECT_TRUE(doc["loaded"].get<bool>()) << line;
      --shared_files;
    }
  }
  EXPECT_EQ(shared_files, 0);
  ExpectOneLinePerInput(r, files.size());
}

// --- render of many files --------------------------------------------------------------------

// Whether the PNG at `path` shows something besides the background: its pixels differ.
bool ShowsSomething(const std::string& path) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &channels, 4);
  if (!data) return false;
  std::set<uint32_t> colours;
  for (int i = 0; i < w * h; ++i) {
    colours.insert(uint32_t(data[4 * i]) << 16 | uint32_t(data[4 * i + 1]) << 8 | data[4 * i + 2]);
  }
  stbi_image_free(data);
  return colours.size() > 20;
}

TEST(RenderBatch, DrawsEveryModelOfAFolderInOneProcess) {
  const std::string dir = Folder();
  const std::vector<std::string> files = ThreeModels(dir + "/in");
  testgltf::WriteBytes(dir + "/in/clean.glb", testrig::Humanoid().Build().Glb());  // same stem
  fs::create_directories(dir + "/out");
  const testproc::Result r = testproc::Skelview(
      {"render", dir + "/in", "-o", dir + "/out/{name}.png", "--size", "160x120"}, 300.0);
  ASSERT_TRUE(r.exited) << r.signal;
  EXPECT_EQ(r.exit_code, 2) << r.err;  // broken.glb
  EXPECT_THAT(r.err, HasSubstr(files[0]));
  for (const char* image : {"clean.gltf.png", "clean.glb.png", "sub_warned.png"}) {
    EXPECT_TRUE(ShowsSomething(dir + "/out/" + image)) << image;
  }
  EXPECT_FALSE(fs::exists(dir + "/out/broken.png"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir + "/out"), fs::directory_iterator()), 3);
}

TEST(RenderBatch, AFolderNeedsNameInTheOutput) {
  const std::string dir = Folder();
  ThreeModels(dir);
  const testproc::Result r = testproc::Skelview({"render", dir, "-o", dir + "/x.png"}, 60.0);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("{name}"));
}

}  // namespace
