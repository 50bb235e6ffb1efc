// FABRIK for chains of any length, root joint down to end joint: positions solved in model space,
// then local rotations root to tip, each joint a points-at toward the next solved position in its
// own frame after its parent turned (the seed's option 2). Joint limits act inside the iterations.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ik/core/skeleton.h"
#include "ik/limits/joint_limits.h"

namespace ik {

struct FabrikOptions {
  // Stop when the end is within tolerance · L of the target, L = the chain's length (sum of its
  // segments in model space). In (0, 0.1].
  float tolerance = 1e-4f;
  // At most this many iterations (one backward and one forward pass each), in [1, 10000]. Without
  // limits, reachable targets typically take 2-4 (see fabrik.cpp for the accelerations). With
  // limits, the refinement's steps and the restarts' sweeps count as iterations too; targets the
  // limits allow typically take 3-4 in all.
  int max_iterations = 64;
  // Blend from the input pose (0) to the full solve (1), per joint's local rotation, in [0, 1].
  float weight = 1.0f;
  // Keep every iteration's positions in FabrikResult::iteration_positions (for drawing).
  bool record_iterations = false;
  // Model-space direction a straight chain bends toward when the target lies on its line (where
  // FABRIK alone cannot bend it). Default: an arbitrary perpendicular of the line.
  std::optional<glm::vec3> bend_hint_model;

