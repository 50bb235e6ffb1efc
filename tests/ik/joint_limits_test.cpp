// Joint limits: clamping (random rotations end within their limits, rotations already within are
// unchanged, nearest ends around the circle), pointing within a hinge, bone axes, the drawn shapes,
// and agreement with the two-bone solver's hinge option.
#include "ik/limits/joint_limits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"
#include "ik/two_bone/two_bone_ik.h"
#include "tests/ik/humanoid_rig.h"
#include "tests/ik/ik_test_util.h"
#include "tests/ik/limit_check.h"

namespace {

using iktest::RandomRotation;
using iktest::RandomUnit;
using iktest::Uniform;

constexpr float kPi = 3.14159265f;

float AngleBetweenRotations(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = glm::conjugate(a) * b;
  return 2.0f * std::atan2(std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z), std::abs(d.w));
}

ik::JointLimit RandomLimit(std::mt19937& rng) {
  if (Uniform(rng, 0, 1) < 0.5f) {
    const float a = Uniform(rng, -kPi, kPi), b = Uniform(rng, -kPi, kPi);
    return ik::JointLimit::Hinge(RandomUnit(rng) * Uniform(rng, 0.5f, 2.0f), std::min(a, b),
                                 std::max(a, b));
  }
  const float a = Uniform(rng, -kPi, kPi), b = Uniform(rng, -kPi, kPi);
  return ik::JointLimit::Cone(RandomUnit(rng) * Uniform(rng, 0.5f, 2.0f), Uniform(rng, 0.0f, kPi),
                              std::min(a, b), std::max(a, b));
}

// The measured angles are inside the limit's ranges (up to `slack` radians).
void ExpectAnglesWithin(const ik::JointLimit& limit, const ik::LimitAngles& a, float slack, int i) {
  if (limit.type == ik::JointLimit::Type::kHinge) {
    EXPECT_LE(a.off_axis, slack) << i;
    EXPECT_GE(a.hinge, limit.min_angle - slack) << i;
    EXPECT_LE(a.hinge, limit.max_angle + slack) << i;
  } else {
    EXPECT_LE(a.swing, limit.cone_angle + slack) << i;
    // A swing of 180° leaves the twist undefined; skip it there.
    if (a.swing < kPi - 1e-2f) {
      EXPECT_GE(a.twist, limit.twist_min - slack) << i;
      EXPECT_LE(a.twist, limit.twist_max + slack) << i;
    }
  }
}

TEST(JointLimits, RandomRotationsClampedAreWithinTheirLimits) {
  std::mt19937 rng(101);
  for (int i = 0; i < 20000; ++i) {
    const ik::JointLimit limit = RandomLimit(rng);
    ASSERT_TRUE(limit.Validate());
    const glm::quat rest = RandomRotation(rng);
    const glm::quat local = RandomRotation(rng);
    const glm::quat clamped = ik::ClampRotation(limit, rest, local);
    ASSERT_NEAR(glm::length(clamped), 1.0f, 1e-5f);
    ASSERT_TRUE(ik::WithinLimit(limit, rest, clamped, 1e-4f)) << i;
    ASSERT_EQ(iktest::LimitViolation(limit, rest, clamped), "") << i;
    ExpectAnglesWithin(limit, ik::MeasureLimitAngles(limit, rest, clamped), 1e-4f, i);
  }
}

