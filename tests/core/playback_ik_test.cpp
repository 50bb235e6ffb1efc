// IK layered on a playing clip, as the viewer computes each frame: targets reached on every frame
// of a loop with bone lengths intact, feet kept on a raised and tilted ground, hands on rungs.
#include <gtest/gtest.h>

#include <cmath>

#include "app/core/chain_edit.h"
#include "assets/builtin/builtin_character.h"
#include "ik/core/kinematics.h"
#include "tests/support/builtin.h"

namespace {

using testsupport::Builtin;

// The built-in character's rig facts, found once (as the viewer does per load).
const app::Character& BuiltinCharacter() {
  static const app::Character character(Builtin());
  return character;
}

// Distances from every joint to its parent in a pose.
std::vector<float> BoneLengths(const ik::Skeleton& s, const std::vector<glm::mat4>& models) {
  std::vector<float> lengths(s.joint_count(), 0.0f);
  for (int j = 0; j < s.joint_count(); ++j) {
    if (s.parent(j) >= 0)
      lengths[j] = glm::length(glm::vec3(models[j][3] - models[s.parent(j)][3]));
  }
  return lengths;
}

TEST(PlaybackIk, TargetsReachedOnEveryFrameOfTheWalkLoop) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  ASSERT_GE(walk, 0);
  app::EditState edit;
  edit.chains = app::DefaultChains(BuiltinCharacter());
  ASSERT_EQ(edit.chains.size(), 6u);  // four limbs, the hips and chest handles (left free)
  // Feet lifted 4 cm and hands raised 8 cm, following the animation.
  for (app::ChainSettings& c : edit.chains) {
    if (c.kind != app::ConstraintKind::kTwoBone) continue;
    c.offset = c.label.find("Leg") != std::string::npos ? glm::vec3(0, 0.04f, 0)
                                                        : glm::vec3(0, 0.08f, 0.02f);
  }
  app::EditedFrame frame;
  app::PoseState state;
  const float duration = model.clips[walk].duration;
  int frames = 0;
  for (float t = 0.0f; t <= duration + 1e-6f; t += 1.0f / 60.0f, ++frames) {
    app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{walk, t}, edit, &frame, &state);
    ASSERT_EQ(state.ik.size(), 4u);
    const std::vector<float> animated = BoneLengths(model.skeleton, frame.unsolved_models);
    const std::vector<float> solved = BoneLengths(model.skeleton, state.models);
    for (size_t j = 0; j < solved.size(); ++j) {
      ASSERT_NEAR(solved[j], animated[j], 1e-5f * std::max(animated[j], 1e-3f) + 1e-6f)
          << "bone " << model.skeleton.name(int(j)) << " at t=" << t;
    }
    for (size_t c = 0; c < edit.chains.size(); ++c) {
      if (edit.chains[c].kind != app::ConstraintKind::kTwoBone) continue;
      const int r = frame.chain_requests[c].index;
      ASSERT_GE(r, 0);
      const ik::TwoBoneIkResult& result = state.ik[r];
      const app::IkChainRequest& request = frame.requests.ik[r];
      ASSERT_TRUE(result.reached) << "chain " << r << " at t=" << t << " case "
                                  << ik::CaseName(result.solve_case);
      const glm::vec3 end(state.models[request.chain.end][3]);
      ASSERT_LT(glm::length(end - request.target.position), 1e-5f * 1.75f);
      // The target really moved with the clip: it is the animated effector plus the offset.
      const glm::vec3 animated_end(frame.unsolved_models[request.chain.end][3]);
      ASSERT_LT(glm::length(request.target.position - animated_end - edit.chains[c].offset), 1e-6f);
    }
  }
  EXPECT_GE(frames, 60);
}

