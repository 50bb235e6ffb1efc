// Mirroring and copying poses as edits: copy the pose, paste it (by joint names, so onto another
// model or a reloaded one too), paste it flipped left↔right, mirror the whole pose, and mirror one
// chain's target to the chain on the other side. The mirror map is the rig's (ik::BuildMirrorMap).
#pragma once

#include <string>
#include <vector>

#include "app/core/chain_edit.h"
#include "assets/model/model.h"
#include "ik/body/mirror.h"

namespace app {

// A copied pose: local transforms by joint name.
struct PoseClipboard {
  std::vector<std::string> names;
  std::vector<ik::Transform> locals;
  bool empty() const { return names.empty(); }
};

// The pose (local transforms, e.g. the solved pose shown) of every joint, by name.
PoseClipboard CopyPose(const ik::Skeleton& skeleton, const ik::Pose& pose);

// Pastes `clipboard` into the edit: every joint it names (joints it does not name keep theirs)
// gets the copied local rotation and translation, which replace the animated ones from then on
// as rotations set by hand do; with `flip` (the model's mirror map) the pose is mirrored first.
// Targets that follow the animation are put back on their effectors, so that the IK keeps the
// pasted pose; pinned targets stay. As Blender's paste sets the pose at the current frame, a keyed
// target that follows the animation is keyed on its effector at `time_seconds` (the clip time
// shown), so that its keys do not pull the pasted pose away there. Returns how many joints were
// set (0: nothing in common with this model).
int PastePose(const PoseClipboard& clipboard, const ik::Skeleton& skeleton,
              const ik::MirrorMap* flip, float time_seconds, EditState* edit);

// The chain on the other side of chain `index`: same kind, its joints each other's counterparts;
// -1 when there is none (or the chain is on the mirror plane: its own counterpart).
int CounterpartChain(const std::vector<ChainSettings>& chains, const ik::MirrorMap& map, int index);

// Mirrors the whole pose: `solved` (the pose shown) pasted flipped, and the targets that do not
// follow the animation (pinned points, poles, aim up points) carried across to the chain on the
// other side (a chain on the plane reflects its own), so the IK re-solves into the mirror image.
// Keys are carried across reflected; a keyed target that follows the animation is keyed on its
// effector at `time_seconds` (the time of `solved`, which already holds the keys' offsets there).
void MirrorWholePose(const ik::Skeleton& skeleton, const ik::MirrorMap& map, const ik::Pose& solved,
                     float time_seconds, EditState* edit);

// Chain `index`'s target and options mirrored onto the chain on the other side (made, as the
// panel's Add does, when there is none): a follow offset and a pole reflected as directions and
// points, a pinned point reflected, the rest copied. Returns the other chain's index, or -1 with
// the reason in *why (a chain on the mirror plane, or its counterpart joints cannot form one).
int MirrorChainTarget(const Character& character, const ik::MirrorMap& map, int index,
                      EditState* edit, std::string* why);

}  // namespace app
