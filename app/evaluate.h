// One character's pose for one frame, following DESIGN.md's data flow: sample the clip (or take
// the rest pose), solve the IK chains on that fresh pose, forward kinematics. Shared by the
// command line and the viewer so both compute exactly the same thing.
#pragma once

#include <string>
#include <vector>

#include "app/args.h"
#include "assets/model.h"
#include "ik/skeleton.h"
#include "ik/two_bone_ik.h"

namespace app {

// An IK request resolved against a skeleton.
struct IkChainRequest {
  ik::TwoBoneChain chain;
  ik::TwoBoneTarget target;  // model (= world) space
  ik::TwoBoneIkOptions options;
};

// Turns command-line specs into chain requests; fails naming the spec when its END joint does not
// exist or has fewer than two ancestors.
bool ResolveIkSpecs(const ik::Skeleton& skeleton, const std::vector<IkSpec>& specs,
                    std::vector<IkChainRequest>* out, std::string* error);

// Which clip to sample and when; clip < 0 means the rest pose.
struct ClipTime {
  int clip = -1;
  float time = 0.0f;  // seconds, clamped into the clip
};

struct PoseState {
  ik::Pose pose;                    // local transforms after IK
  std::vector<glm::mat4> models;    // model-space 𝕋 of every joint after IK
  std::vector<ik::TwoBoneIkResult> ik;  // one per request, in order
};

// The clip's pose at the time (clamped into the clip), or the rest pose; resizes *pose.
void SamplePose(const assets::Model& model, const ClipTime& clip_time, ik::Pose* pose);

// Solves the requests in order on state->pose / state->models (which must hold the pose's
// model matrices), each on the pose left by the previous ones; fills state->ik.
void SolveChains(const ik::Skeleton& skeleton, const std::vector<IkChainRequest>& requests,
                 PoseState* state);

// SamplePose, forward kinematics and SolveChains into *state (its buffers are reused between
// calls).
void EvaluatePose(const assets::Model& model, const ClipTime& clip_time,
                  const std::vector<IkChainRequest>& requests, PoseState* state);

}  // namespace app
