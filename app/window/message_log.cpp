// The message log.
#include "app/window/message_log.h"

namespace app {

void MessageLog::Add(const std::string& text, MessageLevel level, std::time_t now) {
  LogEntry entry;
  entry.text = text;
  entry.level = level;
  std::tm local{};
  localtime_r(&now, &local);
  char clock[16];
  std::strftime(clock, sizeof(clock), "%H:%M:%S", &local);
  entry.clock = clock;
  entry.arrived = std::chrono::steady_clock::now();
  entries_.push_back(std::move(entry));
  if (entries_.size() > kLimit) entries_.pop_front();
  if (level != MessageLevel::kNote) {
    ++unseen_;
    unseen_error_ |= level == MessageLevel::kError;
  }
}

void MessageLog::Clear() {
  entries_.clear();
  MarkSeen();
}

void MessageLog::MarkSeen() {
  unseen_ = 0;
  unseen_error_ = false;
}

std::string MessageLog::Line(const LogEntry& entry) {
  const char* level = entry.level == MessageLevel::kError     ? " error: "
                      : entry.level == MessageLevel::kWarning ? " warning: "
                                                              : " ";
  return entry.clock + level + entry.text;
}

std::string MessageLog::Text() const {
  std::string text;
  for (const LogEntry& entry : entries_) text += Line(entry) + "\n";
  return text;
}

}  // namespace app
