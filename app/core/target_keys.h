// Keys of a chain's target, pin or pole over clip time: a sorted list of (time, point) keys and
// the smooth curve through them, evaluated at any clip time without allocating.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace app {

// One key: at `time` (clip seconds) the keyed thing is at `value` (a target's offset or point as
// its mode has it, a pole's point; world space).
struct PointKey {
  float time = 0.0f;
  glm::vec3 value{0.0f};
  bool operator==(const PointKey& other) const {
    return time == other.time && value == other.value;
  }
  bool operator!=(const PointKey& other) const { return !(*this == other); }
};

// Two keys closer in time than this (seconds) are the same key: setting one replaces the other.
inline constexpr float kSameKeySeconds = 1e-4f;

// The keyed value at `time`, or `fallback` when there are no keys. `keys` are sorted by time with
// distinct times (KeysProblem). Before the first key its value holds, after the last key its value
// holds. Between two keys each coordinate follows a cubic Hermite curve through both whose
// tangents are Catmull-Rom's (the slope from the key before to the key after) limited as Fritsch
// and Carlson limit them: zero at a key where the curve turns (the segments on either side go
// opposite ways, or one is flat) and at most three times either neighbouring segment's slope, and
// zero at the first and last key (so the curve leaves and joins the held values smoothly). It
// passes through every key exactly and never overshoots: between two keys each coordinate stays
// within their two values (between two equal keys it is flat).
glm::vec3 KeyedValue(const std::vector<PointKey>& keys, float time, const glm::vec3& fallback);

// The index of the key within kSameKeySeconds of `time`, or -1.
int FindKey(const std::vector<PointKey>& keys, float time);

// Sets the key at `time` (replacing the one within kSameKeySeconds, keeping its time) or inserts
// one in time order; returns its index.
int SetKey(std::vector<PointKey>* keys, float time, const glm::vec3& value);

// Moves the key at `index` to `time` (and into time order), replacing a key already within
// kSameKeySeconds of that time; returns its new index.
int MoveKey(std::vector<PointKey>* keys, int index, float time);

// Empty when `keys` are usable (finite times and values, strictly increasing times), else what is
// wrong with the first bad key ("key 2: time 0.5 is not after the key before (0.5)").
std::string KeysProblem(const std::vector<PointKey>& keys);

}  // namespace app
