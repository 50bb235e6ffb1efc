// The main menu bar.
#include <imgui.h>

#include <cstdio>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

void DrawFileMenu(const MenuBarInput& in, Requests* out) {
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
  if (ImGui::MenuItem("Save session", "Ctrl+S")) Ask(out, RequestKind::kSaveSession);
  if (ImGui::MenuItem("Save session as...", "Ctrl+Shift+S")) {
    Ask(out, RequestKind::kOpenSaveSession);
  }
  if (ImGui::MenuItem("Export glTF...", "Ctrl+E")) Ask(out, RequestKind::kOpenExport);
  if (ImGui::MenuItem("Import clip from...", nullptr, false, in.has_clip_source)) {
    Ask(out, RequestKind::kImportClip);
  }
  Tip("Play another model's clip on this one: pick the file, check the joint mapping, apply. "
      "The clip is added to this model's clips.");
  ImGui::Separator();
  if (ImGui::MenuItem("Screenshot", "F12")) Ask(out, RequestKind::kScreenshot);
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q")) Ask(out, RequestKind::kQuit);
  ImGui::EndMenu();
}

// At the right end of the bar: "Messages", with the count of unseen warnings and errors (red
// when one is an error); a click shows or hides the log.
void DrawMessagesBadge(MessageLog* log) {
  char label[48];
  if (log->unseen() > 0) {
    std::snprintf(label, sizeof(label), "Messages (%d new)###messages", log->unseen());
  } else {
    std::snprintf(label, sizeof(label), "Messages###messages");
  }
  const float width =
      ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().ItemSpacing.x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetCursorPosX() < right - width) ImGui::SetCursorPosX(right - width);
  const bool unseen = log->unseen() > 0;
  if (unseen) {
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ToneColor(log->unseen_error() ? Tone::kError : Tone::kWarning));
  }
  if (ImGui::MenuItem(label)) log->open = !log->open;
  if (unseen) ImGui::PopStyleColor();
  Tip("Every message of this session with its time (Ctrl+L).");
}

// Edit's pose items: copy and paste (flipped), mirror the pose or the active chain's target.
void DrawPoseItems(const MenuBarInput& in, Requests* out) {
  ImGui::Separator();
  if (ImGui::MenuItem("Copy pose", "Ctrl+C")) Ask(out, RequestKind::kCopyPose);
  Tip("Copy the pose shown (every joint, by name).");
  if (ImGui::MenuItem("Paste pose", "Ctrl+V", false, in.can_paste)) {
    Ask(out, RequestKind::kPastePose);
  }
  Tip("Set every joint the copied pose names to it (one undo step).");
  if (ImGui::MenuItem("Paste pose flipped", "Ctrl+Shift+V", false, in.can_paste)) {
    Ask(out, RequestKind::kPastePose, {}, /*option=*/true);
  }
  Tip("The copied pose mirrored left to right.");
  if (ImGui::MenuItem("Mirror pose", "Ctrl+M")) Ask(out, RequestKind::kMirrorPose);
  Tip("Mirror the pose shown left to right, its pinned targets and poles with it. Sides come "
      "from the joint names, else from the rig's symmetry.");
  if (ImGui::MenuItem("Mirror target to other side", "Shift+M", false, in.has_active_chain)) {
    Ask(out, RequestKind::kMirrorTarget);
  }
  Tip("Give the active chain's counterpart on the other side this target, mirrored, and its "
      "options.");
}

// View ▸ Interface: the UI scale (automatic or fixed) and the theme.
void DrawInterfaceMenu(UiOptions* ui) {
  if (!ImGui::BeginMenu("Interface")) return;
  if (ImGui::MenuItem("Automatic scale (display DPI)", nullptr, ui->scale == 0.0f))
    ui->scale = 0.0f;
  constexpr float kScales[] = {1.0f, 1.25f, 1.5f, 1.75f, 2.0f, 2.5f, 3.0f};
  char label[32];
  for (float scale : kScales) {
    std::snprintf(label, sizeof(label), "%.0f%%", double(scale) * 100.0);
    if (ImGui::MenuItem(label, nullptr, ui->scale == scale)) ui->scale = scale;
  }
  ImGui::Separator();
  ImGui::MenuItem("Light theme", nullptr, &ui->light);
  ImGui::EndMenu();
}

}  // namespace

