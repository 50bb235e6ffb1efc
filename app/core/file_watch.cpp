// Polling a file's stamp.
#include "app/core/file_watch.h"

#include <sys/stat.h>

namespace app {

FileWatch::Stamp FileWatch::Read() const {
  Stamp stamp;
  struct stat info {};
  if (path_.empty() || ::stat(path_.c_str(), &info) != 0) return stamp;
  stamp.exists = true;
  stamp.mtime_ns = static_cast<long long>(info.st_mtim.tv_sec) * 1000000000ll +
                   static_cast<long long>(info.st_mtim.tv_nsec);
  stamp.size = static_cast<long long>(info.st_size);
  stamp.inode = static_cast<unsigned long long>(info.st_ino);
  return stamp;
}

void FileWatch::Watch(const std::string& path) {
  path_ = path;
  seen_ = Read();
  has_pending_ = false;
  next_poll_ = Clock::time_point{};
}

bool FileWatch::Changed(Clock::time_point now, Clock::duration interval) {
  if (path_.empty() || now < next_poll_) return false;
  next_poll_ = now + interval;
  const Stamp stamp = Read();
  if (!stamp.exists || stamp == seen_) {
    has_pending_ = false;
    return false;
  }
  if (!has_pending_ || stamp != pending_) {  // changed since the last poll: let it settle
    pending_ = stamp;
    has_pending_ = true;
    return false;
  }
  seen_ = stamp;
  has_pending_ = false;
  return true;
}

}  // namespace app
