// Model: statistics, an avatar's description and load warnings.
#include <imgui.h>

#include <utility>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawModelPanel(const assets::Model& model, size_t chain_count) {
  const bool open = ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("The file shown, its counts, an avatar's description and what loading it warned about.");
  if (!open) return;
  ImGui::TextWrapped("%s", model.source.c_str());
  if (model.skeleton.joint_count() == 0 && model.meshes.empty()) {
    ImGui::TextWrapped("Open a model with File > Open (Ctrl+O), or drop a file on the window.");
  }
  int bones = 0;
  for (bool b : model.is_bone) bones += b ? 1 : 0;
  ImGui::Text("%zu meshes, %zu vertices, %zu triangles", model.meshes.size(), model.vertex_count(),
              model.triangle_count());
  ImGui::Text("%d joints (%d bones), %zu clips, %zu chains", model.skeleton.joint_count(), bones,
              model.clips.size(), chain_count);
  if (!model.avatar.empty()) {
    // The avatar's own description: who made it and under which licence it may be used.
    const assets::AvatarMeta& avatar = model.avatar;
    ImGui::Text("%s avatar, %zu humanoid bones", avatar.format.c_str(),
                model.skeleton.humanoid().size());
    Tip("Limbs are taken from the avatar's humanoid bone map.");
    const std::pair<const char*, const std::string*> rows[] = {
        {"Title", &avatar.title}, {"Author", &avatar.author}, {"Licence", &avatar.license}};
    for (const auto& [label, value] : rows) {
      ImGui::TextWrapped("%s: %s", label, value->empty() ? "(not given)" : value->c_str());
    }
  }
  for (const std::string& w : model.warnings) {
    ImGui::PushStyleColor(ImGuiCol_Text, ToneColor(Tone::kWarning));
    ImGui::TextWrapped("warning: %s", w.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace app
