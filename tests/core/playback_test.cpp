// Playing a clip in the viewer: looping wraps, not looping clamps, speed scales (and reverses),
// stepping pauses; the rest pose has no time to move.
#include "app/core/playback.h"

#include <gtest/gtest.h>

#include "assets/builtin_character.h"

namespace {

const assets::Model& Builtin() {
  static const assets::Model model = assets::MakeBuiltinCharacter();
  return model;
}

TEST(Playback, LoopingWrapsPastTheEndAndNotLoopingStopsThere) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  ASSERT_GE(walk, 0);
  const float duration = model.clips[walk].duration;
  app::Playback looping{walk, 0.0f, 1.0f, true, true};
  app::AdvancePlayback(model, double(duration) * 1.25, &looping);
  EXPECT_NEAR(looping.time, duration * 0.25f, 1e-5f);
  app::Playback once{walk, 0.0f, 1.0f, true, false};
  app::AdvancePlayback(model, double(duration) * 1.25, &once);
  EXPECT_FLOAT_EQ(once.time, duration);
}

TEST(Playback, SpeedScalesAndNegativeSpeedPlaysBackwards) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  const float duration = model.clips[walk].duration;
  app::Playback half{walk, 0.0f, 0.5f, true, true};
  app::AdvancePlayback(model, double(duration) * 0.5, &half);
  EXPECT_NEAR(half.time, duration * 0.25f, 1e-5f);
  app::Playback back{walk, duration * 0.5f, -1.0f, true, false};
  app::AdvancePlayback(model, double(duration), &back);
  EXPECT_FLOAT_EQ(back.time, 0.0f);
}

TEST(Playback, PausedTimeOnlyComesBackIntoTheClip) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  app::Playback paused{walk, 0.3f, 1.0f, false, false};
  app::AdvancePlayback(model, 10.0, &paused);
  EXPECT_FLOAT_EQ(paused.time, 0.3f);
  paused.time = -1.0f;
  app::AdvancePlayback(model, 0.0, &paused);
  EXPECT_FLOAT_EQ(paused.time, 0.0f);
}

TEST(Playback, RestPoseAndMissingClipsDoNotMove) {
  const assets::Model& model = Builtin();
  app::Playback rest{-1, 0.7f, 1.0f, true, true};
  app::AdvancePlayback(model, 1.0, &rest);
  EXPECT_FLOAT_EQ(rest.time, 0.7f);
  app::Playback missing{static_cast<int>(model.clips.size()), 0.7f, 1.0f, true, true};
  app::AdvancePlayback(model, 1.0, &missing);
  EXPECT_FLOAT_EQ(missing.time, 0.7f);
}

TEST(Playback, StepPausesAndMovesOneFrameOfTheGivenRate) {
  app::Playback p{0, 0.5f, 1.0f, true, true};
  app::StepPlayback(1, 24.0f, &p);
  EXPECT_FALSE(p.playing);
  EXPECT_FLOAT_EQ(p.time, 13.0f / 24.0f);  // 0.5 s is frame 12 at 24 fps
  app::StepPlayback(-2, 24.0f, &p);
  EXPECT_FLOAT_EQ(p.time, 11.0f / 24.0f);
}

TEST(Playback, StepFromBetweenFramesLandsOnTheNeighbouringFrame) {
  app::Playback p{0, 0.51f, 1.0f, false, true};  // between frames 12 and 13 at 24 fps
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
  const app::Playback rest{-1, 0.0f, 1.0f, false, true};
  EXPECT_FLOAT_EQ(app::PlaybackFrameRate(model, rest), 30.0f);
  const app::Playback last{static_cast<int>(model.clips.size()) - 1, 0.0f, 1.0f, false, true};
  EXPECT_FLOAT_EQ(app::PlaybackFrameRate(model, last), 24.0f);
}

}  // namespace
