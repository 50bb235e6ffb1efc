// Full-body IK: hand and foot targets beyond a limb's reach are reached by shifting the hips and
// bending the spine (within joint limits) while pinned joints hold, and joints of the body can be
// placed; the limbs are then solved with the closed-form two-bone solver (knees and elbows on
// their hinge). A job in the ozz style: plain inputs, Validate(), Run() into caller-owned outputs.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ik/body/limbs.h"
#include "ik/core/skeleton.h"
#include "ik/limits/joint_limits.h"
#include "ik/two_bone/two_bone_ik.h"

namespace ik {

// Capacities of the solve (its small dense systems live on the stack).
constexpr int kMaxBodyJoints = 8;      // hips + spine joints up to the chest
constexpr int kMaxBodyEffectors = 16;  // pins, targets and moves per solve

// The parts of a humanoid skeleton the full-body solve moves, found once per skeleton
// (BuildBodyRig) and reused every frame.
struct BodyLimb {
  Limb limb;                                 // from DetectLimbs: start, mid, end
  std::optional<glm::vec3> bend_axis_local;  // DetectBendAxis: the hinge of knee or elbow
};
struct BodyRig {
  int joint_count = 0;  // of the skeleton it was built for
  // The body's base: the lowest common ancestor of every limb's start joint (the pelvis of a
  // humanoid). Its model-space translation is what "shifting the hips" changes.
  int hips = -1;
  // Where the arms hang from: the lowest common ancestor of both arms' start joints (with one
  // arm, its start's parent; without arms, the hips).
  int chest = -1;
  // The joints whose rotations bend the body, root to tip: hips, then the joints between the hips
  // and the chest, then the chest (at most kMaxBodyJoints; a longer spine keeps its top ones).
  std::vector<int> spine;
  std::vector<BodyLimb> limbs;  // legs then arms, as DetectLimbs orders them
  // A length scale of the body (model units): the mean length of its limbs. Tolerances and
  // weights are relative to it.
  float size = 0.0f;
};

// Builds the rig of `skeleton` from its rest pose (DetectLimbs, with `is_bone` as there). False,
// with the reason in *why, when no limb is found.
bool BuildBodyRig(const Skeleton& skeleton, BodyRig* rig, std::string* why = nullptr,
                  const std::vector<bool>* is_bone = nullptr);
// The same on limbs already detected (DetectLimbs' result for this skeleton), so that a caller
// that keeps them detects them once.
bool BuildBodyRig(const Skeleton& skeleton, const std::vector<Limb>& limbs, BodyRig* rig,
                  std::string* why = nullptr);

// One constraint on the body, in model space.
struct BodyEffector {
  enum class Kind {
    // Holds `joint` at `target_model` (or, when absent, where the input pose has it). Pins win
    // over targets: a limb's end pin keeps the body within that limb's reach of the pin.
    kPin,
    // Reaches `joint` (a limb's end) for `target_model`: the limb alone, or with body_helps the
    // body shifts and bends to bring the target within the limb's reach, as far as the pins and
    // limits let it.
    kTarget,
    // Places `joint` at `target_model`, before anything else: a joint of the body (hips, spine,
    // chest, neck, head, a limb's start) by shifting the hips and bending the spine; the root or
    // another ancestor of the hips by translating it (the whole body moves); a limb's end is
    // pinned there.
    kMove,
  };
  Kind kind = Kind::kPin;
  int joint = -1;
  std::optional<glm::vec3> target_model;  // required for kTarget and kMove
  bool body_helps = true;                 // kTarget only
  // Importance among effectors of the same kind when they cannot all hold, > 0.
  float weight = 1.0f;
  // A limb's end: what its rotation does after the limb solve. Default: kKeepModel for pins (a
  // pinned foot stays as it was), kKeepLocal otherwise.
  std::optional<EndOrientation> end_orientation;
};

const char* BodyEffectorKindName(BodyEffector::Kind kind);  // "pin", "target", "move"

// How much each part of the body helps, and when to stop. Weights blend how far each part goes
// relative to the others (0: that part does not move); their scale does not matter.
struct FullBodyOptions {
  float hips_translation_weight = 1.0f;  // shifting the hips, [0, 1000]
  float hips_rotation_weight = 0.5f;     // turning the hips (pelvis tilt), [0, 1000]
  float spine_weight = 1.0f;             // bending each spine joint above the hips, [0, 1000]
  // Most a body joint may turn away from its input rotation, radians, [0, π] (on top of any
  // joint limit, which holds absolutely).
  float max_body_turn = 0.7f;
  // Body iterations at most, [1, 100].
  int max_iterations = 16;
  // Tolerance of the body solve, a fraction of BodyRig::size, [1e-7, 0.1]. A pin or target counts
  // as reached within this distance.
  float tolerance = 1e-5f;
  // The knees and elbows bend one way, about their rest bend axis, in [0, π] (the two-bone
  // hinge). The hinge is exact only while both bones are square to its axis; where it falls short
  // of a reachable target, the plain two-bone solve (the knee circle point nearest the current
  // knee, so the bend stays on its side) is used when it comes nearer.
  bool hinge = true;

