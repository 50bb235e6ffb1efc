// Retargeting (app/core/retarget.h): the joint mapping across naming conventions, a humanoid map
// and unnamed rigs; the transfer between the built-in character and CesiumMan (feet follow the
// source's height and plant on the same frames, bones keep their lengths); a user's map; rigs
// that differ in kind refused.
#include "app/core/retarget.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/core/character.h"
#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "ik/core/kinematics.h"
#include "tests/support/clip_measures.h"
#include "tests/test_paths.h"

namespace {

using app::Character;
using app::RetargetMapping;
using testsupport::Correlation;
using testsupport::JointHeights;

// The built-in character's joints, limb by limb (every joint of its arms, legs, shoulders, toes,
// spine, neck and head).
const std::vector<std::string> kBuiltinJoints = {
    "Hips",         "Spine",     "Spine1",      "Spine2",      "Neck",          "Head",
    "LeftShoulder", "LeftArm",   "LeftForeArm", "LeftHand",    "RightShoulder", "RightArm",
    "RightForeArm", "RightHand", "LeftUpLeg",   "LeftLeg",     "LeftFoot",      "LeftToeBase",
    "RightUpLeg",   "RightLeg",  "RightFoot",   "RightToeBase"};

// The built-in character's skeleton under other names (and scaled), without its meshes: the
// joints keep their indices, so the built-in clips play on it.
assets::Model Renamed(const std::function<std::string(const std::string&)>& rename,
                      float scale = 1.0f) {
  const assets::Model base = assets::MakeBuiltinCharacter();
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < base.skeleton.joint_count(); ++j) {
    ik::JointDesc d;
    d.name = rename(base.skeleton.name(j));
    d.parent = base.skeleton.parent(j);
    d.rest = base.skeleton.rest_locals()[size_t(j)];
    d.rest.translation *= scale;
    joints.push_back(d);
  }
  std::string error;
  assets::Model model;
  model.source = "renamed";
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  model.is_bone.assign(joints.size(), true);
  model.clips = base.clips;
  for (assets::Clip& clip : model.clips) {
    for (assets::JointAnimation& ch : clip.channels) {
      for (glm::vec3& t : ch.translation.values) t *= scale;
    }
    assets::PrepareClip(&clip);
  }
  return model;
}

std::string Unreal(const std::string& name) {
  static const std::map<std::string, std::string> names = {{"Hips", "pelvis"},
                                                           {"Spine", "spine_01"},
                                                           {"Spine1", "spine_02"},
                                                           {"Spine2", "spine_03"},
                                                           {"Neck", "neck_01"},
                                                           {"Head", "head"},
                                                           {"LeftShoulder", "clavicle_l"},
                                                           {"LeftArm", "upperarm_l"},
                                                           {"LeftForeArm", "lowerarm_l"},
                                                           {"LeftHand", "hand_l"},
                                                           {"RightShoulder", "clavicle_r"},
                                                           {"RightArm", "upperarm_r"},
                                                           {"RightForeArm", "lowerarm_r"},
                                                           {"RightHand", "hand_r"},
                                                           {"LeftUpLeg", "thigh_l"},
                                                           {"LeftLeg", "calf_l"},
                                                           {"LeftFoot", "foot_l"},
                                                           {"LeftToeBase", "ball_l"},
                                                           {"RightUpLeg", "thigh_r"},
                                                           {"RightLeg", "calf_r"},
                                                           {"RightFoot", "foot_r"},
                                                           {"RightToeBase", "ball_r"}};
  const auto it = names.find(name);
  return it == names.end() ? name : it->second;
}