TEST(JointLimits, RotationsAlreadyWithinAreUnchanged) {
  std::mt19937 rng(102);
  for (int i = 0; i < 20000; ++i) {
    const ik::JointLimit limit = RandomLimit(rng);
    const glm::quat rest = RandomRotation(rng);
    glm::quat delta;
    if (limit.type == ik::JointLimit::Type::kHinge) {
      const float angle = Uniform(rng, limit.min_angle, limit.max_angle);
      delta = glm::angleAxis(angle, glm::normalize(limit.axis_local));
    } else {
      const glm::vec3 axis = glm::normalize(limit.twist_axis_local);
      const glm::vec3 swing_axis = glm::normalize(glm::cross(axis, RandomUnit(rng)));
      const glm::quat swing = glm::angleAxis(Uniform(rng, 0.0f, limit.cone_angle), swing_axis);
      const glm::quat twist = glm::angleAxis(Uniform(rng, limit.twist_min, limit.twist_max), axis);
      delta = swing * twist;
    }
    const glm::quat local = glm::normalize(rest * delta);
    bool clamped = true;
    const glm::quat out = ik::ClampRotation(limit, rest, local, &clamped);
    // Angles drawn right at a range's end may round to just outside it.
    ASSERT_LE(AngleBetweenRotations(out, local), 2e-4f) << i;
    ASSERT_TRUE(ik::WithinLimit(limit, rest, local, 2e-4f)) << i;
  }
  // Well inside: exactly unchanged and not reported as clamped.
  const ik::JointLimit hinge = ik::JointLimit::Hinge(glm::vec3(0, 0, 1), -1.0f, 1.0f);
  const glm::quat rest = glm::angleAxis(0.3f, glm::vec3(1, 0, 0));
  const glm::quat local = rest * glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  bool clamped = true;
  const glm::quat out = ik::ClampRotation(hinge, rest, local, &clamped);
  EXPECT_FALSE(clamped);
  EXPECT_LE(AngleBetweenRotations(out, local), 1e-6f);
}

TEST(JointLimits, HingeClampGoesToTheNearerEndAroundTheCircle) {
  const ik::JointLimit limit = ik::JointLimit::Hinge(glm::vec3(0, 0, 2), 0.5f, 1.0f);
  const glm::quat rest(1, 0, 0, 0);
  auto clamp = [&](float angle) {
    const glm::quat q = ik::ClampRotation(limit, rest, glm::angleAxis(angle, glm::vec3(0, 0, 1)));
    return ik::MeasureLimitAngles(limit, rest, q).hinge;
  };
  EXPECT_NEAR(clamp(0.2f), 0.5f, 1e-5f);
  EXPECT_NEAR(clamp(0.7f), 0.7f, 1e-5f);
  EXPECT_NEAR(clamp(2.0f), 1.0f, 1e-5f);
  // -3.0 is 2.28 rad from 1.0 going round through ±π, but 3.5 rad from 0.5 the other way.
  EXPECT_NEAR(clamp(-3.0f), 1.0f, 1e-5f);
  EXPECT_NEAR(clamp(-1.0f), 0.5f, 1e-5f);
}

TEST(JointLimits, HingeDropsEveryTurnOffItsAxis) {
  const ik::JointLimit limit = ik::JointLimit::Hinge(glm::vec3(1, 0, 0), -2.0f, 2.0f);
  const glm::quat rest = glm::angleAxis(1.1f, glm::normalize(glm::vec3(1, 2, 3)));
  const glm::quat local =
      rest * glm::angleAxis(0.2f, glm::vec3(0, 1, 0)) * glm::angleAxis(0.6f, glm::vec3(1, 0, 0));
  bool clamped = false;
  const glm::quat out = ik::ClampRotation(limit, rest, local, &clamped);
  EXPECT_TRUE(clamped);
  const ik::LimitAngles a = ik::MeasureLimitAngles(limit, rest, out);
  EXPECT_LE(a.off_axis, 1e-5f);
  EXPECT_NEAR(a.hinge, 0.6f, 1e-2f);
}

