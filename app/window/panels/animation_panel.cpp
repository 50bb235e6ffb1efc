// Animation: the clip, stepping, playing, looping, speed and time.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawAnimationPanel(const assets::Model& model, Playback* playback) {
  if (!ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (model.clips.empty()) {
    ImGui::TextDisabled("no clips in this model");
    return;
  }
  Playback& p = *playback;
  const char* preview = p.clip >= 0 ? model.clips[p.clip].name.c_str() : "(rest pose)";
  if (ImGui::BeginCombo("Clip", preview)) {
    if (ImGui::Selectable("(rest pose)", p.clip < 0)) p.clip = -1;
    for (int c = 0; c < static_cast<int>(model.clips.size()); ++c) {
      ImGui::PushID(c);
      const std::string label =
          model.clips[c].name.empty() ? "clip " + std::to_string(c) : model.clips[c].name;
      if (ImGui::Selectable(label.c_str(), p.clip == c)) {
        p.clip = c;
        p.time = 0.0f;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (p.clip < 0) return;
  if (ImGui::Button("|<")) p.time = 0.0f;
  ImGui::SameLine();
  if (ImGui::Button("<")) StepPlayback(-1, PlaybackFrameRate(model, p), playback);
  ImGui::SameLine();
  if (ImGui::Button(p.playing ? "Pause" : "Play")) p.playing = !p.playing;
  ImGui::SameLine();
  if (ImGui::Button(">")) StepPlayback(1, PlaybackFrameRate(model, p), playback);
  ImGui::SameLine();
  if (ImGui::Button(">|")) p.time = model.clips[p.clip].duration;
  SameLineIfFits(CheckboxWidth("Loop"));
  ImGui::Checkbox("Loop", &p.loop);
  ImGui::SliderFloat("Speed", &p.speed, -2.0f, 2.0f, "%.2fx");
  ImGui::SliderFloat("Time", &p.time, 0.0f, model.clips[p.clip].duration, "%.3f s");
}

}  // namespace app
