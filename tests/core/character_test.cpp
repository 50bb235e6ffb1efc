// A loaded model's character: its rig facts are what the detectors find (found once, looked up
// after), clips played together are the character's and leave the model as loaded, and the
// window's, the command line's and the crowd's frames are the one pipeline's.
#include "app/core/character.h"

#include <gtest/gtest.h>

#include "app/core/bake.h"
#include "app/core/chain_edit.h"
#include "app/core/crowd.h"
#include "app/core/ghost_poses.h"
#include "assets/builtin/builtin_character.h"
#include "assets/model/animation.h"
#include "ik/core/kinematics.h"
#include "ik/limits/joint_limits.h"
#include "tests/support/builtin.h"
#include "tests/support/edits.h"

namespace {

using testsupport::Builtin;

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

// An edit that runs every stage of the pipeline: a joint's rotation replaced, the body (the hips
// handle dragged), a lifted foot, a FABRIK chain, an aim and two joint limits (a hinge on the
// lifted leg's knee, which its chain takes as its hinge, and a cone).
app::EditState EveryStage(const app::Character& character) {
  const ik::Skeleton& skeleton = character.skeleton();
  app::EditState edit = testsupport::EveryStageEdit(character);
  const int arm = skeleton.Find("RightArm");
  edit.joint_rotations[arm] =
      skeleton.rest_locals()[arm].rotation * glm::angleAxis(0.4f, glm::vec3(0.0f, 0.0f, 1.0f));
  return edit;
}

// The pipeline's own frame (EvaluateFrame) for the edit, checking that every stage ran.
void PipelineFrame(const app::Character& character, const app::EditState& edit, int clip, float t,
                   app::EditedFrame* frame, app::PoseState* state) {
  app::FrameSource source;
  source.clip_time = app::ClipTime{clip, t};
  source.edit = &edit;
  app::EvaluateFrame(character, source, frame, state);
  EXPECT_TRUE(state->body_ran);
  EXPECT_EQ(state->ik.size(), 4u);
  EXPECT_EQ(state->fabrik.size(), 1u);
  EXPECT_EQ(state->aim.size(), 1u);
  EXPECT_TRUE(frame->requests.ik[0].options.hinge);
}

// The bake runs the pipeline: each key of the baked clip is the pipeline's frame at its time,
// exactly, for an edit that uses every stage.
TEST(Pipeline, TheBakesKeysAreThePipelinesFramesForAnEditOfEveryStage) {
  const app::Character character(Builtin());
  const app::EditState edit = EveryStage(character);
  const int walk = Builtin().FindClip("Walk");
  ASSERT_GE(walk, 0);
  const float fps = 30.0f;
  const assets::Clip baked = app::BakeClip(character, walk, fps, edit);
  const int joints = character.skeleton().joint_count();
  ASSERT_EQ(baked.channels.size(), size_t(joints));
  app::EditedFrame frame;
  app::PoseState state;
  for (int f : {0, 7, 16}) {
    const float t = float(f) / fps;
    PipelineFrame(character, edit, walk, t, &frame, &state);
    for (int j = 0; j < joints; ++j) {
      const assets::JointAnimation& channel = baked.channels[size_t(j)];
      ASSERT_GT(channel.rotation.values.size(), size_t(f));
      EXPECT_EQ(channel.rotation.times[size_t(f)], t);
      const ik::Transform& local = state.pose.locals[size_t(j)];
      EXPECT_EQ(channel.translation.values[size_t(f)], local.translation) << j;
      const glm::quat q = channel.rotation.values[size_t(f)];
      EXPECT_TRUE(q == local.rotation || q == -local.rotation) << j;  // the bake keeps a hemisphere
      EXPECT_EQ(channel.scale.values[size_t(f)], local.scale) << j;
    }
  }
}

// The onion skins run the pipeline: each ghost is the pipeline's frame at the ghost's time.
TEST(Pipeline, TheGhostsAreThePipelinesFramesForAnEditOfEveryStage) {
  const app::Character character(Builtin());
  const app::EditState edit = EveryStage(character);
  app::Playback playback;
  playback.clip = Builtin().FindClip("Walk");
  playback.time = 0.5f;
  app::GhostCache cache;
  cache.Update(character, playback, edit, /*count=*/2, /*step=*/3, /*trail_joint=*/-1);
  ASSERT_EQ(cache.ghosts().size(), 4u);
  app::EditedFrame frame;
  app::PoseState state;
  for (const app::GhostPose& ghost : cache.ghosts()) {
    PipelineFrame(character, edit, playback.clip, ghost.time, &frame, &state);
    EXPECT_EQ(ghost.models, state.models) << "ghost " << ghost.offset;
  }
}

// The window's frame is the pipeline's (EvaluateEditedFrame is EvaluateFrame with the edit), and
// so is the command line's (EvaluatePose: the fixed requests); with the edit's requests fixed, the
// two give one pose.
TEST(Pipeline, TheWindowsAndTheCommandLinesFramesAreThePipelinesForAnEditOfEveryStage) {
  const app::Character character(Builtin());
  const app::EditState edit = EveryStage(character);
  const int walk = Builtin().FindClip("Walk");
  app::EditedFrame frame, window_frame;
  app::PoseState state, window;
  PipelineFrame(character, edit, walk, 0.3f, &frame, &state);
  app::EvaluateEditedFrame(character, app::ClipTime{walk, 0.3f}, edit, &window_frame, &window);
  EXPECT_EQ(window.models, state.models);
  EXPECT_EQ(window.morph_weights, state.morph_weights);
  // The requests the edit gave, fixed: the command line's frame. The edit's rotations are not
  // requests, so the command line is compared on an edit without them.
  app::EditState no_rotations = edit;
  no_rotations.joint_rotations.clear();
  PipelineFrame(character, no_rotations, walk, 0.3f, &frame, &state);
  app::PoseState command_line;
  app::EvaluatePose(character, app::ClipTime{walk, 0.3f}, frame.requests, &command_line);
  EXPECT_EQ(command_line.models, state.models);
  ASSERT_EQ(command_line.ik.size(), state.ik.size());
  for (size_t i = 0; i < state.ik.size(); ++i) {
    EXPECT_EQ(command_line.ik[i].reached, state.ik[i].reached);
  }
}

}  // namespace

