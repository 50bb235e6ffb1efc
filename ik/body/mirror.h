// Left/right mirroring of a rig: which joint is whose counterpart (from the names where they say a
// side, else from the rest pose's mirror symmetry), the plane between the sides, and a pose
// reflected across it (Blender's "paste X-flipped pose"). Mirroring twice gives the pose back.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "ik/body/limbs.h"
#include "ik/core/skeleton.h"

namespace ik {

// How a skeleton mirrors onto itself.
//
// The plane: dot(normal, x) = offset in model space, normal pointing to the character's left.
// counterpart[j] is the joint j becomes in the mirror image (j itself for a joint on the plane, or
// one without a partner). Pairs always respect the hierarchy: the counterpart of a joint's parent
// is its counterpart's parent, so a pose mirrors joint by joint in local space.
//
// flips[j] is K_j = Q_jᵀ · F · Q_m, with Q the rest model-space rotations of j and of m =
// counterpart[j] and F the reflection across the plane: the joint's rest frame taken to the
// reflected rest frame of its counterpart (an orthogonal matrix with determinant -1; flips of a
// pair are each other's transposes). The rest pose is its own mirror image when it is symmetric.
struct MirrorMap {
  std::vector<int> counterpart;
  std::vector<glm::mat3> flips;
  glm::vec3 normal{1.0f, 0.0f, 0.0f};
  float offset = 0.0f;
  int pairs_by_name = 0;      // pairs whose names say their sides (Left/Right, .L/.R, _l/_r, ...)
  int pairs_by_symmetry = 0;  // pairs found as mirror images in the rest pose
  // True when the plane was found from pairs of joints; otherwise it is the model's X = 0 plane
  // through the first root, and every joint is its own counterpart.
  bool found_plane = false;

  int pair_count() const { return pairs_by_name + pairs_by_symmetry; }
  bool empty() const { return counterpart.empty(); }

  // A model-space point or direction reflected across the plane.
  glm::vec3 MirrorPoint(const glm::vec3& point) const;
  glm::vec3 MirrorDirection(const glm::vec3& direction) const;
};

// Finds the mirror map of `skeleton`. Joints pair by name first: names that differ only in a side
// word (Left/Right, L/R, Lft/Rt as whole words: "mixamorig:LeftArm", "upper_arm.L", "Bip01 L
// Thigh", "hand_l") pair when their parents pair too. The plane goes between the pairs' rest
// positions (and those of `limbs`, the detected arms and legs, whose sides need no names); it is
// snapped to a model axis within 0.05°. The joints names leave unpaired are then paired from the
// root down: a joint pairs with the child of its parent's counterpart (a sibling, under a joint on
// the plane) nearest its reflected rest position, within 5% of the skeleton's size, or stays its
// own counterpart when its reflection falls on itself. So unnamed rigs such as CesiumMan's mirror
// too. An empty skeleton gives an empty map.
MirrorMap BuildMirrorMap(const Skeleton& skeleton, const std::vector<Limb>& limbs);

// `pose` reflected across the map's plane into *mirrored (which may be `pose`): each joint takes
// its counterpart's local transform, its rotation turned by the flips (R'_j = K_p · R_m · K_jᵀ with
// p the parent; a root's translation is reflected as a point), its scale carried across the flip.
// Mirroring the result again gives `pose` back (to rounding; exactly for a uniform scale). The map
// must be the skeleton's and `pose` must have one transform per joint.
void MirrorPose(const MirrorMap& map, const Skeleton& skeleton, const Pose& pose, Pose* mirrored);

// The name a joint's name has on the other side ("mixamorig:LeftArm" → "mixamorig:RightArm",
// "thigh.L" → "thigh.R", "hand_l" → "hand_r"), or "" when the name says no side (or both).
std::string MirroredJointName(const std::string& name);

}  // namespace ik
