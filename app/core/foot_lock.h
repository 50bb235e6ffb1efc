// Clip cleanup: the foot contacts of a clip (ik/body/foot_contacts.h on the feet of the detected
// legs), the foot lock that holds each planted foot where it landed — on any ground
// (app/core/ground.h), sole turned to it — with the closed-form two-bone solver, blending in and
// out of each contact and moving the hips down (or up) where a planted foot could not be reached
// otherwise, peeling the heel off (the foot turned about its toe) or landing a foot a little
// earlier where the lock would turn a knee faster than the source does, and the numbers that show
// what it did (skate, penetration and float, knee-angle steps).
//
// The lock is part of the edit (EditState::foot_lock): the one frame pipeline (EvaluateFrame)
// applies it right after the forward kinematics of the un-solved pose, so the window, `contacts`
// and `export --bake --lock-feet` (BakeClip) all compute the same frames. Lengths are reported in
// millimetres taking the model's unit as the metre (glTF's).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/character.h"
#include "app/core/ground.h"
#include "assets/model/model.h"
#include "ik/body/foot_contacts.h"
#include "ik/body/limbs.h"

namespace app {

// The legs among the character's limbs (its rig facts: ik::DetectLimbs, kind leg), left then
// right.
std::vector<ik::Limb> Legs(const Character& character);

// The legs' joints: start, mid and end of each, left then right (what contacts are found on).
std::vector<int> LegJoints(const Character& character);
// Whether `joints` (LegJoints) are the character's legs' joints still (a limb fix changes them).
// Allocates nothing.
bool LegsAre(const Character& character, const std::vector<int>& joints);

// One clip's legs sampled at `fps`: frames + 1 samples at f / fps (the last at the duration, as
// BakeClip samples), each frame evaluated by the frame pipeline (EvaluateEditedFrame) with an
// edit. World space. `clip` is the character's (Character::clip: clips played together
// included).
struct FeetSamples {
  int clip = -1;
  float fps = 30.0f;
  int frames = 0;
  float duration = 0.0f;
  std::vector<ik::Limb> legs;
  std::vector<float> leg_length;                         // per leg: rest start→mid + mid→end
  std::vector<std::vector<glm::vec3>> hip, knee, ankle;  // [leg][sample]
  std::vector<std::vector<glm::quat>> rotation;          // [leg][sample]: the foot's world rotation
  std::vector<glm::vec3> root;  // [sample]: the joint that carries the legs
  int root_joint = -1;          // the legs' lowest common ancestor joint
  float Time(int f) const { return f >= frames ? duration : float(f) / fps; }
};
void SampleFeet(const Character& character, int clip, float fps, const EditState& edit,
                const std::vector<ik::Limb>& legs, FeetSamples* out);

// A clip's contacts: per leg, found on the foot's path relative to the clip's travel
// (ik::TravelVelocity: 0 for a clip with root motion, the walking velocity for an in-place one),
// with heights above the authored floor y = 0.
//
// The ground's frame. A clip with root motion walks over the ground: model space is the ground's
// frame. An in-place clip walks on a treadmill: the ground passes back under it at the travel, so
// a point p of the model at clip time t stands over the ground at p + travel·t (OnGround). A foot
// planted on a step stays on that step while it slides back in model space, and a walk climbing
// stairs or a ramp rises as it travels.
struct ClipContacts {
  FeetSamples source;
  glm::vec3 travel{0.0f};  // per second
  bool in_place = false;
  // How far the ground has passed back under the model at clip time `t` (0 with root motion).
  glm::vec3 Travelled(float t) const { return travel * t; }
  // Model-space point `p` at clip time `t` in the ground's frame.
  glm::vec3 OnGround(const glm::vec3& p, float t) const { return p + Travelled(t); }
  std::vector<std::vector<ik::FootContact>> contacts;  // [leg]
  // [leg]: the foot's height above the floor while planted in the source (mean over its contacts);
  // where a planted foot stands above any ground.
  std::vector<float> planted_height;
};
// Finds the contacts of clip `clip` at `fps` (PlanBake's rate for bakes). False with one line
// when the model has no legs or the clip index is out of range.
bool FindClipContacts(const Character& character, int clip, float fps, ClipContacts* out,
                      std::string* error);

struct FootLockOptions {
  Ground ground;
  float blend_seconds = 0.15f;  // the lock fades in before and out after each contact
};

// The lock, precomputed per frame of the clip at the contacts' rate.
struct FootLockPlan {
  struct Key {
    bool solve = false;      // the leg is re-solved at this frame (in a contact or its blend, or on
                             // ground other than the authored floor)
    glm::vec3 target{0.0f};  // the ankle's world position
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // the foot's world rotation
  };
  int clip = -1;
  float fps = 30.0f;
  int frames = 0;
  float duration = 0.0f;  // frame f is at f / fps, the last at the duration
  int hips = -1;          // the joint moved up or down (the legs' lowest common ancestor)
  std::vector<ik::TwoBoneChain> legs;
  std::vector<std::optional<glm::vec3>> bend_axes;
  std::vector<float> hips_offset;      // [frame]: world Y added to the hips
  std::vector<std::vector<Key>> keys;  // [leg][frame]
};
std::shared_ptr<const FootLockPlan> PlanFootLock(const Character& character,
                                                 const ClipContacts& contacts,
                                                 const FootLockOptions& options);

// Applies the plan at clip time `time` (between its frames: interpolated) to an un-solved pose
// and its model matrices (LocalToModel of it, placed by `placement` when not null: the plan's
// targets are in model space), which are updated. Allocates nothing.
void ApplyFootLock(const FootLockPlan& plan, const ik::Skeleton& skeleton, float time,
                   const glm::mat4* placement, ik::Pose* pose, std::vector<glm::mat4>* models);

// The knee's inner angle between the thigh (knee→hip) and the shin (knee→ankle), in degrees: 180
// for a straight leg, smaller as the knee bends (180 when a bone has no length). The knee-angle
// numbers below are its changes between frames.
float KneeDegrees(const glm::vec3& hip, const glm::vec3& knee, const glm::vec3& ankle);

// What the feet do over a clip's contacts, in millimetres and degrees.
struct FeetNumbers {
  std::vector<std::vector<float>> skate_mm;  // [leg][contact]: ik::ContactSkate
  float max_skate_mm = 0.0f;
  float mean_skate_mm = 0.0f;  // over all contacts
  // While planted: how far the ankle sinks below (penetration) or rises above (float) the height
  // it stands at in the source on the authored floor (ClipContacts::planted_height), measured
  // from `ground` in the ground's frame (ClipContacts::OnGround, Ground::HeightAbove); the largest
  // of either.
  float penetration_mm = 0.0f;
  float float_mm = 0.0f;
  float knee_step_deg = 0.0f;  // the largest change of a knee angle between two frames
};
FeetNumbers MeasureFeet(const FeetSamples& samples, const ClipContacts& contacts,
                        const Ground& ground);

// Before and after a lock: the source on `ground` and the locked clip, and the largest change the
// lock made to a knee angle's step between frames (|Δθ_after − Δθ_before|, degrees).
struct FootLockReport {
  FeetNumbers before, after;
  float knee_jump_deg = 0.0f;
};
FootLockReport ReportFootLock(const Character& character, const ClipContacts& contacts,
                              const Ground& ground,
                              const std::shared_ptr<const FootLockPlan>& plan);

}  // namespace app
