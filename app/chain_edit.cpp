// Chain settings, targets and the undo history.
#include "app/chain_edit.h"

#include "ik/limbs.h"

namespace app {

const char* TargetModeName(TargetMode mode) {
  return mode == TargetMode::kFollow ? "follow" : "pinned";
}

bool ChainSettings::operator==(const ChainSettings& o) const {
  return label == o.label && chain.start == o.chain.start && chain.mid == o.chain.mid &&
         chain.end == o.chain.end && enabled == o.enabled && mode == o.mode &&
         offset == o.offset && pinned == o.pinned && use_pole == o.use_pole && pole == o.pole &&
         hinge == o.hinge && soft == o.soft && weight == o.weight &&
         end_orientation == o.end_orientation;
}

bool EditState::operator==(const EditState& o) const {
  if (chains != o.chains || joint_rotations.size() != o.joint_rotations.size()) return false;
  for (auto a = joint_rotations.begin(), b = o.joint_rotations.begin(); a != joint_rotations.end();
       ++a, ++b) {
    if (a->first != b->first || a->second != b->second) return false;
  }
  return true;
}

glm::vec3 ChainTarget(const ChainSettings& chain, const glm::vec3& effector) {
  return chain.mode == TargetMode::kFollow ? effector + chain.offset : chain.pinned;
}

void SetChainTarget(ChainSettings* chain, const glm::vec3& target, const glm::vec3& effector) {
  if (chain->mode == TargetMode::kFollow) {
    chain->offset = target - effector;
  } else {
    chain->pinned = target;
  }
}

void ResetChainTarget(ChainSettings* chain, const glm::vec3& effector) {
  chain->offset = glm::vec3(0.0f);
  chain->pinned = effector;
}

ik::TwoBoneIkOptions ChainOptions(const ChainSettings& chain) {
  ik::TwoBoneIkOptions options;
  if (chain.use_pole) options.pole_model = chain.pole;
  options.hinge = chain.hinge;
  options.soft = chain.soft;
  options.weight = chain.weight;
  options.end_orientation = chain.end_orientation;
  return options;
}

bool MakeChain(const assets::Model& model, int end_joint, ChainSettings* out, std::string* error) {
  const auto chain = ik::ChainFromEnd(model.skeleton, end_joint, error);
  if (!chain) return false;
  ChainSettings settings;
  settings.label = model.skeleton.name(end_joint);
  settings.chain = *chain;
  settings.hinge = ik::DetectBendAxis(model.skeleton, *chain).has_value();
  settings.pinned = glm::vec3(model.skeleton.rest_models()[end_joint][3]);
  *out = settings;
  return true;
}

std::vector<ChainSettings> DefaultChains(const assets::Model& model) {
  std::vector<ChainSettings> chains;
  for (const ik::Limb& limb : ik::DetectLimbs(model.skeleton, &model.is_bone)) {
    ChainSettings settings;
    settings.label = limb.label;
    settings.chain = limb.chain;
    settings.hinge = ik::DetectBendAxis(model.skeleton, limb.chain).has_value();
    settings.pinned = glm::vec3(model.skeleton.rest_models()[limb.chain.end][3]);
    chains.push_back(settings);
  }
  return chains;
}

void BuildRequests(const std::vector<ChainSettings>& chains,
                   const std::vector<glm::mat4>& unsolved_models,
                   std::vector<IkChainRequest>* requests, std::vector<int>* request_chain) {
  requests->clear();
  request_chain->clear();
  for (size_t i = 0; i < chains.size(); ++i) {
    const ChainSettings& c = chains[i];
    if (!c.enabled || c.chain.end < 0 || c.chain.end >= static_cast<int>(unsolved_models.size())) {
      continue;
    }
    IkChainRequest request;
    request.chain = c.chain;
    request.target.position = ChainTarget(c, glm::vec3(unsolved_models[c.chain.end][3]));
    request.options = ChainOptions(c);
    requests->push_back(request);
    request_chain->push_back(static_cast<int>(i));
  }
}

void UndoHistory::Record(const EditState& before, const EditState& after) {
  if (before == after) return;
  undo_.push_back(before);
  if (undo_.size() > limit_) undo_.erase(undo_.begin());
  redo_.clear();
}

bool UndoHistory::Undo(EditState* current) {
  if (undo_.empty()) return false;
  redo_.push_back(*current);
  *current = std::move(undo_.back());
  undo_.pop_back();
  return true;
}

bool UndoHistory::Redo(EditState* current) {
  if (redo_.empty()) return false;
  undo_.push_back(*current);
  *current = std::move(redo_.back());
  redo_.pop_back();
  return true;
}

void UndoHistory::Clear() {
  undo_.clear();
  redo_.clear();
}

}  // namespace app
