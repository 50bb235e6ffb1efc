// The frame pipeline: sample → IK → FK for one character.
#include "app/core/evaluate.h"

#include <algorithm>

#include "app/core/body_solve.h"
#include "app/core/chain_edit.h"
#include "app/core/foot_lock.h"
#include "assets/files/text.h"
#include "assets/model/animation.h"
#include "assets/model/morph.h"
#include "ik/core/kinematics.h"

namespace app {

bool ResolveIkSpecs(const Character& character, const std::vector<IkSpec>& specs,
                    std::vector<IkChainRequest>* out, std::string* error) {
  const ik::Skeleton& skeleton = character.skeleton();
  out->clear();
  for (const IkSpec& spec : specs) {
    const int end = skeleton.Find(spec.end);
    if (end < 0) {
      *error = "--ik " + assets::ShownArgument(spec.end) + "=...: the model has no joint named '" +
               assets::ShownArgument(spec.end) + "'";
      return false;
    }
    std::string why;
    const auto chain = ik::ChainFromEnd(skeleton, end, &why);
    if (!chain) {
      *error = "--ik " + assets::ShownArgument(spec.end) + "=...: " + why;
      return false;
    }
    IkChainRequest request;
    request.chain = *chain;
    request.target.position = spec.target;
    request.options.pole_model = spec.pole;
    request.options.weight = spec.weight;
    request.options.soft = spec.soft;
    const std::optional<glm::vec3> bend = character.BendAxis(*chain);
    request.options.hinge = spec.hinge.value_or(bend.has_value());
    request.options.bend_axis_local = bend;
    request.body_helps = spec.body;
    out->push_back(request);
  }
  return true;
}

bool ResolveConstraintSpecs(const ik::Skeleton& skeleton, const std::vector<AimSpec>& aims,
                            const std::vector<FabrikSpec>& fabriks,
                            const std::vector<LimitSpec>& limits, ConstraintRequests* out,
                            std::string* error) {
  auto joint = [&](const std::string& name, const std::string& what, int* index) {
    *index = skeleton.Find(name);
    if (*index < 0)
      *error = what + ": the model has no joint named '" + assets::ShownArgument(name) + "'";
    return *index >= 0;
  };
  for (const LimitSpec& spec : limits) {
    int j = -1;
    if (!joint(spec.joint, "--limit " + assets::ShownArgument(spec.joint) + "=...", &j))
      return false;
    ik::JointLimit limit;
    if (spec.hinge) {
      limit = ik::JointLimit::Hinge(spec.axis, glm::radians(spec.min_degrees),
                                    glm::radians(spec.max_degrees));
    } else {
      const auto axis = ik::BoneAxisLocal(skeleton, j);
      if (!axis) {
        *error = "--limit " + assets::ShownArgument(spec.joint) +
                 "=cone...: the joint has no bone direction for a cone";
        return false;
      }
      limit = ik::JointLimit::Cone(*axis, glm::radians(spec.cone_degrees),
                                   glm::radians(spec.twist_min_degrees),
                                   glm::radians(spec.twist_max_degrees));
    }
    std::string why;
    if (!limit.Validate(&why)) {
      *error = "--limit " + assets::ShownArgument(spec.joint) + "=...: " + why;
      return false;
    }
    out->limits.Set(j, limit);
  }
  for (const FabrikSpec& spec : fabriks) {
    // Joint names may contain ':' themselves: take the split whose both sides are joints.
    FabrikRequest request;
    for (size_t at = spec.chain.find(':'); at != std::string::npos;
         at = spec.chain.find(':', at + 1)) {
      const int root = skeleton.Find(spec.chain.substr(0, at));
      const int end = skeleton.Find(spec.chain.substr(at + 1));
      if (root >= 0 && end >= 0) {
        request.root = root;
        request.end = end;
        break;
      }
    }
    if (request.root < 0) {
      *error = "--fabrik " + assets::ShownArgument(spec.chain) +
               "=...: no joints ROOT:END by those names in the model";
      return false;
    }
    const std::string why = ik::ValidateFabrikChain(skeleton, request.root, request.end);
    if (!why.empty()) {
      *error = "--fabrik " + assets::ShownArgument(spec.chain) + "=...: " + why;
      return false;
    }
    request.target = spec.target;
    request.options.tolerance = spec.tolerance;
    request.options.max_iterations = spec.iterations;
    out->fabrik.push_back(request);
  }
  for (const AimSpec& spec : aims) {
    AimRequest request;
    if (!joint(spec.bone, "--aim " + assets::ShownArgument(spec.bone) + "=...", &request.joint))
      return false;
    if (spec.target) {
      request.target = *spec.target;
    } else if (!joint(spec.target_joint,
                      "--aim " + assets::ShownArgument(spec.bone) + "=" + spec.target_joint,
                      &request.target_joint)) {
      return false;
    }
    request.options.weight = spec.weight;
    request.options.spread = spec.spread;
    request.options.spread_falloff = spec.falloff;
    request.options.up_target_model = spec.up;
    request.options.axis_local = spec.axis;
    std::string why;
    if (!request.options.Validate(&why)) {
      *error = "--aim " + assets::ShownArgument(spec.bone) + "=...: " + why;
      return false;
    }
    out->aim.push_back(request);
  }
  // The two-bone hinge agrees with a hinge limit on the mid joint.
  for (IkChainRequest& request : out->ik) {
    const ik::JointLimit* limit = out->limits.Find(request.chain.mid);
    if (limit && limit->type == ik::JointLimit::Type::kHinge &&
        !ik::TwoBoneHingeFromLimit(skeleton, request.chain, *limit, &request.options)) {
      *error = "--limit " + skeleton.name(request.chain.mid) +
               ": the hinge limit allows no bend of the two-bone chain ending at " +
               skeleton.name(request.chain.end);
      return false;
    }
  }
  return true;
}

void KeyRequestsAt(float time_seconds, ConstraintRequests* requests) {
  for (const ConstraintRequests::Keyed& keyed : requests->keyed) {
    const size_t i = static_cast<size_t>(keyed.index);
    if (keyed.pin) {
      if (i < requests->body.effectors.size() && !keyed.target.empty()) {
        requests->body.effectors[i].target_model =
            KeyedValue(keyed.target, time_seconds, glm::vec3(0.0f));
      }
    } else if (i < requests->ik.size()) {
      IkChainRequest& request = requests->ik[i];
      request.target.position = KeyedValue(keyed.target, time_seconds, request.target.position);
      if (!keyed.pole.empty()) {
        request.options.pole_model = KeyedValue(keyed.pole, time_seconds, glm::vec3(0.0f));
      }
    }
  }
}

void SolveConstraints(const ik::Skeleton& skeleton, const std::vector<FabrikRequest>& fabrik,
                      const std::vector<AimRequest>& aim, const ik::JointLimits& limits,
                      PoseState* state) {
  const ik::JointLimits* limits_or_null = limits.empty() ? nullptr : &limits;
  // Results and workspace are reused, so a frame's FABRIK solves allocate nothing.
  state->fabrik.resize(fabrik.size());
  for (size_t i = 0; i < fabrik.size(); ++i) {
    const FabrikRequest& r = fabrik[i];
    ik::SolveFabrikPose(skeleton, r.root, r.end, r.target, r.options, limits_or_null, &state->pose,
                        &state->models, &state->fabrik_workspace, &state->fabrik[i]);
  }
  state->aim.clear();
  for (const AimRequest& r : aim) {
    state->aim.push_back(
        r.target_joint >= 0
            ? ik::SolveAimPoseAtJoint(skeleton, r.joint, r.target_joint, r.options, limits_or_null,
                                      &state->pose, &state->models, &state->aim_workspace)
            : ik::SolveAimPose(skeleton, r.joint, r.target, r.options, limits_or_null, &state->pose,
                               &state->models, &state->aim_workspace));
  }
}

void SamplePose(const Character& character, const ClipTime& clip_time, ik::Pose* pose) {
  const assets::Model& model = character.model();
  if (const assets::Clip* clip = character.clip(clip_time.clip)) {
    assets::SampleClip(model.skeleton, *clip, std::clamp(clip_time.time, 0.0f, clip->duration),
                       pose);
  } else {
    pose->locals = model.skeleton.rest_locals();
  }
}

void SampleMorphWeights(const Character& character, const ClipTime& clip_time,
                        const std::vector<MorphOverride>& overrides,
                        assets::MorphWeights* weights) {
  const assets::Model& model = character.model();
  if (!assets::HasMorphTargets(model)) {
    weights->clear();
    return;
  }
  if (const assets::Clip* clip = character.clip(clip_time.clip)) {
    assets::SampleClipMorphs(model, *clip, clip_time.time, weights);
  } else {
    assets::DefaultMorphWeights(model, weights);
  }
  ApplyMorphOverrides(overrides, weights);
}

void SolveChains(const ik::Skeleton& skeleton, const std::vector<IkChainRequest>& requests,
                 PoseState* state) {
  state->ik.clear();
  for (const IkChainRequest& request : requests) {
    state->ik.push_back(ik::SolveTwoBoneIkPose(skeleton, request.chain, request.target,
                                               request.options, &state->pose, &state->models));
  }
}

namespace {

const ConstraintRequests& NoRequests() {
  static const ConstraintRequests none;
  return none;
}

}  // namespace

const ConstraintRequests& BeginFrame(const Character& character, const FrameSource& source,
                                     EditedFrame* frame, PoseState* state) {
  const ik::Skeleton& skeleton = character.skeleton();
  const EditState* edit = source.edit;
  // 1. The clip's pose (or the rest pose) and 2. the edit's joint rotations over it.
  SamplePose(character, source.clip_time, &state->pose);
  if (edit) {
    const int n = static_cast<int>(state->pose.locals.size());
    for (const auto& [joint, rotation] : edit->joint_rotations) {
      if (joint >= 0 && joint < n) state->pose.locals[size_t(joint)].rotation = rotation;
    }
    for (const auto& [joint, offset] : edit->joint_offsets) {  // bones rotated in the view
      if (joint < 0 || joint >= n) continue;
      glm::quat& rotation = state->pose.locals[size_t(joint)].rotation;
      rotation = glm::normalize(rotation * offset);
    }
    for (const auto& [joint, translation] : edit->joint_translations) {  // a pasted pose's
      if (joint >= 0 && joint < n) state->pose.locals[size_t(joint)].translation = translation;
    }
  }
  // 3. Forward kinematics.
  if (source.placement) {
    ik::LocalToModel(skeleton, state->pose, *source.placement, &state->models);
  } else {
    ik::LocalToModel(skeleton, state->pose, &state->models);
  }
  // 4. The edit's requests, built on the un-solved pose (the hips lowered to the ground first).
  const ConstraintRequests* requests = source.requests ? source.requests : &NoRequests();
  if (edit) {
    // The edit's foot lock, for the clip it was planned on (app/core/foot_lock.h).
    if (edit->foot_lock && edit->foot_lock->clip == source.clip_time.clip) {
      ApplyFootLock(*edit->foot_lock, skeleton, source.clip_time.time, source.placement,
                    &state->pose, &state->models);
    }
    LowerHipsToGround(skeleton, edit->chains, edit->contacts, &state->pose, &state->models,
                      source.clip_time.time);
    BuildRequests(character, *edit, state->models, source.clip_time.time, frame);
    requests = &frame->requests;
  }
  if (frame && frame->keep_unsolved) {
    frame->unsolved_pose.locals = state->pose.locals;
    frame->unsolved_models = state->models;
  }
  // 5. The body.
  SolveBody(character, *requests, state);
  return *requests;
}

void FinishFrame(const Character& character, const FrameSource& source,
                 const ConstraintRequests& requests, const EditedFrame* frame, PoseState* state) {
  // 7. FABRIK chains and aims, 8. the morph weights.
  SolveConstraints(character.skeleton(), requests.fabrik, requests.aim, requests.limits, state);
  SampleMorphWeights(character, source.clip_time,
                     source.edit && frame ? frame->morph_overrides : requests.morph,
                     &state->morph_weights);
}

void EvaluateFrame(const Character& character, const FrameSource& source, EditedFrame* frame,
                   PoseState* state) {
  const ConstraintRequests& requests = BeginFrame(character, source, frame, state);
  SolveChains(character.skeleton(), requests.ik, state);  // 6. the two-bone chains
  FinishFrame(character, source, requests, frame, state);
}

void EvaluatePose(const Character& character, const ClipTime& clip_time,
                  const ConstraintRequests& requests, PoseState* state) {
  FrameSource source;
  source.clip_time = clip_time;
  source.requests = &requests;
  EvaluateFrame(character, source, nullptr, state);
}

}  // namespace app
