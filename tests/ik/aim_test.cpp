// Points-at (aim): exact pointing on random rigs, the up reference, spreading over ancestors,
// weight, joint limits (cone edge, hinge, never exceeded), the seed's calf-points-at-ankle example,
// and every degenerate input.
#include "ik/chains/aim.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"
#include "tests/ik/humanoid_rig.h"
#include "tests/ik/ik_test_util.h"
#include "tests/ik/limit_check.h"

namespace {

using iktest::AngleBetween;
using iktest::Position;
using iktest::RandomRotation;
using iktest::RandomUnit;
using iktest::Uniform;

constexpr double kExact = 1e-5;  // radians: "aim exact" in the issue

// One workspace for every solve of the test program: solves reuse it.
ik::AimWorkspace* Workspace() {
  static ik::AimWorkspace workspace;
  return &workspace;
}

double AngleBetweenRotations(const glm::quat& a, const glm::quat& b) {
  const glm::dquat d = glm::conjugate(glm::dquat(a)) * glm::dquat(b);
  return 2.0 * std::atan2(std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z), std::abs(d.w));
}

// The bone's direction in model space: from `joint` to `child`.
glm::vec3 BoneModel(const std::vector<glm::mat4>& models, int joint, int child) {
  return Position(models, child) - Position(models, joint);
}

// Random rig root -> start -> mid -> end with random (possibly mirrored) scales; the test aims
// `start` (whose bone runs to `mid`) or `mid` (to `end`).
TEST(Aim, UnconstrainedAimIsExactOnRandomRigs) {
  std::mt19937 rng(201);
  for (int i = 0; i < 5000; ++i) {
    iktest::ChainRig rig = iktest::RandomChainRig(rng);
    const int joint = 1 + i % 2;
    // A non-uniform scale of the joint's own (a local correction acts before it).
    if (i % 3 == 0) rig.pose.locals[joint].scale = glm::vec3(0.5f, 1.7f, 1.1f);
    ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
    const glm::vec3 origin = Position(rig.models, joint);
    const glm::vec3 target = origin + RandomUnit(rng) * Uniform(rng, 0.01f, 5.0f);
    const std::vector<glm::mat4> before = rig.models;
    const float length_before = glm::length(BoneModel(rig.models, joint, joint + 1));
    const ik::AimResult r = ik::SolveAimPose(rig.skeleton, joint, target, {}, nullptr, &rig.pose,
                                             &rig.models, Workspace());
    ASSERT_FALSE(r.degenerate) << i;
    const glm::vec3 bone = BoneModel(rig.models, joint, joint + 1);
    ASSERT_LE(AngleBetween(bone, target - origin), kExact) << i;
    ASSERT_LE(r.angle_after, 1e-5f) << i;
    ASSERT_TRUE(r.reached);
    ASSERT_NEAR(r.angle_before, AngleBetween(BoneModel(before, joint, joint + 1), target - origin),
                1e-4)
        << i;
    // Rotations only, about the joint: the joint stays, the bone keeps its length (the frames
    // above are similarities), and nothing above the joint moves.
    ASSERT_LE(glm::length(Position(rig.models, joint) - origin), 1e-6f);
    ASSERT_NEAR(glm::length(bone), length_before, 1e-5f * length_before);
    for (int j = 0; j < joint; ++j) ASSERT_EQ(rig.models[j], before[j]);
  }
}

TEST(Aim, TheTurnIsMinimalWithoutAnUpReference) {
  std::mt19937 rng(202);
  for (int i = 0; i < 2000; ++i) {
    iktest::ChainRig rig = iktest::RandomChainRig(rng, false);
    const glm::quat before = rig.pose.locals[2].rotation;
    const glm::vec3 target = Position(rig.models, 2) + RandomUnit(rng);
    const ik::AimResult r =
        ik::SolveAimPose(rig.skeleton, 2, target, {}, nullptr, &rig.pose, &rig.models, Workspace());
    ASSERT_FALSE(r.degenerate);
    // The local turn is exactly the angle the bone had to move: no roll added.
    if (r.angle_before < 3.1f) {
      ASSERT_NEAR(AngleBetweenRotations(before, rig.pose.locals[2].rotation), r.angle_before, 1e-4)
          << i;
    }
  }
}