TEST(PlaybackIk, FeetStayOnARaisedTiltedGroundThroughTheWalk) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  app::EditState edit;
  edit.chains = app::DefaultChains(BuiltinCharacter());
  edit.contacts.ground.enabled = true;
  edit.contacts.ground.height = 0.04f;
  edit.contacts.ground.tilt_x_degrees = 8.0f;
  edit.contacts.ground.tilt_z_degrees = -5.0f;
  for (app::ChainSettings& c : edit.chains) {
    if (c.label.find("Leg") != std::string::npos) c.mode = app::TargetMode::kGround;
  }
  const app::GroundPlane& ground = edit.contacts.ground;
  app::EditedFrame frame;
  app::PoseState state;
  int planted_frames = 0;
  for (float t = 0.0f; t < model.clips[walk].duration; t += 1.0f / 30.0f) {
    app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{walk, t}, edit, &frame, &state);
    for (size_t c = 0; c < edit.chains.size(); ++c) {
      const app::ChainSettings& chain = edit.chains[c];
      const int r = frame.chain_requests[c].index;
      if (chain.mode != app::TargetMode::kGround) continue;
      const int end = chain.chain.end;
      const float contact = model.skeleton.rest_models()[end][3].y;
      const glm::vec3 foot(state.models[end][3]);
      // Reached, and never below the ground (plus the ankle's height above the sole).
      EXPECT_TRUE(state.ik[r].reached) << chain.label << " at t=" << t;
      EXPECT_GE(foot.y, ground.HeightAt(foot.x, foot.z) + contact - 1e-4f)
          << chain.label << " sinks";
      // A foot planted in the clip (at its rest height above the authored floor) is planted on
      // the ground.
      const glm::vec3 animated(frame.unsolved_models[end][3]);
      if (std::abs(animated.y - contact) < 2e-3f) {
        ++planted_frames;
        EXPECT_NEAR(foot.y, ground.HeightAt(foot.x, foot.z) + animated.y, 1e-4f);
      }
    }
  }
  EXPECT_GT(planted_frames, 10) << "the walk should plant its feet";
}

TEST(PlaybackIk, HipsComeDownSoFeetReachALowerGround) {
  const assets::Model& model = Builtin();
  app::EditState edit;
  edit.chains = app::DefaultChains(BuiltinCharacter());
  edit.contacts.ground.enabled = true;
  edit.contacts.ground.height = -0.15f;  // the ground falls away by more than the knees can give
  for (app::ChainSettings& c : edit.chains) {
    if (c.label.find("Leg") != std::string::npos) c.mode = app::TargetMode::kGround;
  }
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{-1, 0.0f}, edit, &frame, &state);
  for (size_t r = 0; r < state.ik.size(); ++r) EXPECT_TRUE(state.ik[r].reached) << r;
  const int hips = model.skeleton.Find("Hips");
  EXPECT_NEAR(state.models[hips][3].y, model.skeleton.rest_models()[hips][3].y - 0.15f, 1e-4f);
  // Without lowering, the straight legs cannot reach.
  edit.contacts.lower_hips = false;
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{-1, 0.0f}, edit, &frame, &state);
  bool any_missed = false;
  for (const ik::TwoBoneIkResult& r : state.ik) any_missed = any_missed || !r.reached;
  EXPECT_TRUE(any_missed);
}

TEST(PlaybackIk, HandsTakeTheNearestRungWithinReach) {
  app::EditState edit;
  edit.chains = app::DefaultChains(BuiltinCharacter());
  edit.contacts.ladder.enabled = true;
  edit.contacts.ladder.base = {0.0f, 0.95f, 0.2f};
  edit.contacts.ladder.spacing = 0.25f;
  edit.contacts.ladder.width = 1.2f;
  edit.contacts.ladder.count = 5;
  for (app::ChainSettings& c : edit.chains) {
    if (c.label.find("Arm") != std::string::npos) c.mode = app::TargetMode::kRung;
  }
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{-1, 0.0f}, edit, &frame, &state);
  int on_rungs = 0;
  for (size_t c = 0; c < edit.chains.size(); ++c) {
    const app::ChainSettings& chain = edit.chains[c];
    const int r = frame.chain_requests[c].index;
    if (chain.mode != app::TargetMode::kRung) continue;
    const glm::vec3 hand(state.models[chain.chain.end][3]);
    glm::vec3 nearest;
    ASSERT_TRUE(app::NearestOnRungs(edit.contacts.ladder, hand, &nearest));
    EXPECT_LT(glm::length(hand - nearest), 1e-4f) << chain.label << " is not on a rung";
    EXPECT_TRUE(state.ik[r].reached);
    ++on_rungs;
  }
  EXPECT_EQ(on_rungs, 2);
}

TEST(GroundPlane, HeightFollowsTheTilt) {
  app::GroundPlane ground;
  ground.height = 0.5f;
  EXPECT_FLOAT_EQ(ground.HeightAt(3.0f, -2.0f), 0.5f);
  ground.tilt_x_degrees = 45.0f;  // rises toward -Z
  EXPECT_NEAR(ground.HeightAt(0.0f, -1.0f), 1.5f, 1e-5f);
  EXPECT_NEAR(ground.HeightAt(7.0f, 1.0f), -0.5f, 1e-5f);
  ground.tilt_x_degrees = 0.0f;
  ground.tilt_z_degrees = 45.0f;  // rises toward +X
  EXPECT_NEAR(ground.HeightAt(1.0f, 0.0f), 1.5f, 1e-5f);
  EXPECT_NEAR(glm::length(ground.Normal()), 1.0f, 1e-6f);
  EXPECT_GT(ground.Normal().y, 0.0f);
}

}  // namespace
