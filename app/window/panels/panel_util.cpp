// Panel helpers.
#include "app/window/panels/panel_util.h"

#include <imgui.h>
#include <imgui_internal.h>  // HoveredIdTimer: tooltips after a rest

#include "app/core/chain_results.h"

namespace app {

ImVec4 ToneColor(Tone tone) {
  const ImVec4 text = ImGui::GetStyle().Colors[ImGuiCol_Text];
  const bool light = text.x + text.y + text.z < 1.5f;
  switch (tone) {
    case Tone::kGood:
      return light ? ImVec4(0.1f, 0.5f, 0.15f, 1.0f) : ImVec4(0.45f, 0.9f, 0.45f, 1.0f);
    case Tone::kWarning:
      return light ? ImVec4(0.65f, 0.4f, 0.0f, 1.0f) : ImVec4(1.0f, 0.8f, 0.4f, 1.0f);
    case Tone::kError:
      return light ? ImVec4(0.75f, 0.1f, 0.05f, 1.0f) : ImVec4(1.0f, 0.45f, 0.4f, 1.0f);
    case Tone::kNote:
      break;
  }
  return light ? ImVec4(0.1f, 0.2f, 0.45f, 1.0f) : ImVec4(0.85f, 0.9f, 1.0f, 1.0f);
}

void TrackLastItem(Requests* out) {
  if (ImGui::IsItemActivated()) Ask(out, RequestKind::kEditBegan);
  if (ImGui::IsItemDeactivated()) Ask(out, RequestKind::kEditEnded);
}

void SameLineIfFits(float next_width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + next_width <= right) ImGui::SameLine();
}

void Tip(const char* text) {
  constexpr float kRestSeconds = 0.4f;
  if (ImGui::IsItemActive() || !ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImGuiID id = ImGui::GetItemID();
  if (id != 0 && g.HoveredId == id && g.HoveredIdTimer < kRestSeconds) return;
  // The tooltip is a window of its own; the item it explains stays the last item, so that
  // TrackLastItem after it still sees the item's activation and release.
  const ImGuiLastItemData item = g.LastItemData;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
  g.LastItemData = item;
}

float ButtonWidth(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

float CheckboxWidth(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
         ImGui::CalcTextSize(label, nullptr, true).x;
}

glm::vec3 EulerDegrees(const glm::quat& q) { return glm::degrees(glm::eulerAngles(q)); }

void TransformRows(const char* label, const ik::Transform& t) {
  const glm::vec3 euler = EulerDegrees(t.rotation);
  ImGui::Text("%s T %9.4f %9.4f %9.4f", label, double(t.translation.x), double(t.translation.y),
              double(t.translation.z));
  ImGui::Text("%s R %9.2f %9.2f %9.2f deg", label, double(euler.x), double(euler.y),
              double(euler.z));
  ImGui::Text("%s Q %7.3f %7.3f %7.3f %7.3f", label, double(t.rotation.x), double(t.rotation.y),
              double(t.rotation.z), double(t.rotation.w));
  ImGui::Text("%s S %9.4f %9.4f %9.4f", label, double(t.scale.x), double(t.scale.y),
              double(t.scale.z));
}

glm::vec3 EffectorOf(const FrameInput& in, const EditState& edit, int chain) {
  return ChainInfo(in.model.skeleton, edit, in.frame, chain).effector;
}

}  // namespace app