namespace {

// A bone rotated in the view (EditState::joint_offsets) turns the clip's rotation at every time:
// the clip plays under it.
TEST(Character, RotationOffsetsTurnTheClipsRotationAsItPlays) {
  const app::Character character(Builtin());
  const ik::Skeleton& skeleton = character.skeleton();
  const int walk = Builtin().FindClip("Walk");
  ASSERT_GE(walk, 0);
  const int arm = skeleton.Find("LeftForeArm");
  const glm::quat offset = glm::angleAxis(0.5f, glm::normalize(glm::vec3(0.3f, 1.0f, -0.2f)));
  app::EditState plain, rotated;
  rotated.joint_offsets[arm] = offset;
  for (float t : {0.1f, 0.45f, 0.8f}) {
    app::EditedFrame frame;
    app::PoseState animated, turned;
    app::EvaluateEditedFrame(character, app::ClipTime{walk, t}, plain, &frame, &animated);
    app::EvaluateEditedFrame(character, app::ClipTime{walk, t}, rotated, &frame, &turned);
    const glm::quat expected = glm::normalize(animated.pose.locals[size_t(arm)].rotation * offset);
    EXPECT_NEAR(std::abs(glm::dot(turned.pose.locals[size_t(arm)].rotation, expected)), 1.0f, 1e-6f)
        << "t = " << t;
    // Only that joint's local rotation changed.
    for (int j = 0; j < skeleton.joint_count(); ++j) {
      if (j == arm) continue;
      EXPECT_EQ(turned.pose.locals[size_t(j)].rotation, animated.pose.locals[size_t(j)].rotation)
          << skeleton.name(j);
    }
  }
  // An offset with a replacing rotation turns the replacement.
  app::EditState both = rotated;
  const glm::quat replaced = glm::angleAxis(0.2f, glm::vec3(1.0f, 0.0f, 0.0f));
  both.joint_rotations[arm] = replaced;
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(character, app::ClipTime{walk, 0.3f}, both, &frame, &state);
  EXPECT_NEAR(std::abs(glm::dot(state.pose.locals[size_t(arm)].rotation,
                                glm::normalize(replaced * offset))),
              1.0f, 1e-6f);
}

}  // namespace
