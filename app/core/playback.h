// Playing a model's clip in the viewer: which clip, where in it, how fast, looping or not.
#pragma once

#include <vector>

#include "app/core/character.h"
#include "assets/model/model.h"

namespace app {

// The clip is -1 for the rest pose; time in seconds from the clip's start.
struct Playback {
  int clip = -1;
  float time = 0.0f;
  float speed = 1.0f;  // negative plays backwards
  bool playing = false;
  bool loop = true;
  // The loop range, seconds: playing stays between range_start and range_end (looping back to
  // range_start, or stopping at either end). range_end <= range_start means the whole clip.
  float range_start = 0.0f;
  float range_end = -1.0f;
  // Clips played together (the window's "Play with", --anim I+J), the chosen one first: for each
  // joint property the last of them that animates it wins. The viewer hands them to
  // Character::PlayTogether and plays the combination as `clip`.
  std::vector<int> together;
};

// The loop range of `playback` within a clip of `duration` seconds: [*start, *end], the whole
// clip when no range is set (or the range lies outside the clip).
void PlaybackRange(const Playback& playback, float duration, float* start, float* end);

// Advances the time by dt_seconds × speed when playing, then wraps it into the loop range (loop)
// or clamps it to the range; a time outside the range while paused (a scrub) is left alone. Nothing
// happens for the rest pose or a clip index out of range. Clip indices are the character's
// (Character::clip: clips played together included), here and below.
void AdvancePlayback(const Character& character, double dt_seconds, Playback* playback);

// Play ↔ pause. Playing again from the end of the range (or its start, playing backwards) without
// looping starts over, as a media player does.
void TogglePlaying(const Character& character, Playback* playback);

// The frame rate of the playing clip, frames per second: the rate export bakes at
// (EstimateFrameRate: its most common key interval), 30 for the rest pose or a clip index out of
// range.
float PlaybackFrameRate(const Character& character, const Playback& playback);

// Pauses and moves the time by `frames` frames of `frame_rate` (> 0, frames per second; negative
// `frames`: back), onto the clip's frame grid: from a time between two frames the first step
// lands on the neighbouring frame. AdvancePlayback brings the time back into the clip.
void StepPlayback(int frames, float frame_rate, Playback* playback);

}  // namespace app
