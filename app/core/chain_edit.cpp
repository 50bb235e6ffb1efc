// Chain settings and targets.
#include "app/core/chain_edit.h"

#include <algorithm>

#include "app/core/body_solve.h"
#include "ik/core/kinematics.h"

namespace app {

const char* TargetModeName(TargetMode mode) {
  switch (mode) {
    case TargetMode::kFollow:
      return "follow";
    case TargetMode::kPinned:
      return "pinned";
    case TargetMode::kGround:
      return "ground";
    case TargetMode::kRung:
      return "rung";
  }
  return "follow";
}

const char* ConstraintKindName(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::kTwoBone:
      return "two_bone";
    case ConstraintKind::kAim:
      return "aim";
    case ConstraintKind::kFabrik:
      return "fabrik";
    case ConstraintKind::kBody:
      return "body";
  }
  return "two_bone";
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

glm::vec3 ChainSettings::OffsetAt(float time_seconds) const {
  return mode == TargetMode::kPinned ? offset : KeyedValue(target_keys, time_seconds, offset);
}

glm::vec3 ChainSettings::PinnedAt(float time_seconds) const {
  return mode == TargetMode::kPinned ? KeyedValue(target_keys, time_seconds, pinned) : pinned;
}

glm::vec3 ChainSettings::PoleAt(float time_seconds) const {
  return KeyedValue(pole_keys, time_seconds, pole);
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
         chain.end == o.chain.end && enabled == o.enabled && mode == o.mode && offset == o.offset &&
         pinned == o.pinned && use_pole == o.use_pole && pole == o.pole && hinge == o.hinge &&
         soft == o.soft && weight == o.weight && weight_keys == o.weight_keys &&
         end_orientation == o.end_orientation && kind == o.kind && target_joint == o.target_joint &&
         spread == o.spread && spread_falloff == o.spread_falloff && use_up == o.use_up &&
         up == o.up && tolerance == o.tolerance && max_iterations == o.max_iterations &&
         show_iterations == o.show_iterations && body_helps == o.body_helps &&
         body_pin == o.body_pin && target_keys == o.target_keys && pole_keys == o.pole_keys;
}

namespace {

bool SameLimit(const ik::JointLimit& x, const ik::JointLimit& y) {
  return x.type == y.type && x.axis_local == y.axis_local && x.min_angle == y.min_angle &&
         x.max_angle == y.max_angle && x.twist_axis_local == y.twist_axis_local &&
         x.cone_angle == y.cone_angle && x.twist_min == y.twist_min && x.twist_max == y.twist_max;
}

bool SameLimits(const ik::JointLimits& a, const ik::JointLimits& b) {
  if (a.size() != b.size()) return false;
  for (auto x = a.entries().begin(), y = b.entries().begin(); x != a.entries().end(); ++x, ++y) {
    if (x->first != y->first || !SameLimit(x->second, y->second)) return false;
  }
  return true;
}

bool SameChain(const ik::TwoBoneChain& a, const ik::TwoBoneChain& b) {
  return a.start == b.start && a.mid == b.mid && a.end == b.end;
}

}  // namespace

bool EditState::operator==(const EditState& o) const {
  if (morph_weights != o.morph_weights || foot_lock != o.foot_lock ||
      !(foot_lock_edit == o.foot_lock_edit)) {
    return false;
  }
  const ik::FullBodyOptions& mine = body_options;
  const ik::FullBodyOptions& theirs = o.body_options;
  if (mine.hips_translation_weight != theirs.hips_translation_weight ||
      mine.hips_rotation_weight != theirs.hips_rotation_weight ||
      mine.spine_weight != theirs.spine_weight || mine.max_body_turn != theirs.max_body_turn ||
      mine.max_iterations != theirs.max_iterations || mine.tolerance != theirs.tolerance ||
      mine.hinge != theirs.hinge) {
    return false;
  }
  if (chains != o.chains || joint_rotations.size() != o.joint_rotations.size() ||
      joint_offsets.size() != o.joint_offsets.size() ||
      joint_translations != o.joint_translations || !(contacts == o.contacts) ||
      !SameLimits(limits, o.limits)) {
    return false;
  }
  for (auto a = joint_rotations.begin(), b = o.joint_rotations.begin(); a != joint_rotations.end();
       ++a, ++b) {
    if (a->first != b->first || a->second != b->second) return false;
  }
  for (auto a = joint_offsets.begin(), b = o.joint_offsets.begin(); a != joint_offsets.end();
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
  auto at = [&](int j) { return glm::vec3(unsolved_models[j][3]); };
  const auto& rest = skeleton.rest_models();
  auto rest_at = [&](int j) { return glm::vec3(rest[j][3]); };
  if (c.end < 0 || c.end >= n || n != skeleton.joint_count()) return info;
  info.contact_height = rest[c.end][3].y;
  switch (chain.kind) {
    case ConstraintKind::kTwoBone:
      if (c.start < 0 || c.mid < 0 || c.start >= n || c.mid >= n) return info;
      info.effector = at(c.end);
      info.start = at(c.start);
      info.reach = glm::length(rest_at(c.mid) - rest_at(c.start)) +
                   glm::length(rest_at(c.end) - rest_at(c.mid));
      break;
    case ConstraintKind::kFabrik: {
      if (c.start < 0 || c.start >= n) return info;
      info.effector = at(c.end);
      info.start = at(c.start);
      for (int j = c.end; j != c.start && j >= 0; j = skeleton.parent(j)) {
        if (skeleton.parent(j) >= 0)
          info.reach += glm::length(rest_at(j) - rest_at(skeleton.parent(j)));
      }
      break;
    }
    case ConstraintKind::kAim: {
      // The target rests on the bone's tip: its child, or the incoming bone continued.
      info.start = at(c.end);
      const int child = ik::BoneChild(skeleton, c.end);
      if (child >= 0) {
        info.effector = at(child);
      } else if (skeleton.parent(c.end) >= 0) {
        info.effector = 2.0f * at(c.end) - at(skeleton.parent(c.end));
      } else {
        info.effector = at(c.end) + glm::vec3(0.0f, 0.1f, 0.0f);
      }
      info.reach = 1e30f;
      break;
    }
    case ConstraintKind::kBody:
      info.effector = at(c.end);
      info.start = at(c.end);
      info.reach = 1e30f;
      break;
  }
  return info;
}

glm::vec3 ChainTarget(const ChainSettings& chain, const EffectorInfo& info,
                      const SceneContacts& contacts, float time_seconds) {
  const glm::vec3 offset = chain.OffsetAt(time_seconds);
  switch (chain.mode) {
    case TargetMode::kFollow:
      return info.effector + offset;
    case TargetMode::kPinned:
      return chain.PinnedAt(time_seconds);
    case TargetMode::kGround:
      if (!contacts.ground.enabled) return info.effector + offset;
      return FootOnGround(contacts.ground, info.effector, info.contact_height) + offset;
    case TargetMode::kRung: {
      glm::vec3 target;
      HandOnRung(contacts.ladder, info.effector + offset, info.start, info.reach, &target);
      return target;
    }
  }
  return info.effector;
}

namespace {

// The target's value as its mode keeps it: the pinned point, else the offset.
glm::vec3& ModeValue(ChainSettings* chain) {
  return chain->mode == TargetMode::kPinned ? chain->pinned : chain->offset;
}

// A keyed target keeps the value just set as its key at the time.
void KeyIfKeyed(ChainSettings* chain, float time_seconds) {
  if (!chain->target_keys.empty()) SetKey(&chain->target_keys, time_seconds, ModeValue(chain));
}

}  // namespace

void SetChainTarget(ChainSettings* chain, const glm::vec3& target, const EffectorInfo& info,
                    const SceneContacts& contacts, float time_seconds) {
  switch (chain->mode) {
    case TargetMode::kPinned:
      chain->pinned = target;
      break;
    case TargetMode::kGround:
      chain->offset =
          contacts.ground.enabled
              ? target - FootOnGround(contacts.ground, info.effector, info.contact_height)
              : target - info.effector;
      break;
    case TargetMode::kFollow:
    case TargetMode::kRung:
      chain->offset = target - info.effector;
      break;
  }
  KeyIfKeyed(chain, time_seconds);
}

void ResetChainTarget(ChainSettings* chain, const glm::vec3& effector, float time_seconds) {
  chain->offset = glm::vec3(0.0f);
  chain->pinned = effector;
  KeyIfKeyed(chain, time_seconds);
}

void KeyChainTarget(ChainSettings* chain, float time_seconds) {
  const glm::vec3 value = chain->mode == TargetMode::kPinned ? chain->PinnedAt(time_seconds)
                                                             : chain->OffsetAt(time_seconds);
  SetKey(&chain->target_keys, time_seconds, value);
  ModeValue(chain) = value;
  if (chain->use_pole) {
    chain->pole = chain->PoleAt(time_seconds);
    SetKey(&chain->pole_keys, time_seconds, chain->pole);
  }
}

std::vector<float> ChainKeyTimes(const ChainSettings& chain) {
  std::vector<float> times;
  for (const PointKey& key : chain.target_keys) times.push_back(key.time);
  for (const PointKey& key : chain.pole_keys) {
    if (FindKey(chain.target_keys, key.time) < 0) times.push_back(key.time);
  }
  std::sort(times.begin(), times.end());
  return times;
}

bool DeleteChainKey(ChainSettings* chain, float time_seconds) {
  bool deleted = false;
  if (const int at = FindKey(chain->target_keys, time_seconds); at >= 0) {
    if (chain->target_keys.size() == 1) ModeValue(chain) = chain->target_keys[0].value;
    chain->target_keys.erase(chain->target_keys.begin() + at);
    deleted = true;
  }
  if (const int at = FindKey(chain->pole_keys, time_seconds); at >= 0) {
    if (chain->pole_keys.size() == 1) chain->pole = chain->pole_keys[0].value;
    chain->pole_keys.erase(chain->pole_keys.begin() + at);
    deleted = true;
  }
  return deleted;
}

bool MoveChainKey(ChainSettings* chain, float from, float to) {
  const int target = FindKey(chain->target_keys, from);
  const int pole = FindKey(chain->pole_keys, from);
  if (target >= 0) MoveKey(&chain->target_keys, target, to);
  if (pole >= 0) MoveKey(&chain->pole_keys, pole, to);
  return target >= 0 || pole >= 0;
}

ik::TwoBoneIkOptions ChainOptions(const ChainSettings& chain, float time_seconds) {
  ik::TwoBoneIkOptions options;
  if (chain.use_pole) options.pole_model = chain.PoleAt(time_seconds);
  options.hinge = chain.hinge;
  options.soft = chain.soft;
  options.weight = chain.WeightAt(time_seconds);
  options.end_orientation = chain.end_orientation;
  return options;
}

bool MakeChain(const Character& character, int end_joint, ChainSettings* out, std::string* error) {
  const ik::Skeleton& skeleton = character.skeleton();
  const auto chain = ik::ChainFromEnd(skeleton, end_joint, error);
  if (!chain) return false;
  ChainSettings settings;
  settings.label = skeleton.name(end_joint);
  settings.chain = *chain;
  settings.hinge = character.HingeByDefault(*chain);
  settings.pinned = glm::vec3(skeleton.rest_models()[end_joint][3]);
  *out = settings;
  return true;
}

bool MakeAim(const assets::Model& model, int joint, ChainSettings* out, std::string* error) {
  if (joint < 0 || joint >= model.skeleton.joint_count()) {
    *error = "no joint selected to aim";
    return false;
  }
  ChainSettings settings;
  settings.kind = ConstraintKind::kAim;
  settings.label = "aim " + model.skeleton.name(joint);
  settings.chain = {-1, -1, joint};
  *out = settings;
  return true;
}

bool MakeFabrik(const assets::Model& model, int root, int end, ChainSettings* out,
                std::string* error) {
  const std::string why = ik::ValidateFabrikChain(model.skeleton, root, end);
  if (!why.empty()) {
    *error = "FABRIK chain: " + why;
    return false;
  }
  ChainSettings settings;
  settings.kind = ConstraintKind::kFabrik;
  settings.label = "fabrik " + model.skeleton.name(root) + ":" + model.skeleton.name(end);
  settings.chain = {root, -1, end};
  *out = settings;
  return true;
}

bool MakeBody(const Character& character, int joint, ChainSettings* out, std::string* error) {
  const assets::Model& model = character.model();
  std::string why;
  const ik::BodyRig* rig = character.body_rig(&why);
  if (!rig) {
    *error = "body handle: " + why;
    return false;
  }
  if (joint < 0 || joint >= model.skeleton.joint_count()) {
    *error = "body handle: no joint selected";
    return false;
  }
  ik::BodyEffector move;
  move.kind = ik::BodyEffector::Kind::kMove;
  move.joint = joint;
  move.target_model = glm::vec3(model.skeleton.rest_models()[joint][3]);
  if (const std::string problem = BodyEffectorProblem(model.skeleton, *rig, move);
      !problem.empty()) {
    *error = "body handle on " + model.skeleton.name(joint) + ": " + problem;
    return false;
  }
  ChainSettings settings;
  settings.kind = ConstraintKind::kBody;
  settings.label = model.skeleton.name(joint) + " (body)";
  settings.chain = {-1, -1, joint};
  settings.pinned = glm::vec3(model.skeleton.rest_models()[joint][3]);
  *out = settings;
  return true;
}

std::vector<ChainSettings> DefaultChains(const Character& character) {
  const ik::Skeleton& skeleton = character.skeleton();
  std::vector<ChainSettings> chains;
  for (const ik::Limb& limb : character.limbs()) {
    ChainSettings settings;
    settings.label = limb.label;
    settings.chain = limb.chain;
    settings.hinge = character.HingeByDefault(limb.chain);
    settings.pinned = glm::vec3(skeleton.rest_models()[limb.chain.end][3]);
    // The rig's own IK controls: the pinned target starts at its target control, and its pole
    // control bends the limb toward where the rig's author put it.
    if (limb.target >= 0) settings.pinned = glm::vec3(skeleton.rest_models()[limb.target][3]);
    if (limb.pole >= 0) {
      settings.use_pole = true;
      settings.pole = glm::vec3(skeleton.rest_models()[limb.pole][3]);
    }
    chains.push_back(settings);
  }
  const ik::BodyRig* rig = character.body_rig();
  if (!chains.empty() && rig) {
    for (int joint : {rig->hips, rig->chest}) {
      ChainSettings body;
      std::string error;
      if ((joint != rig->chest || rig->chest != rig->hips) &&
          MakeBody(character, joint, &body, &error)) {
        body.label = joint == rig->hips ? "Hips (body)" : "Chest (body)";  // by role, not name
        chains.push_back(body);
      }
    }
  }
  return chains;
}

void BuildRequests(const Character& character, const EditState& edit,
                   const std::vector<glm::mat4>& unsolved_models, float time_seconds,
                   EditedFrame* frame) {
  const ik::Skeleton& skeleton = character.skeleton();
  ConstraintRequests* requests = &frame->requests;
  requests->ik.clear();
  requests->fabrik.clear();
  requests->aim.clear();
  requests->body.effectors.clear();
  requests->body.options = edit.body_options;
  // Copied only when changed (a copy walks the whole map).
  if (!SameLimits(requests->limits, edit.limits)) requests->limits = edit.limits;
  frame->time_seconds = time_seconds;
  frame->morph_overrides.clear();
  for (const auto& [key, weight] : edit.morph_weights) {
    frame->morph_overrides.push_back({key.first, key.second, weight});
  }
  const size_t count = edit.chains.size();
  frame->chain_requests.assign(count, RequestIndex{});
  if (frame->character_id != character.id()) {
    frame->chains.clear();  // found for another rig
    frame->character_id = character.id();
  }
  const size_t known = frame->chains.size();
  frame->chains.resize(count);
  frame->hinges.resize(count);
  const int n = skeleton.joint_count();
  const bool posed = static_cast<int>(unsolved_models.size()) == n;
  for (size_t i = 0; i < count; ++i) {
    const ChainSettings& c = edit.chains[i];
    EditedFrame::ChainNow& now = frame->chains[i];
    if (i < known && posed && now.valid && c.kind == ConstraintKind::kTwoBone &&
        now.kind == c.kind && SameChain(now.chain, c.chain)) {
      // A two-bone chain as last frame: only where its joints are now changes (InfoFor's pose
      // part), and the request below reuses its validity and bend axis.
      now.info.effector = glm::vec3(unsolved_models[size_t(c.chain.end)][3]);
      now.info.start = glm::vec3(unsolved_models[size_t(c.chain.start)][3]);
    } else {
      now.kind = c.kind;
      now.chain = c.chain;
      now.valid = c.kind == ConstraintKind::kTwoBone && c.chain.Validate(skeleton);
      now.bend_axis = now.valid ? character.BendAxis(c.chain) : std::nullopt;
      now.info = InfoFor(skeleton, c, unsolved_models);
      // Not posed (no matrices yet): found again next frame.
      if (!posed) now.valid = false;
    }
    now.target = ChainTarget(c, now.info, edit.contacts, time_seconds);
  }
  if (!posed) return;
  for (size_t i = 0; i < count; ++i) {
    const ChainSettings& c = edit.chains[i];
    if (!c.enabled || c.chain.end < 0 || c.chain.end >= n) continue;
    const EditedFrame::ChainNow& now = frame->chains[i];
    const glm::vec3 target = now.target;
    RequestIndex& where = frame->chain_requests[i];
    where.kind = c.kind;
    switch (c.kind) {
      case ConstraintKind::kTwoBone: {
        if (!now.valid) break;
        IkChainRequest request;
        request.chain = c.chain;
        request.target.position = target;
        request.options = ChainOptions(c, time_seconds);
        request.options.bend_axis_local = now.bend_axis;
        request.body_helps = c.body_helps;
        const ik::JointLimit* hinge = edit.limits.Find(c.chain.mid);
        if (hinge && hinge->type == ik::JointLimit::Type::kHinge) {
          // The hinge the limit gives depends only on the chain and the limit: found again only
          // when either changes.
          EditedFrame::HingeFromLimit& memo = frame->hinges[i];
          if (!memo.valid || !SameChain(memo.chain, c.chain) || !SameLimit(memo.limit, *hinge)) {
            ik::TwoBoneIkOptions probe = request.options;
            memo.valid = true;
            memo.chain = c.chain;
            memo.limit = *hinge;
            memo.ok = ik::TwoBoneHingeFromLimit(skeleton, c.chain, *hinge, &probe);
            memo.bend_axis_local = probe.bend_axis_local;
            memo.min_angle = probe.hinge_min_angle;
            memo.max_angle = probe.hinge_max_angle;
          }
          if (memo.ok) {
            request.options.hinge = true;
            request.options.bend_axis_local = memo.bend_axis_local;
            request.options.hinge_min_angle = memo.min_angle;
            request.options.hinge_max_angle = memo.max_angle;
          }
        }
        where.index = static_cast<int>(requests->ik.size());
        requests->ik.push_back(request);
        break;
      }
      case ConstraintKind::kFabrik: {
        if (!ik::ValidateFabrikChain(skeleton, c.chain.start, c.chain.end).empty()) break;
        FabrikRequest request;
        request.root = c.chain.start;
        request.end = c.chain.end;
        request.target = target;
        request.options.tolerance = c.tolerance;
        request.options.max_iterations = c.max_iterations;
        request.options.weight = c.WeightAt(time_seconds);
        request.options.record_iterations = c.show_iterations;
        where.index = static_cast<int>(requests->fabrik.size());
        requests->fabrik.push_back(request);
        break;
      }
      case ConstraintKind::kAim: {
        AimRequest request;
        request.joint = c.chain.end;
        request.target = target;
        request.target_joint = c.target_joint >= 0 && c.target_joint < n ? c.target_joint : -1;
        request.options.weight = c.WeightAt(time_seconds);
        request.options.spread = c.spread;
        request.options.spread_falloff = c.spread_falloff;
        if (c.use_up) request.options.up_target_model = c.up;
        where.index = static_cast<int>(requests->aim.size());
        requests->aim.push_back(request);
        break;
      }
      case ConstraintKind::kBody: {
        // Left to the animation until moved: a hips handle at rest must not hold the hips back
        // from a target the body helps with.
        const bool moved =
            c.mode != TargetMode::kFollow || c.offset != glm::vec3(0.0f) || !c.target_keys.empty();
        if (!moved && !c.body_pin) break;
        ik::BodyEffector effector;
        effector.kind = c.body_pin ? ik::BodyEffector::Kind::kPin : ik::BodyEffector::Kind::kMove;
        effector.joint = c.chain.end;
        effector.target_model = target;
        where.index = static_cast<int>(requests->body.effectors.size());
        requests->body.effectors.push_back(effector);
        break;
      }
    }
  }
}

float LowerHipsToGround(const ik::Skeleton& skeleton, const std::vector<ChainSettings>& chains,
                        const SceneContacts& contacts, ik::Pose* pose,
                        std::vector<glm::mat4>* models, float time_seconds) {
  if (!contacts.ground.enabled || !contacts.lower_hips) return 0.0f;
  float drop = 0.0f;
  int common = -1;
  for (const ChainSettings& c : chains) {
    if (!c.enabled || c.kind != ConstraintKind::kTwoBone || c.mode != TargetMode::kGround ||
        !c.chain.Validate(skeleton)) {
      continue;
    }
    const EffectorInfo info = InfoFor(skeleton, c, *models);
    const glm::vec3 target = ChainTarget(c, info, contacts, time_seconds);
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

void EvaluateEditedFrame(const Character& character, const ClipTime& clip_time,
                         const EditState& edit, EditedFrame* frame, PoseState* state) {
  FrameSource source;
  source.clip_time = clip_time;
  source.edit = &edit;
  EvaluateFrame(character, source, frame, state);
}

}  // namespace app
