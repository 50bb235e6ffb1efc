// Clip playback.
#include "app/core/playback.h"

#include <algorithm>
#include <cmath>

#include "app/core/bake.h"
#include "assets/animation.h"

namespace app {

void AdvancePlayback(const assets::Model& model, double dt_seconds, Playback* playback) {
  if (playback->clip < 0 || playback->clip >= static_cast<int>(model.clips.size())) return;
  const float duration = model.clips[playback->clip].duration;
  if (playback->playing) playback->time += float(dt_seconds) * playback->speed;
  playback->time = playback->loop ? assets::WrapTime(playback->time, duration, true)
                                  : std::clamp(playback->time, 0.0f, duration);
}

float PlaybackFrameRate(const assets::Model& model, const Playback& playback) {
  if (playback.clip < 0 || playback.clip >= static_cast<int>(model.clips.size())) return 30.0f;
  return EstimateFrameRate(model.clips[playback.clip]);
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
