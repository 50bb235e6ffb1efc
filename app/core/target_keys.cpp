// Keyed targets: the monotone cubic Hermite curve through the keys, and key editing.
#include "app/core/target_keys.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

namespace {

// The tangent (value per second) of one coordinate at key i: Catmull-Rom's, limited so that the
// segments on either side cannot overshoot (Fritsch–Carlson); zero at the first and last key.
float Tangent(const std::vector<PointKey>& keys, size_t i, int c) {
  if (i == 0 || i + 1 >= keys.size()) return 0.0f;
  const float h0 = keys[i].time - keys[i - 1].time;
  const float h1 = keys[i + 1].time - keys[i].time;
  const float d0 = (keys[i].value[c] - keys[i - 1].value[c]) / h0;
  const float d1 = (keys[i + 1].value[c] - keys[i].value[c]) / h1;
  if (!(d0 * d1 > 0.0f)) return 0.0f;  // a turn or a flat side: no overshoot past this key
  const float catmull_rom = (keys[i + 1].value[c] - keys[i - 1].value[c]) / (h0 + h1);
  const float limit = 3.0f * std::min(std::abs(d0), std::abs(d1));
  return std::clamp(catmull_rom, -limit, limit);
}

}  // namespace

glm::vec3 KeyedValue(const std::vector<PointKey>& keys, float time, const glm::vec3& fallback) {
  if (keys.empty()) return fallback;
  if (!(time > keys.front().time)) return keys.front().value;  // held before (and NaN: first)
  if (time >= keys.back().time) return keys.back().value;      // held after
  const auto after = std::upper_bound(keys.begin(), keys.end(), time,
                                      [](float t, const PointKey& key) { return t < key.time; });
  const size_t k = static_cast<size_t>(after - keys.begin()) - 1;
  const PointKey& a = keys[k];
  const PointKey& b = keys[k + 1];
  if (time == a.time) return a.value;
  const float h = b.time - a.time;
  const float s = (time - a.time) / h;
  const float s2 = s * s, s3 = s2 * s;
  const float h00 = 2.0f * s3 - 3.0f * s2 + 1.0f;
  const float h10 = s3 - 2.0f * s2 + s;
  const float h01 = -2.0f * s3 + 3.0f * s2;
  const float h11 = s3 - s2;
  glm::vec3 out;
  for (int c = 0; c < 3; ++c) {
    const float y = h00 * a.value[c] + h10 * h * Tangent(keys, k, c) + h01 * b.value[c] +
                    h11 * h * Tangent(keys, k + 1, c);
    // The curve stays between the two keys; rounding must not take it past them either.
    out[c] = std::clamp(y, std::min(a.value[c], b.value[c]), std::max(a.value[c], b.value[c]));
  }
  return out;
}

int FindKey(const std::vector<PointKey>& keys, float time) {
  for (size_t i = 0; i < keys.size(); ++i) {
    if (std::abs(keys[i].time - time) < kSameKeySeconds) return static_cast<int>(i);
  }
  return -1;
}

int SetKey(std::vector<PointKey>* keys, float time, const glm::vec3& value) {
  if (const int at = FindKey(*keys, time); at >= 0) {
    (*keys)[size_t(at)].value = value;
    return at;
  }
  const auto where = std::upper_bound(keys->begin(), keys->end(), time,
                                      [](float t, const PointKey& key) { return t < key.time; });
  const auto inserted = keys->insert(where, PointKey{time, value});
  return static_cast<int>(inserted - keys->begin());
}

int MoveKey(std::vector<PointKey>* keys, int index, float time) {
  if (index < 0 || index >= static_cast<int>(keys->size())) return -1;
  const glm::vec3 value = (*keys)[size_t(index)].value;
  keys->erase(keys->begin() + index);
  if (const int at = FindKey(*keys, time); at >= 0) keys->erase(keys->begin() + at);
  return SetKey(keys, time, value);
}

std::string KeysProblem(const std::vector<PointKey>& keys) {
  char line[160];
  for (size_t i = 0; i < keys.size(); ++i) {
    const PointKey& key = keys[i];
    if (!std::isfinite(key.time) || !std::isfinite(key.value.x) || !std::isfinite(key.value.y) ||
        !std::isfinite(key.value.z)) {
      std::snprintf(line, sizeof(line), "key %zu: not a finite time and point", i);
      return line;
    }
    if (i > 0 && !(key.time > keys[i - 1].time)) {
      std::snprintf(line, sizeof(line), "key %zu: time %g is not after the key before (%g)", i,
                    double(key.time), double(keys[i - 1].time));
      return line;
    }
  }
  return "";
}

}  // namespace app
