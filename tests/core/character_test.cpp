// A loaded model's character: its rig facts are what the detectors find (found once, looked up
// after), clips played together are the character's and leave the model as loaded, and the
// window's, the command line's and the crowd's frames are the one pipeline's.
#include "app/core/character.h"

#include <gtest/gtest.h>

#include "app/core/bake.h"
#include "app/core/chain_edit.h"
#include "app/core/crowd.h"
#include "assets/animation.h"
#include "assets/builtin_character.h"
#include "ik/kinematics.h"

namespace {

const assets::Model& Builtin() {
  static const assets::Model model = assets::MakeBuiltinCharacter();
  return model;
}

bool SameChain(const ik::TwoBoneChain& a, const ik::TwoBoneChain& b) {
  return a.start == b.start && a.mid == b.mid && a.end == b.end;
}

TEST(Character, RigFactsAreTheDetectorsOwn) {
  const assets::Model& model = Builtin();
  const app::Character character(model);
  const ik::Skeleton& skeleton = model.skeleton;
  const std::vector<ik::Limb> limbs = ik::DetectLimbs(skeleton, &model.is_bone);
  ASSERT_EQ(character.limbs().size(), limbs.size());
  ASSERT_EQ(limbs.size(), 4u);
  for (size_t i = 0; i < limbs.size(); ++i) {
    EXPECT_TRUE(SameChain(character.limbs()[i].chain, limbs[i].chain)) << limbs[i].label;
    EXPECT_TRUE(character.IsLimbEnd(limbs[i].chain.end));
    EXPECT_EQ(character.BendAxis(limbs[i].chain), ik::DetectBendAxis(skeleton, limbs[i].chain));
  }
  ik::BodyRig rig;
  ASSERT_TRUE(ik::BuildBodyRig(skeleton, &rig, nullptr, &model.is_bone));
  const ik::BodyRig* facts = character.body_rig();
  ASSERT_NE(facts, nullptr);
  EXPECT_EQ(facts->hips, rig.hips);
  EXPECT_EQ(facts->chest, rig.chest);
  EXPECT_EQ(facts->spine, rig.spine);
  EXPECT_EQ(facts->size, rig.size);
  EXPECT_FALSE(character.IsLimbEnd(rig.hips));
  // Every chain ik::ChainFromEnd makes, and one that skips a joint (computed, not looked up).
  for (int j = 0; j < skeleton.joint_count(); ++j) {
    const auto chain = ik::ChainFromEnd(skeleton, j, nullptr);
    if (!chain) continue;
    EXPECT_EQ(character.BendAxis(*chain), ik::DetectBendAxis(skeleton, *chain)) << skeleton.name(j);
    EXPECT_EQ(character.HingeByDefault(*chain), ik::DetectBendAxis(skeleton, *chain).has_value());
  }
  const ik::TwoBoneChain skipping{skeleton.Find("LeftUpLeg"), skeleton.Find("LeftLeg"),
                                  skeleton.Find("LeftToeBase")};
  ASSERT_TRUE(skipping.Validate(skeleton));
  EXPECT_EQ(character.BendAxis(skipping), ik::DetectBendAxis(skeleton, skipping));
}

TEST(Character, AModelWithoutLimbsHasNoBodyRigAndSaysWhy) {
  assets::Model model;
  std::string error;
  std::vector<ik::JointDesc> joints(3);
  for (int j = 0; j < 3; ++j) {
    joints[j].name = "j" + std::to_string(j);
    joints[j].parent = j - 1;
    joints[j].rest.translation = glm::vec3(0.0f, 1.0f, 0.0f);
  }
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  const app::Character character(model);
  EXPECT_TRUE(character.limbs().empty());
  std::string why;
  EXPECT_EQ(character.body_rig(&why), nullptr);
  EXPECT_FALSE(why.empty());
  EXPECT_TRUE(app::DefaultChains(character).empty());
  // An empty character (nothing loaded) has no clips and no joints.
  const app::Character nothing;
  EXPECT_EQ(nothing.skeleton().joint_count(), 0);
  EXPECT_EQ(nothing.clip(0), nullptr);
}

TEST(Character, ClipsPlayedTogetherAreTheCharactersAndTheModelStaysAsLoaded) {
  const assets::Model& model = Builtin();
  ASSERT_GE(model.clips.size(), 2u);
  const size_t clips = model.clips.size();
  app::Character character(model);
  const int file_clips = character.file_clip_count();
  EXPECT_EQ(character.clip(file_clips), nullptr);  // nothing combined yet
  const int combined = character.PlayTogether({1, 0});
  EXPECT_EQ(combined, file_clips);
  EXPECT_EQ(character.clip_count(), file_clips + 1);
  EXPECT_EQ(model.clips.size(), clips);
  const assets::Clip expected = assets::CombineClips(model, {1, 0});
  ASSERT_NE(character.clip(combined), nullptr);
  EXPECT_EQ(character.clip(combined)->name, expected.name);
  EXPECT_EQ(character.clip(combined)->duration, expected.duration);
  // The pipeline samples the combination like any clip.
  const float t = 0.4f * expected.duration;
  app::PoseState played;
  app::EvaluatePose(character, app::ClipTime{combined, t}, app::ConstraintRequests{}, &played);
  ik::Pose sampled = ik::Pose::Rest(model.skeleton);
  assets::SampleClip(model.skeleton, expected, t, &sampled);
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, sampled, &models);
  EXPECT_EQ(played.models, models);
  // Baked and exported, it comes after the model's own clips.
  app::EditState edit;
  const assets::Clip baked = app::BakeClip(character, combined, 30.0f, edit);
  EXPECT_EQ(baked.name, expected.name + " (IK)");
  // One clip again: no combination.
  EXPECT_EQ(character.PlayTogether({1}), 1);
  EXPECT_TRUE(character.together().empty());
  EXPECT_EQ(character.clip(file_clips), nullptr);
  EXPECT_EQ(model.clips.size(), clips);
}

