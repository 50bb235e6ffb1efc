// The progress of a file being opened in the background, with Cancel.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawLoading(const ImportProcess& loading, Requests* out) {
  const ImGuiIO& io = ImGui::GetIO();
  // At the bottom, so the current model (still usable meanwhile) stays in view.
  ImGui::SetNextWindowPos(
      ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y - ImGui::GetFrameHeight() * 2.0f),
      ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(420.0f, 0.0f), ImGuiCond_Always);
  ImGui::Begin("Loading", nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::TextWrapped("%s", loading.path().c_str());
  ImGui::ProgressBar(loading.progress(), ImVec2(-1.0f, 0.0f));
  ImGui::TextDisabled("the current model stays usable until the new one is ready");
  if (ImGui::Button("Cancel")) Ask(out, RequestKind::kCancelLoading);
  Tip("Stop loading; the current model stays.");
  ImGui::End();
}

}  // namespace app