// VRM humanoid bone names of the built-in joints.
std::string VrmRole(const std::string& name) {
  static const std::map<std::string, std::string> roles = {{"Hips", "hips"},
                                                           {"Spine", "spine"},
                                                           {"Spine1", "chest"},
                                                           {"Spine2", "upperChest"},
                                                           {"Neck", "neck"},
                                                           {"Head", "head"},
                                                           {"LeftShoulder", "leftShoulder"},
                                                           {"LeftArm", "leftUpperArm"},
                                                           {"LeftForeArm", "leftLowerArm"},
                                                           {"LeftHand", "leftHand"},
                                                           {"RightShoulder", "rightShoulder"},
                                                           {"RightArm", "rightUpperArm"},
                                                           {"RightForeArm", "rightLowerArm"},
                                                           {"RightHand", "rightHand"},
                                                           {"LeftUpLeg", "leftUpperLeg"},
                                                           {"LeftLeg", "leftLowerLeg"},
                                                           {"LeftFoot", "leftFoot"},
                                                           {"LeftToeBase", "leftToes"},
                                                           {"RightUpLeg", "rightUpperLeg"},
                                                           {"RightLeg", "rightLowerLeg"},
                                                           {"RightFoot", "rightFoot"},
                                                           {"RightToeBase", "rightToes"}};
  return roles.at(name);
}

// A VRM-style rig: joints named without meaning ("bone07"), the roles declared by a humanoid map.
assets::Model VrmStyle(float scale) {
  const assets::Model base = assets::MakeBuiltinCharacter();
  assets::Model model = Renamed(
      [&](const std::string& n) {
        const int j = base.skeleton.Find(n);
        return "bone" + std::to_string(100 + j);
      },
      scale);
  std::vector<ik::HumanoidBone> bones;
  for (const std::string& n : kBuiltinJoints) {
    bones.push_back({VrmRole(n), base.skeleton.Find(n)});
  }
  std::string error;
  EXPECT_TRUE(model.skeleton.SetHumanoid(bones, &error)) << error;
  return model;
}

// The fraction of `expected` (source name -> target name) the mapping pairs so.
double Accuracy(const RetargetMapping& m, const assets::Model& source, const assets::Model& target,
                const std::map<std::string, std::string>& expected) {
  int right = 0;
  for (const auto& [s, t] : expected) {
    for (const app::RetargetPair& p : m.pairs) {
      if (target.skeleton.name(p.target) == t && source.skeleton.name(p.source) == s) ++right;
    }
  }
  return double(right) / double(expected.size());
}

RetargetMapping Map(const Character& source, const Character& target) {
  RetargetMapping m;
  std::string error;
  EXPECT_TRUE(app::MapJoints(source, target, &m, &error)) << error;
  return m;
}

std::string ByOf(const RetargetMapping& m, const assets::Model& target, const std::string& t) {
  for (const app::RetargetPair& p : m.pairs) {
    if (target.skeleton.name(p.target) == t) return p.by;
  }
  return "";
}

TEST(RetargetMapping, MixamoNamesMapJointForJointByName) {
  const assets::Model source = assets::MakeBuiltinCharacter();
  const assets::Model target = Renamed([](const std::string& n) { return "mixamorig:" + n; }, 1.3f);
  const Character cs(source), ct(target);
  const RetargetMapping m = Map(cs, ct);
  std::map<std::string, std::string> expected;
  for (const std::string& n : kBuiltinJoints) expected[n] = "mixamorig:" + n;
  EXPECT_GE(Accuracy(m, source, target, expected), 0.95);
  EXPECT_EQ(ByOf(m, target, "mixamorig:LeftUpLeg"), "name");
  EXPECT_EQ(ByOf(m, target, "mixamorig:Head"), "name");
}

TEST(RetargetMapping, UnrealNamesMapOntoMixamoNames) {
  const assets::Model source = assets::MakeBuiltinCharacter();
  const assets::Model target = Renamed(Unreal, 0.9f);
  const Character cs(source), ct(target);
  const RetargetMapping m = Map(cs, ct);
  std::map<std::string, std::string> expected;
  for (const std::string& n : kBuiltinJoints) expected[n] = Unreal(n);
  EXPECT_GE(Accuracy(m, source, target, expected), 0.95);
  EXPECT_EQ(ByOf(m, target, "calf_r"), "name");
  EXPECT_EQ(ByOf(m, target, "clavicle_l"), "name");
}

