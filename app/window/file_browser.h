// File ▸ Open: a Dear ImGui browser of the real filesystem showing folders and the files the
// importer reads. The listing is a pure function, tested without a window.
#pragma once

#include <string>
#include <vector>

namespace app {

struct DirectoryEntry {
  std::string name;
  bool is_directory = false;
  unsigned long long size = 0;  // bytes, files only
};

// What a browser is choosing: a model (or session) to open, or a ground mesh (.glb, .gltf).
enum class BrowseFor { kModel, kGroundMesh };

// Folders first, then files, each sorted by name (case-insensitive); hidden entries (".name")
// only when `show_hidden`; files only when they are what `what` chooses (the importer's
// extensions and sessions; .glb and .gltf), unless `show_all_files`. False with the reason naming
// the folder when it cannot be read.
bool ListDirectory(const std::string& directory, bool show_all_files, bool show_hidden,
                   std::vector<DirectoryEntry>* entries, std::string* error,
                   BrowseFor what = BrowseFor::kModel);

class FileBrowser {
 public:
  // Opens the browser at `directory` (the current directory when empty), titled `title`, listing
  // what `what` chooses.
  void Open(const std::string& directory, const char* title = "Open model",
            BrowseFor what = BrowseFor::kModel);
  bool is_open() const { return open_; }
  // Draws the browser window when open. Returns true, with the chosen file in *chosen, on the
  // frame the user picks a file (double-click or Open); the browser then closes.
  bool Draw(std::string* chosen);

 private:
  void Refresh();
  void Enter(const std::string& directory);

  bool open_ = false;
  std::string title_ = "Open model";
  BrowseFor what_ = BrowseFor::kModel;
  bool show_all_files_ = false;
  bool show_hidden_ = false;
  std::string directory_;
  char path_input_[1024] = "";
  std::vector<DirectoryEntry> entries_;
  std::string error_;
  int selected_ = -1;
};

}  // namespace app