TEST(Aim, AGivenAxisIsWhatPoints) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const int head = h.Joint("Head");
  ik::AimOptions options;
  options.axis_local = glm::vec3(0.0f, 0.0f, 2.0f);  // the head's local +Z: its "face"
  const glm::vec3 target(0.5f, 1.8f, 1.0f);
  const ik::AimResult r =
      ik::SolveAimPose(h.skeleton, head, target, options, nullptr, &h.pose, &h.models, Workspace());
  ASSERT_FALSE(r.degenerate);
  const glm::vec3 face = glm::mat3(h.models[head]) * glm::vec3(0, 0, 1);
  EXPECT_LE(AngleBetween(face, target - Position(h.models, head)), kExact);
  EXPECT_LE(AngleBetween(r.axis_after_model, face), kExact);
}

TEST(Aim, UpTargetKeepsTheUpAxisInThePlaneOfTheUpTarget) {
  std::mt19937 rng(203);
  for (int i = 0; i < 2000; ++i) {
    iktest::ChainRig rig = iktest::RandomChainRig(rng);
    const glm::vec3 origin = Position(rig.models, 2);
    const glm::vec3 target = origin + RandomUnit(rng) * Uniform(rng, 0.1f, 3.0f);
    ik::AimOptions options;
    options.up_local = RandomUnit(rng);
    if (i % 2 == 0) {
      options.up_target_model = origin + RandomUnit(rng) * Uniform(rng, 0.1f, 3.0f);
    } else {
      options.up_direction_model = RandomUnit(rng);
    }
    const glm::vec3 up_reference =
        options.up_target_model ? *options.up_target_model - origin : *options.up_direction_model;
    const ik::AimResult r = ik::SolveAimPose(rig.skeleton, 2, target, options, nullptr, &rig.pose,
                                             &rig.models, Workspace());
    ASSERT_FALSE(r.degenerate);
    const glm::vec3 aim = glm::normalize(target - origin);
    ASSERT_LE(AngleBetween(BoneModel(rig.models, 2, 3), aim), kExact) << i;
    if (r.fallback == ik::AimFallback::kUpColinear) continue;
    // The up axis, with its part along the aim removed, points where the reference's does.
    const glm::vec3 up = glm::mat3(rig.models[2]) * *options.up_local;
    const glm::vec3 up_perp = up - glm::dot(up, aim) * aim;
    const glm::vec3 ref_perp = up_reference - glm::dot(up_reference, aim) * aim;
    ASSERT_LE(AngleBetween(up_perp, ref_perp), 1e-3) << i;
  }
}

// A spine-like chain: five joints straight up, each bone 0.2 long, the head bone pointing up.
iktest::ChainRig Spine() {
  std::vector<ik::JointDesc> joints;
  joints.push_back({"hips", -1, ik::Transform{}, {}});
  for (int i = 1; i < 6; ++i) {
    ik::Transform t;
    t.translation = glm::vec3(0.0f, 0.2f, 0.0f);
    t.rotation = glm::angleAxis(0.05f * i, glm::normalize(glm::vec3(1, 0, 1)));
    joints.push_back({"j" + std::to_string(i), i - 1, t, {}});
  }
  iktest::ChainRig rig;
  rig.skeleton = iktest::MustBuild(std::move(joints));
  rig.pose = ik::Pose::Rest(rig.skeleton);
  ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
  return rig;
}

