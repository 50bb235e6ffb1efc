// The mirror map (sides from names, else from the rest pose's symmetry) and mirrored poses: on a
// Mixamo-style rig whose joint frames are rolled differently on each side, the same rig under a
// turned and scaled armature, the same rig with its names taken away, and the 22-joint humanoid.
#include "ik/body/mirror.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>
#include <random>

#include "ik/core/kinematics.h"
#include "tests/ik/humanoid_rig.h"
#include "tests/ik/mixamo_rig.h"

namespace {

// The rig with every joint renamed "joint N": only its shape can say which joints pair.
ik::Skeleton Unnamed(const ik::Skeleton& skeleton) {
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < skeleton.joint_count(); ++j) {
    ik::JointDesc d;
    d.name = "joint " + std::to_string(j);
    d.parent = skeleton.parent(j);
    d.rest = skeleton.rest_locals()[size_t(j)];
    joints.push_back(d);
  }
  std::string error;
  return *ik::Skeleton::Build(std::move(joints), &error);
}

// A random pose: every joint turned up to ~70° from rest, the roots moved and the hips scaled.
ik::Pose RandomPose(const ik::Skeleton& skeleton, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  ik::Pose pose = ik::Pose::Rest(skeleton);
  for (int j = 0; j < skeleton.joint_count(); ++j) {
    const glm::vec3 axis = glm::normalize(glm::vec3(unit(rng), unit(rng), unit(rng)) + 1e-3f);
    pose.locals[size_t(j)].rotation =
        glm::normalize(pose.locals[size_t(j)].rotation * glm::angleAxis(1.2f * unit(rng), axis));
    if (skeleton.parent(j) < 0) {
      pose.locals[size_t(j)].translation += 0.2f * glm::vec3(unit(rng), unit(rng), unit(rng));
    }
  }
  return pose;
}

// Largest difference between two poses: translations and scales by component, rotations as the
// angle between them (a quaternion and its negative are the same rotation).
float PoseDifference(const ik::Pose& a, const ik::Pose& b) {
  float worst = 0.0f;
  for (size_t j = 0; j < a.locals.size(); ++j) {
    const ik::Transform& x = a.locals[j];
    const ik::Transform& y = b.locals[j];
    const glm::vec3 dt = glm::abs(x.translation - y.translation);
    const glm::vec3 ds = glm::abs(x.scale - y.scale);
    worst = std::max({worst, dt.x, dt.y, dt.z, ds.x, ds.y, ds.z});
    // The chord between the unit quaternions (either sign): about half the angle between them,
    // and well conditioned where acos of their dot is not.
    const glm::quat p = glm::normalize(x.rotation), q = glm::normalize(y.rotation);
    const float chord =
        std::min(glm::length(glm::vec4(p.x - q.x, p.y - q.y, p.z - q.z, p.w - q.w)),
                 glm::length(glm::vec4(p.x + q.x, p.y + q.y, p.z + q.z, p.w + q.w)));
    worst = std::max(worst, 2.0f * chord);
  }
  return worst;
}

struct Case {
  const char* name;
  ik::Skeleton skeleton;
};

std::vector<Case> Rigs() {
  return {{"mixamo", iktest::MakeMixamoRig().skeleton},
          {"mixamo under an armature", iktest::MakeMixamoRig(true).skeleton},
          {"unnamed mixamo", Unnamed(iktest::MakeMixamoRig().skeleton)},
          {"humanoid", iktest::MakeHumanoid().skeleton}};
}

TEST(MirroredJointName, SwapsTheSideWordKeepingItsCase) {
  EXPECT_EQ(ik::MirroredJointName("mixamorig:LeftArm"), "mixamorig:RightArm");
  EXPECT_EQ(ik::MirroredJointName("mixamorig:RightHandIndex1"), "mixamorig:LeftHandIndex1");
  EXPECT_EQ(ik::MirroredJointName("upper_arm.L"), "upper_arm.R");
  EXPECT_EQ(ik::MirroredJointName("thigh.r"), "thigh.l");
  EXPECT_EQ(ik::MirroredJointName("Bip01 L Thigh"), "Bip01 R Thigh");
  EXPECT_EQ(ik::MirroredJointName("hand_l"), "hand_r");
  EXPECT_EQ(ik::MirroredJointName("LEFT_FOOT"), "RIGHT_FOOT");
  EXPECT_EQ(ik::MirroredJointName("B_Hip_Left"), "B_Hip_Right");
}

TEST(MirroredJointName, IsEmptyWithoutASideOrWithBoth) {
  EXPECT_EQ(ik::MirroredJointName("mixamorig:Hips"), "");
  EXPECT_EQ(ik::MirroredJointName("Spine2"), "");
  EXPECT_EQ(ik::MirroredJointName("Left_to_Right"), "");
  EXPECT_EQ(ik::MirroredJointName("Lhand"), "");  // one word: no side word in it
}

