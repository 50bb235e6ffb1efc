// Display: what the view shows.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawDisplayPanel(DisplaySettings* display, Requests* out) {
  if (!ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) return;
  SceneOptions& scene = display->scene;
  ImGui::Checkbox("Mesh", &scene.mesh);
  SameLineIfFits(CheckboxWidth("Grid"));
  ImGui::Checkbox("Grid", &scene.grid);
  SameLineIfFits(CheckboxWidth("Bones"));
  ImGui::Checkbox("Bones", &scene.skeleton);
  SameLineIfFits(CheckboxWidth("X-ray"));
  ImGui::Checkbox("X-ray", &scene.skeleton_xray);
  ImGui::Checkbox("Joint axes", &scene.joint_axes);
  SameLineIfFits(CheckboxWidth("IK handles"));
  ImGui::Checkbox("IK handles", &display->show_handles);
  ImGui::Checkbox("Knee circles", &scene.ik_overlay);
  SameLineIfFits(CheckboxWidth("Reach shells"));
  ImGui::Checkbox("Reach shells", &scene.reach_shell);
  SameLineIfFits(CheckboxWidth("Limits"));
  ImGui::Checkbox("Limits", &scene.joint_limits);
  ImGui::SliderFloat("Mesh opacity", &scene.mesh_opacity, 0.05f, 1.0f, "%.2f");
  if (ImGui::Button("Frame model (F)")) Ask(out, RequestKind::kFrameCamera);
  SameLineIfFits(ButtonWidth("Screenshot (F12)"));
  if (ImGui::Button("Screenshot (F12)")) Ask(out, RequestKind::kScreenshot);
}

}  // namespace app
