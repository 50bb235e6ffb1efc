// Full-body IK on a 65-joint Mixamo-like rig: the body shifts and bends so a hand reaches beyond
// the arm while pinned feet hold; pins hold where the pose had them; the hips move with the feet
// pinned and the knees bending their way; conflicting pins give a compromise with errors; limits,
// bone lengths and finiteness hold; a 10,000-frame clip loop does not drift; the frame path
// allocates nothing; bad jobs are refused with every reason.
#include "ik/body/full_body.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "ik/body/limbs.h"
#include "ik/core/kinematics.h"
#include "tests/ik/humanoid_rig.h"
#include "tests/ik/ik_test_util.h"
#include "tests/ik/limit_check.h"
#include "tests/ik/mixamo_rig.h"
#include "tests/support/allocations.h"

namespace {

using iktest::Position;
using iktest::RandomUnit;
using iktest::Uniform;

// A rig, its body, and a job with its buffers, ready to solve a pose.
struct Solver {
  const ik::Skeleton* skeleton = nullptr;
  ik::BodyRig rig;
  ik::JointLimits limits;
  std::vector<ik::BodyEffector> effectors;
  ik::FullBodyOptions options;
  ik::FullBodyWorkspace workspace;
  ik::FullBodyResult result;

  explicit Solver(const ik::Skeleton& s) : skeleton(&s) {
    std::string why;
    if (!ik::BuildBodyRig(s, &rig, &why)) ADD_FAILURE() << why;
  }
  // Solves `pose` (and its models) in place; false when the job was refused.
  bool Solve(ik::Pose* pose, std::vector<glm::mat4>* models, bool use_limits = true) {
    ik::FullBodyIkJob job;
    job.skeleton = skeleton;
    job.rig = &rig;
    job.limits = use_limits && !limits.empty() ? &limits : nullptr;
    job.effectors = effectors.data();
    job.effector_count = static_cast<int>(effectors.size());
    job.options = options;
    job.pose = pose;
    job.models = models;
    job.workspace = &workspace;
    job.result = &result;
    return job.Run();
  }
  ik::BodyEffector& Add(ik::BodyEffector::Kind kind, int joint,
                        std::optional<glm::vec3> target = std::nullopt) {
    ik::BodyEffector e;
    e.kind = kind;
    e.joint = joint;
    e.target_model = target;
    effectors.push_back(e);
    return effectors.back();
  }
  const ik::BodyLimb& Limb(ik::LimbKind kind, ik::LimbSide side) const {
    for (const ik::BodyLimb& l : rig.limbs) {
      if (l.limb.kind == kind && l.limb.side == side) return l;
    }
    ADD_FAILURE() << "no such limb";
    return rig.limbs.front();
  }
};

float LimbLength(const ik::BodyLimb& limb, const std::vector<glm::mat4>& models) {
  const ik::TwoBoneChain& c = limb.limb.chain;
  return glm::length(Position(models, c.mid) - Position(models, c.start)) +
         glm::length(Position(models, c.end) - Position(models, c.mid));
}

// Every bone (joint to parent) keeps its length within 1e-5 relative; everything is finite.
void ExpectBonesKept(const ik::Skeleton& s, const std::vector<glm::mat4>& before,
                     const std::vector<glm::mat4>& after, const std::string& where) {
  for (int j = 0; j < s.joint_count(); ++j) {
    ASSERT_TRUE(ik::IsFinite(after[j])) << where << " joint " << s.name(j);
    const int p = s.parent(j);
    if (p < 0) continue;
    const float a = glm::length(Position(before, j) - Position(before, p));
    const float b = glm::length(Position(after, j) - Position(after, p));
    ASSERT_NEAR(b, a, 1e-5f * std::max(a, 1e-3f)) << where << " bone " << s.name(j);
  }
}

void ExpectLimitsHeld(const ik::Skeleton& s, const ik::JointLimits& limits, const ik::Pose& pose,
                      const std::string& where) {
  for (const auto& [joint, limit] : limits.entries()) {
    ASSERT_EQ(
        iktest::LimitViolation(limit, s.rest_locals()[joint].rotation, pose.locals[joint].rotation),
        "")
        << where << " joint " << s.name(joint);
  }
}

// Cones on the hips and spine joints (about their bones), as an animator would set them.
ik::JointLimits SpineLimits(const ik::Skeleton& s, const ik::BodyRig& rig, float cone) {
  ik::JointLimits limits;
  for (int j : rig.spine) {
    const auto axis = ik::BoneAxisLocal(s, j);
    if (axis) limits.Set(j, ik::JointLimit::Cone(*axis, cone, -0.3f, 0.3f));
  }
  return limits;
}

TEST(FullBodyRig, FindsTheHipsSpineChestAndLimbsOfAMixamoRig) {
  const iktest::MixamoRig m = iktest::MakeMixamoRig();
  ASSERT_EQ(m.skeleton.joint_count(), 65);
  ik::BodyRig rig;
  std::string why;
  ASSERT_TRUE(ik::BuildBodyRig(m.skeleton, &rig, &why)) << why;
  EXPECT_EQ(rig.hips, m.Joint("Hips"));
  EXPECT_EQ(rig.chest, m.Joint("Spine2"));
  EXPECT_EQ(rig.spine, (std::vector<int>{m.Joint("Hips"), m.Joint("Spine"), m.Joint("Spine1"),
                                         m.Joint("Spine2")}));
  ASSERT_EQ(rig.limbs.size(), 4u);
  EXPECT_EQ(rig.limbs[0].limb.chain.end, m.Joint("LeftFoot"));
  EXPECT_EQ(rig.limbs[3].limb.chain.end, m.Joint("RightHand"));
  for (const ik::BodyLimb& l : rig.limbs) EXPECT_TRUE(l.bend_axis_local.has_value());
  EXPECT_GT(rig.size, 0.5f);
  EXPECT_LT(rig.size, 1.0f);
}

TEST(FullBodyRig, ASkeletonWithoutLimbsIsRefusedWithAReason) {
  const ik::Skeleton s = iktest::MustBuild({{"a", -1, {}, {}}, {"b", 0, {}, {}}});
  ik::BodyRig rig;
  std::string why;
  EXPECT_FALSE(ik::BuildBodyRig(s, &rig, &why));
  EXPECT_NE(why.find("no arms or legs"), std::string::npos) << why;
}

TEST(FullBody, PinsWhereThePoseHasThemChangeNothing) {
  iktest::MixamoRig m = iktest::MakeMixamoRig();
  // A pose off the rest pose: the spine and arms turned a little.
  for (const char* name : {"Spine", "Spine1", "LeftArm", "RightForeArm", "LeftUpLeg"}) {
    m.pose.locals[m.Joint(name)].rotation *=
        glm::angleAxis(0.2f, glm::normalize(glm::vec3(1, 2, 3)));
  }
  ik::LocalToModel(m.skeleton, m.pose, &m.models);
  Solver solver(m.skeleton);
  for (const char* name : {"LeftFoot", "RightFoot", "LeftHand", "RightHand", "Head"}) {
    solver.Add(ik::BodyEffector::Kind::kPin, m.Joint(name));
  }
  const std::vector<glm::mat4> before = m.models;
  ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
  EXPECT_TRUE(solver.result.reached);
  EXPECT_EQ(solver.result.iterations, 0);
  for (int j = 0; j < m.skeleton.joint_count(); ++j) {
    EXPECT_LE(glm::length(Position(m.models, j) - Position(before, j)), 1e-5f) << j;
  }
  ASSERT_EQ(solver.result.effectors.size(), 5u);
  for (const ik::BodyEffectorReport& r : solver.result.effectors) EXPECT_LE(r.error, 1e-5f);
}

// Targets reachable by construction: the hips shifted (down, forward, sideways), the hips and
// spine turned within their cones and the arm posed at random, with the feet still within their
// legs' reach of where they are; the hand's place in that pose is the target, chosen beyond the
// arm's reach from where the shoulder is now.
TEST(FullBody, AHandBeyondItsArmIsReachedByTheBodyWhileTheFeetStayPinned) {
  const iktest::MixamoRig m0 = iktest::MakeMixamoRig();
  Solver solver(m0.skeleton);
  solver.limits = SpineLimits(m0.skeleton, solver.rig, 0.4f);
  const ik::BodyLimb& arm = solver.Limb(ik::LimbKind::kArm, ik::LimbSide::kLeft);
  const ik::BodyLimb& left_leg = solver.Limb(ik::LimbKind::kLeg, ik::LimbSide::kLeft);
  const ik::BodyLimb& right_leg = solver.Limb(ik::LimbKind::kLeg, ik::LimbSide::kRight);
  const float arm_length = LimbLength(arm, m0.models);
  const float leg_length = LimbLength(left_leg, m0.models);
  std::mt19937 rng(401);
  int solved = 0, limited = 0, total_iterations = 0;
  float hips_moved = 0.0f;
  for (int attempt = 0; attempt < 2000 && solved < 150; ++attempt) {
    iktest::MixamoRig goal = m0;
    const glm::vec3 shift(Uniform(rng, -0.12f, 0.12f), Uniform(rng, -0.2f, 0.0f),
                          Uniform(rng, -0.12f, 0.12f));
    goal.pose.locals[solver.rig.hips].translation += shift;  // the hips are the root here
    for (int j : solver.rig.spine) {
      goal.pose.locals[j].rotation *= glm::angleAxis(Uniform(rng, 0.0f, 0.3f), RandomUnit(rng));
      goal.pose.locals[j].rotation =
          ik::ClampRotation(*solver.limits.Find(j), m0.skeleton.rest_locals()[j].rotation,
                            goal.pose.locals[j].rotation);
    }
    for (int j : {arm.limb.chain.start, arm.limb.chain.mid}) {
      goal.pose.locals[j].rotation *= glm::angleAxis(Uniform(rng, 0.0f, 1.2f), RandomUnit(rng));
    }
    ik::LocalToModel(goal.skeleton, goal.pose, &goal.models);
    bool feet_ok = true;
    for (const ik::BodyLimb* leg : {&left_leg, &right_leg}) {
      feet_ok = feet_ok &&
                glm::length(Position(m0.models, leg->limb.chain.end) -
                            Position(goal.models, leg->limb.chain.start)) < 0.995f * leg_length;
    }
    const glm::vec3 target = Position(goal.models, arm.limb.chain.end);
    if (!feet_ok ||
        glm::length(target - Position(m0.models, arm.limb.chain.start)) < arm_length * 1.02f) {
      continue;
    }
    iktest::MixamoRig m = m0;
    solver.effectors.clear();
    solver.Add(ik::BodyEffector::Kind::kPin, left_leg.limb.chain.end);
    solver.Add(ik::BodyEffector::Kind::kPin, right_leg.limb.chain.end);
    solver.Add(ik::BodyEffector::Kind::kTarget, arm.limb.chain.end, target);
    ASSERT_TRUE(solver.Solve(&m.pose, &m.models)) << solver.result.why;
    const std::string where = "attempt " + std::to_string(attempt);
    ExpectBonesKept(m.skeleton, m0.models, m.models, where);
    ExpectLimitsHeld(m.skeleton, solver.limits, m.pose, where);
    for (const ik::BodyLimb* leg : {&left_leg, &right_leg}) {
      ASSERT_LE(glm::length(Position(m.models, leg->limb.chain.end) -
                            Position(m0.models, leg->limb.chain.end)),
                1e-4f * leg_length)
          << where;
    }
    ASSERT_LE(glm::length(Position(m.models, arm.limb.chain.end) - target), 1e-4f * arm_length)
        << where << " iterations " << solver.result.iterations;
    EXPECT_TRUE(solver.result.reached) << where;
    ++solved;
    total_iterations += solver.result.iterations;
    limited += solver.result.limited ? 1 : 0;
    hips_moved = std::max(hips_moved, glm::length(solver.result.hips_offset_model));
  }
  EXPECT_EQ(solved, 150);
  EXPECT_GT(hips_moved, 0.02f);  // the hips did help
  RecordProperty("mean_iterations", std::to_string(double(total_iterations) / solved));
}

TEST(FullBody, PinnedFeetFartherApartThanTheLegsReachGiveACompromiseWithErrors) {
  iktest::MixamoRig m = iktest::MakeMixamoRig();
  Solver solver(m.skeleton);
  const int left = m.Joint("LeftFoot"), right = m.Joint("RightFoot");
  solver.Add(ik::BodyEffector::Kind::kPin, left, Position(m.models, left) + glm::vec3(1.5f, 0, 0));
  solver.Add(ik::BodyEffector::Kind::kPin, right,
             Position(m.models, right) - glm::vec3(1.5f, 0, 0));
  const std::vector<glm::mat4> before = m.models;
  ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
  const ik::FullBodyResult& r = solver.result;
  EXPECT_FALSE(r.reached);
  ASSERT_EQ(r.effectors.size(), 2u);
  const float e0 = r.effectors[0].error, e1 = r.effectors[1].error;
  EXPECT_TRUE(std::isfinite(e0) && std::isfinite(e1));
  EXPECT_GT(e0, 0.1f);
  EXPECT_GT(e1, 0.1f);
  // Equal weights: the body stays between, each pin missing by about the same.
  EXPECT_NEAR(e0, e1, 0.05f * (e0 + e1));
  EXPECT_EQ(r.effectors[0].position_model, Position(m.models, left));
  ExpectBonesKept(m.skeleton, before, m.models, "compromise");
  // A heavier pin holds more.
  iktest::MixamoRig m2 = iktest::MakeMixamoRig();
  solver.effectors[0].weight = 10.0f;
  ASSERT_TRUE(solver.Solve(&m2.pose, &m2.models));
  EXPECT_LT(solver.result.effectors[0].error, solver.result.effectors[1].error);
  // Given the iterations, the weighted least-squares compromise: 10·e0 = e1 (the split's
  // distances change one for one as the hips slide between the feet).
  iktest::MixamoRig m3 = iktest::MakeMixamoRig();
  solver.options.max_iterations = 100;
  ASSERT_TRUE(solver.Solve(&m3.pose, &m3.models));
  EXPECT_NEAR(10.0f * solver.result.effectors[0].error, solver.result.effectors[1].error,
              0.05f * solver.result.effectors[1].error);
  EXPECT_LT(solver.result.iterations, 100);
}

TEST(FullBody, MovingTheHipsDownBendsThePinnedLegsAtTheKneesTheirWay) {
  iktest::MixamoRig m = iktest::MakeMixamoRig();
  Solver solver(m.skeleton);
  const iktest::MixamoRig m0 = m;
  const int hips = m.Joint("Hips");
  const glm::vec3 hips_target = Position(m.models, hips) + glm::vec3(0.03f, -0.25f, -0.05f);
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("LeftFoot"));
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("RightFoot"));
  solver.Add(ik::BodyEffector::Kind::kMove, hips, hips_target);
  ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
  EXPECT_TRUE(solver.result.reached);
  EXPECT_LE(glm::length(Position(m.models, hips) - hips_target), 1e-5f);
  for (const char* side : {"Left", "Right"}) {
    const std::string s(side);
    const int foot = m.Joint(s + "Foot"), knee = m.Joint(s + "Leg"), hip = m.Joint(s + "UpLeg");
    EXPECT_LE(glm::length(Position(m.models, foot) - Position(m0.models, foot)), 1e-5f) << side;
    // The knee comes forward (+Z) of the hip-foot line, as at rest, and bends more than at rest.
    const glm::vec3 a = Position(m.models, hip), b = Position(m.models, knee),
                    c = Position(m.models, foot);
    const glm::vec3 on_line = a + glm::dot(b - a, c - a) / glm::dot(c - a, c - a) * (c - a);
    EXPECT_GT(b.z - on_line.z, 0.1f) << side;
  }
  // The pinned feet kept their orientation.
  for (const char* foot : {"LeftFoot", "RightFoot"}) {
    const glm::mat3 a(m.models[m.Joint(foot)]), b(m0.models[m.Joint(foot)]);
    for (int c = 0; c < 3; ++c) EXPECT_LE(glm::length(a[c] - b[c]), 1e-4f) << foot;
  }
  ExpectBonesKept(m.skeleton, m0.models, m.models, "hips down");
}