  // True when every option is in range; otherwise false with the reason in *why.
  bool Validate(std::string* why = nullptr) const;
};

// The first fallback the solve had to take. The first five come with degenerate = true (the pose
// and models were left unchanged).
enum class FabrikFallback {
  kNone,             // "none"
  kInvalidChain,     // "invalid_chain": indices out of range, end not below root, or the pose or
                     // models don't match the skeleton
  kInvalidOptions,   // "invalid_options": FabrikOptions::Validate() or the limits failed
  kNonFiniteInput,   // "non_finite_input": a NaN/Inf target, local or model matrix, or a
                     // coordinate beyond 1e18 (its square would overflow)
  kSingularFrame,    // "singular_frame": a chain joint's frame is not invertible
  kZeroLengthChain,  // "zero_length_chain": every segment has zero length: nothing can move
  kStraightChain,    // "straight_chain": a reachable target and the chain lay on one line (or,
                     // without limits, the chain got stuck folded along one), where FABRIK
                     // cannot bend it; the inner joints were nudged toward bend_hint_model (or a
                     // perpendicular) by 1% of L and the iterations went on
};
const char* FabrikFallbackName(FabrikFallback f);

// Result of the position-only core.
struct FabrikPositionsResult {
  FabrikFallback fallback = FabrikFallback::kNone;
  int iterations = 0;            // iterations run (0: already there, or laid straight)
  float error = 0.0f;            // |end - target|, model units
  float tolerance_model = 0.0f;  // options.tolerance · L
  bool reached = false;          // error <= tolerance_model
  // The target is outside the chain's reach: farther than L, or nearer than the shortest reach
  // max(0, 2·longest segment - L). The chain then ends as near as it can.
  bool unreachable = false;
};

// Position-only FABRIK on `count` joints, root to tip, model space, solved in place:
// positions[0] stays; positions[i + 1] keeps distance lengths[i] from positions[i]. Unreachable
// far targets lay the chain straight toward the target without iterating. Zero-length segments
// stay zero; coincident points keep their previous direction. No allocation (unless
// `iteration_positions` is given: the input first, then the positions after each iteration and
// after each acceleration step). Non-finite input (or coordinates beyond 1e18), negative lengths
// or count < 2: nothing changes, fallback kNonFiniteInput / kInvalidChain.
FabrikPositionsResult SolveFabrikPositions(
    glm::vec3* positions, const float* lengths, int count, const glm::vec3& target_model,
    const FabrikOptions& options,
    std::vector<std::vector<glm::vec3>>* iteration_positions = nullptr);

// The same on a vector, with the lengths taken from the input positions.
FabrikPositionsResult SolveFabrikPositions(std::vector<glm::vec3>* positions,
                                           const glm::vec3& target_model,
                                           const FabrikOptions& options);

// "" when root..end is a usable chain of `skeleton` (both in range, end a proper descendant of
// root), otherwise why not.
std::string ValidateFabrikChain(const Skeleton& skeleton, int root, int end);

// The chain's joints root to end: root, the ancestors of end below root, end. Empty when invalid.
std::vector<int> FabrikChainJoints(const Skeleton& skeleton, int root, int end);

struct FabrikResult {
  bool degenerate = true;  // nothing was solved or changed (see the fallback)
  FabrikFallback fallback = FabrikFallback::kNone;
  // Iterations run: FABRIK passes, then (with limits) refinement steps.
  int iterations = 0;
  float error = 0.0f;  // |end - target| after the solve (recomputed matrices), model units
  float tolerance_model = 0.0f;  // the absolute tolerance used: options.tolerance · L
  bool reached = false;          // error <= tolerance_model
  bool unreachable = false;      // see FabrikPositionsResult
  bool limited = false;          // a joint limit clamped a rotation during the solve
  glm::vec3 target_model{0.0f};
  std::vector<int> joints;                  // root → end
  std::vector<glm::vec3> positions_before;  // model space, root → end
  std::vector<glm::vec3> positions;         // after the solve (from the recomputed matrices)
  // With options.record_iterations: the input positions, then the positions after each iteration
  // (and after each acceleration step; see SolveFabrikPositions).
  std::vector<std::vector<glm::vec3>> iteration_positions;
};

// What the pose-level solve keeps about one chain joint. Internal to fabrik_pose.cpp and
// fabrik_limits.cpp: it is declared here only so that FabrikWorkspace is a plain struct the
// caller can own.
struct FabrikChainJoint {
  Transform local;                                  // the input local transform
  glm::quat rest_rotation{1.0f, 0.0f, 0.0f, 0.0f};  // the limit's zero
  glm::vec3 child_offset{0.0f};                     // the child's position in the joint's own frame
  glm::vec3 inverse_scale{1.0f};                    // 1 / local.scale
  const JointLimit* limit = nullptr;
  glm::vec3 axes[3];  // the own-frame axes the refinement turns the joint about
  int axis_count = 0;
  // The limit, prepared for a quick inside test: its unit axis, cos of the cone angle, and the
  // cos and sin of half the hinge or twist range's ends.
  glm::vec3 limit_axis{0.0f, 1.0f, 0.0f};
  float cos_cone = -1.0f;
  float low_cos = 0.0f, low_sin = -1.0f, high_cos = 0.0f, high_sin = 1.0f;
};

// Scratch memory of SolveFabrikPose, owned by the caller so that solving every frame allocates
// nothing once the buffers have grown to the longest chain solved (they never shrink). Holds no
// state between calls: any workspace gives the same result. One per thread.
struct FabrikWorkspace {
  std::vector<FabrikChainJoint> chain;
  std::vector<float> lengths;
  std::vector<glm::vec3> positions[2];
  std::vector<glm::quat> rotations[2];
  std::vector<glm::quat> best;
  std::vector<glm::mat3> frames[2];
  std::vector<glm::mat3> inverses[2];
  std::vector<glm::vec3> columns;
  std::vector<glm::vec3> turns;
  std::vector<glm::vec3> lever;
  std::vector<glm::vec3> blocked;
  std::vector<glm::vec3> blocked_columns;
  std::vector<int> blocked_count;
};

// Pose level: solves the chain from `root` down to `end` (end a descendant of root; the joints in
// between are exactly its ancestors below root) for `target_model`, writes the local rotations of
// root .. end's parent into `pose` (the end keeps its local rotation) and recomputes `models` for
// root's subtree. `models` must hold the model matrices of `pose` on input (LocalToModel).
// Rotations come back root to tip: each joint turns by the minimal rotation, in its own frame
// (after its parent's turn), that points its child toward the child's solved position.
// With `limits` (optional), every chain joint with a limit (ClampRotation in its own frame,
// relative to its rest rotation) stays within it at every step: the input rotations are clamped
// first, a few FABRIK iterations whose forward pass points each joint and clamps it give the
// start, and a damped least-squares refinement (Levenberg-Marquardt on the joints' own-frame
// turns: hinges about their axis, cones about any axis, free joints about the axes across their
// bone, so they never roll) takes the end onto the target, each step clamped by the limits. It
// reaches the targets the limits allow (found from the input pose; the problem has local minima,
// and a target behind one is missed with `reached` false). The best state found is the result.
// options.weight blends each joint's local rotation from the input (weight 0 leaves the pose
// exactly as it was); limits clamp the blend again. Bone lengths are kept exactly when the frames
// above are similarities. Leaves pose and models unchanged and returns degenerate on an invalid
// chain, sizes that don't match, invalid options or limits, non-finite input or a singular frame.
// No allocation once `workspace` and `*result` have held a chain this long (unless
// options.record_iterations), in any joint order. *result is overwritten.
void SolveFabrikPose(const Skeleton& skeleton, int root, int end, const glm::vec3& target_model,
                     const FabrikOptions& options, const JointLimits* limits, Pose* pose,
                     std::vector<glm::mat4>* models, FabrikWorkspace* workspace,
                     FabrikResult* result);

// The same with a workspace and result of its own (allocates; for tools and tests).
FabrikResult SolveFabrikPose(const Skeleton& skeleton, int root, int end,
                             const glm::vec3& target_model, const FabrikOptions& options,
                             const JointLimits* limits, Pose* pose, std::vector<glm::mat4>* models);

}  // namespace ik
