// Limb detection on synthetic skeletons of each naming convention, on unnamed symmetric rigs, and
// from declared humanoid maps (VRM).
#include "ik/body/limbs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace {

using ik::JointDesc;
using ik::Limb;
using ik::LimbFoundBy;
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
  for (const Limb& l : limbs) EXPECT_EQ(l.found_by, LimbFoundBy::kName);
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
  for (const Limb& l : limbs) EXPECT_EQ(l.found_by, LimbFoundBy::kSymmetry);
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
  const std::vector<Limb> limbs = ik::DetectLimbs(*s);
  const auto d = Describe(*s, limbs);
  EXPECT_EQ(d.at("LeftLeg"), "LeftUpLeg/LeftLeg/LeftFoot");
  EXPECT_EQ(d.at("LeftArm"), "LeftArm/LeftForeArm/LeftHand");
  // The IK foot, 2 cm from the left foot and outside the leg, is offered as its target.
  ASSERT_EQ(limbs[0].label, "LeftLeg");
  ASSERT_GE(limbs[0].target, 0);
  EXPECT_EQ(s->name(limbs[0].target), "LeftFootIK");
  EXPECT_EQ(limbs[0].pole, -1);
  for (size_t i = 1; i < limbs.size(); ++i) EXPECT_EQ(limbs[i].target, -1) << limbs[i].label;
}

// --- the humanoid map (VRM avatars) -----------------------------------------------------------

// VRM's names for the limb roles, by side (0 left, 1 right) and joint (upper, lower, end).
const char* const kLegRoles[2][3] = {{"leftUpperLeg", "leftLowerLeg", "leftFoot"},
                                     {"rightUpperLeg", "rightLowerLeg", "rightFoot"}};
const char* const kArmRoles[2][3] = {{"leftUpperArm", "leftLowerArm", "leftHand"},
                                     {"rightUpperArm", "rightLowerArm", "rightHand"}};

// Names that lie: the figure's left limbs are called Right*, its right limbs Left*, its hands
// are called feet and its feet hands, and a toe and a finger carry the words of an end joint.
Names LyingNames() {
  return Names{"Hips",
               "Spine",
               "Chest",
               "Neck",
               "Head",
               {"RightUpperArm", "LeftUpperArm"},
               {"RightLowerArm", "LeftLowerArm"},
               {"RightHand", "LeftHand"},
               {"RightFootToe", "LeftFootToe"},
               {"RightHip", "LeftHip"},
               {"RightThigh", "LeftThigh"},
               {"RightShin", "LeftShin"},
               {"RightFoot", "LeftFoot"},
               {"RightHandTip", "LeftHandTip"},
               {"", ""}};
}

// The humanoid map of a Humanoid() skeleton built from `names`, by where each joint really is.
std::vector<ik::HumanoidBone> TrueRoles(const ik::Skeleton& s, const Names& names, bool legs,
                                        bool arms) {
  std::vector<ik::HumanoidBone> map = {{"hips", s.Find(names.hips)}};
  for (int side = 0; side < 2; ++side) {
    if (legs) {
      map.push_back({kLegRoles[side][0], s.Find(names.up_leg[side])});
      map.push_back({kLegRoles[side][1], s.Find(names.leg[side])});
      map.push_back({kLegRoles[side][2], s.Find(names.foot[side])});
    }
    if (arms) {
      map.push_back({kArmRoles[side][0], s.Find(names.arm[side])});
      map.push_back({kArmRoles[side][1], s.Find(names.fore_arm[side])});
      map.push_back({kArmRoles[side][2], s.Find(names.hand[side])});
    }
  }
  return map;
}