TEST(JointLimits, ConeClampMovesTheBoneToTheNearestDirectionInTheCone) {
  std::mt19937 rng(103);
  for (int i = 0; i < 5000; ++i) {
    const glm::vec3 bone = RandomUnit(rng);
    const float cone = Uniform(rng, 0.05f, 2.5f);
    const ik::JointLimit limit = ik::JointLimit::Cone(bone, cone);
    const glm::quat rest = RandomRotation(rng);
    const glm::quat local = RandomRotation(rng);
    const glm::quat out = ik::ClampRotation(limit, rest, local);
    // Directions in the parent's frame: the cone's centre, the wanted one, the result.
    const glm::vec3 centre = ik::Rotate(rest, bone);
    const glm::vec3 wanted = ik::Rotate(local, bone);
    const glm::vec3 got = ik::Rotate(out, bone);
    const double wanted_angle = iktest::AngleBetween(centre, wanted);
    const double cone_angle = static_cast<double>(cone);
    if (wanted_angle <= cone_angle) {
      ASSERT_LE(iktest::AngleBetween(got, wanted), 1e-4) << i;
    } else if (wanted_angle < 3.13) {
      // On the rim, on the great circle from the centre toward the wanted direction.
      ASSERT_NEAR(iktest::AngleBetween(centre, got), cone_angle, 1e-4) << i;
      ASSERT_NEAR(iktest::AngleBetween(got, wanted), wanted_angle - cone_angle, 2e-4) << i;
    }
  }
}

TEST(JointLimits, ClampPointingTakesTheHingeAngleNearestTheWantedDirection) {
  std::mt19937 rng(104);
  for (int i = 0; i < 500; ++i) {
    const glm::vec3 hinge_axis = RandomUnit(rng);
    const float a = Uniform(rng, -kPi, kPi), b = Uniform(rng, -kPi, kPi);
    const ik::JointLimit limit = ik::JointLimit::Hinge(hinge_axis, std::min(a, b), std::max(a, b));
    const glm::vec3 bone = RandomUnit(rng);
    const glm::quat rest = RandomRotation(rng);
    const glm::quat wanted = RandomRotation(rng);
    const glm::quat out = ik::ClampPointing(limit, rest, wanted, bone);
    ASSERT_TRUE(ik::WithinLimit(limit, rest, out));
    const glm::vec3 wanted_dir = ik::Rotate(wanted, bone);
    const double got = iktest::AngleBetween(ik::Rotate(out, bone), wanted_dir);
    // Brute force over the allowed range.
    double best = 10.0;
    for (int k = 0; k <= 2000; ++k) {
      const float angle = limit.min_angle + (limit.max_angle - limit.min_angle) * k / 2000.0f;
      const glm::quat q = rest * glm::angleAxis(angle, hinge_axis);
      best = std::min(best, iktest::AngleBetween(ik::Rotate(q, bone), wanted_dir));
    }
    ASSERT_LE(got, best + 2e-3) << i;
  }
}

TEST(JointLimits, ValidateExplainsBadLimits) {
  std::string why;
  EXPECT_TRUE(ik::JointLimit{}.Validate());
  EXPECT_FALSE(ik::JointLimit::Hinge(glm::vec3(0.0f), -1, 1).Validate(&why));
  EXPECT_NE(why.find("axis"), std::string::npos);
  EXPECT_FALSE(ik::JointLimit::Hinge(glm::vec3(1, 0, 0), 1, -1).Validate(&why));
  EXPECT_FALSE(ik::JointLimit::Hinge(glm::vec3(1, 0, 0), -4, 1).Validate(&why));
  EXPECT_FALSE(ik::JointLimit::Hinge(glm::vec3(NAN, 0, 0), -1, 1).Validate(&why));
  EXPECT_FALSE(ik::JointLimit::Cone(glm::vec3(0, 1, 0), -0.1f).Validate(&why));
  EXPECT_FALSE(ik::JointLimit::Cone(glm::vec3(0, 1, 0), 4.0f).Validate(&why));
  EXPECT_FALSE(ik::JointLimit::Cone(glm::vec3(0, 1, 0), 1.0f, 0.5f, -0.5f).Validate(&why));
  EXPECT_NE(why.find("twist"), std::string::npos);
  EXPECT_STREQ(ik::LimitTypeName(ik::JointLimit::Type::kCone), "cone");
}

