// Full-body IK in a frame: the command line's --pin, --move, --body and `--ik ...,body` resolved
// against a character, and the body solve that runs before the two-bone chains.
#include "app/core/body_solve.h"

#include <algorithm>

#include "assets/files/text.h"
#include "ik/core/kinematics.h"

namespace app {

namespace {

std::string LimbEnds(const ik::Skeleton& skeleton, const ik::BodyRig& rig) {
  std::string names;
  for (const ik::BodyLimb& limb : rig.limbs) {
    names += (names.empty() ? "" : ", ") + skeleton.name(limb.limb.chain.end);
  }
  return names;
}

}  // namespace

std::string BodyEffectorProblem(const ik::Skeleton& skeleton, const ik::BodyRig& rig,
                                const ik::BodyEffector& effector) {
  ik::Pose pose = ik::Pose::Rest(skeleton);
  std::vector<glm::mat4> models = skeleton.rest_models();
  ik::FullBodyWorkspace workspace;
  ik::FullBodyResult result;
  ik::FullBodyIkJob job;
  job.skeleton = &skeleton;
  job.rig = &rig;
  job.effectors = &effector;
  job.effector_count = 1;
  job.pose = &pose;
  job.models = &models;
  job.workspace = &workspace;
  job.result = &result;
  std::string why;
  if (job.Validate(&why)) return "";
  const size_t at = why.find("): ");
  return at == std::string::npos ? why : why.substr(at + 3);
}

bool ResolveBodySpecs(const Character& character, const std::vector<IkSpec>& ik_specs,
                      const std::vector<PinSpec>& pins, const std::vector<MoveSpec>& moves,
                      const std::optional<BodySpec>& body, ConstraintRequests* requests,
                      std::string* error) {
  const ik::Skeleton& skeleton = character.skeleton();
  BodyRequest& out = requests->body;
  out = BodyRequest();
  if (body) {
    if (body->hips) out.options.hips_translation_weight = *body->hips;
    if (body->tilt) out.options.hips_rotation_weight = *body->tilt;
    if (body->spine) out.options.spine_weight = *body->spine;
    if (body->turn_degrees) out.options.max_body_turn = glm::radians(*body->turn_degrees);
    if (body->iterations) out.options.max_iterations = *body->iterations;
  }
  const bool any_body_ik =
      std::any_of(ik_specs.begin(), ik_specs.end(), [](const IkSpec& spec) { return spec.body; });
  if (pins.empty() && moves.empty() && !any_body_ik) return true;

  std::string rig_why;
  const ik::BodyRig* rig = character.body_rig(&rig_why);
  const bool have_rig = rig != nullptr;
  // Which argument claimed each joint, so that a joint is pinned, moved or targeted once.
  std::vector<std::string> claimed(skeleton.joint_count());
  for (const IkSpec& spec : ik_specs) {
    const int end = skeleton.Find(spec.end);
    if (end >= 0 && claimed[end].empty()) claimed[end] = "--ik " + assets::ShownArgument(spec.end);
  }
  auto add = [&](const std::string& what, const std::string& name, ik::BodyEffector effector) {
    effector.joint = skeleton.Find(name);
    if (effector.joint < 0) {
      *error = what + ": the model has no joint named '" + assets::ShownArgument(name) + "'";
      return false;
    }
    if (!have_rig) {
      *error = what + ": the body cannot move: " + rig_why;
      return false;
    }
    if (!claimed[effector.joint].empty()) {
      *error = what + ": " + assets::ShownArgument(name) + " is already given by " +
               claimed[effector.joint];
      return false;
    }
    const std::string problem = BodyEffectorProblem(skeleton, *rig, effector);
    if (!problem.empty()) {
      *error = what + ": " + problem;
      return false;
    }
    claimed[effector.joint] = what;
    out.effectors.push_back(effector);
    return true;
  };
  for (const MoveSpec& spec : moves) {
    ik::BodyEffector effector;
    effector.kind = ik::BodyEffector::Kind::kMove;
    effector.target_model = spec.target;
    if (!add("--move " + assets::ShownArgument(spec.joint), spec.joint, effector)) return false;
  }
  for (const PinSpec& spec : pins) {
    ik::BodyEffector effector;
    effector.kind = ik::BodyEffector::Kind::kPin;
    effector.target_model = spec.target;
    effector.weight = spec.weight;
    if (!add("--pin " + assets::ShownArgument(spec.joint), spec.joint, effector)) return false;
  }
  for (size_t i = 0; i < ik_specs.size() && i < requests->ik.size(); ++i) {
    if (!ik_specs[i].body) continue;
    if (!have_rig) {
      *error = "--ik " + assets::ShownArgument(ik_specs[i].end) +
               "=...,body: the body cannot move: " + rig_why;
      return false;
    }
    if (!character.IsLimbEnd(requests->ik[i].chain.end)) {
      *error = "--ik " + assets::ShownArgument(ik_specs[i].end) +
               "=...,body: " + assets::ShownArgument(ik_specs[i].end) +
               " is not the end of an arm or leg (those are " + LimbEnds(skeleton, *rig) + ")";
      return false;
    }
  }
  size_t total = out.effectors.size();
  if (have_rig) {
    for (const IkChainRequest& request : requests->ik) {
      total += character.IsLimbEnd(request.chain.end);
    }
  }
  if (total > static_cast<size_t>(ik::kMaxBodyEffectors)) {
    *error = "--pin, --move and --ik: " + std::to_string(total) +
             " joints for the body solve, more than its " + std::to_string(ik::kMaxBodyEffectors);
    return false;
  }
  return true;
}

bool WantsBody(const ConstraintRequests& requests) {
  if (!requests.body.effectors.empty()) return true;
  for (const IkChainRequest& request : requests.ik) {
    if (request.body_helps) return true;
  }
  return false;
}

void SolveBody(const Character& character, const ConstraintRequests& requests, PoseState* state) {
  state->body_ran = false;
  if (!WantsBody(requests)) return;
  const ik::BodyRig* rig = character.body_rig();
  if (!rig) return;  // ResolveBodySpecs refuses this; the window offers the body only with a rig
  std::vector<ik::BodyEffector>& effectors = state->body_effectors;
  std::vector<int>& sources = state->body_sources;
  effectors.clear();
  sources.clear();
  auto taken = [&](int joint) {
    return std::any_of(effectors.begin(), effectors.end(),
                       [joint](const ik::BodyEffector& e) { return e.joint == joint; });
  };
  for (size_t i = 0; i < requests.body.effectors.size(); ++i) {
    if (effectors.size() == static_cast<size_t>(ik::kMaxBodyEffectors)) break;
    effectors.push_back(requests.body.effectors[i]);
    sources.push_back(static_cast<int>(i));
  }
  for (size_t i = 0; i < requests.ik.size(); ++i) {
    const IkChainRequest& request = requests.ik[i];
    if (effectors.size() == static_cast<size_t>(ik::kMaxBodyEffectors)) break;
    if (!(request.options.weight > 0.0f) || !character.IsLimbEnd(request.chain.end) ||
        taken(request.chain.end)) {
      continue;
    }
    ik::BodyEffector effector;
    effector.kind =
        request.body_helps ? ik::BodyEffector::Kind::kTarget : ik::BodyEffector::Kind::kPin;
    effector.joint = request.chain.end;
    effector.target_model = request.target.position;
    effectors.push_back(effector);
    sources.push_back(-1 - static_cast<int>(i));
  }
  ik::FullBodyIkJob job;
  job.skeleton = &character.skeleton();
  job.rig = rig;
  job.limits = requests.limits.empty() ? nullptr : &requests.limits;
  job.effectors = effectors.data();
  job.effector_count = static_cast<int>(effectors.size());
  job.options = requests.body.options;
  job.pose = &state->pose;
  job.models = &state->models;
  job.workspace = &state->body_workspace;
  job.result = &state->body;
  job.Run();
  state->body_ran = true;
  state->body_hips = rig->hips;
}

}  // namespace app