TEST(DetectLimbs, HumanoidMapIsTakenOverNamesThatWouldFoolDetection) {
  const Names n = LyingNames();
  ik::Skeleton s = Humanoid(n);
  // Without the map the names win, and they are wrong: the figure's left leg is found as its
  // right arm (the joints are named RightUpperArm/RightLowerArm/RightHand).
  const auto fooled = Describe(s, ik::DetectLimbs(s));
  ASSERT_TRUE(fooled.count("RightArm"));
  EXPECT_EQ(fooled.at("RightArm"), "RightUpperArm/RightLowerArm/RightHand");
  std::string error;
  ASSERT_TRUE(s.SetHumanoid(TrueRoles(s, n, true, true), &error)) << error;
  const std::vector<Limb> limbs = ik::DetectLimbs(s);
  ASSERT_EQ(limbs.size(), 4u);
  for (const Limb& l : limbs) EXPECT_EQ(l.found_by, LimbFoundBy::kHumanoid) << l.label;
  EXPECT_EQ(limbs[0].label, "LeftLeg");
  EXPECT_EQ(limbs[0].kind, LimbKind::kLeg);
  EXPECT_EQ(limbs[0].side, LimbSide::kLeft);
  const auto d = Describe(s, limbs);
  EXPECT_EQ(d.at("LeftLeg"), "RightUpperArm/RightLowerArm/RightHand");
  EXPECT_EQ(d.at("RightLeg"), "LeftUpperArm/LeftLowerArm/LeftHand");
  EXPECT_EQ(d.at("LeftArm"), "RightThigh/RightShin/RightFoot");
  EXPECT_EQ(d.at("RightArm"), "LeftThigh/LeftShin/LeftFoot");
  EXPECT_STREQ(ik::LimbFoundByName(limbs[0].found_by), "humanoid");
}

TEST(DetectLimbs, LimbsTheHumanoidMapLacksAreFoundAsBefore) {
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
  ik::Skeleton s = Humanoid(n);
  std::string error;
  ASSERT_TRUE(s.SetHumanoid(TrueRoles(s, n, true, false), &error)) << error;
  const std::vector<Limb> limbs = ik::DetectLimbs(s);
  ASSERT_EQ(limbs.size(), 4u);
  EXPECT_EQ(limbs[0].found_by, LimbFoundBy::kHumanoid);
  EXPECT_EQ(limbs[1].found_by, LimbFoundBy::kHumanoid);
  EXPECT_EQ(limbs[2].found_by, LimbFoundBy::kName);
  EXPECT_EQ(limbs[3].found_by, LimbFoundBy::kName);
  const auto d = Describe(s, limbs);
  EXPECT_EQ(d.at("LeftArm"), "LeftArm/LeftForeArm/LeftHand");
  EXPECT_EQ(d.at("RightLeg"), "RightUpLeg/RightLeg/RightFoot");
}

TEST(DetectLimbs, AHumanoidChainThatIsNoChainIsNotTaken) {
  const Names n = LyingNames();
  ik::Skeleton s = Humanoid(n);
  std::vector<ik::HumanoidBone> map = TrueRoles(s, n, true, true);
  // Each leg's lower joint on the other leg's knee (not below its upper joint), and the right
  // arm's hand on the head.
  for (ik::HumanoidBone& b : map) {
    if (b.bone == "leftLowerLeg") b.joint = s.Find(n.leg[1]);
    if (b.bone == "rightLowerLeg") b.joint = s.Find(n.leg[0]);
    if (b.bone == "rightHand") b.joint = s.Find(n.head);
  }
  std::string error;
  ASSERT_TRUE(s.SetHumanoid(map, &error)) << error;
  const std::vector<Limb> limbs = ik::DetectLimbs(s);
  int humanoid = 0;
  for (const Limb& l : limbs) {
    if (l.found_by != LimbFoundBy::kHumanoid) continue;
    ++humanoid;
    EXPECT_EQ(l.kind, LimbKind::kArm);
    EXPECT_EQ(l.side, LimbSide::kLeft);
  }
  EXPECT_EQ(humanoid, 1);
  // The legs and the right arm come from the names or the symmetry, never reusing the left
  // arm's joints.
  const auto d = Describe(s, limbs);
  EXPECT_EQ(d.at("LeftArm"), "RightThigh/RightShin/RightFoot");
  for (const Limb& l : limbs) {
    if (l.found_by == LimbFoundBy::kHumanoid) continue;
    for (int j : {l.chain.start, l.chain.mid, l.chain.end}) {
      EXPECT_NE(s.name(j), "RightThigh");
      EXPECT_NE(s.name(j), "RightShin");
      EXPECT_NE(s.name(j), "RightFoot");
    }
  }
}

// --- rigs built another way (a Blender export with IK control bones) ----------------------------

struct BlenderRigOptions {
  // Names of the IK controls: "Foot.L" and "Pole.L" style, or Blender's default "Bone.003" names
  // (recognised by where they hang and sit only).
  bool named_controls = true;
  // The controls' parent: the root bone (beside the hips), or the armature node itself.
  bool controls_on_armature = false;
  // The left arm raised (no longer the right arm's mirror image).
  bool left_arm_raised = false;
};

