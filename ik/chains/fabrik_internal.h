// Internal: what the FABRIK files share: the iterations on positions (ik/chains/fabrik.cpp), the
// frame chain and the refinement with limits (ik/chains/fabrik_limits.cpp), used by the pose level
// (ik/chains/fabrik_pose.cpp).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <vector>

#include "ik/chains/fabrik.h"

namespace ik {
namespace internal {

// True for a finite point whose coordinates can be squared in float.
bool FabrikSane(const glm::vec3& v);

// L: the sum of the `count` - 1 segment lengths.
float FabrikChainLength(const float* lengths, int count);

// A forward pass for FabrikIterate: moves the positions from the root on (`last_dir`: the last
// direction used, for coincident points); false stops the iterations. A function pointer and its
// context rather than std::function, so that passing a lambda allocates nothing.
struct FabrikForward {
  bool (*call)(void* context, glm::vec3* p, glm::vec3* last_dir) = nullptr;
  void* context = nullptr;
  bool operator()(glm::vec3* p, glm::vec3* last_dir) const { return call(context, p, last_dir); }
};

// A FabrikForward calling `*f` (which must outlive it).
template <typename F>
FabrikForward MakeFabrikForward(F* f) {
  FabrikForward forward;
  forward.call = [](void* context, glm::vec3* p, glm::vec3* last_dir) {
    return (*static_cast<F*>(context))(p, last_dir);
  };
  forward.context = f;
  return forward;
}

// The FABRIK iterations on p (count points, count - 1 `lengths`) toward `target` (see the top of
// ik/chains/fabrik.cpp), with the forward pass supplied (positions only, or frames with limits; the
// reach steps and extrapolation need `positions_only`). Records each state in
// `iteration_positions` when given.
FabrikPositionsResult FabrikIterate(glm::vec3* p, const float* lengths, int count,
                                    const glm::vec3& target, const FabrikOptions& options,
                                    bool positions_only, FabrikForward forward,
                                    std::vector<std::vector<glm::vec3>>* iteration_positions);

// FabrikIterate with the plain forward pass, which puts the root back at p[0].
FabrikPositionsResult FabrikIteratePositions(
    glm::vec3* p, const float* lengths, int count, const glm::vec3& target,
    const FabrikOptions& options, std::vector<std::vector<glm::vec3>>* iteration_positions);

// The chain as the frame passes see it: the joints (root .. end's parent) and the root's parent
// frame.
struct FrameChain {
  const FabrikChainJoint* joints = nullptr;
  int n = 0;                     // joints: count - 1
  glm::mat3 parent_basis{1.0f};  // the root's parent's 3x3 part, and its inverse
  glm::mat3 parent_inverse{1.0f};
  glm::vec3 root_position{0.0f};
};

// Buffers of the refinement: two states (current and trial) that swap.
struct RefineBuffers {
  glm::vec3* p[2];
  glm::quat* rotations[2];
  glm::mat3* frames[2];
  glm::mat3* inverses[2];
  glm::vec3* columns;          // 3 per joint
  glm::vec3* turns;            // 1 per joint
  glm::vec3* lever;            // 1 per joint: the end in the joint's own frame
  glm::vec3* blocked;          // 2 per joint: own-frame directions a limit blocks this step
  glm::vec3* blocked_columns;  // 2 per joint
  int* blocked_count;          // 1 per joint
};

// Prepares the quick inside test of `joint`'s limit.
void PrepareLimit(FabrikChainJoint* joint);

// ClampRotation for a unit `rotation`, with a quick path for the common case of a rotation inside
// the limit: a hinge or twist angle θ = 2·atan2(s, w) (w >= 0) lies in [lo, hi] exactly when
// sin(θ/2 - lo/2) >= 0 and sin(θ/2 - hi/2) <= 0 (all half angles are within ±π/2), i.e.
// s·cos(lo/2) - w·sin(lo/2) >= 0 and s·cos(hi/2) - w·sin(hi/2) <= 0; a cone's swing is within
// it when the axis turned by Δ stays within cos(cone) of itself. No trigonometry on that path.
glm::quat ClampQuick(const FabrikChainJoint& joint, const glm::quat& rotation, bool* clamped);

// Points each joint at the next position root to tip (see the top of ik/chains/fabrik_pose.cpp):
// joint i's new rotation is base[i] times the minimal turn, in its own frame, onto p_{i+1}, clamped
// by its limit. Writes the rotations into `rotations` (which may be `base`) and the positions
// forward kinematics then gives into p. `limited` (optional) is set when a limit changed a
// rotation.
void FramePass(const FrameChain& chain, const glm::quat* base, glm::vec3* p, glm::quat* rotations,
               bool* limited);

// Forward kinematics of the chain for the given rotations: positions, and each joint's own frame
// F_i = A_i · R_i and its inverse.
void FkFrames(const FrameChain& chain, const glm::quat* rotations, glm::vec3* p, glm::mat3* frames,
              glm::mat3* inverses);

// The own-frame axes the refinement turns a joint about: a hinge's axis; any axis for a cone
// (its twist range bounds the turn about the bone); for a free joint the two axes across its bone,
// so it never rolls (all three when the bone has no length).
void SetTurnAxes(FabrikChainJoint* joint);

// One sweep of cyclic coordinate descent, tip to root: each joint turns, in its own frame, by the
// minimal rotation that points the end at the target, clamped by its limit (free joints drop the
// turn's part about their bone). Big moves for little work, far from the target. Expects
// positions and frames of `rotations`; leaves them updated.
void CcdSweep(const FrameChain& chain, const glm::vec3& target, glm::quat* rotations, glm::vec3* p,
              glm::mat3* frames, glm::mat3* inverses, bool* limited);

// A rotation of `joint` within its limit, for restarts: a hinge angle in its range, a swing
// within the cone and a twist within range; a free joint turns its input rotation by up to 1 rad
// across its bone.
glm::quat TurnWithin(const FabrikChainJoint& joint, std::uint32_t* state);

// The refinement with limits (see the top of ik/chains/fabrik_pose.cpp): Levenberg-Marquardt on the
// joints' own-frame turns, every step clamped by the limits and kept only when it brings the end
// nearer. Starts from buffers.rotations[*current] (within the limits) with its positions and frames
// filled in; leaves the best state in *current. Returns the steps taken.
int Refine(const FrameChain& chain, const glm::vec3& target, float tolerance_model, int max_steps,
           const RefineBuffers& b, int* current, bool* limited);

}  // namespace internal
}  // namespace ik
