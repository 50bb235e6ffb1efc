// The status line: frame, update (and IK solve) and draw times, joint, vertex and triangle counts.
#include <imgui.h>

#include <cstdio>

#include "app/window/panels/panels.h"

namespace app {

void DrawStatusLine(const assets::Model& model, const FrameStats& stats, bool dragging) {
  const ImGuiIO& io = ImGui::GetIO();
  const float height = ImGui::GetFrameHeight();
  ImGui::SetNextWindowPos(ImVec2(0.0f, io.DisplaySize.y - height), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, height), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8.0f, 2.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoInputs);
  const double frame_ms = stats.frame_ms.value;
  char text[320];
  std::snprintf(
      text, sizeof(text),
      "frame %.2f ms (%.0f fps) | update %.2f ms (pose + IK %.1f us) | draw %.2f ms | %d joints | "
      "%zu vertices | %zu triangles%s",
      frame_ms, frame_ms > 0 ? 1000.0 / frame_ms : 0.0, stats.update_ms.value, stats.solve_us.value,
      stats.draw_ms.value, model.skeleton.joint_count(), model.vertex_count(),
      model.triangle_count(), dragging ? " | dragging" : "");
  // A narrow window gets the short form rather than a line cut at its edge.
  if (ImGui::CalcTextSize(text).x > ImGui::GetContentRegionAvail().x) {
    std::snprintf(text, sizeof(text), "frame %.1f ms | update %.2f ms | draw %.2f ms | %d joints%s",
                  frame_ms, stats.update_ms.value, stats.draw_ms.value,
                  model.skeleton.joint_count(), dragging ? " | dragging" : "");
  }
  ImGui::TextUnformatted(text);
  ImGui::End();
  ImGui::PopStyleVar(2);
}

}  // namespace app
