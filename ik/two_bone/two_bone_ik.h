// Closed-form two-bone IK (hip-knee-foot, shoulder-elbow-hand): new knee and foot positions from
// the sphere-sphere knee circle, then minimal rotations of the start and mid joints computed in
// their own local frames. Rotations only: bone lengths never change. Two levels: one chain from
// model matrices (SolveTwoBoneIk, a job: no allocation, no state) and a chain inside a posed
// skeleton (SolveTwoBoneIkPose). Batch: two_bone_ik_batch.h. Any finite input gets a finite answer,
// whatever the rig's units and distance from the origin; `reached` is true only when the end is
// on the target (within ReachTolerance).
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ik/core/rotation.h"
#include "ik/core/skeleton.h"

namespace ik {

// Which of the seed's three position cases applied, or that nothing could be solved.
enum class TwoBoneCase {
  kReachable,   // |t - a| within [reach_min, reach_max]: the end lands on the target
  kTooFar,      // beyond reach_max: the chain is fully extended toward the target
  kTooClose,    // inside reach_min: the longer bone points at the target, the other back
  kDegenerate,  // non-finite or singular input, or invalid options: nothing was changed
};
// "reachable", "too_far", "too_close", "degenerate" (the names the JSON output uses).
const char* CaseName(TwoBoneCase c);

// The first fallback the solver had to take, in the order they are checked. Only kNonFiniteInput,
// kOutOfRange, kSingularFrame, kInvalidOptions and kInvalidChain come with kDegenerate; the others
// still solve.
enum class TwoBoneFallback {
  kNone,            // "none"
  kNonFiniteInput,  // "non_finite_input": a NaN/Inf matrix, pose, target or pole
  kOutOfRange,      // "out_of_range": the answer does not fit in float (points more than
                    // ~3e38 apart, so that the error or a position overflows)
  kSingularFrame,   // "singular_frame": a start/mid matrix (or local scale) is not invertible
  kInvalidOptions,  // "invalid_options": TwoBoneIkOptions::Validate() failed
  kInvalidChain,  // "invalid_chain": TwoBoneChain::Validate failed or the pose/matrices don't match
  kZeroLengthBone,     // "zero_length_bone": a bone shorter than epsilon·L; solved as one bone
  kTargetAtRoot,       // "target_at_root": |t - a| < epsilon·L; the direction toward the target
                       // is taken from the current upper bone instead
  kPoleColinear,       // "pole_colinear": the pole lies on the start-target line; the current
                       // knee chose the knee direction instead
  kColinearChain,      // "colinear_chain": the knee lies on the start-target line; the bend axis
                       // (or an arbitrary perpendicular) chose the knee direction
  kAntiparallel,       // "antiparallel": a bone had to turn by 180°; it turned about the bend axis
  kHingeAxisUnusable,  // "hinge_axis_unusable": hinge requested but no bend axis is known, or a
                       // bone lies along it; solved without the hinge
  kNoTargetRotation,   // "no_target_rotation": EndOrientation::kTarget without a target rotation;
                       // the end kept its local rotation
};
const char* FallbackName(TwoBoneFallback f);

// What the end joint's rotation does after the solve (pose level only).
enum class EndOrientation {
  kKeepLocal,  // the seed: the end keeps its local rotation and turns with the lower bone
  kKeepModel,  // the end keeps its model-space orientation (a foot stays flat)
  kTarget,     // the end takes the target's model-space rotation
};

// Options; the defaults give the seed's behaviour exactly.
struct TwoBoneIkOptions {
  // Model-space point. When set, the knee goes to the point of the knee circle nearest the pole
  // instead of the point nearest the current knee.
  std::optional<glm::vec3> pole_model;

  // The knee's bend axis in the mid joint's local frame (any length; the sign matters: a positive
  // bend turns the lower bone about +axis away from the upper bone, i.e. the bent knee has
  // cross(b - a, c - b) along +axis). Used by the hinge, to pick the knee direction for a straight
  // chain, and as the turn axis of 180° turns. SolveTwoBoneIkPose fills it from the skeleton's rest
  // pose (DetectBendAxis) when absent; SolveTwoBoneIk then uses the current bend.
  std::optional<glm::vec3> bend_axis_local;

