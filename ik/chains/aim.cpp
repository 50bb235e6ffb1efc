// Points-at constraints. The seed's option 2, step by step, for a joint with model matrix 𝕋 (its
// own scale S divided out, giving the frame F a local correction acts in):
//  1. the target, a model-space point, goes into F through F⁻¹: d = F⁻¹ (t - origin);
//  2. the bone's current direction in F is a constant there: the axis given, or the child joint's
//     position F⁻¹ (child - origin) (the seed's "left ankle - left knee" in calf coordinates);
//  3. the minimal rotation c taking axis to d (RotationBetween, no acos) is computed in F, and,
//     with an up reference, a twist about d that turns up_local toward it;
//  4. it is applied in F: local.rotation * c. Because c lives in the joint's own frame, the joint's
//     limit (also in that frame, relative to the rest rotation) clamps the new local rotation.
// A spread first turns ancestors, topmost first, each by its share of the turn its own frame sees
// (the bone's direction and the target direction both taken into that frame), then the joint
// itself turns the rest exactly.
#include "ik/chains/aim.h"

#include <algorithm>
#include <cmath>

#include "ik/core/constraint_util.h"
#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"

namespace ik {

using internal::JointFrame;

const char* AimFallbackName(AimFallback f) {
  switch (f) {
    case AimFallback::kNone:
      return "none";
    case AimFallback::kInvalidJoint:
      return "invalid_joint";
    case AimFallback::kInvalidOptions:
      return "invalid_options";
    case AimFallback::kNonFiniteInput:
      return "non_finite_input";
    case AimFallback::kSingularFrame:
      return "singular_frame";
    case AimFallback::kTargetMovesWithBone:
      return "target_moves_with_bone";
    case AimFallback::kNoAxis:
      return "no_axis";
    case AimFallback::kTargetAtJoint:
      return "target_at_joint";
    case AimFallback::kAntiparallel:
      return "antiparallel";
    case AimFallback::kUpColinear:
      return "up_colinear";
  }
  return "none";
}

namespace {

constexpr int kMaxSpread = 64;

using D3 = glm::dvec3;

// Any component nonzero: a direction, however short.
bool NonZero(const glm::vec3& v) { return v.x != 0.0f || v.y != 0.0f || v.z != 0.0f; }

void SetFallback(AimFallback* slot, AimFallback f) {
  if (slot && *slot == AimFallback::kNone) *slot = f;
}

// `to - from` in double: the difference of any two finite floats fits there.
D3 Offset(const glm::vec3& to, const glm::vec3& from) { return D3(to) - D3(from); }

// A model-space direction taken into a joint frame, in double.
D3 ToFrame(const JointFrame& frame, const D3& direction_model) {
  return glm::dmat3(frame.inverse) * direction_model;
}

// A double direction as a float vector of the same direction: scaled so its largest component
// is 1, which float holds whatever the original magnitude.
glm::vec3 FloatDirection(const D3& v) {
  const double big = std::max(std::abs(v.x), std::max(std::abs(v.y), std::abs(v.z)));
  return big > 0.0 ? glm::vec3(v / big) : glm::vec3(0.0f);
}

// The unit float vector along a double direction.
glm::vec3 UnitDirection(const D3& v) {
  const double big = std::max(std::abs(v.x), std::max(std::abs(v.y), std::abs(v.z)));
  return big > 0.0 ? glm::vec3(glm::normalize(v / big)) : glm::vec3(0.0f);
}

glm::quat ToFloat(const glm::dquat& q) {
  return NormalizeOrIdentity(glm::quat(static_cast<float>(q.w), static_cast<float>(q.x),
                                       static_cast<float>(q.y), static_cast<float>(q.z)));
}

// The target counts as at the joint when it is nearer than float positions around the joint can
// resolve a direction: 1e-6 of the larger of the bone and the joint's distance from the origin.
bool TargetAtJoint(const D3& to_target_model, const D3& axis_model, const glm::vec3& origin) {
  const double scale2 = glm::dot(axis_model, axis_model) + glm::dot(D3(origin), D3(origin));
  return !(glm::dot(to_target_model, to_target_model) > 1e-12 * scale2);
}

// The basis axis of a frame most perpendicular to `axis`: a deterministic default up.
glm::vec3 MostPerpendicularBasisAxis(const glm::vec3& axis) {
  const glm::vec3 a = glm::abs(axis);
  if (a.x <= a.y && a.x <= a.z) return glm::vec3(1.0f, 0.0f, 0.0f);
  if (a.y <= a.z) return glm::vec3(0.0f, 1.0f, 0.0f);
  return glm::vec3(0.0f, 0.0f, 1.0f);
}

// The aim in an already built frame, in double. `up_reference_local` is a direction in the frame.
glm::quat AimInFrame(const JointFrame& frame, const glm::vec3& axis_local,
                     const glm::vec3& target_model, const glm::vec3* up_local,
                     const D3* up_reference_local, AimFallback* fallback) {
  const D3 to_target_model = Offset(target_model, frame.origin);
  const D3 axis_model = glm::dmat3(frame.basis) * D3(axis_local);
  if (TargetAtJoint(to_target_model, axis_model, frame.origin)) {
    SetFallback(fallback, AimFallback::kTargetAtJoint);
    return IdentityRotation();
  }
  const D3 d = ToFrame(frame, to_target_model);
  const D3 up = up_local ? D3(*up_local) : D3(0.0);
  RotationFallback rf;
  const glm::dquat swing = RotationBetween(D3(axis_local), d, up, &rf);
  if (rf == RotationFallback::kZeroVector) {
    SetFallback(fallback, AimFallback::kTargetAtJoint);
    return IdentityRotation();
  }
  if (rf == RotationFallback::kAntiparallel) SetFallback(fallback, AimFallback::kAntiparallel);
  if (!up_local || !up_reference_local) return ToFloat(swing);
  // Twist about the new axis so up_local (after the swing) faces the reference. Both must have a
  // part perpendicular to the axis, or the twist is undefined. Directions only: the reference is
  // brought to unit size first, however far the up target is.
  const D3 axis_now = D3(UnitDirection(d));
  const D3 up_now = Rotate(swing, glm::normalize(up));
  const D3 ref = D3(UnitDirection(*up_reference_local));
  const D3 up_perp = up_now - glm::dot(up_now, axis_now) * axis_now;
  const D3 ref_perp = ref - glm::dot(ref, axis_now) * axis_now;
  if (!(glm::dot(up_perp, up_perp) > 1e-8) || !(glm::dot(ref_perp, ref_perp) > 1e-8)) {
    SetFallback(fallback, AimFallback::kUpColinear);
    return ToFloat(swing);
  }
  return ToFloat(RotationAbout(axis_now, up_now, ref) * swing);
}

// Recomputes the model matrices of the path joints from index `from` down to 0 (joint k's parent
// is joint k + 1; joint `top`'s parent matrix is `top_parent`).
void UpdatePath(int top, const Transform* locals, int from, const glm::mat4& top_parent,
                bool top_has_parent, glm::mat4* m) {
  for (int k = from; k >= 0; --k) {
    const glm::mat4 local = locals[k].ToMatrix();
    if (k == top) {
      m[k] = top_has_parent ? top_parent * local : local;
    } else {
      m[k] = m[k + 1] * local;
    }
  }
}

}  // namespace

bool AimOptions::Validate(std::string* why) const {
  auto fail = [&](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  if (axis_local && (!IsFinite(*axis_local) || !NonZero(*axis_local))) {
    return fail("axis_local must be finite and not zero");
  }
  if (axis_child < -1) return fail("axis_child must be -1 or a joint index");
  if (up_local && (!IsFinite(*up_local) || !NonZero(*up_local))) {
    return fail("up_local must be finite and not zero");
  }
  if (up_target_model && up_direction_model) {
    return fail("give at most one of up_target_model and up_direction_model");
  }
  if (up_target_model && !IsFinite(*up_target_model)) return fail("up_target_model is not finite");
  if (up_direction_model && (!IsFinite(*up_direction_model) || !NonZero(*up_direction_model))) {
    return fail("up_direction_model must be finite and not zero");
  }
  if (!(weight >= 0.0f && weight <= 1.0f)) return fail("weight must be in [0, 1]");
  if (spread < 0 || spread > kMaxSpread) return fail("spread must be in [0, 64]");
  if (!(spread_falloff > 0.0f && spread_falloff <= 1.0f)) {
    return fail("spread_falloff must be in (0, 1]");
  }
  return true;
}

glm::quat AimCorrection(const glm::mat4& joint_frame_model, const glm::vec3& axis_local,
                        const glm::vec3& target_model, const std::optional<glm::vec3>& up_local,
                        const std::optional<glm::vec3>& up_reference_local, AimFallback* fallback) {
  if (fallback) *fallback = AimFallback::kNone;
  if (!IsFinite(joint_frame_model) || !IsFinite(axis_local) || !IsFinite(target_model) ||
      (up_local && !IsFinite(*up_local)) ||
      (up_reference_local && !IsFinite(*up_reference_local))) {
    SetFallback(fallback, AimFallback::kNonFiniteInput);
    return IdentityRotation();
  }
  JointFrame frame;
  if (!internal::MakeJointFrame(joint_frame_model, glm::vec3(1.0f), &frame)) {
    SetFallback(fallback, AimFallback::kSingularFrame);
    return IdentityRotation();
  }
  if (!NonZero(axis_local)) {
    SetFallback(fallback, AimFallback::kNoAxis);
    return IdentityRotation();
  }
  const D3 reference = up_reference_local ? D3(*up_reference_local) : D3(0.0);
  return AimInFrame(frame, axis_local, target_model, up_local ? &*up_local : nullptr,
                    up_reference_local ? &reference : nullptr, fallback);
}

namespace {

// One SolveAimPose call: its inputs and what its steps share.
struct AimSolve {
  const Skeleton& skeleton;
  int joint;
  const glm::vec3& target_model;
  const AimOptions& options;
  const JointLimits* limits;
  Pose* pose;
  std::vector<glm::mat4>* models;
  AimWorkspace& ws;
  AimResult& result;
  int top_index = 0;
  int top = -1;
  int top_parent = -1;
  int axis_child = -1;         // the axis source: a child joint (current position) ...
  int axis_parent = -1;        // ... or, for a leaf, the parent
  glm::vec3 axis_local{0.0f};  // the bone's axis in its own frame: constant under the turns below
  glm::mat4 top_parent_model{1.0f};

  const JointLimit* LimitOf(int k) const { return limits ? limits->Find(ws.path[k]) : nullptr; }
};

// The job's arguments; kNone when they are usable.
AimFallback CheckAimJob(const Skeleton& skeleton, int joint, const AimOptions& options,
                        const JointLimits* limits, const Pose* pose,
                        const std::vector<glm::mat4>* models, const AimWorkspace* workspace) {
  const int n = skeleton.joint_count();
  if (!pose || !models || !workspace || joint < 0 || joint >= n ||
      static_cast<int>(pose->locals.size()) != n || static_cast<int>(models->size()) != n) {
    return AimFallback::kInvalidJoint;
  }
  if (!options.Validate() || (limits && !limits->Validate(skeleton))) {
    return AimFallback::kInvalidOptions;
  }
  if (options.axis_child >= 0 && (options.axis_child >= n || options.axis_child == joint ||
                                  !skeleton.IsAncestorOrSelf(joint, options.axis_child))) {
    return AimFallback::kInvalidOptions;
  }
  return AimFallback::kNone;
}

// The path (the joint, then the ancestors sharing the turn) and the axis source; checks that the
// matrices involved are finite and the frames invertible.
AimFallback PreparePath(AimSolve* s) {
  const Skeleton& skeleton = s->skeleton;
  const auto& locals = s->pose->locals;
  const auto& m = *s->models;
  std::vector<int>& path = s->ws.path;
  path.clear();
  path.push_back(s->joint);
  while (static_cast<int>(path.size()) <= s->options.spread && skeleton.parent(path.back()) >= 0) {
    path.push_back(skeleton.parent(path.back()));
  }
  const int path_size = static_cast<int>(path.size());
  s->top_index = path_size - 1;
  s->top = path[s->top_index];
  s->top_parent = skeleton.parent(s->top);
  s->result.top_joint = s->top;
  s->result.joints_turned = path_size;

  s->axis_child = s->options.axis_child;
  if (!s->options.axis_local && s->axis_child < 0) s->axis_child = BoneChild(skeleton, s->joint);
  s->axis_parent = skeleton.parent(s->joint);

  if (!IsFinite(s->target_model)) return AimFallback::kNonFiniteInput;
  for (int k = 0; k <= s->top_index; ++k) {
    if (!locals[path[k]].IsFinite() || !IsFinite(m[path[k]])) return AimFallback::kNonFiniteInput;
  }
  if ((s->top_parent >= 0 && !IsFinite(m[s->top_parent])) ||
      (s->axis_child >= 0 && !IsFinite(m[s->axis_child])) ||
      (s->axis_parent >= 0 && !IsFinite(m[s->axis_parent]))) {
    return AimFallback::kNonFiniteInput;
  }
  for (int k = 0; k <= s->top_index; ++k) {
    JointFrame f;
    if (!internal::MakeJointFrame(m[path[k]], locals[path[k]].scale, &f)) {
      return AimFallback::kSingularFrame;
    }
  }
  return AimFallback::kNone;
}

// The bone's axis in its own frame and the result's "before" measures. False (kNoAxis, not
// degenerate) when the bone has no axis.
bool MeasureAxis(AimSolve* s) {
  const auto& m = *s->models;
  JointFrame frame0;
  internal::MakeJointFrame(m[s->joint], s->pose->locals[s->joint].scale, &frame0);  // checked
  if (s->options.axis_local) {
    s->axis_local = *s->options.axis_local;
  } else if (s->axis_child >= 0) {
    s->axis_local = internal::ToFrame(frame0, glm::vec3(m[s->axis_child][3]) - frame0.origin);
  } else if (s->axis_parent >= 0) {
    s->axis_local = internal::ToFrame(frame0, frame0.origin - glm::vec3(m[s->axis_parent][3]));
  }
  AimResult& result = s->result;
  result.degenerate = false;
  result.origin_model = frame0.origin;
  const glm::vec3 axis_model_before = internal::FromFrame(frame0, s->axis_local);
  if (!NonZero(s->axis_local) || !NonZero(axis_model_before) || !IsFinite(s->axis_local)) {
    result.fallback = AimFallback::kNoAxis;
    return false;
  }
  result.axis_before_model = UnitDirection(D3(axis_model_before));
  result.axis_after_model = result.axis_before_model;
  result.angle_before = static_cast<float>(
      AngleBetweenDirections(D3(axis_model_before), Offset(s->target_model, frame0.origin)));
  result.angle_after = result.angle_before;
  return true;
}

// Working copies of the path (pose->locals untouched until the end), then the ancestors, topmost
// first, each turned by its share of what remains.
void TurnAncestors(AimSolve* s) {
  AimWorkspace& ws = s->ws;
  const std::vector<int>& path = ws.path;
  const int path_size = s->top_index + 1;
  const auto& locals = s->pose->locals;
  const auto& m = *s->models;
  ws.path_locals.resize(path_size);
  ws.path_models.resize(path_size);
  ws.share_prefix.resize(path_size);
  ws.original.resize(path_size);
  Transform* path_locals = ws.path_locals.data();
  glm::mat4* path_models = ws.path_models.data();
  for (int k = 0; k <= s->top_index; ++k) {
    path_locals[k] = locals[path[k]];
    path_models[k] = m[path[k]];
  }
  s->top_parent_model = s->top_parent >= 0 ? m[s->top_parent] : glm::mat4(1.0f);
  const auto& rest_locals = s->skeleton.rest_locals();
  const float falloff = s->options.spread_falloff;

  float* share_prefix = ws.share_prefix.data();
  float share_sum = 1.0f;  // Σ falloff^i for i = 0..k, built up below
  share_prefix[0] = 1.0f;
  for (int k = 1; k <= s->top_index; ++k) {
    float share = 1.0f;
    for (int i = 0; i < k; ++i) share *= falloff;
    share_sum += share;
    share_prefix[k] = share_sum;
  }
  for (int k = s->top_index; k >= 1; --k) {
    float share = 1.0f;
    for (int i = 0; i < k; ++i) share *= falloff;
    const float fraction = share / share_prefix[k];
    JointFrame fk, f0;
    if (!internal::MakeJointFrame(path_models[k], path_locals[k].scale, &fk) ||
        !internal::MakeJointFrame(path_models[0], path_locals[0].scale, &f0)) {
      continue;  // a turn made a frame singular: leave this ancestor as it is
    }
    const D3 bone_model = glm::dmat3(f0.basis) * D3(s->axis_local);
    const D3 wanted_model = Offset(s->target_model, f0.origin);
    if (TargetAtJoint(wanted_model, bone_model, f0.origin)) {
      break;  // the target reached the joint's position: no direction left to share
    }
    const glm::quat full =
        ToFloat(RotationBetween(ToFrame(fk, bone_model), ToFrame(fk, wanted_model)));
    const glm::quat part = ScaleRotation(full, fraction);
    glm::quat rotation = NormalizeOrIdentity(path_locals[k].rotation * part);
    if (const JointLimit* limit = s->LimitOf(k)) {
      bool clamped = false;
      rotation = ClampRotation(*limit, rest_locals[path[k]].rotation, rotation, &clamped);
      s->result.limited = s->result.limited || clamped;
    }
    path_locals[k].rotation = rotation;
    UpdatePath(s->top_index, path_locals, k, s->top_parent_model, s->top_parent >= 0, path_models);
  }
}

// The joint itself: the exact aim, in its frame after the ancestors turned. False when that
// frame is singular.
bool AimTheJoint(AimSolve* s) {
  const AimOptions& options = s->options;
  Transform* path_locals = s->ws.path_locals.data();
  JointFrame f0;
  if (!internal::MakeJointFrame(s->ws.path_models[0], path_locals[0].scale, &f0)) return false;
  // Up: the local axis and how to find the reference in a frame.
  const bool want_up =
      options.up_target_model.has_value() || options.up_direction_model.has_value();
  const glm::vec3 up_local = options.up_local
                                 ? *options.up_local
                                 : MostPerpendicularBasisAxis(FloatDirection(D3(s->axis_local)));
  D3 up_reference(0.0);
  bool have_up_reference = false;
  if (options.up_target_model) {
    up_reference = ToFrame(f0, Offset(*options.up_target_model, f0.origin));
    have_up_reference = true;
  } else if (options.up_direction_model) {
    up_reference = ToFrame(f0, D3(*options.up_direction_model));
    have_up_reference = true;
  }
  AimFallback aim_fallback = AimFallback::kNone;
  // up_local also chooses the axis of 180° turns (which keep it fixed), reference or not.
  const bool have_up_local = want_up || options.up_local.has_value();
  const glm::quat correction =
      AimInFrame(f0, s->axis_local, s->target_model, have_up_local ? &up_local : nullptr,
                 have_up_reference ? &up_reference : nullptr, &aim_fallback);
  SetFallback(&s->result.fallback, aim_fallback);
  glm::quat rotation = NormalizeOrIdentity(path_locals[0].rotation * correction);
  if (const JointLimit* limit = s->LimitOf(0)) {
    bool clamped = false;
    rotation = ClampPointing(*limit, s->skeleton.rest_locals()[s->joint].rotation, rotation,
                             s->axis_local, &clamped);
    s->result.limited = s->result.limited || clamped;
  }
  path_locals[0].rotation = rotation;
  return true;
}

// Weight, then write back and recompute the subtree (unless nothing turned: then the pose and
// models stay exactly as they were), and measure the result. A fallback (the input pose back)
// when the result is singular or not finite.
AimFallback WriteBackAim(AimSolve* s) {
  const AimOptions& options = s->options;
  const std::vector<int>& path = s->ws.path;
  auto& locals = s->pose->locals;
  const Transform* path_locals = s->ws.path_locals.data();
  const auto& rest_locals = s->skeleton.rest_locals();
  glm::quat* original = s->ws.original.data();
  bool changed = false;
  for (int k = 0; k <= s->top_index; ++k) {
    original[k] = locals[path[k]].rotation;
    glm::quat q = path_locals[k].rotation;
    if (options.weight <= 0.0f) {
      q = original[k];  // exactly the input
    } else if (options.weight < 1.0f) {
      q = Nlerp(original[k], q, options.weight);
      if (const JointLimit* limit = s->LimitOf(k)) {
        q = ClampRotation(*limit, rest_locals[path[k]].rotation, q);
      }
    }
    changed = changed || !(q == original[k]);
    locals[path[k]].rotation = q;
  }
  if (changed) LocalToModelFrom(s->skeleton, *s->pose, s->top, s->models);

  auto restore = [&]() {
    for (int k = 0; k <= s->top_index; ++k) locals[path[k]].rotation = original[k];
    if (changed) LocalToModelFrom(s->skeleton, *s->pose, s->top, s->models);
  };
  JointFrame after;
  if (!internal::MakeJointFrame((*s->models)[s->joint], locals[s->joint].scale, &after)) {
    restore();
    return AimFallback::kSingularFrame;
  }
  AimResult& result = s->result;
  const glm::vec3 axis_after = internal::FromFrame(after, s->axis_local);
  result.origin_model = after.origin;
  result.axis_after_model = UnitDirection(D3(axis_after));
  result.angle_after = static_cast<float>(
      AngleBetweenDirections(D3(axis_after), Offset(s->target_model, after.origin)));
  if (!IsFinite(result.axis_after_model) || !std::isfinite(result.angle_after)) {
    restore();
    return AimFallback::kNonFiniteInput;
  }
  result.reached =
      result.fallback != AimFallback::kTargetAtJoint && result.angle_after <= kAimReachedAngle;
  return AimFallback::kNone;
}

}  // namespace

AimResult SolveAimPose(const Skeleton& skeleton, int joint, const glm::vec3& target_model,
                       const AimOptions& options, const JointLimits* limits, Pose* pose,
                       std::vector<glm::mat4>* models, AimWorkspace* workspace) {
  AimResult result;
  result.target_model = IsFinite(target_model) ? target_model : glm::vec3(0.0f);
  auto fail = [&](AimFallback why) {
    result.degenerate = true;
    result.fallback = why;
    return result;
  };
  const AimFallback invalid =
      CheckAimJob(skeleton, joint, options, limits, pose, models, workspace);
  if (invalid != AimFallback::kNone) return fail(invalid);
  AimSolve s{skeleton, joint, target_model, options, limits, pose, models, *workspace, result};
  const AimFallback bad = PreparePath(&s);
  if (bad != AimFallback::kNone) return fail(bad);
  if (!MeasureAxis(&s)) return result;
  TurnAncestors(&s);
  if (!AimTheJoint(&s)) return fail(AimFallback::kSingularFrame);
  const AimFallback after = WriteBackAim(&s);
  if (after != AimFallback::kNone) return fail(after);
  return result;
}

AimResult SolveAimPoseAtJoint(const Skeleton& skeleton, int joint, int target_joint,
                              const AimOptions& options, const JointLimits* limits, Pose* pose,
                              std::vector<glm::mat4>* models, AimWorkspace* workspace) {
  const int n = skeleton.joint_count();
  AimResult result;
  if (!pose || !models || !workspace || joint < 0 || joint >= n || target_joint < 0 ||
      target_joint >= n || static_cast<int>(models->size()) != n ||
      static_cast<int>(pose->locals.size()) != n) {
    result.fallback = AimFallback::kInvalidJoint;
    return result;
  }
  // The topmost joint the solve would turn.
  int top = joint;
  for (int k = 0;
       k < std::max(0, std::min(options.spread, kMaxSpread)) && skeleton.parent(top) >= 0; ++k) {
    top = skeleton.parent(top);
  }
  if (skeleton.IsAncestorOrSelf(top, target_joint)) {
    result.fallback = AimFallback::kTargetMovesWithBone;
    result.top_joint = top;
    return result;
  }
  return SolveAimPose(skeleton, joint, glm::vec3((*models)[target_joint][3]), options, limits, pose,
                      models, workspace);
}

}  // namespace ik
