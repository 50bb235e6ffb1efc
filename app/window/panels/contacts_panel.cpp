// Ground and ladder: what feet and hands hold on to.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

// Puts every chain whose label contains `limb` ("Leg", "Arm") in `mode` with no offset.
void PutLimbsOn(const char* limb, TargetMode mode, EditState* edit) {
  for (ChainSettings& chain : edit->chains) {
    if (chain.label.find(limb) != std::string::npos) {
      chain.mode = mode;
      chain.offset = glm::vec3(0.0f);
    }
  }
}

}  // namespace

void DrawContactsPanel(float model_size, EditState* edit, Requests* out) {
  const bool open = ImGui::CollapsingHeader("Ground and ladder");
  Tip("What feet and hands hold on to.");
  if (!open) return;
  SceneContacts& c = edit->contacts;
  const float step = model_size * 0.002f;
  Edited(ImGui::Checkbox("Ground plane", &c.ground.enabled), out);
  Tip("A ground plane that feet in 'on the ground' mode stay on.");
  SameLineIfFits(CheckboxWidth("Lower hips to reach"));
  Edited(ImGui::Checkbox("Lower hips to reach", &c.lower_hips), out);
  Tip("Bring the hips down when the ground falls away below the feet.");
  ImGui::DragFloat("Height", &c.ground.height, step, -1e6f, 1e6f, "%.3f");
  Tip("The ground's height, world units.");
  TrackLastItem(out);
  ImGui::SliderFloat("Tilt X", &c.ground.tilt_x_degrees, -45.0f, 45.0f, "%.1f deg");
  Tip("Tilt of the ground about X, degrees.");
  TrackLastItem(out);
  ImGui::SliderFloat("Tilt Z", &c.ground.tilt_z_degrees, -45.0f, 45.0f, "%.1f deg");
  Tip("Tilt of the ground about Z, degrees.");
  TrackLastItem(out);
  if (Edited(ImGui::Button("Feet on the ground"), out)) {
    c.ground.enabled = true;
    PutLimbsOn("Leg", TargetMode::kGround, edit);
  }
  Tip("Put both legs in 'on the ground' mode.");
  ImGui::Separator();
  Edited(ImGui::Checkbox("Ladder", &c.ladder.enabled), out);
  Tip("A ladder whose rungs hands in 'on a ladder rung' mode snap to.");
  ImGui::DragFloat3("First rung", &c.ladder.base.x, step, 0.0f, 0.0f, "%.3f");
  Tip("The lowest rung's centre, world space.");
  TrackLastItem(out);
  ImGui::DragFloat("Rung spacing", &c.ladder.spacing, step, model_size * 0.01f, 1e6f, "%.3f");
  Tip("Distance between rungs.");
  TrackLastItem(out);
  ImGui::DragFloat("Rung width", &c.ladder.width, step, model_size * 0.01f, 1e6f, "%.3f");
  Tip("Length of each rung.");
  TrackLastItem(out);
  ImGui::SliderInt("Rungs", &c.ladder.count, 1, 20);
  Tip("How many rungs.");
  TrackLastItem(out);
  if (Edited(ImGui::Button("Hands on the rungs"), out)) {
    c.ladder.enabled = true;
    PutLimbsOn("Arm", TargetMode::kRung, edit);
  }
  Tip("Put both arms in 'on a ladder rung' mode.");
}

}  // namespace app
