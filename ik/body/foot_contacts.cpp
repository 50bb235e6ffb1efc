// Foot contacts: hysteresis on height and speed over a sampled path.
#include "ik/body/foot_contacts.h"

#include <algorithm>
#include <cmath>

namespace ik {

namespace {

// Planted feet sliding at least this fast (leg lengths per second) mark an in-place clip.
constexpr float kInPlaceSpeed = 0.25f;

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The velocity at sample f (central difference; one-sided at the ends), per second.
glm::vec3 VelocityAt(const std::vector<glm::vec3>& p, size_t f, float fps) {
  const size_t n = p.size();
  if (n < 2) return glm::vec3(0.0f);
  const size_t a = f == 0 ? 0 : f - 1;
  const size_t b = f + 1 >= n ? n - 1 : f + 1;
  return (p[b] - p[a]) * (fps / static_cast<float>(b - a));
}

float Median(std::vector<float> v) {
  if (v.empty()) return 0.0f;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(mid), v.end());
  return v[mid];
}

}  // namespace

float ContactSkate(const std::vector<glm::vec3>& positions, int first, int last) {
  if (first < 0 || last < first || static_cast<size_t>(last) >= positions.size()) return 0.0f;
  const glm::vec3 start = positions[static_cast<size_t>(first)];
  float skate = 0.0f;
  for (int f = first; f <= last; ++f) {
    const glm::vec3 d = positions[static_cast<size_t>(f)] - start;
    skate = std::max(skate, std::sqrt(d.x * d.x + d.z * d.z));
  }
  return skate;
}

std::vector<FootContact> FindFootContacts(const std::vector<glm::vec3>& positions,
                                          const std::vector<float>& heights, float fps,
                                          float leg_length, const ContactOptions& options) {
  std::vector<FootContact> contacts;
  const size_t n = positions.size();
  if (n == 0 || heights.size() != n || !(fps > 0.0f) || !(leg_length > 0.0f) ||
      !std::isfinite(fps) || !std::isfinite(leg_length)) {
    return contacts;
  }
  for (size_t f = 0; f < n; ++f) {
    if (!Finite(positions[f]) || !std::isfinite(heights[f])) return contacts;
  }
  const float low = *std::min_element(heights.begin(), heights.end());
  const float enter_h = low + options.enter_height * leg_length;
  const float exit_h = low + options.exit_height * leg_length;
  const float enter_v = options.enter_speed * leg_length;
  const float exit_v = options.exit_speed * leg_length;
  // Raw intervals by hysteresis.
  std::vector<FootContact> raw;
  bool planted = false;
  FootContact current;
  for (size_t f = 0; f < n; ++f) {
    const float speed = glm::length(VelocityAt(positions, f, fps));
    const float h = heights[f];
    if (!planted) {
      if (h <= enter_h && speed <= enter_v) {
        planted = true;
        current.first = current.last = static_cast<int>(f);
      }
    } else if (h > exit_h || speed > exit_v) {
      planted = false;
      raw.push_back(current);
    } else {
      current.last = static_cast<int>(f);
    }
  }
  if (planted) raw.push_back(current);
  // Merge contacts separated by a short gap, then drop the short ones.
  for (const FootContact& c : raw) {
    if (!contacts.empty() && c.first - contacts.back().last - 1 <= options.max_gap_frames) {
      contacts.back().last = c.last;
    } else {
      contacts.push_back(c);
    }
  }
  const float min_frames = options.min_seconds * fps;
  contacts.erase(std::remove_if(contacts.begin(), contacts.end(),
                                [&](const FootContact& c) {
                                  return static_cast<float>(c.last - c.first + 1) < min_frames ||
                                         c.last == c.first;
                                }),
                 contacts.end());
  for (FootContact& c : contacts) {
    c.skate = ContactSkate(positions, c.first, c.last);
    double sum = 0.0;
    for (int f = c.first; f <= c.last; ++f) sum += double(heights[static_cast<size_t>(f)]);
    c.height = static_cast<float>(sum / double(c.last - c.first + 1));
  }
  return contacts;
}

glm::vec3 TravelVelocity(const std::vector<std::vector<glm::vec3>>& feet,
                         const std::vector<std::vector<float>>& heights,
                         const std::vector<glm::vec3>& root, float fps, float leg_length,
                         const ContactOptions& options) {
  if (feet.size() != heights.size() || root.size() < 2 || !(fps > 0.0f) || !(leg_length > 0.0f)) {
    return glm::vec3(0.0f);
  }
  std::vector<float> vx, vz;
  for (size_t i = 0; i < feet.size(); ++i) {
    const std::vector<glm::vec3>& p = feet[i];
    const std::vector<float>& h = heights[i];
    if (p.size() != h.size() || p.size() < 2) continue;
    const float low = *std::min_element(h.begin(), h.end());
    for (size_t f = 0; f < p.size(); ++f) {
      if (h[f] > low + options.enter_height * leg_length) continue;
      const glm::vec3 v = VelocityAt(p, f, fps);
      if (!Finite(v)) continue;
      vx.push_back(v.x);
      vz.push_back(v.z);
    }
  }
  const glm::vec3 planted(Median(vx), 0.0f, Median(vz));
  const float speed = glm::length(planted);
  if (!(speed > kInPlaceSpeed * leg_length)) return glm::vec3(0.0f);
  const float duration = static_cast<float>(root.size() - 1) / fps;
  glm::vec3 moved = root.back() - root.front();
  moved.y = 0.0f;
  if (!Finite(moved) || glm::length(moved) >= 0.25f * speed * duration) return glm::vec3(0.0f);
  return -planted;
}

}  // namespace ik