TEST(FullBody, MovingTheHipsBeyondTheLegsPlacesThemAndReportsThePinsErrors) {
  iktest::MixamoRig m = iktest::MakeMixamoRig();
  Solver solver(m.skeleton);
  const int hips = m.Joint("Hips");
  const glm::vec3 hips_target = Position(m.models, hips) + glm::vec3(0.0f, 0.3f, 0.0f);
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("LeftFoot"));
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("RightFoot"));
  solver.Add(ik::BodyEffector::Kind::kMove, hips, hips_target);
  ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
  EXPECT_FALSE(solver.result.reached);
  EXPECT_LE(solver.result.effectors[2].error, 1e-5f);  // the move is placed first
  EXPECT_GT(solver.result.effectors[0].error, 0.1f);
  EXPECT_GT(solver.result.effectors[1].error, 0.1f);
}

TEST(FullBody, MovingTheRootAboveTheHipsMovesTheWholeBodyAndThePinnedFeetResolve) {
  iktest::MixamoRig m = iktest::MakeMixamoRig(/*armature=*/true);
  const iktest::MixamoRig m0 = m;
  Solver solver(m.skeleton);
  EXPECT_EQ(solver.rig.hips, m.Joint("Hips"));
  const int root = m.skeleton.Find("Armature");
  const glm::vec3 root_target = Position(m.models, root) + glm::vec3(0.05f, -0.2f, 0.1f);
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("LeftFoot"));
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("RightFoot"));
  solver.Add(ik::BodyEffector::Kind::kMove, root, root_target);
  ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
  EXPECT_TRUE(solver.result.reached);
  EXPECT_LE(glm::length(Position(m.models, root) - root_target), 1e-5f);
  // The hips came along (the body is free to shift them back a little for the feet; here it
  // need not).
  EXPECT_LE(glm::length(Position(m.models, m.Joint("Hips")) -
                        (Position(m0.models, m.Joint("Hips")) + glm::vec3(0.05f, -0.2f, 0.1f))),
            1e-4f);
  for (const char* foot : {"LeftFoot", "RightFoot"}) {
    EXPECT_LE(glm::length(Position(m.models, m.Joint(foot)) - Position(m0.models, m.Joint(foot))),
              1e-5f)
        << foot;
  }
  ExpectBonesKept(m.skeleton, m0.models, m.models, "root move");
}

