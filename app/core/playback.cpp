// Clip playback.
#include "app/core/playback.h"

#include <algorithm>

#include "assets/animation.h"

namespace app {

void AdvancePlayback(const assets::Model& model, double dt_seconds, Playback* playback) {
  if (playback->clip < 0 || playback->clip >= static_cast<int>(model.clips.size())) return;
  const float duration = model.clips[playback->clip].duration;
  if (playback->playing) playback->time += float(dt_seconds) * playback->speed;
  playback->time = playback->loop ? assets::WrapTime(playback->time, duration, true)
                                  : std::clamp(playback->time, 0.0f, duration);
}

void StepPlayback(int frames, Playback* playback) {
  playback->playing = false;
  playback->time += float(frames) * kPlaybackStepSeconds;
}

}  // namespace app
