// The frame path allocates nothing: two-bone IK (job and pose level), the batch, aim with a reused
// workspace, and forward kinematics of a subtree in any joint order.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ik/chains/aim.h"
#include "ik/core/kinematics.h"
#include "ik/two_bone/two_bone_ik.h"
#include "ik/two_bone/two_bone_ik_batch.h"
#include "tests/ik/humanoid_rig.h"
#include "tests/ik/ik_test_util.h"
#include "tests/support/allocations.h"

namespace {

// Pointers stored here escape, so the compiler may not elide the allocations behind them.
void* volatile g_sink = nullptr;

using testsupport::AllocationsIn;

TEST(Allocation, TheCounterSeesAnAllocation) {
  // Without this the other tests would pass with a counter that never counts.
  const long n = AllocationsIn([] {
    std::vector<int>* v = new std::vector<int>(100);
    g_sink = v;
    g_sink = v->data();
    delete v;
  });
  EXPECT_EQ(n, 2);
}

TEST(Allocation, TwoBoneJobAndPoseLevelAllocateNothing) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const ik::TwoBoneChain leg{h.Joint("LeftUpLeg"), h.Joint("LeftLeg"), h.Joint("LeftFoot")};
  const ik::Pose rest = h.pose;
  const std::vector<glm::mat4> rest_models = h.models;
  std::mt19937 rng(1);
  std::vector<glm::vec3> targets;
  for (int i = 0; i < 64; ++i) {
    targets.push_back(glm::vec3(0.1f, 0.4f, 0.05f) + iktest::RandomUnit(rng) * 0.5f);
  }
  ik::TwoBoneIkOptions hinge;
  hinge.hinge = true;
  hinge.pole_model = glm::vec3(0.1f, 0.5f, 1.0f);
  int reached = 0;
  const long n = AllocationsIn([&] {
    for (const glm::vec3& t : targets) {
      for (const ik::TwoBoneIkOptions& options : {ik::TwoBoneIkOptions{}, hinge}) {
        const auto& m = h.models;
        const ik::TwoBoneIkResult job =
            ik::SolveTwoBoneIk(m[leg.start], m[leg.mid], m[leg.end], t, options);
        reached += job.reached ? 1 : 0;
        std::copy(rest.locals.begin(), rest.locals.end(), h.pose.locals.begin());
        std::copy(rest_models.begin(), rest_models.end(), h.models.begin());
        const ik::TwoBoneIkResult pose =
            ik::SolveTwoBoneIkPose(h.skeleton, leg, {t, {}}, options, &h.pose, &h.models);
        reached += pose.reached ? 1 : 0;
      }
    }
  });
  EXPECT_EQ(n, 0);
  EXPECT_GT(reached, 0);  // the solves did run
}

TEST(Allocation, BatchSolvesAllocateNothingOnceSized) {
  std::mt19937 rng(2);
  ik::TwoBoneIkBatch batch(100);
  for (int i = 0; i < batch.size(); ++i) {
    const iktest::ChainRig rig = iktest::RandomChainRig(rng);
    batch.SetChain(i, rig.models[1], rig.models[2], rig.models[3],
                   iktest::TargetAt(rng, iktest::Position(rig.models, 1), rig.upper));
  }
  const long n = AllocationsIn([&] {
    batch.Solve({});
    batch.Solve({}, ik::TwoBoneIkBatch::Kernel::kSse2);
  });
  EXPECT_EQ(n, 0);
}

TEST(Allocation, AimWithAReusedWorkspaceAllocatesNothing) {
  iktest::Humanoid h = iktest::MakeHumanoid();
  const int head = h.Joint("Head"), calf = h.Joint("LeftLeg");
  ik::JointLimits limits;
  limits.Set(head, ik::JointLimit::Cone(glm::vec3(0, 1, 0), 0.8f, -0.5f, 0.5f));
  ik::AimOptions spread;
  spread.spread = 3;
  spread.up_local = glm::vec3(0, 0, 1);
  spread.up_target_model = glm::vec3(0.0f, 2.0f, 3.0f);
  spread.weight = 0.7f;
  ik::AimWorkspace workspace;
  // The first solve sizes the workspace.
  ik::SolveAimPose(h.skeleton, head, glm::vec3(1, 2, 1), spread, &limits, &h.pose, &h.models,
                   &workspace);
  int reached = 0;
  std::mt19937 rng(3);
  const long n = AllocationsIn([&] {
    for (int i = 0; i < 64; ++i) {
      const glm::vec3 t = glm::vec3(0.0f, 1.5f, 0.0f) + iktest::RandomUnit(rng) * 2.0f;
      reached +=
          ik::SolveAimPose(h.skeleton, head, t, spread, &limits, &h.pose, &h.models, &workspace)
              .reached;
      reached += ik::SolveAimPose(h.skeleton, calf, t, {}, nullptr, &h.pose, &h.models, &workspace)
                     .reached;
      reached += ik::SolveAimPoseAtJoint(h.skeleton, calf, h.Joint("RightFoot"), {}, nullptr,
                                         &h.pose, &h.models, &workspace)
                     .reached;
    }
  });
  EXPECT_EQ(n, 0);
  EXPECT_GT(reached, 0);
}

TEST(Allocation, SubtreeForwardKinematicsAllocatesNothingInAnyJointOrder) {
  // Joints not in depth-first order: root, a, b, a's child, b's child.
  ik::Transform t;
  t.translation = glm::vec3(0.0f, 1.0f, 0.0f);
  const ik::Skeleton s = iktest::MustBuild(
      {{"root", -1, t, {}}, {"a", 0, t, {}}, {"b", 0, t, {}}, {"a1", 1, t, {}}, {"b1", 2, t, {}}});
  ASSERT_FALSE(s.subtree_contiguous());
  ik::Pose pose = ik::Pose::Rest(s);
  std::vector<glm::mat4> models;
  ik::LocalToModel(s, pose, &models);
  pose.locals[1].rotation = glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  const long n = AllocationsIn([&] { ik::LocalToModelFrom(s, pose, 1, &models); });
  EXPECT_EQ(n, 0);
  std::vector<glm::mat4> full;
  ik::LocalToModel(s, pose, &full);
  EXPECT_EQ(models, full);
}

}  // namespace
