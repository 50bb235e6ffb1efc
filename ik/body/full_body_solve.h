// Internal: the full-body solve shared between ik/body/full_body.cpp (options, rig, validation) and
// ik/body/full_body_solve.cpp (the body iterations and the limbs' two-bone solves).
//
// The method. The unknowns of the body are few: the hips' model-space translation h and small turns
// ω_b of each body joint b (hips, spine, chest) in its own frame (R_b ← R_b · exp(ω_b)). The limbs
// are not unknowns: once the body is placed, the two-bone solver puts each limb's end exactly on
// its pin or target whenever that lies within the limb's length L of the limb's start s. So a
// limb's end pin or target asks one thing of the body: |t - s| <= L, and only when it is broken
// does it give a row of the system (its one-dimensional residual, along n = (s - t)/|s - t|: move s
// toward t by |t - s| - L). A pin or move on a joint of the body itself asks x = t (three rows).
// Point x's motion is linear in the unknowns: ∂x/∂h = I, and turning body joint b (a strict
// ancestor of x) about own-frame axis a moves x by F_b (a × F_b⁻¹ (x - p_b)) (F_b its frame), exact
// for any invertible frame. Each iteration solves these rows in priority order, as a damped
// least-squares problem in the weighted unknowns θ̃ = W^-1/2 θ (W: the part weights; the translation
// in units of the body's size so that all columns are lengths):
//   Δ̃ = 0, N = I; for each level k (moves, pins, targets): A = J̃_k N, e = r_k - J̃_k Δ̃,
//   Δ̃ += Aᵀ (A Aᵀ + λ² I)⁻¹ e, N -= Aᵀ (A Aᵀ + λ0² I)⁻¹ A,
// so pins are met with what the moves leave free and targets with what both leave free (λ0 is
// small and fixed: a large one would let a level undo the ones before it). Rows that contradict
// each other (both feet pinned farther apart than the legs reach) get the least-squares
// compromise. A limb pin that is slack now but that the step would break becomes a row too
// (asking for at most half its slack), and the step is solved again. Each level's part of the
// step is scaled so that no body joint turns more than 0.35 rad and the hips move at most half
// the body's size; then each body joint is clamped by its joint limit and by max_body_turn from
// its input rotation.
// The iterations are Levenberg-Marquardt's: a step whose result is worse — lexicographically:
// the moves' squared misses beyond tolerance, then the pins', then the targets' — is undone and
// tried again with λ ten times larger and the step limits four times smaller; a kept step halves
// λ and doubles the limits back. A step that helps a target but breaks a pin only through the
// curvature the linear rows miss (a shoulder swung a few centimetres moves a little farther from
// a pinned hand than they say) is followed by one correction step on the moves and pins alone,
// and the two are judged together (a second-order correction). The iterations stop when every
// pin, move and target is within tolerance, when a step no longer moves anything (a compromise,
// or the limits), or at max_iterations.
// Then the limbs with a pin, target or move on their end are solved with the two-bone solver
// (the hinge keeps knees and elbows bending their rest way; where it cannot land the end exactly,
// the plain solve, which keeps the bend on its side, is used when it comes nearer); pinned ends
// keep the model-space orientation of the input pose. Limbs nothing moved are left alone.
// Every solve starts from the pose it is given and keeps nothing, so solving the freshly sampled
// pose each frame cannot drift.
#pragma once

#include "ik/body/full_body.h"
#include "ik/core/skeleton.h"

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

// Solves a job that FullBodyIkJob::Validate accepted and fills its result (the method above).
// Allocates nothing once the workspace and result have grown.
void SolveFullBody(const FullBodyIkJob& job);

}  // namespace internal
}  // namespace ik
