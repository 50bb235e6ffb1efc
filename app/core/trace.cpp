// --trace writer: each line goes out in one checked write(2) to a file opened in append mode.
#include "app/core/trace.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "app/core/json_output.h"
#include "assets/files/file_output.h"
#include "assets/files/text.h"

namespace app {

TraceLog::~TraceLog() {
  if (fd_ >= 0) close(fd_);
}

bool TraceLog::Open(const std::string& path, std::string* error) {
  path_ = path;
  // A FIFO nobody reads would block the viewer before its window opens: refused, and the open
  // never waits (O_NONBLOCK) in case one appears in between.
  if (const std::string problem = assets::OutputProblem(path); !problem.empty()) {
    *error = "--trace " + assets::ShownPath(path) + ": cannot write: " + problem;
    return false;
  }
  fd_ = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0666);
  if (fd_ < 0) {
    *error =
        "--trace " + assets::ShownPath(path) + ": cannot open for writing: " + std::strerror(errno);
    return false;
  }
  fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) & ~O_NONBLOCK);  // writes are checked whole
  return true;
}

void TraceLog::Write(const nlohmann::ordered_json& event) {
  if (fd_ < 0) return;
  const std::string line = DumpJson(event) + "\n";
  const char* data = line.data();
  size_t left = line.size();
  while (left > 0) {
    const ssize_t n = write(fd_, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = n < 0 ? errno : EIO;
      std::cerr << "skelview: --trace " << assets::ShownPath(path_)
                << ": cannot write: " << std::strerror(e) << "\n";
      failed_ = true;
      close(fd_);
      fd_ = -1;
      return;
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace app