TEST(FullBody, MovingTheChestBendsTheSpineAndShiftsTheHips) {
  iktest::MixamoRig m = iktest::MakeMixamoRig();
  const iktest::MixamoRig m0 = m;
  Solver solver(m.skeleton);
  solver.limits = SpineLimits(m.skeleton, solver.rig, 0.5f);
  const int chest = m.Joint("Spine2");
  const glm::vec3 chest_target = Position(m.models, chest) + glm::vec3(0.0f, -0.15f, 0.25f);
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("LeftFoot"));
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("RightFoot"));
  solver.Add(ik::BodyEffector::Kind::kMove, chest, chest_target);
  ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
  EXPECT_TRUE(solver.result.reached) << solver.result.max_error;
  EXPECT_LE(glm::length(Position(m.models, chest) - chest_target), 1e-5f);
  ExpectLimitsHeld(m.skeleton, solver.limits, m.pose, "chest");
  ExpectBonesKept(m.skeleton, m0.models, m.models, "chest");
  // The spine bent: some spine joint turned.
  float turned = 0.0f;
  for (const ik::BodyJointChange& c : solver.result.moved) {
    if (c.joint == m.Joint("Spine") || c.joint == m.Joint("Spine1")) turned += c.turn;
  }
  EXPECT_GT(turned, 0.05f);
}