TEST(RetargetMapping, VrmHumanoidMapsPairMeaninglessNames) {
  const assets::Model source = VrmStyle(1.0f);
  const assets::Model target = VrmStyle(1.2f);
  const Character cs(source), ct(target);
  const RetargetMapping m = Map(cs, ct);
  std::map<std::string, std::string> expected;
  for (const std::string& n : kBuiltinJoints) {
    const int j = assets::MakeBuiltinCharacter().skeleton.Find(n);
    expected[source.skeleton.name(j)] = target.skeleton.name(j);
  }
  EXPECT_GE(Accuracy(m, source, target, expected), 0.95);
  EXPECT_EQ(ByOf(m, target, target.skeleton.name(target.skeleton.HumanoidJoint("leftFoot"))),
            "humanoid");
  // And a VRM rig onto a named one.
  const assets::Model named = assets::MakeBuiltinCharacter();
  const Character cn(named);
  const RetargetMapping onto_named = Map(cs, cn);
  std::map<std::string, std::string> expected_named;
  for (const std::string& n : kBuiltinJoints) {
    expected_named[source.skeleton.name(named.skeleton.Find(n))] = n;
  }
  EXPECT_GE(Accuracy(onto_named, source, named, expected_named), 0.95);
}

std::string Blender(const std::string& name) {
  static const std::map<std::string, std::string> names = {{"Hips", "hips"},
                                                           {"Spine", "spine"},
                                                           {"Spine1", "spine.001"},
                                                           {"Spine2", "chest"},
                                                           {"Neck", "neck"},
                                                           {"Head", "head"},
                                                           {"LeftShoulder", "shoulder.L"},
                                                           {"LeftArm", "upper_arm.L"},
                                                           {"LeftForeArm", "forearm.L"},
                                                           {"LeftHand", "hand.L"},
                                                           {"RightShoulder", "shoulder.R"},
                                                           {"RightArm", "upper_arm.R"},
                                                           {"RightForeArm", "forearm.R"},
                                                           {"RightHand", "hand.R"},
                                                           {"LeftUpLeg", "thigh.L"},
                                                           {"LeftLeg", "shin.L"},
                                                           {"LeftFoot", "foot.L"},
                                                           {"LeftToeBase", "toe.L"},
                                                           {"RightUpLeg", "thigh.R"},
                                                           {"RightLeg", "shin.R"},
                                                           {"RightFoot", "foot.R"},
                                                           {"RightToeBase", "toe.R"}};
  return names.at(name);
}

std::string Biped(const std::string& name) {
  static const std::map<std::string, std::string> names = {{"Hips", "Bip01 Pelvis"},
                                                           {"Spine", "Bip01 Spine"},
                                                           {"Spine1", "Bip01 Spine1"},
                                                           {"Spine2", "Bip01 Spine2"},
                                                           {"Neck", "Bip01 Neck"},
                                                           {"Head", "Bip01 Head"},
                                                           {"LeftShoulder", "Bip01 L Clavicle"},
                                                           {"LeftArm", "Bip01 L UpperArm"},
                                                           {"LeftForeArm", "Bip01 L Forearm"},
                                                           {"LeftHand", "Bip01 L Hand"},
                                                           {"RightShoulder", "Bip01 R Clavicle"},
                                                           {"RightArm", "Bip01 R UpperArm"},
                                                           {"RightForeArm", "Bip01 R Forearm"},
                                                           {"RightHand", "Bip01 R Hand"},
                                                           {"LeftUpLeg", "Bip01 L Thigh"},
                                                           {"LeftLeg", "Bip01 L Calf"},
                                                           {"LeftFoot", "Bip01 L Foot"},
                                                           {"LeftToeBase", "Bip01 L Toe0"},
                                                           {"RightUpLeg", "Bip01 R Thigh"},
                                                           {"RightLeg", "Bip01 R Calf"},
                                                           {"RightFoot", "Bip01 R Foot"},
                                                           {"RightToeBase", "Bip01 R Toe0"}};
  return names.at(name);
}

