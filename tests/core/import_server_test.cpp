// The import fork server: a fresh worker per file, models brought back whole, a crashing or hanging
// file costing only its own worker, and the server and its workers dying with their owner.
#include "app/core/import_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "app/core/import_process.h"
#include "assets/builtin/builtin_character.h"
#include "assets/export/exporter.h"
#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

std::string ExportedBuiltin() {
  static const std::string path = [] {
    const std::string p = testpaths::TempDir() + "/server-builtin.glb";
    std::string error;
    EXPECT_TRUE(assets::ExportGltf(assets::MakeBuiltinCharacter(), p, &error)) << error;
    return p;
  }();
  return path;
}

app::ImportLimits Through(app::ImportServer* server, double timeout_seconds = 60.0) {
  app::ImportLimits limits;
  limits.server = server;
  limits.timeout_seconds = timeout_seconds;
  return limits;
}

TEST(ImportServer, ForksAFreshWorkerPerFileAndBringsEachModelBack) {
  app::ImportServer server;
  std::string error;
  ASSERT_TRUE(server.Start(testpaths::SkelviewBinary(), &error)) << error;
  for (int i = 0; i < 3; ++i) {
    app::ImportProcess import;
    ASSERT_TRUE(import.Start(ExportedBuiltin(), Through(&server))) << import.error();
    while (import.Poll(100) == app::ImportProcess::State::kRunning) {
    }
    ASSERT_EQ(import.state(), app::ImportProcess::State::kDone) << import.error();
    const assets::Model model = import.TakeModel();
    EXPECT_EQ(model.skeleton.joint_count(), assets::MakeBuiltinCharacter().skeleton.joint_count());
  }
  EXPECT_TRUE(server.running());
}

TEST(ImportServer, ACrashingFileCostsOnlyItsWorker) {
  const std::string crash =
      testpaths::SourceDir() + "/tests/data/import/crashes/fbx_skin_cluster_double_free.fbx";
  app::ImportServer server;
  std::string error;
  ASSERT_TRUE(server.Start(testpaths::SkelviewBinary(), &error)) << error;
  assets::Model model;
  EXPECT_FALSE(app::ImportIsolated(crash, &model, &error, Through(&server)));
  EXPECT_THAT(error, testing::HasSubstr("the importer crashed on " + crash));
  EXPECT_TRUE(app::ImportIsolated(ExportedBuiltin(), &model, &error, Through(&server))) << error;
  EXPECT_EQ(model.skeleton.joint_count(), assets::MakeBuiltinCharacter().skeleton.joint_count());
  EXPECT_FALSE(app::ImportIsolated("/no/such/model.glb", &model, &error, Through(&server)));
  EXPECT_THAT(error, testing::HasSubstr("/no/such/model.glb"));
}

TEST(ImportServer, AHangingWorkerIsStoppedAtItsDeadlineOrOnCancelAndTheServerGoesOn) {
  // Every worker of this server hangs (fault injection through its environment).
  setenv("SKELVIEW_TEST_WORKER_HANG", "1", 1);
  app::ImportServer server;
  std::string error;
  const bool started = server.Start(testpaths::SkelviewBinary(), &error);
  unsetenv("SKELVIEW_TEST_WORKER_HANG");
  ASSERT_TRUE(started) << error;
  assets::Model model;
  EXPECT_FALSE(app::ImportIsolated(ExportedBuiltin(), &model, &error, Through(&server, 1.0)));
  EXPECT_THAT(error, testing::HasSubstr("took longer than 1 s"));
  app::ImportProcess import;
  ASSERT_TRUE(import.Start(ExportedBuiltin(), Through(&server))) << import.error();
  EXPECT_EQ(import.Poll(200), app::ImportProcess::State::kRunning);
  import.Cancel();
  EXPECT_THAT(import.error(), testing::HasSubstr("cancelled"));
  // The server still answers: the next worker is started (and hangs, and is stopped).
  EXPECT_TRUE(server.running());
  EXPECT_FALSE(app::ImportIsolated(ExportedBuiltin(), &model, &error, Through(&server, 1.0)));
  EXPECT_THAT(error, testing::HasSubstr("took longer than 1 s"));
}

TEST(ImportServer, TheServerAndItsWorkerDieWithTheirOwner) {
  // A child process owns a server whose worker hangs; killing the child ends both.
  const pid_t owner = fork();
  ASSERT_GE(owner, 0);
  if (owner == 0) {
    setenv("SKELVIEW_TEST_WORKER_HANG", "1", 1);
    app::ImportServer server;
    std::string error;
    if (!server.Start(testpaths::SkelviewBinary(), &error)) _exit(1);
    assets::Model model;
    app::ImportIsolated(ExportedBuiltin(), &model, &error, Through(&server, 600.0));
    _exit(0);
  }
  const std::vector<int> servers = testproc::WaitForChildren(owner, 20.0);
  ASSERT_EQ(servers.size(), 1u);
  const std::vector<int> workers = testproc::WaitForChildren(servers[0], 20.0);
  ASSERT_EQ(workers.size(), 1u);
  kill(owner, SIGKILL);
  waitpid(owner, nullptr, 0);
  EXPECT_TRUE(testproc::WaitUntilGone(servers[0], 10.0)) << "the server outlived its owner";
  EXPECT_TRUE(testproc::WaitUntilGone(workers[0], 10.0)) << "the worker outlived its server";
  kill(workers[0], SIGKILL);  // in case they did
  kill(servers[0], SIGKILL);
}

TEST(ImportServer, NotStartedRefusesToSpawn) {
  app::ImportServer server;
  std::string error;
  EXPECT_FALSE(server.running());
  EXPECT_EQ(server.Spawn("x.glb", false, false, true, 0, 1, 2, &error), -1);
  EXPECT_THAT(error, testing::HasSubstr("not running"));
}

}  // namespace
