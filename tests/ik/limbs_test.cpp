// Limb detection on synthetic skeletons of each naming convention and on unnamed symmetric rigs.
#include "ik/limbs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace {

using ik::JointDesc;
using ik::Limb;
using ik::LimbKind;
using ik::LimbSide;

// A humanoid builder: joint names come from a table so each convention can be tried.
struct Names {
  std::string hips, spine, chest, neck, head;
  std::string up_leg[2], leg[2], foot[2], toe[2];
  std::string shoulder[2], arm[2], fore_arm[2], hand[2], finger[2];
  std::string twist[2];  // optional: a twist joint between forearm and hand ("" for none)
};

ik::Skeleton Humanoid(const Names& names, bool facing_minus_z = false) {
  std::vector<JointDesc> joints;
  auto add = [&](const std::string& name, int parent, glm::vec3 offset) {
    JointDesc j;
    j.name = name;
    j.parent = parent;
    j.rest.translation = facing_minus_z ? glm::vec3(-offset.x, offset.y, -offset.z) : offset;
    joints.push_back(j);
    return static_cast<int>(joints.size()) - 1;
  };
  const int hips = add(names.hips, -1, {0, 1.0f, 0});
  const int spine = add(names.spine, hips, {0, 0.12f, 0});
  const int chest = add(names.chest, spine, {0, 0.25f, 0});
  const int neck = add(names.neck, chest, {0, 0.2f, 0});
  add(names.head, neck, {0, 0.1f, 0});
  for (int s = 0; s < 2; ++s) {
    const float x = s == 0 ? 1.0f : -1.0f;  // left is +X for a figure facing +Z
    const int up = add(names.up_leg[s], hips, {0.1f * x, -0.05f, 0});
    const int leg = add(names.leg[s], up, {0, -0.45f, 0.02f});
    const int foot = add(names.foot[s], leg, {0, -0.42f, -0.02f});
    add(names.toe[s], foot, {0, -0.05f, 0.12f});
    const int shoulder = add(names.shoulder[s], chest, {0.05f * x, 0.15f, 0});
    const int arm = add(names.arm[s], shoulder, {0.12f * x, 0, 0});
    const int fore = add(names.fore_arm[s], arm, {0.2f * x, -0.2f, -0.01f});
    int above_hand = fore;
    if (!names.twist[s].empty()) above_hand = add(names.twist[s], fore, {0.09f * x, -0.09f, 0});
    const glm::vec3 hand_offset =
        names.twist[s].empty() ? glm::vec3(0.18f * x, -0.18f, 0) : glm::vec3(0.09f * x, -0.09f, 0);
    const int hand = add(names.hand[s], above_hand, hand_offset);
    add(names.finger[s], hand, {0.05f * x, -0.05f, 0});
  }
  std::string error;
  auto skeleton = ik::Skeleton::Build(joints, &error);
  EXPECT_TRUE(skeleton) << error;
  return skeleton ? *skeleton : ik::Skeleton();
}

// label -> "start/mid/end" joint names
std::map<std::string, std::string> Describe(const ik::Skeleton& s, const std::vector<Limb>& limbs) {
  std::map<std::string, std::string> out;
  for (const Limb& l : limbs) {
    out[l.label] = s.name(l.chain.start) + "/" + s.name(l.chain.mid) + "/" + s.name(l.chain.end);
  }
  return out;
}

// 3ds Max Biped: words split at spaces and digits ("Bip01 L Thigh" is bip, 01, l, thigh).
TEST(DetectLimbs, BipedNames) {
  Names n{"Bip01 Pelvis",
          "Bip01 Spine",
          "Bip01 Spine1",
          "Bip01 Neck",
          "Bip01 Head",
          {"Bip01 L Thigh", "Bip01 R Thigh"},
          {"Bip01 L Calf", "Bip01 R Calf"},
          {"Bip01 L Foot", "Bip01 R Foot"},
          {"Bip01 L Toe0", "Bip01 R Toe0"},
          {"Bip01 L Clavicle", "Bip01 R Clavicle"},
          {"Bip01 L UpperArm", "Bip01 R UpperArm"},
          {"Bip01 L Forearm", "Bip01 R Forearm"},
          {"Bip01 L Hand", "Bip01 R Hand"},
          {"Bip01 L Finger0", "Bip01 R Finger0"},
          {"", ""}};
  const ik::Skeleton s = Humanoid(n);
  const auto d = Describe(s, ik::DetectLimbs(s));
  EXPECT_EQ(d.at("LeftLeg"), "Bip01 L Thigh/Bip01 L Calf/Bip01 L Foot");
  EXPECT_EQ(d.at("RightLeg"), "Bip01 R Thigh/Bip01 R Calf/Bip01 R Foot");
  EXPECT_EQ(d.at("LeftArm"), "Bip01 L UpperArm/Bip01 L Forearm/Bip01 L Hand");
  EXPECT_EQ(d.at("RightArm"), "Bip01 R UpperArm/Bip01 R Forearm/Bip01 R Hand");
}