TEST(RetargetMapping, BlenderAndBipedNamesMapOntoEachOtherByName) {
  const assets::Model source = Renamed(Blender, 1.0f);
  const assets::Model target = Renamed(Biped, 1.1f);
  const Character cs(source), ct(target);
  const RetargetMapping m = Map(cs, ct);
  std::map<std::string, std::string> expected;
  for (const std::string& n : kBuiltinJoints) expected[Blender(n)] = Biped(n);
  EXPECT_GE(Accuracy(m, source, target, expected), 0.95);
  for (const char* joint : {"Bip01 L Calf", "Bip01 R Clavicle", "Bip01 Head", "Bip01 L Toe0"}) {
    EXPECT_EQ(ByOf(m, target, joint), "name") << joint;
  }
}

// The built-in skeleton with three joints per finger, named in Mixamo's ("LeftHandIndex1") or
// Unreal's ("index_01_l") convention.
assets::Model WithFingers(bool unreal) {
  const assets::Model base =
      unreal ? Renamed(Unreal) : Renamed([](const std::string& n) { return n; });
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < base.skeleton.joint_count(); ++j) {
    ik::JointDesc d;
    d.name = base.skeleton.name(j);
    d.parent = base.skeleton.parent(j);
    d.rest = base.skeleton.rest_locals()[size_t(j)];
    joints.push_back(d);
  }
  const char* fingers[5] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
  const char* unreal_fingers[5] = {"thumb", "index", "middle", "ring", "pinky"};
  for (const char* side : {"Left", "Right"}) {
    const int hand = base.skeleton.Find(unreal ? (side[0] == 'L' ? "hand_l" : "hand_r")
                                               : std::string(side) + "Hand");
    const float x = side[0] == 'L' ? 1.0f : -1.0f;
    for (int f = 0; f < 5; ++f) {
      int parent = hand;
      for (int k = 1; k <= 3; ++k) {
        ik::JointDesc d;
        d.name = unreal ? std::string(unreal_fingers[f]) + "_0" + std::to_string(k) + "_" +
                              (side[0] == 'L' ? "l" : "r")
                        : std::string(side) + "Hand" + fingers[f] + std::to_string(k);
        d.parent = parent;
        d.rest.translation = k == 1 ? glm::vec3(0.03f * x, 0.0f, 0.01f * float(f - 2))
                                    : glm::vec3(0.02f * x, 0.0f, 0.0f);
        joints.push_back(d);
        parent = int(joints.size()) - 1;
      }
    }
  }
  std::string error;
  assets::Model model = base;
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  model.is_bone.assign(joints.size(), true);
  return model;
}

TEST(RetargetMapping, FingersMapWhereBothRigsNameThem) {
  const assets::Model source = WithFingers(false);
  const assets::Model target = WithFingers(true);
  const Character cs(source), ct(target);
  const RetargetMapping m = Map(cs, ct);
  std::map<std::string, std::string> expected;
  const char* fingers[5] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
  const char* unreal_fingers[5] = {"thumb", "index", "middle", "ring", "pinky"};
  for (const char* side : {"Left", "Right"}) {
    for (int f = 0; f < 5; ++f) {
      for (int k = 1; k <= 3; ++k) {
        expected[std::string(side) + "Hand" + fingers[f] + std::to_string(k)] =
            std::string(unreal_fingers[f]) + "_0" + std::to_string(k) + "_" +
            (side[0] == 'L' ? "l" : "r");
      }
    }
  }
  EXPECT_GE(Accuracy(m, source, target, expected), 0.95);
  EXPECT_EQ(ByOf(m, target, "index_02_l"), "name");
  // Onto a rig without fingers: none paired, the rest as before.
  const assets::Model plain = assets::MakeBuiltinCharacter();
  const Character cp(plain);
  EXPECT_EQ(Map(cs, cp).pairs.size(), Map(cp, cp).pairs.size());
}

