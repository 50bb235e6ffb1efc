// The help overlay (F1 or ?): every keyboard and mouse shortcut of the viewer, in one table.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

constexpr Shortcut kShortcuts[] = {
    {"F1 or ?", "show or hide this help"},
    {"left drag on empty space", "orbit the camera"},
    {"middle drag, or Shift + left drag", "pan"},
    {"mouse wheel over the view", "zoom (over a panel it scrolls the panel)"},
    {"left drag on a handle's disc", "move the IK target on the camera-facing plane"},
    {"left drag on an arrow / a square", "move the active handle along X, Y or Z / in a plane"},
    {"click a handle", "make its chain active; the name of the handle under the cursor shows"},
    {"click it again, or Tab (Shift+Tab)",
     "where handles overlap: the next (previous) of them; Tab elsewhere: the next handle"},
    {"double-click a handle", "reset its target onto the hand or foot"},
    {"drag a pole marker (magenta diamond)", "move the pole: the knee or elbow follows"},
    {"R (a bone selected), then digits",
     "rotate it with the mouse or by the degrees typed; X / Y / Z: axis (twice: local); R: "
     "trackball; Enter or click: done; Esc: cancel"},
    {"Alt+R", "clear the selected bone's rotation"},
    {"Shift+R", "the rotate gizmo on the selected bone: off, global, local (drag a ring)"},
    {"Alt+G", "reset the target under the cursor, else the active chain's, else all"},
    {"Escape", "cancel a drag; close a menu, this help, the message log or Export"},
    {"click a bone or the mesh", "select the joint"},
    {"Ctrl+Z / Ctrl+Shift+Z or Ctrl+Y", "undo / redo"},
    {"F / . (or Numpad .)", "frame the model / the selected joint's bone"},
    {"Numpad 1 / 3 / 7 (or 1 / 3 / 7)",
     "look from the front / right / top (with Ctrl: from the back / left / bottom)"},
    {"Numpad 5 (or 5)", "switch perspective / orthographic"},
    {"click an axis of the gizmo (top right)", "look along it (again: from the other side)"},
    {"Space", "play / pause"},
    {"Left / Right", "step one frame at the clip's frame rate (pauses)"},
    {"T", "show or hide the timeline"},
    {"drag on the timeline", "scrub (snapped to frames; Shift: between them)"},
    {"drag an orange bracket on the timeline", "move the loop range's start or end"},
    {"I", "key the active target (and its pole) at the playhead"},
    {"drag a target's key on the timeline",
     "move it in time; X or Delete: delete the selected key (right-click: delete, go to it)"},
    {"drag a contact bar's end on a foot lane",
     "move the foot contact; double-click an empty lane: add one; click + X or Delete: delete"},
    {"Ctrl+O", "open a file (or drop one on the window)"},
    {"Ctrl+R", "reload the current file (it also reloads by itself when the file changes)"},
    {"Ctrl+S / Ctrl+Shift+S", "save the session / save it as (NAME.skelview)"},
    {"Ctrl+C / Ctrl+V / Ctrl+Shift+V", "copy the pose / paste it / paste it flipped left to right"},
    {"Ctrl+M / Shift+M",
     "mirror the pose left to right / the active chain's target to the other side"},
    {"Ctrl+E", "export glTF"},
    {"Ctrl+L", "show or hide the message log"},
    {"F12", "save a screenshot"},
    {"Ctrl+Q", "quit"},
};

}  // namespace

const Shortcut* Shortcuts(size_t* count) {
  *count = sizeof(kShortcuts) / sizeof(kShortcuts[0]);
  return kShortcuts;
}

void DrawHelpOverlay(bool* open) {
  if (!*open) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f),
                                      ImVec2(io.DisplaySize.x - 20.0f, io.DisplaySize.y - 60.0f));
  ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the panels' text must not show through
  if (!ImGui::Begin(kHelpWindowName, open,
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize |
                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove)) {
    ImGui::End();
    return;
  }
  if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("Keys and mouse");
    ImGui::TableSetupColumn("What it does");
    ImGui::TableHeadersRow();
    for (const Shortcut& shortcut : kShortcuts) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(shortcut.keys);
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(shortcut.action);
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("Rest the mouse on a control of the panel to see what it does.");
  ImGui::End();
}

}  // namespace app
