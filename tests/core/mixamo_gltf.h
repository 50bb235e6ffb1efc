// A Mixamo-style rig as a glTF file, made here: the rig checks' humanoid with Mixamo's
// "mixamorig:" joint names, and a "mixamo.com" clip (as Mixamo names its takes) that moves the
// hips sideways and raises the left arm, so a mirrored pose differs from the pose.
#pragma once

#include <string>
#include <vector>

#include "tests/core/test_rig.h"

namespace testrig {

inline std::string WriteMixamoGltf(const std::string& path) {
  Rig rig = Humanoid();
  for (Joint& joint : rig.joints) {
    if (joint.name == "Chest") joint.name = "Spine1";
    joint.name = "mixamorig:" + joint.name;
  }
  testgltf::Builder b = rig.Build();
  const int hips = rig.Find("mixamorig:Hips");
  const int arm = rig.Find("mixamorig:LeftArm");
  AddChannel(&b, "mixamo.com", hips, "translation", {0.0f, 0.5f, 1.0f},
             {0.0f, 1.0f, 0.0f, 0.08f, 0.98f, 0.02f, 0.0f, 1.0f, 0.0f});
  // The left arm turns 60° down about +Z and back.
  const float s = 0.5f, c = 0.8660254f;
  AddChannel(&b, "mixamo.com", arm, "rotation", {0.0f, 0.5f, 1.0f},
             {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, -s, c, 0.0f, 0.0f, 0.0f, 1.0f});
  b.WriteGltf(path);
  return path;
}

}  // namespace testrig
