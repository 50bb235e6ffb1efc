// The limbs the user fixed in the window, remembered per model file: human-readable JSON in
// $XDG_CONFIG_HOME/skelview/limbs.json, by joint names so that a re-exported model keeps them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/character.h"
#include "ik/body/limbs.h"
#include "ik/core/skeleton.h"

namespace app {

// A limb's three joints by name.
struct LimbJointNames {
  std::string start, mid, end;
  bool operator==(const LimbJointNames& o) const {
    return start == o.start && mid == o.mid && end == o.end;
  }
};

// model key (LimbPickKey) -> limb label ("LeftLeg") -> its joints.
struct LimbPickStore {
  std::map<std::string, std::map<std::string, LimbJointNames>> models;
};

// The key a model file is remembered by: its absolute, normalised path ("" for none, as the
// built-in character, which has nothing to fix).
std::string LimbPickKey(const std::string& model_path);

// Reads `path` into *store. A missing file is an empty store and no warning; an unreadable or
// corrupt file (or entry) is skipped with one line in *warning naming the file. Never waits on a
// file that is not regular (as the settings).
void LoadLimbPicks(const std::string& path, LimbPickStore* store, std::string* warning);
// Writes `store` to `path` atomically (creating its folder); false with the reason.
bool SaveLimbPicks(const std::string& path, const LimbPickStore& store, std::string* error);

// The picks remembered for `model_path` as joints of `skeleton`; an entry whose joint names the
// skeleton lacks is left out with a line naming the limb and the joint in *problems.
std::vector<ik::LimbPick> PicksFor(const LimbPickStore& store, const std::string& model_path,
                                   const ik::Skeleton& skeleton,
                                   std::vector<std::string>* problems);

// Remembers (or, with `chain` null, forgets) the joints of limb `label` for `model_path`.
void RememberPick(LimbPickStore* store, const std::string& model_path, const std::string& label,
                  const ik::Skeleton& skeleton, const ik::TwoBoneChain* chain);

// After limb `label` was fixed (or its fix forgotten) and the character made again on the picks:
// the chain of that label takes the limb's joints and keeps the user's edits of it (target mode,
// offset, keys, pole, weight: the target follows the new end); the body chains take the joints
// of the rig the limbs give; a chain missing from `chains` is added as DefaultChains makes it.
// Other chains stay as they are.
void ChainsFollowLimb(const Character& character, const std::string& label,
                      std::vector<ChainSettings>* chains);

// After an undo or redo went across a limb fix, the edit's limb chains and the character's limbs
// disagree: each two-bone chain of `chains` labelled as a limb of `character` whose joints differ
// from that limb's becomes the pick of `model_path` (forgotten where the chain holds what
// detection finds without picks). Returns the labels whose pick changed; the caller makes the
// character again on the store's picks.
std::vector<std::string> PicksFollowChains(const Character& character,
                                           const std::vector<ChainSettings>& chains,
                                           const std::string& model_path, LimbPickStore* store);

}  // namespace app
