// app/core: the editing core (edits, a frame, undo, baking, JSON, import worker); no SDL/GL/ImGui.
// What the user edits, as plain data (chains with targets and options, joint rotations, limits,
// contacts), and one frame evaluated from it.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/core/character.h"
#include "app/core/contacts.h"
#include "app/core/evaluate.h"
#include "app/core/target_keys.h"
#include "assets/model/model.h"
#include "ik/two_bone/two_bone_ik.h"

namespace app {

// Where a chain's target comes from each frame.
enum class TargetMode {
  kFollow,  // the effector's position in the animated (un-solved) pose, plus an offset
  kPinned,  // a fixed world position ("plant this foot here")
  kGround,  // the animated effector carried onto the ground plane (FootOnGround), plus an offset
  kRung,    // the nearest ladder rung within reach of the animated effector plus the offset
};
const char* TargetModeName(TargetMode mode);  // "follow", "pinned", "ground", "rung"

// What a constraint solves.
enum class ConstraintKind {
  kTwoBone,  // chain.start / mid / end: the closed-form two-bone solver
  kAim,      // chain.end points at the target (or at target_joint); start and mid unused
  kFabrik,   // the chain from chain.start (root) down to chain.end reaches for the target
  // chain.end is a joint of the body (hips, chest, ...) placed at the target by the full-body
  // solve: the hips and spine move while the hands and feet of two-bone chains stay on their
  // targets. Only once the user moved it (an offset, a pinned point) or with body_pin.
  kBody,
};
const char* ConstraintKindName(ConstraintKind kind);  // "two_bone", "aim", "fabrik", "body"

// One constraint of the viewer (a "chain" for short): its joints, its target and its options.
struct ChainSettings {
  std::string label;  // "LeftLeg", or the end joint's name for chains the user added
  ConstraintKind kind = ConstraintKind::kTwoBone;
  ik::TwoBoneChain chain;
  bool enabled = true;
  TargetMode mode = TargetMode::kFollow;
  glm::vec3 offset{0.0f};  // kFollow: world-space offset from the animated effector
  glm::vec3 pinned{0.0f};  // kPinned: world-space target
  bool use_pole = false;
  glm::vec3 pole{0.0f};  // world space
  bool hinge = false;
  // kTwoBone on a hand or foot: the body (hips, spine) moves to bring a target beyond the limb's
  // reach within it (full-body IK).
  bool body_helps = false;
  // kBody: hold the joint at its target (a pin, below moves in priority) even where the user did
  // not move it, instead of placing it only once moved.
  bool body_pin = false;
  float soft = 0.0f;
  float weight = 1.0f;
  // Animated weight: (clip time in seconds, weight) keys, linear between them and held beyond;
  // when present they replace `weight`, so IK can fade in and out without a pop.
  std::vector<glm::vec2> weight_keys;
  ik::EndOrientation end_orientation = ik::EndOrientation::kKeepLocal;
  // Keys over clip time (app/core/target_keys.h), sorted by time: the target's value as its mode
  // has it (the offset for follow, ground and rung; the point for pinned), and the pole's point.
  // When present they replace `offset` or `pinned`, and `pole`, at every time (held before the
  // first key and after the last); empty: the single value, the same all clip long.
  std::vector<PointKey> target_keys;
  std::vector<PointKey> pole_keys;
  bool keyed() const { return !target_keys.empty() || !pole_keys.empty(); }
  // The offset, the pinned point and the pole at a clip time (the keys', else the fields').
  glm::vec3 OffsetAt(float time_seconds) const;
  glm::vec3 PinnedAt(float time_seconds) const;
  glm::vec3 PoleAt(float time_seconds) const;
  // kAim: aim at this joint's position instead of the target (-1: the target); spread over
  // ancestors; an up reference (world point) against roll.
  int target_joint = -1;
  int spread = 0;
  float spread_falloff = 0.5f;
  bool use_up = false;
  glm::vec3 up{0.0f};
  // kFabrik: tolerance (fraction of the chain's length) and iteration cap; draw the iterations.
  float tolerance = 1e-4f;
  int max_iterations = 64;
  bool show_iterations = false;

