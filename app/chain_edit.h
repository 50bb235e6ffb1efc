// What the user edits in the viewer, as plain data: the IK chains with their targets and options,
// and manual joint rotations — plus the undo/redo history of those edits. No window, no GL.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "app/evaluate.h"
#include "assets/model.h"
#include "ik/two_bone_ik.h"

namespace app {

// Where a chain's target comes from each frame.
enum class TargetMode {
  kFollow,  // the effector's position in the animated (un-solved) pose, plus an offset
  kPinned,  // a fixed world position ("plant this foot here")
};
const char* TargetModeName(TargetMode mode);  // "follow", "pinned"

struct ChainSettings {
  std::string label;  // "LeftLeg", or the end joint's name for chains the user added
  ik::TwoBoneChain chain;
  bool enabled = true;
  TargetMode mode = TargetMode::kFollow;
  glm::vec3 offset{0.0f};  // kFollow: world-space offset from the animated effector
  glm::vec3 pinned{0.0f};  // kPinned: world-space target
  bool use_pole = false;
  glm::vec3 pole{0.0f};  // world space
  bool hinge = false;
  float soft = 0.0f;
  float weight = 1.0f;
  ik::EndOrientation end_orientation = ik::EndOrientation::kKeepLocal;

  bool operator==(const ChainSettings& other) const;
  bool operator!=(const ChainSettings& other) const { return !(*this == other); }
};

// Everything undo/redo restores.
struct EditState {
  std::vector<ChainSettings> chains;
  std::map<int, glm::quat> joint_rotations;  // joint → local rotation replacing the animated one

  bool operator==(const EditState& other) const;
  bool operator!=(const EditState& other) const { return !(*this == other); }
};

// The target of a chain this frame, given its effector's position in the un-solved pose.
glm::vec3 ChainTarget(const ChainSettings& chain, const glm::vec3& effector);
// Moves a chain's target to `target` (world), keeping its mode.
void SetChainTarget(ChainSettings* chain, const glm::vec3& target, const glm::vec3& effector);
// Puts the target back on the effector's un-solved position (IK then changes nothing).
void ResetChainTarget(ChainSettings* chain, const glm::vec3& effector);
ik::TwoBoneIkOptions ChainOptions(const ChainSettings& chain);

// A chain ending at `end_joint` (its parent and grandparent are the other two), or false with the
// reason in *error when it has fewer than two ancestors.
bool MakeChain(const assets::Model& model, int end_joint, ChainSettings* out, std::string* error);

// The detected arms and legs (ik::DetectLimbs), enabled, following the animation with no offset.
// The hinge is on where the rest pose shows which way the knee or elbow bends, so dragging a
// foot never bends its knee backwards.
std::vector<ChainSettings> DefaultChains(const assets::Model& model);

// Builds the solver requests of the enabled chains for a pose whose model matrices are
// `unsolved_models`; `request_chain` receives, per request, the index of its chain.
void BuildRequests(const std::vector<ChainSettings>& chains,
                   const std::vector<glm::mat4>& unsolved_models,
                   std::vector<IkChainRequest>* requests, std::vector<int>* request_chain);

// Undo/redo of EditState snapshots. The caller pushes the state as it was before each completed
// edit (one completed drag, one panel edit); Undo and Redo swap it with the current state.
class UndoHistory {
 public:
  explicit UndoHistory(size_t limit = 256) : limit_(limit) {}
  // Records `before` as the state to return to; clears the redo list. Ignored when `before`
  // equals `after` (an edit that changed nothing).
  void Record(const EditState& before, const EditState& after);
  bool Undo(EditState* current);
  bool Redo(EditState* current);
  void Clear();
  size_t undo_count() const { return undo_.size(); }
  size_t redo_count() const { return redo_.size(); }

 private:
  size_t limit_;
  std::vector<EditState> undo_, redo_;
};

}  // namespace app