TEST(Aim, SpreadTurnsTheAncestorsByDecreasingAmountsAndStillPointsExactly) {
  for (float falloff : {0.5f, 0.8f}) {
    iktest::ChainRig rig = Spine();
    const int head = 4;  // bone to j5; ancestors 3, 2, 1
    const std::vector<glm::quat> before = {rig.pose.locals[1].rotation, rig.pose.locals[2].rotation,
                                           rig.pose.locals[3].rotation,
                                           rig.pose.locals[4].rotation};
    ik::AimOptions options;
    options.spread = 3;
    options.spread_falloff = falloff;
    const glm::vec3 target(3.0f, 1.2f, 2.0f);  // far to the side: a big turn
    const ik::AimResult r = ik::SolveAimPose(rig.skeleton, head, target, options, nullptr,
                                             &rig.pose, &rig.models, Workspace());
    ASSERT_FALSE(r.degenerate);
    EXPECT_EQ(r.joints_turned, 4);
    EXPECT_EQ(r.top_joint, 1);
    EXPECT_LE(AngleBetween(BoneModel(rig.models, head, 5), target - Position(rig.models, head)),
              kExact);
    double turn[4];
    for (int k = 0; k < 4; ++k) {
      turn[k] = AngleBetweenRotations(before[k], rig.pose.locals[1 + k].rotation);
    }
    // turn[3] is the head itself, turn[0] the topmost ancestor.
    EXPECT_GT(turn[3], turn[2]) << falloff;
    EXPECT_GT(turn[2], turn[1]) << falloff;
    EXPECT_GT(turn[1], turn[0]) << falloff;
    EXPECT_GT(turn[0], 0.02) << falloff;
    // With falloff 0.5 the topmost takes about 1/15 of the turn (shares 1 : .5 : .25 : .125).
    if (falloff == 0.5f) {
      EXPECT_NEAR(turn[0] / static_cast<double>(r.angle_before), 0.125 / 1.875, 0.02);
    }
    EXPECT_EQ(rig.pose.locals[0].rotation, glm::quat(1, 0, 0, 0));  // below the spread: untouched
  }
}

TEST(Aim, WeightZeroChangesNothingAndHalfTurnsPartWay) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const int arm = h.Joint("LeftArm");
  const glm::vec3 target(0.8f, 1.6f, 0.4f);
  ik::AimOptions options;
  options.weight = 0.0f;
  const std::vector<glm::mat4> before = h.models;
  ik::AimResult r =
      ik::SolveAimPose(h.skeleton, arm, target, options, nullptr, &h.pose, &h.models, Workspace());
  ASSERT_FALSE(r.degenerate);
  EXPECT_EQ(h.models, before);
  EXPECT_FALSE(r.reached);
  options.weight = 0.5f;
  r = ik::SolveAimPose(h.skeleton, arm, target, options, nullptr, &h.pose, &h.models, Workspace());
  EXPECT_GT(r.angle_after, 0.3f * r.angle_before);
  EXPECT_LT(r.angle_after, 0.7f * r.angle_before);
}

TEST(Aim, ConeLimitStopsTheBoneAtTheConeEdge) {
  std::mt19937 rng(204);
  for (int i = 0; i < 1000; ++i) {
    iktest::ChainRig rig = iktest::RandomChainRig(rng);
    const int joint = 2;
    const auto bone_local = ik::BoneAxisLocal(rig.skeleton, joint);
    ASSERT_TRUE(bone_local.has_value());
    const float cone = Uniform(rng, 0.1f, 1.2f);
    ik::JointLimits limits;
    limits.Set(joint, ik::JointLimit::Cone(*bone_local, cone));
    const glm::vec3 origin = Position(rig.models, joint);
    const glm::vec3 rest_dir = BoneModel(rig.models, joint, 3);  // the rig is at rest
    const glm::vec3 target = origin + RandomUnit(rng) * Uniform(rng, 0.2f, 2.0f);
    const double wanted = AngleBetween(rest_dir, target - origin);
    const ik::AimResult r = ik::SolveAimPose(rig.skeleton, joint, target, {}, &limits, &rig.pose,
                                             &rig.models, Workspace());
    ASSERT_FALSE(r.degenerate);
    const glm::vec3 bone = BoneModel(rig.models, joint, 3);
    const double cone_angle = static_cast<double>(cone);
    if (wanted <= cone_angle - 1e-4) {
      ASSERT_LE(AngleBetween(bone, target - origin), kExact) << i;
      ASSERT_FALSE(r.limited);
    } else if (wanted >= cone_angle + 1e-4 && wanted < 3.1) {
      ASSERT_TRUE(r.limited);
      ASSERT_NEAR(AngleBetween(rest_dir, bone), cone_angle, 1e-4) << i;
      ASSERT_NEAR(AngleBetween(bone, target - origin), wanted - cone_angle, 2e-4) << i;
      ASSERT_NEAR(r.angle_after, wanted - cone_angle, 2e-4);
    }
    ASSERT_TRUE(ik::WithinLimit(*limits.Find(joint), rig.skeleton.rest_locals()[joint].rotation,
                                rig.pose.locals[joint].rotation));
  }
}

