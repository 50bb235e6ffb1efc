// IK chains panel, body handles (full-body IK): hold or free the joint, what the body solve did,
// and how much the hips and spine help.
#include <imgui.h>

#include "app/window/panels/chain_parts.h"

namespace app {

void DrawBodyOptions(const PoseState& state, ChainSettings* chain, ik::FullBodyOptions* options,
                     Requests* out) {
  Edited(ImGui::Checkbox("Hold here (pin)", &chain->body_pin), out);
  Tip("Held: the joint stays at its handle while hands and feet reach (a pin).\n"
      "Free: it follows the animation until you drag its handle.");
  if (state.body_ran && state.body.valid) {
    const ik::FullBodyResult& r = state.body;
    ImGui::Text("%s (%d iteration%s), error %.1e", r.reached ? "reached" : "missed", r.iterations,
                r.iterations == 1 ? "" : "s", double(r.max_error));
    ImGui::Text("hips moved %.3f%s", double(glm::length(r.hips_offset_model)),
                r.limited ? ", a joint limit held the spine" : "");
  } else {
    ImGui::TextWrapped("Not moving the body: drag this handle, or tick a chain's Body helps.");
  }
  ImGui::Separator();
  ImGui::TextDisabled("How the body helps (every chain)");
  ImGui::SliderFloat("Hips shift", &options->hips_translation_weight, 0.0f, 4.0f, "%.2f");
  TrackLastItem(out);
  Tip("How far the hips move to bring a far target within reach (0: they stay).");
  ImGui::SliderFloat("Hips tilt", &options->hips_rotation_weight, 0.0f, 4.0f, "%.2f");
  TrackLastItem(out);
  Tip("How much the pelvis tilts (0: it keeps its angle).");
  ImGui::SliderFloat("Spine bend", &options->spine_weight, 0.0f, 4.0f, "%.2f");
  TrackLastItem(out);
  Tip("How much each spine joint above the hips bends (0: the spine stays straight).");
  ImGui::SliderAngle("Most turn", &options->max_body_turn, 0.0f, 180.0f, "%.0f deg");
  TrackLastItem(out);
  Tip("The most any body joint may turn from the animation (joint limits hold as well).");
}

}  // namespace app
