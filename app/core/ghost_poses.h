// Onion skins and motion trails: the whole pose a few frames before and after the current time,
// and one joint's path over the clip, each frame evaluated as the viewer evaluates the current one
// (EvaluateEditedFrame: clip, edits, IK, weight keys). Cached so that idle frames cost nothing.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/playback.h"
#include "assets/model/model.h"

namespace app {

// Most ghosts on each side of the current time (--show onion=N[:K] takes N in 1..16).
inline constexpr int kMaxOnionCount = 16;

// The pose `offset` frames away from the current time.
struct GhostPose {
  int offset = 0;                 // frames from the current time (negative: the past), never 0
  float time = 0.0f;              // clip time it shows, seconds (after wrapping in a loop)
  std::vector<glm::mat4> models;  // model-space matrices of every joint, after IK
};

// One joint's model-space position at every frame of the clip's loop range (Playback's range,
// the whole clip when none): frames start + i / frame_rate, the range's end included.
struct MotionTrail {
  int joint = -1;
  std::vector<float> times;          // clip seconds, increasing
  std::vector<glm::vec3> positions;  // model space, one per time
  bool empty() const { return positions.empty(); }
};

// The times of the ghosts of `playback` at its clip's `frame_rate` (frames per second, > 0):
// for k = 1..count (clamped to 0..kMaxOnionCount) the times ∓ k·step frames (step >= 1),
// past ones first (farthest first), then the future ones (nearest first). While looping a time
// past either end of the loop range wraps into it; without looping it is skipped. Nothing for the
// rest pose. Each entry: (offset in frames, clip time).
void GhostTimes(const Playback& playback, float duration, float frame_rate, int count, int step,
                std::vector<std::pair<int, float>>* out);

// Ghosts and trail of one model, recomputed only when what they depend on changes: the ghosts
// when the time, the clip, the loop range, the edits or the count and spacing change; the trail
// only when the clip, its loop range, the edits or the joint change (not as the time moves).
// A model without clips, the rest pose or a clip index out of range gives neither.
class GhostCache {
 public:
  // Brings the ghosts (`count` per side, `step` frames apart; count 0: none) and the trail of
  // `trail_joint` (-1, or a joint outside the skeleton: none) up to date for `playback` on
  // `character` (its clip indices) with the user's `edit`. The character and its model must be
  // the same objects (and unchanged) between calls; a new model needs a new cache or Clear().
  void Update(const Character& character, const Playback& playback, const EditState& edit,
              int count, int step, int trail_joint);
  void Clear();

  const std::vector<GhostPose>& ghosts() const { return ghosts_; }
  const MotionTrail& trail() const { return trail_; }
  float frame_rate() const { return frame_rate_; }  // of the clip last updated for, fps

  // How many times the ghosts and the trail were recomputed (for tests and the benchmark).
  long ghost_updates() const { return ghost_updates_; }
  long trail_updates() const { return trail_updates_; }

 private:
  struct Key {
    int clip = -1;
    std::vector<int> together;
    float duration = -1.0f;
    float range_start = 0.0f, range_end = 0.0f;
    bool loop = true;
    float frame_rate = 0.0f;
    bool operator==(const Key& o) const;
  };
  void UpdateGhosts(const Character& character, const Playback& playback, const EditState& edit,
                    int count, int step);
  void UpdateTrail(const Character& character, const EditState& edit, int joint);
  float FrameRate(const assets::Clip& clip);

  std::vector<GhostPose> ghosts_;
  MotionTrail trail_;
  float frame_rate_ = 30.0f;
  // What the ghosts and the trail were computed from.
  bool ghosts_valid_ = false, trail_valid_ = false;
  Key ghost_key_, trail_key_;
  float ghost_time_ = 0.0f;
  int ghost_count_ = 0, ghost_step_ = 1;
  EditState ghost_edit_, trail_edit_;
  // EstimateFrameRate reads every key: cached per clip.
  const assets::Clip* rate_clip_ = nullptr;
  size_t rate_channels_ = 0;
  float rate_duration_ = -1.0f;
  // Scratch of the evaluations, reused.
  EditedFrame frame_;
  PoseState state_;
  std::vector<std::pair<int, float>> times_;
  long ghost_updates_ = 0, trail_updates_ = 0;
};

}  // namespace app
