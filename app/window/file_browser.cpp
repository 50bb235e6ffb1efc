// The File ▸ Open browser.
#include "app/window/file_browser.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

#include "app/core/ground.h"
#include "app/core/session.h"
#include "assets/formats.h"

namespace app {

namespace fs = std::filesystem;

namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string HumanSize(unsigned long long bytes) {
  char text[32];
  if (bytes >= (1ull << 30)) {
    std::snprintf(text, sizeof(text), "%.1f GiB", double(bytes) / double(1ull << 30));
  } else if (bytes >= (1ull << 20)) {
    std::snprintf(text, sizeof(text), "%.1f MiB", double(bytes) / double(1ull << 20));
  } else if (bytes >= 1024) {
    std::snprintf(text, sizeof(text), "%.1f KiB", double(bytes) / 1024.0);
  } else {
    std::snprintf(text, sizeof(text), "%llu B", bytes);
  }
  return text;
}

}  // namespace

bool ListDirectory(const std::string& directory, bool show_all_files, bool show_hidden,
                   std::vector<DirectoryEntry>* entries, std::string* error, BrowseFor what) {
  entries->clear();
  std::error_code ec;
  fs::directory_iterator it(directory, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    *error = directory + ": " + ec.message();
    return false;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    DirectoryEntry entry;
    entry.name = it->path().filename().string();
    if (!show_hidden && !entry.name.empty() && entry.name[0] == '.') continue;
    std::error_code type_error;
    entry.is_directory = it->is_directory(type_error);
    if (!entry.is_directory) {
      if (!it->is_regular_file(type_error)) continue;
      const bool chosen =
          what == BrowseFor::kGroundMesh
              ? IsGroundMeshSpec(entry.name)
              : assets::HasSupportedExtension(entry.name) || IsSessionPath(entry.name);
      if (!show_all_files && !chosen) continue;
      entry.size = it->file_size(type_error);
    }
    entries->push_back(std::move(entry));
  }
  std::sort(entries->begin(), entries->end(), [](const DirectoryEntry& a, const DirectoryEntry& b) {
    if (a.is_directory != b.is_directory) return a.is_directory;
    return Lower(a.name) < Lower(b.name);
  });
  return true;
}

void FileBrowser::Open(const std::string& directory, const char* title, BrowseFor what) {
  open_ = true;
  title_ = title;
  what_ = what;
  std::error_code ec;
  Enter(directory.empty() ? fs::current_path(ec).string() : directory);
}

void FileBrowser::Enter(const std::string& directory) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(directory), ec);
  directory_ = ec ? directory : p.string();
  std::snprintf(path_input_, sizeof(path_input_), "%s", directory_.c_str());
  selected_ = -1;
  Refresh();
}

void FileBrowser::Refresh() {
  error_.clear();
  if (!ListDirectory(directory_, show_all_files_, show_hidden_, &entries_, &error_, what_)) {
    entries_.clear();
  }
}

bool FileBrowser::Draw(std::string* chosen) {
  if (!open_) return false;
  bool picked = false;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowSize(ImVec2(620, 460), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_FirstUseEver, ImVec2(0.5f, 0.5f));
  if (!ImGui::Begin(title_.c_str(), &open_, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return false;
  }
  if (ImGui::Button("Up")) Enter(fs::path(directory_).parent_path().string());
  ImGui::SameLine();
  if (ImGui::Button("Home")) {
    const char* home = std::getenv("HOME");
    if (home) Enter(home);
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();  // a path can be typed at once
  if (ImGui::InputText("##path", path_input_, sizeof(path_input_),
                       ImGuiInputTextFlags_EnterReturnsTrue)) {
    std::error_code ec;
    if (fs::is_directory(path_input_, ec)) {
      Enter(path_input_);
    } else if (fs::is_regular_file(path_input_, ec)) {
      *chosen = path_input_;
      picked = true;
    } else {
      error_ = std::string(path_input_) + ": no such file or folder";
    }
  }
  if (!error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", error_.c_str());
  const float footer = ImGui::GetFrameHeightWithSpacing() * 1.4f;
  ImGui::BeginChild("entries", ImVec2(0.0f, -footer), true);
  std::string enter;
  for (int i = 0; i < static_cast<int>(entries_.size()); ++i) {
    const DirectoryEntry& e = entries_[i];
    const std::string label = (e.is_directory ? "[dir]  " : "       ") + e.name;
    ImGui::PushID(i);
    if (ImGui::Selectable(
            label.c_str(), selected_ == i,
            ImGuiSelectableFlags_AllowDoubleClick | ImGuiSelectableFlags_SpanAllColumns)) {
      selected_ = i;
      if (ImGui::IsMouseDoubleClicked(0)) {
        if (e.is_directory) {
          enter = (fs::path(directory_) / e.name).string();
        } else {
          *chosen = (fs::path(directory_) / e.name).string();
          picked = true;
        }
      }
    }
    if (!e.is_directory) {
      ImGui::SameLine(ImGui::GetWindowWidth() - 110.0f);
      ImGui::TextDisabled("%s", HumanSize(e.size).c_str());
    }
    ImGui::PopID();
  }
  if (entries_.empty() && error_.empty()) {
    ImGui::TextDisabled(what_ == BrowseFor::kGroundMesh ? "(no .glb or .gltf files here)"
                                                        : "(no model or session files here)");
  }
  ImGui::EndChild();
  if (!enter.empty()) Enter(enter);
  if (ImGui::Checkbox("All files", &show_all_files_)) Refresh();
  ImGui::SameLine();
  if (ImGui::Checkbox("Hidden", &show_hidden_)) Refresh();
  ImGui::SameLine(ImGui::GetWindowWidth() - 140.0f);
  const bool can_open = selected_ >= 0 && selected_ < static_cast<int>(entries_.size());
  ImGui::BeginDisabled(!can_open);
  if (ImGui::Button("Open") && can_open) {
    const DirectoryEntry& e = entries_[selected_];
    if (e.is_directory) {
      Enter((fs::path(directory_) / e.name).string());
    } else {
      *chosen = (fs::path(directory_) / e.name).string();
      picked = true;
    }
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) open_ = false;
  ImGui::End();
  if (picked) open_ = false;
  return picked;
}

}  // namespace app
