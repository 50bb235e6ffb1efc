// The viewer's --trace log: one JSON object per line per event, appended and written at once so a
// script can follow it while the window runs. A failed write is reported once and remembered, so
// the viewer can exit 1.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace app {

class TraceLog {
 public:
  TraceLog() = default;
  ~TraceLog();
  TraceLog(const TraceLog&) = delete;
  TraceLog& operator=(const TraceLog&) = delete;

  // Opens `path` for appending (creating it); false with "--trace PATH: cannot open for writing:
  // <reason>" when it cannot.
  bool Open(const std::string& path, std::string* error);
  bool is_open() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  // Writes `event` as one line with a single write (no-op when not open). When that fails
  // (disk full, /dev/full, file-size limit) the first failure prints "skelview: --trace PATH:
  // cannot write: <reason>" on stderr, the log stops, and failed() becomes true.
  void Write(const nlohmann::ordered_json& event);
  bool failed() const { return failed_; }

 private:
  int fd_ = -1;
  std::string path_;
  bool failed_ = false;
};

}  // namespace app
