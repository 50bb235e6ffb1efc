// The import worker process: a model comes back whole, progress is reported, a running import can
// be cancelled, a missing file is an error naming it, any file name reaches the worker as a file,
// and the worker dies with skelview.
#include "app/core/import_process.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/core/sandbox.h"
#include "assets/builtin/builtin_character.h"
#include "assets/export/exporter.h"
#include "assets/files/model_io.h"
#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

app::ImportLimits WorkerLimits() {
  app::ImportLimits limits;
  limits.worker_executable = testpaths::SkelviewBinary();  // this test binary is not skelview
  limits.timeout_seconds = 60.0;
  return limits;
}

std::string ExportedBuiltin() {
  static const std::string path = [] {
    const std::string p = testpaths::TempDir() + "/worker-builtin.glb";
    std::string error;
    EXPECT_TRUE(assets::ExportGltf(assets::MakeBuiltinCharacter(), p, &error)) << error;
    return p;
  }();
  return path;
}

TEST(ImportProcess, BringsTheModelBackWhole) {
  app::ImportProcess import;
  ASSERT_TRUE(import.Start(ExportedBuiltin(), WorkerLimits()));
  EXPECT_EQ(import.state(), app::ImportProcess::State::kRunning);
  while (import.Poll(100) == app::ImportProcess::State::kRunning) {
  }
  ASSERT_EQ(import.state(), app::ImportProcess::State::kDone) << import.error();
  EXPECT_FLOAT_EQ(import.progress(), 1.0f);
  const assets::Model model = import.TakeModel();
  const assets::Model original = assets::MakeBuiltinCharacter();
  EXPECT_EQ(model.skeleton.joint_count(), original.skeleton.joint_count());
  EXPECT_EQ(model.vertex_count(), original.vertex_count());
  EXPECT_EQ(model.clips.size(), original.clips.size());
}

TEST(ImportProcess, SourceFilesComeBackThroughTheWorker) {
  // A .gltf with its buffer beside it: the model streamed back lists both files it was read from
  // (used to keep exports from overwriting them).
  const std::string dir = testpaths::TempDir() + "/worker-sources";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string gltf = dir + "/hero.gltf";
  std::string error;
  ASSERT_TRUE(assets::ExportGltf(assets::MakeBuiltinCharacter(), gltf, &error)) << error;
  assets::Model model;
  ASSERT_TRUE(app::ImportIsolated(gltf, &model, &error, WorkerLimits())) << error;
  const std::string real_dir = std::filesystem::canonical(dir).string();
  EXPECT_EQ(model.source_files,
            (std::vector<std::string>{real_dir + "/hero.gltf", real_dir + "/hero.bin"}));
}

TEST(ImportProcess, CancelStopsTheWorkerAtOnce) {
  app::ImportProcess import;
  ASSERT_TRUE(import.Start(ExportedBuiltin(), WorkerLimits()));
  import.Cancel();
  EXPECT_EQ(import.state(), app::ImportProcess::State::kFailed);
  EXPECT_THAT(import.error(), testing::HasSubstr("cancelled"));
  EXPECT_THAT(import.error(), testing::HasSubstr(ExportedBuiltin()));
  // Polling after the cancel changes nothing.
  EXPECT_EQ(import.Poll(10), app::ImportProcess::State::kFailed);
}

TEST(ImportProcess, MissingFileIsAnErrorNamingIt) {
  assets::Model model;
  std::string error;
  EXPECT_FALSE(app::ImportIsolated("/no/such/model.glb", &model, &error, WorkerLimits()));
  EXPECT_THAT(error, testing::HasSubstr("/no/such/model.glb"));
}

// A stand-in worker that sends `payload` on its stdout and exits 0, as a worker corrupted by a
// malformed file might.
app::ImportLimits FakeWorker(const std::string& name, const std::string& payload) {
  const std::string dir = testpaths::TempDir();
  const std::string data = dir + "/" + name + ".bin", script = dir + "/" + name + ".sh";
  std::ofstream(data, std::ios::binary) << payload;
  std::ofstream(script) << "#!/bin/sh\ncat '" << data << "'\n";
  EXPECT_EQ(chmod(script.c_str(), 0755), 0);
  app::ImportLimits limits;
  limits.worker_executable = script;
  limits.timeout_seconds = 60.0;
  limits.memory_bytes = size_t{1} << 30;
  return limits;
}

