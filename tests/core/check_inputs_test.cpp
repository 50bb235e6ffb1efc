// The input list of `skelview check`: folders walked for model files, sorted, repeats removed;
// shards that split it into deterministic parts whose union is the whole list.
#include "app/core/check_inputs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "tests/test_paths.h"

namespace {

namespace fs = std::filesystem;

void Touch(const std::string& path) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << "x";
}

TEST(CheckInputs, FoldersAreWalkedForModelFilesAndTheListIsSorted) {
  const std::string root = testpaths::TempDir() + "/inputs";
  fs::remove_all(root);
  Touch(root + "/b/walk.GLB");
  Touch(root + "/a.gltf");
  Touch(root + "/a.bin");      // a buffer, not a model
  Touch(root + "/notes.txt");  // not a model format
  Touch(root + "/c/d/hero.fbx");
  fs::create_directory_symlink(root + "/c", root + "/loop");  // not entered
  const std::vector<std::string> files =
      app::CollectInputs({root, root + "/a.gltf", root + "/notes.txt"});
  EXPECT_EQ(files, (std::vector<std::string>{root + "/a.gltf", root + "/b/walk.GLB",
                                             root + "/c/d/hero.fbx", root + "/notes.txt"}));
}

TEST(CheckInputs, MissingFilesStayInTheListToBeReported) {
  EXPECT_EQ(app::CollectInputs({"no/such.glb", "a.glb"}),
            (std::vector<std::string>{"a.glb", "no/such.glb"}));
}

TEST(CheckInputs, ShardsCoverTheListOnceInOrder) {
  std::vector<std::string> files;
  for (int i = 0; i < 23; ++i) files.push_back("f" + std::to_string(100 + i));
  for (int count : {1, 2, 3, 7, 23, 40}) {
    std::vector<std::string> joined;
    for (int index = 0; index < count; ++index) {
      const std::vector<std::string> part = app::ShardOf(files, {index, count});
      EXPECT_LE(part.size(), files.size() / static_cast<size_t>(count) + 1);
      joined.insert(joined.end(), part.begin(), part.end());
    }
    EXPECT_EQ(joined, files) << count << " shards";
  }
}

TEST(CheckInputs, ShardArguments) {
  app::Shard shard;
  std::string error;
  ASSERT_TRUE(app::ParseShard("2/5", nullptr, nullptr, &shard, &error)) << error;
  EXPECT_EQ(shard.index, 2);
  EXPECT_EQ(shard.count, 5);
  ASSERT_TRUE(app::ParseShard("4", "3", "SLURM_ARRAY_TASK_ID", &shard, &error)) << error;
  EXPECT_EQ(shard.index, 3);
  EXPECT_EQ(shard.count, 4);
  EXPECT_FALSE(app::ParseShard("5/5", nullptr, nullptr, &shard, &error));
  EXPECT_THAT(error, testing::HasSubstr("--shard '5/5'"));
  EXPECT_FALSE(app::ParseShard("x/2", nullptr, nullptr, &shard, &error));
  EXPECT_FALSE(app::ParseShard("4", nullptr, nullptr, &shard, &error));
  EXPECT_THAT(error, testing::HasSubstr("SLURM_ARRAY_TASK_ID"));
  EXPECT_FALSE(app::ParseShard("4", "4", "JOB_COMPLETION_INDEX", &shard, &error));
  EXPECT_THAT(error, testing::HasSubstr("JOB_COMPLETION_INDEX='4'"));
  EXPECT_FALSE(app::ParseShard("0", "0", "JOB_COMPLETION_INDEX", &shard, &error));
}

}  // namespace