  // Hinge: the mid joint turns only about bend_axis_local, one way, with its bend (angle between
  // the upper bone's and lower bone's directions, about the axis; 0 = straight) kept within
  // [hinge_min_angle, hinge_max_angle], radians, 0 <= min <= max <= π. The start joint swings the
  // whole limb onto the target, turning it about the start-target line toward the pole if one is
  // set. Exact when both bones are perpendicular to the axis.
  bool hinge = false;
  float hinge_min_angle = 0.0f;
  float hinge_max_angle = kPi;

  // Soft IK, as a fraction of the chain length L = ℓ_ab + ℓ_bc, in [0, 1]; 0 = off. Targets
  // farther than (1 - soft)·L are eased with an exponential so the chain only approaches full
  // extension asymptotically and the knee does not pop as the target crosses the reach limit.
  float soft = 0.0f;

  // Blend from the input pose (0) to the full solve (1), applied to both corrections (and the end
  // orientation) by normalized lerp from the identity. In [0, 1].
  float weight = 1.0f;

  EndOrientation end_orientation = EndOrientation::kKeepLocal;

  // Relative tolerance: bones shorter than epsilon·L count as zero length, a target within
  // epsilon·L of the start counts as at the root, a knee (or pole) within epsilon·L of the
  // start-target line counts as on it. In (0, 0.1].
  float epsilon = 1e-5f;

  // True when every option is in range; otherwise false with the reason in *why (optional).
  bool Validate(std::string* why = nullptr) const;
};

// The knee circle: where the sphere of radius ℓ_ab about a meets the sphere of radius ℓ_bc about
// the (effective) target. Model space. Radius 0 when the chain is straight or folded.
struct KneeCircle {
  glm::vec3 center{0.0f};
  glm::vec3 normal{0.0f, 0.0f, 1.0f};  // unit, from a toward the target
  float radius = 0.0f;
};

// How near the target the end must be to count as reached, model-space units: kReachTolerance of
// the chain length ℓ_ab + ℓ_bc, plus what float coordinates can resolve around the start joint and
// the target (4 units in the last place of their largest coordinate, and a few of the smallest
// denormal). For a chain near the origin that is 1e-5 of its length; a chain far from the origin,
// relative to its length, cannot be placed more finely than float allows there.
constexpr float kReachTolerance = 1e-5f;
float ReachTolerance(float chain_length, const glm::vec3& start_model,
                     const glm::vec3& target_model);

// Everything a solve reports.
struct TwoBoneIkResult {
  TwoBoneCase solve_case = TwoBoneCase::kDegenerate;
  TwoBoneFallback fallback = TwoBoneFallback::kNone;
  // The end is on the target: the case is reachable, soft IK and the hinge limits did not pull it
  // off, weight is 1, and the end, where the corrections put it, is within ReachTolerance of the
  // target (SolveTwoBoneIkPose measures it on the recomputed matrices).
  bool reached = false;
  bool softened = false;
  bool hinge_limited = false;
  float error = 0.0f;        // |c_final - target|, model-space units (0 when degenerate and
                             // the distance does not fit in float)
  glm::vec3 a{0.0f};         // start joint position (does not move)
  glm::vec3 b_before{0.0f};  // mid joint before / after, model space
  glm::vec3 c_before{0.0f};  // end joint before / after, model space
  glm::vec3 b_final{0.0f};
  glm::vec3 c_final{0.0f};
  glm::vec3 target{0.0f};  // the target as given
  KneeCircle circle;
  float reach_min = 0.0f;
  float reach_max = 0.0f;
  // Local-space corrections: new_local.rotation = old_local.rotation * correction. Identity when
  // degenerate.
  glm::quat start_correction{1.0f, 0.0f, 0.0f, 0.0f};
  glm::quat mid_correction{1.0f, 0.0f, 0.0f, 0.0f};
};

// Job level: one chain from model-space matrices; no allocation, no state.
// start_model / mid_model / end_model: the start (k), mid (j) and end (i) joints' model matrices
// 𝕋 (only the end's translation is used); target_model: model-space target. The corrections are
// expressed in the frames of start_model and mid_model, i.e. they are exact as
// local.rotation * correction when those joints' own local scale is uniform; for a non-uniform
// local scale S pass 𝕋·S⁻¹ instead (SolveTwoBoneIkPose does). Joints between start and mid, or
// mid and end (twist joints), are fine: they turn rigidly with their parent.
// Bone lengths are kept exactly when the frames above the mid joint are similarities (rotation,
// possibly mirrored, times a uniform scale); under a non-uniform scale inherited from above, no
// rotation can keep them, and the bones are still pointed exactly at b′ and c′.
// Degenerate (identity corrections) when an input is not finite, a matrix's 3x3 part is singular,
// the options are invalid, or the answer does not fit in float. b_final / c_final are where the
// joints end up after the weighted corrections. options.end_orientation is ignored here.
// Common chains (similarity frames, no hinge/soft/weight, no fallback, ordinary magnitudes) take a
// SIMD fast path (AVX2 + FMA when the CPU has both, else SSE2); the rest a general path with the
// same formulas in double, which takes any finite input; all give the same result to float
// precision. The answer is only as precise as the inputs: positions far from the origin carry
// fewer bits of the chain (SolveTwoBoneIkPose avoids that by solving relative to the start joint).
TwoBoneIkResult SolveTwoBoneIk(const glm::mat4& start_model, const glm::mat4& mid_model,
                               const glm::mat4& end_model, const glm::vec3& target_model,
                               const TwoBoneIkOptions& options = {});

// Three joints of one skeleton: mid a descendant of start, end a descendant of mid (not
// necessarily direct children).
struct TwoBoneChain {
  int start = -1;
  int mid = -1;
  int end = -1;

