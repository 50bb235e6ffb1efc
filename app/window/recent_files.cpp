// Recent-files list persistence.
#include "app/window/recent_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "app/core/settings.h"
#include "assets/files/file_output.h"

namespace app {

namespace fs = std::filesystem;

RecentFiles::RecentFiles(std::string store_path, size_t limit)
    : store_path_(std::move(store_path)), limit_(limit) {}

std::string RecentFiles::DefaultStorePath() { return ConfigFilePath("recent-files"); }

void RecentFiles::Load() {
  paths_.clear();
  if (store_path_.empty()) return;
  std::ifstream in(store_path_);
  std::string line;
  while (std::getline(in, line) && paths_.size() < limit_) {
    if (!line.empty() && std::find(paths_.begin(), paths_.end(), line) == paths_.end()) {
      paths_.push_back(line);
    }
  }
}

bool RecentFiles::Save(std::string* error) const {
  if (store_path_.empty()) return true;
  std::error_code ec;
  fs::create_directories(fs::path(store_path_).parent_path(), ec);
  std::string text;
  for (const std::string& p : paths_) text += p + "\n";
  // Atomically: a failed save (disk full) keeps the previous list instead of truncating it.
  std::string reason;
  if (!assets::WriteFileAtomically(store_path_, text.data(), text.size(), &reason)) {
    *error = "cannot save the recent-files list: " + reason;
    return false;
  }
  return true;
}

void RecentFiles::Add(const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  std::string absolute = fs::absolute(path, ec).lexically_normal().string();
  if (ec) absolute = path;
  Remove(absolute);
  paths_.insert(paths_.begin(), absolute);
  if (paths_.size() > limit_) paths_.resize(limit_);
}

void RecentFiles::Remove(const std::string& path) {
  paths_.erase(std::remove(paths_.begin(), paths_.end(), path), paths_.end());
}

}  // namespace app