TEST(Aim, HingeLimitAimsAsNearAsTheHingeAllows) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const int knee = h.Joint("LeftLeg");
  ik::JointLimits limits;
  const ik::JointLimit hinge = ik::JointLimit::Hinge(glm::vec3(1, 0, 0), -0.1f, 2.4f);
  limits.Set(knee, hinge);
  const glm::quat rest = h.skeleton.rest_locals()[knee].rotation;
  std::mt19937 rng(205);
  for (int i = 0; i < 200; ++i) {
    iktest::Humanoid rig = h;
    const glm::vec3 origin = Position(rig.models, knee);
    const glm::vec3 target = origin + RandomUnit(rng) * 0.4f;
    const ik::AimResult r = ik::SolveAimPose(rig.skeleton, knee, target, {}, &limits, &rig.pose,
                                             &rig.models, Workspace());
    ASSERT_FALSE(r.degenerate);
    ASSERT_TRUE(ik::WithinLimit(hinge, rest, rig.pose.locals[knee].rotation)) << i;
    // Brute force over the hinge's range: nothing allowed points nearer.
    double best = 10.0;
    iktest::Humanoid probe = h;
    for (int k = 0; k <= 500; ++k) {
      const float angle = hinge.min_angle + (hinge.max_angle - hinge.min_angle) * k / 500.0f;
      probe.pose.locals[knee].rotation = rest * glm::angleAxis(angle, glm::vec3(1, 0, 0));
      ik::LocalToModelFrom(probe.skeleton, probe.pose, knee, &probe.models);
      best = std::min(best, AngleBetween(BoneModel(probe.models, knee, knee + 1), target - origin));
    }
    ASSERT_LE(AngleBetween(BoneModel(rig.models, knee, knee + 1), target - origin), best + 1e-3)
        << i;
  }
}

TEST(Aim, LimitsAreNeverExceededWithSpreadWeightAndUp) {
  std::mt19937 rng(206);
  const iktest::Humanoid h = iktest::MakeHumanoid();
  const int head = h.Joint("Head");
  for (int i = 0; i < 1000; ++i) {
    iktest::Humanoid rig = h;
    // Random animated start pose of the spine.
    for (int j = 1; j <= head; ++j) {
      rig.pose.locals[j].rotation = glm::normalize(
          rig.pose.locals[j].rotation * glm::angleAxis(Uniform(rng, -0.5f, 0.5f), RandomUnit(rng)));
    }
    ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
    ik::JointLimits limits;
    for (int j = 1; j <= head; ++j) {
      if (Uniform(rng, 0, 1) < 0.5f) {
        limits.Set(j, ik::JointLimit::Cone(glm::vec3(0, 1, 0), Uniform(rng, 0.05f, 0.8f),
                                           -Uniform(rng, 0.0f, 0.5f), Uniform(rng, 0.0f, 0.5f)));
      } else {
        limits.Set(j, ik::JointLimit::Hinge(RandomUnit(rng), -Uniform(rng, 0.0f, 1.0f),
                                            Uniform(rng, 0.0f, 1.0f)));
      }
    }
    ik::AimOptions options;
    options.axis_local = glm::vec3(0, 0, 1);
    options.spread = 1 + i % 4;
    options.weight = Uniform(rng, 0.3f, 1.0f);
    if (i % 2) options.up_direction_model = glm::vec3(0, 1, 0);
    const glm::vec3 target = Position(rig.models, head) + RandomUnit(rng) * 2.0f;
    const ik::AimResult r = ik::SolveAimPose(rig.skeleton, head, target, options, &limits,
                                             &rig.pose, &rig.models, Workspace());
    ASSERT_FALSE(r.degenerate);
    // Every turned joint ends within its limit (the others may start outside: untouched).
    ASSERT_EQ(r.joints_turned, std::min(options.spread, 4) + 1);
    for (int j = r.top_joint; j <= head; ++j) {
      ASSERT_EQ(iktest::LimitViolation(*limits.Find(j), rig.skeleton.rest_locals()[j].rotation,
                                       rig.pose.locals[j].rotation),
                "")
          << i << " joint " << j;
    }
  }
}

