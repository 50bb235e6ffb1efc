// --trace writer.
#include "app/core/trace.h"

#include <cerrno>
#include <cstring>

namespace app {

TraceLog::~TraceLog() {
  if (file_) std::fclose(file_);
}

bool TraceLog::Open(const std::string& path, std::string* error) {
  file_ = std::fopen(path.c_str(), "a");
  if (!file_) {
    *error = "--trace " + path + ": cannot open for writing: " + std::strerror(errno);
    return false;
  }
  return true;
}

void TraceLog::Write(const nlohmann::ordered_json& event) {
  if (!file_) return;
  const std::string line = event.dump() + "\n";
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

}  // namespace app
