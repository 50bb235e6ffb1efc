// Ground plane and ladder geometry.
#include "app/core/contacts.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace app {

namespace {
constexpr float kMaxTiltDegrees = 60.0f;
}

glm::vec3 GroundPlane::Normal() const {
  const float ax = glm::radians(std::clamp(tilt_x_degrees, -kMaxTiltDegrees, kMaxTiltDegrees));
  const float az = glm::radians(std::clamp(tilt_z_degrees, -kMaxTiltDegrees, kMaxTiltDegrees));
  // Up turned about X (rising toward -Z for positive angles), then about Z (rising toward +X).
  const glm::vec3 about_x(0.0f, std::cos(ax), std::sin(ax));
  const glm::vec3 n(about_x.x * std::cos(az) - about_x.y * std::sin(az),
                    about_x.x * std::sin(az) + about_x.y * std::cos(az), about_x.z);
  return glm::normalize(n);
}

float GroundPlane::HeightAt(float x, float z) const {
  const glm::vec3 n = Normal();
  const glm::vec3 origin = pivot + glm::vec3(0.0f, height, 0.0f);
  // n · (p − origin) = 0 solved for p.y.
  return origin.y - (n.x * (x - origin.x) + n.z * (z - origin.z)) / n.y;
}

glm::vec3 FootOnGround(const GroundPlane& ground, const glm::vec3& animated_effector,
                       float contact_height) {
  const float ground_y = ground.HeightAt(animated_effector.x, animated_effector.z);
  glm::vec3 target = animated_effector;
  target.y = std::max(animated_effector.y + ground_y, ground_y + contact_height);
  return target;
}

std::vector<Segment> Ladder::Rungs() const {
  std::vector<Segment> rungs;
  if (count <= 0 || !(spacing > 0.0f) || !(width > 0.0f)) return rungs;
  const glm::vec3 half = 0.5f * width * glm::normalize(across);
  for (int k = 0; k < std::min(count, 1000); ++k) {
    const glm::vec3 centre = base + float(k) * spacing * glm::normalize(up);
    rungs.push_back({centre - half, centre + half});
  }
  return rungs;
}

bool NearestOnRungs(const Ladder& ladder, const glm::vec3& p, glm::vec3* point) {
  float best = std::numeric_limits<float>::max();
  bool found = false;
  for (const Segment& s : ladder.Rungs()) {
    const glm::vec3 ab = s.b - s.a;
    const float t =
        std::clamp(glm::dot(p - s.a, ab) / std::max(glm::dot(ab, ab), 1e-12f), 0.0f, 1.0f);
    const glm::vec3 q = s.a + t * ab;
    const float d = glm::length(q - p);
    if (d < best) {
      best = d;
      *point = q;
      found = true;
    }
  }
  return found;
}

bool HandOnRung(const Ladder& ladder, const glm::vec3& wanted, const glm::vec3& shoulder,
                float reach, glm::vec3* target) {
  *target = wanted;
  if (!ladder.enabled) return false;
  // On each rung, the point nearest the wanted hand if the arm reaches it, else the point nearest
  // the shoulder if that one is reachable; of those, the one nearest the wanted hand.
  auto closest = [](const Segment& s, const glm::vec3& p) {
    const glm::vec3 ab = s.b - s.a;
    const float t =
        std::clamp(glm::dot(p - s.a, ab) / std::max(glm::dot(ab, ab), 1e-12f), 0.0f, 1.0f);
    return s.a + t * ab;
  };
  float best = std::numeric_limits<float>::max();
  bool found = false;
  for (const Segment& s : ladder.Rungs()) {
    for (const glm::vec3& q : {closest(s, wanted), closest(s, shoulder)}) {
      if (glm::length(q - shoulder) > reach) continue;
      const float d = glm::length(q - wanted);
      if (d < best) {
        best = d;
        *target = q;
        found = true;
      }
    }
  }
  return found;
}

}  // namespace app
