// Weights: the views of the skin weights (one joint's heat map, influence counts, problem
// vertices) and the problems the importer found, each with its count and a button to frame them.
#include <imgui.h>

#include <cstdio>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

ImVec4 KeyColor(const glm::vec3& rgb) { return ImVec4(rgb.r, rgb.g, rgb.b, 1.0f); }

const char* const kProblemTips[assets::kWeightProblemKinds] = {
    "Vertices no joint moves (no influence, or every weight 0): they follow the mesh's node.",
    "Vertices whose weights did not add up to 1 in the file: skelview renormalised them, other "
    "programs may not.",
    "Vertices with more than 8 joint influences: the 8 largest were kept and renormalised."};

void DrawInfluenceKey() {
  for (int count = 1; count <= 8; ++count) {
    char label[16];
    std::snprintf(label, sizeof(label), count < 8 ? "%d" : "%d+", count);
    if (count > 1) ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::TextColored(KeyColor(renderer::kInfluenceColors[count]), "%s", label);
  }
  ImGui::SameLine();
  ImGui::TextColored(KeyColor(renderer::kInfluenceColors[0]), "none");
}

}  // namespace

void DrawWeightsPanel(const FrameInput& in, const Selection& selection, DisplaySettings* display,
                      Requests* out) {
  const bool open = ImGui::CollapsingHeader("Weights", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("How the mesh is bound to the bones.");
  if (!open) return;
  SceneOptions& scene = display->scene;
  ImGui::Checkbox("Heat map", &display->show_weights);
  Tip("The selected joint's skin weights on the mesh: blue 0, green 0.5, red 1 (as in Blender).");
  ImGui::SameLine();
  const ik::Skeleton& skeleton = in.model.skeleton;
  if (selection.selected_joint >= 0 && selection.selected_joint < skeleton.joint_count()) {
    ImGui::Text("of %s", skeleton.name(selection.selected_joint).c_str());
  } else {
    ImGui::TextDisabled("(select a joint)");
  }
  ImGui::Checkbox("Influences", &scene.influences);
  Tip("Each vertex coloured by how many joints move it with a non-zero weight.");
  if (scene.influences) DrawInfluenceKey();
  ImGui::Checkbox("Problems", &scene.weight_problems);
  Tip("The problem vertices below, bright on a grey mesh: unweighted magenta, not summing to 1 "
      "yellow, more than 8 influences red.");
  for (int k = 0; k < assets::kWeightProblemKinds; ++k) {
    const auto kind = static_cast<assets::WeightProblem>(k);
    const unsigned long long count =
        in.weight_problems ? static_cast<unsigned long long>(in.weight_problems->count(kind)) : 0;
    ImGui::PushID(k);
    ImGui::BeginDisabled(count == 0);
    if (ImGui::SmallButton("Frame")) Ask(out, RequestKind::kFrameVertices, {}, false, k);
    ImGui::EndDisabled();
    Tip(count == 0 ? "None to frame."
                   : "Point the camera at these vertices and show the problems.");
    ImGui::SameLine();
    ImGui::TextColored(
        count > 0 ? KeyColor(renderer::kProblemColors[k]) : ImGui::GetStyleColorVec4(ImGuiCol_Text),
        "%s: %llu", assets::WeightProblemLabel(kind), count);
    Tip(kProblemTips[k]);
    ImGui::PopID();
  }
}

}  // namespace app