std::string SizeThen(uint64_t size, const std::string& bytes) {
  return std::string(reinterpret_cast<const char*>(&size), sizeof(size)) + bytes;
}

std::string ImportError(const app::ImportLimits& limits) {
  assets::Model model;
  std::string error;
  EXPECT_FALSE(app::ImportIsolated("/some/model.glb", &model, &error, limits));
  EXPECT_THAT(error, testing::HasSubstr("/some/model.glb"));
  return error;
}

TEST(ImportProcess, ModelLargerThanTheWorkersMemoryIsRefusedUnread) {
  // The announced size is checked before anything is allocated for it.
  EXPECT_THAT(ImportError(FakeWorker("huge", SizeThen(uint64_t{1} << 62, "SKVMODEL"))),
              testing::HasSubstr("more than"));
}

TEST(ImportProcess, TruncatedOrOverlongModelFromTheWorkerIsAnError) {
  const std::string model = assets::SerializeModel(assets::MakeBuiltinCharacter());
  EXPECT_THAT(ImportError(FakeWorker("nothing", "")), testing::HasSubstr("sent no model"));
  EXPECT_THAT(ImportError(FakeWorker("half", SizeThen(model.size(), model.substr(0, 5000)))),
              testing::HasSubstr("the stream ended"));
  EXPECT_THAT(ImportError(FakeWorker("extra", SizeThen(model.size(), model + "x"))),
              testing::HasSubstr("after the model"));
  // Refused at its first bytes while the worker still has megabytes to send: the rest is
  // drained, so the worker is not left blocked on a full pipe until the timeout.
  app::ImportLimits garbage =
      FakeWorker("garbage", SizeThen(model.size(), "NOTMODEL" + model.substr(8)));
  garbage.timeout_seconds = 20.0;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(ImportError(garbage), testing::HasSubstr("bad magic"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  // The same bytes, whole, come through.
  assets::Model back;
  std::string error;
  EXPECT_TRUE(app::ImportIsolated("/some/model.glb", &back, &error,
                                  FakeWorker("whole", SizeThen(model.size(), model))))
      << error;
  EXPECT_EQ(back.vertex_count(), assets::MakeBuiltinCharacter().vertex_count());
}

// A stand-in worker that writes its arguments, one per line, to `record` and fails.
app::ImportLimits RecordingWorker(const std::string& name, const std::string& record) {
  const std::string script = testpaths::TempDir() + "/" + name + ".sh";
  std::ofstream(script) << "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" << record
                        << "'\necho 'error recorded' >&2\nexit 2\n";
  EXPECT_EQ(chmod(script.c_str(), 0755), 0);
  app::ImportLimits limits;
  limits.worker_executable = script;
  limits.timeout_seconds = 60.0;
  return limits;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ImportProcess, FileGoesAfterDoubleDashWithTheOutsideFilesFlagBeforeIt) {
  const std::string record = testpaths::TempDir() + "/args.txt";
  assets::Model model;
  std::string error;
  EXPECT_FALSE(app::ImportIsolated("--help", &model, &error, RecordingWorker("rec1", record)));
  EXPECT_EQ(ReadText(record), "import-worker\n--\n--help\n");
  app::ImportLimits outside = RecordingWorker("rec2", record);
  outside.allow_outside_files = true;
  EXPECT_FALSE(app::ImportIsolated("-x.glb", &model, &error, outside));
  EXPECT_EQ(ReadText(record), "import-worker\n--allow-outside-files\n--\n-x.glb\n");
}

TEST(ImportProcess, FileNamesThatLookLikeOptionsLoad) {
  // Relative names starting with '-', as a user in that folder would type them.
  const std::string dir = testpaths::TempDir() + "/dashes";
  std::filesystem::create_directories(dir);
  for (const char* name : {"-x.glb", "--help.glb", "--allow-outside-files.glb"}) {
    std::filesystem::copy_file(ExportedBuiltin(), dir + "/" + name,
                               std::filesystem::copy_options::overwrite_existing);
  }
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  for (const char* name : {"-x.glb", "--help.glb", "--allow-outside-files.glb"}) {
    assets::Model model;
    std::string error;
    EXPECT_TRUE(app::ImportIsolated(name, &model, &error, WorkerLimits())) << name << ": " << error;
    EXPECT_EQ(model.skeleton.joint_count(), 22) << name;
  }
  std::filesystem::current_path(before);
}

TEST(ImportProcess, WorkerDiesWhenItsParentIsKilled) {
  // A worker that would wait five minutes, started by a child process that is then killed.
  const std::string script = testpaths::TempDir() + "/sleeper.sh";
  std::ofstream(script) << "#!/bin/sh\nexec sleep 300\n";
  ASSERT_EQ(chmod(script.c_str(), 0755), 0);
  const pid_t parent = fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    app::ImportLimits limits;
    limits.worker_executable = script;
    limits.timeout_seconds = 600.0;
    assets::Model model;
    std::string error;
    app::ImportIsolated("/some/model.glb", &model, &error, limits);
    _exit(0);
  }
  const std::vector<int> workers = testproc::WaitForChildren(parent, 20.0);
  ASSERT_EQ(workers.size(), 1u);
  kill(parent, SIGKILL);
  waitpid(parent, nullptr, 0);
  EXPECT_TRUE(testproc::WaitUntilGone(workers[0], 10.0)) << "the worker outlived its parent";
  kill(workers[0], SIGKILL);  // in case it did
}

TEST(ImportProcess, MemoryLimitGrowsWithTheFileButStaysBelowTheMachine) {
  const size_t small = app::DefaultImportMemoryLimit(32);
  const size_t big = app::DefaultImportMemoryLimit(size_t(100) << 20);
  EXPECT_GE(small, size_t(1) << 30);
  EXPECT_GT(big, small);
  EXPECT_LT(app::DefaultImportMemoryLimit(size_t(1) << 40), size_t(1) << 40);
}

}  // namespace

