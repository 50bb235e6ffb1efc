// Onion-skin ghosts and motion trails, evaluated frame by frame as the viewer's current pose.
#include "app/core/ghost_poses.h"

#include <algorithm>
#include <cmath>

#include "app/core/bake.h"

namespace app {

namespace {

bool ClipPlays(const Character& character, const Playback& playback) {
  return character.clip(playback.clip) != nullptr;
}

// A time `delta` seconds from `time` in [start, end]: wrapped into it when looping (the range as
// a cycle: end and start are the same pose), else false when it falls outside.
bool ShiftedTime(float time, float delta, float start, float end, bool loop, float* out) {
  const float t = time + delta;
  const float length = end - start;
  if (!loop || !(length > 0.0f)) {
    if (t < start - 1e-5f || t > end + 1e-5f) return false;
    *out = std::clamp(t, start, end);
    return true;
  }
  float wrapped = std::fmod(t - start, length);
  if (wrapped < 0.0f) wrapped += length;
  *out = start + wrapped;
  return std::isfinite(*out);
}

}  // namespace

void GhostTimes(const Playback& playback, float duration, float frame_rate, int count, int step,
                std::vector<std::pair<int, float>>* out) {
  out->clear();
  if (playback.clip < 0 || !(frame_rate > 0.0f) || !std::isfinite(frame_rate)) return;
  count = std::clamp(count, 0, kMaxOnionCount);
  step = std::max(step, 1);
  float start = 0.0f, end = duration;
  PlaybackRange(playback, duration, &start, &end);
  // The ghosts sit around the time as shown (a scrub outside the range is shown as it is).
  const float now = std::clamp(std::isfinite(playback.time) ? playback.time : 0.0f, 0.0f, duration);
  for (int side = -1; side <= 1; side += 2) {
    for (int i = 1; i <= count; ++i) {
      // Past: farthest first, so that nearer ghosts draw over farther ones.
      const int k = side < 0 ? count + 1 - i : i;
      const int offset = side * k * step;
      float t = 0.0f;
      if (ShiftedTime(now, float(offset) / frame_rate, start, end, playback.loop, &t)) {
        out->emplace_back(offset, t);
      }
    }
  }
}

bool GhostCache::Key::operator==(const Key& o) const {
  return clip == o.clip && together == o.together && duration == o.duration &&
         range_start == o.range_start && range_end == o.range_end && loop == o.loop &&
         frame_rate == o.frame_rate;
}

void GhostCache::Clear() {
  ghosts_.clear();
  trail_ = MotionTrail();
  ghosts_valid_ = trail_valid_ = false;
  rate_clip_ = nullptr;
}

float GhostCache::FrameRate(const assets::Clip& clip) {
  if (&clip != rate_clip_ || clip.channels.size() != rate_channels_ ||
      clip.duration != rate_duration_) {
    rate_clip_ = &clip;
    rate_channels_ = clip.channels.size();
    rate_duration_ = clip.duration;
    frame_rate_ = EstimateFrameRate(clip);
  }
  return frame_rate_;
}

void GhostCache::Update(const Character& character, const Playback& playback, const EditState& edit,
                        int count, int step, int trail_joint) {
  if (!ClipPlays(character, playback)) {
    ghosts_.clear();
    trail_.positions.clear();
    trail_.times.clear();
    ghosts_valid_ = trail_valid_ = false;
    return;
  }
  const assets::Clip& clip = *character.clip(playback.clip);
  FrameRate(clip);
  if (count > 0) {
    UpdateGhosts(character, playback, edit, count, step);
  } else {
    ghosts_.clear();
    ghosts_valid_ = false;
  }
  if (trail_joint >= 0 && trail_joint < character.skeleton().joint_count()) {
    Key key;
    key.clip = playback.clip;
    key.together = playback.together;
    key.duration = clip.duration;
    PlaybackRange(playback, key.duration, &key.range_start, &key.range_end);
    key.frame_rate = frame_rate_;
    if (!trail_valid_ || !(key == trail_key_) || trail_joint != trail_.joint ||
        edit != trail_edit_) {
      trail_key_ = key;
      trail_edit_ = edit;
      UpdateTrail(character, edit, trail_joint);
    }
  } else {
    trail_.positions.clear();
    trail_.times.clear();
    trail_.joint = -1;
    trail_valid_ = false;
  }
}

void GhostCache::UpdateGhosts(const Character& character, const Playback& playback,
                              const EditState& edit, int count, int step) {
  Key key;
  key.clip = playback.clip;
  key.together = playback.together;
  key.duration = character.clip(playback.clip)->duration;
  key.range_start = playback.range_start;
  key.range_end = playback.range_end;
  key.loop = playback.loop;
  key.frame_rate = frame_rate_;
  if (ghosts_valid_ && key == ghost_key_ && playback.time == ghost_time_ && count == ghost_count_ &&
      step == ghost_step_ && edit == ghost_edit_) {
    return;
  }
  ghost_key_ = key;
  ghost_time_ = playback.time;
  ghost_count_ = count;
  ghost_step_ = step;
  if (edit != ghost_edit_) ghost_edit_ = edit;  // copies (allocates) only when the edit changed
  ghosts_valid_ = true;
  ++ghost_updates_;
  GhostTimes(playback, key.duration, frame_rate_, count, step, &times_);
  // Resizing keeps the ghosts' buffers while the count stays: playing allocates nothing.
  ghosts_.resize(times_.size());
  for (size_t i = 0; i < times_.size(); ++i) {
    EvaluateEditedFrame(character, ClipTime{playback.clip, times_[i].second}, edit, &frame_,
                        &state_);
    ghosts_[i].offset = times_[i].first;
    ghosts_[i].time = times_[i].second;
    ghosts_[i].models = state_.models;
  }
}

void GhostCache::UpdateTrail(const Character& character, const EditState& edit, int joint) {
  ++trail_updates_;
  trail_valid_ = true;
  trail_.joint = joint;
  trail_.times.clear();
  trail_.positions.clear();
  const float start = trail_key_.range_start, end = trail_key_.range_end;
  const double frames = std::max(0.0, double(end - start) * double(frame_rate_));
  // Whole frames of the range, then its end when it falls between two frames.
  const long whole = static_cast<long>(std::floor(frames + 1e-4));
  for (long i = 0; i <= whole; ++i) {
    trail_.times.push_back(start + static_cast<float>(double(i) / double(frame_rate_)));
  }
  if (frames - double(whole) > 1e-4) trail_.times.push_back(end);
  trail_.positions.reserve(trail_.times.size());
  for (float t : trail_.times) {
    EvaluateEditedFrame(character, ClipTime{trail_key_.clip, t}, edit, &frame_, &state_);
    trail_.positions.push_back(glm::vec3(state_.models[static_cast<size_t>(joint)][3]));
  }
}

}  // namespace app
