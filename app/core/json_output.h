// The JSON documents of the command line (DESIGN.md's contract): `pose` output and `info --json`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/core/evaluate.h"
#include "assets/model/model.h"

namespace app {

using Json = nlohmann::ordered_json;

// `json` as text (indent as nlohmann's dump: -1 one line, N spaces per level). Every JSON writer
// goes through here: a string that is not UTF-8 (a path, a name that reached us unrepaired) has
// its bad bytes written as U+FFFD instead of throwing, so no input can abort an output.
std::string DumpJson(const Json& json, int indent = -1);

// A float rounded to 8 significant digits, so the output stays readable ("0.1", not
// "0.10000000149011612"); exact to well under 1e-7 relative.
double Rounded(float value);
// The shortest decimal text that reads back as the same float ("0.72" for 0.72f, where widening
// to double prints 0.7200000286102295); "nan"/"inf" forms for non-finite values. For weights the
// user typed or the file stores, printed as given.
std::string ShortestFloatText(float value);
Json ToJson(const glm::vec3& v);
Json ToJson(const glm::quat& q);  // [x, y, z, w]

// `joints`: name, index, parent (name or null), world position, world and local rotation
// [x,y,z,w], local translation and scale.
Json JointsJson(const assets::Model& model, const PoseState& state);

// One `ik` entry per request: end, start, mid, target, case, reached, error, fallback, knee circle
// {center, normal, radius}, mid joint before and after, end effector after.
Json IkJson(const assets::Model& model, const std::vector<IkChainRequest>& requests,
            const PoseState& state);

// One `aim` entry per request: bone, target (and target joint), reached, iterations (1: closed
// form), error (radians left between the bone and the target direction), angle before,
// fallback, joints turned.
Json AimJson(const assets::Model& model, const std::vector<AimRequest>& requests,
             const PoseState& state);

// One `fabrik` entry per request: root, end, target, reached, unreachable, iterations, error
// (distance left), tolerance, fallback, solved positions root to end.
Json FabrikJson(const assets::Model& model, const std::vector<FabrikRequest>& requests,
                const PoseState& state);

// `body` (the full-body solve, when it ran; null otherwise): reached (every pin, move and target
// within tolerance), iterations, max_error, tolerance (model units), limited, hips and
// hips_offset, `effectors` (kind pin/move/target, joint, from: "pin" or "move" for an explicit pin
// or move (--pin, --move, a body handle), "ik" with ik_index for a two-bone request that took part
// — as a target the body helps with, or as a pin holding the body back —, target, position,
// error, reached) and
// `moved` (each joint the solve changed: joint, translation, turn in degrees).
Json BodyJson(const assets::Model& model, const ConstraintRequests& requests,
              const PoseState& state);

// `meshes`: name, skinned, positions (world space, after skinning).
Json MeshesJson(const assets::Model& model,
                const std::vector<std::vector<glm::vec3>>& skinned_positions);

// The `info --json` document: source, counts, meshes (each with name, skinned, vertices,
// triangles, bones, tangents: whether it has them, morph_targets), influences (vertices using more
// than four and more than eight joints, influences dropped past eight), weights_problems (vertices
// unweighted, not_normalized and with too_many_influences, as assets::CheckWeights counts them),
// joint tree, clips, warnings.
Json InfoJson(const assets::Model& model);

}  // namespace app
