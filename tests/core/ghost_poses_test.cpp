// Onion-skin ghosts and the motion trail: each ghost is the pose evaluated at its own time with
// the IK, the trail runs through the joint's positions frame by frame, both cached.
#include "app/core/ghost_poses.h"

#include <gtest/gtest.h>

#include "app/core/bake.h"
#include "assets/builtin/builtin_character.h"
#include "tests/support/builtin.h"

namespace {

using testsupport::Builtin;

// The built-in character's rig facts, found once (as the viewer does per load).
const app::Character& BuiltinCharacter() {
  static const app::Character character(Builtin());
  return character;
}

void ExpectSamePose(const std::vector<glm::mat4>& a, const std::vector<glm::mat4>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t j = 0; j < a.size(); ++j) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) ASSERT_NEAR(a[j][c][r], b[j][c][r], 1e-6f) << "joint " << j;
    }
  }
}

// The walk of the built-in character with its default chains, the left foot raised by 5 cm so
// that the IK changes the pose.
struct WalkScene {
  const assets::Model& model = Builtin();
  const app::Character& character = BuiltinCharacter();
  app::Playback playback;
  app::EditState edit;
  int left_leg = -1;
  WalkScene() {
    playback.clip = model.FindClip("Walk");
    playback.time = 0.4f;
    edit.chains = app::DefaultChains(character);
    for (size_t c = 0; c < edit.chains.size(); ++c) {
      if (edit.chains[c].label == "LeftLeg") left_leg = static_cast<int>(c);
    }
    if (left_leg >= 0) edit.chains[left_leg].offset = glm::vec3(0.0f, 0.05f, 0.02f);
  }
  std::vector<glm::mat4> PoseAt(float t) const {
    app::EditedFrame frame;
    app::PoseState state;
    app::EvaluateEditedFrame(character, app::ClipTime{playback.clip, t}, edit, &frame, &state);
    return state.models;
  }
};

const app::GhostPose* GhostAt(const app::GhostCache& cache, int offset) {
  for (const app::GhostPose& g : cache.ghosts()) {
    if (g.offset == offset) return &g;
  }
  return nullptr;
}

TEST(GhostPoses, GhostOneFrameAheadIsThePoseOneFrameLater) {
  WalkScene s;
  ASSERT_GE(s.playback.clip, 0);
  ASSERT_GE(s.left_leg, 0);
  app::GhostCache cache;
  cache.Update(s.character, s.playback, s.edit, 2, 1, -1);
  const float rate = app::EstimateFrameRate(s.model.clips[s.playback.clip]);
  EXPECT_EQ(cache.frame_rate(), rate);
  ASSERT_EQ(cache.ghosts().size(), 4u);
  const app::GhostPose* next = GhostAt(cache, 1);
  ASSERT_NE(next, nullptr);
  EXPECT_FLOAT_EQ(next->time, s.playback.time + 1.0f / rate);
  ExpectSamePose(next->models, s.PoseAt(s.playback.time + 1.0f / rate));
  const app::GhostPose* before = GhostAt(cache, -2);
  ASSERT_NE(before, nullptr);
  ExpectSamePose(before->models, s.PoseAt(s.playback.time - 2.0f / rate));
  // The ghost differs from the current pose: the clip moves between frames.
  const std::vector<glm::mat4> now = s.PoseAt(s.playback.time);
  EXPECT_GT(glm::length(glm::vec3(next->models[s.edit.chains[s.left_leg].chain.end][3]) -
                        glm::vec3(now[s.edit.chains[s.left_leg].chain.end][3])),
            1e-4f);
}

TEST(GhostPoses, GhostsIncludeTheIk) {
  WalkScene s;
  ASSERT_GE(s.left_leg, 0);
  app::GhostCache cache;
  cache.Update(s.character, s.playback, s.edit, 3, 2, -1);
  ASSERT_EQ(cache.ghosts().size(), 6u);
  for (const app::GhostPose& g : cache.ghosts()) {
    // Where the target is at the ghost's time: the animated foot plus the offset.
    app::EditedFrame frame;
    app::PoseState state;
    app::EvaluateEditedFrame(s.character, app::ClipTime{s.playback.clip, g.time}, s.edit, &frame,
                             &state);
    const int r = frame.chain_requests[s.left_leg].index;
    ASSERT_GE(r, 0);
    const glm::vec3 target = frame.requests.ik[r].target.position;
    const glm::vec3 animated(frame.unsolved_models[s.edit.chains[s.left_leg].chain.end][3]);
    EXPECT_NEAR(glm::length(target - animated), glm::length(glm::vec3(0.0f, 0.05f, 0.02f)), 1e-5f);
    const glm::vec3 foot(g.models[s.edit.chains[s.left_leg].chain.end][3]);
    EXPECT_LT(glm::length(foot - target), 1e-4f) << "ghost at offset " << g.offset;
  }
}

