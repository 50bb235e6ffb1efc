// The viewer's --trace log: one JSON object per line per event, appended and flushed at once so a
// script can follow it while the window runs.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace app {

class TraceLog {
 public:
  TraceLog() = default;
  ~TraceLog();
  TraceLog(const TraceLog&) = delete;
  TraceLog& operator=(const TraceLog&) = delete;

  // Opens `path` for appending; false with a message naming the path when it cannot.
  bool Open(const std::string& path, std::string* error);
  bool is_open() const { return file_ != nullptr; }
  // Writes `event` as one line (no-op when not open).
  void Write(const nlohmann::ordered_json& event);

 private:
  std::FILE* file_ = nullptr;
};

}  // namespace app
