// Chain settings, targets and the undo history.
#include "app/chain_edit.h"

#include <algorithm>

#include "ik/kinematics.h"
#include "ik/limbs.h"

namespace app {

const char* TargetModeName(TargetMode mode) {
  switch (mode) {
    case TargetMode::kFollow: return "follow";
    case TargetMode::kPinned: return "pinned";
    case TargetMode::kGround: return "ground";
    case TargetMode::kRung: return "rung";
  }
  return "follow";
}

float ChainSettings::WeightAt(float time_seconds) const {
  if (weight_keys.empty()) return weight;
  // Keys may be unsorted after editing; find the neighbours of the time.
  const glm::vec2* before = nullptr;
  const glm::vec2* after = nullptr;
  for (const glm::vec2& key : weight_keys) {
    if (key.x <= time_seconds && (!before || key.x > before->x)) before = &key;
    if (key.x >= time_seconds && (!after || key.x < after->x)) after = &key;
  }
  float w;
  if (!before) {
    w = after->y;
  } else if (!after || after->x <= before->x) {
    w = before->y;
  } else {
    const float u = (time_seconds - before->x) / (after->x - before->x);
    w = before->y + u * (after->y - before->y);
  }
  return std::clamp(w, 0.0f, 1.0f);
}

bool SceneContacts::operator==(const SceneContacts& o) const {
  const GroundPlane& g = ground;
  const Ladder& l = ladder;
  return g.enabled == o.ground.enabled && g.height == o.ground.height &&
         g.tilt_x_degrees == o.ground.tilt_x_degrees &&
         g.tilt_z_degrees == o.ground.tilt_z_degrees && g.pivot == o.ground.pivot &&
         l.enabled == o.ladder.enabled && l.base == o.ladder.base && l.up == o.ladder.up &&
         l.across == o.ladder.across && l.spacing == o.ladder.spacing &&
         l.width == o.ladder.width && l.count == o.ladder.count && lower_hips == o.lower_hips;
}

bool ChainSettings::operator==(const ChainSettings& o) const {
  return label == o.label && chain.start == o.chain.start && chain.mid == o.chain.mid &&
         chain.end == o.chain.end && enabled == o.enabled && mode == o.mode &&
         offset == o.offset && pinned == o.pinned && use_pole == o.use_pole && pole == o.pole &&
         hinge == o.hinge && soft == o.soft && weight == o.weight &&
         weight_keys == o.weight_keys && end_orientation == o.end_orientation;
}

bool EditState::operator==(const EditState& o) const {
  if (chains != o.chains || joint_rotations.size() != o.joint_rotations.size() ||
      !(contacts == o.contacts)) {
    return false;
  }
  for (auto a = joint_rotations.begin(), b = o.joint_rotations.begin(); a != joint_rotations.end();
       ++a, ++b) {
    if (a->first != b->first || a->second != b->second) return false;
  }
  return true;
}

EffectorInfo InfoFor(const ik::Skeleton& skeleton, const ChainSettings& chain,
                     const std::vector<glm::mat4>& unsolved_models) {
  EffectorInfo info;
  const int n = static_cast<int>(unsolved_models.size());
  const ik::TwoBoneChain& c = chain.chain;
  if (c.start < 0 || c.mid < 0 || c.end < 0 || c.start >= n || c.mid >= n || c.end >= n) {
    return info;
  }
  info.effector = glm::vec3(unsolved_models[c.end][3]);
  info.start = glm::vec3(unsolved_models[c.start][3]);
  const auto& rest = skeleton.rest_models();
  info.reach = glm::length(glm::vec3(rest[c.mid][3]) - glm::vec3(rest[c.start][3])) +
               glm::length(glm::vec3(rest[c.end][3]) - glm::vec3(rest[c.mid][3]));
  info.contact_height = rest[c.end][3].y;
  return info;
}

glm::vec3 ChainTarget(const ChainSettings& chain, const EffectorInfo& info,
                      const SceneContacts& contacts) {
  switch (chain.mode) {
    case TargetMode::kFollow:
      return info.effector + chain.offset;
    case TargetMode::kPinned:
      return chain.pinned;
    case TargetMode::kGround:
      if (!contacts.ground.enabled) return info.effector + chain.offset;
      return FootOnGround(contacts.ground, info.effector, info.contact_height) + chain.offset;
    case TargetMode::kRung: {
      glm::vec3 target;
      HandOnRung(contacts.ladder, info.effector + chain.offset, info.start, info.reach, &target);
      return target;
    }
  }
  return info.effector;
}

void SetChainTarget(ChainSettings* chain, const glm::vec3& target, const EffectorInfo& info,
                    const SceneContacts& contacts) {
  switch (chain->mode) {
    case TargetMode::kPinned:
      chain->pinned = target;
      break;
    case TargetMode::kGround:
      chain->offset = contacts.ground.enabled
                          ? target - FootOnGround(contacts.ground, info.effector, info.contact_height)
                          : target - info.effector;
      break;
    case TargetMode::kFollow:
    case TargetMode::kRung:
      chain->offset = target - info.effector;
      break;
  }
}

void ResetChainTarget(ChainSettings* chain, const glm::vec3& effector) {
  chain->offset = glm::vec3(0.0f);
  chain->pinned = effector;
}

ik::TwoBoneIkOptions ChainOptions(const ChainSettings& chain, float time_seconds) {
  ik::TwoBoneIkOptions options;
  if (chain.use_pole) options.pole_model = chain.pole;
  options.hinge = chain.hinge;
  options.soft = chain.soft;
  options.weight = chain.WeightAt(time_seconds);
  options.end_orientation = chain.end_orientation;
  return options;
}

bool MakeChain(const assets::Model& model, int end_joint, ChainSettings* out, std::string* error) {
  const auto chain = ik::ChainFromEnd(model.skeleton, end_joint, error);
  if (!chain) return false;
  ChainSettings settings;
  settings.label = model.skeleton.name(end_joint);
  settings.chain = *chain;
  settings.hinge = ik::DetectBendAxis(model.skeleton, *chain).has_value();
  settings.pinned = glm::vec3(model.skeleton.rest_models()[end_joint][3]);
  *out = settings;
  return true;
}

std::vector<ChainSettings> DefaultChains(const assets::Model& model) {
  std::vector<ChainSettings> chains;
  for (const ik::Limb& limb : ik::DetectLimbs(model.skeleton, &model.is_bone)) {
    ChainSettings settings;
    settings.label = limb.label;
    settings.chain = limb.chain;
    settings.hinge = ik::DetectBendAxis(model.skeleton, limb.chain).has_value();
    settings.pinned = glm::vec3(model.skeleton.rest_models()[limb.chain.end][3]);
    chains.push_back(settings);
  }
  return chains;
}

void BuildRequests(const ik::Skeleton& skeleton, const std::vector<ChainSettings>& chains,
                   const SceneContacts& contacts, const std::vector<glm::mat4>& unsolved_models,
                   float time_seconds, std::vector<IkChainRequest>* requests,
                   std::vector<int>* request_chain) {
  requests->clear();
  request_chain->clear();
  for (size_t i = 0; i < chains.size(); ++i) {
    const ChainSettings& c = chains[i];
    if (!c.enabled || !ik::ValidateChain(skeleton, c.chain).empty() ||
        c.chain.end >= static_cast<int>(unsolved_models.size())) {
      continue;
    }
    IkChainRequest request;
    request.chain = c.chain;
    request.target.position = ChainTarget(c, InfoFor(skeleton, c, unsolved_models), contacts);
    request.options = ChainOptions(c, time_seconds);
    request.options.bend_axis_local = ik::DetectBendAxis(skeleton, c.chain);
    requests->push_back(request);
    request_chain->push_back(static_cast<int>(i));
  }
}

float LowerHipsToGround(const ik::Skeleton& skeleton, const std::vector<ChainSettings>& chains,
                        const SceneContacts& contacts, ik::Pose* pose,
                        std::vector<glm::mat4>* models) {
  if (!contacts.ground.enabled || !contacts.lower_hips) return 0.0f;
  float drop = 0.0f;
  int common = -1;
  for (const ChainSettings& c : chains) {
    if (!c.enabled || c.mode != TargetMode::kGround || !ik::ValidateChain(skeleton, c.chain).empty()) {
      continue;
    }
    const EffectorInfo info = InfoFor(skeleton, c, *models);
    const glm::vec3 target = ChainTarget(c, info, contacts);
    drop = std::min(drop, target.y - info.effector.y);
    // Lowest common ancestor of the chains' start joints.
    const int start_parent = skeleton.parent(c.chain.start);
    if (common < 0) {
      common = start_parent;
    } else {
      while (common >= 0 && !skeleton.IsAncestorOrSelf(common, start_parent)) {
        common = skeleton.parent(common);
      }
    }
  }
  if (drop >= 0.0f || common < 0) return 0.0f;
  // Move that joint down in world space: the offset in its parent's frame.
  const int parent = skeleton.parent(common);
  glm::vec3 offset(0.0f, drop, 0.0f);
  if (parent >= 0) offset = glm::inverse(glm::mat3((*models)[parent])) * offset;
  if (!ik::IsFinite(offset)) return 0.0f;
  pose->locals[common].translation += offset;
  ik::LocalToModelFrom(skeleton, *pose, common, models);
  return drop;
}

void EvaluateEditedFrame(const assets::Model& model, const ClipTime& clip_time,
                         const EditState& edit, EditedFrame* frame, PoseState* state) {
  const ik::Skeleton& skeleton = model.skeleton;
  SamplePose(model, clip_time, &frame->unsolved_pose);
  for (const auto& [joint, rotation] : edit.joint_rotations) {
    if (joint >= 0 && joint < static_cast<int>(frame->unsolved_pose.locals.size())) {
      frame->unsolved_pose.locals[joint].rotation = rotation;
    }
  }
  ik::LocalToModel(skeleton, frame->unsolved_pose, &frame->unsolved_models);
  LowerHipsToGround(skeleton, edit.chains, edit.contacts, &frame->unsolved_pose,
                    &frame->unsolved_models);
  BuildRequests(skeleton, edit.chains, edit.contacts, frame->unsolved_models, clip_time.time,
                &frame->requests, &frame->request_chain);
  // Solve on a copy of the fresh pose: nothing accumulates from frame to frame.
  state->pose.locals = frame->unsolved_pose.locals;
  state->models = frame->unsolved_models;
  SolveChains(skeleton, frame->requests, state);
}

void UndoHistory::Record(const EditState& before, const EditState& after) {
  if (before == after) return;
  undo_.push_back(before);
  if (undo_.size() > limit_) undo_.erase(undo_.begin());
  redo_.clear();
}

bool UndoHistory::Undo(EditState* current) {
  if (undo_.empty()) return false;
  redo_.push_back(*current);
  *current = std::move(undo_.back());
  undo_.pop_back();
  return true;
}

bool UndoHistory::Redo(EditState* current) {
  if (redo_.empty()) return false;
  undo_.push_back(*current);
  *current = std::move(redo_.back());
  redo_.pop_back();
  return true;
}

void UndoHistory::Clear() {
  undo_.clear();
  redo_.clear();
}

}  // namespace app
