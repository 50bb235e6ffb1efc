// File ▸ Export's dialog: the path and what to write; the loop writes it.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawExportDialog(bool has_clip, ExportDialog* dialog, Requests* out) {
  if (!dialog->open) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.4f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(460.0f, 0.0f), ImGuiCond_Appearing);
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
  ImGui::RadioButton("This pose as the rest pose (skins kept)", &what, 0);
  Tip("Write the model with the current pose as its rest pose.");
  ImGui::BeginDisabled(!has_clip);
  ImGui::RadioButton("The clip, baked with the IK at its frame rate", &what, 1);
  Tip("Write the clip with the IK applied, one key per frame at the clip's frame rate.");
  ImGui::EndDisabled();
  dialog->bake = what == 1 && has_clip;
  // The loop exports and closes the dialog when the file is written.
  if (ImGui::Button("Export") || enter) Ask(out, RequestKind::kExport, dialog->path, dialog->bake);
  Tip("Write the file (Enter).");
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) dialog->open = false;
  Tip("Close without writing.");
  ImGui::End();
}

}  // namespace app