TEST(BuildMirrorMap, PairsMixamoJointsByNameAcrossTheXPlane) {
  const iktest::MixamoRig rig = iktest::MakeMixamoRig();
  const ik::MirrorMap map = ik::BuildMirrorMap(rig.skeleton, ik::DetectLimbs(rig.skeleton));
  ASSERT_TRUE(map.found_plane);
  EXPECT_EQ(map.normal, glm::vec3(1.0f, 0.0f, 0.0f));
  EXPECT_EQ(map.offset, 0.0f);
  // Shoulders, arms, hands, 20 finger joints, up legs, legs, feet, toes, toe ends on each side.
  EXPECT_EQ(map.pairs_by_name, 4 + 20 + 5);
  EXPECT_EQ(map.pairs_by_symmetry, 0);
  EXPECT_EQ(map.counterpart[size_t(rig.Joint("LeftArm"))], rig.Joint("RightArm"));
  EXPECT_EQ(map.counterpart[size_t(rig.Joint("RightUpLeg"))], rig.Joint("LeftUpLeg"));
  EXPECT_EQ(map.counterpart[size_t(rig.Joint("LeftHandPinky4"))], rig.Joint("RightHandPinky4"));
  EXPECT_EQ(map.counterpart[size_t(rig.Joint("Hips"))], rig.Joint("Hips"));
  EXPECT_EQ(map.counterpart[size_t(rig.Joint("Head"))], rig.Joint("Head"));
}

TEST(BuildMirrorMap, FindsTheSamePairsByShapeWhenJointsHaveNoNames) {
  const iktest::MixamoRig rig = iktest::MakeMixamoRig();
  const ik::MirrorMap named = ik::BuildMirrorMap(rig.skeleton, ik::DetectLimbs(rig.skeleton));
  const ik::Skeleton unnamed = Unnamed(rig.skeleton);
  const ik::MirrorMap map = ik::BuildMirrorMap(unnamed, ik::DetectLimbs(unnamed));
  ASSERT_TRUE(map.found_plane);
  EXPECT_EQ(map.pairs_by_name, 0);
  EXPECT_EQ(map.pairs_by_symmetry, named.pairs_by_name);
  EXPECT_EQ(map.counterpart, named.counterpart);
  EXPECT_NEAR(map.normal.x, 1.0f, 1e-6f);
}

TEST(BuildMirrorMap, FlipsArePairedReflections) {
  for (const Case& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const ik::MirrorMap map = ik::BuildMirrorMap(rig.skeleton, ik::DetectLimbs(rig.skeleton));
    ASSERT_EQ(map.flips.size(), size_t(rig.skeleton.joint_count()));
    for (int j = 0; j < rig.skeleton.joint_count(); ++j) {
      const glm::mat3& k = map.flips[size_t(j)];
      EXPECT_NEAR(glm::determinant(k), -1.0f, 1e-5f);
      const glm::mat3 kk = k * glm::transpose(k);
      for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) EXPECT_NEAR(kk[c][r], c == r ? 1.0f : 0.0f, 1e-5f);
      }
      const glm::mat3& partner = map.flips[size_t(map.counterpart[size_t(j)])];
      for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) EXPECT_NEAR(partner[c][r], k[r][c], 1e-6f);
      }
    }
  }
}

TEST(MirrorPose, MirroringTwiceGivesThePoseBack) {
  for (const Case& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const ik::MirrorMap map = ik::BuildMirrorMap(rig.skeleton, ik::DetectLimbs(rig.skeleton));
    for (unsigned seed = 1; seed <= 20; ++seed) {
      const ik::Pose pose = RandomPose(rig.skeleton, seed);
      ik::Pose once, twice;
      ik::MirrorPose(map, rig.skeleton, pose, &once);
      ik::MirrorPose(map, rig.skeleton, once, &twice);
      EXPECT_LT(PoseDifference(pose, twice), 1e-5f) << "seed " << seed;
      EXPECT_GT(PoseDifference(pose, once), 0.1f) << "seed " << seed;  // it did mirror
    }
  }
}

TEST(MirrorPose, ASymmetricRestPoseIsItsOwnMirrorImage) {
  for (const Case& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    // Under the armature the root stands off the plane (at x = 0.3, the hips shifted back into
    // it): a mirror image has it at -0.3, so its local transforms cannot stay; where its joints
    // land is checked below.
    if (std::string(rig.name) == "mixamo under an armature") continue;
    const ik::MirrorMap map = ik::BuildMirrorMap(rig.skeleton, ik::DetectLimbs(rig.skeleton));
    const ik::Pose rest = ik::Pose::Rest(rig.skeleton);
    ik::Pose mirrored;
    ik::MirrorPose(map, rig.skeleton, rest, &mirrored);
    EXPECT_LT(PoseDifference(rest, mirrored), 1e-4f);
  }
}

