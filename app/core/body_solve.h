// Full-body IK in a frame, for the command line and the window alike: --pin, --move, --body and
// the `body` flag of --ik resolved against a model, and the one body solve that runs before the
// two-bone chains.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/core/args.h"
#include "app/core/evaluate.h"
#include "assets/model/model.h"

namespace app {

// Resolves the specs against `character` into requests->body (its effectors and options); the
// `body` flag of requests->ik (already resolved from `ik_specs`) is checked too. False with one
// line naming the argument: an unknown joint, a pin or move on a joint the body solve cannot hold
// or place (a knee, a toe, a finger), `body` on a chain whose end is not a hand or foot of the
// body, a joint both pinned and given an --ik target, a joint pinned or moved twice, more than
// ik::kMaxBodyEffectors pins, moves and two-bone targets in all, or a model without arms or legs.
bool ResolveBodySpecs(const Character& character, const std::vector<IkSpec>& ik_specs,
                      const std::vector<PinSpec>& pins, const std::vector<MoveSpec>& moves,
                      const std::optional<BodySpec>& body, ConstraintRequests* requests,
                      std::string* error);

// Why the body solve cannot take `effector` on `rig` (ik::FullBodyIkJob::Validate's reason for it
// alone, e.g. "the joint moves with the limb ending at 'LeftFoot'; use that end instead"), or ""
// when it can.
std::string BodyEffectorProblem(const ik::Skeleton& skeleton, const ik::BodyRig& rig,
                                const ik::BodyEffector& effector);

// True when the requests ask for a body solve: an explicit pin or move, or a two-bone target
// the body helps with.
bool WantsBody(const ConstraintRequests& requests);

// The body solve of a frame, on state->pose / state->models (the freshly sampled pose and its
// model matrices); sets state->body_ran and fills state->body. It runs when WantsBody; then every
// two-bone request on a hand or foot of the body rig with a weight above 0 takes part: with
// body_helps as a target the body reaches for, otherwise as a pin at its target that holds the
// body back (a hand or foot the user placed stays placed). Explicit effectors come first; a limb
// end that already has one is left to it. The two-bone requests are then solved as usual on the
// body's result (SolveChains), with their own pole, soft and hinge options. The rig is the
// character's, built once per load. Allocates nothing once `state` has held a solve of this model.
void SolveBody(const Character& character, const ConstraintRequests& requests, PoseState* state);

}  // namespace app
