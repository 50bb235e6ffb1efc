// IK chains panel, two-bone chains: pole, hinge, soft, end orientation and the solver's result.
#include <imgui.h>

#include "app/window/panels/chain_parts.h"

namespace app {

namespace {

const char* kEndOrientationNames[] = {"keep local (seed)", "keep world", "target rotation"};

}  // namespace

void DrawTwoBoneOptions(const ik::TwoBoneIkResult* result, float model_size, ChainSettings* chain,
                        Requests* out) {
  if (Edited(ImGui::Checkbox("Pole", &chain->use_pole), out) && chain->use_pole && result) {
    // Start the pole in front of the current knee, along its bend.
    const glm::vec3 middle = 0.5f * (result->a + result->c_final);
    glm::vec3 out_of_line = result->b_final - middle;
    if (glm::length(out_of_line) < 1e-6f) out_of_line = glm::vec3(0.0f, 0.0f, 1.0f);
    chain->pole = result->b_final + glm::normalize(out_of_line) * model_size * 0.2f;
  }
  Tip("Aim the knee (elbow) at a pole point instead of keeping the animation's bend plane.");
  if (chain->use_pole) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::DragFloat3("##pole", &chain->pole.x, model_size * 0.002f, 0.0f, 0.0f, "%.3f");
    Tip("The pole point, world space: drag a number or Ctrl+click to type it.");
    TrackLastItem(out);
  }
  Edited(ImGui::Checkbox("Hinge (one-way knee)", &chain->hinge), out);
  Tip("The knee bends one way only, the way the rest pose shows it: a target never folds it\n"
      "backwards.");
  SameLineIfFits(CheckboxWidth("Body helps"));
  Edited(ImGui::Checkbox("Body helps", &chain->body_helps), out);
  Tip("A target beyond the limb's reach: the hips shift and the spine bend to bring it\n"
      "within reach, while the other hands and feet stay on their targets.");
  ImGui::SliderFloat("Soft", &chain->soft, 0.0f, 0.5f, "%.3f");
  Tip("Soft IK: near full reach the limb straightens gradually instead of snapping (the fraction\n"
      "of the reach that is softened).");
  TrackLastItem(out);
}

void DrawTwoBoneEnd(const ik::TwoBoneIkResult* result, ChainSettings* chain, Requests* out) {
  int orientation = static_cast<int>(chain->end_orientation);
  if (Edited(ImGui::Combo("End", &orientation, kEndOrientationNames, 3), out)) {
    chain->end_orientation = static_cast<ik::EndOrientation>(orientation);
  }
  Tip("How the hand or foot turns: as animated relative to its parent, as animated in the\n"
      "world, or as the target's rotation.");
  if (result) {
    ImGui::Text("case %s, %s, error %.2e", ik::CaseName(result->solve_case),
                result->reached ? "reached" : "not reached", double(result->error));
    ImGui::Text("fallback %s", ik::FallbackName(result->fallback));
    ImGui::Text("knee circle r %.4f, reach %.3f..%.3f", double(result->circle.radius),
                double(result->reach_min), double(result->reach_max));
  }
}

}  // namespace app