  bool Validate(std::string* why = nullptr) const;
};

// What became of one effector.
struct BodyEffectorReport {
  int joint = -1;
  BodyEffector::Kind kind = BodyEffector::Kind::kPin;
  glm::vec3 target_model{0.0f};    // resolved (a pin without a target: the joint's input position)
  glm::vec3 position_model{0.0f};  // where the joint ended up
  float error = 0.0f;              // |position - target|, model units
  bool reached = false;            // error <= tolerance · BodyRig::size
};

// A joint the solve changed.
struct BodyJointChange {
  int joint = -1;
  glm::vec3 translation_model{0.0f};  // how far the joint itself moved, model space
  float turn = 0.0f;                  // angle between its input and output local rotation, rad
};

struct FullBodyResult {
  bool valid = false;  // false: Validate failed (see `why`); the pose and models are untouched
  std::string why;
  int iterations = 0;    // body iterations run
  bool reached = false;  // every effector within tolerance
  float max_error = 0.0f;
  float tolerance_model = 0.0f;  // tolerance · BodyRig::size
  // A step or a limb's solve was not finite (a target so far away that float arithmetic
  // overflows): the last finite state was kept (at worst the input pose), never NaN.
  bool non_finite = false;
  bool limited = false;                       // a joint limit or max_body_turn clamped a body joint
  glm::vec3 hips_offset_model{0.0f};          // how far the hips moved
  std::vector<BodyEffectorReport> effectors;  // one per effector, in input order
  std::vector<BodyJointChange> moved;         // the joints that changed, in joint order
};

// Scratch memory of the solve, owned by the caller so that a frame's solve allocates nothing
// once it has held a solve of this skeleton. Holds no state between solves. One per thread.
struct FullBodyWorkspace {
  std::vector<glm::mat4> models_in;
  std::vector<Transform> locals_in;
  std::vector<int> needed;  // joints whose matrices the body iterations update
  std::vector<char> flags;  // per joint
};

// The solve. The pose is solved in place; it should be the freshly sampled pose of this frame
// (the solve never looks at earlier frames, so nothing drifts).
//  1. Moves of ancestors of the hips translate that joint.
//  2. The body: hips translation, hips rotation and the spine's rotations, iterated (damped
//     least squares with priorities, Levenberg-Marquardt; see ik/body/full_body_solve.h): moves
//     first, then pins, then targets the body helps with, each in what the ones before leave free.
//     A limb's end pin or target only asks that its limb's start come within the limb's length of
//     it.
//  3. The limbs whose end has a pin, target or move: the two-bone solver, with the hinge.
// Bone lengths never change (but the hips' offset from their parent, which the body's shift is);
// joint limits on the body joints are never exceeded; limits on limb joints are not applied (the
// two-bone solver knows only its hinge). Pins that cannot all hold give the least-squares
// compromise of their weights, each with its error in the result (the compromise is approached
// over the iterations: conflicting pins of unequal weight may need more than the default 16).
// No allocation once the workspace and result have held a solve of this skeleton (in any joint
// order: the forward kinematics of a subtree walks the skeleton's depth-first order in place).
struct FullBodyIkJob {
  const Skeleton* skeleton = nullptr;
  const BodyRig* rig = nullptr;             // BuildBodyRig of skeleton
  const JointLimits* limits = nullptr;      // optional; applied to the body joints
  const BodyEffector* effectors = nullptr;  // effector_count of them
  int effector_count = 0;
  FullBodyOptions options;
  Pose* pose = nullptr;                      // in: the sampled pose; out: solved
  std::vector<glm::mat4>* models = nullptr;  // in: LocalToModel of pose; out: of the solved pose
  FullBodyWorkspace* workspace = nullptr;
  FullBodyResult* result = nullptr;

  // True when the job can run. Otherwise false with every reason found in *why (joined by "; ",
  // each naming the effector by kind, index and joint): a null pointer, sizes that do not match
  // the skeleton, a rig built for another skeleton, invalid options or limits, more than
  // kMaxBodyEffectors effectors, an effector on a joint out of range or on a limb joint other
  // than a limb's start or end (a knee, a toe: pin the foot instead), a kTarget not on a limb's
  // end, a kMove on a joint nothing in the solve moves, a missing (kTarget, kMove) or non-finite
  // target, a weight outside (0, 1000], an end orientation other than keep_local or keep_model,
  // or a non-finite input pose or matrix. Builds no string when the job is valid.
  bool Validate(std::string* why = nullptr) const;

  // Validates, then solves. False (pose and models untouched, result->valid false with the
  // reason) when Validate fails; true otherwise, even when not everything could be reached.
  bool Run() const;
};

}  // namespace ik
