// Retargeting's shared rig geometry (app/core's retarget files only): the rest pose in world space,
// the legs, and how a source rig is turned and scaled onto a target.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <vector>

#include "app/core/character.h"
#include "app/core/retarget.h"
#include "ik/body/limbs.h"
#include "ik/core/skeleton.h"

namespace app {
namespace retargeting {

struct RestFrame {
  std::vector<glm::quat> rotation;  // world rotations of the rest pose (scale ignored)
  std::vector<glm::vec3> position;  // world positions
};

// The world rotations of `pose` (scale ignored).
void WorldRotations(const ik::Skeleton& s, const ik::Pose& pose, std::vector<glm::quat>* out);
RestFrame Rest(const ik::Skeleton& s);
// The character's limb of that kind and side, or null.
const ik::Limb* FindLimb(const Character& c, ik::LimbKind kind, ik::LimbSide side);
// The legs' mean rest length (start to mid to end), 0 without legs.
float LegLength(const Character& c, const RestFrame& rest);
// The way the rig faces at rest, on the ground plane: from its left to its right leg, turned.
glm::vec3 Forward(const Character& c, const RestFrame& rest);

// The source-to-target alignment: a turn about +Y from the source's facing to the target's, and
// the leg-length scale.
struct Alignment {
  RestFrame source, target;
  glm::quat turn{1.0f, 0.0f, 0.0f, 0.0f};
  float scale = 1.0f;
};
Alignment Align(const Character& source, const Character& target);

// Four-legged at rest: arms whose hands reach within a quarter leg of the feet's height.
bool FourLegged(const Character& c, const RestFrame& rest);
// Per target joint, the source joint mapped onto it, or -1.
std::vector<int> SourceOf(const RetargetMapping& mapping, int target_joints);
int CountLegs(const Character& c);

}  // namespace retargeting
}  // namespace app