TEST(DetectLimbs, MixamoNames) {
  Names n{"mixamorig:Hips",
          "mixamorig:Spine",
          "mixamorig:Spine2",
          "mixamorig:Neck",
          "mixamorig:Head",
          {"mixamorig:LeftUpLeg", "mixamorig:RightUpLeg"},
          {"mixamorig:LeftLeg", "mixamorig:RightLeg"},
          {"mixamorig:LeftFoot", "mixamorig:RightFoot"},
          {"mixamorig:LeftToeBase", "mixamorig:RightToeBase"},
          {"mixamorig:LeftShoulder", "mixamorig:RightShoulder"},
          {"mixamorig:LeftArm", "mixamorig:RightArm"},
          {"mixamorig:LeftForeArm", "mixamorig:RightForeArm"},
          {"mixamorig:LeftHand", "mixamorig:RightHand"},
          {"mixamorig:LeftHandIndex1", "mixamorig:RightHandIndex1"},
          {"", ""}};
  const ik::Skeleton s = Humanoid(n);
  const auto limbs = ik::DetectLimbs(s);
  ASSERT_EQ(limbs.size(), 4u);
  EXPECT_EQ(limbs[0].label, "LeftLeg");
  EXPECT_EQ(limbs[1].label, "RightLeg");
  EXPECT_EQ(limbs[2].label, "LeftArm");
  EXPECT_EQ(limbs[3].label, "RightArm");
  const auto d = Describe(s, limbs);
  EXPECT_EQ(d.at("LeftLeg"), "mixamorig:LeftUpLeg/mixamorig:LeftLeg/mixamorig:LeftFoot");
  EXPECT_EQ(d.at("RightArm"), "mixamorig:RightArm/mixamorig:RightForeArm/mixamorig:RightHand");
  for (const Limb& l : limbs) EXPECT_TRUE(l.by_name);
}

TEST(DetectLimbs, BlenderNames) {
  Names n{"hips",
          "spine",
          "chest",
          "neck",
          "head",
          {"thigh.L", "thigh.R"},
          {"shin.L", "shin.R"},
          {"foot.L", "foot.R"},
          {"toe.L", "toe.R"},
          {"shoulder.L", "shoulder.R"},
          {"upper_arm.L", "upper_arm.R"},
          {"forearm.L", "forearm.R"},
          {"hand.L", "hand.R"},
          {"f_index.01.L", "f_index.01.R"},
          {"", ""}};
  const ik::Skeleton s = Humanoid(n);
  const auto d = Describe(s, ik::DetectLimbs(s));
  EXPECT_EQ(d.at("LeftLeg"), "thigh.L/shin.L/foot.L");
  EXPECT_EQ(d.at("RightLeg"), "thigh.R/shin.R/foot.R");
  EXPECT_EQ(d.at("LeftArm"), "upper_arm.L/forearm.L/hand.L");
  EXPECT_EQ(d.at("RightArm"), "upper_arm.R/forearm.R/hand.R");
}

TEST(DetectLimbs, UnrealNamesSkipTwistJoints) {
  Names n{"pelvis",
          "spine_01",
          "spine_02",
          "neck_01",
          "head",
          {"thigh_l", "thigh_r"},
          {"calf_l", "calf_r"},
          {"foot_l", "foot_r"},
          {"ball_l", "ball_r"},
          {"clavicle_l", "clavicle_r"},
          {"upperarm_l", "upperarm_r"},
          {"lowerarm_l", "lowerarm_r"},
          {"hand_l", "hand_r"},
          {"index_01_l", "index_01_r"},
          {"lowerarm_twist_01_l", "lowerarm_twist_01_r"}};
  const ik::Skeleton s = Humanoid(n);
  const auto d = Describe(s, ik::DetectLimbs(s));
  EXPECT_EQ(d.at("LeftLeg"), "thigh_l/calf_l/foot_l");
  EXPECT_EQ(d.at("LeftArm"), "upperarm_l/lowerarm_l/hand_l");  // the twist joint is skipped
  EXPECT_EQ(d.at("RightArm"), "upperarm_r/lowerarm_r/hand_r");
}