// The seed's example: the left calf points at the right ankle, solved in the calf's own frame.
TEST(Aim, SeedExampleLeftCalfPointsAtRightAnkle) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const int calf = h.Joint("LeftLeg");
  const int left_ankle = h.Joint("LeftFoot");
  const int right_ankle = h.Joint("RightFoot");
  const std::vector<glm::mat4> before = h.models;
  const ik::AimResult r = ik::SolveAimPoseAtJoint(h.skeleton, calf, right_ankle, {}, nullptr,
                                                  &h.pose, &h.models, Workspace());
  ASSERT_FALSE(r.degenerate);
  EXPECT_EQ(r.fallback, ik::AimFallback::kNone);
  EXPECT_TRUE(r.reached);
  const glm::vec3 knee = Position(h.models, calf);
  EXPECT_LE(
      AngleBetween(Position(h.models, left_ankle) - knee, Position(h.models, right_ankle) - knee),
      kExact);
  EXPECT_GT(r.angle_before, 0.1f);  // it really had to turn
  // Only the left calf's subtree moved, and the knee stayed.
  for (int j = 0; j < h.skeleton.joint_count(); ++j) {
    if (h.skeleton.IsAncestorOrSelf(calf, j)) continue;
    EXPECT_EQ(h.models[j], before[j]) << h.skeleton.name(j);
  }
  EXPECT_LE(glm::length(knee - Position(before, calf)), 1e-6f);
  // The same through the job-level function, in the calf's frame.
  iktest::Humanoid again = iktest::MakeHumanoid();
  const glm::mat4 frame = again.models[calf];
  const glm::vec3 axis = glm::inverse(glm::mat3(frame)) *
                         (Position(again.models, left_ankle) - Position(again.models, calf));
  const glm::quat c = ik::AimCorrection(frame, axis, Position(again.models, right_ankle));
  EXPECT_LE(
      AngleBetweenRotations(again.pose.locals[calf].rotation * c, h.pose.locals[calf].rotation),
      1e-5);
}

TEST(Aim, TargetStraightBehindTurnsHalfWayRoundAndStillPoints) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const int calf = h.Joint("LeftLeg");
  const glm::vec3 knee = Position(h.models, calf);
  const glm::vec3 behind = knee - 2.0f * BoneModel(h.models, calf, calf + 1);
  ik::AimOptions options;
  options.up_local = glm::vec3(1, 0, 0);
  const ik::AimResult r =
      ik::SolveAimPose(h.skeleton, calf, behind, options, nullptr, &h.pose, &h.models, Workspace());
  EXPECT_EQ(r.fallback, ik::AimFallback::kAntiparallel);
  EXPECT_NEAR(r.angle_before, ik::kPi, 1e-3f);
  EXPECT_LE(AngleBetween(BoneModel(h.models, calf, calf + 1), behind - knee), kExact);
  // Turned about the up axis (local x), which therefore stayed put.
  const glm::vec3 x_before = glm::mat3(iktest::MakeHumanoid().models[calf]) * glm::vec3(1, 0, 0);
  EXPECT_LE(AngleBetween(glm::mat3(h.models[calf]) * glm::vec3(1, 0, 0), x_before), 1e-4);
}

// --- Extreme finite inputs: every finite target, up reference and rig scale has a direction --

// The angle between two directions of any finite magnitude, in double.
double AngleD(const glm::dvec3& a, const glm::dvec3& b) {
  const glm::dvec3 u = a / std::max(std::abs(a.x), std::max(std::abs(a.y), std::abs(a.z)));
  const glm::dvec3 v = b / std::max(std::abs(b.x), std::max(std::abs(b.y), std::abs(b.z)));
  return std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v));
}