// CesiumMan's joints are unnamed ("nodes[3]"): its limbs are found by structure and symmetry.
// The truth, from its hierarchy: legs nodes 3-6 and 7-10 (hip, knee, ankle, toe), arms 13-15 and
// 16-18, spine 11, chest 12, neck 19, head 20, hips 2; left is the side of cross(up, forward).
std::map<std::string, std::string> CesiumTruth(const assets::Model& cesium) {
  const ik::Skeleton& s = cesium.skeleton;
  auto pos = [&](int node) {
    return glm::vec3(s.rest_models()[size_t(s.Find("nodes[" + std::to_string(node) + "]"))][3]);
  };
  const glm::vec3 toe = pos(6) - pos(5);
  const glm::vec3 left_axis = glm::cross(glm::vec3(0, 1, 0), glm::vec3(toe.x, 0.0f, toe.z));
  const bool three_left = glm::dot(pos(3) - pos(7), left_axis) > 0.0f;
  const bool thirteen_left = glm::dot(pos(13) - pos(16), left_axis) > 0.0f;
  auto node = [](int n) { return "nodes[" + std::to_string(n) + "]"; };
  std::map<std::string, std::string> t = {
      {"Hips", node(2)}, {"Neck", node(19)}, {"Head", node(20)}, {"Spine2", node(12)}};
  const int ll = three_left ? 3 : 7, rl = three_left ? 7 : 3;
  const int la = thirteen_left ? 13 : 16, ra = thirteen_left ? 16 : 13;
  const char* leg[4] = {"UpLeg", "Leg", "Foot", "ToeBase"};
  const char* arm[3] = {"Arm", "ForeArm", "Hand"};
  for (int i = 0; i < 4; ++i) {
    t[std::string("Left") + leg[i]] = node(ll + i);
    t[std::string("Right") + leg[i]] = node(rl + i);
  }
  for (int i = 0; i < 3; ++i) {
    t[std::string("Left") + arm[i]] = node(la + i);
    t[std::string("Right") + arm[i]] = node(ra + i);
  }
  return t;
}

assets::Model LoadCesium() {
  const std::string path =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf");
  if (path.empty()) return assets::Model();
  assets::LoadResult loaded = assets::LoadModel(path);
  EXPECT_TRUE(loaded.ok()) << loaded.error;
  return loaded.ok() ? *loaded.model : assets::Model();
}

#define SKIP_WITHOUT_CESIUM(model)                                             \
  SKIP_IF_NO_MODEL(model.skeleton.empty() ? std::string() : std::string("ok"), \
                   "khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf")

TEST(RetargetMapping, BuiltinOntoCesiumManByStructure) {
  const assets::Model cesium = LoadCesium();
  SKIP_WITHOUT_CESIUM(cesium);
  const assets::Model builtin = assets::MakeBuiltinCharacter();
  const Character cb(builtin), cc(cesium);
  const std::map<std::string, std::string> truth = CesiumTruth(cesium);
  const RetargetMapping m = Map(cb, cc);
  EXPECT_GE(Accuracy(m, builtin, cesium, truth), 0.95);
  EXPECT_EQ(ByOf(m, cesium, truth.at("LeftUpLeg")), "structure");
  // And the other way.
  std::map<std::string, std::string> reverse;
  for (const auto& [b, c] : truth) reverse[c] = b;
  EXPECT_GE(Accuracy(Map(cc, cb), cesium, builtin, reverse), 0.95);
}

struct Transfer {
  assets::Model result;
  RetargetMapping mapping;
  app::RetargetInfo info;
  app::RetargetReport report;
};

Transfer Retarget(const assets::Model& source, int clip, const assets::Model& target,
                  const std::vector<std::pair<std::string, std::string>>* user = nullptr) {
  Transfer t;
  const Character cs(source), ct(target);
  std::string error;
  EXPECT_TRUE(app::MapJoints(cs, ct, &t.mapping, &error)) << error;
  if (user != nullptr) {
    EXPECT_TRUE(app::ApplyJointMap(source.skeleton, target.skeleton, *user, &t.mapping, &error))
        << error;
  }
  assets::Clip out;
  EXPECT_TRUE(
      app::RetargetClip(cs, clip, ct, t.mapping, 30.0f, "Retargeted", &out, &t.info, &error))
      << error;
  t.result = target;
  t.result.clips.push_back(out);
  const Character cr(t.result);
  EXPECT_TRUE(app::MeasureRetarget(cs, clip, cr, int(t.result.clips.size()) - 1, t.mapping, t.info,
                                   &t.report, &error))
      << error;
  return t;
}

