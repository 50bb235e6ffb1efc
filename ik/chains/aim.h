// Points-at (aim) constraints in the constrained bone's own frame (the seed's "option 2"), so its
// joint limits can clamp them; with an up reference against roll, a weight, and the turn spread
// over ancestors (a head turning the neck and spine too).
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ik/core/skeleton.h"
#include "ik/limits/joint_limits.h"

namespace ik {

struct AimOptions {
  // The bone's pointing axis in its own frame (the frame a local correction acts in: model matrix
  // without the joint's own scale), any length. Default: the current direction from the joint to
  // `axis_child` (the seed's "left ankle - left knee" in calf coordinates).
  std::optional<glm::vec3> axis_local;
  // The descendant joint whose direction is the axis when axis_local is absent. -1 (default):
  // BoneChild(skeleton, joint), the child the limb continues through; for a leaf joint the
  // incoming bone (parent -> joint) continued.
  int axis_child = -1;

  // Up reference, so the bone does not roll freely: after pointing, the bone twists about its
  // axis so that up_local (own frame) faces the reference. At most one of up_target_model (a
  // model-space point, like a pole) and up_direction_model (a model-space direction). Without
  // either, the turn is the minimal rotation (no twist at all). up_local defaults to the own
  // frame's basis axis most perpendicular to the aim axis. up_local alone (no reference) still
  // chooses the axis of a 180° turn (a target straight behind the bone), which keeps it fixed.
  std::optional<glm::vec3> up_local;
  std::optional<glm::vec3> up_target_model;
  std::optional<glm::vec3> up_direction_model;

  // Blend from the input pose (0) to the full solve (1), per turned joint, in [0, 1].
  float weight = 1.0f;

  // Number of ancestors that share the turn (0: the joint alone; stops at the root), in [0, 64].
  // Shares fall off geometrically: the joint's share 1, its parent's spread_falloff, the
  // grandparent's spread_falloff², ... (normalized). The topmost turns first by its share, each
  // next joint by its share of what remains, and the joint itself turns the rest, so with weight 1
  // and no limits the bone still points exactly. spread_falloff in (0, 1].
  int spread = 0;
  float spread_falloff = 0.5f;

  // True when every option is in range; otherwise false with the reason in *why.
  bool Validate(std::string* why = nullptr) const;
};

// The first fallback the solve had to take. The first five come with degenerate = true (the pose
// and models were left unchanged).
enum class AimFallback {
  kNone,                 // "none"
  kInvalidJoint,         // "invalid_joint": joint (or target joint) out of range, the pose or
                         // models don't match the skeleton, or a null pointer
  kInvalidOptions,       // "invalid_options": AimOptions::Validate() or the limits failed, or
                         // axis_child is not a descendant
  kNonFiniteInput,       // "non_finite_input": a NaN/Inf target, local, model matrix or option
  kSingularFrame,        // "singular_frame": a turned joint's frame is not invertible
  kTargetMovesWithBone,  // "target_moves_with_bone": the target joint is below a turned joint
  kNoAxis,               // "no_axis": no axis_local and the bone has no direction (a leaf at its
                         // parent's position, or a zero-length bone); nothing turned
  kTargetAtJoint,        // "target_at_joint": the target is at the joint (nearer than float
                         // positions there can resolve a direction); nothing turned
  kAntiparallel,         // "antiparallel": the target is straight behind the bone: it turned 180°
                         // about the up axis (or an arbitrary perpendicular)
  kUpColinear,  // "up_colinear": the up reference lies along the aim direction (or up_local
                // along the axis): no twist applied
};
const char* AimFallbackName(AimFallback f);

// Angle below which an aim counts as reached, radians.
constexpr float kAimReachedAngle = 1e-4f;

struct AimResult {
  bool degenerate = true;  // nothing was solved or changed (see the fallback)
  AimFallback fallback = AimFallback::kNone;
  bool reached = false;  // angle_after <= kAimReachedAngle
  bool limited = false;  // a joint limit changed a turned joint's rotation
  // Radians between the bone's axis and the direction from the joint to the target, model space,
  // before and after (measured on the recomputed matrices).
  float angle_before = 0.0f;
  float angle_after = 0.0f;
  glm::vec3 target_model{0.0f};
  glm::vec3 origin_model{0.0f};       // the joint's position after the solve
  glm::vec3 axis_before_model{0.0f};  // unit bone direction before / after
  glm::vec3 axis_after_model{0.0f};
  int top_joint = -1;     // the highest ancestor turned (the joint itself when spread is 0)
  int joints_turned = 0;  // 1 + the ancestors that shared the turn
};

// Scratch space SolveAimPose works in, owned by the caller and reused from call to call: once it
// has served a solve with a given spread, later solves with that spread or less allocate nothing.
// Its contents between calls mean nothing; one workspace per thread.
struct AimWorkspace {
  std::vector<int> path;               // the joint, then the ancestors sharing the turn
  std::vector<Transform> path_locals;  // their local transforms while the solve turns them
  std::vector<glm::mat4> path_models;  // and their model matrices
  std::vector<float> share_prefix;     // Σ falloff^i, i = 0..k
  std::vector<glm::quat> original;     // their rotations on input (restored on failure)
};

// The correction, in the frame `joint_frame_model` (a joint's model matrix without its own scale),
// that points `axis_local` at `target_model`: target → frame via the inverse, the minimal rotation
// there (180° turns about `up_local` when given), then, when `up_reference_local` is given (the up
// reference in the same frame, already a direction), the twist about the new axis that turns
// up_local toward it. Apply as local.rotation * correction. Identity (and *fallback set) when the
// target is at the joint, the frame is singular or an input is not finite. No allocation.
glm::quat AimCorrection(const glm::mat4& joint_frame_model, const glm::vec3& axis_local,
                        const glm::vec3& target_model,
                        const std::optional<glm::vec3>& up_local = std::nullopt,
                        const std::optional<glm::vec3>& up_reference_local = std::nullopt,
                        AimFallback* fallback = nullptr);

// Pose level: points `joint`'s bone at `target_model` (model space), spreading over ancestors as
// options say, clamping each turned joint by its limit in `limits` (optional; nullptr = none),
// writing the new local rotations into `pose` and recomputing `models` for the topmost turned
// joint's subtree. `models` must hold the model matrices of `pose` on input (LocalToModel);
// `workspace` is the caller's scratch space (see AimWorkspace). Any finite target works, however
// far (directions are taken in double). Leaves pose and models unchanged and returns degenerate
// when the joint is out of range, pose, models or workspace is null, the sizes don't match, the
// options or limits are invalid, an input is not finite or a frame is singular.
AimResult SolveAimPose(const Skeleton& skeleton, int joint, const glm::vec3& target_model,
                       const AimOptions& options, const JointLimits* limits, Pose* pose,
                       std::vector<glm::mat4>* models, AimWorkspace* workspace);

// The same with another joint of the skeleton as the target (the seed's left calf pointing at the
// right ankle): its current model position. Degenerate (kTargetMovesWithBone) when `target_joint`
// lies in the subtree of a joint the solve would turn, since the target would move with the bone.
AimResult SolveAimPoseAtJoint(const Skeleton& skeleton, int joint, int target_joint,
                              const AimOptions& options, const JointLimits* limits, Pose* pose,
                              std::vector<glm::mat4>* models, AimWorkspace* workspace);

}  // namespace ik
