// A range-of-motion clip, generated: every detected limb and the spine put through their range
// one joint group after another, so that bad skinning shows (with the weights and problem views)
// without building such a clip by hand.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "app/core/character.h"
#include "assets/model/model.h"
#include "ik/body/full_body.h"
#include "ik/body/limbs.h"
#include "ik/limits/joint_limits.h"

namespace app {

inline constexpr const char* kRangeOfMotionName = "Range of motion";

// One motion of the clip: `joint` turns about `axis_local` (its own frame, relative to the rest
// pose, as joint limits measure it) from rest to max_angle, back, to min_angle and back, between
// `start` and `end` seconds.
struct RangeMotion {
  std::string group;                         // "LeftLeg", "RightArm", "Spine", ...
  std::string what;                          // "hip flex", "knee bend", "spine twist", ...
  std::vector<int> joints;                   // the joints that turn (the spine's share the angle)
  std::vector<glm::vec3> axes_local;         // one per joint, unit
  float min_angle = 0.0f, max_angle = 0.0f;  // radians, the total over the joints
  float start = 0.0f, end = 0.0f;            // seconds
  bool from_limit = false;                   // the range is the joint's limit, not a default
};

struct RangeOfMotion {
  assets::Clip clip;  // named kRangeOfMotionName, prepared (assets::PrepareClip)
  std::vector<RangeMotion> motions;
};

struct RangeOfMotionOptions {
  float seconds_per_motion = 2.0f;  // > 0
  float frame_rate = 30.0f;         // keys per second, > 0
};

// The clip for a skeleton with `limbs` (ik::DetectLimbs, legs then arms) and, when given, its
// body rig (`body`, ik::BuildBodyRig; its spine joints between the hips and the chest bend and
// twist). Groups in order: each leg (hip flex, hip side swing, hip twist, knee bend), each arm
// (shoulder flex, side swing, twist, elbow bend), the spine (bend, side bend, twist). A joint
// with a limit in `limits` goes through it (a hinge from min to max about its axis; a cone
// swings to its angle on two axes and twists through its range); the others through defaults:
// knees and elbows 0–140° about their rest bend axis (the way the knee bends back and the elbow
// forward when the rest pose is straight), hips -30° to 90° forward, ±45° to the side and ±40°
// twist, shoulders -45° to 90°, ±60°, ±60°, the spine -30° to 45° forward, ±30° to the side,
// ±30° twist spread over its joints. Each motion goes rest → max → rest → min → rest with eased
// turns, keyed at the frame rate; joints not in a motion stay at rest. Forward and left come from
// the limbs (left the side of the left limbs, up +Y). An empty clip (no motions, duration 0) when
// there is nothing to move.
RangeOfMotion MakeRangeOfMotion(const ik::Skeleton& skeleton, const std::vector<ik::Limb>& limbs,
                                const ik::BodyRig* body, const ik::JointLimits& limits,
                                const RangeOfMotionOptions& options = {});

// The clip for a character: its limbs and body rig (the rig facts found once per load).
RangeOfMotion MakeModelRangeOfMotion(const Character& character, const ik::JointLimits& limits,
                                     const RangeOfMotionOptions& options = {});

}  // namespace app
