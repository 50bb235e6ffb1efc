// Display: what the view shows.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawDisplayPanel(DisplaySettings* display, Requests* out) {
  if (!ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) return;
  SceneOptions& scene = display->scene;
  ImGui::Checkbox("Mesh", &scene.mesh);
  ImGui::SameLine();
  ImGui::Checkbox("Grid", &scene.grid);
  ImGui::SameLine();
  ImGui::Checkbox("Bones", &scene.skeleton);
  ImGui::SameLine();
  ImGui::Checkbox("X-ray", &scene.skeleton_xray);
  ImGui::Checkbox("Joint axes", &scene.joint_axes);
  ImGui::SameLine();
  ImGui::Checkbox("IK handles", &display->show_handles);
  ImGui::Checkbox("Knee circles", &scene.ik_overlay);
  ImGui::SameLine();
  ImGui::Checkbox("Reach shells", &scene.reach_shell);
  ImGui::SameLine();
  ImGui::Checkbox("Limits", &scene.joint_limits);
  ImGui::SliderFloat("Mesh opacity", &scene.mesh_opacity, 0.05f, 1.0f, "%.2f");
  if (ImGui::Button("Frame model (F)")) Ask(out, RequestKind::kFrameCamera);
  ImGui::SameLine();
  if (ImGui::Button("Screenshot (F12)")) Ask(out, RequestKind::kScreenshot);
}

}  // namespace app
