// The range-of-motion clip: motions laid out one after another, then keyed per joint.
#include "app/core/range_of_motion.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "assets/model/animation.h"
#include "ik/core/rotation.h"

namespace app {

namespace {

constexpr float kDegree = 3.14159265358979f / 180.0f;

glm::vec3 RestPosition(const ik::Skeleton& skeleton, int joint) {
  return glm::vec3(skeleton.rest_models()[size_t(joint)][3]);
}

// The joint's own frame at rest (its model matrix without scale) as a rotation.
glm::mat3 RestFrame(const ik::Skeleton& skeleton, int joint) {
  glm::mat3 m(skeleton.rest_models()[size_t(joint)]);
  for (int c = 0; c < 3; ++c) {
    const float length = glm::length(m[c]);
    m[c] = length > 0.0f ? m[c] / length : glm::vec3(0.0f);
  }
  return m;
}

// A model-space axis in the joint's own frame, unit.
glm::vec3 ToLocal(const ik::Skeleton& skeleton, int joint, const glm::vec3& axis_model) {
  const glm::vec3 local = glm::transpose(RestFrame(skeleton, joint)) * axis_model;
  const float length = glm::length(local);
  return length > 1e-9f ? local / length : glm::vec3(1.0f, 0.0f, 0.0f);
}

// `v` made perpendicular to the unit `d` and unit; `fallback` (likewise) when that is degenerate.
glm::vec3 Perpendicular(const glm::vec3& v, const glm::vec3& d, const glm::vec3& fallback) {
  for (const glm::vec3& candidate : {v, fallback}) {
    const glm::vec3 p = candidate - glm::dot(candidate, d) * d;
    if (glm::length(p) > 0.2f * glm::length(candidate)) return glm::normalize(p);
  }
  return ik::AnyPerpendicular(d);
}

// The axis about which a positive turn carries the unit direction `d` toward `toward`.
glm::vec3 TurnAxis(const glm::vec3& d, const glm::vec3& toward, const glm::vec3& fallback) {
  return glm::normalize(glm::cross(d, Perpendicular(toward, d, fallback)));
}

glm::vec3 Direction(const glm::vec3& from, const glm::vec3& to, const glm::vec3& fallback) {
  const glm::vec3 d = to - from;
  return glm::length(d) > 1e-9f ? glm::normalize(d) : fallback;
}

// Collects the motions, each after the last.
class Layout {
 public:
  explicit Layout(float seconds) : seconds_(seconds) {}
  void Add(RangeMotion motion) {
    motion.start = now_;
    motion.end = now_ + seconds_;
    now_ = motion.end;
    motions_.push_back(std::move(motion));
  }
  std::vector<RangeMotion> Take() { return std::move(motions_); }
  float now() const { return now_; }