  // The weight at a clip time.
  float WeightAt(float time_seconds) const;
  bool operator==(const ChainSettings& other) const;
  bool operator!=(const ChainSettings& other) const { return !(*this == other); }
};

// What targets can hold on to, and whether the hips come down so feet can reach a lower ground.
struct SceneContacts {
  GroundPlane ground;
  Ladder ladder;
  bool lower_hips = true;
  bool operator==(const SceneContacts& other) const;
};

struct FootLockPlan;  // app/core/foot_lock.h

// The window's foot lock settings (app/core/contact_edit.h): the ground the lock stands feet on
// (a --ground SPEC) and the foot contacts edited by hand for clip `clip` (per leg, frames
// first..last at the contacts' rate; -1: none edited, the found ones are used).
struct FootLockEdit {
  std::string ground = "plane";
  int clip = -1;
  std::vector<std::vector<glm::ivec2>> contacts;
  bool operator==(const FootLockEdit& o) const {
    return ground == o.ground && clip == o.clip && contacts == o.contacts;
  }
};

// Everything undo/redo restores.
struct EditState {
  std::vector<ChainSettings> chains;
  std::map<int, glm::quat> joint_rotations;  // joint → local rotation replacing the animated one
  // joint → a turn of its local rotation after the animated one (local = animated · offset): a
  // bone rotated in the view (R), played with the clip as targets' offsets are
  std::map<int, glm::quat> joint_offsets;
  // joint → local translation replacing the animated one (a pasted pose's moved joints)
  std::map<int, glm::vec3> joint_translations;
  SceneContacts contacts;
  ik::JointLimits limits;            // per joint, relative to its rest rotation; none unless set
  ik::FullBodyOptions body_options;  // how much the hips and spine help (full-body IK)
  // (mesh, target) → morph weight set by hand, replacing the clip's or default weight.
  std::map<std::pair<int, int>, float> morph_weights;
  // The foot lock of one clip (app/core/foot_lock.h), applied to that clip's frames before the
  // chains; none when null.
  std::shared_ptr<const FootLockPlan> foot_lock;
  FootLockEdit foot_lock_edit;  // what the window's lock was planned from