// Every bone keeps its rest length in every frame of the result's last clip (the hips, whose
// translation is the clip's travel, aside), within 1e-6 of the rig's size.
void ExpectBonesKeepTheirLength(const assets::Model& m, int hips) {
  const ik::Skeleton& s = m.skeleton;
  float size = 0.0f;
  for (const glm::mat4& r : s.rest_models()) size = std::max(size, glm::length(glm::vec3(r[3])));
  const assets::Clip& clip = m.clips.back();
  ik::Pose pose;
  std::vector<glm::mat4> models;
  float worst = 0.0f;
  for (int f = 0; f <= 60; ++f) {
    assets::SampleClip(s, clip, clip.duration * float(f) / 60.0f, &pose);
    ik::LocalToModel(s, pose, &models);
    for (int j = 0; j < s.joint_count(); ++j) {
      const int p = s.parent(j);
      if (p < 0 || j == hips) continue;
      const float rest = glm::distance(glm::vec3(s.rest_models()[size_t(j)][3]),
                                       glm::vec3(s.rest_models()[size_t(p)][3]));
      const float now =
          glm::distance(glm::vec3(models[size_t(j)][3]), glm::vec3(models[size_t(p)][3]));
      worst = std::max(worst, std::abs(now - rest));
    }
  }
  EXPECT_LE(worst, 1e-6f * size) << "size " << size;
}

void ExpectFeetFollow(const Transfer& t, const assets::Model& source, int clip) {
  ASSERT_EQ(t.report.feet.size(), 2u);
  for (const app::RetargetReport::Foot& foot : t.report.feet) {
    EXPECT_GE(foot.height_correlation, 0.9f) << foot.target_leg;
    EXPECT_GE(foot.planted_agreement, 0.9f) << foot.target_leg;
    EXPECT_GE(foot.contacts_kept, 0.9f) << foot.target_leg;
    EXPECT_GT(foot.source_contact_frames, 0) << foot.target_leg;
  }
  // The same correlation, measured here on the clips themselves.
  for (const app::RetargetInfo::Effector& e : t.info.effectors) {
    if (!e.solved) continue;
    const std::vector<float> a = JointHeights(source, clip, e.source, 30.0f, t.info.frames);
    const std::vector<float> b =
        JointHeights(t.result, int(t.result.clips.size()) - 1, e.target, 30.0f, t.info.frames);
    EXPECT_GE(Correlation(a, b), 0.9) << e.limb;
    EXPECT_LE(e.max_error_m, 0.01f * t.info.scale) << e.limb;
  }
}

TEST(RetargetTransfer, BuiltinWalkOntoCesiumManKeepsFeetAndBones) {
  const assets::Model cesium = LoadCesium();
  SKIP_WITHOUT_CESIUM(cesium);
  const assets::Model builtin = assets::MakeBuiltinCharacter();
  const Transfer t = Retarget(builtin, builtin.FindClip("Walk"), cesium);
  ExpectFeetFollow(t, builtin, builtin.FindClip("Walk"));
  EXPECT_EQ(t.result.clips.size(), cesium.clips.size() + 1);
  const Character cc(cesium);
  ExpectBonesKeepTheirLength(t.result, cc.body_rig()->hips);
}

TEST(RetargetTransfer, CesiumManWalkOntoBuiltinKeepsFeetAndBones) {
  const assets::Model cesium = LoadCesium();
  SKIP_WITHOUT_CESIUM(cesium);
  const assets::Model builtin = assets::MakeBuiltinCharacter();
  const Transfer t = Retarget(cesium, 0, builtin);
  ExpectFeetFollow(t, cesium, 0);
  const Character cb(builtin);
  ExpectBonesKeepTheirLength(t.result, cb.body_rig()->hips);
}

