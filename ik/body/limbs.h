// Limb detection: finds the two-bone arms and legs of a skeleton, by the joint names of the common
// rigging conventions (Mixamo, Blender, Unreal, 3ds Max Biped, VRM, plain Hip/Knee/Ankle) and, for
// unnamed joints, by topology and left/right mirror symmetry of the rest pose.
#pragma once

#include <string>
#include <vector>

#include "ik/core/skeleton.h"
#include "ik/two_bone/two_bone_ik.h"

namespace ik {

enum class LimbKind { kLeg, kArm };
enum class LimbSide { kLeft, kRight, kCenter };

struct Limb {
  LimbKind kind = LimbKind::kLeg;
  LimbSide side = LimbSide::kCenter;
  TwoBoneChain chain;   // start (hip/shoulder), mid (knee/elbow), end (foot/hand)
  std::string label;    // "LeftLeg", "RightArm", ... (unique within one detection)
  bool by_name = true;  // false: found by topology and symmetry
};

const char* LimbKindName(LimbKind kind);  // "leg", "arm"
const char* LimbSideName(LimbSide side);  // "left", "right", "center"

// Detects the arms and legs of `skeleton` in its rest pose; at most one limb per kind and side,
// ordered left leg, right leg, left arm, right arm. `is_bone` (one flag per joint, optional)
// restricts the candidates to joints that deform the mesh when any does. Twist and roll joints
// between the three are skipped (the chain's joints need not be direct parent and child), and
// both bones of a chain must be longer than 2% of the skeleton's size.
//
// By name: an end joint is a foot/ankle (leg) or hand/wrist (arm), not a finger, toe, IK target,
// pole, control or end marker; its side comes from a left/right token (Left, L, .L, _l, ...).
// By topology, for the rest: a joint whose children start two mirror-image branches (each joint of
// one reflects onto the other across their mid-plane); in each branch the pair of consecutive bones
// with the largest combined length and a length ratio within 1:2 forms the chain. The lower pair
// are legs, the higher arms; left is the side of cross(up, forward), up = +Y and forward the
// feet's toe direction (+Z without toes).
std::vector<Limb> DetectLimbs(const Skeleton& skeleton, const std::vector<bool>* is_bone = nullptr);

}  // namespace ik
