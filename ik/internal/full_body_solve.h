// Internal: the full-body solve shared between ik/full_body.cpp (options, rig, validation) and
// ik/full_body_solve.cpp (the body iterations and the limbs' two-bone solves).
#pragma once

#include "ik/full_body.h"
#include "ik/skeleton.h"

namespace ik {
namespace internal {

constexpr float kMaxBodyWeight = 1000.0f;

// What an effector's joint is to the body.
enum class BodyRole {
  kLimbEnd,     // a limb's end: solved by the two-bone solver; the body keeps it within reach
  kBody,        // moved by the hips' translation and the body joints' turns
  kAboveHips,   // an ancestor of the hips: only a move (translating it) changes it
  kFixed,       // elsewhere: nothing in the solve moves it
  kInsideLimb,  // a limb joint other than its start and end (knee, toe, finger): not allowed
};

struct ClassifiedJoint {
  BodyRole role = BodyRole::kFixed;
  int limb = -1;  // kLimbEnd, kInsideLimb: which limb
};

// The role of `joint` in `rig` (built for `skeleton`).
ClassifiedJoint ClassifyBodyJoint(const Skeleton& skeleton, const BodyRig& rig, int joint);

// Solves a job that FullBodyIkJob::Validate accepted and fills its result (see the top of
// ik/full_body_solve.cpp). Allocates nothing once the workspace and result have grown.
void SolveFullBody(const FullBodyIkJob& job);

}  // namespace internal
}  // namespace ik
