// The list of recently opened files, kept between runs in the user's configuration directory.
#pragma once

#include <string>
#include <vector>

namespace app {

class RecentFiles {
 public:
  // `store_path`: the file that keeps the list, one path per line ("" keeps nothing on disk).
  explicit RecentFiles(std::string store_path, size_t limit = 10);

  // $XDG_CONFIG_HOME/skelview/recent-files, else $HOME/.config/skelview/recent-files, else "".
  static std::string DefaultStorePath();

  // Reads the list; a missing or unreadable store gives an empty list.
  void Load();
  // Writes the list (creating the directory) atomically: after a failure the store holds the
  // previous list. False with the reason when it cannot.
  bool Save(std::string* error) const;
  // Puts `path` (made absolute) first, removing an older entry of it, and drops the oldest past
  // the limit.
  void Add(const std::string& path);
  void Remove(const std::string& path);
  void Clear() { paths_.clear(); }
  const std::vector<std::string>& paths() const { return paths_; }

 private:
  std::string store_path_;
  size_t limit_;
  std::vector<std::string> paths_;
};

}  // namespace app