TEST(FullBody, WeightsSayWhichPartsHelp) {
  const iktest::MixamoRig m0 = iktest::MakeMixamoRig();
  const int hand = m0.Joint("LeftHand"), hips = m0.Joint("Hips");
  const glm::vec3 target = Position(m0.models, m0.Joint("LeftArm")) + glm::vec3(0.65f, 0.0f, 0.2f);
  // No hips translation: the hips stay where they are (they may turn).
  {
    iktest::MixamoRig m = m0;
    Solver solver(m.skeleton);
    solver.options.hips_translation_weight = 0.0f;
    solver.Add(ik::BodyEffector::Kind::kTarget, hand, target);
    ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
    EXPECT_LE(glm::length(Position(m.models, hips) - Position(m0.models, hips)), 1e-6f);
    EXPECT_GT(solver.result.moved.size(), 0u);
  }
  // Nothing helps: the body does not move and the hand falls short.
  {
    iktest::MixamoRig m = m0;
    Solver solver(m.skeleton);
    solver.options.hips_translation_weight = 0.0f;
    solver.options.hips_rotation_weight = 0.0f;
    solver.options.spine_weight = 0.0f;
    solver.Add(ik::BodyEffector::Kind::kTarget, hand, target);
    ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
    for (int j : solver.rig.spine) EXPECT_EQ(m.pose.locals[j].rotation, m0.pose.locals[j].rotation);
    EXPECT_EQ(Position(m.models, hips), Position(m0.models, hips));
    EXPECT_FALSE(solver.result.reached);
    const float reach = LimbLength(solver.Limb(ik::LimbKind::kArm, ik::LimbSide::kLeft), m0.models);
    EXPECT_NEAR(solver.result.effectors[0].error,
                glm::length(target - Position(m0.models, m0.Joint("LeftArm"))) - reach, 1e-4f);
  }
  // Only the hips translate: they shift toward the target by what the arm lacks.
  {
    iktest::MixamoRig m = m0;
    Solver solver(m.skeleton);
    solver.options.hips_rotation_weight = 0.0f;
    solver.options.spine_weight = 0.0f;
    solver.Add(ik::BodyEffector::Kind::kTarget, hand, target);
    ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
    EXPECT_TRUE(solver.result.reached);
    for (int j : solver.rig.spine) EXPECT_EQ(m.pose.locals[j].rotation, m0.pose.locals[j].rotation);
    EXPECT_GT(glm::length(solver.result.hips_offset_model), 0.05f);
  }
}

