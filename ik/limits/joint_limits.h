// Joint limits in a joint's own frame, relative to its rest rotation: hinge (axis, min/max angle)
// or cone (swing) with twist range; clamping by swing-twist decomposition, the shapes the viewer
// draws, and the bridge to the two-bone solver's hinge option.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ik/core/rotation.h"
#include "ik/core/skeleton.h"
#include "ik/two_bone/two_bone_ik.h"

namespace ik {

// One joint's limit. Every angle is in radians and measured from the joint's REST local rotation
// R0: a local rotation R is written R = R0 · Δ, and the limit constrains Δ, a rotation in the
// joint's own frame (the frame a local correction acts in: T·R·S without the joint's own scale S).
// So "0" is the rest pose, whatever the rig's axis conventions. Joints have no limit unless the
// user sets one.
struct JointLimit {
  enum class Type {
    kNone,   // no constraint
    kHinge,  // Δ turns only about axis_local, by an angle in [min_angle, max_angle]
    kCone,   // Δ swings twist_axis_local by at most cone_angle, and twists about it within
             // [twist_min, twist_max]
  };
  Type type = Type::kNone;

  // kHinge. The axis in the joint's own frame (any length, not zero). The sign matters: a positive
  // angle turns right-handed about +axis. -π <= min_angle <= max_angle <= π.
  glm::vec3 axis_local{1.0f, 0.0f, 0.0f};
  float min_angle = -kPi;
  float max_angle = kPi;

  // kCone. The bone's axis in the joint's own frame (any length, not zero; usually
  // BoneAxisLocal): the cone is centred on where it points at rest, with half-angle cone_angle in
  // [0, π]; twist is the turn about it, -π <= twist_min <= twist_max <= π.
  glm::vec3 twist_axis_local{0.0f, 1.0f, 0.0f};
  float cone_angle = kPi;
  float twist_min = -kPi;
  float twist_max = kPi;

  static JointLimit Hinge(const glm::vec3& axis_local, float min_angle, float max_angle);
  static JointLimit Cone(const glm::vec3& twist_axis_local, float cone_angle,
                         float twist_min = -kPi, float twist_max = kPi);

  // True when the fields the type uses are finite and in range; otherwise the reason in *why.
  bool Validate(std::string* why = nullptr) const;
};

// "none", "hinge", "cone".
const char* LimitTypeName(JointLimit::Type type);

// The limits of a skeleton's joints, by joint index. Joints without an entry are free.
class JointLimits {
 public:
  // Sets (or replaces) the limit of `joint`; a kNone limit removes it.
  void Set(int joint, const JointLimit& limit);
  void Remove(int joint);
  void Clear() { limits_.clear(); }
  // The limit of `joint`, or nullptr when it has none.
  const JointLimit* Find(int joint) const;
  bool empty() const { return limits_.empty(); }
  int size() const { return static_cast<int>(limits_.size()); }
  // Joint index -> limit, in joint order (for panels and drawing).
  const std::map<int, JointLimit>& entries() const { return limits_; }
  // True when every joint index is within `skeleton` and every limit validates.
  bool Validate(const Skeleton& skeleton, std::string* why = nullptr) const;

