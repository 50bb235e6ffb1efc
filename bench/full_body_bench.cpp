// Benchmarks of the full-body IK job on a 65-joint Mixamo-like rig (tests/ik/mixamo_rig.h), as it
// runs every frame while the user drags: the pose is reset to the sampled pose before every solve
// (timed with it), the feet and hands are pinned where the pose has them, and each case cycles
// through 64 targets. items_per_second counts solves; "iterations" is the mean number of body
// iterations per solve, "reached" the fraction of solves with every effector within tolerance.
//  - pins: the four pins alone (nothing to do but check them and re-solve the limbs);
//  - drag_hips: the four pins and the hips moved within ±12 cm (down, forward, sideways);
//  - drag_chest: the four pins and the chest moved within ±10 cm;
//  - reach: the feet and right hand pinned, the left hand reaching 5-25 cm past its arm with the
//    body's help.
#include <benchmark/benchmark.h>

#include <cmath>
#include <glm/glm.hpp>
#include <random>
#include <vector>

#include "ik/body/full_body.h"
#include "ik/core/kinematics.h"
#include "tests/ik/mixamo_rig.h"

namespace {

enum Case { kPins = 0, kDragHips = 1, kDragChest = 2, kReach = 3 };

struct Problem {
  iktest::MixamoRig rig;
  ik::BodyRig body;
  std::vector<std::vector<ik::BodyEffector>> effectors;  // one set per frame
};

const Problem& MakeProblem(int which) {
  static Problem problems[4];
  Problem& p = problems[which];
  if (!p.effectors.empty()) return p;
  p.rig = iktest::MakeMixamoRig();
  // A pose off the rest pose: spine bent a little, arms and knees bent.
  auto turn = [&](const char* name, float angle, const glm::vec3& axis) {
    ik::Transform& t = p.rig.pose.locals[p.rig.Joint(name)];
    t.rotation = glm::normalize(t.rotation * glm::angleAxis(angle, glm::normalize(axis)));
  };
  turn("Spine1", 0.1f, {1, 0, 0});
  turn("LeftForeArm", 0.5f, {0, 0, 1});
  turn("RightForeArm", 0.5f, {0, 0, 1});
  turn("LeftLeg", 0.2f, {1, 0, 0});
  turn("RightLeg", 0.2f, {1, 0, 0});
  ik::LocalToModel(p.rig.skeleton, p.rig.pose, &p.rig.models);
  ik::BuildBodyRig(p.rig.skeleton, &p.body);
  std::mt19937 rng(900 + which);
  auto uniform = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
  };
  auto pin = [&](const char* name) {
    ik::BodyEffector e;
    e.kind = ik::BodyEffector::Kind::kPin;
    e.joint = p.rig.Joint(name);
    return e;
  };
  const glm::vec3 hips = glm::vec3(p.rig.models[p.rig.Joint("Hips")][3]);
  const glm::vec3 chest = glm::vec3(p.rig.models[p.rig.Joint("Spine2")][3]);
  const glm::vec3 shoulder = glm::vec3(p.rig.models[p.rig.Joint("LeftArm")][3]);
  for (int frame = 0; frame < 64; ++frame) {
    std::vector<ik::BodyEffector> set = {pin("LeftFoot"), pin("RightFoot"), pin("RightHand")};
    if (which != kReach) set.push_back(pin("LeftHand"));
    ik::BodyEffector e;
    e.target_model = glm::vec3(0.0f);
    if (which == kDragHips) {
      e.kind = ik::BodyEffector::Kind::kMove;
      e.joint = p.rig.Joint("Hips");
      e.target_model =
          hips + glm::vec3(uniform(-0.12f, 0.12f), uniform(-0.12f, 0.0f), uniform(-0.12f, 0.12f));
      set.push_back(e);
    } else if (which == kDragChest) {
      e.kind = ik::BodyEffector::Kind::kMove;
      e.joint = p.rig.Joint("Spine2");
      e.target_model =
          chest + glm::vec3(uniform(-0.1f, 0.1f), uniform(-0.1f, 0.0f), uniform(-0.1f, 0.1f));
      set.push_back(e);
    } else if (which == kReach) {
      e.kind = ik::BodyEffector::Kind::kTarget;
      e.joint = p.rig.Joint("LeftHand");
      const float arm = 0.56f;  // the left arm's length in this rig, about
      const glm::vec3 dir =
          glm::normalize(glm::vec3(uniform(0.2f, 1.0f), uniform(-1.0f, 0.2f), uniform(0.2f, 1.0f)));
      e.target_model = shoulder + dir * (arm + uniform(0.05f, 0.25f));
      set.push_back(e);
    }
    p.effectors.push_back(set);
  }
  return p;
}

void BM_FullBody(benchmark::State& state) {
  const Problem& p = MakeProblem(static_cast<int>(state.range(0)));
  ik::Pose pose = p.rig.pose;
  std::vector<glm::mat4> models = p.rig.models;
  ik::FullBodyWorkspace workspace;
  ik::FullBodyResult result;
  ik::FullBodyIkJob job;
  job.skeleton = &p.rig.skeleton;
  job.rig = &p.body;
  job.pose = &pose;
  job.models = &models;
  job.workspace = &workspace;
  job.result = &result;
  double iterations = 0.0, reached = 0.0;
  size_t i = 0;
  for (auto _ : state) {
    const std::vector<ik::BodyEffector>& set = p.effectors[i++ % p.effectors.size()];
    std::copy(p.rig.pose.locals.begin(), p.rig.pose.locals.end(), pose.locals.begin());
    std::copy(p.rig.models.begin(), p.rig.models.end(), models.begin());
    job.effectors = set.data();
    job.effector_count = static_cast<int>(set.size());
    job.Run();
    iterations += result.iterations;
    reached += result.reached ? 1.0 : 0.0;
    benchmark::DoNotOptimize(models.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["iterations"] = benchmark::Counter(iterations, benchmark::Counter::kAvgIterations);
  state.counters["reached"] = benchmark::Counter(reached, benchmark::Counter::kAvgIterations);
  state.counters["joints"] = p.rig.skeleton.joint_count();
}
BENCHMARK(BM_FullBody)->ArgName("case")->Arg(kPins)->Arg(kDragHips)->Arg(kDragChest)->Arg(kReach);

}  // namespace
