// Pose copy, paste (flipped), mirror, and chain targets mirrored across.
#include "app/core/mirror_edit.h"

#include <algorithm>
#include <cmath>

namespace app {

namespace {

int Counterpart(const ik::MirrorMap& map, int joint) {
  return joint >= 0 && size_t(joint) < map.counterpart.size() ? map.counterpart[size_t(joint)]
                                                              : joint;
}

// `source`'s targets reflected for the chain on the other side (joints and label are the
// caller's): points reflected, offsets reflected as directions.
ChainSettings Reflected(const ik::MirrorMap& map, const ChainSettings& source) {
  ChainSettings c = source;
  c.offset = map.MirrorDirection(source.offset);
  c.pinned = map.MirrorPoint(source.pinned);
  c.pole = map.MirrorPoint(source.pole);
  for (PointKey& key : c.target_keys) {
    key.value =
        c.mode == TargetMode::kPinned ? map.MirrorPoint(key.value) : map.MirrorDirection(key.value);
  }
  for (PointKey& key : c.pole_keys) key.value = map.MirrorPoint(key.value);
  c.up = map.MirrorPoint(source.up);
  c.target_joint = Counterpart(map, source.target_joint);
  return c;
}

// The pasted pose is the pose at `time_seconds`: targets that follow the animation sit on their
// effectors (a zero offset), keyed ones keyed so there; pinned targets stay where they are.
void FollowTargetsOnEffectors(float time_seconds, EditState* edit) {
  for (ChainSettings& chain : edit->chains) {
    if (chain.mode == TargetMode::kPinned) continue;
    chain.offset = glm::vec3(0.0f);
    if (!chain.target_keys.empty()) SetKey(&chain.target_keys, time_seconds, glm::vec3(0.0f));
  }
}

}  // namespace

PoseClipboard CopyPose(const ik::Skeleton& skeleton, const ik::Pose& pose) {
  PoseClipboard clipboard;
  const int n = std::min(skeleton.joint_count(), static_cast<int>(pose.locals.size()));
  for (int j = 0; j < n; ++j) {
    clipboard.names.push_back(skeleton.name(j));
    clipboard.locals.push_back(pose.locals[size_t(j)]);
  }
  return clipboard;
}

int PastePose(const PoseClipboard& clipboard, const ik::Skeleton& skeleton,
              const ik::MirrorMap* flip, float time_seconds, EditState* edit) {
  const int n = skeleton.joint_count();
  ik::Pose pose = ik::Pose::Rest(skeleton);
  std::vector<bool> named(size_t(n), false);
  for (size_t i = 0; i < clipboard.names.size() && i < clipboard.locals.size(); ++i) {
    const int joint = skeleton.Find(clipboard.names[i]);
    if (joint < 0 || !clipboard.locals[i].IsFinite()) continue;
    pose.locals[size_t(joint)] = clipboard.locals[i];
    named[size_t(joint)] = true;
  }
  if (flip && flip->counterpart.size() == size_t(n)) {
    ik::MirrorPose(*flip, skeleton, pose, &pose);
    std::vector<bool> flipped(size_t(n), false);
    for (int j = 0; j < n; ++j) flipped[size_t(j)] = named[size_t(Counterpart(*flip, j))];
    named = flipped;
  }
  int set = 0;
  for (int j = 0; j < n; ++j) {
    if (!named[size_t(j)]) continue;
    const ik::Transform& local = pose.locals[size_t(j)];
    edit->joint_rotations[j] = glm::normalize(local.rotation);
    edit->joint_offsets.erase(j);  // the pasted rotation is the whole rotation
    edit->joint_translations[j] = local.translation;
    ++set;
  }
  if (set > 0) FollowTargetsOnEffectors(time_seconds, edit);
  return set;
}

int CounterpartChain(const std::vector<ChainSettings>& chains, const ik::MirrorMap& map,
                     int index) {
  if (index < 0 || size_t(index) >= chains.size()) return -1;
  const ChainSettings& c = chains[size_t(index)];
  const int end = Counterpart(map, c.chain.end);
  const int start = Counterpart(map, c.chain.start);
  if (end == c.chain.end) return -1;
  for (size_t i = 0; i < chains.size(); ++i) {
    const ChainSettings& o = chains[i];
    if (o.kind != c.kind || o.chain.end != end) continue;
    if (c.kind == ConstraintKind::kFabrik && o.chain.start != start) continue;
    return static_cast<int>(i);
  }
  return -1;
}

void MirrorWholePose(const ik::Skeleton& skeleton, const ik::MirrorMap& map, const ik::Pose& solved,
                     float time_seconds, EditState* edit) {
  const std::vector<ChainSettings> before = edit->chains;
  PastePose(CopyPose(skeleton, solved), skeleton, &map, time_seconds, edit);
  for (size_t i = 0; i < before.size(); ++i) {
    const ChainSettings& own = before[i];
    const bool on_plane = Counterpart(map, own.chain.end) == own.chain.end;
    const int other = CounterpartChain(before, map, static_cast<int>(i));
    ChainSettings& chain = edit->chains[i];
    if (other >= 0 || on_plane) {
      chain = Reflected(map, before[size_t(other >= 0 ? other : static_cast<int>(i))]);
      chain.chain = own.chain;
      chain.label = own.label;
    } else if (chain.mode == TargetMode::kPinned) {
      // Nothing on the other side says where this limb's target goes: it keeps the pose (its
      // keys were pinned points, which say nothing as offsets).
      chain.mode = TargetMode::kFollow;
      chain.target_keys.clear();
    }
  }
  FollowTargetsOnEffectors(time_seconds, edit);
}

int MirrorChainTarget(const Character& character, const ik::MirrorMap& map, int index,
                      EditState* edit, std::string* why) {
  if (index < 0 || size_t(index) >= edit->chains.size()) {
    *why = "no such chain";
    return -1;
  }
  const ChainSettings source = edit->chains[size_t(index)];
  const int end = Counterpart(map, source.chain.end);
  if (end == source.chain.end) {
    *why = source.label + " is on the mirror plane: it has no other side";
    return -1;
  }
  int other = CounterpartChain(edit->chains, map, index);
  ChainSettings made;
  if (other < 0) {
    bool ok = false;
    switch (source.kind) {
      case ConstraintKind::kTwoBone:
        ok = MakeChain(character, end, &made, why);
        break;
      case ConstraintKind::kAim:
        ok = MakeAim(character.model(), end, &made, why);
        break;
      case ConstraintKind::kFabrik:
        ok = MakeFabrik(character.model(), Counterpart(map, source.chain.start), end, &made, why);
        break;
      case ConstraintKind::kBody:
        ok = MakeBody(character, end, &made, why);
        break;
    }
    if (!ok) return -1;
    edit->chains.push_back(made);
    other = static_cast<int>(edit->chains.size()) - 1;
  }
  ChainSettings& target = edit->chains[size_t(other)];
  ChainSettings mirrored = Reflected(map, source);
  mirrored.chain = target.chain;
  mirrored.label = target.label;
  target = mirrored;
  return other;
}

}  // namespace app
