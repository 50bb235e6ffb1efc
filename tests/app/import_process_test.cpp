// The import worker process: a model comes back whole, progress is reported, a running import can
// be cancelled, and a missing file is an error naming it.
#include "app/import_process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "assets/builtin_character.h"
#include "assets/exporter.h"
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

TEST(ImportProcess, MemoryLimitGrowsWithTheFileButStaysBelowTheMachine) {
  const size_t small = app::DefaultImportMemoryLimit(32);
  const size_t big = app::DefaultImportMemoryLimit(size_t(100) << 20);
  EXPECT_GE(small, size_t(1) << 30);
  EXPECT_GT(big, small);
  EXPECT_LT(app::DefaultImportMemoryLimit(size_t(1) << 40), size_t(1) << 40);
}

}  // namespace