TEST(RetargetTransfer, UserMapSwappingTheLegsIsHonoured) {
  const assets::Model source = assets::MakeBuiltinCharacter();
  const assets::Model target = Renamed([](const std::string& n) { return "mixamorig:" + n; }, 1.2f);
  std::vector<std::pair<std::string, std::string>> swap;
  for (const char* part : {"UpLeg", "Leg", "Foot", "ToeBase"}) {
    swap.emplace_back(std::string("Left") + part, std::string("mixamorig:Right") + part);
    swap.emplace_back(std::string("Right") + part, std::string("mixamorig:Left") + part);
  }
  const Transfer t = Retarget(source, source.FindClip("Walk"), target, &swap);
  EXPECT_EQ(ByOf(t.mapping, target, "mixamorig:RightFoot"), "user");
  for (const app::RetargetPair& p : t.mapping.pairs) {
    if (target.skeleton.name(p.target) == "mixamorig:RightFoot") {
      EXPECT_EQ(source.skeleton.name(p.source), "LeftFoot");
    }
  }
  ASSERT_EQ(t.report.feet.size(), 2u);
  for (const app::RetargetReport::Foot& foot : t.report.feet) {
    EXPECT_NE(foot.source_leg, foot.target_leg);  // the left foot's steps on the right foot
    EXPECT_GE(foot.height_correlation, 0.9f);
  }
  // Without the swap the right foot follows the right foot, which the left one does not.
  const Transfer plain = Retarget(source, source.FindClip("Walk"), target);
  const int walk = int(plain.result.clips.size()) - 1;
  const int right = target.skeleton.Find("mixamorig:RightFoot");
  const std::vector<float> swapped = JointHeights(t.result, walk, right, 30.0f, t.info.frames);
  const std::vector<float> unswapped =
      JointHeights(plain.result, walk, right, 30.0f, plain.info.frames);
  const std::vector<float> left_source = JointHeights(
      source, source.FindClip("Walk"), source.skeleton.Find("LeftFoot"), 30.0f, t.info.frames);
  EXPECT_GE(Correlation(swapped, left_source), 0.9);
  EXPECT_LT(Correlation(unswapped, left_source), 0.5);
}

TEST(RetargetTransfer, UnknownJointInUserMapIsRefusedByName) {
  const assets::Model a = assets::MakeBuiltinCharacter();
  const Character ca(a);
  RetargetMapping m = Map(ca, ca);
  std::string error;
  EXPECT_FALSE(
      app::ApplyJointMap(a.skeleton, a.skeleton, {{"LeftFoot", "NoSuchJoint"}}, &m, &error));
  EXPECT_NE(error.find("NoSuchJoint"), std::string::npos) << error;
  std::vector<std::pair<std::string, std::string>> parsed;
  EXPECT_FALSE(app::ParseJointMap("[1, 2]", &parsed, &error));
  EXPECT_FALSE(app::ParseJointMap("{\"a\": 3}", &parsed, &error));
  EXPECT_TRUE(app::ParseJointMap("{\"a\": \"b\"}", &parsed, &error));
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0].second, "b");
}

// The built-in skeleton without its legs (hips, spine, arms, head).
assets::Model NoLegs() {
  const assets::Model base = assets::MakeBuiltinCharacter();
  std::vector<ik::JointDesc> joints;
  std::vector<int> index(size_t(base.skeleton.joint_count()), -1);
  for (int j = 0; j < base.skeleton.joint_count(); ++j) {
    const std::string& n = base.skeleton.name(j);
    if (n.find("Leg") != std::string::npos || n.find("Foot") != std::string::npos ||
        n.find("Toe") != std::string::npos) {
      continue;
    }
    ik::JointDesc d;
    d.name = n;
    const int p = base.skeleton.parent(j);
    d.parent = p < 0 ? -1 : index[size_t(p)];
    d.rest = base.skeleton.rest_locals()[size_t(j)];
    index[size_t(j)] = int(joints.size());
    joints.push_back(d);
  }
  std::string error;
  assets::Model model;
  model.source = "nolegs";
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  model.is_bone.assign(joints.size(), true);
  return model;
}

TEST(RetargetMapping, RigWithoutLegsIsRefusedNamingTheLegs) {
  const assets::Model builtin = assets::MakeBuiltinCharacter();
  const assets::Model nolegs = NoLegs();
  const Character cb(builtin), cn(nolegs);
  RetargetMapping m;
  std::string error;
  EXPECT_FALSE(app::MapJoints(cb, cn, &m, &error));
  EXPECT_NE(error.find("legs"), std::string::npos) << error;
  EXPECT_NE(error.find("nolegs"), std::string::npos) << error;
  EXPECT_FALSE(app::MapJoints(cn, cb, &m, &error));
  EXPECT_NE(error.find("legs"), std::string::npos) << error;
}