  bool operator==(const EditState& other) const;
  bool operator!=(const EditState& other) const { return !(*this == other); }
};

// A chain's effector in the un-solved pose of this frame, and what the target modes need.
struct EffectorInfo {
  glm::vec3 effector{0.0f};     // end joint (aim: the bone's tip), world
  glm::vec3 start{0.0f};        // start joint (hip, shoulder; FABRIK: root; aim: the joint), world
  float reach = 0.0f;           // ℓ_ab + ℓ_bc (FABRIK: the chain's length; aim: unlimited)
  float contact_height = 0.0f;  // the end joint's rest height above the authored floor (y = 0)
};
EffectorInfo InfoFor(const ik::Skeleton& skeleton, const ChainSettings& chain,
                     const std::vector<glm::mat4>& unsolved_models);

// The target of a chain at clip time `time_seconds` (its keys there, when keyed).
glm::vec3 ChainTarget(const ChainSettings& chain, const EffectorInfo& info,
                      const SceneContacts& contacts, float time_seconds = 0.0f);
// Moves a chain's target to `target` (world), keeping its mode (the offset or the pinned point).
// A keyed target is keyed there at `time_seconds` (the key at that time replaced or one added).
void SetChainTarget(ChainSettings* chain, const glm::vec3& target, const EffectorInfo& info,
                    const SceneContacts& contacts, float time_seconds = 0.0f);
// Puts the target back on the effector's un-solved position (follow: IK then changes nothing;
// ground and rung: no extra offset); a keyed target is keyed so at `time_seconds`.
void ResetChainTarget(ChainSettings* chain, const glm::vec3& effector, float time_seconds = 0.0f);
// Keys the chain's target (and its pole, when on) at `time_seconds` where they are then (their
// keys' value there, else the single value); a key already at that time is replaced.
void KeyChainTarget(ChainSettings* chain, float time_seconds);
// The chain's key times (target and pole keys together), sorted, each once.
std::vector<float> ChainKeyTimes(const ChainSettings& chain);
// Deletes the chain's target and pole keys at `time_seconds` (within kSameKeySeconds); the values
// where they were stay as the single value when no key is left. False when there was none.
bool DeleteChainKey(ChainSettings* chain, float time_seconds);
// Moves the chain's target and pole keys at `from` to `to` (a key already at `to` replaced).
// False when there was none at `from`.
bool MoveChainKey(ChainSettings* chain, float from, float to);
// Solver options; `time_seconds` picks the animated weight.
ik::TwoBoneIkOptions ChainOptions(const ChainSettings& chain, float time_seconds = 0.0f);

// A chain ending at `end_joint` (its parent and grandparent are the other two), its hinge on where
// the rest pose shows the bend (Character::HingeByDefault), or false with the reason in *error
// when it has fewer than two ancestors.
bool MakeChain(const Character& character, int end_joint, ChainSettings* out, std::string* error);
// An aim constraint on `joint` (its target starts at the bone's tip), or false with the reason.
bool MakeAim(const assets::Model& model, int joint, ChainSettings* out, std::string* error);
// A FABRIK chain from `root` down to `end`, or false with the reason (end not below root).
bool MakeFabrik(const assets::Model& model, int root, int end, ChainSettings* out,
                std::string* error);

// A body handle on `joint` (kBody, following the animation), or false with the reason when the
// body solve cannot place that joint (or the model has no body rig).
bool MakeBody(const Character& character, int joint, ChainSettings* out, std::string* error);

// The detected arms and legs (the character's limbs), enabled, following the animation with no
// offset, then body handles on the hips and the chest (its body rig) when the model has them.
// The hinge is on where the rest pose shows which way the knee or elbow bends, so dragging a
// foot never bends its knee backwards.
std::vector<ChainSettings> DefaultChains(const Character& character);

// Where each chain's result is: its kind's request (and result) index, -1 when not solved.
// (kBody: the index of its effector in ConstraintRequests::body.effectors.)
struct RequestIndex {
  ConstraintKind kind = ConstraintKind::kTwoBone;
  int index = -1;
};

// One frame's un-solved pose and what was built on it: what the pipeline keeps of a frame with an
// edit (EvaluateFrame's stage 4) for the panels, the handles and the trace. Its buffers are reused
// from frame to frame.
struct EditedFrame {
  // Keep the un-solved pose and matrices below (the window reads them; the crowd does not).
  bool keep_unsolved = true;
  ik::Pose unsolved_pose;
  std::vector<glm::mat4> unsolved_models;
  ConstraintRequests requests;
  std::vector<RequestIndex> chain_requests;  // per chain of the edit
  // Per chain of the edit: its kind and joints this frame, its effector and reach in the
  // un-solved pose (InfoFor) and its target (ChainTarget). What depends only on the rig (a
  // two-bone chain's validity, rest bend axis, reach and contact height) is kept from the last
  // frame while the character, the kind and the joints stay the same.
  struct ChainNow {
    ConstraintKind kind = ConstraintKind::kTwoBone;
    ik::TwoBoneChain chain;
    bool valid = false;                  // a two-bone chain that TwoBoneChain::Validate accepts
    std::optional<glm::vec3> bend_axis;  // its rest bend axis (Character::BendAxis)
    EffectorInfo info;
    glm::vec3 target{0.0f};
  };
  std::vector<ChainNow> chains;
  long character_id = 0;                       // the Character (id) `chains` were found for
  float time_seconds = 0.0f;                   // the clip time the targets are for (keyed targets)
  std::vector<MorphOverride> morph_overrides;  // the edit's morph weights, as overrides
  // Per chain: the two-bone hinge its mid joint's hinge limit gives (ik::TwoBoneHingeFromLimit),
  // kept while the chain and the limit stay the same.
  struct HingeFromLimit {
    bool valid = false;
    ik::TwoBoneChain chain;
    ik::JointLimit limit;
    bool ok = false;
    std::optional<glm::vec3> bend_axis_local;
    float min_angle = 0.0f, max_angle = 0.0f;
  };
  std::vector<HingeFromLimit> hinges;
};

// Builds the solver requests of the enabled constraints of `edit` for a pose whose model
// matrices are `unsolved_models` at clip time `time_seconds` into frame->requests (with the
// edit's joint limits and morph weights), where each chain's request is into
// frame->chain_requests, and every chain's effector and target into frame->chains. The bend axis of
// each two-bone chain is the rest pose's (the character's rig facts), and a hinge limit on its mid
// joint becomes its hinge (so both agree).
void BuildRequests(const Character& character, const EditState& edit,
                   const std::vector<glm::mat4>& unsolved_models, float time_seconds,
                   EditedFrame* frame);

// When the ground is on and contacts.lower_hips, lowers the joint above all ground-mode chains
// (their lowest common ancestor's root-most joint below the scene root, e.g. Hips) by as much as
// the lowest foot target lies below its animated foot, so that the legs can reach a ground that
// falls away; recomputes `models`. Returns the drop (<= 0, world units along -Y).
float LowerHipsToGround(const ik::Skeleton& skeleton, const std::vector<ChainSettings>& chains,
                        const SceneContacts& contacts, ik::Pose* pose,
                        std::vector<glm::mat4>* models, float time_seconds = 0.0f);

// One frame as the viewer computes it, for a character and the user's edits: EvaluateFrame with
// the edit (sample the clip or the rest pose, apply the joint rotations, forward kinematics, the
// foot lock, lower the hips to the ground, build the chain requests on that un-solved pose and
// solve them). `frame` keeps the un-solved pose and the requests; the solved pose goes to *state.
void EvaluateEditedFrame(const Character& character, const ClipTime& clip_time,
                         const EditState& edit, EditedFrame* frame, PoseState* state);

}  // namespace app
