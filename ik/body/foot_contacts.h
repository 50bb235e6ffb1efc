// Foot contacts: the stretches of a clip where a foot (or a hand on a rung) is planted — near its
// lowest height and nearly still, with hysteresis so that one step is one contact — and how far it
// slides during each (foot skate). Pure math on a sampled path: the caller samples the clip (one
// position per frame, world space, +Y up) and passes the heights above its ground. Used by the
// foot lock (app/core/foot_lock.h) and by anything else that needs to know when a foot is down.
#pragma once

#include <glm/glm.hpp>
#include <vector>

namespace ik {

// Thresholds, relative to the leg's length L (start to mid plus mid to end, so that they work in
// any unit) and per second (so that they work at any frame rate).
struct ContactOptions {
  // A foot may plant when it is within enter_height·L of its lowest height and moves slower than
  // enter_speed·L per second; it lifts when it rises above exit_height·L or moves faster than
  // exit_speed·L per second (exit > enter: the hysteresis).
  float enter_height = 0.05f;
  float exit_height = 0.10f;
  float enter_speed = 0.5f;
  float exit_speed = 0.9f;
  // Contacts shorter than this are dropped; two separated by at most max_gap frames are one.
  float min_seconds = 0.05f;
  int max_gap_frames = 1;
};

// One contact: frames first..last (inclusive) of the sampled path.
struct FootContact {
  int first = 0;
  int last = 0;
  float skate = 0.0f;   // ContactSkate over the contact, in the path's units
  float height = 0.0f;  // mean height above the ground during the contact
};

// The contacts of one foot. `positions` is its path sampled every 1/fps seconds, already relative
// to the clip's travel for an in-place clip (TravelVelocity); `heights` its height above the ground
// at each sample (the same count). Empty when the inputs are empty, differ in size or are not
// finite, or fps or leg_length is not positive.
std::vector<FootContact> FindFootContacts(const std::vector<glm::vec3>& positions,
                                          const std::vector<float>& heights, float fps,
                                          float leg_length, const ContactOptions& options = {});

// How far a planted foot slides over frames first..last: the largest horizontal (XZ) distance of
// its position from where it was at `first`. 0 for an empty or out-of-range interval.
float ContactSkate(const std::vector<glm::vec3>& positions, int first, int last);

// The clip's travel, for contacts measured relative to it. A clip with root motion carries the
// body through the world and its planted feet stand still: its travel is 0 (contacts are measured
// in the world). An in-place clip keeps the body over the origin and its planted feet slide back
// at the walking speed (a treadmill): its travel is that walking velocity (horizontal), and a
// foot's path relative to it, p(t) + travel·t, stands still while planted. In place when the feet
// near their lowest height move, in the median, faster than 0.25·L per second while the
// `root` (e.g. the hips, sampled like the feet) ends within a quarter of that motion of where it
// started. `feet` and `heights`: one sampled path per foot.
glm::vec3 TravelVelocity(const std::vector<std::vector<glm::vec3>>& feet,
                         const std::vector<std::vector<float>>& heights,
                         const std::vector<glm::vec3>& root, float fps, float leg_length,
                         const ContactOptions& options = {});

}  // namespace ik