 private:
  std::map<int, JointLimit> limits_;
};

// The local rotation nearest `local_rotation` that `limit` allows, given the joint's rest local
// rotation. Hinge: the twist about the axis (swing-twist decomposition) with its angle clamped to
// the nearer end of the range (around the circle), the swing dropped. Cone: Δ = swing · twist
// about twist_axis_local; the swing's angle is clamped to cone_angle keeping its plane (so the
// bone's direction moves to the nearest point of the cone), the twist's angle to the twist range.
// kNone returns `local_rotation` (normalized). Inputs need not be normalized; non-finite or zero
// quaternions count as the identity. `clamped` (optional) is set when the result differs.
glm::quat ClampRotation(const JointLimit& limit, const glm::quat& rest_local_rotation,
                        const glm::quat& local_rotation, bool* clamped = nullptr);

// True when `local_rotation` is within `limit` up to `tolerance` radians (the angle between it and
// ClampRotation's result).
bool WithinLimit(const JointLimit& limit, const glm::quat& rest_local_rotation,
                 const glm::quat& local_rotation, float tolerance = 1e-4f);

// Like ClampRotation, but for a rotation whose purpose is pointing `axis_local` (own frame) along
// wherever `wanted_local_rotation` points it: a hinge takes the hinge angle that points the axis
// nearest that direction (not the twist part of the rotation, which may be far off when most of
// the turn is off the hinge axis), clamped to its range. Cones and kNone are ClampRotation (with
// axis_local = twist_axis_local the cone's result is the nearest direction inside the cone).
glm::quat ClampPointing(const JointLimit& limit, const glm::quat& rest_local_rotation,
                        const glm::quat& wanted_local_rotation, const glm::vec3& axis_local,
                        bool* clamped = nullptr);

// The angles a limit measures for a local rotation, radians (for panels).
struct LimitAngles {
  float hinge = 0.0f;     // kHinge: the turn about the axis, in [-π, π]
  float off_axis = 0.0f;  // kHinge: the angle of the part that is not about the axis, [0, π]
  float swing = 0.0f;     // kCone: the swing away from the rest direction, [0, π]
  float twist = 0.0f;     // kCone: the twist about the bone, [-π, π]
};
LimitAngles MeasureLimitAngles(const JointLimit& limit, const glm::quat& rest_local_rotation,
                               const glm::quat& local_rotation);

// The joint a bone "continues through": its only child; of several, the one whose rest direction
// is most aligned with the incoming bone (parent -> joint), or, for a root or a joint at its
// parent's position, the one with the largest subtree (then the first). Children at the joint's
// own position are skipped. -1 when there is none (a leaf).
int BoneChild(const Skeleton& skeleton, int joint);

// The bone's rest direction in the joint's own frame (unit): toward `child` (a descendant; -1 =
// BoneChild), or for a leaf the incoming direction (parent -> joint) continued. nullopt when the
// joint is out of range, `child` is not a descendant, the direction is zero or the frame singular.
std::optional<glm::vec3> BoneAxisLocal(const Skeleton& skeleton, int joint, int child = -1);

// Model-space polylines that draw `limit` on `joint` in the current pose (its parent's current
// model matrix, its current local translation, its REST rotation: the limit's zero).
struct LimitShape {
  glm::vec3 origin_model{0.0f};
  // kHinge: unit hinge axis. kCone: unit rest direction of the bone (the cone's centre line).
  glm::vec3 axis_model{0.0f, 1.0f, 0.0f};
  // The bone's current direction (unit), to draw against the outline.
  glm::vec3 bone_model{0.0f, 1.0f, 0.0f};
  // kHinge: the arc the bone's tip may sweep, min_angle to max_angle, at `radius` (open).
  // kCone: the cone's rim at `radius`, a closed loop (the first point is not repeated).
  std::vector<glm::vec3> outline_model;
  bool outline_closed = false;
  // kCone: the twist range as an arc of a small circle around the centre line, halfway out.
  std::vector<glm::vec3> twist_arc_model;
};
// `radius_model`: the drawn size in model units (e.g. 0.3 of the bone's length); `segments` >= 2.
// Empty outline when the joint is out of range, the sizes don't match, the limit is kNone or
// invalid, or a matrix is singular.
LimitShape MakeLimitShape(const Skeleton& skeleton, const Pose& pose,
                          const std::vector<glm::mat4>& models, int joint, const JointLimit& limit,
                          float radius_model, int segments = 32);

// --- The two-bone solver's hinge in these terms ---
// The two-bone hinge bends the mid joint about options.bend_axis_local (or the rest pose's
// DetectBendAxis) with the bend ψ (0 = straight, positive = the rest bend's side) in
// [hinge_min_angle, hinge_max_angle]. Relative to the rest pose, that is a kHinge on the mid
// joint about the same axis with angles ψ - ψ_rest, where ψ_rest is the bend of the rest pose.

// The rest bend ψ_rest of `chain` about its bend axis (radians; options.bend_axis_local or
// DetectBendAxis), or nullopt when the chain is invalid or has no usable axis.
std::optional<float> RestBendAngle(const Skeleton& skeleton, const TwoBoneChain& chain,
                                   const TwoBoneIkOptions& options = {});

// The kHinge limit for chain.mid that allows exactly the bends the two-bone hinge allows.
std::optional<JointLimit> HingeLimitFromTwoBone(const Skeleton& skeleton, const TwoBoneChain& chain,
                                                const TwoBoneIkOptions& options);

// The reverse: sets options->hinge, bend_axis_local and the hinge angles so the two-bone solver
// allows what `limit` (a kHinge for chain.mid) allows, intersected with the solver's one-way
// range [0, π]. False (options unchanged) when the limit is not a valid hinge, the chain is
// invalid, or the intersection is empty.
bool TwoBoneHingeFromLimit(const Skeleton& skeleton, const TwoBoneChain& chain,
                           const JointLimit& limit, TwoBoneIkOptions* options);

}  // namespace ik