TEST(FullBody, BodyTurnsStayWithinTheirLimitsAndTheTurnBudget) {
  const iktest::MixamoRig m0 = iktest::MakeMixamoRig();
  std::mt19937 rng(402);
  for (int i = 0; i < 200; ++i) {
    iktest::MixamoRig m = m0;
    Solver solver(m.skeleton);
    solver.limits = SpineLimits(m.skeleton, solver.rig, Uniform(rng, 0.05f, 0.6f));
    solver.options.max_body_turn = Uniform(rng, 0.05f, 1.0f);
    solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("LeftFoot"));
    solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("RightFoot"));
    // Far targets for both hands, often beyond what the body can do.
    solver.Add(ik::BodyEffector::Kind::kTarget, m.Joint("LeftHand"),
               Position(m.models, m.Joint("Spine2")) + RandomUnit(rng) * Uniform(rng, 0.5f, 1.6f));
    solver.Add(ik::BodyEffector::Kind::kTarget, m.Joint("RightHand"),
               Position(m.models, m.Joint("Spine2")) + RandomUnit(rng) * Uniform(rng, 0.5f, 1.6f));
    ASSERT_TRUE(solver.Solve(&m.pose, &m.models));
    const std::string where = "case " + std::to_string(i);
    ExpectLimitsHeld(m.skeleton, solver.limits, m.pose, where);
    ExpectBonesKept(m.skeleton, m0.models, m.models, where);
    for (int j : solver.rig.spine) {
      const float turn =
          2.0f * std::acos(std::min(1.0f, std::abs(glm::dot(m.pose.locals[j].rotation,
                                                            m0.pose.locals[j].rotation))));
      ASSERT_LE(turn, solver.options.max_body_turn + 1e-3f) << where;
    }
    // The pins hold whatever the hands do.
    for (const char* foot : {"LeftFoot", "RightFoot"}) {
      ASSERT_LE(glm::length(Position(m.models, m.Joint(foot)) - Position(m0.models, m.Joint(foot))),
                1e-4f)
          << where << " " << foot;
    }
  }
}

