// One frame's view of each chain of an edit: where its effector and target are in the un-solved
// pose, and what its solver did — one lookup through EditedFrame::chain_requests (ChainOutcomeOf)
// that each consumer formats its own way: the panel in words (ChainWords), the trace and the
// panel's tooltip in the solver's terms (ChainStatus), the handles by `reached`, the flip-risk
// meter and the panel's two-bone parts by its two-bone result.
#pragma once

#include <glm/glm.hpp>
#include <string>

#include "app/core/chain_edit.h"

namespace app {

// The effector and reach of chain `chain` of `edit` in the frame's un-solved pose (InfoFor; kept
// from the frame's evaluation while the chain has the same kind and joints).
EffectorInfo ChainInfo(const ik::Skeleton& skeleton, const EditState& edit,
                       const EditedFrame& frame, int chain);
// The target of chain `chain` this frame, world space (ChainTarget with the edit as it is now).
glm::vec3 ChainTargetNow(const ik::Skeleton& skeleton, const EditState& edit,
                         const EditedFrame& frame, int chain);

// What became of a chain this frame: the one status every consumer formats its own way.
enum class ChainState {
  kOff,             // disabled, invalid, or not solved this frame
  kFree,            // a body handle left to the animation: where its target is
  kReached,         // on its target
  kStraightAtRest,  // a two-bone chain on its target, its knee's side guessed: set a pole
  kFellBack,        // a two-bone chain on its target by one of the solver's fallbacks
  kOutOfReach,      // the target is beyond the chain's reach
  kTooClose,        // a two-bone target nearer the root than the chain can fold
  kOffTarget,       // solved but short of the target (weight, a limit, softening, iterations)
  kNotSolved,       // the solver could not solve it (a degenerate chain)
};

// How a chain's solve turned out, for its colour.
enum class ChainTone {
  kGood,     // on its target (a body handle left free counts: it is where its target is)
  kWarning,  // solved, but the solver had to guess or fall back (a chain straight at rest)
  kBad,      // off its target, not solved, or not solved this frame
};
ChainTone ToneOf(ChainState state);

// What chain `chain`'s solver did this frame: its state, and the solver's result behind it.
// Exactly one result pointer is set when it was solved (`solved`), by its kind; none when it was
// off (disabled or invalid), free (a body handle left to the animation) or out of range.
struct ChainOutcome {
  ConstraintKind kind = ConstraintKind::kTwoBone;
  ChainState state = ChainState::kOff;
  bool solved = false;
  bool free = false;  // state == kFree
  bool reached = false;
  ChainTone tone = ChainTone::kBad;  // ToneOf(state)
  // A two-bone chain straight at rest solved without a pole or hinge axis: its knee's side was a
  // guess (the state says so when it reached; words add it when it did not).
  bool straight_at_rest = false;
  const ik::TwoBoneIkResult* two_bone = nullptr;
  // The two-bone solve knew which way the knee bends (the rest pose's bend or a hinge limit's
  // axis); without it a straight chain's knee goes an arbitrary way.
  bool two_bone_bend_axis = false;
  const ik::FabrikResult* fabrik = nullptr;
  const ik::AimResult* aim = nullptr;
  const ik::BodyEffectorReport* body = nullptr;
};
ChainOutcome ChainOutcomeOf(const EditedFrame& frame, const PoseState& state, int chain);

// The two-bone result of a chain; nullptr for other kinds, a chain not solved this frame or an
// index out of range.
const ik::TwoBoneIkResult* TwoBoneResultOf(const EditedFrame& frame, const PoseState& state,
                                           int chain);
// Whether the chain's solver reached its target this frame (false when it was not solved; true for
// a body handle left free, which is where its target is).
bool ChainReached(const EditedFrame& frame, const PoseState& state, int chain);

// The outcome in the solver's terms, for the trace and the panel's tooltip: "off", "<case>
// <error>" (two-bone), "<reached|missed|fallback> <n> it <error>" (FABRIK), "<aimed|limited|
// missed|fallback> <angle> deg" (aim), "placed", "held", "missed by <error>" or "free (...)" (body
// handles); a two-bone or FABRIK outcome adds what else the solver reports, as the words do (the
// fallback's name, "softened", "hinge_limited", "unreachable", "limited").
// Written into `out` (always terminated; a fixed buffer allocates nothing), or returned.
void ChainStatus(const ChainOutcome& outcome, char* out, size_t size);
std::string ChainStatus(const EditedFrame& frame, const PoseState& state, int chain);

// The outcome in plain words, for the panel, with lengths in `units` ("m"): "reached", "out of
// reach by 0.65 m", "straight at rest: set a pole", "reached in 3 iterations", "12.0 deg off",
// "not solved: zero length bone", "free", "off", ... Written into `out` (always terminated; a
// fixed buffer, so that drawing the panel allocates nothing).
void ChainWords(const ChainOutcome& outcome, const char* units, char* out, size_t size);

}  // namespace app