// The rig of the issue: Armature → Root bone → Hips → legs (UpperLeg → LowerLeg → an end joint,
// no foot) and spine → arms whose lower arm forks straight into four palm/finger chains and a
// thumb (no wrist joint); the foot IK controls and knee poles hang beside the hips. Figure faces
// +Z, left at +X, in T-pose, 1.8 m tall.
ik::Skeleton BlenderRig(const BlenderRigOptions& o = {}) {
  std::vector<JointDesc> joints;
  auto add = [&](const std::string& name, int parent, glm::vec3 offset) {
    JointDesc j;
    j.name = name;
    j.parent = parent;
    j.rest.translation = offset;
    joints.push_back(j);
    return static_cast<int>(joints.size()) - 1;
  };
  const int armature = add("Armature", -1, {0, 0, 0});
  const int root = add("Root", armature, {0, 0, -0.05f});
  const int hips = add("Hips", root, {0, 1.0f, 0.05f});
  const int spine = add("Spine", hips, {0, 0.12f, 0});
  const int spine2 = add("Spine.001", spine, {0, 0.25f, 0});
  const int neck = add("Neck", spine2, {0, 0.2f, 0});
  add("Head", neck, {0, 0.1f, 0});
  int unnamed = 0;
  for (int s = 0; s < 2; ++s) {
    const float x = s == 0 ? 1.0f : -1.0f;
    const std::string side = s == 0 ? ".L" : ".R";
    const int up = add("UpperLeg" + side, hips, {0.1f * x, -0.05f, 0});
    const int low = add("LowerLeg" + side, up, {0, -0.45f, 0.03f});
    add("LowerLeg" + side + "_end", low, {0, -0.42f, -0.03f});
    const int shoulder = add("Shoulder" + side, spine2, {0.05f * x, 0.15f, 0});
    const bool raised = s == 0 && o.left_arm_raised;
    const int upper = add("UpperArm" + side, shoulder,
                          raised ? glm::vec3(0.1f, 0.05f, 0) : glm::vec3(0.12f * x, 0, 0));
    const int lower = add("LowerArm" + side, upper,
                          raised ? glm::vec3(0.1f, 0.22f, 0.05f) : glm::vec3(0.25f * x, 0, 0));
    const glm::vec3 along =
        raised ? glm::normalize(glm::vec3(0.3f, 0.9f, 0.3f)) : glm::vec3(x, 0, 0);
    const glm::vec3 across = glm::vec3(0, 0, 1);
    // Four palms from the wrist (the lower arm's tail), index to little finger, then the thumb.
    for (int f = 0; f < 4; ++f) {
      const std::string finger = "Palm" + std::to_string(f + 1) + side;
      const float spread = 0.03f - 0.02f * static_cast<float>(f);
      const int palm = add(finger, lower, 0.25f * along + spread * across);
      const int f1 = add("Finger" + std::to_string(f + 1) + side, palm, 0.09f * along);
      const int f2 = add("Finger" + std::to_string(f + 1) + side + ".001", f1, 0.07f * along);
      add("Finger" + std::to_string(f + 1) + side + ".001_end", f2, 0.05f * along);
    }
    const int thumb = add("Thumb" + side, lower, 0.22f * along + 0.05f * across);
    const int t2 = add("Thumb" + side + ".001", thumb, 0.04f * along + 0.03f * across);
    add("Thumb" + side + ".001_end", t2, 0.03f * along);
    // The controls: the foot control at the ankle (where the leg's end joint is), the knee pole
    // half a metre in front of the knee.
    const int parent = o.controls_on_armature ? armature : root;
    const glm::vec3 base = o.controls_on_armature ? glm::vec3(0) : glm::vec3(0, 0, -0.05f);
    auto control_name = [&](const std::string& name) {
      return o.named_controls ? name + side : "Bone.00" + std::to_string(++unnamed);
    };
    add(control_name("Foot"), parent, glm::vec3(0.1f * x, 0.08f, 0) - base);
    add(control_name("Pole"), parent, glm::vec3(0.1f * x, 0.5f, 0.55f) - base);
  }
  std::string error;
  auto skeleton = ik::Skeleton::Build(joints, &error);
  EXPECT_TRUE(skeleton) << error;
  return skeleton ? *skeleton : ik::Skeleton();
}

