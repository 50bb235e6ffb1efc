// Joint limits. A local rotation R is taken relative to the rest rotation, Δ = R0⁻¹ R, and split
// into swing and twist about an axis a: twist = normalize(Δ.w, (Δ.v·a) a) is the part of Δ that
// turns about a, swing = Δ · twist⁻¹ the rest, whose axis is perpendicular to a (Δ a = swing a).
// A hinge keeps only the twist about its axis; a cone limits the swing's angle (which is the angle
// the bone's direction moved by) and the twist's angle separately. Angles are clamped around the
// circle, to whichever end of the range is nearer, so a turn just past -π is not sent to +max.
#include "ik/limits/joint_limits.h"

#include <algorithm>
#include <cmath>

#include "ik/core/constraint_util.h"
#include "ik/core/rotation.h"

namespace ik {

namespace {

constexpr float kAngleSlack = 1e-5f;  // range checks accept rounding of π

bool FiniteNonZero(const glm::vec3& v) { return IsFinite(v) && glm::dot(v, v) > 1e-20f; }

bool AngleInRange(float a) {
  return std::isfinite(a) && a >= -kPi - kAngleSlack && a <= kPi + kAngleSlack;
}

glm::quat SafeNormalize(const glm::quat& q) { return NormalizeOrIdentity(q); }

// `a` clamped into [lo, hi] (a sub-range of [-π, π]); outside it, the end nearer around the circle.
float ClampAngleCircular(float a, float lo, float hi, bool* changed) {
  if (a >= lo && a <= hi) return a;
  *changed = true;
  const float to_lo = std::abs(WrapAngle(a - lo));
  const float to_hi = std::abs(WrapAngle(a - hi));
  return to_lo <= to_hi ? lo : hi;
}

// Signed angle of the twist of q (unit) about unit_axis, in [-π, π]; 0 when q has no defined twist
// (a half turn about an axis perpendicular to unit_axis).
float TwistAngle(const glm::quat& q, const glm::vec3& unit_axis) {
  float s = q.x * unit_axis.x + q.y * unit_axis.y + q.z * unit_axis.z;
  float w = q.w;
  if (w < 0.0f) {
    w = -w;
    s = -s;
  }
  if (!(w * w + s * s > 1e-12f)) return 0.0f;
  return 2.0f * std::atan2(s, w);
}

// Δ = swing · twist about unit_axis. twist is a unit quaternion about the axis (identity when
// undefined), swing has w >= 0.
void SwingTwist(const glm::quat& delta, const glm::vec3& unit_axis, glm::quat* swing,
                glm::quat* twist) {
  const float s = delta.x * unit_axis.x + delta.y * unit_axis.y + delta.z * unit_axis.z;
  const float n2 = delta.w * delta.w + s * s;
  if (n2 > 1e-12f) {
    const float inv = 1.0f / std::sqrt(n2);
    *twist = glm::quat(delta.w * inv, unit_axis.x * s * inv, unit_axis.y * s * inv,
                       unit_axis.z * s * inv);
  } else {
    *twist = IdentityRotation();
  }
  glm::quat sw = SafeNormalize(delta * glm::conjugate(*twist));
  if (sw.w < 0.0f) sw = -sw;
  *swing = sw;
}

// Δ = rest⁻¹ · local for unit inputs (unit to rounding; callers normalize their inputs once).
glm::quat UnitDelta(const glm::quat& rest_unit, const glm::quat& local_unit) {
  return glm::conjugate(rest_unit) * local_unit;
}

glm::quat Delta(const glm::quat& rest, const glm::quat& local) {
  return UnitDelta(SafeNormalize(rest), SafeNormalize(local));
}

// The hinge rotation Δ' = Rot(axis, θ) for the limit with θ clamped.
glm::quat HingeDelta(const JointLimit& limit, const glm::vec3& axis, float angle, bool* changed) {
  const float clamped = ClampAngleCircular(angle, limit.min_angle, limit.max_angle, changed);
  return AxisAngle(axis, clamped);
}

}  // namespace

JointLimit JointLimit::Hinge(const glm::vec3& axis_local, float min_angle, float max_angle) {
  JointLimit l;
  l.type = Type::kHinge;
  l.axis_local = axis_local;
  l.min_angle = min_angle;
  l.max_angle = max_angle;
  return l;
}

JointLimit JointLimit::Cone(const glm::vec3& twist_axis_local, float cone_angle, float twist_min,
                            float twist_max) {
  JointLimit l;
  l.type = Type::kCone;
  l.twist_axis_local = twist_axis_local;
  l.cone_angle = cone_angle;
  l.twist_min = twist_min;
  l.twist_max = twist_max;
  return l;
}

bool JointLimit::Validate(std::string* why) const {
  auto fail = [&](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  switch (type) {
    case Type::kNone:
      return true;
    case Type::kHinge:
      if (!FiniteNonZero(axis_local)) return fail("hinge axis_local must be finite and not zero");
      if (!AngleInRange(min_angle) || !AngleInRange(max_angle) || !(min_angle <= max_angle)) {
        return fail("hinge angles must satisfy -pi <= min_angle <= max_angle <= pi");
      }
      return true;
    case Type::kCone:
      if (!FiniteNonZero(twist_axis_local)) {
        return fail("cone twist_axis_local must be finite and not zero");
      }
      if (!std::isfinite(cone_angle) || !(cone_angle >= 0.0f) ||
          !(cone_angle <= kPi + kAngleSlack)) {
        return fail("cone_angle must be in [0, pi]");
      }
      if (!AngleInRange(twist_min) || !AngleInRange(twist_max) || !(twist_min <= twist_max)) {
        return fail("twist angles must satisfy -pi <= twist_min <= twist_max <= pi");
      }
      return true;
  }
  return fail("limit type is not a known value");
}

const char* LimitTypeName(JointLimit::Type type) {
  switch (type) {
    case JointLimit::Type::kNone:
      return "none";
    case JointLimit::Type::kHinge:
      return "hinge";
    case JointLimit::Type::kCone:
      return "cone";
  }
  return "none";
}

void JointLimits::Set(int joint, const JointLimit& limit) {
  if (limit.type == JointLimit::Type::kNone) {
    limits_.erase(joint);
  } else {
    limits_[joint] = limit;
  }
}

void JointLimits::Remove(int joint) { limits_.erase(joint); }

const JointLimit* JointLimits::Find(int joint) const {
  const auto it = limits_.find(joint);
  return it == limits_.end() ? nullptr : &it->second;
}

bool JointLimits::Validate(const Skeleton& skeleton, std::string* why) const {
  for (const auto& [joint, limit] : limits_) {
    if (joint < 0 || joint >= skeleton.joint_count()) {
      if (why) *why = "limit on joint index " + std::to_string(joint) + ", out of range";
      return false;
    }
    std::string reason;
    if (!limit.Validate(&reason)) {
      if (why) *why = "joint '" + skeleton.name(joint) + "': " + reason;
      return false;
    }
  }
  return true;
}

glm::quat ClampRotation(const JointLimit& limit, const glm::quat& rest_local_rotation,
                        const glm::quat& local_rotation, bool* clamped) {
  bool changed = false;
  glm::quat out = SafeNormalize(local_rotation);
  const glm::quat rest = SafeNormalize(rest_local_rotation);
  if (limit.type == JointLimit::Type::kHinge) {
    const glm::vec3 axis = glm::normalize(limit.axis_local);
    const glm::quat delta = UnitDelta(rest, out);
    glm::quat swing, twist;
    SwingTwist(delta, axis, &swing, &twist);
    // Any swing is outside a hinge; the tolerance keeps float noise from counting as a clamp.
    if (RotationAngle(swing) > 1e-6f) changed = true;
    const glm::quat d = HingeDelta(limit, axis, TwistAngle(twist, axis), &changed);
    if (changed) out = SafeNormalize(rest * d);
  } else if (limit.type == JointLimit::Type::kCone) {
    const glm::vec3 axis = glm::normalize(limit.twist_axis_local);
    const glm::quat delta = UnitDelta(rest, out);
    glm::quat swing, twist;
    SwingTwist(delta, axis, &swing, &twist);
    const glm::vec3 v(swing.x, swing.y, swing.z);
    const float v_len = glm::length(v);
    const float swing_angle = 2.0f * std::atan2(v_len, swing.w);
    if (swing_angle > limit.cone_angle && v_len > 0.0f) {
      swing = AxisAngle(v / v_len, limit.cone_angle);
      changed = true;
    }
    const float twist_angle = TwistAngle(twist, axis);
    const float twist_clamped =
        ClampAngleCircular(twist_angle, limit.twist_min, limit.twist_max, &changed);
    if (changed) out = SafeNormalize(rest * (swing * AxisAngle(axis, twist_clamped)));
  }
  if (clamped) *clamped = changed;
  return out;
}

bool WithinLimit(const JointLimit& limit, const glm::quat& rest_local_rotation,
                 const glm::quat& local_rotation, float tolerance) {
  const glm::quat q = SafeNormalize(local_rotation);
  return AngleBetweenRotations(ClampRotation(limit, rest_local_rotation, q), q) <= tolerance;
}

glm::quat ClampPointing(const JointLimit& limit, const glm::quat& rest_local_rotation,
                        const glm::quat& wanted_local_rotation, const glm::vec3& axis_local,
                        bool* clamped) {
  if (limit.type != JointLimit::Type::kHinge) {
    return ClampRotation(limit, rest_local_rotation, wanted_local_rotation, clamped);
  }
  // Where the wanted rotation points the bone, in the rest frame: Δ_w · axis. The hinge angle that
  // points the bone nearest it is the turn about the hinge axis from axis to Δ_w · axis.
  const glm::vec3 hinge_axis = glm::normalize(limit.axis_local);
  const glm::quat rest = SafeNormalize(rest_local_rotation);
  const glm::quat wanted = SafeNormalize(wanted_local_rotation);
  const glm::quat delta = UnitDelta(rest, wanted);
  const glm::vec3 wanted_dir = Rotate(delta, axis_local);
  const glm::vec3 from_perp = axis_local - glm::dot(axis_local, hinge_axis) * hinge_axis;
  const glm::vec3 to_perp = wanted_dir - glm::dot(wanted_dir, hinge_axis) * hinge_axis;
  const float scale2 = glm::dot(axis_local, axis_local);
  if (!(glm::dot(from_perp, from_perp) > 1e-10f * scale2) ||
      !(glm::dot(to_perp, to_perp) > 1e-10f * scale2)) {
    // The bone lies along the hinge axis (or is asked to): no hinge angle changes where it points.
    return ClampRotation(limit, rest_local_rotation, wanted_local_rotation, clamped);
  }
  const float angle = std::atan2(glm::dot(glm::cross(from_perp, to_perp), hinge_axis),
                                 glm::dot(from_perp, to_perp));
  bool changed = false;
  const glm::quat d = HingeDelta(limit, hinge_axis, angle, &changed);
  const glm::quat out = SafeNormalize(rest * d);
  if (clamped) *clamped = AngleBetweenRotations(out, wanted) > 1e-6f;
  return out;
}

LimitAngles MeasureLimitAngles(const JointLimit& limit, const glm::quat& rest_local_rotation,
                               const glm::quat& local_rotation) {
  LimitAngles out;
  const glm::quat delta = Delta(rest_local_rotation, local_rotation);
  glm::quat swing, twist;
  if (limit.type == JointLimit::Type::kHinge && FiniteNonZero(limit.axis_local)) {
    const glm::vec3 axis = glm::normalize(limit.axis_local);
    SwingTwist(delta, axis, &swing, &twist);
    out.hinge = TwistAngle(twist, axis);
    out.off_axis = RotationAngle(swing);
  } else if (limit.type == JointLimit::Type::kCone && FiniteNonZero(limit.twist_axis_local)) {
    const glm::vec3 axis = glm::normalize(limit.twist_axis_local);
    SwingTwist(delta, axis, &swing, &twist);
    out.swing = RotationAngle(swing);
    out.twist = TwistAngle(twist, axis);
  }
  return out;
}

int BoneChild(const Skeleton& skeleton, int joint) {
  if (joint < 0 || joint >= skeleton.joint_count()) return -1;
  const auto& rest = skeleton.rest_models();
  const glm::vec3 origin(rest[joint][3]);
  const int parent = skeleton.parent(joint);
  glm::vec3 incoming(0.0f);
  if (parent >= 0) incoming = origin - glm::vec3(rest[parent][3]);
  const float scale2 = glm::dot(origin, origin) + 1.0f;
  const bool have_incoming = glm::dot(incoming, incoming) > 1e-12f * scale2;
  int best = -1;
  float best_score = -1e30f;
  for (int child : skeleton.children(joint)) {
    const glm::vec3 offset = glm::vec3(rest[child][3]) - origin;
    const float len2 = glm::dot(offset, offset);
    if (!(len2 > 1e-12f * scale2)) continue;  // at the joint: says nothing about the bone
    float score;
    if (have_incoming) {
      score = glm::dot(offset, incoming) / std::sqrt(len2 * glm::dot(incoming, incoming));
    } else {
      score = static_cast<float>(skeleton.subtree_end(child) - child);
      if (!skeleton.subtree_contiguous()) {
        int count = 0;
        for (int j = child; j < skeleton.joint_count(); ++j) {
          if (skeleton.IsAncestorOrSelf(child, j)) ++count;
        }
        score = static_cast<float>(count);
      }
    }
    if (score > best_score) {
      best_score = score;
      best = child;
    }
  }
  return best;
}

std::optional<glm::vec3> BoneAxisLocal(const Skeleton& skeleton, int joint, int child) {
  const int n = skeleton.joint_count();
  if (joint < 0 || joint >= n) return std::nullopt;
  if (child >= n || (child >= 0 && (child == joint || !skeleton.IsAncestorOrSelf(joint, child)))) {
    return std::nullopt;
  }
  if (child < 0) child = BoneChild(skeleton, joint);
  const auto& rest = skeleton.rest_models();
  internal::JointFrame frame;
  if (!internal::MakeJointFrame(rest[joint], skeleton.rest_locals()[joint].scale, &frame)) {
    return std::nullopt;
  }
  glm::vec3 direction_model;
  if (child >= 0) {
    direction_model = glm::vec3(rest[child][3]) - frame.origin;
  } else {
    const int parent = skeleton.parent(joint);
    if (parent < 0) return std::nullopt;
    direction_model = frame.origin - glm::vec3(rest[parent][3]);
  }
  const glm::vec3 d = internal::ToFrame(frame, direction_model);
  const float len2 = glm::dot(d, d);
  if (!(len2 > 1e-24f) || !std::isfinite(len2)) return std::nullopt;
  return d / std::sqrt(len2);
}

LimitShape MakeLimitShape(const Skeleton& skeleton, const Pose& pose,
                          const std::vector<glm::mat4>& models, int joint, const JointLimit& limit,
                          float radius_model, int segments) {
  LimitShape shape;
  const int n = skeleton.joint_count();
  if (joint < 0 || joint >= n || static_cast<int>(pose.locals.size()) != n ||
      static_cast<int>(models.size()) != n || limit.type == JointLimit::Type::kNone ||
      !limit.Validate() || !std::isfinite(radius_model) || segments < 2) {
    return shape;
  }
  const int parent = skeleton.parent(joint);
  // The limit's zero frame: the current parent and translation with the rest rotation.
  Transform zero = pose.locals[joint];
  zero.rotation = skeleton.rest_locals()[joint].rotation;
  const glm::mat4 zero_model = parent >= 0 ? models[parent] * zero.ToMatrix() : zero.ToMatrix();
  internal::JointFrame frame0, frame_now;
  if (!internal::MakeJointFrame(zero_model, zero.scale, &frame0) ||
      !internal::MakeJointFrame(models[joint], pose.locals[joint].scale, &frame_now)) {
    return shape;
  }
  const glm::vec3 bone_local =
      BoneAxisLocal(skeleton, joint)
          .value_or(limit.type == JointLimit::Type::kCone ? limit.twist_axis_local
                                                          : AnyPerpendicular(limit.axis_local));
  auto to_model_unit = [](const internal::JointFrame& f, const glm::vec3& d) {
    const glm::vec3 m = internal::FromFrame(f, d);
    const float len = glm::length(m);
    return len > 0.0f ? m / len : glm::vec3(0.0f);
  };
  shape.origin_model = frame0.origin;
  shape.bone_model = to_model_unit(frame_now, bone_local);
  if (limit.type == JointLimit::Type::kHinge) {
    const glm::vec3 axis = glm::normalize(limit.axis_local);
    glm::vec3 sweep = bone_local - glm::dot(bone_local, axis) * axis;
    if (!(glm::dot(sweep, sweep) > 1e-8f)) sweep = AnyPerpendicular(axis);
    sweep = glm::normalize(sweep);
    shape.axis_model = to_model_unit(frame0, axis);
    for (int i = 0; i <= segments; ++i) {
      const float angle =
          limit.min_angle + (limit.max_angle - limit.min_angle) * static_cast<float>(i) / segments;
      shape.outline_model.push_back(
          frame0.origin +
          radius_model * to_model_unit(frame0, Rotate(AxisAngle(axis, angle), sweep)));
    }
    return shape;
  }
  const glm::vec3 axis = glm::normalize(limit.twist_axis_local);
  const glm::vec3 u = AnyPerpendicular(axis);
  const glm::vec3 v = glm::cross(axis, u);
  shape.axis_model = to_model_unit(frame0, axis);
  shape.outline_closed = true;
  const float c = std::cos(limit.cone_angle), s = std::sin(limit.cone_angle);
  for (int i = 0; i < segments; ++i) {
    const float phi = kTwoPi * static_cast<float>(i) / segments;
    const glm::vec3 d = c * axis + s * (std::cos(phi) * u + std::sin(phi) * v);
    shape.outline_model.push_back(frame0.origin + radius_model * to_model_unit(frame0, d));
  }
  // Twist: the reference perpendicular u turned by twist_min..twist_max, on a small circle.
  for (int i = 0; i <= segments; ++i) {
    const float angle =
        limit.twist_min + (limit.twist_max - limit.twist_min) * static_cast<float>(i) / segments;
    const glm::vec3 d = 0.5f * axis + 0.25f * Rotate(AxisAngle(axis, angle), u);
    shape.twist_arc_model.push_back(frame0.origin +
                                    radius_model * glm::length(d) * to_model_unit(frame0, d));
  }
  return shape;
}

// --- Two-bone hinge bridge ---

namespace {

// The bend axis the two-bone solver would use (local to chain.mid), and ψ of the rest pose about
// it, measured in the mid joint's own frame and given the sign the solver's model-space bend has.
struct RestBend {
  glm::vec3 axis_local;
  float angle;  // ψ_rest, model-space sign convention
  float sign;   // +1, or -1 when the mid joint's rest frame is mirrored
};

std::optional<RestBend> ComputeRestBend(const Skeleton& skeleton, const TwoBoneChain& chain,
                                        const TwoBoneIkOptions& options) {
  if (!chain.Validate(skeleton)) return std::nullopt;
  std::optional<glm::vec3> axis = options.bend_axis_local;
  if (!axis) axis = DetectBendAxis(skeleton, chain);
  if (!axis || !FiniteNonZero(*axis)) return std::nullopt;
  const glm::vec3 h = glm::normalize(*axis);
  const auto& rest = skeleton.rest_models();
  internal::JointFrame mid;
  if (!internal::MakeJointFrame(rest[chain.mid], skeleton.rest_locals()[chain.mid].scale, &mid)) {
    return std::nullopt;
  }
  const glm::vec3 a(rest[chain.start][3]), b(rest[chain.mid][3]), c(rest[chain.end][3]);
  glm::vec3 upper = internal::ToFrame(mid, b - a);
  glm::vec3 lower = internal::ToFrame(mid, c - b);
  upper -= glm::dot(upper, h) * h;
  lower -= glm::dot(lower, h) * h;
  if (!(glm::dot(upper, upper) > 1e-20f) || !(glm::dot(lower, lower) > 1e-20f)) {
    return std::nullopt;
  }
  const float sign = glm::determinant(mid.basis) < 0.0f ? -1.0f : 1.0f;
  const float local_angle =
      std::atan2(glm::dot(glm::cross(upper, lower), h), glm::dot(upper, lower));
  return RestBend{h, sign * local_angle, sign};
}

}  // namespace

std::optional<float> RestBendAngle(const Skeleton& skeleton, const TwoBoneChain& chain,
                                   const TwoBoneIkOptions& options) {
  const auto bend = ComputeRestBend(skeleton, chain, options);
  if (!bend) return std::nullopt;
  return bend->angle;
}

std::optional<JointLimit> HingeLimitFromTwoBone(const Skeleton& skeleton, const TwoBoneChain& chain,
                                                const TwoBoneIkOptions& options) {
  const auto bend = ComputeRestBend(skeleton, chain, options);
  if (!bend || !options.Validate()) return std::nullopt;
  // ψ = ψ_rest + sign·θ for a turn θ about the local axis, so θ = sign·(ψ - ψ_rest).
  float lo = bend->sign * (options.hinge_min_angle - bend->angle);
  float hi = bend->sign * (options.hinge_max_angle - bend->angle);
  if (lo > hi) std::swap(lo, hi);
  // Ranges wider than the circle allow every angle; keep the limit valid.
  lo = std::max(lo, -kPi);
  hi = std::min(hi, kPi);
  if (lo > hi) return std::nullopt;
  return JointLimit::Hinge(bend->axis_local, lo, hi);
}

bool TwoBoneHingeFromLimit(const Skeleton& skeleton, const TwoBoneChain& chain,
                           const JointLimit& limit, TwoBoneIkOptions* options) {
  if (!options || limit.type != JointLimit::Type::kHinge || !limit.Validate()) return false;
  TwoBoneIkOptions probe = *options;
  probe.bend_axis_local = glm::normalize(limit.axis_local);
  const auto bend = ComputeRestBend(skeleton, chain, probe);
  if (!bend) return false;
  float lo = bend->angle + bend->sign * limit.min_angle;
  float hi = bend->angle + bend->sign * limit.max_angle;
  if (lo > hi) std::swap(lo, hi);
  lo = std::max(lo, 0.0f);
  hi = std::min(hi, kPi);
  if (lo > hi) return false;
  options->hinge = true;
  options->bend_axis_local = probe.bend_axis_local;
  options->hinge_min_angle = lo;
  options->hinge_max_angle = hi;
  return true;
}

}  // namespace ik