namespace {

// Runs `probe` in a child process after EnterImportSandbox; its exit code (0: the probe found
// what it expected).
int InSandbox(const std::function<int()>& probe) {
  const pid_t child = fork();
  if (child == 0) {
    const app::SandboxStatus status = app::EnterImportSandbox();
    _exit(status.seccomp ? probe() : 100);
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 200 + WTERMSIG(status);
}

TEST(ImportSandbox, TheWorkerCannotOpenAFileForWriting) {
  const std::string dir = testpaths::TempDir() + "/sandbox";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string existing = dir + "/existing.txt";
  std::ofstream(existing) << "kept";
  const std::string fresh = dir + "/fresh.txt";
  EXPECT_EQ(InSandbox([&] {
              // Reading still works: the worker's whole job.
              const int read_fd = open(existing.c_str(), O_RDONLY | O_CLOEXEC);
              if (read_fd < 0) return 1;
              char byte = 0;
              if (read(read_fd, &byte, 1) != 1 || byte != 'k') return 2;
              close(read_fd);
              for (int flags : {O_WRONLY, O_RDWR, O_WRONLY | O_CREAT, O_RDONLY | O_TRUNC,
                                O_WRONLY | O_APPEND}) {
                if (open(existing.c_str(), flags | O_CLOEXEC, 0644) >= 0) return 3;
                if (errno != EACCES) return 4;
              }
              if (open(fresh.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644) >= 0) return 5;
              if (creat(fresh.c_str(), 0644) >= 0) return 6;
              if (unlink(existing.c_str()) == 0 || rename(existing.c_str(), fresh.c_str()) == 0)
                return 7;
              if (mkdir((dir + "/new").c_str(), 0755) == 0) return 8;
              if (truncate(existing.c_str(), 0) == 0) return 9;
              return 0;
            }),
            0);
  std::ifstream in(existing);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "kept");
  EXPECT_FALSE(std::filesystem::exists(fresh));
  EXPECT_FALSE(std::filesystem::exists(dir + "/new"));
}

TEST(ImportSandbox, TheWorkerCannotStartProcessesOrReachTheNetworkButMayUseThreads) {
  EXPECT_EQ(InSandbox([] {
              if (fork() >= 0) return 1;  // (a child would exit at once: _exit below)
              if (socket(AF_INET, SOCK_STREAM, 0) >= 0) return 2;
              if (socket(AF_UNIX, SOCK_STREAM, 0) >= 0) return 3;
              char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
              execv(argv[0], argv);
              if (kill(getppid(), 0) == 0) return 4;  // another process: no signal
              int value = 0;
              std::thread thread([&value] { value = 42; });
              thread.join();
              if (value != 42) return 5;
              // The process's own signals still work (abort() and raise() use them).
              if (kill(getpid(), 0) != 0) return 6;
              return 0;
            }),
            0);
}

}  // namespace
