// File ▸ Import clip from…'s mapping dialog.
#include "app/window/panels/retarget_dialog.h"

#include <imgui.h>

#include <cstdio>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

const char* JointLabel(const ik::Skeleton& skeleton, int joint) {
  return joint >= 0 && joint < skeleton.joint_count() ? skeleton.name(joint).c_str() : "(none)";
}

// The target joint of row `row`: a combo of the target's joints and "(none)".
void TargetCombo(const ik::Skeleton& target, int row, RetargetDialog* dialog) {
  const RetargetRow& r = dialog->table.rows[size_t(row)];
  ImGui::SetNextItemWidth(-1.0f);
  if (!ImGui::BeginCombo("##target", JointLabel(target, r.target))) return;
  int chosen = r.target;
  if (ImGui::Selectable("(none)", r.target < 0)) chosen = -1;
  for (int j = 0; j < target.joint_count(); ++j) {
    ImGui::PushID(j);
    if (ImGui::Selectable(target.name(j).c_str(), r.target == j)) chosen = j;
    if (r.target == j && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
    ImGui::PopID();
  }
  ImGui::EndCombo();
  if (chosen != r.target) SetRowTarget(&dialog->table, row, chosen, target.joint_count());
}

}  // namespace

void DrawRetargetDialog(const ik::Skeleton& source, const ik::Skeleton& target,
                        RetargetDialog* dialog, Requests* out) {
  if (!dialog->open) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  const float em = ImGui::GetFontSize();
  ImGui::SetNextWindowSize(ImVec2(40.0f * em, 0.0f), ImGuiCond_Appearing);
  bool open = true;
  if (!ImGui::Begin(kRetargetDialogName, &open, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    if (!open) Ask(out, RequestKind::kCancelRetarget);
    return;
  }
  ImGui::TextWrapped("From %s onto %s", dialog->source_path.c_str(), dialog->target_name.c_str());
  if (dialog->clips.size() > 1) {
    ImGui::SetNextItemWidth(-6.0f * em);
    const char* shown = dialog->clips[size_t(dialog->clip)].c_str();
    if (ImGui::BeginCombo("Clip", shown)) {
      for (int i = 0; i < static_cast<int>(dialog->clips.size()); ++i) {
        ImGui::PushID(i);
        if (ImGui::Selectable(dialog->clips[size_t(i)].c_str(), dialog->clip == i)) {
          dialog->clip = i;
        }
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
    Tip("The source's clip to play on the open model.");
  } else if (!dialog->clips.empty()) {
    ImGui::Text("Clip: %s", dialog->clips[0].c_str());
  }
  ImGui::Text("%d of %d source joints mapped", MappedRows(dialog->table), source.joint_count());
  if (dialog->reused_edits > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%d edits reused from the saved mapping)", dialog->reused_edits);
  }
  for (const std::string& warning : dialog->table.warnings) {
    ImGui::PushStyleColor(ImGuiCol_Text, ToneColor(Tone::kWarning));
    ImGui::TextWrapped("%s", warning.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Checkbox("Show unmapped source joints", &dialog->show_unmapped);
  Tip("Also list the source joints that map nowhere, to give them a target.");
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
  if (ImGui::BeginTable("mapping", 3, flags, ImVec2(0.0f, 18.0f * em))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Source joint", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("Target joint", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn("by", ImGuiTableColumnFlags_WidthFixed, 5.5f * em);
    ImGui::TableHeadersRow();
    for (int i = 0; i < static_cast<int>(dialog->table.rows.size()); ++i) {
      const RetargetRow& r = dialog->table.rows[size_t(i)];
      if (r.target < 0 && r.by.empty() && !dialog->show_unmapped) continue;
      ImGui::PushID(i);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(JointLabel(source, r.source));
      ImGui::TableNextColumn();
      TargetCombo(target, i, dialog);
      ImGui::TableNextColumn();
      const RetargetRow& now = dialog->table.rows[size_t(i)];
      if (now.by == "user") {
        ImGui::PushStyleColor(ImGuiCol_Text, ToneColor(Tone::kNote));
        ImGui::TextUnformatted("user");
        ImGui::PopStyleColor();
      } else {
        ImGui::TextDisabled("%s", now.by.empty() ? "-" : now.by.c_str());
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  if (dialog->map_path.empty()) {
    ImGui::TextDisabled("The built-in character has no file: edits apply to this import only.");
  } else {
    ImGui::TextDisabled("Edits are saved to %s", dialog->map_path.c_str());
  }
  ImGui::BeginDisabled(dialog->clips.empty());
  if (ImGui::Button("Apply")) Ask(out, RequestKind::kApplyRetarget);
  ImGui::EndDisabled();
  {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    const glm::vec2 px{0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y)};
    dialog->settled_frames = px == dialog->apply_px ? dialog->settled_frames + 1 : 0;
    dialog->apply_px = px;
  }
  Tip("Retarget the clip with this mapping and add it to the open model's clips; it plays.");
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) Ask(out, RequestKind::kCancelRetarget);
  {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    dialog->cancel_px = {0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y)};
  }
  ImGui::End();
  if (!open) Ask(out, RequestKind::kCancelRetarget);
}

}  // namespace app
