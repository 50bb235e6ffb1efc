// Animation: the clip, the clips played with it, the speed. Playing, stepping, scrubbing and the
// loop range are on the timeline.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/core/ghost_poses.h"
#include "app/scene/anim_overlays.h"
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

// Onion skins (on/off, count, spacing) and the trail of the selected joint.
void DrawOnionRows(const assets::Model& model, int selected_joint, DisplaySettings* display) {
  SceneOptions& scene = display->scene;
  // The count comes back as it was when the ghosts are turned on again.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID remembered = ImGui::GetID("onion count");
  bool onion = scene.onion_count > 0;
  if (ImGui::Checkbox("Onion skins", &onion)) {
    scene.onion_count = onion ? std::clamp(storage->GetInt(remembered, 2), 1, kMaxOnionCount) : 0;
  }
  static const std::string onion_tip =
      std::string("Ghosts of the skeleton a few frames before (") + kGhostPastColorName +
      ") and after (" + kGhostFutureColorName +
      ") the current time, fainter further away; with the IK as it is now.";
  Tip(onion_tip.c_str());
  if (onion) {
    int count = scene.onion_count;
    if (ImGui::SliderInt("Ghosts", &count, 1, kMaxOnionCount, "%d each side")) {
      scene.onion_count = std::clamp(count, 1, kMaxOnionCount);
      storage->SetInt(remembered, scene.onion_count);
    }
    Tip("How many ghosts on each side of the current time.");
    if (ImGui::SliderInt("Spacing", &scene.onion_step, 1, 30, "%d frame(s)")) {
      scene.onion_step = std::clamp(scene.onion_step, 1, 120);
    }
    Tip("Frames of the clip between two ghosts.");
  }
  bool trail = scene.trail_joint >= 0;
  const bool can_start = trail || selected_joint >= 0;
  if (!can_start) ImGui::BeginDisabled();
  if (ImGui::Checkbox("Trail of the selected joint", &trail)) {
    scene.trail_joint = trail ? selected_joint : -1;
  }
  if (!can_start) ImGui::EndDisabled();
  static const std::string trail_tip =
      std::string(
          "The path of the selected joint over the clip (or the loop range), a tick per "
          "frame: before the current time (") +
      kGhostPastColorName + "), after it (" + kGhostFutureColorName + ").";
  Tip(can_start ? trail_tip.c_str()
                : "Select a joint first (click a bone, or in the Joints section).");
  if (trail && scene.trail_joint >= 0 && scene.trail_joint < model.skeleton.joint_count()) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", model.skeleton.name(scene.trail_joint).c_str());
  }
}

}  // namespace

void DrawAnimationPanel(const assets::Model& model, int file_clips, Playback* playback,
                        DisplaySettings* display, int selected_joint) {
  // The trail is the selected joint's: it follows the selection while it is on, whether the
  // section is open or not, and ends when nothing is selected (a new file selects nothing).
  if (display && display->scene.trail_joint >= 0) display->scene.trail_joint = selected_joint;
  const bool open = ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("The model's clips: which one plays, with which others, how fast. Play, step and scrub on "
      "the timeline at the bottom.");
  if (!open) return;
  const int count = static_cast<int>(model.clips.size());
  file_clips = file_clips < 0 ? count : std::min(file_clips, count);
  if (file_clips <= 0) {
    const bool nothing_loaded = model.skeleton.joint_count() == 0 && model.meshes.empty();
    ImGui::TextDisabled(nothing_loaded ? "nothing loaded" : "no clips in this model");
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
  if (display) DrawOnionRows(model, selected_joint, display);
}

}  // namespace app
