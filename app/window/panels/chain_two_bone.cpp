// IK chains panel, two-bone chains: pole, hinge, soft, end orientation, the solver's result and
// the live meters (flip risk, knee jump, soft curve).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/core/chain_results.h"
#include "app/core/flip_risk.h"
#include "app/window/panels/chain_parts.h"

namespace app {

namespace {

const char* kEndOrientationNames[] = {"keep local (seed)", "keep world", "target rotation"};

ImVec4 LevelColor(FlipLevel level) {
  switch (level) {
    case FlipLevel::kSafe:
      return ImVec4(0.25f, 0.7f, 0.35f, 1.0f);
    case FlipLevel::kCaution:
      return ImVec4(0.95f, 0.55f, 0.1f, 1.0f);
    case FlipLevel::kDanger:
      return ImVec4(0.9f, 0.15f, 0.1f, 1.0f);
  }
  return ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
}

// The flip-risk bar: full at 90° (the bend plane well defined), empty at 0°.
void DrawFlipBar(const FlipRisk& risk) {
  char overlay[64];
  std::snprintf(overlay, sizeof(overlay), "%s %.1f deg from the line",
                risk.from_pole ? "pole" : "knee", double(risk.angle_degrees));
  ImGui::PushStyleColor(ImGuiCol_PlotHistogram, LevelColor(risk.level));
  ImGui::ProgressBar(risk.angle_degrees / 90.0f, ImVec2(-ImGui::GetFontSize() * kLabelColumnEms, 0),
                     overlay);
  ImGui::PopStyleColor();
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::TextUnformatted("Flip risk");
  Tip("The angle between the pole (without one, the knee before the solve) and the line from the\n"
      "hip or shoulder to the target. Near 0 the bend plane is undefined and the knee can flip.");
}

// Softened reach against target distance, both from 0 to 1.2 × full reach on the same scale.
void DrawSoftCurve(const ik::TwoBoneIkResult& result, float soft, const char* units) {
  const float width = std::max(ImGui::GetContentRegionAvail().x, 60.0f);
  const float height = std::min(width * 0.5f, ImGui::GetFontSize() * 8.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##soft curve", ImVec2(width, height));
  Tip("Soft IK: where the hand or foot goes (up) for a target this far (right). The grey diagonal\n"
      "is no softening; the vertical line is where softening starts; the dot is the target now.");
  const float full = std::max(result.reach_max, 1e-6f);
  const float range = 1.2f * full;
  const float pad = ImGui::GetFontSize() * 0.3f;
  const auto at = [&](float distance, float reach) {
    return ImVec2(origin.x + pad + (width - 2.0f * pad) * distance / range,
                  origin.y + height - pad - (height - 2.0f * pad) * reach / range);
  };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRect(origin, ImVec2(origin.x + width, origin.y + height),
                ImGui::GetColorU32(ImGuiCol_Border));
  const ImU32 grey = IM_COL32(140, 140, 140, 200);
  draw->AddLine(at(0.0f, 0.0f), at(range, range), grey);       // identity: no softening
  draw->AddLine(at(0.0f, full), at(range, full), grey, 1.0f);  // full reach
  const float start = (1.0f - soft) * full;
  draw->AddLine(at(start, 0.0f), at(start, range), IM_COL32(90, 160, 230, 220));
  constexpr int kSamples = 48;
  ImVec2 curve[kSamples];
  for (int k = 0; k < kSamples; ++k) {
    const float d = range * static_cast<float>(k) / static_cast<float>(kSamples - 1);
    curve[k] = at(d, SoftenedReach(d, result.reach_min, result.reach_max, soft));
  }
  draw->AddPolyline(curve, kSamples, IM_COL32(240, 200, 60, 255), ImDrawFlags_None, 2.0f);
  const float distance = glm::length(result.target - result.a);
  const float reach = SoftenedReach(distance, result.reach_min, result.reach_max, soft);
  if (std::isfinite(distance)) {
    draw->AddCircleFilled(at(std::min(distance, range), reach), pad * 1.6f,
                          IM_COL32(255, 90, 60, 255));
  }
  ImGui::Text("soft from %.3g %s; target %.3g -> %.3g %s", double(start), units, double(distance),
              double(reach), units);
}

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

void DrawTwoBoneMeters(const FrameInput& in, int chain, const ChainSettings& settings) {
  const ik::TwoBoneIkResult* result = TwoBoneResultOf(in.frame, in.state, chain);
  if (!result || result->fallback != ik::TwoBoneFallback::kNone) return;
  const FlipRisk risk = MeasureFlipRisk(*result, ChainPole(in.frame, chain));
  if (risk.valid) DrawFlipBar(risk);
  const char* units = LengthUnits(in.model);
  const KneeJump* jump = in.knee_jumps && chain < static_cast<int>(in.knee_jumps->size())
                             ? &(*in.knee_jumps)[chain]
                             : nullptr;
  if (jump) {
    ImGui::Text("knee jump %.3g %s (%.1f%% of the limb)", double(jump->jump), units,
                double(jump->jump_fraction * 100.0f));
    Tip("How far the solved knee (elbow) moved between the last two frames: a sudden jump while\n"
        "the target moves smoothly is a flip or a pop.");
  }
  if (risk.valid && risk.level != FlipLevel::kSafe) {
    ImGui::TextColored(LevelColor(risk.level), "%s nearly on the target line: the knee can flip",
                       risk.from_pole ? "pole" : "knee");
  }
  if (jump && jump->jump_fraction > kKneeJumpWarnFraction) {
    ImGui::TextColored(LevelColor(FlipLevel::kDanger), "the knee jumped %.0f%% of the limb",
                       double(jump->jump_fraction * 100.0f));
  }
  if (settings.soft > 0.0f) DrawSoftCurve(*result, settings.soft, units);
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
