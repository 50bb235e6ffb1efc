// Limb detection: finds the two-bone arms and legs of a skeleton, from the humanoid bone map it
// declares (VRM avatars), by the joint names of the common rigging conventions (Mixamo, Blender,
// Unreal, 3ds Max Biped, VRM, plain Hip/Knee/Ankle) and, for unnamed joints, by topology and
// left/right mirror symmetry of the rest pose.
#pragma once

#include <string>
#include <vector>

#include "ik/core/skeleton.h"
#include "ik/two_bone/two_bone_ik.h"

namespace ik {

enum class LimbKind { kLeg, kArm };
enum class LimbSide { kLeft, kRight, kCenter };
// How a limb was found: the skeleton's humanoid map, joint names, topology and symmetry, or the
// user's pick (ApplyLimbPicks).
enum class LimbFoundBy { kHumanoid, kName, kSymmetry, kUser };

struct Limb {
  LimbKind kind = LimbKind::kLeg;
  LimbSide side = LimbSide::kCenter;
  TwoBoneChain chain;  // start (hip/shoulder), mid (knee/elbow), end (foot/hand)
  std::string label;   // "LeftLeg", "RightArm", ... (unique within one detection)
  LimbFoundBy found_by = LimbFoundBy::kName;
  // The rig's own IK control joints for this limb (an IK target at its end, a pole target before
  // its mid joint, exported as joints beside the body or named so), -1 when it has none.
  int target = -1;
  int pole = -1;
};

const char* LimbKindName(LimbKind kind);  // "leg", "arm"
const char* LimbSideName(LimbSide side);  // "left", "right", "center"
// "humanoid", "name", "symmetry", "user": info --json's limbs[].found_by.
const char* LimbFoundByName(LimbFoundBy found_by);

// Detects the arms and legs of `skeleton` in its rest pose; at most one limb per kind and side,
// ordered left leg, right leg, left arm, right arm. `is_bone` (one flag per joint, optional)
// restricts the candidates to joints that deform the mesh when any does. Twist and roll joints
// between the three are skipped (the chain's joints need not be direct parent and child), and
// both bones of a chain must be longer than 2% of the skeleton's size.
//
// From the humanoid map (Skeleton::humanoid()), first: each of leftUpperLeg / leftLowerLeg /
// leftFoot, rightUpperLeg ..., leftUpperArm / leftLowerArm / leftHand, rightUpperArm ... that the
// map declares as a chain down the hierarchy, whatever the joints are named (and whether or not
// they deform the mesh). Limbs the map does not give are looked for as below, among the others.
// Rules that hold on any rig: no limb includes the body (the humanoid map's hips, else the joint
// named hips or pelvis, else where three branches of three or more joints start) or a joint above
// it (the root bone, the armature); no limb found by name or symmetry includes a joint named as a
// rig control (IK, Target, Pole, Ctrl, Control, ...); no limb lies inside another or holds one.
// By name: an end joint is a foot/ankle (leg) or hand/wrist (arm), not a finger, toe, palm, IK
// target, pole, control or end marker; its side comes from a left/right token (Left, L, .L, _l,
// ...); the shallowest usable one per kind and side.
// By topology, for the rest: a joint whose children start two mirror-image branches (each joint of
// one reflects onto the other across their mid-plane). A branch follows the child with the largest
// subtree and ends at a fork (a forearm forking straight into palm and finger chains ends there,
// with the middle child as the limb's end). In each branch the pair of consecutive bones with the
// largest combined length and a length ratio within 1:2 forms the chain. Pairs branching nearest
// the root are taken first (legs at the hips, arms at the chest, before fingers), and only pairs
// mirrored across the body's left-right plane (as the first pair or the named limbs show it):
// two fingers of one hand are never a left and a right arm. The lower pair are legs, the higher
// arms; left is the side of cross(up, forward), up = +Y and forward the feet's toe direction (+Z
// without toes).
// Then each limb is offered the rig's IK controls (Limb::target, Limb::pole): joints named as
// controls, or beside the body (not below the body nor above it, as a foot control bone that is a
// child of the armature root), outside every limb's subtree. The target is the control nearest
// the limb's end within a tenth of the limb's length; the pole the control nearest its mid joint
// (those named Pole, Knee or Elbow first), within the limb's length, nearer the mid joint than the
// start and end, and off the start-end line.
std::vector<Limb> DetectLimbs(const Skeleton& skeleton, const std::vector<bool>* is_bone = nullptr);

// The user's fix of a wrong pick: the limb labelled `label` ("LeftLeg", "RightArm", "Leg", ...) is
// made of `chain`'s joints.
struct LimbPick {
  std::string label;
  TwoBoneChain chain;
};

// The kind and side a limb label names ("LeftArm": arm, left; "RightLeg": leg, right; "Leg": leg,
// centre), or false when it names neither a leg nor an arm.
bool ParseLimbLabel(const std::string& label, LimbKind* kind, LimbSide* side);

// Applies `picks` to detected `limbs`: each pick replaces the limb of its label (keeping that
// limb's IK controls), or adds one of the kind and side its label names, found_by kUser; the
// result is ordered as DetectLimbs orders (left leg, right leg, centre leg, then the arms). A pick
// whose chain is not valid for `skeleton` (mid below start, end below mid) or whose label names no
// limb changes nothing and adds a line naming the label and the reason to *problems (optional).
void ApplyLimbPicks(const Skeleton& skeleton, const std::vector<LimbPick>& picks,
                    std::vector<Limb>* limbs, std::vector<std::string>* problems = nullptr);

}  // namespace ik