TEST(DetectLimbs, HipKneeAnkleNames) {
  Names n{"Pelvis",
          "Spine1",
          "Spine2",
          "Neck",
          "Head",
          {"B_Hip_Left", "B_Hip_Right"},
          {"B_Knee_Left", "B_Knee_Right"},
          {"B_Ankle_Left", "B_Ankle_Right"},
          {"B_Toe_Left", "B_Toe_Right"},
          {"B_Clavicle_Left", "B_Clavicle_Right"},
          {"B_UpperArm_Left", "B_UpperArm_Right"},
          {"B_ForeArm_Left", "B_ForeArm_Right"},
          {"B_Wrist_Left", "B_Wrist_Right"},
          {"B_Finger1_Left", "B_Finger1_Right"},
          {"", ""}};
  const ik::Skeleton s = Humanoid(n);
  const auto d = Describe(s, ik::DetectLimbs(s));
  EXPECT_EQ(d.at("LeftLeg"), "B_Hip_Left/B_Knee_Left/B_Ankle_Left");
  EXPECT_EQ(d.at("RightArm"), "B_UpperArm_Right/B_ForeArm_Right/B_Wrist_Right");
}

Names Unnamed() {
  Names n;
  int k = 0;
  auto next = [&] { return "joint" + std::to_string(k++); };
  n.hips = next();
  n.spine = next();
  n.chest = next();
  n.neck = next();
  n.head = next();
  for (int s = 0; s < 2; ++s) {
    n.up_leg[s] = next();
    n.leg[s] = next();
    n.foot[s] = next();
    n.toe[s] = next();
    n.shoulder[s] = next();
    n.arm[s] = next();
    n.fore_arm[s] = next();
    n.hand[s] = next();
    n.finger[s] = next();
  }
  return n;
}

TEST(DetectLimbs, UnnamedJointsBySymmetry) {
  const Names n = Unnamed();
  const ik::Skeleton s = Humanoid(n);
  const auto limbs = ik::DetectLimbs(s);
  const auto d = Describe(s, limbs);
  ASSERT_EQ(limbs.size(), 4u);
  EXPECT_EQ(d.at("LeftLeg"), n.up_leg[0] + "/" + n.leg[0] + "/" + n.foot[0]);
  EXPECT_EQ(d.at("RightLeg"), n.up_leg[1] + "/" + n.leg[1] + "/" + n.foot[1]);
  EXPECT_EQ(d.at("LeftArm"), n.arm[0] + "/" + n.fore_arm[0] + "/" + n.hand[0]);
  EXPECT_EQ(d.at("RightArm"), n.arm[1] + "/" + n.fore_arm[1] + "/" + n.hand[1]);
  for (const Limb& l : limbs) EXPECT_FALSE(l.by_name);
}

TEST(DetectLimbs, UnnamedFigureFacingMinusZGetsSidesFromItsToes) {
  // Turned around: its left is now at -X; the toes point to -Z and tell which way it faces.
  const Names n = Unnamed();
  const ik::Skeleton s = Humanoid(n, /*facing_minus_z=*/true);
  const auto d = Describe(s, ik::DetectLimbs(s));
  EXPECT_EQ(d.at("LeftLeg"), n.up_leg[0] + "/" + n.leg[0] + "/" + n.foot[0]);
  EXPECT_EQ(d.at("LeftArm"), n.arm[0] + "/" + n.fore_arm[0] + "/" + n.hand[0]);
}

