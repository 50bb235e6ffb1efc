// IK chains: the list, each chain's target and weight options, reset and remove. The options of
// each kind are in chain_two_bone.cpp, chain_aim.cpp and chain_fabrik.cpp; adding chains in
// chain_add_remove.cpp.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/core/chain_results.h"
#include "app/window/panels/chain_parts.h"

namespace app {

namespace {

void DrawDescription(const ik::Skeleton& skeleton, const ChainSettings& chain) {
  switch (chain.kind) {
    case ConstraintKind::kTwoBone:
      ImGui::TextDisabled("two-bone: %s > %s > %s", skeleton.name(chain.chain.start).c_str(),
                          skeleton.name(chain.chain.mid).c_str(),
                          skeleton.name(chain.chain.end).c_str());
      break;
    case ConstraintKind::kFabrik:
      ImGui::TextDisabled("FABRIK: %s down to %s", skeleton.name(chain.chain.start).c_str(),
                          skeleton.name(chain.chain.end).c_str());
      break;
    case ConstraintKind::kAim:
      ImGui::TextDisabled(
          "aim: %s points at %s", skeleton.name(chain.chain.end).c_str(),
          chain.target_joint >= 0 ? skeleton.name(chain.target_joint).c_str() : "its target");
      break;
    case ConstraintKind::kBody:
      ImGui::TextDisabled("body: %s; hands and feet stay", skeleton.name(chain.chain.end).c_str());
      break;
  }
}

// The chain's status (ChainWords) right-aligned on its row, or on a row of its own below the
// label when the two would not fit side by side; its colour by the outcome's tone; the solver's
// terms in its tooltip (ChainStatus). Fixed buffers: drawing it allocates nothing.
void DrawStatusBeside(const FrameInput& in, int i, const std::string& label) {
  const ChainOutcome outcome = ChainOutcomeOf(in.frame, in.state, i);
  char status[192];
  ChainWords(outcome, LengthUnits(in.model), status, sizeof(status));
  const float width = ImGui::CalcTextSize(status).x;
  const float label_end = ImGui::GetItemRectMin().x - ImGui::GetWindowPos().x +
                          ImGui::GetTreeNodeToLabelSpacing() + ImGui::CalcTextSize(label.c_str()).x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x * 2.0f;
  const bool beside = label_end + spacing + width <= right;
  const float indent = ImGui::GetTreeNodeToLabelSpacing() * 2.0f;
  if (beside) {
    ImGui::SameLine(right - width);
  } else {
    ImGui::Indent(indent);
  }
  const Tone tone = outcome.tone == ChainTone::kGood      ? Tone::kGood
                    : outcome.tone == ChainTone::kWarning ? Tone::kWarning
                                                          : Tone::kError;
  ImGui::TextColored(ToneColor(tone), "%s", status);
  if (ImGui::IsItemHovered()) {
    // The solver's own terms, for those who want them.
    char detail[224] = "solver: ";
    ChainStatus(outcome, detail + 8, sizeof(detail) - 8);
    Tip(detail);
  }
  if (!beside) ImGui::Unindent(indent);
}

// Target mode and position. Switching to the ground or a rung turns that contact on; switching
// to follow or pinned keeps the handle where it is.
void DrawTarget(const FrameInput& in, float clip_time, int i, EditState* edit, Requests* out) {
  ChainSettings& chain = edit->chains[i];
  int mode = static_cast<int>(chain.mode);
  const EffectorInfo info = ChainInfo(in.model.skeleton, *edit, in.frame, i);
  const glm::vec3 target_before = ChainTarget(chain, info, edit->contacts, clip_time);
  if (Edited(ImGui::Combo("Target", &mode,
                          "follow animation\0pinned in world\0on the ground\0on a ladder rung\0"),
             out)) {
    const bool was_pinned = chain.mode == TargetMode::kPinned;
    chain.mode = static_cast<TargetMode>(mode);
    // Keys hold the pinned point or the offset: switching between them converts each key by
    // where the effector is now (exact for a key at this time; elsewhere the animation's own
    // motion of the effector is not added in).
    if (was_pinned != (chain.mode == TargetMode::kPinned)) {
      for (PointKey& key : chain.target_keys) {
        key.value += was_pinned ? -info.effector : info.effector;
      }
    }
    if (chain.mode == TargetMode::kGround || chain.mode == TargetMode::kRung) {
      chain.offset = glm::vec3(0.0f);  // let the contact place it
      if (chain.mode == TargetMode::kGround) edit->contacts.ground.enabled = true;
      if (chain.mode == TargetMode::kRung) edit->contacts.ladder.enabled = true;
    } else {
      // The handle stays put (a keyed target: keyed so at this time).
      SetChainTarget(&chain, target_before, info, edit->contacts, clip_time);
    }
  }
  Tip("Where the target is: following the animated hand or foot with an offset, pinned in the "
      "world, on the ground plane, or on the nearest ladder rung.");
  glm::vec3 target = target_before;
  if (ImGui::DragFloat3("Position", &target.x, in.extent.size * 0.002f, 0.0f, 0.0f, "%.3f")) {
    SetChainTarget(&chain, target, info, edit->contacts, clip_time);
  }
  Tip("The target, world space. Drag a number, or Ctrl+click to type one; or drag the handle in "
      "the view.");
  TrackLastItem(out);
}

// The weight, constant or keyed over the clip; keys at the current time, edited or erased.
void DrawWeight(float clip_time, ChainSettings* chain, Requests* out) {
  if (chain->weight_keys.empty()) {
    ImGui::SliderFloat("Weight", &chain->weight, 0.0f, 1.0f, "%.2f");
    Tip("How much of the solve is applied: 0 leaves the animation, 1 reaches the target.");
    TrackLastItem(out);
  } else {
    ImGui::Text("Weight %.2f (animated, %zu keys)", double(chain->WeightAt(clip_time)),
                chain->weight_keys.size());
  }
  auto& keys = chain->weight_keys;
  if (Edited(ImGui::SmallButton("Key weight here"), out)) {
    // A key at the current clip time with the current weight (replacing one at that time).
    const float w = chain->WeightAt(clip_time);
    keys.erase(
        std::remove_if(keys.begin(), keys.end(),
                       [&](const glm::vec2& k) { return std::abs(k.x - clip_time) < 1e-4f; }),
        keys.end());
    keys.push_back({clip_time, w});
    std::sort(keys.begin(), keys.end(),
              [](const glm::vec2& a, const glm::vec2& b) { return a.x < b.x; });
  }
  Tip("Key the weight at the current clip time, so the IK fades in and out over the clip.");
  int erase_key = -1;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float key_width = std::max(
      (ImGui::GetContentRegionAvail().x - ButtonWidth("x") - 2.0f * style.ItemSpacing.x) * 0.5f,
      40.0f);
  for (size_t k = 0; k < keys.size(); ++k) {
    ImGui::PushID(static_cast<int>(k) + 1000);
    ImGui::SetNextItemWidth(key_width);
    ImGui::DragFloat("##t", &keys[k].x, 0.01f, 0.0f, 1e6f, "t %.3f s");
    Tip("The key's time in the clip, seconds.");
    TrackLastItem(out);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(key_width);
    ImGui::SliderFloat("##w", &keys[k].y, 0.0f, 1.0f, "w %.2f");
    Tip("The weight at that time.");
    TrackLastItem(out);
    ImGui::SameLine();
    if (ImGui::SmallButton("x")) erase_key = static_cast<int>(k);
    Tip("Delete this key.");
    ImGui::PopID();
  }
  if (Edited(erase_key >= 0, out)) keys.erase(keys.begin() + erase_key);
}

// A limb's joints (start, mid, end) with a button each that gives it the joint selected in the
// joint tree, how the limb was found and, for the user's pick, the way back to detection: the
// fix for a limb that detection got wrong, remembered per model.
void DrawLimbJoints(const FrameInput& in, int i, const ChainSettings& chain, bool has_selection,
                    Requests* out) {
  ik::LimbKind kind;
  ik::LimbSide side;
  if (chain.kind != ConstraintKind::kTwoBone || !ik::ParseLimbLabel(chain.label, &kind, &side)) {
    return;
  }
  const bool open = ImGui::TreeNode("Limb joints");
  Tip("Which joints make this limb. When detection picked the wrong ones, select the right joint "
      "in the joint tree and press Use selected; the fix is remembered for this model file.");
  if (!open) return;
  const ik::Skeleton& skeleton = in.model.skeleton;
  const ik::Limb* limb = nullptr;
  for (const ik::Limb& l : in.character.limbs()) {
    if (l.label == chain.label) limb = &l;
  }
  const struct {
    const char* part;
    int joint;
  } parts[] = {{"start", chain.chain.start}, {"mid", chain.chain.mid}, {"end", chain.chain.end}};
  ImGui::BeginDisabled(!has_selection);
  for (const auto& p : parts) {
    ImGui::PushID(p.part);
    if (ImGui::SmallButton("Use selected")) Ask(out, RequestKind::kSetLimbJoint, p.part, false, i);
    Tip("Make the joint selected in the joint tree this limb's joint.");
    ImGui::SameLine();
    ImGui::Text("%-5s %s", p.part, skeleton.name(p.joint).c_str());
    ImGui::PopID();
  }
  ImGui::EndDisabled();
  if (limb) {
    ImGui::TextDisabled("found by %s", ik::LimbFoundByName(limb->found_by));
    if (limb->found_by == ik::LimbFoundBy::kUser) {
      SameLineIfFits(ButtonWidth("As detected"));
      if (ImGui::SmallButton("As detected")) {
        Ask(out, RequestKind::kForgetLimbPick, {}, false, i);
      }
      Tip("Forget your pick for this limb: back to the joints detection found.");
    }
  }
  ImGui::TreePop();
}

// The options of an open chain, then reset and remove (*remove = i).
void DrawChainBody(const FrameInput& in, float clip_time, int i, EditState* edit,
                   bool has_selection, int* remove, Requests* out) {
  const ik::Skeleton& skeleton = in.model.skeleton;
  const float model_size = in.extent.size;
  const ik::TwoBoneIkResult* result = TwoBoneResultOf(in.frame, in.state, i);
  DrawDescription(skeleton, edit->chains[i]);
  DrawLimbJoints(in, i, edit->chains[i], has_selection, out);
  DrawTarget(in, clip_time, i, edit, out);
  ChainSettings& chain = edit->chains[i];
  if (chain.keyed()) {
    ImGui::TextDisabled("keyed: %zu key(s) on the timeline", ChainKeyTimes(chain).size());
    Tip("The target moves from key to key as the clip plays; moving it keys it at the playhead.");
  }
  switch (chain.kind) {
    case ConstraintKind::kAim:
      DrawAimOptions(skeleton, model_size, &chain, out);
      break;
    case ConstraintKind::kFabrik:
      DrawFabrikOptions(&chain, out);
      break;
    case ConstraintKind::kTwoBone: {
      // A keyed pole shows (and is edited) where its keys put it now.
      const glm::vec3 pole_before = chain.pole;
      if (!chain.pole_keys.empty()) chain.pole = chain.PoleAt(clip_time);
      const glm::vec3 shown = chain.pole;
      DrawTwoBoneOptions(result, model_size, &chain, out);
      if (!chain.pole_keys.empty()) {
        if (chain.pole != shown) {
          SetKey(&chain.pole_keys, clip_time, chain.pole);
        } else {
          chain.pole = pole_before;  // only shown: the edit stays as it was
        }
      }
      break;
    }
    case ConstraintKind::kBody:
      DrawBodyOptions(in.state, &chain, &edit->body_options, out);
      break;
  }
  if (chain.kind != ConstraintKind::kBody) DrawWeight(clip_time, &chain, out);
  if (chain.kind == ConstraintKind::kTwoBone) DrawTwoBoneEnd(result, &chain, out);
  if (chain.kind == ConstraintKind::kTwoBone) DrawTwoBoneMeters(in, i, chain);
  if (ImGui::Button("Key (I)")) Ask(out, RequestKind::kSetKey, {}, false, i);
  Tip("Key this target (and its pole) at the playhead; its keys show on the timeline.");
  SameLineIfFits(ButtonWidth("Reset target (Alt+G)"));
  if (ImGui::Button("Reset target (Alt+G)")) Ask(out, RequestKind::kResetTarget, {}, false, i);
  Tip("Put the target back on the hand or foot (Alt+G over the handle does the same); one undo "
      "step.");
  SameLineIfFits(ButtonWidth("Remove"));
  if (ImGui::Button("Remove")) *remove = i;
  Tip("Remove this chain (Ctrl+Z brings it back).");
}

}  // namespace

void DrawChainsPanel(const FrameInput& in, float clip_time, EditState* edit, Selection* selection,
                     Requests* out) {
  const bool section_open = ImGui::CollapsingHeader("IK chains", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("The constraints solved every frame: two-bone limbs, aims and FABRIK chains.");
  if (!section_open) return;
  if (edit->chains.empty()) ImGui::TextDisabled("no chains: select a joint and add one");
  ImGui::Checkbox("Auto-key", &selection->auto_key);
  Tip("Key a target at the playhead whenever a drag of its handle ends (I, or a chain's Key "
      "button, keys it by hand). A target that has keys is always keyed where it is moved; its "
      "keys show as diamonds on the timeline: drag one to move it in time, X or Delete (or a "
      "right-click) deletes the selected one.");
  int remove = -1;
  for (int i = 0; i < static_cast<int>(edit->chains.size()); ++i) {
    ChainSettings& chain = edit->chains[i];
    ImGui::PushID(i);
    Edited(ImGui::Checkbox("##enabled", &chain.enabled), out);
    Tip("Solve this chain; off, the limb follows the animation.");
    ImGui::SameLine();
    const bool open =
        ImGui::TreeNodeEx("##chain",
                          ImGuiTreeNodeFlags_SpanAvailWidth |
                              (i == selection->active_chain ? ImGuiTreeNodeFlags_Selected : 0),
                          "%s", chain.label.c_str());
    if (ImGui::IsItemClicked()) selection->active_chain = i;
    Tip("Click to make this chain active (its handle shows arrows and squares) and show its "
        "options.");
    if (chain.enabled) DrawStatusBeside(in, i, chain.label);
    if (open) {
      DrawChainBody(in, clip_time, i, edit, selection->selected_joint >= 0, &remove, out);
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  if (remove >= 0) RemoveChain(remove, edit, selection, out);
  DrawChainListButtons(in, edit, selection, out);
}

}  // namespace app
