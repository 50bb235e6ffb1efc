// Joint names read as words and the roles they give (ik/body/joint_names.h), on the naming
// conventions riggers' tools write.
#include "ik/body/joint_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

TEST(JointNames, SplitAtSeparatorsCaseChangesAndDigitsKeepingWhereEachWordIs) {
  EXPECT_EQ(ik::NameTokens("mixamorig:LeftUpLeg"),
            (std::vector<std::string>{"mixamorig", "left", "up", "leg"}));
  EXPECT_EQ(ik::NameTokens("thigh.L"), (std::vector<std::string>{"thigh", "l"}));
  EXPECT_EQ(ik::NameTokens("IKFoot"), (std::vector<std::string>{"ik", "foot"}));
  EXPECT_EQ(ik::NameTokens("Bip01 R Calf"), (std::vector<std::string>{"bip", "01", "r", "calf"}));
  const std::vector<ik::NameWord> words = ik::NameWords("B_Hip_Left");
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[2].begin, 6u);
  EXPECT_EQ(words[2].end, 10u);
  EXPECT_EQ(words[2].lower, "left");
  EXPECT_TRUE(ik::NameTokens("").empty());
  EXPECT_TRUE(ik::NameTokens("_.:").empty());
}

TEST(JointNames, GiveTheHumanoidRoleInEachConvention) {
  struct Case {
    const char* name;
    const char* role;
  };
  const Case cases[] = {
      {"mixamorig:Hips", "hips"},
      {"mixamorig:LeftUpLeg", "leftUpperLeg"},
      {"mixamorig:RightLeg", "rightLowerLeg"},
      {"mixamorig:LeftToeBase", "leftToes"},
      {"mixamorig:RightForeArm", "rightLowerArm"},
      {"mixamorig:LeftArm", "leftUpperArm"},
      {"thigh_l", "leftUpperLeg"},
      {"calf_r", "rightLowerLeg"},
      {"upperarm_l", "leftUpperArm"},
      {"clavicle_r", "rightShoulder"},
      {"foot.L", "leftFoot"},
      {"shin.R", "rightLowerLeg"},
      {"Bip01 L Thigh", "leftUpperLeg"},
      {"Bip01 R Hand", "rightHand"},
      {"J_Bip_C_Neck", "neck"},
      {"J_Bip_L_LowerArm", "leftLowerArm"},
      {"Spine2", "spine"},
      {"Head", "head"},
      {"pelvis", "hips"},
  };
  for (const Case& c : cases) EXPECT_EQ(ik::HumanoidRoleFromName(c.name), c.role) << c.name;
}

TEST(JointNames, GiveNoRoleToHelpersFingersAndNamesWithoutMeaning) {
  for (const char* name :
       {"mixamorig:LeftHandIndex1", "LeftFoot_end", "IK_Foot_L", "ctrl_hand_R", "thigh_twist_01_l",
        "bone07", "Root", "LeftEye", "jaw", "Left_Right_Leg"}) {
    EXPECT_EQ(ik::HumanoidRoleFromName(name), "") << name;
  }
}

TEST(JointNames, NameTheFingers) {
  EXPECT_EQ(ik::FingerFromName("mixamorig:LeftHandThumb2"), "Thumb");
  EXPECT_EQ(ik::FingerFromName("index_01_r"), "Index");
  EXPECT_EQ(ik::FingerFromName("f_middle.01.L"), "Middle");
  EXPECT_EQ(ik::FingerFromName("RightHandRing1"), "Ring");
  EXPECT_EQ(ik::FingerFromName("pinky_03_l"), "Little");
  EXPECT_EQ(ik::FingerFromName("J_Bip_L_Little1"), "Little");
  EXPECT_EQ(ik::FingerFromName("LeftHand"), "");
}

}  // namespace