TEST(JointLimits, SetFindRemoveAndValidateAgainstTheSkeleton) {
  const iktest::Humanoid h = iktest::MakeHumanoid();
  ik::JointLimits limits;
  EXPECT_TRUE(limits.empty());
  limits.Set(15, ik::JointLimit::Hinge(glm::vec3(1, 0, 0), 0.0f, 2.5f));
  limits.Set(7, ik::JointLimit::Cone(glm::vec3(0, 1, 0), 1.2f));
  EXPECT_EQ(limits.size(), 2);
  ASSERT_NE(limits.Find(15), nullptr);
  EXPECT_EQ(limits.Find(15)->type, ik::JointLimit::Type::kHinge);
  EXPECT_EQ(limits.Find(3), nullptr);
  EXPECT_TRUE(limits.Validate(h.skeleton));
  limits.Set(15, ik::JointLimit{});  // kNone removes
  EXPECT_EQ(limits.Find(15), nullptr);
  limits.Set(99, ik::JointLimit::Cone(glm::vec3(0, 1, 0), 1.0f));
  std::string why;
  EXPECT_FALSE(limits.Validate(h.skeleton, &why));
  EXPECT_NE(why.find("out of range"), std::string::npos);
  limits.Remove(99);
  limits.Set(4, ik::JointLimit::Cone(glm::vec3(0, 1, 0), 9.0f));
  EXPECT_FALSE(limits.Validate(h.skeleton, &why));
  EXPECT_NE(why.find("Neck"), std::string::npos);
}

TEST(BoneAxis, TheBoneContinuesThroughTheChildAlongTheLimb) {
  const iktest::Humanoid h = iktest::MakeHumanoid();
  EXPECT_EQ(ik::BoneChild(h.skeleton, h.Joint("Spine2")), h.Joint("Neck"));  // not a shoulder
  EXPECT_EQ(ik::BoneChild(h.skeleton, h.Joint("Hips")), h.Joint("Spine"));   // largest subtree
  EXPECT_EQ(ik::BoneChild(h.skeleton, h.Joint("LeftLeg")), h.Joint("LeftFoot"));
  EXPECT_EQ(ik::BoneChild(h.skeleton, h.Joint("Head")), -1);
  // Every bone frame of the rig has +Y along its bone.
  for (const char* name : {"Spine2", "LeftLeg", "RightArm", "Hips"}) {
    const auto axis = ik::BoneAxisLocal(h.skeleton, h.Joint(name));
    ASSERT_TRUE(axis.has_value()) << name;
    EXPECT_NEAR(axis->y, 1.0f, 1e-5f) << name;
  }
  // A leaf continues its incoming bone.
  const int head = h.Joint("Head");
  const auto leaf = ik::BoneAxisLocal(h.skeleton, head);
  ASSERT_TRUE(leaf.has_value());
  const glm::vec3 incoming = iktest::Position(h.models, head) - iktest::Position(h.models, 4);
  EXPECT_LE(iktest::AngleBetween(glm::mat3(h.models[head]) * *leaf, incoming), 1e-5);
  // An explicit descendant, and refusals.
  const auto to_hand = ik::BoneAxisLocal(h.skeleton, h.Joint("LeftArm"), h.Joint("LeftHand"));
  ASSERT_TRUE(to_hand.has_value());
  EXPECT_FALSE(ik::BoneAxisLocal(h.skeleton, h.Joint("LeftArm"), h.Joint("RightHand")));
  EXPECT_FALSE(ik::BoneAxisLocal(h.skeleton, 99));
}

