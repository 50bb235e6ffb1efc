// Animation: the clip, stepping, playing, looping, speed and time.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawAnimationPanel(const assets::Model& model, Playback* playback) {
  const bool open = ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("The model's clips: play, step and scrub.");
  if (!open) return;
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
  Tip("The clip to play, or the rest pose.");
  if (p.clip < 0) return;
  if (ImGui::Button("|<")) p.time = 0.0f;
  Tip("First frame.");
  ImGui::SameLine();
  if (ImGui::Button("<")) StepPlayback(-1, PlaybackFrameRate(model, p), playback);
  Tip("Previous frame, at the clip's own frame rate (Left arrow).");
  ImGui::SameLine();
  if (ImGui::Button(p.playing ? "Pause" : "Play")) p.playing = !p.playing;
  Tip("Play or pause (Space).");
  ImGui::SameLine();
  if (ImGui::Button(">")) StepPlayback(1, PlaybackFrameRate(model, p), playback);
  Tip("Next frame, at the clip's own frame rate (Right arrow).");
  ImGui::SameLine();
  if (ImGui::Button(">|")) p.time = model.clips[p.clip].duration;
  Tip("Last frame.");
  SameLineIfFits(CheckboxWidth("Loop"));
  ImGui::Checkbox("Loop", &p.loop);
  Tip("Start over at the end; off, playing stops there.");
  ImGui::SliderFloat("Speed", &p.speed, -2.0f, 2.0f, "%.2fx");
  Tip("Playback speed; negative plays backwards. Ctrl+click to type a value.");
  ImGui::SliderFloat("Time", &p.time, 0.0f, model.clips[p.clip].duration, "%.3f s");
  Tip("Where in the clip, seconds: drag to scrub. Ctrl+click to type a value.");
}

}  // namespace app
