// The viewer's message log: every note, warning and error of the session with its time of day,
// what the user has not seen yet (the menu bar's badge) and the whole log as copyable text.
#pragma once

#include <chrono>
#include <ctime>
#include <deque>
#include <string>

namespace app {

enum class MessageLevel { kNote, kWarning, kError };

struct LogEntry {
  std::string text;
  MessageLevel level = MessageLevel::kNote;
  std::string clock;                              // local time of day, "HH:MM:SS"
  std::chrono::steady_clock::time_point arrived;  // for the toast's few seconds
};

class MessageLog {
 public:
  // The most entries kept; older ones are dropped first.
  static constexpr size_t kLimit = 2000;

  // Appends an entry stamped with `now` (local time). Warnings and errors count as unseen until
  // MarkSeen.
  void Add(const std::string& text, MessageLevel level, std::time_t now = std::time(nullptr));
  void Clear();
  // The user has seen everything so far (the log window is open).
  void MarkSeen();

  const std::deque<LogEntry>& entries() const { return entries_; }
  // The newest entry; nullptr when the log is empty.
  const LogEntry* last() const { return entries_.empty() ? nullptr : &entries_.back(); }
  // Warnings and errors added since the last MarkSeen, and whether one of them is an error.
  int unseen() const { return unseen_; }
  bool unseen_error() const { return unseen_error_; }
  // One entry as a line of text, "12:03:04 error: TEXT" (notes without a level word).
  static std::string Line(const LogEntry& entry);
  // Every entry, one Line per line, oldest first: what "Copy all" puts on the clipboard.
  std::string Text() const;

  bool open = false;  // the log window is shown

 private:
  std::deque<LogEntry> entries_;
  int unseen_ = 0;
  bool unseen_error_ = false;
};

}  // namespace app