// Names of a limb's target and pole ("-" for none).
std::string Controls(const ik::Skeleton& s, const Limb& l) {
  return (l.target >= 0 ? s.name(l.target) : "-") + "," + (l.pole >= 0 ? s.name(l.pole) : "-");
}

TEST(DetectLimbs, BlenderRigWithFootControlsAndForearmsForkingIntoFingers) {
  for (bool on_armature : {false, true}) {
    SCOPED_TRACE(on_armature ? "controls on the armature" : "controls on the root bone");
    BlenderRigOptions o;
    o.controls_on_armature = on_armature;
    const ik::Skeleton s = BlenderRig(o);
    const std::vector<Limb> limbs = ik::DetectLimbs(s);
    const auto d = Describe(s, limbs);
    ASSERT_EQ(limbs.size(), 4u) << ::testing::PrintToString(d);
    // The legs are the real ones (no foot joint: they end at the end joint), never the root
    // bone down to the foot control.
    EXPECT_EQ(d.at("LeftLeg"), "UpperLeg.L/LowerLeg.L/LowerLeg.L_end");
    EXPECT_EQ(d.at("RightLeg"), "UpperLeg.R/LowerLeg.R/LowerLeg.R_end");
    // The arms end where the lower arm forks, at the middle palm; one per side.
    EXPECT_EQ(d.at("LeftArm"), "UpperArm.L/LowerArm.L/Palm2.L");
    EXPECT_EQ(d.at("RightArm"), "UpperArm.R/LowerArm.R/Palm2.R");
    for (const Limb& l : limbs) {
      EXPECT_EQ(l.found_by, LimbFoundBy::kSymmetry) << l.label;
      for (int j : {l.chain.start, l.chain.mid, l.chain.end}) {
        EXPECT_FALSE(s.IsAncestorOrSelf(j, s.Find("Hips"))) << l.label << ": " << s.name(j);
      }
    }
    // The controls are offered as the legs' targets and poles, the arms have none.
    EXPECT_EQ(Controls(s, limbs[0]), "Foot.L,Pole.L");
    EXPECT_EQ(Controls(s, limbs[1]), "Foot.R,Pole.R");
    EXPECT_EQ(Controls(s, limbs[2]), "-,-");
    EXPECT_EQ(Controls(s, limbs[3]), "-,-");
  }
}

TEST(DetectLimbs, UnnamedControlBonesBesideTheBodyAreRecognisedByWhereTheySit) {
  BlenderRigOptions o;
  o.named_controls = false;
  const ik::Skeleton s = BlenderRig(o);
  const std::vector<Limb> limbs = ik::DetectLimbs(s);
  const auto d = Describe(s, limbs);
  ASSERT_EQ(limbs.size(), 4u) << ::testing::PrintToString(d);
  EXPECT_EQ(d.at("LeftLeg"), "UpperLeg.L/LowerLeg.L/LowerLeg.L_end");
  // Bone.001/.002 are the left foot control and pole, Bone.003/.004 the right ones.
  EXPECT_EQ(Controls(s, limbs[0]), "Bone.001,Bone.002");
  EXPECT_EQ(Controls(s, limbs[1]), "Bone.003,Bone.004");
}

TEST(DetectLimbs, TwoFingersOfOneHandAreNeverTheLeftAndRightArms) {
  // The left arm raised: the arms no longer mirror each other, but the left hand's index and
  // little finger chains (and its other palms) do, across a plane through the hand.
  BlenderRigOptions o;
  o.left_arm_raised = true;
  const ik::Skeleton s = BlenderRig(o);
  const std::vector<Limb> limbs = ik::DetectLimbs(s);
  const auto d = Describe(s, limbs);
  EXPECT_EQ(d.at("LeftLeg"), "UpperLeg.L/LowerLeg.L/LowerLeg.L_end");
  EXPECT_EQ(d.at("RightLeg"), "UpperLeg.R/LowerLeg.R/LowerLeg.R_end");
  // No finger chain of either hand is taken for an arm.
  for (const Limb& l : limbs) {
    for (const char* hand : {"LowerArm.L", "LowerArm.R"}) {
      for (int j : {l.chain.start, l.chain.mid, l.chain.end}) {
        EXPECT_FALSE(s.IsAncestorOrSelf(s.Find(hand), j)) << l.label << ": " << s.name(j);
      }
    }
  }
}

}  // namespace
