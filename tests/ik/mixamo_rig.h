// A 65-joint humanoid laid out like a Mixamo rig (the "mixamorig:" names, hips at the root, three
// spine joints, five four-joint fingers per hand, end joints on the head and toes), for the
// full-body tests and benchmarks. Each joint's frame has +Y along its bone, rolled about it by a
// different angle, so no frame lines up with the world axes. Self-contained (ik/ headers only) so
// that bench/ can use it too.
#pragma once

#include <cmath>
#include <cstdlib>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"
#include "ik/core/skeleton.h"

namespace iktest {

struct MixamoRig {
  ik::Skeleton skeleton;
  ik::Pose pose;
  std::vector<glm::mat4> models;
  int Joint(const std::string& short_name) const {
    return skeleton.Find("mixamorig:" + short_name);
  }
};

// With `armature`, the hips hang below an "Armature" root placed at (0.3, 0, -0.2), turned 90°
// about X with the rest of the rig turned back, and scaled by 0.01 (centimetre units below it),
// as Mixamo's FBX files have it.
inline MixamoRig MakeMixamoRig(bool armature = false) {
  struct J {
    std::string name;
    int parent;
    glm::vec3 p;  // rest model-space position, metres, +Y up, +Z forward, +X the character's left
  };
  std::vector<J> js;
  auto add = [&js](const std::string& name, int parent, const glm::vec3& p) {
    js.push_back({name, parent, p});
    return static_cast<int>(js.size()) - 1;
  };
  const int hips = add("Hips", -1, {0.0f, 0.98f, 0.0f});
  const int spine = add("Spine", hips, {0.0f, 1.08f, 0.005f});
  const int spine1 = add("Spine1", spine, {0.0f, 1.20f, 0.01f});
  const int spine2 = add("Spine2", spine1, {0.0f, 1.33f, 0.0f});
  const int neck = add("Neck", spine2, {0.0f, 1.49f, -0.01f});
  const int head = add("Head", neck, {0.0f, 1.58f, 0.01f});
  add("HeadTop_End", head, {0.0f, 1.78f, 0.02f});
  for (int side = 0; side < 2; ++side) {
    const float sx = side == 0 ? 1.0f : -1.0f;
    const std::string s = side == 0 ? "Left" : "Right";
    const int shoulder = add(s + "Shoulder", spine2, {sx * 0.06f, 1.44f, -0.01f});
    const int arm = add(s + "Arm", shoulder, {sx * 0.18f, 1.43f, -0.02f});
    // Arms hang down and out, elbows a little bent.
    const glm::vec3 elbow = glm::vec3(sx * 0.36f, 1.20f, -0.04f);
    const int fore = add(s + "ForeArm", arm, elbow);
    const glm::vec3 wrist = glm::vec3(sx * 0.47f, 0.98f, 0.03f);
    const int hand = add(s + "Hand", fore, wrist);
    const char* fingers[5] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
    for (int f = 0; f < 5; ++f) {
      const float spread = -0.02f + 0.01f * static_cast<float>(f);
      glm::vec3 p = wrist + glm::vec3(sx * (f == 0 ? 0.02f : 0.03f), -0.03f,
                                      f == 0 ? 0.03f : 0.02f - 0.012f * static_cast<float>(f - 1));
      int parent = hand;
      for (int k = 1; k <= 4; ++k) {
        parent = add(s + "Hand" + fingers[f] + std::to_string(k), parent, p);
        p += glm::vec3(sx * 0.01f, -0.03f + spread * 0.1f, f == 0 ? 0.012f : 0.0f);
      }
    }
  }
  // Legs after the arms: depth-first order, as Mixamo files have it (every subtree contiguous).
  for (int side = 0; side < 2; ++side) {
    const float sx = side == 0 ? 1.0f : -1.0f;
    const std::string s = side == 0 ? "Left" : "Right";
    const int up_leg = add(s + "UpLeg", hips, {sx * 0.09f, 0.93f, 0.0f});
    const int leg = add(s + "Leg", up_leg, {sx * 0.095f, 0.52f, 0.02f});
    const int foot = add(s + "Foot", leg, {sx * 0.10f, 0.09f, -0.02f});
    const int toe = add(s + "ToeBase", foot, {sx * 0.105f, 0.02f, 0.11f});
    add(s + "Toe_End", toe, {sx * 0.105f, 0.02f, 0.18f});
  }
  // Bone tips: the first child (the middle finger continues the hand, the spine the hips).
  const int count = static_cast<int>(js.size());
  std::vector<glm::vec3> tip(count);
  std::vector<bool> has_tip(count, false);
  for (int j = 0; j < count; ++j) tip[j] = js[j].p + glm::vec3(0.0f, 0.1f, 0.0f);
  for (int j = 1; j < count; ++j) {
    const int parent = js[j].parent;
    const bool preferred = js[j].name.find("Middle1") != std::string::npos || js[j].name == "Spine";
    if (!has_tip[parent] || preferred) {
      tip[parent] = js[j].p;
      has_tip[parent] = true;
    }
  }
  for (int j = 0; j < count; ++j) {
    if (has_tip[j]) continue;
    const int parent = js[j].parent;
    tip[j] = js[j].p + 0.5f * (js[j].p - js[parent].p);  // ends continue their bone
  }
  std::vector<glm::quat> world(count);
  std::vector<ik::JointDesc> joints(count);
  for (int j = 0; j < count; ++j) {
    const glm::vec3 bone = tip[j] - js[j].p;
    const glm::quat align = ik::RotationBetween(glm::vec3(0, 1, 0), bone);
    const float roll = glm::radians(static_cast<float>((j * 37) % 120 - 60));
    world[j] = glm::normalize(align * glm::angleAxis(roll, glm::vec3(0, 1, 0)));
    ik::JointDesc& d = joints[j];
    d.name = "mixamorig:" + js[j].name;
    d.parent = js[j].parent;
    if (d.parent < 0) {
      d.rest.translation = js[j].p;
      d.rest.rotation = world[j];
    } else {
      const glm::quat parent_inverse = glm::inverse(world[d.parent]);
      d.rest.translation = parent_inverse * (js[j].p - js[d.parent].p);
      d.rest.rotation = glm::normalize(parent_inverse * world[j]);
    }
  }
  if (armature) {
    ik::JointDesc root;
    root.name = "Armature";
    root.parent = -1;
    root.rest.translation = glm::vec3(0.3f, 0.0f, -0.2f);
    root.rest.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(1, 0, 0));
    root.rest.scale = glm::vec3(0.01f);
    for (ik::JointDesc& d : joints) {
      if (d.parent < 0) {
        // The hips in the root's frame: undo its placement, turn and scale.
        d.rest.translation = 100.0f * (glm::inverse(root.rest.rotation) *
                                       (d.rest.translation - root.rest.translation));
        d.rest.rotation = glm::normalize(glm::inverse(root.rest.rotation) * d.rest.rotation);
      } else {
        d.rest.translation *= 100.0f;
      }
      d.parent += 1;
    }
    joints.insert(joints.begin(), root);
  }
  MixamoRig rig;
  std::string error;
  auto built = ik::Skeleton::Build(std::move(joints), &error);
  if (!built) std::abort();
  rig.skeleton = *built;
  rig.pose = ik::Pose::Rest(rig.skeleton);
  ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
  return rig;
}

}  // namespace iktest