// The crowd runs the window's pipeline: a member at the grid's centre (placed at the origin) has
// exactly the pose the window computes for the same edit (its limbs lifted, hinge off) and time.
TEST(Pipeline, ACrowdMemberIsTheWindowsFrame) {
  const app::Character character(Builtin());
  const float lift = 0.03f;
  for (bool batch : {false, true}) {
    app::Crowd crowd(character, 1, /*clip=*/0, /*spacing=*/1.0f, lift, batch);
    crowd.Update(0.1f);
    app::EditState edit;
    for (const ik::Limb& limb : character.limbs()) {
      app::ChainSettings chain;
      chain.chain = limb.chain;
      chain.offset = glm::vec3(0.0f, lift, 0.0f);
      edit.chains.push_back(chain);
    }
    app::EditedFrame frame;
    app::PoseState state;
    app::EvaluateEditedFrame(character, app::ClipTime{0, 0.1f}, edit, &frame, &state);
    ASSERT_EQ(crowd.models(0).size(), state.models.size());
    for (size_t j = 0; j < state.models.size(); ++j) {
      const glm::vec3 a(crowd.models(0)[j][3]), b(state.models[j][3]);
      if (batch) {
        EXPECT_LT(glm::length(a - b), 2e-5f) << "joint " << j;  // the SIMD solve's rounding
      } else {
        EXPECT_EQ(a, b) << "joint " << j;
      }
    }
    EXPECT_EQ(crowd.reached_count(), 4);
  }
}

// The command line's frame and the window's agree: the window given the command line's requests
// (EditForRequests: pinned targets) poses the character the same way.
TEST(Pipeline, TheCommandLinesRequestsAndTheWindowsEditGiveOnePose) {
  const app::Character character(Builtin());
  const ik::Skeleton& skeleton = character.skeleton();
  app::ConstraintRequests requests;
  app::IkChainRequest hand;
  hand.chain = *ik::ChainFromEnd(skeleton, skeleton.Find("LeftHand"), nullptr);
  hand.target.position = glm::vec3(0.3f, 1.2f, 0.25f);
  hand.options.hinge = true;
  hand.options.bend_axis_local = character.BendAxis(hand.chain);
  requests.ik.push_back(hand);
  app::PoseState posed;
  app::EvaluatePose(character, app::ClipTime{0, 0.3f}, requests, &posed);
  app::EditedFrame frame;
  app::PoseState edited;
  app::EvaluateEditedFrame(character, app::ClipTime{0, 0.3f},
                           app::EditForRequests(character, requests), &frame, &edited);
  ASSERT_EQ(posed.ik.size(), 1u);
  ASSERT_EQ(edited.ik.size(), 1u);
  EXPECT_EQ(posed.models, edited.models);
  EXPECT_EQ(posed.ik[0].reached, edited.ik[0].reached);
}

}  // namespace
