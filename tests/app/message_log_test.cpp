// The viewer's message log: entries keep their time of day and level, warnings and errors count as
// unseen until the log is seen, the text for the clipboard has one line per message, and the log
// keeps a bounded number of entries.
#include "app/window/message_log.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <string>

namespace {

using app::MessageLevel;
using app::MessageLog;

// A fixed moment, 13:04:05 local time on 2026-03-14.
std::time_t Moment() {
  std::tm local{};
  local.tm_year = 2026 - 1900;
  local.tm_mon = 2;
  local.tm_mday = 14;
  local.tm_hour = 13;
  local.tm_min = 4;
  local.tm_sec = 5;
  local.tm_isdst = -1;
  return std::mktime(&local);
}

TEST(MessageLog, EntriesKeepTheirTimeOfDayAndLevelInOrder) {
  MessageLog log;
  log.Add("opened a.glb", MessageLevel::kNote, Moment());
  log.Add("a.glb: 3 vertices had no weights", MessageLevel::kWarning, Moment() + 1);
  log.Add("b.glb: not a glTF file", MessageLevel::kError, Moment() + 62);
  ASSERT_EQ(log.entries().size(), 3u);
  EXPECT_EQ(log.entries()[0].clock, "13:04:05");
  EXPECT_EQ(log.entries()[2].clock, "13:05:07");
  EXPECT_EQ(log.last()->text, "b.glb: not a glTF file");
  EXPECT_EQ(log.Text(),
            "13:04:05 opened a.glb\n"
            "13:04:06 warning: a.glb: 3 vertices had no weights\n"
            "13:05:07 error: b.glb: not a glTF file\n");
}

TEST(MessageLog, WarningsAndErrorsAreUnseenUntilTheLogIsSeen) {
  MessageLog log;
  log.Add("undo", MessageLevel::kNote, Moment());
  EXPECT_EQ(log.unseen(), 0);  // notes raise no badge
  log.Add("a warning", MessageLevel::kWarning, Moment());
  EXPECT_EQ(log.unseen(), 1);
  EXPECT_FALSE(log.unseen_error());
  log.Add("an error", MessageLevel::kError, Moment());
  EXPECT_EQ(log.unseen(), 2);
  EXPECT_TRUE(log.unseen_error());
  log.MarkSeen();
  EXPECT_EQ(log.unseen(), 0);
  EXPECT_FALSE(log.unseen_error());
  EXPECT_EQ(log.entries().size(), 3u);  // seen, still kept
}

TEST(MessageLog, KeepsTheNewestEntriesUpToItsLimit) {
  MessageLog log;
  for (size_t i = 0; i < MessageLog::kLimit + 5; ++i) {
    log.Add("message " + std::to_string(i), MessageLevel::kNote, Moment());
  }
  ASSERT_EQ(log.entries().size(), MessageLog::kLimit);
  EXPECT_EQ(log.entries().front().text, "message 5");
  log.Clear();
  EXPECT_EQ(log.last(), nullptr);
  EXPECT_EQ(log.Text(), "");
}

}  // namespace
