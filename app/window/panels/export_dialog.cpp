// File ▸ Export's dialog (the path, what to write, replacing a file) and the question before
// unexported edits are discarded; the loop carries out what they ask.
#include <imgui.h>
#include <imgui_internal.h>  // the popup's window: shown yet, or still measuring

#include <algorithm>
#include <cstdio>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawExportDialog(bool has_clip, ExportDialog* dialog, Requests* out) {
  if (!dialog->open) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.4f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  // Fitted to its contents when it appears, and every frame while a bake shows its progress.
  ImGui::SetNextWindowSize(ImVec2(460.0f, 0.0f),
                           dialog->busy ? ImGuiCond_Always : ImGuiCond_Appearing);
  if (!ImGui::Begin("Export glTF", &dialog->open, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  ImGui::TextDisabled("writes glTF 2.0 (.glb, or .gltf with a .bin beside it)");
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool enter = ImGui::InputText("##path", dialog->path, sizeof(dialog->path),
                                      ImGuiInputTextFlags_EnterReturnsTrue);
  Tip("Where to write: .glb, or .gltf with a .bin beside it.");
  int what = dialog->bake ? 1 : 0;
  ImGui::RadioButton("This pose as the rest pose (skins kept, no clips)", &what, 0);
  Tip("Write the model with the current pose as its rest pose and no clips, so that the file "
      "opens in this pose.");
  ImGui::BeginDisabled(!has_clip);
  ImGui::RadioButton("The clip, baked with the IK at its frame rate", &what, 1);
  Tip("Write the clip with the IK applied, one key per frame at the clip's frame rate.");
  ImGui::EndDisabled();
  dialog->bake = what == 1 && has_clip;
  // The loop exports and closes the dialog when the file is written; when the file exists it
  // sets replace_path and the dialog asks first.
  const bool asking = !dialog->replace_path.empty() && dialog->replace_path == dialog->path;
  if (dialog->busy) {
    // A long bake: its progress, and Cancel stops it (nothing is written).
    char label[32];
    std::snprintf(label, sizeof(label), "%.0f%%", 100.0 * double(dialog->progress));
    ImGui::TextUnformatted("Baking the clip with the IK...");
    ImGui::ProgressBar(dialog->progress, ImVec2(-1.0f, 0.0f), label);
    if (ImGui::Button("Cancel")) Ask(out, RequestKind::kCancelExport);
    Tip("Stop the bake; nothing is written (Escape).");
    ImGui::End();
    return;
  }
  if (asking) {
    ImGui::PushStyleColor(ImGuiCol_Text, ToneColor(Tone::kWarning));
    ImGui::TextWrapped("%s already exists. Replace it?", dialog->path);
    ImGui::PopStyleColor();
    if (ImGui::Button("Replace") || enter) {
      Ask(out, RequestKind::kExport, dialog->path, dialog->bake, /*index=*/1);
    }
    Tip("Write over the existing file (Enter).");
  } else {
    if (ImGui::Button("Export") || enter) {
      Ask(out, RequestKind::kExport, dialog->path, dialog->bake);
    }
    Tip("Write the file (Enter).");
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) dialog->open = false;
  Tip("Close without writing.");
  ImGui::End();
}

void DrawSessionDialog(SessionDialog* dialog, Requests* out) {
  if (!dialog->open) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.4f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(460.0f, 0.0f), ImGuiCond_Appearing);
  if (!ImGui::Begin("Save session", &dialog->open, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  ImGui::TextDisabled("the model, chains, targets, limits, pose, clip, camera and display");
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool enter = ImGui::InputText("##session path", dialog->path, sizeof(dialog->path),
                                      ImGuiInputTextFlags_EnterReturnsTrue);
  Tip("Where to write the session (NAME.skelview, human-readable JSON).");
  const bool asking = !dialog->replace_path.empty() && dialog->replace_path == dialog->path;
  if (asking) {
    ImGui::PushStyleColor(ImGuiCol_Text, ToneColor(Tone::kWarning));
    ImGui::TextWrapped("%s already exists. Replace it?", dialog->path);
    ImGui::PopStyleColor();
    if (ImGui::Button("Replace") || enter) {
      Ask(out, RequestKind::kSaveSession, dialog->path, false, /*index=*/1);
    }
    Tip("Write over the existing file (Enter).");
  } else {
    if (ImGui::Button("Save") || enter) Ask(out, RequestKind::kSaveSession, dialog->path);
    Tip("Write the session (Enter).");
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) dialog->open = false;
  Tip("Close without writing.");
  ImGui::End();
}

void DrawConfirmDiscard(ConfirmDiscard* confirm, Requests* out) {
  // A modal popup: while it asks, the panels, the view and the wheel take no input
  // (ImGui then wants the mouse everywhere, which keeps clicks out of the scene).
  const bool shown = ImGui::IsPopupOpen(kConfirmDiscardName);
  if (!confirm->open && !shown) return;
  if (confirm->open && !shown) ImGui::OpenPopup(kConfirmDiscardName);
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.4f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  // Wide enough for the four buttons on one line (at any UI scale and font).
  const ImGuiStyle& style = ImGui::GetStyle();
  float buttons = 3.0f * style.ItemSpacing.x + 2.0f * style.WindowPadding.x;
  for (const char* label :
       {"Save session (S)", "Export...", "Discard and open (D)", "Cancel (Esc)"}) {
    buttons += ImGui::CalcTextSize(label).x + 2.0f * style.FramePadding.x;
  }
  ImGui::SetNextWindowSize(ImVec2(std::max(ImGui::GetFontSize() * 30.0f, buttons + 2.0f), 0.0f),
                           ImGuiCond_Always);
  if (!ImGui::BeginPopupModal(
          kConfirmDiscardName, nullptr,
          ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings)) {
    return;
  }
  if (!confirm->open) {  // answered, or Escape (which the viewer's key handling takes)
    ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return;
  }
  const bool quit = confirm->then == ConfirmDiscard::Then::kQuit;
  // The popup's first frames are hidden while it measures itself: its items are laid out about a
  // provisional place, not where they will show. Their positions count from the first frame the
  // popup is shown in.
  const ImGuiWindow* popup = ImGui::GetCurrentWindow();
  const bool shown_in_place = !popup->Appearing && !popup->Hidden;
  ImGui::TextWrapped(
      "The pose, IK and limit edits of this model have not been saved. %s "
      "discards them.",
      quit ? "Quitting" : "Opening another file");
  const auto centre = [] {
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    return glm::vec2(0.5f * (min.x + max.x), 0.5f * (min.y + max.y));
  };
  if (ImGui::Button("Save session (S)")) Ask(out, RequestKind::kSaveAndContinue);
  if (shown_in_place) confirm->save_px = centre();
  Tip("Save the edits in a session file (.skelview), then quit or open (S).");
  ImGui::SameLine();
  if (ImGui::Button("Export...")) {
    confirm->open = false;
    Ask(out, RequestKind::kOpenExport);
  }
  Tip("Write the edits to a glTF file first (then quit or open again).");
  ImGui::SameLine();
  if (ImGui::Button(quit ? "Discard and quit (D)" : "Discard and open (D)")) {
    Ask(out, RequestKind::kDiscardEdits);
  }
  if (shown_in_place) confirm->discard_px = centre();
  Tip("Throw the edits away (D).");
  ImGui::SameLine();
  if (ImGui::Button("Cancel (Esc)")) confirm->open = false;
  if (shown_in_place) confirm->cancel_px = centre();
  Tip("Keep working on this model (Escape).");
  ImGui::EndPopup();
}

}  // namespace app
