// Baking: turning a clip with the IK (and the user's edits) layered on top into a plain clip, one
// key per frame at the file's frame rate, so that other tools play back what skelview showed;
// and exporting the edited pose or the baked clip.
#pragma once

#include <string>

#include "app/core/chain_edit.h"
#include "assets/model.h"

namespace app {

// Frames per second of a clip, from the spacing of its keys (the most common interval between
// consecutive keys, rounded to a whole rate between 1 and 240); 30 when the clip has no two keys.
float EstimateFrameRate(const assets::Clip& clip);

// The clip `clip_index` of `character` (Character::clip: clips played together included) sampled
// at `fps` from 0 to its duration (the last frame on the duration exactly), each frame evaluated
// like the viewer's (EvaluateEditedFrame with `edit`), as a clip with linear translation, rotation
// and scale keys for every joint. Named "<clip name> (IK)". Sampled at its frame times it gives
// back those poses exactly.
assets::Clip BakeClip(const Character& character, int clip_index, float fps, const EditState& edit);

// File ▸ Export: writes glTF 2.0 to `path` — with `bake` and a clip (clip >= 0) the model with
// that clip replaced by its bake with `edit` (BakeClip at the clip's EstimateFrameRate; clips
// played together: their bake added after the model's clips) and the other clips kept, otherwise
// the model with `solved_pose` as its rest pose. False with the exporter's message.
bool ExportEdited(const Character& character, const ik::Pose& solved_pose, int clip,
                  const EditState& edit, bool bake, const std::string& path, std::string* error);

// EditState whose constraints pin the given command-line requests (world targets, options and
// joint limits).
EditState EditForRequests(const Character& character, const ConstraintRequests& requests);

}  // namespace app
