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

// One frame step of the step buttons and the arrow keys, seconds.
constexpr float kPlaybackStepSeconds = 1.0f / 30.0f;

// Advances the time by dt_seconds × speed when playing, then wraps it into the clip (loop) or
// clamps it to [0, duration]. Nothing happens for the rest pose or a clip index out of range.
void AdvancePlayback(const assets::Model& model, double dt_seconds, Playback* playback);

// Pauses and moves the time by `frames` steps (negative: back); AdvancePlayback brings it back
// into the clip.
void StepPlayback(int frames, Playback* playback);

}  // namespace app
