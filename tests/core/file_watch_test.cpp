// FileWatch: a change is reported once it has settled, once; a file being written, a file that
// is gone and a file that did not change are not changes; polls are spaced by the interval.
#include "app/core/file_watch.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/test_paths.h"

namespace app {
namespace {

using std::chrono::milliseconds;

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(FileWatch, ReportsASettledChangeOnce) {
  const std::string path = testpaths::TempDir() + "/model.glb";
  WriteText(path, "one");
  FileWatch watch;
  watch.Watch(path);
  FileWatch::Clock::time_point t{};
  const auto poll = [&] {
    t += milliseconds(600);
    return watch.Changed(t);
  };
  EXPECT_FALSE(poll());  // nothing changed
  WriteText(path, "two, longer");
  EXPECT_FALSE(poll());  // seen, not yet settled
  EXPECT_TRUE(poll());   // the same a poll later: reported
  EXPECT_FALSE(poll());  // once
  EXPECT_FALSE(poll());
}

TEST(FileWatch, WaitsWhileTheFileIsStillBeingWritten) {
  const std::string path = testpaths::TempDir() + "/growing.glb";
  WriteText(path, "a");
  FileWatch watch;
  watch.Watch(path);
  FileWatch::Clock::time_point t{};
  std::string text = "a";
  for (int i = 0; i < 5; ++i) {
    text += "more";
    WriteText(path, text);  // a different size at every poll
    t += milliseconds(600);
    EXPECT_FALSE(watch.Changed(t)) << i;
  }
  t += milliseconds(600);
  EXPECT_TRUE(watch.Changed(t));
}

TEST(FileWatch, AFileThatIsGoneIsNoChangeUntilItIsBack) {
  const std::string path = testpaths::TempDir() + "/gone.glb";
  WriteText(path, "x");
  FileWatch watch;
  watch.Watch(path);
  FileWatch::Clock::time_point t{};
  std::filesystem::remove(path);
  for (int i = 0; i < 3; ++i) {
    t += milliseconds(600);
    EXPECT_FALSE(watch.Changed(t));
  }
  WriteText(path, "xy");  // written again by rename or in place: another inode or size
  t += milliseconds(600);
  EXPECT_FALSE(watch.Changed(t));
  t += milliseconds(600);
  EXPECT_TRUE(watch.Changed(t));
}

TEST(FileWatch, PollsAtMostEveryInterval) {
  const std::string path = testpaths::TempDir() + "/spaced.glb";
  WriteText(path, "x");
  FileWatch watch;
  watch.Watch(path);
  FileWatch::Clock::time_point t{};
  t += milliseconds(600);
  EXPECT_FALSE(watch.Changed(t));
  WriteText(path, "changed");
  // Within the interval nothing is read: the change is not even seen yet.
  EXPECT_FALSE(watch.Changed(t + milliseconds(100)));
  EXPECT_FALSE(watch.Changed(t + milliseconds(400)));
  EXPECT_FALSE(watch.Changed(t + milliseconds(600)));  // seen
  EXPECT_TRUE(watch.Changed(t + milliseconds(1200)));  // settled
}

TEST(FileWatch, WatchingNothingNeverChanges) {
  FileWatch watch;
  EXPECT_FALSE(watch.Changed(FileWatch::Clock::now()));
  watch.Watch("");
  EXPECT_FALSE(watch.Changed(FileWatch::Clock::now()));
}

}  // namespace
}  // namespace app
