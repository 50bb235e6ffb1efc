// Display: what the view shows.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawDisplayPanel(DisplaySettings* display, Requests* out) {
  const bool open = ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("What the view shows.");
  if (!open) return;
  SceneOptions& scene = display->scene;
  ImGui::Checkbox("Mesh", &scene.mesh);
  Tip("The skinned mesh, lit.");
  SameLineIfFits(CheckboxWidth("Grid"));
  ImGui::Checkbox("Grid", &scene.grid);
  Tip("The ground grid, one line per model unit with the X (red) and Z (blue) axes.");
  SameLineIfFits(CheckboxWidth("Bones"));
  ImGui::Checkbox("Bones", &scene.skeleton);
  Tip("Solid bones from each joint to its child: green in the middle, blue on the left, red on the "
      "right, grey for helpers that move no vertex; the active chain orange, the selected bone "
      "white. Click a bone to select it.");
  SameLineIfFits(CheckboxWidth("X-ray"));
  ImGui::Checkbox("X-ray", &scene.skeleton_xray);
  Tip("Bones drawn over the mesh instead of hidden inside it.");
  ImGui::Checkbox("Joint axes", &scene.joint_axes);
  Tip("Each joint's X, Y and Z axes (red, green, blue) from its posed transform.");
  SameLineIfFits(CheckboxWidth("Selected only"));
  ImGui::Checkbox("Selected only", &scene.axes_selected_only);
  Tip("Only the selected joint's axes, drawn longer.");
  SameLineIfFits(CheckboxWidth("IK handles"));
  ImGui::Checkbox("IK handles", &display->show_handles);
  Tip("The target handles: drag a disc to move a target, click one for its arrows and squares.");
  ImGui::Checkbox("Knee circles", &scene.ik_overlay);
  Tip("Per two-bone chain: the circle of possible knee positions, the knee before (grey) and after "
      "(yellow), the target and the pole.");
  SameLineIfFits(CheckboxWidth("Reach shells"));
  ImGui::Checkbox("Reach shells", &scene.reach_shell);
  Tip("Spheres about the hip or shoulder: the nearest and farthest the hand or foot can reach.");
  ImGui::Checkbox("Every chain", &scene.all_chains);
  Tip("Knee circles, knee marks and reach shells of every chain; else only of the active chain "
      "(or the one under the cursor).");
  SameLineIfFits(CheckboxWidth("Limits"));
  ImGui::Checkbox("Limits", &scene.joint_limits);
  Tip("Joint limits: a hinge as an arc, a cone as its rim.");
  SameLineIfFits(CheckboxWidth("Legend"));
  ImGui::Checkbox("Legend", &scene.legend);
  Tip("A key to every mark drawn, in the view's corner.");
  ImGui::SliderFloat("Mesh opacity", &scene.mesh_opacity, 0.05f, 1.0f, "%.2f");
  Tip("See the bones through the mesh. Ctrl+click to type a value.");
  if (ImGui::Button("Frame model (F)")) Ask(out, RequestKind::kFrameCamera);
  Tip("Point the camera at the whole model.");
  SameLineIfFits(ButtonWidth("Frame selected (.)"));
  if (ImGui::Button("Frame selected (.)")) Ask(out, RequestKind::kFrameSelected);
  Tip("Point the camera at the selected joint's bone (no selection: the whole model).");
  SameLineIfFits(ButtonWidth("Screenshot (F12)"));
  if (ImGui::Button("Screenshot (F12)")) Ask(out, RequestKind::kScreenshot);
  Tip("Save the view as skelview-DATE-TIME.png in the working folder.");
}

}  // namespace app
