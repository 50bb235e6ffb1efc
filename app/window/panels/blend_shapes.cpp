// The side panel's "Blend shapes" section: per mesh with morph targets, a slider per target
// showing this frame's weight (the clip's keys as they play, else the default) and setting it by
// hand as an undoable edit of EditState::morph_weights.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/window/panels/panel_util.h"

namespace app {

void DrawBlendShapesPanel(const FrameInput& in, EditState* edit, Requests* out) {
  const assets::Model& model = in.model;
  if (!assets::HasMorphTargets(model)) return;
  if (!ImGui::CollapsingHeader("Blend shapes")) return;
  const assets::MorphWeights& weights = in.state.morph_weights;
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const assets::Mesh& mesh = model.meshes[m];
    if (mesh.targets.empty()) continue;
    ImGui::PushID(static_cast<int>(m));
    // Labels formatted into buffers: an idle frame allocates nothing.
    char label[160];
    if (mesh.name.empty()) {
      std::snprintf(label, sizeof(label), "mesh %zu", m);
    } else {
      std::snprintf(label, sizeof(label), "%s", mesh.name.c_str());
    }
    if (ImGui::TreeNode("mesh", "%s (%zu)", label, mesh.targets.size())) {
      for (size_t t = 0; t < mesh.targets.size(); ++t) {
        ImGui::PushID(static_cast<int>(t));
        const std::pair<int, int> key(static_cast<int>(m), static_cast<int>(t));
        float w = m < weights.size() && t < weights[m].size() ? weights[m][t] : 0.0f;
        if (mesh.targets[t].name.empty()) {
          std::snprintf(label, sizeof(label), "target %zu", t);
        } else {
          std::snprintf(label, sizeof(label), "%s", mesh.targets[t].name.c_str());
        }
        if (ImGui::SliderFloat(label, &w, 0.0f, 1.0f, "%.3f")) {
          edit->morph_weights[key] = w;
        }
        Tip("The target's weight this frame (the clip's keys as it plays); moving it sets it by "
            "hand.");
        TrackLastItem(out);
        if (edit->morph_weights.count(key)) {
          SameLineIfFits(ButtonWidth("clear"));
          if (Edited(ImGui::SmallButton("clear"), out)) edit->morph_weights.erase(key);
          Tip("Drop the hand-set weight: the clip's or default comes back.");
        }
        ImGui::PopID();
      }
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
}

}  // namespace app
