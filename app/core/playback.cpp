// Clip playback.
#include "app/core/playback.h"

#include <algorithm>
#include <cmath>

#include "app/core/bake.h"
#include "assets/model/animation.h"

namespace app {

void AdvancePlayback(const Character& character, double dt_seconds, Playback* playback) {
  const assets::Clip* clip = character.clip(playback->clip);
  if (!clip) return;
  const float duration = clip->duration;
  float start = 0.0f, end = duration;
  PlaybackRange(*playback, duration, &start, &end);
  float& time = playback->time;
  if (!playback->playing) {
    // Paused: the user may look at any time of the clip, also outside the loop range.
    time = std::clamp(std::isfinite(time) ? time : 0.0f, 0.0f, duration);
    return;
  }
  // Playing from outside the range starts at its near end.
  if (!(time >= start && time <= end)) time = playback->speed >= 0.0f ? start : end;
  time += float(dt_seconds) * playback->speed;
  if (playback->loop) {
    time = start + assets::WrapTime(time - start, end - start, true);
  } else if (time < start || time > end) {
    time = std::clamp(time, start, end);
    playback->playing = false;  // as a player does at the end; Play starts it again
  }
}

void PlaybackRange(const Playback& playback, float duration, float* start, float* end) {
  *start = 0.0f;
  *end = duration;
  const float s = std::max(playback.range_start, 0.0f);
  const float e = std::min(playback.range_end, duration);
  if (std::isfinite(s) && std::isfinite(e) && e > s) {
    *start = s;
    *end = e;
  }
}

void TogglePlaying(const Character& character, Playback* playback) {
  const assets::Clip* clip = character.clip(playback->clip);
  if (!clip) return;
  playback->playing = !playback->playing;
  if (!playback->playing || playback->loop) return;
  float start = 0.0f, end = 0.0f;
  PlaybackRange(*playback, clip->duration, &start, &end);
  if (playback->speed >= 0.0f && playback->time >= end) playback->time = start;
  if (playback->speed < 0.0f && playback->time <= start) playback->time = end;
}

float PlaybackFrameRate(const Character& character, const Playback& playback) {
  const assets::Clip* clip = character.clip(playback.clip);
  return clip ? EstimateFrameRate(*clip) : 30.0f;
}

void StepPlayback(int frames, float frame_rate, Playback* playback) {
  playback->playing = false;
  if (!(frame_rate > 0.0f) || !std::isfinite(frame_rate)) frame_rate = 30.0f;
  // Frame numbers in double so that long clips at high rates stay on the grid.
  const double at = double(playback->time) * double(frame_rate);
  const double nearest = std::round(at);
  const bool on_grid = std::abs(at - nearest) < 1e-3;
  double frame;
  if (on_grid) {
    frame = nearest + frames;
  } else if (frames > 0) {
    frame = std::floor(at) + frames;
  } else {
    frame = std::ceil(at) + frames;
  }
  playback->time = static_cast<float>(frame / double(frame_rate));
}

}  // namespace app
