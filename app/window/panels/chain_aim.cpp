// IK chains panel, aims: what the bone points at, how the turn spreads, the up reference.
#include <imgui.h>

#include "app/window/panels/chain_parts.h"

namespace app {

void DrawAimOptions(const ik::Skeleton& skeleton, float model_size, ChainSettings* chain,
                    Requests* out) {
  const char* preview =
      chain->target_joint >= 0 ? skeleton.name(chain->target_joint).c_str() : "(the target)";
  if (ImGui::BeginCombo("Aim at", preview)) {
    if (Edited(ImGui::Selectable("(the target)", chain->target_joint < 0), out)) {
      chain->target_joint = -1;
    }
    for (int j = 0; j < skeleton.joint_count(); ++j) {
      ImGui::PushID(j + 5000);
      if (Edited(ImGui::Selectable(skeleton.name(j).c_str(), chain->target_joint == j), out)) {
        chain->target_joint = j;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  Tip("Aim at the target handle, or at another joint (the bone follows it).");
  ImGui::SliderInt("Spread", &chain->spread, 0, 8);
  Tip("Share the turn with this many ancestors (a spine or neck turns as a whole).");
  TrackLastItem(out);
  ImGui::SliderFloat("Falloff", &chain->spread_falloff, 0.05f, 1.0f, "%.2f");
  Tip("How much less each ancestor turns than the joint below it.");
  TrackLastItem(out);
  Edited(ImGui::Checkbox("Up reference", &chain->use_up), out);
  Tip("Keep the bone from rolling: its side points toward this point.");
  if (chain->use_up) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::DragFloat3("##up", &chain->up.x, model_size * 0.002f, 0.0f, 0.0f, "%.3f");
    Tip("The up reference, world space.");
    TrackLastItem(out);
  }
}

}  // namespace app
