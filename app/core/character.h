// A loaded model as frames are evaluated from it: the Model, which stays as loaded except that the
// window may append whole clips it makes for the user (Animation ▸ Generate range of motion, File ▸
// Import clip from…) after the file's own, as if the file had them, so that they export and play
// like them; the facts of its rig that only the rest pose decides, found once per load (RigFacts);
// and the clips it plays — the model's own and, while several play together, their combination,
// which belongs to the player, not to the Model. The window, the command line, the bake and the
// crowd each hold one per loaded model and hand it to the frame pipeline (evaluate.h).
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "assets/model/model.h"
#include "ik/body/full_body.h"
#include "ik/body/limbs.h"
#include "ik/two_bone/two_bone_ik.h"

namespace app {

// What a frame needs to know about a rig and that only its rest pose decides.
struct RigFacts {
  // The arms and legs (ik::DetectLimbs with the model's is_bone).
  std::vector<ik::Limb> limbs;
  // The full-body solve's rig built on those limbs (ik::BuildBodyRig), when the model has one;
  // otherwise why not.
  bool has_body = false;
  ik::BodyRig body;
  std::string body_problem;
  // Per joint j, the rest bend axis (ik::DetectBendAxis) of the two-bone chain ending at j that
  // ik::ChainFromEnd makes (j's parent and grandparent); nullopt where that chain does not
  // exist or is straight at rest. The limbs' chains, which may skip twist joints, have theirs in
  // body.limbs (when has_body) or limb_bend_axes.
  std::vector<std::optional<glm::vec3>> end_bend_axes;
  std::vector<std::optional<glm::vec3>> limb_bend_axes;  // one per limb
  // Per joint: it ends one of the limbs (a hand or foot the body solve can take).
  std::vector<bool> limb_end;
};

class Character {
 public:
  Character() = default;  // nothing loaded: no joints, no clips
  // Finds the rig's facts of `model`, which must outlive this and stay where it is. `picks` are
  // the user's fixes of the detected limbs (ik::ApplyLimbPicks): the body rig, bend axes and
  // default chains are built on the limbs they give; the picks that could not be applied are
  // named in *problems (optional).
  explicit Character(const assets::Model& model, const std::vector<ik::LimbPick>& picks = {},
                     std::vector<std::string>* problems = nullptr);
  // The same character (rig facts, clips played together, id) over `model`, a copy of
  // other.model() that outlives this: for work on a thread of its own (the window's bake), which
  // must not depend on the loaded model staying loaded. Finds nothing again.
  Character(const Character& other, const assets::Model& model);

  const assets::Model& model() const { return *model_; }
  // Tells characters apart: equal for copies, different for every character made from a model
  // (what EditedFrame keeps from one frame to the next is keyed on it).
  long id() const { return id_; }
  const ik::Skeleton& skeleton() const { return model_->skeleton; }
  const RigFacts& rig() const { return rig_; }

  // The detected arms and legs.
  const std::vector<ik::Limb>& limbs() const { return rig_.limbs; }
  // The body rig, or null (with the reason in *why when given) when the model has no arms or legs.
  const ik::BodyRig* body_rig(std::string* why = nullptr) const;
  // True when `joint` is the end (hand or foot) of a detected limb.
  bool IsLimbEnd(int joint) const;
  // The rest bend axis of a two-bone chain (ik::DetectBendAxis): looked up for the detected limbs
  // and the chains ik::ChainFromEnd makes, computed for any other chain (which allocates nothing).
  std::optional<glm::vec3> BendAxis(const ik::TwoBoneChain& chain) const;
  // Whether a new chain's hinge is on: where the rest pose shows which way the knee bends.
  bool HingeByDefault(const ik::TwoBoneChain& chain) const { return BendAxis(chain).has_value(); }

  // The clips a frame can play: the model's own (0 .. file_clip_count() - 1) and, while several
  // play together, their combination at index file_clip_count().
  int file_clip_count() const { return static_cast<int>(model_->clips.size()); }
  int clip_count() const { return file_clip_count() + (together_.empty() ? 0 : 1); }
  // The clip at `index`, or null for the rest pose (-1) and indices out of range.
  const assets::Clip* clip(int index) const;
  // Plays the model's clips `clips` (valid indices, the chosen one first) together: two or more
  // become one clip (assets::CombineClips: for each joint property the last clip that animates it
  // wins), made again only when the list changes, at index file_clip_count(), which is returned;
  // fewer than two drop the combination and return clips[0] (or -1).
  int PlayTogether(const std::vector<int>& clips);
  // The clips combined now (empty: none).
  const std::vector<int>& together() const { return together_; }

 private:
  const assets::Model* model_ = &kNothing;
  long id_ = 0;
  RigFacts rig_;
  std::vector<int> together_;
  assets::Clip combined_;

  static const assets::Model kNothing;
};

}  // namespace app