  // True when the chain is usable with `skeleton`; otherwise false with the reason in *why
  // (optional): an index out of range, mid not below start, end not below mid.
  bool Validate(const Skeleton& skeleton, std::string* why = nullptr) const;
};

// The chain {grandparent, parent, end} of `end` (the command line's END=...), or nullopt with the
// reason in *error when `end` is out of range or has fewer than two ancestors.
std::optional<TwoBoneChain> ChainFromEnd(const Skeleton& skeleton, int end,
                                         std::string* error = nullptr);

// The mid joint's bend axis in its local frame (without its own scale), from the rest pose:
// cross(b - a, c - b) taken into the mid joint's frame, so the rest bend is positive. nullopt when
// the rest chain is straight (within epsilon) or the chain is invalid.
std::optional<glm::vec3> DetectBendAxis(const Skeleton& skeleton, const TwoBoneChain& chain,
                                        float epsilon = 1e-3f);

// A model-space target, with an optional model-space rotation for EndOrientation::kTarget.
struct TwoBoneTarget {
  glm::vec3 position{0.0f};
  std::optional<glm::quat> rotation;
};

// Pose level: solves `chain` of `skeleton` for `target`, writes the corrections (weighted) into
// pose->locals[start / mid].rotation, applies options.end_orientation to the end joint, and
// recomputes `models` for the start joint's subtree. `models` must hold the model matrices of
// `pose` on input (LocalToModel). When options.bend_axis_local is absent it is taken from the rest
// pose (DetectBendAxis). The solve runs relative to the start joint, on bone vectors rebuilt from
// the local transforms, so that a rig far from the origin or in large units loses no precision to
// differences of large coordinates. b_final, c_final, error and reached are measured on the
// recomputed matrices. Leaves pose and models unchanged and returns kDegenerate when the chain is
// invalid, the sizes don't match the skeleton, any input is not finite, or the answer does not fit
// in float.
TwoBoneIkResult SolveTwoBoneIkPose(const Skeleton& skeleton, const TwoBoneChain& chain,
                                   const TwoBoneTarget& target, const TwoBoneIkOptions& options,
                                   Pose* pose, std::vector<glm::mat4>* models);

}  // namespace ik
