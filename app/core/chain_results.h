// One frame's view of each chain of an edit: where its effector and target are in the un-solved
// pose, and what its solver did (result, reached, a one-line status), looked up through
// EditedFrame::chain_requests. What the panels, the handles and the trace show.
#pragma once

#include <glm/glm.hpp>
#include <string>

#include "app/core/chain_edit.h"

namespace app {

// The effector and reach of chain `chain` of `edit` in the frame's un-solved pose (InfoFor).
EffectorInfo ChainInfo(const ik::Skeleton& skeleton, const EditState& edit,
                       const EditedFrame& frame, int chain);
// The target of chain `chain` this frame, world space (ChainTarget).
glm::vec3 ChainTargetNow(const ik::Skeleton& skeleton, const EditState& edit,
                         const EditedFrame& frame, int chain);

// The two-bone result of a chain; nullptr for other kinds, a chain not solved this frame or an
// index out of range.
const ik::TwoBoneIkResult* TwoBoneResultOf(const EditedFrame& frame, const PoseState& state,
                                           int chain);
// Whether the chain's solver reached its target this frame (false when it was not solved; true for
// a body handle left free, which is where its target is).
bool ChainReached(const EditedFrame& frame, const PoseState& state, int chain);
// One line for the panel: "off", "<case> <error>" (two-bone), "<reached|missed|fallback> <n> it
// <error>" (FABRIK), "<aimed|limited|missed|fallback> <angle> deg" (aim), "placed", "held",
// "missed by <error>" or "free (...)" (body handles).
std::string ChainStatus(const EditedFrame& frame, const PoseState& state, int chain);

}  // namespace app
