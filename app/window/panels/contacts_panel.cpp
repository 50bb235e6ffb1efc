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
  if (!ImGui::CollapsingHeader("Ground and ladder")) return;
  SceneContacts& c = edit->contacts;
  const float step = model_size * 0.002f;
  Edited(ImGui::Checkbox("Ground plane", &c.ground.enabled), out);
  SameLineIfFits(CheckboxWidth("Lower hips to reach"));
  Edited(ImGui::Checkbox("Lower hips to reach", &c.lower_hips), out);
  ImGui::DragFloat("Height", &c.ground.height, step, -1e6f, 1e6f, "%.3f");
  TrackLastItem(out);
  ImGui::SliderFloat("Tilt X", &c.ground.tilt_x_degrees, -45.0f, 45.0f, "%.1f deg");
  TrackLastItem(out);
  ImGui::SliderFloat("Tilt Z", &c.ground.tilt_z_degrees, -45.0f, 45.0f, "%.1f deg");
  TrackLastItem(out);
  if (Edited(ImGui::Button("Feet on the ground"), out)) {
    c.ground.enabled = true;
    PutLimbsOn("Leg", TargetMode::kGround, edit);
  }
  ImGui::Separator();
  Edited(ImGui::Checkbox("Ladder", &c.ladder.enabled), out);
  ImGui::DragFloat3("First rung", &c.ladder.base.x, step, 0.0f, 0.0f, "%.3f");
  TrackLastItem(out);
  ImGui::DragFloat("Rung spacing", &c.ladder.spacing, step, model_size * 0.01f, 1e6f, "%.3f");
  TrackLastItem(out);
  ImGui::DragFloat("Rung width", &c.ladder.width, step, model_size * 0.01f, 1e6f, "%.3f");
  TrackLastItem(out);
  ImGui::SliderInt("Rungs", &c.ladder.count, 1, 20);
  TrackLastItem(out);
  if (Edited(ImGui::Button("Hands on the rungs"), out)) {
    c.ladder.enabled = true;
    PutLimbsOn("Arm", TargetMode::kRung, edit);
  }
}

}  // namespace app