TEST(LimitShape, HingeArcSpansTheRangeAndTheConeRimSitsAtTheConeAngle) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const int knee = h.Joint("LeftLeg");
  const ik::JointLimit hinge = ik::JointLimit::Hinge(glm::vec3(1, 0, 0), -0.2f, 2.4f);
  const float radius = 0.1f;
  const ik::LimitShape arc = ik::MakeLimitShape(h.skeleton, h.pose, h.models, knee, hinge, radius);
  ASSERT_EQ(arc.outline_model.size(), 33u);
  EXPECT_FALSE(arc.outline_closed);
  const glm::vec3 origin = iktest::Position(h.models, knee);
  EXPECT_LE(glm::length(arc.origin_model - origin), 1e-6f);
  for (const glm::vec3& q : arc.outline_model) {
    EXPECT_NEAR(glm::length(q - origin), radius, 1e-5f);
    EXPECT_NEAR(glm::dot(q - origin, arc.axis_model), 0.0f, 1e-5f);  // in the hinge's plane
  }
  // The arc starts where the bone points at min_angle and ends at max_angle.
  const double span =
      iktest::AngleBetween(arc.outline_model.front() - origin, arc.outline_model.back() - origin);
  EXPECT_NEAR(span, 2.6, 1e-4);
  // In the rest pose the bone lies on the arc at angle 0.
  EXPECT_LE(iktest::AngleBetween(arc.bone_model, iktest::Position(h.models, knee + 1) - origin),
            1e-5);

  const int shoulder = h.Joint("LeftArm");
  const ik::JointLimit cone = ik::JointLimit::Cone(glm::vec3(0, 1, 0), 0.6f, -0.5f, 0.9f);
  const ik::LimitShape rim =
      ik::MakeLimitShape(h.skeleton, h.pose, h.models, shoulder, cone, radius, 24);
  ASSERT_EQ(rim.outline_model.size(), 24u);
  EXPECT_TRUE(rim.outline_closed);
  EXPECT_EQ(rim.twist_arc_model.size(), 25u);
  const glm::vec3 o = rim.origin_model;
  for (const glm::vec3& q : rim.outline_model) {
    EXPECT_NEAR(glm::length(q - o), radius, 1e-5f);
    EXPECT_NEAR(iktest::AngleBetween(q - o, rim.axis_model), 0.6, 1e-4);
  }
  EXPECT_TRUE(
      ik::MakeLimitShape(h.skeleton, h.pose, h.models, 99, cone, radius).outline_model.empty());
}

// --- The two-bone solver's hinge ---

// A leg whose bones are perpendicular to the knee's local x axis, bent by `rest_bend` at rest.
iktest::ChainRig HingeLeg(std::mt19937& rng, float rest_bend) {
  ik::Transform root;
  root.rotation = RandomRotation(rng);
  ik::Transform start;
  start.rotation = RandomRotation(rng);
  const float upper = Uniform(rng, 0.3f, 0.6f), lower = Uniform(rng, 0.3f, 0.6f);
  ik::Transform mid;
  mid.rotation = RandomRotation(rng);
  mid.translation = mid.rotation * glm::vec3(0.0f, -upper, 0.0f);
  ik::Transform end;
  end.translation = glm::angleAxis(rest_bend, glm::vec3(1, 0, 0)) * glm::vec3(0.0f, -lower, 0.0f);
  iktest::ChainRig rig;
  rig.skeleton = iktest::MustBuild(
      {{"root", -1, root, {}}, {"start", 0, start, {}}, {"mid", 1, mid, {}}, {"end", 2, end, {}}});
  rig.pose = ik::Pose::Rest(rig.skeleton);
  ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
  rig.upper = upper;
  rig.lower = lower;
  return rig;
}

// The chain's bend about the mid joint's local x axis, model space (the two-bone solver's ψ).
float Bend(const iktest::ChainRig& rig) {
  const glm::vec3 a = iktest::Position(rig.models, 1), b = iktest::Position(rig.models, 2),
                  c = iktest::Position(rig.models, 3);
  const glm::vec3 axis = glm::normalize(glm::mat3(rig.models[2]) * glm::vec3(1, 0, 0));
  const glm::vec3 u = b - a, v = c - b;
  return std::atan2(glm::dot(glm::cross(u, v), axis), glm::dot(u, v));
}