TEST(AimExtreme, TargetsAtAnyFiniteDistanceAreAimedAtAndReached) {
  const float denormal = 1e-40f;
  for (const glm::vec3& target : {glm::vec3(1e20f, 0.0f, 1e20f), glm::vec3(-3e38f, 3e38f, 0.0f),
                                  glm::vec3(3e38f, -3e38f, 3e38f), glm::vec3(1e-30f, 0.0f, 0.0f),
                                  glm::vec3(denormal, denormal, 0.0f), glm::vec3(0.0f)}) {
    for (int spread : {0, 2}) {
      iktest::Humanoid h = iktest::MakeHumanoid();
      const int calf = h.Joint("LeftLeg"), ankle = h.Joint("LeftFoot");
      ik::AimOptions options;
      options.spread = spread;
      const ik::AimResult r = ik::SolveAimPose(h.skeleton, calf, target, options, nullptr, &h.pose,
                                               &h.models, Workspace());
      const std::string what = std::to_string(target.x) + " spread " + std::to_string(spread);
      EXPECT_FALSE(r.degenerate) << what;
      EXPECT_EQ(r.fallback, ik::AimFallback::kNone) << what;
      EXPECT_TRUE(r.reached) << what;
      EXPECT_TRUE(std::isfinite(r.angle_before) && std::isfinite(r.angle_after)) << what;
      // Measured independently: the calf points at the target.
      const glm::dvec3 origin(Position(h.models, calf));
      const glm::dvec3 bone = glm::dvec3(Position(h.models, ankle)) - origin;
      EXPECT_LE(AngleD(bone, glm::dvec3(target) - origin), 1e-5) << what;
      EXPECT_NEAR(static_cast<double>(r.angle_after), AngleD(bone, glm::dvec3(target) - origin),
                  1e-5)
          << what;
    }
  }
}

TEST(AimExtreme, UpReferencesAtAnyFiniteDistanceTwistTheBone) {
  for (float distance : {1e-30f, 1.0f, 1e20f, 3e38f}) {
    for (bool as_target : {true, false}) {
      iktest::Humanoid h = iktest::MakeHumanoid();
      const int calf = h.Joint("LeftLeg"), ankle = h.Joint("LeftFoot");
      const glm::vec3 origin = Position(h.models, calf);
      const glm::vec3 target = origin + glm::vec3(0.3f, -0.3f, 0.2f);
      ik::AimOptions options;
      options.up_local = glm::vec3(0, 0, 1);
      const glm::vec3 up_dir = glm::normalize(glm::vec3(1.0f, 0.5f, -0.2f));
      if (as_target) {
        options.up_target_model = up_dir * distance;  // seen from the calf: about along up_dir
      } else {
        options.up_direction_model = up_dir * distance;
      }
      const ik::AimResult r = ik::SolveAimPose(h.skeleton, calf, target, options, nullptr, &h.pose,
                                               &h.models, Workspace());
      const std::string what = std::to_string(distance) + (as_target ? " target" : " direction");
      EXPECT_FALSE(r.degenerate) << what;
      if (as_target && distance < 1.0f) continue;  // the up target sits near the origin: any side
      EXPECT_EQ(r.fallback, ik::AimFallback::kNone) << what;
      EXPECT_TRUE(r.reached) << what;
      const glm::dvec3 aim =
          glm::normalize(glm::dvec3(Position(h.models, ankle)) - glm::dvec3(origin));
      const glm::dvec3 up = glm::dmat3(glm::mat3(h.models[calf])) * glm::dvec3(0, 0, 1);
      const glm::dvec3 ref = as_target ? glm::dvec3(*options.up_target_model) - glm::dvec3(origin)
                                       : glm::dvec3(*options.up_direction_model);
      EXPECT_LE(AngleD(up - glm::dot(up, aim) * aim, ref - glm::dot(ref, aim) * aim), 1e-3) << what;
    }
  }
}

TEST(AimExtreme, HugeAndTinyRigsAimExactly) {
  std::mt19937 rng(231);
  for (float scale : {1e-30f, 1e-20f, 1e20f, 1e30f}) {
    for (int i = 0; i < 100; ++i) {
      iktest::ChainRig rig = iktest::RandomChainRig(rng);
      ik::Transform& root = rig.pose.locals[0];
      root.scale *= scale;
      root.translation *= scale;
      ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
      const int joint = 1 + i % 2;
      const glm::vec3 origin = Position(rig.models, joint);
      const glm::vec3 target = origin + RandomUnit(rng) * (scale * Uniform(rng, 0.1f, 5.0f));
      const ik::AimResult r = ik::SolveAimPose(rig.skeleton, joint, target, {}, nullptr, &rig.pose,
                                               &rig.models, Workspace());
      const std::string what = std::to_string(scale) + " #" + std::to_string(i);
      ASSERT_FALSE(r.degenerate) << what;
      ASSERT_EQ(r.fallback, ik::AimFallback::kNone) << what;
      ASSERT_TRUE(r.reached) << what;
      const glm::dvec3 o(Position(rig.models, joint));
      const glm::dvec3 bone = glm::dvec3(Position(rig.models, joint + 1)) - o;
      ASSERT_LE(AngleD(bone, glm::dvec3(target) - o), 1e-4) << what;
    }
  }
}

