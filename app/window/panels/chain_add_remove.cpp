// IK chains panel, below the list: resetting targets and the pose, adding and removing chains.
#include <imgui.h>

#include "app/window/panels/chain_parts.h"

namespace app {

void RemoveChain(int chain, EditState* edit, Selection* selection, Requests* out) {
  edit->chains.erase(edit->chains.begin() + chain);
  selection->active_chain = -1;
  selection->hover_chain = -1;
  Edited(true, out);
}

void DrawChainListButtons(const FrameInput& in, EditState* edit, Selection* selection,
                          Requests* out) {
  const assets::Model& model = in.model;
  // The loop resets, as for Alt+G (one undo step, a `reset` trace event).
  if (ImGui::Button("Reset all targets")) Ask(out, RequestKind::kResetAllTargets);
  Tip("Put every target back on its hand or foot (Alt+G with no handle active); one undo step.");
  SameLineIfFits(ButtonWidth("Reset pose"));
  if (ImGui::Button("Reset pose")) Ask(out, RequestKind::kResetPose);
  Tip("Drop the edited joint rotations and reset every target; one undo step.");
  const int selected = selection->selected_joint;
  ImGui::BeginDisabled(selected < 0);
  // New constraints on the selected joint: a two-bone chain ending there, an aim of its bone, or
  // a FABRIK chain from the marked root down to it.
  ChainSettings added;
  std::string error;
  bool add = false, failed = false;
  if (ImGui::Button("Add two-bone chain") && selected >= 0) {
    add = MakeChain(in.character, selected, &added, &error);
    failed = !add;
  }
  Tip("A two-bone chain ending at the selected joint (select a hand or foot first).");
  SameLineIfFits(ButtonWidth("Add aim"));
  if (ImGui::Button("Add aim") && selected >= 0) {
    add = MakeAim(model, selected, &added, &error);
    failed = !add;
  }
  Tip("Point the selected joint's bone at a target or another joint.");
  if (ImGui::Button("Mark FABRIK root") && selected >= 0) selection->fabrik_root = selected;
  Tip("Remember the selected joint as the top of a FABRIK chain; then select its end.");
  SameLineIfFits(ButtonWidth("Add FABRIK chain"));
  ImGui::BeginDisabled(selection->fabrik_root < 0);
  if (ImGui::Button("Add FABRIK chain") && selected >= 0) {
    add = MakeFabrik(model, selection->fabrik_root, selected, &added, &error);
    failed = !add;
  }
  Tip("A FABRIK chain from the marked root down to the selected joint (any length: spine, neck, "
      "tail).");
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  if (selection->fabrik_root >= 0 && selection->fabrik_root < model.skeleton.joint_count()) {
    ImGui::TextWrapped("FABRIK root: %s (the chain runs from it down to the selected joint)",
                       model.skeleton.name(selection->fabrik_root).c_str());
  }
  if (Edited(add, out)) {
    edit->chains.push_back(added);
    selection->active_chain = static_cast<int>(edit->chains.size()) - 1;
    // The target starts on the effector (the bone's tip for an aim): nothing moves yet.
    ResetChainTarget(&edit->chains.back(), EffectorOf(in, *edit, selection->active_chain));
  }
  if (failed) Ask(out, RequestKind::kMessage, error, /*option=*/true);
}

}  // namespace app