 private:
  float seconds_;
  float now_ = 0.0f;
  std::vector<RangeMotion> motions_;
};

RangeMotion OneJoint(const std::string& group, const std::string& what, int joint,
                     const glm::vec3& axis_local, float min_angle, float max_angle,
                     bool from_limit) {
  RangeMotion m;
  m.group = group;
  m.what = what;
  m.joints = {joint};
  m.axes_local = {axis_local};
  m.min_angle = min_angle;
  m.max_angle = max_angle;
  m.from_limit = from_limit;
  return m;
}

// A joint with a limit goes through it: a hinge about its axis, a cone on two swing axes (the
// first near `first_swing_local`) and its twist range.
void AddLimited(Layout* layout, const std::string& group, const std::string& joint_name, int joint,
                const ik::JointLimit& limit, const glm::vec3& first_swing_local) {
  if (limit.type == ik::JointLimit::Type::kHinge) {
    layout->Add(OneJoint(group, joint_name + " hinge", joint, glm::normalize(limit.axis_local),
                         limit.min_angle, limit.max_angle, true));
    return;
  }
  const glm::vec3 twist = glm::normalize(limit.twist_axis_local);
  const glm::vec3 swing1 = Perpendicular(first_swing_local, twist, ik::AnyPerpendicular(twist));
  const glm::vec3 swing2 = glm::normalize(glm::cross(twist, swing1));
  layout->Add(OneJoint(group, joint_name + " swing", joint, swing1, -limit.cone_angle,
                       limit.cone_angle, true));
  layout->Add(OneJoint(group, joint_name + " swing across", joint, swing2, -limit.cone_angle,
                       limit.cone_angle, true));
  layout->Add(
      OneJoint(group, joint_name + " twist", joint, twist, limit.twist_min, limit.twist_max, true));
}

// The angle of a motion at `u` in [0, 1]: rest → max → rest → min → rest, eased.
float AngleAt(const RangeMotion& m, float u) {
  float points[5];
  int count = 0;
  points[count++] = 0.0f;
  for (float p : {m.max_angle, 0.0f, m.min_angle, 0.0f}) {
    if (p != points[count - 1]) points[count++] = p;
  }
  if (count < 2) return 0.0f;
  const int segments = count - 1;
  const float x = std::clamp(u, 0.0f, 1.0f) * float(segments);
  const int s = std::min(static_cast<int>(x), segments - 1);
  const float f = x - float(s);
  const float eased = 0.5f - 0.5f * std::cos(3.14159265f * f);
  return points[s] + (points[s + 1] - points[s]) * eased;
}

}  // namespace

RangeOfMotion MakeRangeOfMotion(const ik::Skeleton& skeleton, const std::vector<ik::Limb>& limbs,
                                const ik::BodyRig* body, const ik::JointLimits& limits,
                                const RangeOfMotionOptions& options) {
  RangeOfMotion result;
  result.clip.name = kRangeOfMotionName;
  const int n = skeleton.joint_count();
  auto valid = [n](int j) { return j >= 0 && j < n; };

  // The character's up, left and forward.
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  glm::vec3 left(0.0f);
  for (const ik::Limb& a : limbs) {
    for (const ik::Limb& b : limbs) {
      if (a.kind == b.kind && a.side == ik::LimbSide::kLeft && b.side == ik::LimbSide::kRight &&
          valid(a.chain.start) && valid(b.chain.start)) {
        left += RestPosition(skeleton, a.chain.start) - RestPosition(skeleton, b.chain.start);
      }
    }
  }
  left -= glm::dot(left, up) * up;
  left = glm::length(left) > 1e-9f ? glm::normalize(left) : glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 forward = glm::normalize(glm::cross(left, up));

  Layout layout(options.seconds_per_motion);
  for (const ik::Limb& limb : limbs) {
    const ik::TwoBoneChain& c = limb.chain;
    if (!valid(c.start) || !valid(c.mid) || !valid(c.end)) continue;
    const bool leg = limb.kind == ik::LimbKind::kLeg;
    const std::string& group = limb.label;
    const glm::vec3 a = RestPosition(skeleton, c.start), b = RestPosition(skeleton, c.mid),
                    e = RestPosition(skeleton, c.end);
    const glm::vec3 upper = Direction(a, b, -up), lower = Direction(b, e, upper);
    const glm::vec3 outward = limb.side == ik::LimbSide::kRight ? -left : left;
    // The ball joint at the limb's start: forward, out to the side, about the bone.
    const glm::vec3 flex = ToLocal(skeleton, c.start, TurnAxis(upper, forward, up));
    const glm::vec3 side = ToLocal(skeleton, c.start, TurnAxis(upper, outward, up));
    const glm::vec3 twist = ToLocal(skeleton, c.start, upper);
    const char* ball = leg ? "hip" : "shoulder";
    if (const ik::JointLimit* limit = limits.Find(c.start)) {
      AddLimited(&layout, group, ball, c.start, *limit, flex);
    } else {
      layout.Add(OneJoint(group, std::string(ball) + " flex", c.start, flex,
                          (leg ? -30.0f : -45.0f) * kDegree, 90.0f * kDegree, false));
      layout.Add(OneJoint(group, std::string(ball) + " side swing", c.start, side,
                          (leg ? -20.0f : -30.0f) * kDegree, (leg ? 45.0f : 60.0f) * kDegree,
                          false));
      const float twist_range = (leg ? 40.0f : 60.0f) * kDegree;
      layout.Add(OneJoint(group, std::string(ball) + " twist", c.start, twist, -twist_range,
                          twist_range, false));
    }
    // The hinge: about the rest bend where the rest pose shows one, else the knee folds back and
    // the elbow forward.
    const char* hinge = leg ? "knee" : "elbow";
    if (const ik::JointLimit* limit = limits.Find(c.mid)) {
      AddLimited(&layout, group, hinge, c.mid, *limit, ToLocal(skeleton, c.mid, forward));
    } else {
      // The rest bend's axis where it is near the expected one (turned to fold the same way:
      // a rest pose bent a little the wrong way still folds the knee back, the elbow forward).
      const glm::vec3 expected = TurnAxis(lower, leg ? -forward : forward, up);
      glm::vec3 axis = ToLocal(skeleton, c.mid, expected);
      if (std::optional<glm::vec3> bend = ik::DetectBendAxis(skeleton, c)) {
        const glm::vec3 bend_model = glm::normalize(RestFrame(skeleton, c.mid) * *bend);
        const float agree = glm::dot(bend_model, expected);
        if (std::abs(agree) >= 0.7f)
          axis = ToLocal(skeleton, c.mid, agree < 0.0f ? -bend_model : bend_model);
      }
      layout.Add(OneJoint(group, std::string(hinge) + " bend", c.mid, axis, 0.0f, 140.0f * kDegree,
                          false));
    }
  }

  // The spine: the joints above the hips up to the chest share the bend.
  if (body && valid(body->hips) && valid(body->chest)) {
    std::vector<int> spine;
    for (int j : body->spine) {
      if (valid(j) && j != body->hips) spine.push_back(j);
    }
    if (!spine.empty()) {
      const glm::vec3 spine_up =
          Direction(RestPosition(skeleton, body->hips), RestPosition(skeleton, body->chest), up);
      struct SpineMotion {
        const char* what;
        glm::vec3 axis_model;
        float min_degrees, max_degrees;
      };
      const SpineMotion motions[] = {
          {"spine bend", TurnAxis(spine_up, forward, up), -30.0f, 45.0f},
          {"spine side bend", TurnAxis(spine_up, left, up), -30.0f, 30.0f},
          {"spine twist", spine_up, -30.0f, 30.0f},
      };
      for (const SpineMotion& sm : motions) {
        RangeMotion m;
        m.group = "Spine";
        m.what = sm.what;
        for (int j : spine) {
          m.joints.push_back(j);
          m.axes_local.push_back(ToLocal(skeleton, j, sm.axis_model));
        }
        m.min_angle = sm.min_degrees * kDegree;
        m.max_angle = sm.max_degrees * kDegree;
        layout.Add(std::move(m));
      }
    }
  }

  result.clip.duration = layout.now();
  result.motions = layout.Take();
  // Keys: per joint, its rest rotation at 0 and at the end, and the frames of its motions.
  const float step = 1.0f / std::max(options.frame_rate, 1e-3f);
  std::map<int, assets::JointAnimation> channels;
  for (const RangeMotion& m : result.motions) {
    const float share = 1.0f / float(m.joints.size());
    for (size_t k = 0; k < m.joints.size(); ++k) {
      const int joint = m.joints[k];
      assets::JointAnimation& channel = channels[joint];
      channel.joint = joint;
      assets::Track<glm::quat>& track = channel.rotation;
      const glm::quat rest = skeleton.rest_locals()[size_t(joint)].rotation;
      const int frames = std::max(1, static_cast<int>(std::ceil((m.end - m.start) / step - 1e-4f)));
      for (int f = 0; f <= frames; ++f) {
        const float t = f == frames ? m.end : m.start + float(f) * step;
        if (!track.times.empty() && t <= track.times.back()) continue;  // shared boundary
        const float angle = share * AngleAt(m, (t - m.start) / (m.end - m.start));
        track.times.push_back(t);
        track.values.push_back(glm::normalize(rest * glm::angleAxis(angle, m.axes_local[k])));
      }
    }
  }
  for (auto& [joint, channel] : channels) {
    assets::Track<glm::quat>& track = channel.rotation;
    const glm::quat rest = skeleton.rest_locals()[size_t(joint)].rotation;
    if (track.times.front() > 0.0f) {
      track.times.insert(track.times.begin(), 0.0f);
      track.values.insert(track.values.begin(), rest);
    }
    if (track.times.back() < result.clip.duration) {
      track.times.push_back(result.clip.duration);
      track.values.push_back(rest);
    }
    track.interpolation = assets::Interpolation::kLinear;
    result.clip.channels.push_back(std::move(channel));
  }
  assets::PrepareClip(&result.clip);
  return result;
}

RangeOfMotion MakeModelRangeOfMotion(const Character& character, const ik::JointLimits& limits,
                                     const RangeOfMotionOptions& options) {
  return MakeRangeOfMotion(character.skeleton(), character.limbs(), character.body_rig(), limits,
                           options);
}

}  // namespace app
