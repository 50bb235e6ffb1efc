// Retargeting's shared rig geometry: see retarget_rig.h.
#include "app/core/retarget_rig.h"

#include <algorithm>
#include <cmath>

#include "ik/core/kinematics.h"

namespace app {
namespace retargeting {

const ik::Limb* FindLimb(const Character& c, ik::LimbKind kind, ik::LimbSide side) {
  for (const ik::Limb& limb : c.limbs()) {
    if (limb.kind == kind && limb.side == side) return &limb;
  }
  return nullptr;
}

void WorldRotations(const ik::Skeleton& s, const ik::Pose& pose, std::vector<glm::quat>* out) {
  out->resize(static_cast<size_t>(s.joint_count()));
  for (int j = 0; j < s.joint_count(); ++j) {
    const glm::quat& local = pose.locals[static_cast<size_t>(j)].rotation;
    const int p = s.parent(j);
    (*out)[static_cast<size_t>(j)] = p < 0 ? local : (*out)[static_cast<size_t>(p)] * local;
  }
}

RestFrame Rest(const ik::Skeleton& s) {
  RestFrame r;
  WorldRotations(s, ik::Pose::Rest(s), &r.rotation);
  for (const glm::mat4& m : s.rest_models()) r.position.push_back(glm::vec3(m[3]));
  return r;
}

float LegLength(const Character& c, const RestFrame& rest) {
  float sum = 0.0f;
  int count = 0;
  for (const ik::Limb& limb : c.limbs()) {
    if (limb.kind != ik::LimbKind::kLeg) continue;
    const auto& p = rest.position;
    sum += glm::distance(p[size_t(limb.chain.start)], p[size_t(limb.chain.mid)]) +
           glm::distance(p[size_t(limb.chain.mid)], p[size_t(limb.chain.end)]);
    ++count;
  }
  return count > 0 ? sum / float(count) : 0.0f;
}

glm::vec3 Forward(const Character& c, const RestFrame& rest) {
  const ik::Limb* l = FindLimb(c, ik::LimbKind::kLeg, ik::LimbSide::kLeft);
  const ik::Limb* r = FindLimb(c, ik::LimbKind::kLeg, ik::LimbSide::kRight);
  if (l == nullptr || r == nullptr) return {0.0f, 0.0f, 1.0f};
  const glm::vec3 left =
      rest.position[size_t(l->chain.start)] - rest.position[size_t(r->chain.start)];
  glm::vec3 f = glm::cross(left, glm::vec3(0.0f, 1.0f, 0.0f));
  f.y = 0.0f;
  const float len = glm::length(f);
  return len > 1e-8f ? f / len : glm::vec3(0.0f, 0.0f, 1.0f);
}

Alignment Align(const Character& source, const Character& target) {
  Alignment a;
  a.source = Rest(source.skeleton());
  a.target = Rest(target.skeleton());
  const glm::vec3 fs = Forward(source, a.source), ft = Forward(target, a.target);
  const float angle = std::atan2(glm::cross(fs, ft).y, glm::dot(fs, ft));
  a.turn = glm::angleAxis(angle, glm::vec3(0.0f, 1.0f, 0.0f));
  const float ls = LegLength(source, a.source), lt = LegLength(target, a.target);
  a.scale = ls > 0.0f && lt > 0.0f ? lt / ls : 1.0f;
  return a;
}

bool FourLegged(const Character& c, const RestFrame& rest) {
  float foot = INFINITY, hand = INFINITY;
  for (const ik::Limb& limb : c.limbs()) {
    const float y = rest.position[size_t(limb.chain.end)].y;
    float& m = limb.kind == ik::LimbKind::kLeg ? foot : hand;
    m = std::min(m, y);
  }
  if (!std::isfinite(foot) || !std::isfinite(hand)) return false;
  return hand - foot < 0.25f * LegLength(c, rest);
}

std::vector<int> SourceOf(const RetargetMapping& mapping, int target_joints) {
  std::vector<int> source_of(static_cast<size_t>(target_joints), -1);
  for (const RetargetPair& p : mapping.pairs) {
    if (p.target >= 0 && p.target < target_joints) source_of[size_t(p.target)] = p.source;
  }
  return source_of;
}

int CountLegs(const Character& c) {
  int n = 0;
  for (const ik::Limb& limb : c.limbs()) n += limb.kind == ik::LimbKind::kLeg ? 1 : 0;
  return n;
}

}  // namespace retargeting
}  // namespace app
