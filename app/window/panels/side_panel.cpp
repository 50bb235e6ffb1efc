// The side panel: docked at the left between the menu bar and the status line, as tall as the room
// between them at any window size (its sections scroll), its width resizable within bounds.
#include <imgui.h>

#include <algorithm>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

constexpr float kMargin = 8.0f;            // window coordinates, above and below the panel
constexpr float kDefaultWidth = 360.0f;    // on first use
constexpr float kMinWidth = 320.0f;        // the widest row of numbers fits
constexpr float kMaxWidthFraction = 0.6f;  // of the window, so the view keeps room

}  // namespace

float StatusLineHeight() { return ImGui::GetFrameHeight(); }

namespace {

// Under the Display section (while it is open): where the camera and the model stand.
void DrawStagingRows(DisplaySettings* display) {
  if (ImGui::GetStateStorage()->GetInt(ImGui::GetID("Display"), 1) == 0) return;
  ImGui::Checkbox("Stand on ground", &display->on_ground);
  Tip("Raise (or lower) the model so that the lowest point of its rest pose stands on the grid, "
      "for models whose origin is at the hips.");
  SameLineIfFits(CheckboxWidth("Follow root"));
  ImGui::Checkbox("Follow root", &display->follow_root);
  Tip("The camera moves along with the root joint, so a walk with root motion stays in view.");
}

}  // namespace

void DrawSidePanel(const FrameInput& in, const SidePanelEdits& edits, PanelLayout* layout,
                   Requests* out) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float top = layout->menu_height + kMargin;
  const float height = std::max(display.y - top - StatusLineHeight() - kMargin, 60.0f);
  // Widths grow with the UI scale, as the text in the panel does.
  const float scale = UiScaleOfFont();
  const float min_width = kMinWidth * scale;
  const float max_width = std::max(min_width, display.x * kMaxWidthFraction);
  const float start_width =
      layout->panel_start_width > 0.0f ? layout->panel_start_width : kDefaultWidth * scale;
  // Against the window's left edge: no strip of the view left of it.
  ImGui::SetNextWindowPos(ImVec2(0.0f, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(start_width, height), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSizeConstraints(ImVec2(min_width, height), ImVec2(max_width, height));
  ImGui::Begin(kSidePanelName, nullptr, ImGuiWindowFlags_NoMove);
  // Widgets leave a column for their labels at any panel width, and text wraps at the panel's
  // edge instead of running under it.
  ImGui::PushItemWidth(-ImGui::GetFontSize() * kLabelColumnEms);
  ImGui::PushTextWrapPos(0.0f);
  DrawModelPanel(in.model, edits.edit->chains.size());
  DrawDisplayPanel(edits.display, out);
  DrawStagingRows(edits.display);
  DrawWeightsPanel(in, *edits.selection, edits.display, out);
  DrawAnimationPanel(in.model, in.file_clips, edits.playback, edits.display,
                     edits.selection->selected_joint);
  DrawBlendShapesPanel(in, edits.edit, out);
  DrawChainsPanel(in, edits.playback->time, edits.edit, edits.selection, out);
  DrawContactsPanel(in.extent.size, edits.edit, out);
  if (edits.feet) DrawFootLockPanel(edits.feet, out);
  DrawJointsPanel(in, edits.edit, edits.selection, edits.search, out);
  ImGui::PopTextWrapPos();
  ImGui::PopItemWidth();
  layout->panel_right =
      ImGui::IsWindowCollapsed() ? 0.0f : ImGui::GetWindowPos().x + ImGui::GetWindowSize().x;
  if (!ImGui::IsWindowCollapsed()) layout->panel_width = ImGui::GetWindowSize().x;
  ImGui::End();
}

}  // namespace app
