// Watching a model file for changes on disk (an artist re-exporting from Blender), by polling its
// modification time, size and inode at most every poll interval: one stat() call, no allocation,
// so an idle frame that polls allocates nothing.
#pragma once

#include <chrono>
#include <string>

namespace app {

class FileWatch {
 public:
  using Clock = std::chrono::steady_clock;

  // Watches `path` from now on, as it is now ("" watches nothing). Call again after each load.
  void Watch(const std::string& path);
  void Stop() { Watch(""); }
  const std::string& path() const { return path_; }

  // True once per change: when the file's modification time, size or inode differ from what was
  // last seen and have stayed so for one more poll (a file still being written is not reported
  // until its writer is done). A file that is gone is no change (it is reported when it comes
  // back different). Polls at most every `interval`; between polls it returns false at once.
  bool Changed(Clock::time_point now, Clock::duration interval = std::chrono::milliseconds(500));

 private:
  struct Stamp {
    bool exists = false;
    long long mtime_ns = 0;
    long long size = 0;
    unsigned long long inode = 0;
    bool operator==(const Stamp& o) const {
      return exists == o.exists && mtime_ns == o.mtime_ns && size == o.size && inode == o.inode;
    }
    bool operator!=(const Stamp& o) const { return !(*this == o); }
  };
  Stamp Read() const;

  std::string path_;
  Stamp seen_;     // what was loaded (or last reported)
  Stamp pending_;  // a change seen at the last poll, waiting to settle
  bool has_pending_ = false;
  Clock::time_point next_poll_{};
};

}  // namespace app