// A four-legged rig in the built-in's naming: hips and chest level, front legs named as arms
// reaching the ground.
assets::Model FourLegs() {
  std::vector<ik::JointDesc> joints;
  auto add = [&](const std::string& name, int parent, glm::vec3 t) {
    ik::JointDesc d;
    d.name = name;
    d.parent = parent;
    d.rest.translation = t;
    joints.push_back(d);
    return int(joints.size()) - 1;
  };
  const int hips = add("Hips", -1, {0.0f, 0.6f, 0.0f});
  const int spine = add("Spine", hips, {0.0f, 0.0f, 0.3f});
  const int chest = add("Spine2", spine, {0.0f, 0.0f, 0.3f});
  const int neck = add("Neck", chest, {0.0f, 0.1f, 0.1f});
  add("Head", neck, {0.0f, 0.1f, 0.1f});
  for (const char* side : {"Left", "Right"}) {
    const float x = side[0] == 'L' ? 0.12f : -0.12f;
    const std::string s = side;
    int j = add(s + "UpLeg", hips, {x, -0.05f, 0.0f});
    j = add(s + "Leg", j, {0.0f, -0.25f, 0.03f});
    j = add(s + "Foot", j, {0.0f, -0.25f, -0.03f});
    add(s + "ToeBase", j, {0.0f, -0.04f, 0.06f});
    j = add(s + "Arm", chest, {x, -0.05f, 0.0f});
    j = add(s + "ForeArm", j, {0.0f, -0.25f, -0.03f});
    add(s + "Hand", j, {0.0f, -0.25f, 0.03f});
  }
  std::string error;
  assets::Model model;
  model.source = "dog";
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  model.is_bone.assign(joints.size(), true);
  return model;
}

TEST(RetargetMapping, FourLeggedOntoTwoLeggedIsRefused) {
  const assets::Model builtin = assets::MakeBuiltinCharacter();
  const assets::Model dog = FourLegs();
  const Character cb(builtin), cd(dog);
  ASSERT_EQ(cd.limbs().size(), 4u);
  RetargetMapping m;
  std::string error;
  EXPECT_FALSE(app::MapJoints(cd, cb, &m, &error));
  EXPECT_NE(error.find("four limbs"), std::string::npos) << error;
  EXPECT_NE(error.find("dog"), std::string::npos) << error;
  EXPECT_FALSE(app::MapJoints(cb, cd, &m, &error));
  // Two four-legged rigs map.
  EXPECT_TRUE(app::MapJoints(cd, cd, &m, &error)) << error;
}

TEST(RetargetMapping, RestThatDiffersByMoreThan45DegreesIsWarnedOf) {
  const assets::Model source = assets::MakeBuiltinCharacter();
  assets::Model target = Renamed([](const std::string& n) { return n; });
  // The target's left upper arm turned 60 degrees about the forward axis at rest.
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < target.skeleton.joint_count(); ++j) {
    ik::JointDesc d;
    d.name = target.skeleton.name(j);
    d.parent = target.skeleton.parent(j);
    d.rest = target.skeleton.rest_locals()[size_t(j)];
    if (d.name == "LeftArm") {
      d.rest.rotation = glm::angleAxis(glm::radians(60.0f), glm::vec3(0, 0, 1)) * d.rest.rotation;
    }
    joints.push_back(d);
  }
  std::string error;
  target.skeleton = *ik::Skeleton::Build(joints, &error);
  const Transfer t = Retarget(source, source.FindClip("Walk"), target);
  bool warned = false;
  for (const std::string& w : t.report.warnings) {
    if (w.find("LeftArm") != std::string::npos && w.find("degrees") != std::string::npos) {
      warned = true;
    }
    EXPECT_EQ(w.find("RightArm"), std::string::npos) << w;
  }
  EXPECT_TRUE(warned);
}

}  // namespace
