// Playing a model's clip in the viewer: which clip, where in it, how fast, looping or not.
#pragma once

#include "assets/model.h"

namespace app {

// The clip is -1 for the rest pose; time in seconds from the clip's start.
struct Playback {
  int clip = -1;
  float time = 0.0f;
  float speed = 1.0f;  // negative plays backwards
  bool playing = false;
  bool loop = true;
};

// Advances the time by dt_seconds × speed when playing, then wraps it into the clip (loop) or
// clamps it to [0, duration]. Nothing happens for the rest pose or a clip index out of range.
void AdvancePlayback(const assets::Model& model, double dt_seconds, Playback* playback);

// The frame rate of the playing clip, frames per second: the rate export bakes at
// (EstimateFrameRate: its most common key interval), 30 for the rest pose or a clip index out of
// range.
float PlaybackFrameRate(const assets::Model& model, const Playback& playback);

// Pauses and moves the time by `frames` frames of `frame_rate` (> 0, frames per second; negative
// `frames`: back), onto the clip's frame grid: from a time between two frames the first step
// lands on the neighbouring frame. AdvancePlayback brings the time back into the clip.
void StepPlayback(int frames, float frame_rate, Playback* playback);

}  // namespace app