TEST(MirrorPose, EachJointGoesWhereItsCounterpartsReflectionWas) {
  for (const Case& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const ik::MirrorMap map = ik::BuildMirrorMap(rig.skeleton, ik::DetectLimbs(rig.skeleton));
    const ik::Pose pose = RandomPose(rig.skeleton, 7);
    ik::Pose mirrored;
    ik::MirrorPose(map, rig.skeleton, pose, &mirrored);
    std::vector<glm::mat4> before, after;
    ik::LocalToModel(rig.skeleton, pose, &before);
    ik::LocalToModel(rig.skeleton, mirrored, &after);
    for (int j = 0; j < rig.skeleton.joint_count(); ++j) {
      const int m = map.counterpart[size_t(j)];
      const glm::vec3 expected = map.MirrorPoint(glm::vec3(before[size_t(m)][3]));
      const glm::vec3 got(after[size_t(j)][3]);
      EXPECT_LT(glm::length(got - expected), 2e-5f) << rig.skeleton.name(j);
      // Each bone turns the mirror image of its counterpart's way: the model frame is the
      // reflection of the counterpart's, taken through the rest flip.
      const glm::mat3 frame_m = glm::mat3(before[size_t(m)]);
      const glm::mat3 reflection =
          glm::mat3(1.0f) - 2.0f * glm::outerProduct(map.normal, map.normal);
      const glm::mat3 expected_frame = reflection * frame_m * glm::transpose(map.flips[size_t(j)]);
      const glm::mat3 frame_j = glm::mat3(after[size_t(j)]);
      for (int c = 0; c < 3; ++c) {
        EXPECT_LT(glm::length(frame_j[c] - expected_frame[c]), 1e-4f * glm::length(frame_j[c]))
            << rig.skeleton.name(j);
      }
    }
  }
}

TEST(MirrorPose, ReflectsAcrossAPlaneAwayFromTheOrigin) {
  // The rig stands at x = 0.3: the plane goes through it, not through the origin.
  const ik::Skeleton base = iktest::MakeMixamoRig().skeleton;
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < base.joint_count(); ++j) {
    ik::JointDesc d;
    d.name = base.name(j);
    d.parent = base.parent(j);
    d.rest = base.rest_locals()[size_t(j)];
    if (d.parent < 0) d.rest.translation.x += 0.3f;
    joints.push_back(d);
  }
  std::string error;
  const ik::Skeleton skeleton = *ik::Skeleton::Build(joints, &error);
  const ik::MirrorMap map = ik::BuildMirrorMap(skeleton, ik::DetectLimbs(skeleton));
  ASSERT_TRUE(map.found_plane);
  EXPECT_EQ(map.normal, glm::vec3(1.0f, 0.0f, 0.0f));
  EXPECT_NEAR(map.offset, 0.3f, 1e-6f);
  EXPECT_EQ(map.pairs_by_name, 29);
  ik::Pose mirrored;
  ik::MirrorPose(map, skeleton, ik::Pose::Rest(skeleton), &mirrored);
  EXPECT_LT(PoseDifference(ik::Pose::Rest(skeleton), mirrored), 1e-5f);
}

TEST(BuildMirrorMap, AnEmptySkeletonGivesAnEmptyMap) {
  const ik::MirrorMap map = ik::BuildMirrorMap(ik::Skeleton(), {});
  EXPECT_TRUE(map.empty());
  ik::Pose pose;
  ik::MirrorPose(map, ik::Skeleton(), pose, &pose);  // nothing to do, nothing broken
  EXPECT_TRUE(pose.locals.empty());
}

TEST(BuildMirrorMap, ARigWithoutPairsMirrorsInPlaceAndStillRoundTrips) {
  // A chain bent to one side: no names, no mirror images.
  std::vector<ik::JointDesc> joints(4);
  for (int j = 0; j < 4; ++j) {
    joints[size_t(j)].name = "bone" + std::to_string(j);
    joints[size_t(j)].parent = j - 1;
    joints[size_t(j)].rest.translation = j == 0 ? glm::vec3(0.2f, 0, 0) : glm::vec3(0.1f, 0.3f, 0);
    joints[size_t(j)].rest.rotation = glm::angleAxis(0.3f * float(j), glm::vec3(0, 0, 1));
  }
  std::string error;
  const ik::Skeleton skeleton = *ik::Skeleton::Build(joints, &error);
  const ik::MirrorMap map = ik::BuildMirrorMap(skeleton, {});
  EXPECT_FALSE(map.found_plane);
  EXPECT_EQ(map.pair_count(), 0);
  const ik::Pose pose = RandomPose(skeleton, 3);
  ik::Pose once, twice;
  ik::MirrorPose(map, skeleton, pose, &once);
  ik::MirrorPose(map, skeleton, once, &twice);
  EXPECT_LT(PoseDifference(pose, twice), 1e-5f);
}

}  // namespace
