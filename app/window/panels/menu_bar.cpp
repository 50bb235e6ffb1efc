// The main menu bar.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

void DrawFileMenu(const MenuBarInput& in, ExportDialog* export_dialog, Requests* out) {
  if (!ImGui::BeginMenu("File")) return;
  if (ImGui::MenuItem("Open...", "Ctrl+O")) Ask(out, RequestKind::kOpenBrowser);
  if (ImGui::BeginMenu("Open recent", !in.recent_files.empty())) {
    for (const std::string& path : in.recent_files) {
      if (ImGui::MenuItem(path.c_str())) Ask(out, RequestKind::kOpen, path);
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Clear list")) Ask(out, RequestKind::kClearRecent);
    ImGui::EndMenu();
  }
  if (ImGui::MenuItem("Built-in character")) Ask(out, RequestKind::kOpen, "");
  if (ImGui::MenuItem("Reload", "Ctrl+R", false, !in.current_path.empty())) {
    Ask(out, RequestKind::kOpen, in.current_path);
  }
  if (ImGui::MenuItem("Export glTF...", "Ctrl+E")) export_dialog->open = true;
  ImGui::Separator();
  if (ImGui::MenuItem("Screenshot", "F12")) Ask(out, RequestKind::kScreenshot);
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q")) Ask(out, RequestKind::kQuit);
  ImGui::EndMenu();
}

}  // namespace

void DrawMenuBar(const MenuBarInput& in, DisplaySettings* display, ExportDialog* export_dialog,
                 PanelLayout* layout, Requests* out) {
  if (!ImGui::BeginMainMenuBar()) return;
  layout->menu_height = ImGui::GetWindowSize().y;
  DrawFileMenu(in, export_dialog, out);
  if (ImGui::BeginMenu("Edit")) {
    if (ImGui::MenuItem("Undo", "Ctrl+Z", false, in.undo_count > 0)) Ask(out, RequestKind::kUndo);
    if (ImGui::MenuItem("Redo", "Ctrl+Shift+Z", false, in.redo_count > 0)) {
      Ask(out, RequestKind::kRedo);
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Reset all targets")) Ask(out, RequestKind::kResetAllTargets);
    if (ImGui::MenuItem("Reset pose")) Ask(out, RequestKind::kResetPose);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    SceneOptions& scene = display->scene;
    if (ImGui::MenuItem("Frame model", "F")) Ask(out, RequestKind::kFrameCamera);
    ImGui::MenuItem("Mesh", nullptr, &scene.mesh);
    ImGui::MenuItem("Bones", nullptr, &scene.skeleton);
    ImGui::MenuItem("Joint axes", nullptr, &scene.joint_axes);
    ImGui::MenuItem("IK handles", nullptr, &display->show_handles);
    ImGui::MenuItem("Knee circles", nullptr, &scene.ik_overlay);
    ImGui::MenuItem("Reach shells", nullptr, &scene.reach_shell);
    ImGui::MenuItem("Grid", nullptr, &scene.grid);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

}  // namespace app
