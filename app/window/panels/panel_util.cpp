// Panel helpers.
#include "app/window/panels/panel_util.h"

#include <imgui.h>

#include "app/core/chain_results.h"

namespace app {

void TrackLastItem(Requests* out) {
  if (ImGui::IsItemActivated()) Ask(out, RequestKind::kEditBegan);
  if (ImGui::IsItemDeactivated()) Ask(out, RequestKind::kEditEnded);
}

glm::vec3 EulerDegrees(const glm::quat& q) { return glm::degrees(glm::eulerAngles(q)); }

void TransformRows(const char* label, const ik::Transform& t) {
  const glm::vec3 euler = EulerDegrees(t.rotation);
  ImGui::Text("%s T  %8.4f %8.4f %8.4f", label, double(t.translation.x), double(t.translation.y),
              double(t.translation.z));
  ImGui::Text("%s R  %8.2f %8.2f %8.2f deg (quat %.3f %.3f %.3f %.3f)", label, double(euler.x),
              double(euler.y), double(euler.z), double(t.rotation.x), double(t.rotation.y),
              double(t.rotation.z), double(t.rotation.w));
  ImGui::Text("%s S  %8.4f %8.4f %8.4f", label, double(t.scale.x), double(t.scale.y),
              double(t.scale.z));
}

glm::vec3 EffectorOf(const FrameInput& in, const EditState& edit, int chain) {
  return ChainInfo(in.model.skeleton, edit, in.frame, chain).effector;
}

}  // namespace app