// A looping clip made in code: the hips sway and dip, the spine bends, arms and legs swing. One
// period is 36 frames; frame k's pose depends on k mod 36 only, so every period's input is the
// same, bit for bit.
void SampleClip(const iktest::MixamoRig& rest, int frame, ik::Pose* pose) {
  constexpr float kTwoPi = 6.2831853f;
  const float phase = kTwoPi * static_cast<float>(frame % 36) / 36.0f;
  const float s = std::sin(phase), c = std::cos(phase);
  *pose = rest.pose;
  auto turn = [&](const char* name, float angle, const glm::vec3& axis) {
    ik::Transform& t = pose->locals[rest.Joint(name)];
    t.rotation = glm::normalize(t.rotation * glm::angleAxis(angle, glm::normalize(axis)));
  };
  pose->locals[rest.Joint("Hips")].translation +=
      glm::vec3(0.02f * s, -0.03f - 0.02f * c, 0.015f * s);
  turn("Hips", 0.08f * s, {0, 1, 0});
  turn("Spine", 0.1f * c, {1, 0, 0.3f});
  turn("Spine1", 0.08f * s, {1, 0.2f, 0});
  turn("LeftArm", 0.3f * s, {1, 0, 0});
  turn("RightArm", -0.3f * s, {1, 0, 0});
  turn("RightForeArm", 0.5f + 0.2f * c, {0, 0, 1});
  turn("LeftUpLeg", 0.15f * s, {1, 0, 0});
  turn("RightUpLeg", -0.15f * s, {1, 0, 0});
  turn("LeftLeg", 0.1f + 0.1f * c, {1, 0, 0});
}

// 10,000 frames of the clip, each solved from its freshly sampled pose with the feet pinned
// where they stand at rest, the right hand pinned where the clip has it, and the left hand
// reaching past its arm's length with the body's help: every frame meets the exactness bars, and
// frames a period apart give the same matrices bit for bit (nothing carries over: no drift).
TEST(FullBody, TenThousandFramesOfAClipMeetTheBarsAndDoNotDrift) {
  const iktest::MixamoRig rest = iktest::MakeMixamoRig();
  Solver solver(rest.skeleton);
  solver.limits = SpineLimits(rest.skeleton, solver.rig, 0.5f);
  const int left_foot = rest.Joint("LeftFoot"), right_foot = rest.Joint("RightFoot");
  const int left_hand = rest.Joint("LeftHand"), right_hand = rest.Joint("RightHand");
  const glm::vec3 left_pin = Position(rest.models, left_foot);
  const glm::vec3 right_pin = Position(rest.models, right_foot);
  const glm::vec3 reach_target =
      Position(rest.models, rest.Joint("LeftArm")) + glm::vec3(0.25f, -0.15f, 0.6f);
  const float leg = LimbLength(solver.Limb(ik::LimbKind::kLeg, ik::LimbSide::kLeft), rest.models);
  const float arm = LimbLength(solver.Limb(ik::LimbKind::kArm, ik::LimbSide::kLeft), rest.models);
  ASSERT_GT(glm::length(reach_target - Position(rest.models, rest.Joint("LeftArm"))), 1.05f * arm);
  solver.Add(ik::BodyEffector::Kind::kPin, left_foot, left_pin);
  solver.Add(ik::BodyEffector::Kind::kPin, right_foot, right_pin);
  solver.Add(ik::BodyEffector::Kind::kPin, right_hand);
  solver.Add(ik::BodyEffector::Kind::kTarget, left_hand, reach_target);
  ik::Pose pose;
  std::vector<glm::mat4> models, sampled_models;
  std::vector<std::vector<glm::mat4>> first_period;
  int max_iterations = 0, period_iterations = 0;
  for (int frame = 0; frame < 10000; ++frame) {
    SampleClip(rest, frame, &pose);
    ik::LocalToModel(rest.skeleton, pose, &models);
    sampled_models = models;
    const glm::vec3 right_hand_sampled = Position(models, right_hand);
    ASSERT_TRUE(solver.Solve(&pose, &models)) << solver.result.why;
    const std::string where = "frame " + std::to_string(frame);
    if (frame < 36) {
      // The bars, checked on one period (the rest repeat it exactly, below).
      ExpectBonesKept(rest.skeleton, sampled_models, models, where);
      ExpectLimitsHeld(rest.skeleton, solver.limits, pose, where);
      ASSERT_LE(glm::length(Position(models, left_foot) - left_pin), 1e-4f * leg) << where;
      ASSERT_LE(glm::length(Position(models, right_foot) - right_pin), 1e-4f * leg) << where;
      ASSERT_LE(glm::length(Position(models, right_hand) - right_hand_sampled), 1e-4f * arm)
          << where;
      ASSERT_LE(glm::length(Position(models, left_hand) - reach_target), 1e-4f * arm) << where;
      ASSERT_TRUE(solver.result.reached) << where;
      first_period.push_back(models);
    } else {
      ASSERT_EQ(models, first_period[frame % 36]) << where;
    }
    max_iterations = std::max(max_iterations, solver.result.iterations);
    if (frame < 36) period_iterations += solver.result.iterations;
  }
  RecordProperty("max_iterations", max_iterations);
  // And it gets there in a few iterations a frame (a deterministic count: the pins at the edge of
  // their reach are kept by predicting which the step would break, not by undoing steps).
  EXPECT_LE(period_iterations, 36 * 5);
  EXPECT_LE(max_iterations, 6);
}