TEST(AimDegenerate, NonFiniteInputLeavesThePoseAndModelsUnchanged) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const int calf = h.Joint("LeftLeg");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const ik::Pose pose_before = h.pose;
  const std::vector<glm::mat4> models_before = h.models;
  for (const glm::vec3& target : {glm::vec3(nan, 0, 0), glm::vec3(0, inf, 0)}) {
    const ik::AimResult r =
        ik::SolveAimPose(h.skeleton, calf, target, {}, nullptr, &h.pose, &h.models, Workspace());
    EXPECT_TRUE(r.degenerate);
    EXPECT_EQ(r.fallback, ik::AimFallback::kNonFiniteInput);
    EXPECT_TRUE(std::isfinite(r.angle_after));
    EXPECT_TRUE(ik::IsFinite(r.target_model));
  }
  h.pose.locals[calf].rotation.x = nan;
  const ik::AimResult r = ik::SolveAimPose(h.skeleton, calf, glm::vec3(1, 0, 0), {}, nullptr,
                                           &h.pose, &h.models, Workspace());
  EXPECT_EQ(r.fallback, ik::AimFallback::kNonFiniteInput);
  h.pose.locals[calf].rotation = pose_before.locals[calf].rotation;
  for (size_t j = 0; j < h.pose.locals.size(); ++j) {
    EXPECT_EQ(h.pose.locals[j].rotation, pose_before.locals[j].rotation);
  }
  EXPECT_EQ(h.models, models_before);
}

TEST(AimDegenerate, TargetAtTheJointTurnsNothing) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const int calf = h.Joint("LeftLeg");
  const std::vector<glm::mat4> before = h.models;
  const ik::AimResult r = ik::SolveAimPose(h.skeleton, calf, Position(h.models, calf), {}, nullptr,
                                           &h.pose, &h.models, Workspace());
  EXPECT_FALSE(r.degenerate);
  EXPECT_EQ(r.fallback, ik::AimFallback::kTargetAtJoint);
  EXPECT_FALSE(r.reached);
  EXPECT_EQ(h.models, before);
}

TEST(AimDegenerate, ZeroLengthBoneHasNoAxisAndALeafContinuesItsParentsBone) {
  // root -> a -> b, with b at a's position: a's bone has no direction.
  ik::Transform at_origin;
  ik::Transform up;
  up.translation = glm::vec3(0, 1, 0);
  iktest::ChainRig rig;
  rig.skeleton =
      iktest::MustBuild({{"root", -1, {}, {}}, {"a", 0, up, {}}, {"b", 1, at_origin, {}}});
  rig.pose = ik::Pose::Rest(rig.skeleton);
  ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
  const std::vector<glm::mat4> before = rig.models;
  ik::AimResult r = ik::SolveAimPose(rig.skeleton, 1, glm::vec3(1, 1, 0), {}, nullptr, &rig.pose,
                                     &rig.models, Workspace());
  // `b` sits at `a`: BoneChild skips it, so `a` is a leaf and continues root -> a (up).
  EXPECT_FALSE(r.degenerate);
  EXPECT_NEAR(r.angle_before, 1.5708f, 1e-4f);
  EXPECT_LE(r.angle_after, 1e-5f);
  // Asking for that zero-length child explicitly: no axis, nothing turned.
  rig.pose = ik::Pose::Rest(rig.skeleton);
  ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
  ik::AimOptions options;
  options.axis_child = 2;
  r = ik::SolveAimPose(rig.skeleton, 1, glm::vec3(1, 1, 0), options, nullptr, &rig.pose,
                       &rig.models, Workspace());
  EXPECT_EQ(r.fallback, ik::AimFallback::kNoAxis);
  EXPECT_EQ(rig.models, before);
}

