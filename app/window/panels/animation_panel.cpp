// Animation: the clip, the clips played with it, the speed. Playing, stepping, scrubbing and the
// loop range are on the timeline.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

void ClipLabel(const assets::Model& model, int c, char* out, size_t size) {
  const std::string& name = model.clips[static_cast<size_t>(c)].name;
  if (name.empty()) {
    std::snprintf(out, size, "clip %d", c);
  } else {
    std::snprintf(out, size, "%s", name.c_str());
  }
}

}  // namespace

void DrawAnimationPanel(const assets::Model& model, int file_clips, Playback* playback) {
  const bool open = ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("The model's clips: which one plays, with which others, how fast. Play, step and scrub on "
      "the timeline at the bottom.");
  if (!open) return;
  const int count = static_cast<int>(model.clips.size());
  file_clips = file_clips < 0 ? count : std::min(file_clips, count);
  if (file_clips <= 0) {
    ImGui::TextDisabled("no clips in this model");
    return;
  }
  Playback& p = *playback;
  // With clips played together, p.clip is their combination; the first of them is the one chosen.
  const int chosen = p.together.empty() ? p.clip : p.together.front();
  char label[160];
  if (chosen >= 0 && chosen < file_clips) {
    ClipLabel(model, chosen, label, sizeof(label));
  } else {
    std::snprintf(label, sizeof(label), "(rest pose)");
  }
  if (ImGui::BeginCombo("Clip", label)) {
    if (ImGui::Selectable("(rest pose)", chosen < 0)) {
      p.clip = -1;
      p.together.clear();
    }
    for (int c = 0; c < file_clips; ++c) {
      ImGui::PushID(c);
      ClipLabel(model, c, label, sizeof(label));
      if (ImGui::Selectable(label, chosen == c)) {
        p.clip = c;
        p.together.clear();
        p.time = 0.0f;
        p.range_start = 0.0f;
        p.range_end = -1.0f;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  Tip("The clip to play, or the rest pose.");
  if (chosen < 0) return;
  const bool with_open = file_clips > 1 && ImGui::TreeNode("Play with");
  if (file_clips > 1) {
    Tip("Play other clips at the same time: for each joint, the last clip ticked that moves it "
        "wins (an upper-body clip over a walk, say).");
  }
  if (with_open) {
    for (int c = 0; c < file_clips; ++c) {
      if (c == chosen) continue;
      ImGui::PushID(c);
      bool with = std::find(p.together.begin(), p.together.end(), c) != p.together.end();
      ClipLabel(model, c, label, sizeof(label));
      if (ImGui::Checkbox(label, &with)) {
        // The loop rebuilds the combined clip from p.together (chosen first) and points p.clip at
        // it; an empty list plays the chosen clip alone.
        if (p.together.empty()) p.together.push_back(chosen);
        if (with) {
          p.together.push_back(c);
        } else {
          p.together.erase(std::remove(p.together.begin(), p.together.end(), c), p.together.end());
        }
        if (p.together.size() == 1) {
          p.together.clear();
          p.clip = chosen;
        }
      }
      ImGui::PopID();
    }
    ImGui::TreePop();
  }
  ImGui::SliderFloat("Speed", &p.speed, -2.0f, 2.0f, "%.2fx");
  Tip("Playback speed; negative plays backwards. Ctrl+click to type a value.");
}

}  // namespace app