TEST(TwoBoneHinge, AgreesWithTheHingeLimitOnTheAllowedBendRange) {
  std::mt19937 rng(105);
  for (int i = 0; i < 200; ++i) {
    const float rest_bend = Uniform(rng, 0.1f, 1.5f);
    iktest::ChainRig rig = HingeLeg(rng, rest_bend);
    ik::TwoBoneIkOptions options;
    options.hinge = true;
    options.hinge_min_angle = Uniform(rng, 0.0f, 0.8f);
    options.hinge_max_angle = Uniform(rng, 1.2f, kPi);
    const auto rest_angle = ik::RestBendAngle(rig.skeleton, rig.chain, options);
    ASSERT_TRUE(rest_angle.has_value());
    ASSERT_NEAR(*rest_angle, rest_bend, 1e-4f);
    const auto limit = ik::HingeLimitFromTwoBone(rig.skeleton, rig.chain, options);
    ASSERT_TRUE(limit.has_value());
    ASSERT_TRUE(limit->Validate());
    const glm::quat rest_mid = rig.skeleton.rest_locals()[2].rotation;

    // The same bends are allowed: turning the knee to bend ψ is within the limit exactly when ψ is
    // within the two-bone hinge's range.
    for (int k = 0; k <= 60; ++k) {
      const float bend = -0.5f + 3.5f * k / 60.0f;
      if (std::abs(bend - options.hinge_min_angle) < 1e-3f ||
          std::abs(bend - options.hinge_max_angle) < 1e-3f || bend > kPi) {
        continue;
      }
      rig.pose.locals[2].rotation =
          rest_mid * glm::angleAxis(bend - rest_bend, glm::normalize(limit->axis_local));
      ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
      ASSERT_NEAR(Bend(rig), bend, 1e-4f);
      const bool allowed = bend >= options.hinge_min_angle && bend <= options.hinge_max_angle;
      ASSERT_EQ(ik::WithinLimit(*limit, rest_mid, rig.pose.locals[2].rotation), allowed)
          << i << " bend " << bend;
    }

    // Whatever the two-bone hinge solve does to the knee is within the limit.
    rig.pose = ik::Pose::Rest(rig.skeleton);
    ik::LocalToModel(rig.skeleton, rig.pose, &rig.models);
    const glm::vec3 a = iktest::Position(rig.models, 1);
    const glm::vec3 target =
        iktest::TargetAt(rng, a, Uniform(rng, 0.0f, 1.2f) * (rig.upper + rig.lower));
    const ik::TwoBoneIkResult r = ik::SolveTwoBoneIkPose(rig.skeleton, rig.chain, {target, {}},
                                                         options, &rig.pose, &rig.models);
    ASSERT_NE(r.solve_case, ik::TwoBoneCase::kDegenerate);
    ASSERT_TRUE(ik::WithinLimit(*limit, rest_mid, rig.pose.locals[2].rotation, 1e-3f)) << i;

    // And back: the limit gives the same two-bone options.
    ik::TwoBoneIkOptions round_trip;
    ASSERT_TRUE(ik::TwoBoneHingeFromLimit(rig.skeleton, rig.chain, *limit, &round_trip));
    EXPECT_TRUE(round_trip.hinge);
    EXPECT_NEAR(round_trip.hinge_min_angle, options.hinge_min_angle, 1e-4f);
    EXPECT_NEAR(round_trip.hinge_max_angle, options.hinge_max_angle, 1e-4f);
  }
}

TEST(TwoBoneHinge, ALimitOutsideTheOneWayRangeIsRefused) {
  std::mt19937 rng(106);
  const iktest::ChainRig rig = HingeLeg(rng, 0.5f);
  ik::TwoBoneIkOptions options;
  // Bends of -1.5..-0.5 (rest 0.5 plus -2..-1): all backwards, nothing the solver can do.
  const ik::JointLimit backwards = ik::JointLimit::Hinge(glm::vec3(1, 0, 0), -2.0f, -1.0f);
  EXPECT_FALSE(ik::TwoBoneHingeFromLimit(rig.skeleton, rig.chain, backwards, &options));
  EXPECT_FALSE(options.hinge);
  EXPECT_FALSE(ik::TwoBoneHingeFromLimit(rig.skeleton, rig.chain,
                                         ik::JointLimit::Cone(glm::vec3(0, 1, 0), 1.0f), &options));
}

}  // namespace