// The frame path: once the workspace and result have held a solve of this rig, solving again
// does not touch the heap.
TEST(FullBody, SolvingAgainAllocatesNothing) {
  const iktest::MixamoRig rest = iktest::MakeMixamoRig();
  Solver solver(rest.skeleton);
  solver.limits = SpineLimits(rest.skeleton, solver.rig, 0.5f);
  solver.Add(ik::BodyEffector::Kind::kPin, rest.Joint("LeftFoot"));
  solver.Add(ik::BodyEffector::Kind::kPin, rest.Joint("RightFoot"));
  solver.Add(ik::BodyEffector::Kind::kPin, rest.Joint("RightHand"));
  solver.Add(ik::BodyEffector::Kind::kTarget, rest.Joint("LeftHand"),
             Position(rest.models, rest.Joint("LeftArm")) + glm::vec3(0.25f, -0.15f, 0.6f));
  solver.Add(ik::BodyEffector::Kind::kMove, rest.Joint("Hips"),
             Position(rest.models, rest.Joint("Hips")) + glm::vec3(0.0f, -0.05f, 0.02f));
  ik::Pose pose;
  std::vector<glm::mat4> models;
  SampleClip(rest, 0, &pose);
  ik::LocalToModel(rest.skeleton, pose, &models);
  ASSERT_TRUE(solver.Solve(&pose, &models));
  int iterations = 0;
  long allocations = 0;
  for (int frame = 1; frame < 100; ++frame) {
    SampleClip(rest, frame, &pose);
    ik::LocalToModel(rest.skeleton, pose, &models);
    bool ran = false;
    allocations += testsupport::AllocationsIn([&] { ran = solver.Solve(&pose, &models); });
    if (!ran) break;
    iterations += solver.result.iterations;
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_GT(iterations, 0);  // the body did work
  EXPECT_TRUE(solver.result.valid);
}

TEST(FullBody, TargetsAtTheEdgeOfTheFloatRangeKeepTheLastFinitePoseNeverNaN) {
  // A pin at 1e30 and a body target at 3e38: squares and sums of such distances overflow float
  // arithmetic. The solve must keep a finite pose, report it as not reached, and say why.
  const iktest::MixamoRig m0 = iktest::MakeMixamoRig();
  for (const glm::vec3& far : {glm::vec3(1e30f, 0.0f, 0.0f), glm::vec3(3e38f, -3e38f, 3e38f)}) {
    Solver solver(m0.skeleton);
    const ik::BodyLimb& left_leg = solver.Limb(ik::LimbKind::kLeg, ik::LimbSide::kLeft);
    const ik::BodyLimb& right_arm = solver.Limb(ik::LimbKind::kArm, ik::LimbSide::kRight);
    solver.Add(ik::BodyEffector::Kind::kPin, left_leg.limb.chain.end, far);
    solver.Add(ik::BodyEffector::Kind::kMove, solver.rig.hips,
               Position(m0.models, solver.rig.hips) + glm::vec3(0.0f, -0.1f, 0.05f));
    solver.Add(ik::BodyEffector::Kind::kTarget, right_arm.limb.chain.end, -far).body_helps = true;
    iktest::MixamoRig m = m0;
    ASSERT_TRUE(solver.Solve(&m.pose, &m.models)) << solver.result.why;
    for (size_t j = 0; j < m.pose.locals.size(); ++j) {
      ASSERT_TRUE(m.pose.locals[j].IsFinite()) << "joint " << j;
      ASSERT_TRUE(ik::IsFinite(m.models[j])) << "joint " << j;
    }
    EXPECT_FALSE(solver.result.reached);
    EXPECT_TRUE(std::isfinite(solver.result.max_error));
    EXPECT_GT(solver.result.max_error, 1e20f);
    for (const ik::BodyEffectorReport& e : solver.result.effectors) {
      EXPECT_TRUE(std::isfinite(e.error));
      EXPECT_TRUE(ik::IsFinite(e.position_model));
    }
  }
}

TEST(FullBody, InvalidJobsAreRefusedWithEveryReasonAndChangeNothing) {
  iktest::MixamoRig m = iktest::MakeMixamoRig();
  const std::vector<glm::mat4> before = m.models;
  Solver solver(m.skeleton);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("LeftLeg"));  // a knee
  solver.Add(ik::BodyEffector::Kind::kTarget, m.Joint("Spine1"), glm::vec3(0.0f));
  solver.Add(ik::BodyEffector::Kind::kMove, m.Joint("Head"));  // no target
  solver.Add(ik::BodyEffector::Kind::kTarget, m.Joint("LeftHand"), glm::vec3(nan, 0, 0));
  solver.Add(ik::BodyEffector::Kind::kPin, 1000);
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("RightFoot")).weight = 0.0f;
  solver.Add(ik::BodyEffector::Kind::kPin, m.Joint("LeftHandIndex2"));  // a finger
  solver.options.max_iterations = 0;
  EXPECT_FALSE(solver.Solve(&m.pose, &m.models));
  const std::string& why = solver.result.why;
  EXPECT_FALSE(solver.result.valid);
  for (const char* expected :
       {"max_iterations", "pin 0 (joint 'mixamorig:LeftLeg'): the joint moves with the limb",
        "target 1 (joint 'mixamorig:Spine1'): targets are for a limb's end",
        "move 2 (joint 'mixamorig:Head'): needs a target", "target 3", "not finite",
        "joint out of range", "weight must be", "pin 6 (joint 'mixamorig:LeftHandIndex2')"}) {
    EXPECT_NE(why.find(expected), std::string::npos) << "missing: " << expected << "\n" << why;
  }
  EXPECT_EQ(m.models, before);
  // Missing buffers, and a rig built for another skeleton.
  ik::FullBodyIkJob job;
  std::string reason;
  EXPECT_FALSE(job.Validate(&reason));
  EXPECT_NE(reason.find("must be set"), std::string::npos);
  const iktest::Humanoid h = iktest::MakeHumanoid();
  ik::BodyRig other;
  ASSERT_TRUE(ik::BuildBodyRig(h.skeleton, &other));
  job.skeleton = &m.skeleton;
  job.rig = &other;
  job.pose = &m.pose;
  job.models = &m.models;
  job.workspace = &solver.workspace;
  job.result = &solver.result;
  EXPECT_FALSE(job.Validate(&reason));
  EXPECT_NE(reason.find("rig was not built for this skeleton"), std::string::npos) << reason;
  // A non-finite pose.
  job.rig = &solver.rig;
  m.pose.locals[5].rotation.x = nan;
  EXPECT_FALSE(job.Validate(&reason));
  EXPECT_NE(reason.find("not finite"), std::string::npos) << reason;
}