TEST(AimDegenerate, InvalidJointsOptionsAndMovingTargetsAreRefused) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const std::vector<glm::mat4> before = h.models;
  const glm::vec3 t(1, 1, 1);
  EXPECT_EQ(ik::SolveAimPose(h.skeleton, 3, t, {}, nullptr, &h.pose, &h.models, nullptr).fallback,
            ik::AimFallback::kInvalidJoint);
  EXPECT_EQ(
      ik::SolveAimPose(h.skeleton, 99, t, {}, nullptr, &h.pose, &h.models, Workspace()).fallback,
      ik::AimFallback::kInvalidJoint);
  EXPECT_EQ(
      ik::SolveAimPose(h.skeleton, 3, t, {}, nullptr, nullptr, &h.models, Workspace()).fallback,
      ik::AimFallback::kInvalidJoint);
  ik::AimOptions bad;
  bad.weight = 2.0f;
  std::string why;
  EXPECT_FALSE(bad.Validate(&why));
  EXPECT_NE(why.find("weight"), std::string::npos);
  EXPECT_EQ(
      ik::SolveAimPose(h.skeleton, 3, t, bad, nullptr, &h.pose, &h.models, Workspace()).fallback,
      ik::AimFallback::kInvalidOptions);
  bad = {};
  bad.up_target_model = t;
  bad.up_direction_model = t;
  EXPECT_FALSE(bad.Validate());
  bad = {};
  bad.axis_child = h.Joint("RightFoot");  // not below LeftLeg
  EXPECT_EQ(ik::SolveAimPose(h.skeleton, h.Joint("LeftLeg"), t, bad, nullptr, &h.pose, &h.models,
                             Workspace())
                .fallback,
            ik::AimFallback::kInvalidOptions);
  ik::JointLimits bad_limits;
  bad_limits.Set(3, ik::JointLimit::Cone(glm::vec3(0.0f), 1.0f));
  EXPECT_EQ(
      ik::SolveAimPose(h.skeleton, 3, t, {}, &bad_limits, &h.pose, &h.models, Workspace()).fallback,
      ik::AimFallback::kInvalidOptions);
  // A target joint that would move with the bone.
  EXPECT_EQ(ik::SolveAimPoseAtJoint(h.skeleton, h.Joint("LeftLeg"), h.Joint("LeftToeBase"), {},
                                    nullptr, &h.pose, &h.models, Workspace())
                .fallback,
            ik::AimFallback::kTargetMovesWithBone);
  ik::AimOptions spread;
  spread.spread = 3;  // LeftLeg, LeftUpLeg, Hips: the right foot is below Hips
  EXPECT_EQ(ik::SolveAimPoseAtJoint(h.skeleton, h.Joint("LeftLeg"), h.Joint("RightFoot"), spread,
                                    nullptr, &h.pose, &h.models, Workspace())
                .fallback,
            ik::AimFallback::kTargetMovesWithBone);
  EXPECT_EQ(h.models, before);
  EXPECT_STREQ(ik::AimFallbackName(ik::AimFallback::kTargetMovesWithBone),
               "target_moves_with_bone");
}

TEST(AimDegenerate, AimCorrectionRefusesSingularFramesAndNonFiniteInput) {
  ik::AimFallback f;
  glm::mat4 singular(1.0f);
  singular[2] = glm::vec4(0.0f);
  glm::quat q = ik::AimCorrection(singular, glm::vec3(0, 1, 0), glm::vec3(1, 0, 0), {}, {}, &f);
  EXPECT_EQ(f, ik::AimFallback::kSingularFrame);
  EXPECT_EQ(q, glm::quat(1, 0, 0, 0));
  q = ik::AimCorrection(glm::mat4(1.0f), glm::vec3(0, 1, 0), glm::vec3(NAN, 0, 0), {}, {}, &f);
  EXPECT_EQ(f, ik::AimFallback::kNonFiniteInput);
  EXPECT_EQ(q, glm::quat(1, 0, 0, 0));
}

}  // namespace