TEST(GhostPoses, GhostsWrapWhileLoopingAndStopAtTheEndsOtherwise) {
  WalkScene s;
  const float duration = s.model.clips[s.playback.clip].duration;
  const float rate = app::EstimateFrameRate(s.model.clips[s.playback.clip]);
  s.playback.time = 0.0f;
  std::vector<std::pair<int, float>> times;
  app::GhostTimes(s.playback, duration, rate, 2, 3, &times);
  ASSERT_EQ(times.size(), 4u);
  EXPECT_EQ(times[0].first, -6);  // farthest past first
  EXPECT_NEAR(times[0].second, duration - 6.0f / rate, 1e-5f);
  EXPECT_EQ(times[1].first, -3);
  EXPECT_EQ(times[2].first, 3);
  EXPECT_NEAR(times[2].second, 3.0f / rate, 1e-5f);
  EXPECT_EQ(times[3].first, 6);
  s.playback.loop = false;
  app::GhostTimes(s.playback, duration, rate, 2, 3, &times);
  ASSERT_EQ(times.size(), 2u);  // nothing before the clip's start
  EXPECT_EQ(times[0].first, 3);
  EXPECT_EQ(times[1].first, 6);
  // A loop range: ghosts wrap within it.
  s.playback.loop = true;
  s.playback.range_start = 0.2f;
  s.playback.range_end = 0.6f;
  s.playback.time = 0.58f;
  app::GhostTimes(s.playback, duration, rate, 1, 3, &times);
  ASSERT_EQ(times.size(), 2u);
  EXPECT_NEAR(times[1].second, 0.2f + (0.38f + 3.0f / rate - 0.4f), 1e-5f);
}

TEST(GhostPoses, TrailPassesThroughTheJointAtEveryFrame) {
  WalkScene s;
  const int foot = s.edit.chains[s.left_leg].chain.end;
  app::GhostCache cache;
  cache.Update(s.character, s.playback, s.edit, 0, 1, foot);
  EXPECT_TRUE(cache.ghosts().empty());
  const app::MotionTrail& trail = cache.trail();
  const float duration = s.model.clips[s.playback.clip].duration;
  const float rate = cache.frame_rate();
  ASSERT_EQ(trail.joint, foot);
  ASSERT_EQ(trail.positions.size(), trail.times.size());
  ASSERT_GE(trail.positions.size(), size_t(duration * rate));
  EXPECT_FLOAT_EQ(trail.times.front(), 0.0f);
  EXPECT_NEAR(trail.times.back(), duration, 1e-5f);
  for (size_t i = 0; i < trail.times.size(); i += 7) {
    const std::vector<glm::mat4> pose = s.PoseAt(trail.times[i]);
    EXPECT_LT(glm::length(trail.positions[i] - glm::vec3(pose[foot][3])), 1e-6f) << i;
    if (i + 1 < trail.times.size()) {
      EXPECT_NEAR(trail.times[i + 1] - trail.times[i], 1.0f / rate, 1e-4f);
    }
  }
  // The raised foot: the trail is the solved path, not the animated one.
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(s.character, app::ClipTime{s.playback.clip, trail.times[3]}, s.edit,
                           &frame, &state);
  EXPECT_GT(glm::length(trail.positions[3] - glm::vec3(frame.unsolved_models[foot][3])), 0.04f);
}

TEST(GhostPoses, NothingIsRecomputedWhenNothingChanged) {
  WalkScene s;
  const int foot = s.edit.chains[s.left_leg].chain.end;
  app::GhostCache cache;
  cache.Update(s.character, s.playback, s.edit, 4, 1, foot);
  EXPECT_EQ(cache.ghost_updates(), 1);
  EXPECT_EQ(cache.trail_updates(), 1);
  cache.Update(s.character, s.playback, s.edit, 4, 1, foot);
  EXPECT_EQ(cache.ghost_updates(), 1);
  EXPECT_EQ(cache.trail_updates(), 1);
  // The time moves: the ghosts follow, the trail stays.
  s.playback.time += 0.05f;
  cache.Update(s.character, s.playback, s.edit, 4, 1, foot);
  EXPECT_EQ(cache.ghost_updates(), 2);
  EXPECT_EQ(cache.trail_updates(), 1);
  // An edit: both.
  s.edit.chains[s.left_leg].offset.y += 0.01f;
  cache.Update(s.character, s.playback, s.edit, 4, 1, foot);
  EXPECT_EQ(cache.ghost_updates(), 3);
  EXPECT_EQ(cache.trail_updates(), 2);
  // The spacing: the ghosts only; another joint: the trail only.
  cache.Update(s.character, s.playback, s.edit, 4, 2, foot);
  EXPECT_EQ(cache.ghost_updates(), 4);
  EXPECT_EQ(cache.trail_updates(), 2);
  cache.Update(s.character, s.playback, s.edit, 4, 2, s.model.skeleton.parent(foot));
  EXPECT_EQ(cache.ghost_updates(), 4);
  EXPECT_EQ(cache.trail_updates(), 3);
}

TEST(GhostPoses, NoClipGivesNoGhostsAndNoTrail) {
  assets::Model model = assets::MakeBuiltinCharacter();
  model.clips.clear();
  const app::Character character(model);
  app::Playback playback;  // the rest pose
  app::GhostCache cache;
  cache.Update(character, playback, app::EditState(), 4, 1, 0);
  EXPECT_TRUE(cache.ghosts().empty());
  EXPECT_TRUE(cache.trail().empty());
  playback.clip = 3;  // out of range
  cache.Update(character, playback, app::EditState(), 4, 1, 0);
  EXPECT_TRUE(cache.ghosts().empty());
  EXPECT_TRUE(cache.trail().empty());
  EXPECT_EQ(cache.ghost_updates(), 0);
}

}  // namespace
