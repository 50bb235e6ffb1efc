// The last message, near the top for eight seconds; errors in red.
#include <imgui.h>

#include "app/window/panels/panels.h"

namespace app {

void DrawMessage(const Message& message) {
  if (message.text.empty() || MillisecondsSince(message.time) > 8000.0) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f + 180.0f, 12.0f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("##message", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
  const ImVec4 color =
      message.is_error ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.85f, 0.9f, 1.0f, 1.0f);
  ImGui::PushTextWrapPos(560.0f);
  ImGui::TextColored(color, "%s", message.text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace app
