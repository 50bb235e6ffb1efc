// Full-body IK on real rigs (the shared humanoid models, skipped with a message when absent) and on
// the built-in character's walk: the rig is found, the feet stay pinned while a hand reaches past
// its arm with the body's help, bone lengths hold, and a 10,000-frame walk loop does not drift.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "ik/body/full_body.h"
#include "ik/core/kinematics.h"
#include "tests/test_paths.h"

namespace {

glm::vec3 At(const std::vector<glm::mat4>& models, int joint) {
  return glm::vec3(models[joint][3]);
}

float LimbLength(const ik::BodyLimb& limb, const std::vector<glm::mat4>& models) {
  const ik::TwoBoneChain& c = limb.limb.chain;
  return glm::length(At(models, c.mid) - At(models, c.start)) +
         glm::length(At(models, c.end) - At(models, c.mid));
}

const ik::BodyLimb* FindLimb(const ik::BodyRig& rig, ik::LimbKind kind, ik::LimbSide side) {
  for (const ik::BodyLimb& l : rig.limbs) {
    if (l.limb.kind == kind && l.limb.side == side) return &l;
  }
  return nullptr;
}

// Every bone keeps its length (1e-5 relative, or 1e-5 of the body for tiny ones); all finite.
// (The hips' offset from a parent above them is not a bone: shifting the hips changes it.)
void ExpectBonesKept(const ik::Skeleton& s, const ik::BodyRig& rig,
                     const std::vector<glm::mat4>& before, const std::vector<glm::mat4>& after,
                     const std::string& where) {
  const float body_size = rig.size;
  for (int j = 0; j < s.joint_count(); ++j) {
    ASSERT_TRUE(ik::IsFinite(after[j])) << where << " " << s.name(j);
    const int p = s.parent(j);
    if (p < 0 || j == rig.hips) continue;
    const float a = glm::length(At(before, j) - At(before, p));
    const float b = glm::length(At(after, j) - At(after, p));
    ASSERT_NEAR(b, a, 1e-5f * std::max(a, body_size)) << where << " bone " << s.name(j);
  }
}

// At 24 times across the model's first clip: both feet pinned where the clip has them, the left
// hand's target 15% of the arm past where the arm could reach from the shoulder (along the
// shoulder-to-hand line). The feet hold, the hand reaches, the bones keep their lengths.
void ReachPastTheArm(const assets::Model& model, const std::string& name) {
  ik::BodyRig rig;
  std::string why;
  ASSERT_TRUE(ik::BuildBodyRig(model.skeleton, &rig, &why, &model.is_bone)) << name << ": " << why;
  const ik::BodyLimb* left_foot = FindLimb(rig, ik::LimbKind::kLeg, ik::LimbSide::kLeft);
  const ik::BodyLimb* right_foot = FindLimb(rig, ik::LimbKind::kLeg, ik::LimbSide::kRight);
  const ik::BodyLimb* arm = FindLimb(rig, ik::LimbKind::kArm, ik::LimbSide::kLeft);
  ASSERT_TRUE(left_foot && right_foot && arm) << name;
  ik::FullBodyWorkspace workspace;
  ik::FullBodyResult result;
  ik::Pose pose;
  std::vector<glm::mat4> models, sampled;
  int reached = 0;
  for (int k = 0; k < 24; ++k) {
    const std::string where = name + " sample " + std::to_string(k);
    if (model.clips.empty()) {
      pose = ik::Pose::Rest(model.skeleton);
    } else {
      assets::SampleClip(model, model.clips[0], model.clips[0].duration * float(k) / 24.0f, &pose);
    }
    ik::LocalToModel(model.skeleton, pose, &models);
    sampled = models;
    const glm::vec3 shoulder = At(models, arm->limb.chain.start);
    const glm::vec3 hand = At(models, arm->limb.chain.end);
    const float arm_length = LimbLength(*arm, models);
    const glm::vec3 target = shoulder + glm::normalize(hand - shoulder) * 1.15f * arm_length;
    std::vector<ik::BodyEffector> effectors(3);
    effectors[0].joint = left_foot->limb.chain.end;
    effectors[1].joint = right_foot->limb.chain.end;
    effectors[2].kind = ik::BodyEffector::Kind::kTarget;
    effectors[2].joint = arm->limb.chain.end;
    effectors[2].target_model = target;
    ik::FullBodyIkJob job;
    job.skeleton = &model.skeleton;
    job.rig = &rig;
    job.effectors = effectors.data();
    job.effector_count = 3;
    job.pose = &pose;
    job.models = &models;
    job.workspace = &workspace;
    job.result = &result;
    ASSERT_TRUE(job.Run()) << where << ": " << result.why;
    ExpectBonesKept(model.skeleton, rig, sampled, models, where);
    for (const ik::BodyLimb* leg : {left_foot, right_foot}) {
      ASSERT_LE(glm::length(At(models, leg->limb.chain.end) - At(sampled, leg->limb.chain.end)),
                1e-4f * LimbLength(*leg, sampled))
          << where;
    }
    const float error = glm::length(At(models, arm->limb.chain.end) - target);
    EXPECT_LE(error, 1e-4f * arm_length) << where << " iterations " << result.iterations;
    reached += result.reached ? 1 : 0;
  }
  EXPECT_EQ(reached, 24) << name;
}

TEST(FullBodyModels, RealHumanoidsReachPastTheArmWithTheFeetPinned) {
  int tried = 0;
  for (const char* relative : {"khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf",
                               "khronos-glTF-Sample-Models/RiggedFigure/glTF/RiggedFigure.gltf",
                               "assimp/BCN_Epileptic/BCN_Epileptic.X"}) {
    const std::string path = testpaths::SharedModel(relative);
    if (path.empty()) continue;
    const assets::LoadResult loaded = assets::LoadModel(path);
    ASSERT_TRUE(loaded.ok()) << relative << ": " << loaded.error;
    ReachPastTheArm(*loaded.model, relative);
    ++tried;
  }
  if (tried == 0) {
    GTEST_SKIP() << "no humanoid shared test model found under "
                 << testpaths::ExpectedSharedModels() << " (set SKELVIEW_MODELS to its directory)";
  }
}

TEST(FullBodyModels, TheBuiltInCharacterReachesPastItsArmThroughItsWalk) {
  ReachPastTheArm(assets::MakeBuiltinCharacter(), "built-in character");
}

// 10,000 frames of the built-in walk (30 frames a loop, sampled at frame/30 s so every loop's
// poses are the same bit for bit), each solved from its freshly sampled pose with the feet pinned
// where the walk has them, the hips moved 6 cm down and the left hand reaching for a fixed point
// ahead: the pins hold every frame of the first loop, and every later frame's matrices equal
// its first-loop twin exactly.
TEST(FullBodyModels, TenThousandFramesOfTheBuiltInWalkDoNotDrift) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  ASSERT_FALSE(model.clips.empty());
  const assets::Clip* walk = &model.clips[0];
  for (const assets::Clip& c : model.clips) {
    if (c.name == "Walk") walk = &c;
  }
  ik::BodyRig rig;
  ASSERT_TRUE(ik::BuildBodyRig(model.skeleton, &rig, nullptr, &model.is_bone));
  const int hips = rig.hips;
  const int left_foot = model.skeleton.Find("LeftFoot");
  const int right_foot = model.skeleton.Find("RightFoot");
  const int left_hand = model.skeleton.Find("LeftHand");
  ASSERT_GE(left_foot, 0);
  const std::vector<glm::mat4>& rest = model.skeleton.rest_models();
  const glm::vec3 reach = At(rest, model.skeleton.Find("LeftArm")) + glm::vec3(0.2f, -0.2f, 0.55f);
  ik::FullBodyWorkspace workspace;
  ik::FullBodyResult result;
  ik::Pose pose;
  std::vector<glm::mat4> models, sampled;
  std::vector<std::vector<glm::mat4>> first_loop;
  for (int frame = 0; frame < 10000; ++frame) {
    assets::SampleClip(model, *walk, float(frame % 30) / 30.0f, &pose);
    ik::LocalToModel(model.skeleton, pose, &models);
    sampled = models;
    ik::BodyEffector effectors[4];
    effectors[0].joint = left_foot;
    effectors[1].joint = right_foot;
    effectors[2].kind = ik::BodyEffector::Kind::kMove;
    effectors[2].joint = hips;
    effectors[2].target_model = At(models, hips) - glm::vec3(0.0f, 0.06f, 0.0f);
    effectors[3].kind = ik::BodyEffector::Kind::kTarget;
    effectors[3].joint = left_hand;
    effectors[3].target_model = reach;
    ik::FullBodyIkJob job;
    job.skeleton = &model.skeleton;
    job.rig = &rig;
    job.effectors = effectors;
    job.effector_count = 4;
    job.pose = &pose;
    job.models = &models;
    job.workspace = &workspace;
    job.result = &result;
    ASSERT_TRUE(job.Run()) << result.why;
    const std::string where = "frame " + std::to_string(frame);
    if (frame < 30) {
      ExpectBonesKept(model.skeleton, rig, sampled, models, where);
      for (int foot : {left_foot, right_foot}) {
        ASSERT_LE(glm::length(At(models, foot) - At(sampled, foot)), 1e-5f) << where;
      }
      ASSERT_LE(result.effectors[2].error, 1e-5f) << where;
      first_loop.push_back(models);
    } else {
      ASSERT_EQ(models, first_loop[frame % 30]) << where;
    }
  }
}

}  // namespace