void DrawMenuBar(const MenuBarInput& in, const MenuBarState& state, PanelLayout* layout,
                 Requests* out) {
  if (!ImGui::BeginMainMenuBar()) return;
  layout->menu_height = ImGui::GetWindowSize().y;
  DrawFileMenu(in, out);
  DisplaySettings* display = state.display;
  if (ImGui::BeginMenu("Edit")) {
    if (ImGui::MenuItem("Undo", "Ctrl+Z", false, in.undo_count > 0)) Ask(out, RequestKind::kUndo);
    if (ImGui::MenuItem("Redo", "Ctrl+Shift+Z", false, in.redo_count > 0)) {
      Ask(out, RequestKind::kRedo);
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Reset all targets")) Ask(out, RequestKind::kResetAllTargets);
    if (ImGui::MenuItem("Reset pose")) Ask(out, RequestKind::kResetPose);
    DrawPoseItems(in, out);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    SceneOptions& scene = display->scene;
    if (ImGui::MenuItem("Frame model", "F")) Ask(out, RequestKind::kFrameCamera);
    if (ImGui::MenuItem("Frame selected", ".")) Ask(out, RequestKind::kFrameSelected);
    struct PresetItem {
      const char* label;
      const char* shortcut;
      ViewPreset preset;
    };
    constexpr PresetItem kPresets[] = {
        {"Front", "Numpad 1", ViewPreset::kFront}, {"Back", "Ctrl+Numpad 1", ViewPreset::kBack},
        {"Right", "Numpad 3", ViewPreset::kRight}, {"Left", "Ctrl+Numpad 3", ViewPreset::kLeft},
        {"Top", "Numpad 7", ViewPreset::kTop},     {"Bottom", "Ctrl+Numpad 7", ViewPreset::kBottom},
    };
    for (const PresetItem& item : kPresets) {
      if (ImGui::MenuItem(item.label, item.shortcut)) {
        Ask(out, RequestKind::kViewPreset, {}, false, static_cast<int>(item.preset));
      }
    }
    if (ImGui::MenuItem("Orthographic", "Numpad 5", in.ortho)) Ask(out, RequestKind::kToggleOrtho);
    ImGui::MenuItem("Follow root", nullptr, &display->follow_root);
    ImGui::MenuItem("Stand on ground", nullptr, &display->on_ground);
    ImGui::Separator();
    ImGui::MenuItem("Mesh", nullptr, &scene.mesh);
    ImGui::MenuItem("Bones", nullptr, &scene.skeleton);
    ImGui::MenuItem("Joint axes", nullptr, &scene.joint_axes);
    ImGui::MenuItem("IK handles", nullptr, &display->show_handles);
    ImGui::MenuItem("Knee circles", nullptr, &scene.ik_overlay);
    ImGui::MenuItem("Reach shells", nullptr, &scene.reach_shell);
    ImGui::MenuItem("Every chain's circle and shells", nullptr, &scene.all_chains);
    ImGui::MenuItem("Grid", nullptr, &scene.grid);
    ImGui::MenuItem("Legend", nullptr, &scene.legend);
    ImGui::MenuItem("Axis gizmo", nullptr, &display->show_axis_gizmo);
    ImGui::Separator();
    ImGui::MenuItem("Timeline", "T", &display->show_timeline);
    DrawInterfaceMenu(state.ui);
    ImGui::EndMenu();
  }
  const bool animation_open = ImGui::BeginMenu("Animation");
  {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    layout->animation_menu_px = {0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y)};
  }
  if (animation_open) {
    if (ImGui::MenuItem("Generate range of motion", nullptr, false, in.has_clip_source)) {
      Ask(out, RequestKind::kGenerateRangeOfMotion);
    }
    Tip("A clip that puts each detected leg, arm and the spine through its range, one after "
        "another (joint limits where set), for checking the skinning with the weights and "
        "problem views.");
    if (ImGui::MenuItem("Lock feet", nullptr, in.lock_feet == 1, in.lock_feet >= 0)) {
      Request lock;
      lock.kind = RequestKind::kLockFeet;
      lock.option = in.lock_feet != 1;
      out->push_back(lock);
    }
    Tip("Hold each planted foot where it landed, on the chosen ground (the Foot lock section "
        "shows the numbers; the timeline's foot lanes the contacts).");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Keyboard and mouse", "F1", state.help_open);
    ImGui::MenuItem("Message log", "Ctrl+L", &state.log->open);
    ImGui::EndMenu();
  }
  DrawMessagesBadge(state.log);
  ImGui::EndMainMenuBar();
}

}  // namespace app
