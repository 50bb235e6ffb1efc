// File ▸ Import clip from… in the window, without the window: the joint mapping as a table the
// user edits (one row per source joint: its target joint or none, and how the pair was found),
// the user's edits saved beside the model as a map file (`MODEL.retarget-map.json`, the
// `{"source joint": "target joint"}` format of `skelview retarget --map`; "" for a joint left
// unmapped) and reused the next time that model imports a clip, and the table applied: the
// source's clip retargeted (app/core/retarget.h) and added to the open model as a new clip.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/core/character.h"
#include "app/core/retarget.h"
#include "assets/model/model.h"

namespace app {

struct RetargetRow {
  int source = -1;  // a source joint
  int target = -1;  // its target joint, -1: none (the target joints no row names keep their rest)
  std::string by;   // as RetargetPair::by ("user" once edited); "" for a joint never mapped
};

struct RetargetTable {
  // The automatic mapping's pairs in its order (target joint order), then every source joint no
  // pair uses, unmapped, in joint order: each source joint has a row.
  std::vector<RetargetRow> rows;
  std::vector<std::string> warnings;  // the automatic mapping's (unmapped limbs)
};

RetargetTable BuildRetargetTable(const ik::Skeleton& source, const RetargetMapping& mapping);
// A user's edit: row `row` maps onto `target` (-1: none), by "user"; another row that mapped onto
// `target` becomes unmapped (a target joint follows one source joint). Rows out of range and
// targets that are not joints of `target_joints` (other than -1) are ignored.
void SetRowTarget(RetargetTable* table, int row, int target, int target_joints);
// The pairs of the rows that map somewhere, in target joint order, with the table's warnings.
RetargetMapping TableMapping(const RetargetTable& table);
int MappedRows(const RetargetTable& table);

using JointMap = std::vector<std::pair<std::string, std::string>>;

// Where the mapping of the model at `model_path` is kept: beside it,
// "<model_path>.retarget-map.json";
// "" for the built-in character (model_path "": no file to keep it beside).
std::string RetargetMapPath(const std::string& model_path);
// Reads a map file. A file that does not exist is an empty map; false with one line naming the
// file when it cannot be read or is not a map.
bool LoadRetargetMap(const std::string& path, JointMap* map, std::string* error);
// Applies a saved map's entries to the table as user edits: those that name a joint of `source`
// and either "" or a joint of `target`; the others (another source rig's entries, joints since
// renamed) are skipped. Returns how many were applied.
int ApplySavedMap(const ik::Skeleton& source, const ik::Skeleton& target, const JointMap& map,
                  RetargetTable* table);
// What to save: `previous`'s entries for joints `source` does not have (other rigs' edits kept),
// then each user-edited row's source joint with its target's name ("" for none), first row per
// source joint.
JointMap UserJointMap(const ik::Skeleton& source, const ik::Skeleton& target,
                      const RetargetTable& table, const JointMap& previous);
// Writes `map` as a JSON object, atomically. False with one line naming the file.
bool SaveRetargetMap(const std::string& path, const JointMap& map, std::string* error);

// The imported clip's name: "<clip> (retargeted from <file name of source_path>)", with " 2",
// " 3"… added while `target` already has a clip of that name.
std::string ImportedClipName(const std::string& clip_name, const std::string& source_path,
                             const assets::Model& target);
// Retargets clip `clip` of `source` onto `target` with the table's mapping, at the source clip's
// own rate (PlanBake), as a clip named `name`. False with one line (the mapping does not pair the
// hips, the clip is not one of the source's).
bool RetargetWithTable(const Character& source, int clip, const Character& target,
                       const RetargetTable& table, const std::string& name, assets::Clip* out,
                       RetargetInfo* info, std::string* error);
// Adds `clip` to `model`, the model `character` was made over, as if the file had it: clips played
// together are combined no more (their combination's index would be the new clip's). Returns the
// new clip's index.
int AddClip(assets::Clip clip, assets::Model* model, Character* character);

}  // namespace app
