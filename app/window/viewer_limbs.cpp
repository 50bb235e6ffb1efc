// The limb fix: the user corrects a limb that detection got wrong (start, mid and end joints
// chosen from the joint tree), remembered per model file.
#include "app/window/viewer_loop.h"
#include "assets/files/text.h"

namespace app {

namespace {

// The limb of `character` labelled `label`, or null.
const ik::Limb* LimbLabelled(const Character& character, const std::string& label) {
  for (const ik::Limb& limb : character.limbs()) {
    if (limb.label == label) return &limb;
  }
  return nullptr;
}

}  // namespace

void Viewer::MakeCharacter(const std::string& path) {
  LoadedModel& m = *current_;
  std::vector<std::string> problems;
  const std::vector<ik::LimbPick> picks = PicksFor(limb_picks_, path, m.model.skeleton, &problems);
  m.character = Character(m.model, picks, &problems);
  m.extent = MeasureModel(m.model, &m.character.limbs());
  mirror_ = ik::BuildMirrorMap(m.model.skeleton, m.character.limbs());
  for (const std::string& problem : problems) {
    ShowMessage("limb fix not applied: " + problem, MessageLevel::kWarning);
  }
}

void Viewer::SetLimbJoint(int chain, const std::string& part, int joint) {
  if (chain < 0 || size_t(chain) >= edit_.chains.size()) return;
  const ik::Skeleton& skeleton = current_->model.skeleton;
  const ChainSettings& settings = edit_.chains[size_t(chain)];
  ik::LimbKind kind;
  ik::LimbSide side;
  if (settings.kind != ConstraintKind::kTwoBone ||
      !ik::ParseLimbLabel(settings.label, &kind, &side)) {
    ShowMessage("limb fix: " + settings.label + " is not an arm or a leg", MessageLevel::kWarning);
    return;
  }
  if (joint < 0 || joint >= skeleton.joint_count()) {
    ShowMessage("limb fix: select a joint in the joint tree first", MessageLevel::kWarning);
    return;
  }
  ik::TwoBoneChain fixed = settings.chain;
  (part == "start" ? fixed.start : part == "mid" ? fixed.mid : fixed.end) = joint;
  std::string why;
  if (!fixed.Validate(skeleton, &why)) {
    ShowMessage("limb fix: " + settings.label + ": " + why, MessageLevel::kWarning);
    return;
  }
  RememberPick(&limb_picks_, current_path_, settings.label, skeleton, &fixed);
  AfterLimbChange(settings.label);
}

void Viewer::ForgetLimbPick(int chain) {
  if (chain < 0 || size_t(chain) >= edit_.chains.size()) return;
  const std::string label = edit_.chains[size_t(chain)].label;
  RememberPick(&limb_picks_, current_path_, label, current_->model.skeleton, nullptr);
  AfterLimbChange(label);
}

void Viewer::SaveLimbPicksFile() {
  if (args_.no_settings) return;
  std::string error;
  if (!SaveLimbPicks(ConfigFilePath("limbs.json"), limb_picks_, &error)) {
    ShowMessage(error, MessageLevel::kError);
  }
}

void Viewer::AfterLimbChange(const std::string& label) {
  SaveLimbPicksFile();
  MakeCharacter(current_path_);
  ChainsFollowLimb(current_->character, label, &edit_.chains);
  recorder_.Changed(edit_);
  Update(0.0);
  TraceLimbSet(label);
}

void Viewer::TraceLimbSet(const std::string& label) {
  const ik::Limb* limb = LimbLabelled(current_->character, label);
  const ik::Skeleton& skeleton = current_->model.skeleton;
  Json event{{"event", "limb_set"}, {"chain", label}};
  if (limb) {
    event["start"] = skeleton.name(limb->chain.start);
    event["mid"] = skeleton.name(limb->chain.mid);
    event["end"] = skeleton.name(limb->chain.end);
    event["found_by"] = ik::LimbFoundByName(limb->found_by);
    ShowMessage(label + ": " + skeleton.name(limb->chain.start) + " > " +
                    skeleton.name(limb->chain.mid) + " > " + skeleton.name(limb->chain.end) +
                    (limb->found_by == ik::LimbFoundBy::kUser ? " (your pick, remembered)"
                                                              : " (as detected)"),
                MessageLevel::kNote);
  }
  trace_.Write(event);
}

void Viewer::LimbsFollowChains() {
  const std::vector<std::string> changed =
      PicksFollowChains(current_->character, edit_.chains, current_path_, &limb_picks_);
  if (changed.empty()) return;
  SaveLimbPicksFile();
  MakeCharacter(current_path_);
  for (const std::string& label : changed) TraceLimbSet(label);
}

}  // namespace app