// The 22-joint humanoid of the other constraint tests (one spine chain less, no fingers): a foot
// target below the ground with the hands pinned bends the body down to it.
TEST(FullBody, TheSmallHumanoidReachesAFootTargetWithItsHandsPinned) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const std::vector<glm::mat4> before = h.models;
  Solver solver(h.skeleton);
  EXPECT_EQ(solver.rig.hips, h.Joint("Hips"));
  EXPECT_EQ(solver.rig.chest, h.Joint("Spine2"));
  const int foot = h.Joint("LeftFoot");
  const glm::vec3 target = Position(h.models, foot) + glm::vec3(0.05f, -0.15f, 0.1f);
  solver.Add(ik::BodyEffector::Kind::kPin, h.Joint("LeftHand"));
  solver.Add(ik::BodyEffector::Kind::kPin, h.Joint("RightHand"));
  solver.Add(ik::BodyEffector::Kind::kTarget, foot, target);
  ASSERT_TRUE(solver.Solve(&h.pose, &h.models));
  EXPECT_TRUE(solver.result.reached) << solver.result.max_error;
  EXPECT_LE(glm::length(Position(h.models, foot) - target), 1e-5f);
  for (const char* hand : {"LeftHand", "RightHand"}) {
    EXPECT_LE(glm::length(Position(h.models, h.Joint(hand)) - Position(before, h.Joint(hand))),
              1e-5f);
  }
  ExpectBonesKept(h.skeleton, before, h.models, "humanoid");
}

}  // namespace
