// Recent files kept between runs, and the File ▸ Open listing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "app/window/file_browser.h"
#include "app/window/recent_files.h"
#include "tests/test_paths.h"

namespace {

namespace fs = std::filesystem;
using testing::ElementsAre;

std::string Fresh(const std::string& name) {
  const std::string dir = testpaths::TempDir() + "/" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void Touch(const std::string& path, size_t bytes = 1) {
  std::ofstream out(path, std::ios::binary);
  out << std::string(bytes, 'x');
}

TEST(RecentFiles, NewestFirstWithoutDuplicatesAndLimited) {
  const std::string dir = Fresh("recent1");
  app::RecentFiles recent(dir + "/config/skelview/recent-files", /*limit=*/3);
  recent.Add("/m/a.glb");
  recent.Add("/m/b.glb");
  recent.Add("/m/a.glb");  // opened again: moves to the front
  recent.Add("/m/c.fbx");
  recent.Add("/m/d.dae");  // pushes the oldest out
  EXPECT_THAT(recent.paths(), ElementsAre("/m/d.dae", "/m/c.fbx", "/m/a.glb"));
}

TEST(RecentFiles, SurviveARestart) {
  const std::string dir = Fresh("recent2");
  const std::string store = dir + "/config/skelview/recent-files";  // directory made on save
  {
    app::RecentFiles recent(store);
    recent.Add("/models/x.glb");
    recent.Add("relative/y.gltf");
    std::string error;
    ASSERT_TRUE(recent.Save(&error)) << error;
  }
  app::RecentFiles again(store);
  again.Load();
  ASSERT_EQ(again.paths().size(), 2u);
  EXPECT_TRUE(fs::path(again.paths()[0]).is_absolute()) << "relative paths are stored absolute";
  EXPECT_EQ(fs::path(again.paths()[0]).filename(), "y.gltf");
  EXPECT_EQ(again.paths()[1], "/models/x.glb");
}

TEST(RecentFiles, FailedSaveKeepsThePreviousList) {
  const std::string dir = Fresh("recent-full");
  const std::string store = dir + "/recent-files";
  app::RecentFiles recent(store, /*limit=*/10);
  recent.Add("/models/kept.glb");
  std::string error;
  ASSERT_TRUE(recent.Save(&error)) << error;
  // Ten long paths do not fit under a 2 KiB file-size limit: the save fails as a full disk would.
  for (int i = 0; i < 10; ++i) recent.Add("/models/" + std::string(400, 'a' + char(i)) + ".glb");
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 2048;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const bool saved = recent.Save(&error);
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_FALSE(saved);
  EXPECT_THAT(error, testing::HasSubstr(store));
  EXPECT_THAT(error, testing::HasSubstr("File too large"));
  app::RecentFiles again(store);
  again.Load();
  EXPECT_THAT(again.paths(), ElementsAre("/models/kept.glb"));
  EXPECT_EQ(fs::directory_iterator(dir)->path().filename(), "recent-files");  // nothing else
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(RecentFiles, MissingStoreIsAnEmptyList) {
  app::RecentFiles recent(Fresh("recent3") + "/nothing-here");
  recent.Load();
  EXPECT_TRUE(recent.paths().empty());
}

TEST(RecentFiles, DefaultStoreFollowsXdgConfigHome) {
  setenv("XDG_CONFIG_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(app::RecentFiles::DefaultStorePath(), "/tmp/xdg-test/skelview/recent-files");
  unsetenv("XDG_CONFIG_HOME");
}

TEST(ListDirectory, FoldersFirstThenModelFilesOnly) {
  const std::string dir = Fresh("listing");
  fs::create_directories(dir + "/Zeta");
  fs::create_directories(dir + "/alpha");
  fs::create_directories(dir + "/.hidden_dir");
  Touch(dir + "/walk.GLB", 100);
  Touch(dir + "/b.fbx");
  Touch(dir + "/a.gltf");
  Touch(dir + "/notes.txt");
  Touch(dir + "/.secret.glb");
  std::vector<app::DirectoryEntry> entries;
  std::string error;
  ASSERT_TRUE(app::ListDirectory(dir, false, false, &entries, &error)) << error;
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(e.name);
  EXPECT_THAT(names, ElementsAre("alpha", "Zeta", "a.gltf", "b.fbx", "walk.GLB"));
  EXPECT_TRUE(entries[0].is_directory);
  EXPECT_EQ(entries[4].size, 100u);
  ASSERT_TRUE(
      app::ListDirectory(dir, /*show_all_files=*/true, /*show_hidden=*/true, &entries, &error));
  names.clear();
  for (const auto& e : entries) names.push_back(e.name);
  EXPECT_THAT(names, testing::Contains("notes.txt"));
  EXPECT_THAT(names, testing::Contains(".secret.glb"));
  EXPECT_THAT(names, testing::Contains(".hidden_dir"));
}

TEST(ListDirectory, ChoosingAGroundMeshListsGlbAndGltfOnly) {
  const std::string dir = Fresh("ground-listing");
  fs::create_directories(dir + "/terrain");
  Touch(dir + "/hill.GLB");
  Touch(dir + "/steps.gltf");
  Touch(dir + "/rock.fbx");
  Touch(dir + "/walk.skelview");
  Touch(dir + "/notes.txt");
  std::vector<app::DirectoryEntry> entries;
  std::string error;
  ASSERT_TRUE(app::ListDirectory(dir, false, false, &entries, &error, app::BrowseFor::kGroundMesh))
      << error;
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(e.name);
  EXPECT_THAT(names, ElementsAre("terrain", "hill.GLB", "steps.gltf"));
}

TEST(ListDirectory, UnreadableFolderIsAnErrorNamingIt) {
  std::vector<app::DirectoryEntry> entries;
  std::string error;
  EXPECT_FALSE(app::ListDirectory("/no/such/folder", false, false, &entries, &error));
  EXPECT_THAT(error, testing::HasSubstr("/no/such/folder"));
}

}  // namespace
