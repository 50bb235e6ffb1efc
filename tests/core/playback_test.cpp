// Playing a clip in the viewer: looping wraps, not looping clamps, speed scales (and reverses),
// stepping pauses; the rest pose has no time to move.
#include "app/core/playback.h"

#include <gtest/gtest.h>

#include "assets/builtin/builtin_character.h"
#include "tests/support/builtin.h"

namespace {

app::Playback MakePlayback(int clip, float time, float speed, bool playing, bool loop) {
  app::Playback p;
  p.clip = clip;
  p.time = time;
  p.speed = speed;
  p.playing = playing;
  p.loop = loop;
  return p;
}

using testsupport::Builtin;

// The built-in character's rig facts, found once (as the viewer does per load).
const app::Character& BuiltinCharacter() {
  static const app::Character character(Builtin());
  return character;
}

TEST(Playback, LoopingWrapsPastTheEndAndNotLoopingStopsThere) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  ASSERT_GE(walk, 0);
  const float duration = model.clips[walk].duration;
  app::Playback looping = MakePlayback(walk, 0.0f, 1.0f, true, true);
  app::AdvancePlayback(BuiltinCharacter(), double(duration) * 1.25, &looping);
  EXPECT_NEAR(looping.time, duration * 0.25f, 1e-5f);
  app::Playback once = MakePlayback(walk, 0.0f, 1.0f, true, false);
  app::AdvancePlayback(BuiltinCharacter(), double(duration) * 1.25, &once);
  EXPECT_FLOAT_EQ(once.time, duration);
}

TEST(Playback, SpeedScalesAndNegativeSpeedPlaysBackwards) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  const float duration = model.clips[walk].duration;
  app::Playback half = MakePlayback(walk, 0.0f, 0.5f, true, true);
  app::AdvancePlayback(BuiltinCharacter(), double(duration) * 0.5, &half);
  EXPECT_NEAR(half.time, duration * 0.25f, 1e-5f);
  app::Playback back = MakePlayback(walk, duration * 0.5f, -1.0f, true, false);
  app::AdvancePlayback(BuiltinCharacter(), double(duration), &back);
  EXPECT_FLOAT_EQ(back.time, 0.0f);
}

TEST(Playback, PausedTimeOnlyComesBackIntoTheClip) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  app::Playback paused = MakePlayback(walk, 0.3f, 1.0f, false, false);
  app::AdvancePlayback(BuiltinCharacter(), 10.0, &paused);
  EXPECT_FLOAT_EQ(paused.time, 0.3f);
  paused.time = -1.0f;
  app::AdvancePlayback(BuiltinCharacter(), 0.0, &paused);
  EXPECT_FLOAT_EQ(paused.time, 0.0f);
}

TEST(Playback, RestPoseAndMissingClipsDoNotMove) {
  const assets::Model& model = Builtin();
  app::Playback rest = MakePlayback(-1, 0.7f, 1.0f, true, true);
  app::AdvancePlayback(BuiltinCharacter(), 1.0, &rest);
  EXPECT_FLOAT_EQ(rest.time, 0.7f);
  app::Playback missing =
      MakePlayback(static_cast<int>(model.clips.size()), 0.7f, 1.0f, true, true);
  app::AdvancePlayback(BuiltinCharacter(), 1.0, &missing);
  EXPECT_FLOAT_EQ(missing.time, 0.7f);
}

TEST(Playback, StepPausesAndMovesOneFrameOfTheGivenRate) {
  app::Playback p = MakePlayback(0, 0.5f, 1.0f, true, true);
  app::StepPlayback(1, 24.0f, &p);
  EXPECT_FALSE(p.playing);
  EXPECT_FLOAT_EQ(p.time, 13.0f / 24.0f);  // 0.5 s is frame 12 at 24 fps
  app::StepPlayback(-2, 24.0f, &p);
  EXPECT_FLOAT_EQ(p.time, 11.0f / 24.0f);
}

TEST(Playback, StepFromBetweenFramesLandsOnTheNeighbouringFrame) {
  app::Playback p =
      MakePlayback(0, 0.51f, 1.0f, false, true);  // between frames 12 and 13 at 24 fps
  app::StepPlayback(1, 24.0f, &p);
  EXPECT_FLOAT_EQ(p.time, 13.0f / 24.0f);
  p.time = 0.51f;
  app::StepPlayback(-1, 24.0f, &p);
  EXPECT_FLOAT_EQ(p.time, 12.0f / 24.0f);
}

TEST(Playback, FrameRateIsTheClipsOwnAndThirtyForTheRestPose) {
  assets::Model model = Builtin();
  assets::Clip clip;
  clip.name = "24fps";
  clip.duration = 1.0f;
  assets::JointAnimation channel;
  channel.joint = 0;
  for (int k = 0; k <= 24; ++k) {
    channel.rotation.times.push_back(float(k) / 24.0f);
    channel.rotation.values.push_back(glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  }
  clip.channels.push_back(channel);
  model.clips.push_back(clip);
  const app::Character character(model);
  const app::Playback rest = MakePlayback(-1, 0.0f, 1.0f, false, true);
  EXPECT_FLOAT_EQ(app::PlaybackFrameRate(character, rest), 30.0f);
  const app::Playback last =
      MakePlayback(static_cast<int>(model.clips.size()) - 1, 0.0f, 1.0f, false, true);
  EXPECT_FLOAT_EQ(app::PlaybackFrameRate(character, last), 24.0f);
}

TEST(Playback, PlayingStaysInTheLoopRangeAndStopsAtItsEndWithoutLooping) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  const float duration = model.clips[walk].duration;
  app::Playback p = MakePlayback(walk, 0.0f, 1.0f, true, true);
  p.range_start = duration * 0.25f;
  p.range_end = duration * 0.5f;
  app::AdvancePlayback(BuiltinCharacter(), 0.0, &p);
  EXPECT_FLOAT_EQ(p.time, p.range_start) << "playing from outside the range starts at its start";
  app::AdvancePlayback(BuiltinCharacter(), double(duration) * 0.3, &p);
  EXPECT_NEAR(p.time, duration * 0.3f, 1e-5f) << "0.05 past the end wraps to 0.05 past the start";
  p.loop = false;
  app::AdvancePlayback(BuiltinCharacter(), double(duration), &p);
  EXPECT_FLOAT_EQ(p.time, p.range_end);
  EXPECT_FALSE(p.playing) << "without looping, playing stops at the range's end";
  app::TogglePlaying(BuiltinCharacter(), &p);
  EXPECT_TRUE(p.playing);
  EXPECT_FLOAT_EQ(p.time, p.range_start) << "playing again from the end starts over";
  // Paused, the playhead may sit anywhere in the clip (a scrub outside the range).
  p.playing = false;
  p.time = duration * 0.9f;
  app::AdvancePlayback(BuiltinCharacter(), 0.1, &p);
  EXPECT_FLOAT_EQ(p.time, duration * 0.9f);
  // A range outside the clip or reversed means the whole clip.
  float start = 0.0f, end = 0.0f;
  p.range_start = duration * 0.8f;
  p.range_end = duration * 0.2f;
  app::PlaybackRange(p, duration, &start, &end);
  EXPECT_EQ(start, 0.0f);
  EXPECT_EQ(end, duration);
}

}  // namespace
