// An independent check that a local rotation is within a joint limit, for the constraint tests:
// it does not use joint_limits.cpp's decomposition, so a bug there cannot hide itself.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>

#include "ik/core/rotation.h"
#include "ik/limits/joint_limits.h"

namespace iktest {

// "" when `local` is within `limit` (relative to `rest`) up to `slack` radians, else what is off.
// Hinge: Δ = rest⁻¹ local turns about the axis only, by an angle in range. Cone: the axis moved by
// at most cone_angle (the angle between it and Δ·axis), and what is left after taking that swing
// out (ik::RotationBetween, the minimal rotation) twists about the axis within range.
inline std::string LimitViolation(const ik::JointLimit& limit, const glm::quat& rest,
                                  const glm::quat& local, float slack = 1e-4f) {
  glm::dquat delta = glm::normalize(glm::conjugate(glm::dquat(rest)) * glm::dquat(local));
  if (delta.w < 0.0) delta = -delta;
  const glm::dvec3 v(delta.x, delta.y, delta.z);
  const double eps = static_cast<double>(slack);
  const double min_angle = static_cast<double>(limit.min_angle);
  const double max_angle = static_cast<double>(limit.max_angle);
  const double cone_angle = static_cast<double>(limit.cone_angle);
  const double twist_min = static_cast<double>(limit.twist_min);
  const double twist_max = static_cast<double>(limit.twist_max);
  if (limit.type == ik::JointLimit::Type::kHinge) {
    const glm::dvec3 axis = glm::normalize(glm::dvec3(limit.axis_local));
    const double off_axis = 2.0 * glm::length(glm::cross(v, axis));  // ≈ the off-axis angle
    if (off_axis > eps) return "hinge turns off its axis by " + std::to_string(off_axis);
    const double angle = 2.0 * std::atan2(glm::dot(v, axis), delta.w);
    // ±π is one rotation: either may be the one in range.
    auto in_range = [&](double a) { return a >= min_angle - eps && a <= max_angle + eps; };
    if (!in_range(angle) && !in_range(angle + static_cast<double>(ik::kTwoPi)) &&
        !in_range(angle - static_cast<double>(ik::kTwoPi))) {
      return "hinge angle " + std::to_string(angle) + " out of range";
    }
    return "";
  }
  if (limit.type == ik::JointLimit::Type::kCone) {
    const glm::dvec3 axis = glm::normalize(glm::dvec3(limit.twist_axis_local));
    const glm::dvec3 moved = glm::dquat(delta) * axis;
    const double swing = std::atan2(glm::length(glm::cross(axis, moved)), glm::dot(axis, moved));
    if (swing > cone_angle + eps) return "swing " + std::to_string(swing) + " too large";
    if (swing > 3.1) return "";  // a half-turn swing leaves the twist undefined
    const glm::dquat swing_q = glm::dquat(ik::RotationBetween(glm::vec3(axis), glm::vec3(moved)));
    glm::dquat twist = glm::conjugate(swing_q) * delta;
    if (twist.w < 0.0) twist = -twist;
    const double twist_angle =
        2.0 * std::atan2(glm::dot(glm::dvec3(twist.x, twist.y, twist.z), axis), twist.w);
    // Float rounding in RotationBetween: a little more slack.
    if (twist_angle < twist_min - 10 * eps || twist_angle > twist_max + 10 * eps) {
      return "twist " + std::to_string(twist_angle) + " out of range";
    }
  }
  return "";
}

}  // namespace iktest