// `skeleton` with `count` more children of joint `parent`: leaves on a small circle around it,
// or with `bones`, each the start of a two-bone branch alike the others.
ik::Skeleton WithManyChildren(const ik::Skeleton& skeleton, int parent, int count, bool bones) {
  std::vector<JointDesc> joints;
  for (int j = 0; j < skeleton.joint_count(); ++j) {
    JointDesc d;
    d.name = skeleton.name(j);
    d.parent = skeleton.parent(j);
    d.rest = skeleton.rest_locals()[j];
    joints.push_back(d);
  }
  for (int i = 0; i < count; ++i) {
    const float a = 6.2831853f * float(i) / float(count);
    const glm::vec3 out(std::cos(a), 0.0f, std::sin(a));
    JointDesc d;
    d.name = "extra" + std::to_string(i);
    d.parent = parent;
    d.rest.translation = 0.01f * out;
    joints.push_back(d);
    if (!bones) continue;
    const int first = static_cast<int>(joints.size()) - 1;
    for (int k = 1; k <= 2; ++k) {
      JointDesc b;
      b.name = d.name + "_" + std::to_string(k);
      b.parent = first + k - 1;
      b.rest.translation = 0.3f * out + glm::vec3(0.0f, -0.1f, 0.0f);
      joints.push_back(b);
    }
  }
  std::string error;
  auto built = ik::Skeleton::Build(joints, &error);
  EXPECT_TRUE(built) << error;
  return built ? *built : ik::Skeleton();
}

TEST(DetectLimbs, AJointWithThousandsOfChildrenKeepsItsLimbs) {
  // Pairing mirror-image branches is bucketed by bone length, so such joints cost linear time
  // (bench/limbs_bench.cpp); the limbs found stay those of the body.
  const Names n = Unnamed();
  const ik::Skeleton body = Humanoid(n);
  const auto expected = Describe(body, ik::DetectLimbs(body));
  ASSERT_EQ(expected.size(), 4u);
  const int hips = body.Find(n.hips);
  const ik::Skeleton leaves = WithManyChildren(body, hips, 20000, /*bones=*/false);
  EXPECT_EQ(Describe(leaves, ik::DetectLimbs(leaves)), expected);
  // Thousands of alike two-bone branches, every two of them mirror images: two pairs are taken,
  // as for a body, and the search ends.
  const ik::Skeleton star = WithManyChildren(body, 0, 5000, /*bones=*/true);
  const auto limbs = ik::DetectLimbs(star);
  EXPECT_LE(limbs.size(), 4u);
}

TEST(DetectLimbs, NothingInAChainOrTinySkeleton) {
  std::vector<JointDesc> joints(5);
  for (int i = 0; i < 5; ++i) {
    joints[i].name = "bone" + std::to_string(i);
    joints[i].parent = i - 1;
    joints[i].rest.translation = {0, 0.3f, 0};
  }
  std::string error;
  const auto chain = ik::Skeleton::Build(joints, &error);
  ASSERT_TRUE(chain);
  EXPECT_TRUE(ik::DetectLimbs(*chain).empty());
  EXPECT_TRUE(ik::DetectLimbs(ik::Skeleton()).empty());
}

TEST(DetectLimbs, IkTargetsAndFingersAreNotEnds) {
  // "LeftFootIK" hangs off the root in many rigs; it must not be taken for the foot.
  Names n{"Hips",
          "Spine",
          "Chest",
          "Neck",
          "Head",
          {"LeftUpLeg", "RightUpLeg"},
          {"LeftLeg", "RightLeg"},
          {"LeftFoot", "RightFoot"},
          {"LeftToe", "RightToe"},
          {"LeftShoulder", "RightShoulder"},
          {"LeftArm", "RightArm"},
          {"LeftForeArm", "RightForeArm"},
          {"LeftHand", "RightHand"},
          {"LeftHandThumb1", "RightHandThumb1"},
          {"", ""}};
  ik::Skeleton base = Humanoid(n);
  std::vector<JointDesc> joints;
  for (int i = 0; i < base.joint_count(); ++i) {
    JointDesc j;
    j.name = base.name(i);
    j.parent = base.parent(i);
    j.rest = base.rest_locals()[i];
    joints.push_back(j);
  }
  JointDesc root_ik;
  root_ik.name = "ik_foot_root";
  root_ik.parent = 0;
  joints.push_back(root_ik);
  JointDesc foot_ik;
  foot_ik.name = "LeftFootIK";
  foot_ik.parent = static_cast<int>(joints.size()) - 1;
  foot_ik.rest.translation = {0.1f, -0.9f, 0.0f};
  joints.push_back(foot_ik);
  std::string error;
  const auto s = ik::Skeleton::Build(joints, &error);
  ASSERT_TRUE(s) << error;
  const auto d = Describe(*s, ik::DetectLimbs(*s));
  EXPECT_EQ(d.at("LeftLeg"), "LeftUpLeg/LeftLeg/LeftFoot");
  EXPECT_EQ(d.at("LeftArm"), "LeftArm/LeftForeArm/LeftHand");
}

}  // namespace
