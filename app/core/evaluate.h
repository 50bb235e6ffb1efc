// One character's pose for one frame, following DESIGN.md's data flow: sample the clip (or take
// the rest pose), solve the constraints on that fresh pose, forward kinematics. The one frame
// pipeline (EvaluateFrame) that the window, the command line, the bake and the crowd all run, so
// that they compute exactly the same thing and a new stage is added in one place.
#pragma once

#include <string>
#include <vector>

#include "app/core/args.h"
#include "app/core/body_request.h"
#include "app/core/character.h"
#include "app/core/morph_spec.h"
#include "app/core/target_keys.h"
#include "assets/model/model.h"
#include "ik/chains/aim.h"
#include "ik/chains/fabrik.h"
#include "ik/core/skeleton.h"
#include "ik/limits/joint_limits.h"
#include "ik/two_bone/two_bone_ik.h"

namespace app {

// An IK request resolved against a skeleton.
struct IkChainRequest {
  ik::TwoBoneChain chain;
  ik::TwoBoneTarget target;  // model (= world) space
  ik::TwoBoneIkOptions options;
  // The body moves to bring the target within the limb's reach (full-body IK; chain.end is a
  // hand or foot of the body rig). See SolveBody.
  bool body_helps = false;
};

// A points-at constraint resolved against a skeleton.
struct AimRequest {
  int joint = -1;
  glm::vec3 target{0.0f};  // model (= world) space, used when target_joint < 0
  int target_joint = -1;   // aim at this joint's current position instead
  ik::AimOptions options;
};

// A FABRIK chain resolved against a skeleton: root down to end.
struct FabrikRequest {
  int root = -1;
  int end = -1;
  glm::vec3 target{0.0f};  // model (= world) space
  ik::FabrikOptions options;
};

// Everything a pose is solved with besides the clip: the body (pins, moves, targets the body helps
// with), two-bone chains, FABRIK chains, aims (solved in that order) and the joint limits they
// respect.
struct ConstraintRequests {
  BodyRequest body;
  std::vector<IkChainRequest> ik;
  std::vector<FabrikRequest> fabrik;
  std::vector<AimRequest> aim;
  ik::JointLimits limits;
  std::vector<MorphOverride> morph;  // --morph: weights set over the clip's or defaults
  // Keyed targets (--ik END@T=..., --pin JOINT@T=...): the request each keys and its keys, sorted
  // by time; KeyRequestsAt puts their values at a clip time into the requests.
  struct Keyed {
    bool pin = false;  // body.effectors[index] (a --pin), else ik[index]
    int index = -1;
    std::vector<PointKey> target, pole;  // pole: empty unless the keys give one
  };
  std::vector<Keyed> keyed;
};

// Sets the keyed requests' targets (and poles) to their keys' values at `time_seconds`.
void KeyRequestsAt(float time_seconds, ConstraintRequests* requests);

// Turns command-line specs into chain requests; fails naming the spec when its END joint does not
// exist or has fewer than two ancestors. The hinge follows IkSpec::hinge (by default on where the
// rest pose shows the bend, as in the window), with the rest bend axis (both from the character's
// rig facts).
bool ResolveIkSpecs(const Character& character, const std::vector<IkSpec>& specs,
                    std::vector<IkChainRequest>* out, std::string* error);

// The same for --aim, --fabrik and --limit specs; fails naming the spec (unknown joint, END not
// below ROOT, a target joint that would move with the bone, ...). Two-bone requests whose mid
// joint has a hinge limit take it as their hinge (ik::TwoBoneHingeFromLimit), so both agree.
bool ResolveConstraintSpecs(const ik::Skeleton& skeleton, const std::vector<AimSpec>& aims,
                            const std::vector<FabrikSpec>& fabriks,
                            const std::vector<LimitSpec>& limits, ConstraintRequests* out,
                            std::string* error);

// Which clip to sample and when; clip < 0 means the rest pose.
struct ClipTime {
  int clip = -1;
  float time = 0.0f;  // seconds, clamped into the clip
};

struct PoseState {
  ik::Pose pose;                        // local transforms after IK
  std::vector<glm::mat4> models;        // model-space 𝕋 of every joint after IK
  std::vector<ik::TwoBoneIkResult> ik;  // one per request, in order
  std::vector<ik::FabrikResult> fabrik;
  std::vector<ik::AimResult> aim;
  // Morph-target weights per mesh (the clip's, else the defaults, with the requests' overrides);
  // empty for a model without targets.
  assets::MorphWeights morph_weights;
  ik::AimWorkspace aim_workspace;  // scratch for the aims, kept so that frames allocate nothing
  ik::FabrikWorkspace fabrik_workspace;  // scratch of the FABRIK solves (reused every frame)
  // The full-body solve (SolveBody): whether it ran this frame, the hips joint of the rig it ran
  // on, its result and its scratch.
  bool body_ran = false;
  int body_hips = -1;
  ik::FullBodyResult body;
  // Per effector of `body`: the index of the explicit effector in BodyRequest::effectors, or
  // -1 - i for the two-bone request i that took part.
  std::vector<int> body_sources;
  std::vector<ik::BodyEffector> body_effectors;
  ik::FullBodyWorkspace body_workspace;
};

// Solves the FABRIK and aim requests (in that order) on state->pose / state->models, with the
// limits; fills state->fabrik and state->aim.
void SolveConstraints(const ik::Skeleton& skeleton, const std::vector<FabrikRequest>& fabrik,
                      const std::vector<AimRequest>& aim, const ik::JointLimits& limits,
                      PoseState* state);

// The clip's pose at the time (clamped into the clip), or the rest pose; resizes *pose. The clip
// index is the character's (Character::clip: clips played together included).
void SamplePose(const Character& character, const ClipTime& clip_time, ik::Pose* pose);

// The clip's morph weights at the time (or the model's defaults), with `overrides` applied, into
// *weights; left empty when no mesh has targets, so models without them pay nothing.
void SampleMorphWeights(const Character& character, const ClipTime& clip_time,
                        const std::vector<MorphOverride>& overrides, assets::MorphWeights* weights);

// Solves the requests in order on state->pose / state->models (which must hold the pose's
// model matrices), each on the pose left by the previous ones; fills state->ik.
void SolveChains(const ik::Skeleton& skeleton, const std::vector<IkChainRequest>& requests,
                 PoseState* state);

struct EditState;
struct EditedFrame;

// What one frame is evaluated from besides the character: the clip and time, and what is solved
// on it — the user's edit (the window, the bake, the crowd: its requests are built on each frame's
// un-solved pose, into EditedFrame) or requests fixed beforehand (the command line).
struct FrameSource {
  ClipTime clip_time;
  const EditState* edit = nullptr;               // the window's edit; wins over `requests`
  const ConstraintRequests* requests = nullptr;  // fixed requests; none: nothing is solved
  // Model → world: the parent of the root joints (a crowd member's place); null: identity.
  const glm::mat4* placement = nullptr;
};

// The frame pipeline. Its stages, in order, each on what the one before left:
//  1. sample the clip at the time, or take the rest pose (SamplePose);
//  2. the edit's joint rotations (and a pasted pose's translations) replace the sampled ones, and
//     its rotation offsets (bones rotated in the view) turn them further (local · offset);
//  3. forward kinematics (placed);
//  4. with an edit: its foot lock when it was planned for this clip (ApplyFootLock), lower the
//     hips to the ground (LowerHipsToGround), then build the requests on this un-solved pose
//     (BuildRequests), kept with it in *frame;
//  5. the full-body solve (SolveBody);
//  6. the two-bone chains (SolveChains);
//  7. FABRIK chains and aims (SolveConstraints);
//  8. the morph weights (SampleMorphWeights, with the edit's or the requests' overrides).
// Nothing carries over from the last frame but buffers, so nothing accumulates, and once the
// buffers have grown a frame allocates nothing. `frame` may be null without an edit.
void EvaluateFrame(const Character& character, const FrameSource& source, EditedFrame* frame,
                   PoseState* state);
// The pipeline in two halves around stage 6, for a caller that solves the two-bone chains of many
// frames at once (the crowd, with ik::TwoBoneIkBatch): BeginFrame runs stages 1 to 5 and returns
// the frame's requests; FinishFrame runs 7 and 8 with them. EvaluateFrame is BeginFrame,
// SolveChains, FinishFrame.
const ConstraintRequests& BeginFrame(const Character& character, const FrameSource& source,
                                     EditedFrame* frame, PoseState* state);
void FinishFrame(const Character& character, const FrameSource& source,
                 const ConstraintRequests& requests, const EditedFrame* frame, PoseState* state);

// The command line's frame: EvaluateFrame with fixed requests.
void EvaluatePose(const Character& character, const ClipTime& clip_time,
                  const ConstraintRequests& requests, PoseState* state);

}  // namespace app
