// Retargeting: joint roles on both rigs, the per-frame transfer, and its measures.
#include "app/core/retarget.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "app/core/foot_lock.h"
#include "assets/model/animation.h"
#include "ik/body/joint_names.h"
#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"

namespace app {

namespace {

// ---- Roles --------------------------------------------------------------------------------

struct Role {
  std::string role;  // VRM humanoid name, or "spine.<i>/<n>" for a joint inside the spine
  int joint = -1;
  int strength = 0;  // 3 humanoid, 2 name, 1 structure
};

const char* ByName(int strength) {
  return strength >= 3 ? "humanoid" : strength == 2 ? "name" : "structure";
}

int LimbStrength(ik::LimbFoundBy by) {
  return by == ik::LimbFoundBy::kHumanoid ? 3 : by == ik::LimbFoundBy::kName ? 2 : 1;
}

// How a body joint found by structure is also vouched for: the humanoid map, else its name.
int BodyStrength(const ik::Skeleton& s, const std::string& role, int joint) {
  if (s.HumanoidJoint(role) == joint && joint >= 0) return 3;
  const std::string named = ik::HumanoidRoleFromName(s.name(joint));
  const bool spine_role =
      role == "spine" || role == "chest" || role == "upperChest" || role.rfind("spine.", 0) == 0;
  if (named == role || (spine_role && named == "spine")) return 2;
  return 1;
}

const ik::Limb* FindLimb(const Character& c, ik::LimbKind kind, ik::LimbSide side) {
  for (const ik::Limb& limb : c.limbs()) {
    if (limb.kind == kind && limb.side == side) return &limb;
  }
  return nullptr;
}

// The child of `joint` with the largest subtree that is not in `avoid` (ancestors of limbs), or -1.
int BiggestChild(const ik::Skeleton& s, int joint, const std::vector<bool>& avoid) {
  int best = -1, best_size = 0;
  for (int c : s.children(joint)) {
    if (avoid[static_cast<size_t>(c)]) continue;
    int size = 0;
    for (int j = 0; j < s.joint_count(); ++j) size += s.IsAncestorOrSelf(c, j) ? 1 : 0;
    if (size > best_size) best = c, best_size = size;
  }
  return best;
}

struct Roles {
  std::vector<Role> roles;
  std::vector<int> spine;  // hips ... chest, root to tip
  int hips = -1;
};

bool FindRoles(const Character& c, Roles* out, std::string* why) {
  const ik::Skeleton& s = c.skeleton();
  const ik::BodyRig* body = c.body_rig(why);
  if (body == nullptr || body->hips < 0) return false;
  Roles r;
  r.hips = body->hips;
  // The spine from the hips up to the chest.
  for (int j = body->chest; j >= 0; j = s.parent(j)) {
    r.spine.insert(r.spine.begin(), j);
    if (j == body->hips) break;
  }
  if (r.spine.empty() || r.spine.front() != body->hips) r.spine = {body->hips};
  r.roles.push_back({"hips", body->hips, BodyStrength(s, "hips", body->hips)});
  const int n = static_cast<int>(r.spine.size());
  for (int i = 1; i < n; ++i) {
    const std::string role = i == n - 1 ? "chest" : "spine." + std::to_string(i);
    r.roles.push_back({role, r.spine[static_cast<size_t>(i)],
                       BodyStrength(s, role, r.spine[static_cast<size_t>(i)])});
  }
  // Joints that lead to a limb, which the neck does not.
  std::vector<bool> avoid(static_cast<size_t>(s.joint_count()), false);
  for (const ik::Limb& limb : c.limbs()) {
    for (int j = limb.chain.start; j >= 0; j = s.parent(j)) avoid[static_cast<size_t>(j)] = true;
  }
  const int top = r.spine.back();
  int neck = BiggestChild(s, top, avoid);
  if (neck >= 0) {
    int head = BiggestChild(s, neck, avoid);
    if (head < 0 || ik::HumanoidRoleFromName(s.name(neck)) == "head") head = neck, neck = -1;
    if (neck >= 0) r.roles.push_back({"neck", neck, BodyStrength(s, "neck", neck)});
    r.roles.push_back({"head", head, BodyStrength(s, "head", head)});
  }
  for (const ik::Limb& limb : c.limbs()) {
    if (limb.side == ik::LimbSide::kCenter) continue;
    const std::string side = limb.side == ik::LimbSide::kLeft ? "left" : "right";
    const bool leg = limb.kind == ik::LimbKind::kLeg;
    const int strength = LimbStrength(limb.found_by);
    r.roles.push_back({side + (leg ? "UpperLeg" : "UpperArm"), limb.chain.start, strength});
    r.roles.push_back({side + (leg ? "LowerLeg" : "LowerArm"), limb.chain.mid, strength});
    r.roles.push_back({side + (leg ? "Foot" : "Hand"), limb.chain.end, strength});
    if (leg) {
      const std::vector<bool> none(static_cast<size_t>(s.joint_count()), false);
      const int toes = BiggestChild(s, limb.chain.end, none);
      if (toes >= 0) {
        const std::string role = side + "Toes";
        r.roles.push_back({role, toes, BodyStrength(s, role, toes)});
      }
    } else {
      // Fingers, where the names say which: each joint below the hand named for a finger, by
      // its finger and its place along it (the first joint named for it, the second, ...).
      for (int d = 0; d < s.joint_count(); ++d) {
        if (d == limb.chain.end || !s.IsAncestorOrSelf(limb.chain.end, d)) continue;
        const std::string finger = ik::FingerFromName(s.name(d));
        if (finger.empty()) continue;
        int place = 1;
        for (int a = s.parent(d); a != limb.chain.end && a >= 0; a = s.parent(a)) {
          place += ik::FingerFromName(s.name(a)) == finger ? 1 : 0;
        }
        r.roles.push_back({side + finger + std::to_string(place), d, 2});
      }
      const int p = s.parent(limb.chain.start);
      if (p >= 0 && std::find(r.spine.begin(), r.spine.end(), p) == r.spine.end()) {
        const std::string role = side + "Shoulder";
        r.roles.push_back({role, p, BodyStrength(s, role, p)});
      }
    }
  }
  *out = std::move(r);
  return true;
}

// ---- Rest geometry --------------------------------------------------------------------------

struct RestFrame {
  std::vector<glm::quat> rotation;  // world rotations of the rest pose (scale ignored)
  std::vector<glm::vec3> position;  // world positions
};

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

// The way the rig faces at rest, on the ground plane: from its left to its right leg, turned.
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

// The source-to-target alignment: a turn about +Y from the source's facing to the target's, and
// the leg-length scale.
struct Alignment {
  RestFrame source, target;
  glm::quat turn{1.0f, 0.0f, 0.0f, 0.0f};
  float scale = 1.0f;
};

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

// Four-legged at rest: arms whose hands reach within a quarter leg of the feet's height.
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

float Pearson(const std::vector<float>& a, const std::vector<float>& b) {
  const size_t n = std::min(a.size(), b.size());
  if (n < 2) return 0.0f;
  double ma = 0, mb = 0;
  for (size_t i = 0; i < n; ++i) ma += double(a[i]), mb += double(b[i]);
  ma /= double(n), mb /= double(n);
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < n; ++i) {
    const double da = double(a[i]) - ma, db = double(b[i]) - mb;
    sab += da * db, saa += da * da, sbb += db * db;
  }
  if (saa <= 0.0 || sbb <= 0.0) return 0.0f;
  return static_cast<float>(sab / std::sqrt(saa * sbb));
}

std::vector<bool> PlantedFrames(const std::vector<ik::FootContact>& contacts, int frames) {
  std::vector<bool> planted(static_cast<size_t>(frames), false);
  for (const ik::FootContact& c : contacts) {
    for (int f = std::max(0, c.first); f <= c.last && f < frames; ++f) planted[size_t(f)] = true;
  }
  return planted;
}

}  // namespace

// ---- Mapping ------------------------------------------------------------------------------

bool MapJoints(const Character& source, const Character& target, RetargetMapping* mapping,
               std::string* error) {
  const std::string src = "SOURCE " + source.model().source;
  const std::string tgt = "--onto " + target.model().source;
  if (CountLegs(source) == 0 || CountLegs(target) == 0) {
    *error = (CountLegs(source) == 0 ? src : tgt) +
             ": no legs found (no hip-knee-foot chain by humanoid map, name or symmetry), so the "
             "legs cannot be mapped";
    return false;
  }
  const RestFrame rs = Rest(source.skeleton()), rt = Rest(target.skeleton());
  const bool four_s = FourLegged(source, rs), four_t = FourLegged(target, rt);
  if (four_s != four_t) {
    *error = (four_s ? src : tgt) + " stands on four limbs and " + (four_s ? tgt : src) +
             " on two: its front legs cannot be mapped onto arms";
    return false;
  }
  Roles a, b;
  std::string why;
  if (!FindRoles(source, &a, &why)) {
    *error = src + ": no body found (" + why + ")";
    return false;
  }
  if (!FindRoles(target, &b, &why)) {
    *error = tgt + ": no body found (" + why + ")";
    return false;
  }
  RetargetMapping m;
  std::vector<int> source_of(static_cast<size_t>(target.skeleton().joint_count()), -1);
  std::vector<int> strength(source_of.size(), 0);
  auto add = [&](int s, int t, int st) {
    if (s < 0 || t < 0 || source_of[size_t(t)] >= 0) return;
    source_of[size_t(t)] = s;
    strength[size_t(t)] = st;
  };
  for (const Role& rb : b.roles) {
    if (rb.role.rfind("spine.", 0) == 0) continue;
    for (const Role& ra : a.roles) {
      if (ra.role == rb.role) add(ra.joint, rb.joint, std::min(ra.strength, rb.strength));
    }
  }
  // The joints inside the spine, by their place along it.
  const int ns = static_cast<int>(a.spine.size()), nt = static_cast<int>(b.spine.size());
  for (int i = 1; i + 1 < nt; ++i) {
    if (ns < 3) break;
    const float at = float(i) / float(nt - 1);
    const int k = std::clamp(static_cast<int>(std::lround(at * float(ns - 1))), 1, ns - 2);
    const int s = a.spine[size_t(k)], t = b.spine[size_t(i)];
    const int st = std::min(BodyStrength(source.skeleton(), "spine", s),
                            BodyStrength(target.skeleton(), "spine", t));
    add(s, t, std::min(st, 2));
  }
  for (size_t t = 0; t < source_of.size(); ++t) {
    if (source_of[t] >= 0) m.pairs.push_back({source_of[t], int(t), ByName(strength[t])});
  }
  // Limbs one rig has and the other lacks.
  for (const ik::Limb& limb : source.limbs()) {
    if (FindLimb(target, limb.kind, limb.side) == nullptr) {
      m.warnings.push_back("unmapped limb: the source's " + limb.label + " (" +
                           source.skeleton().name(limb.chain.start) +
                           ") has no match in the target");
    }
  }
  for (const ik::Limb& limb : target.limbs()) {
    if (FindLimb(source, limb.kind, limb.side) == nullptr) {
      m.warnings.push_back("unmapped limb: the target's " + limb.label + " (" +
                           target.skeleton().name(limb.chain.start) + ") keeps its rest pose");
    }
  }
  *mapping = std::move(m);
  return true;
}

bool ParseJointMap(const std::string& text, std::vector<std::pair<std::string, std::string>>* map,
                   std::string* error) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    *error = "not a JSON object {\"source joint\": \"target joint\", ...}";
    return false;
  }
  map->clear();
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (!it.value().is_string()) {
      *error = "the value of \"" + it.key() + "\" is not a joint name (a string)";
      return false;
    }
    map->emplace_back(it.key(), it.value().get<std::string>());
  }
  return true;
}

bool ApplyJointMap(const ik::Skeleton& source, const ik::Skeleton& target,
                   const std::vector<std::pair<std::string, std::string>>& map,
                   RetargetMapping* mapping, std::string* error) {
  for (const auto& [s_name, t_name] : map) {
    const int s = source.Find(s_name), t = target.Find(t_name);
    if (s < 0) {
      *error = "\"" + s_name + "\": no such joint in the source";
      return false;
    }
    auto& pairs = mapping->pairs;
    if (t_name.empty()) {  // "": the source joint maps onto nothing
      pairs.erase(std::remove_if(pairs.begin(), pairs.end(),
                                 [s](const RetargetPair& p) { return p.source == s; }),
                  pairs.end());
      continue;
    }
    if (t < 0) {
      *error = "\"" + t_name + "\": no such joint in the target";
      return false;
    }
    pairs.erase(std::remove_if(pairs.begin(), pairs.end(),
                               [t](const RetargetPair& p) { return p.target == t; }),
                pairs.end());
    pairs.push_back({s, t, "user"});
  }
  std::sort(mapping->pairs.begin(), mapping->pairs.end(),
            [](const RetargetPair& x, const RetargetPair& y) { return x.target < y.target; });
  return true;
}

// ---- Transfer -----------------------------------------------------------------------------

bool RetargetClip(const Character& source, int clip_index, const Character& target,
                  const RetargetMapping& mapping, float fps, const std::string& name,
                  assets::Clip* out, RetargetInfo* info, std::string* error) {
  const assets::Clip* clip = source.clip(clip_index);
  if (clip == nullptr) {
    *error = "--anim " + std::to_string(clip_index) + ": the source has " +
             std::to_string(source.clip_count()) + " clips";
    return false;
  }
  if (!(fps > 0.0f) || !std::isfinite(fps)) {
    *error = "the frame rate must be positive";
    return false;
  }
  const ik::Skeleton& ss = source.skeleton();
  const ik::Skeleton& ts = target.skeleton();
  const ik::BodyRig* body = target.body_rig();
  const std::vector<int> source_of = SourceOf(mapping, ts.joint_count());
  const int hips = body != nullptr ? body->hips : -1;
  if (hips < 0 || source_of[size_t(hips)] < 0) {
    *error = "the mapping does not pair the target's hips";
    return false;
  }
  const int source_hips = source_of[size_t(hips)];
  const Alignment al = Align(source, target);
  const glm::quat turn = al.turn, unturn = glm::inverse(al.turn);
  const float k = al.scale;
  auto scaled = [&](const glm::vec3& p) {
    return al.target.position[size_t(hips)] +
           k * (turn * (p - al.source.position[size_t(source_hips)]));
  };

  // The end effectors: every target limb end with a source joint; feet solved when that joint
  // ends a source leg.
  struct Effector {
    const ik::Limb* limb = nullptr;
    int source = -1;
    bool solve = false;
    glm::vec3 offset{0.0f};  // rest stance difference, target minus scaled source
    ik::TwoBoneIkOptions options;
    float reach = 0.0f;  // 0.999 of the leg's length: the ankle's farthest from the hip joint
    // Unsolved ends (hands): measured from the limb's start, the source limb scaled to this one.
    int source_start = -1;
    float limb_ratio = 1.0f;
    double sum = 0.0;
    float max = 0.0f;
  };
  std::vector<Effector> effectors;
  for (int pass = 0; pass < 2; ++pass) {
    for (const ik::Limb& limb : target.limbs()) {
      if ((limb.kind == ik::LimbKind::kLeg) != (pass == 0)) continue;
      const int s = source_of[size_t(limb.chain.end)];
      if (s < 0) continue;
      Effector e;
      e.limb = &limb;
      e.source = s;
      for (const ik::Limb& sl : source.limbs()) {
        if (sl.chain.end != s) continue;
        e.solve = limb.kind == ik::LimbKind::kLeg && sl.kind == ik::LimbKind::kLeg;
        e.source_start = sl.chain.start;
        const auto& ps = al.source.position;
        const auto& pt = al.target.position;
        const float ls = glm::distance(ps[size_t(sl.chain.start)], ps[size_t(sl.chain.mid)]) +
                         glm::distance(ps[size_t(sl.chain.mid)], ps[size_t(sl.chain.end)]);
        const float lt = glm::distance(pt[size_t(limb.chain.start)], pt[size_t(limb.chain.mid)]) +
                         glm::distance(pt[size_t(limb.chain.mid)], pt[size_t(limb.chain.end)]);
        e.limb_ratio = ls > 0.0f ? lt / ls : 1.0f;
      }
      e.offset = al.target.position[size_t(limb.chain.end)] - scaled(al.source.position[size_t(s)]);
      e.options.bend_axis_local = target.BendAxis(limb.chain);
      e.options.hinge = e.options.bend_axis_local.has_value();
      e.options.end_orientation = ik::EndOrientation::kKeepModel;
      const auto& rp = al.target.position;
      e.reach = 0.999f * (glm::distance(rp[size_t(limb.chain.start)], rp[size_t(limb.chain.mid)]) +
                          glm::distance(rp[size_t(limb.chain.mid)], rp[size_t(limb.chain.end)]));
      effectors.push_back(e);
    }
  }

  // Rest poses that point bones differently (A-pose against T-pose): each paired joint with one
  // paired joint below it along its bone turns, at rest, so that its bone points as the source's
  // does; a joint with none or several (a hand, the hips, the chest) turns as its paired parent.
  std::vector<glm::quat> rest_turn(static_cast<size_t>(ts.joint_count()), glm::quat(1, 0, 0, 0));
  {
    std::vector<int> mapped_parent(static_cast<size_t>(ts.joint_count()), -1);
    std::vector<int> child(static_cast<size_t>(ts.joint_count()), -1);
    std::vector<int> children(static_cast<size_t>(ts.joint_count()), 0);
    for (int j = 0; j < ts.joint_count(); ++j) {
      int p = ts.parent(j);
      while (p >= 0 && source_of[size_t(p)] < 0) p = ts.parent(p);
      mapped_parent[size_t(j)] = p;
      if (p < 0 || source_of[size_t(j)] < 0) continue;
      if (!ss.IsAncestorOrSelf(source_of[size_t(p)], source_of[size_t(j)]) ||
          source_of[size_t(p)] == source_of[size_t(j)]) {
        continue;
      }
      ++children[size_t(p)];
      child[size_t(p)] = j;
    }
    for (int j = 0; j < ts.joint_count(); ++j) {
      const int s = source_of[size_t(j)];
      const int p = mapped_parent[size_t(j)];
      if (s < 0) continue;
      if (children[size_t(j)] == 1) {
        const int c = child[size_t(j)];
        const glm::vec3 vt = al.target.position[size_t(c)] - al.target.position[size_t(j)];
        const glm::vec3 vs = turn * (al.source.position[size_t(source_of[size_t(c)])] -
                                     al.source.position[size_t(s)]);
        rest_turn[size_t(j)] = ik::RotationBetween(vt, vs);
      } else if (p >= 0) {
        rest_turn[size_t(j)] = rest_turn[size_t(p)];
      }
    }
  }

  const int frames = std::max(1, static_cast<int>(std::ceil(clip->duration * fps - 1e-3f)));
  // Keyed joints: every paired target joint (rotations) and the hips (translation too).
  std::vector<int> keyed;
  for (int j = 0; j < ts.joint_count(); ++j) {
    if (source_of[size_t(j)] >= 0) keyed.push_back(j);
  }
  assets::Clip result;
  result.name = name;
  result.duration = clip->duration;
  std::vector<int> channel_of(static_cast<size_t>(ts.joint_count()), -1);
  for (int j : keyed) {
    channel_of[size_t(j)] = static_cast<int>(result.channels.size());
    assets::JointAnimation ch;
    ch.joint = j;
    ch.rotation.times.reserve(size_t(frames) + 1);
    ch.rotation.values.reserve(size_t(frames) + 1);
    result.channels.push_back(std::move(ch));
  }

  ik::Pose sp, tp = ik::Pose::Rest(ts);
  std::vector<glm::mat4> sm, tm;
  std::vector<glm::quat> sq, tq(static_cast<size_t>(ts.joint_count()));
  std::vector<glm::quat> source_delta(static_cast<size_t>(ss.joint_count()));
  for (int f = 0; f <= frames; ++f) {
    const float t = f >= frames ? clip->duration : float(f) / fps;
    assets::SampleClip(ss, *clip, t, &sp);
    ik::LocalToModel(ss, sp, &sm);
    WorldRotations(ss, sp, &sq);
    for (int j = 0; j < ts.joint_count(); ++j) {
      const int p = ts.parent(j);
      const glm::quat parent = p < 0 ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : tq[size_t(p)];
      ik::Transform& local = tp.locals[size_t(j)];
      local = ts.rest_locals()[size_t(j)];
      const int s = source_of[size_t(j)];
      if (s >= 0) {
        const glm::quat delta = sq[size_t(s)] * glm::inverse(al.source.rotation[size_t(s)]);
        const glm::quat world =
            turn * delta * unturn * rest_turn[size_t(j)] * al.target.rotation[size_t(j)];
        local.rotation = glm::normalize(glm::inverse(parent) * world);
        if (!ik::IsFinite(local.rotation)) local.rotation = ts.rest_locals()[size_t(j)].rotation;
      }
      tq[size_t(j)] = parent * local.rotation;
    }
    ik::LocalToModel(ts, tp, &tm);
    // The hips travel as the source's, scaled.
    {
      const glm::vec3 goal = scaled(glm::vec3(sm[size_t(source_hips)][3]));
      const int p = ts.parent(hips);
      const glm::mat4 parent = p < 0 ? glm::mat4(1.0f) : tm[size_t(p)];
      const glm::vec3 local = glm::vec3(glm::inverse(parent) * glm::vec4(goal, 1.0f));
      if (ik::IsFinite(local)) tp.locals[size_t(hips)].translation = local;
      ik::LocalToModelFrom(ts, tp, hips, &tm);
    }
    // Where a foot's goal is beyond its leg's reach (the source stretches its leg further than
    // the target's rest proportions allow), the hips drop just enough, as the foot lock does.
    {
      float drop = 0.0f;
      for (const Effector& e : effectors) {
        if (!e.solve) continue;
        const glm::vec3 d = scaled(glm::vec3(sm[size_t(e.source)][3])) + e.offset -
                            glm::vec3(tm[size_t(e.limb->chain.start)][3]);
        const float horizontal = d.x * d.x + d.z * d.z;
        if (d.x * d.x + d.y * d.y + d.z * d.z <= e.reach * e.reach || d.y >= 0.0f) continue;
        const float dy = -d.y - std::sqrt(std::max(0.0f, e.reach * e.reach - horizontal));
        drop = std::max(drop, dy);
      }
      if (drop > 0.0f) {
        const int p = ts.parent(hips);
        const glm::mat4 parent = p < 0 ? glm::mat4(1.0f) : tm[size_t(p)];
        const glm::vec3 goal = glm::vec3(tm[size_t(hips)][3]) - glm::vec3(0.0f, drop, 0.0f);
        const glm::vec3 local = glm::vec3(glm::inverse(parent) * glm::vec4(goal, 1.0f));
        if (ik::IsFinite(local)) tp.locals[size_t(hips)].translation = local;
        ik::LocalToModelFrom(ts, tp, hips, &tm);
      }
    }
    for (Effector& e : effectors) {
      glm::vec3 goal = scaled(glm::vec3(sm[size_t(e.source)][3])) + e.offset;
      if (!e.solve && e.source_start >= 0) {
        goal = glm::vec3(tm[size_t(e.limb->chain.start)][3]) +
               e.limb_ratio * (turn * (glm::vec3(sm[size_t(e.source)][3]) -
                                       glm::vec3(sm[size_t(e.source_start)][3])));
      }
      if (e.solve) {
        ik::TwoBoneTarget target_point;
        target_point.position = goal;
        ik::SolveTwoBoneIkPose(ts, e.limb->chain, target_point, e.options, &tp, &tm);
      }
      const float err = glm::distance(glm::vec3(tm[size_t(e.limb->chain.end)][3]), goal);
      e.sum += double(err);
      e.max = std::max(e.max, err);
    }
    for (int j : keyed) {
      assets::JointAnimation& ch = result.channels[size_t(channel_of[size_t(j)])];
      glm::quat q = tp.locals[size_t(j)].rotation;
      if (!ch.rotation.values.empty() && glm::dot(ch.rotation.values.back(), q) < 0.0f) q = -q;
      ch.rotation.times.push_back(t);
      ch.rotation.values.push_back(q);
      if (j == hips) {
        ch.translation.times.push_back(t);
        ch.translation.values.push_back(tp.locals[size_t(j)].translation);
      }
    }
  }
  assets::PrepareClip(&result);
  *out = std::move(result);
  if (info != nullptr) {
    RetargetInfo i;
    i.scale = k;
    i.fps = fps;
    i.frames = frames;
    for (const Effector& e : effectors) {
      RetargetInfo::Effector r;
      r.limb = e.limb->label;
      r.source = e.source;
      r.target = e.limb->chain.end;
      r.solved = e.solve;
      r.max_error_m = e.max;
      r.mean_error_m = static_cast<float>(e.sum / double(frames + 1));
      i.effectors.push_back(r);
    }
    *info = std::move(i);
  }
  return true;
}

// ---- Measures -----------------------------------------------------------------------------

bool MeasureRetarget(const Character& source, int clip, const Character& result, int result_clip,
                     const RetargetMapping& mapping, const RetargetInfo& info,
                     RetargetReport* report, std::string* error) {
  ClipContacts sc, rc;
  if (!FindClipContacts(source, clip, info.fps, &sc, error)) return false;
  if (!FindClipContacts(result, result_clip, info.fps, &rc, error)) return false;
  const std::vector<int> source_of = SourceOf(mapping, result.skeleton().joint_count());
  RetargetReport r;
  const float k = info.scale;
  const int frames = std::min(sc.source.frames, rc.source.frames) + 1;
  for (size_t i = 0; i < rc.source.legs.size(); ++i) {
    const ik::Limb& leg = rc.source.legs[i];
    const int s_end = source_of[size_t(leg.chain.end)];
    for (size_t m = 0; m < sc.source.legs.size(); ++m) {
      if (sc.source.legs[m].chain.end != s_end) continue;
      RetargetReport::Foot foot;
      foot.source_leg = sc.source.legs[m].label;
      foot.target_leg = leg.label;
      std::vector<float> hs, hr;
      for (int f = 0; f < frames; ++f) {
        hs.push_back(sc.source.ankle[m][size_t(f)].y);
        hr.push_back(rc.source.ankle[i][size_t(f)].y);
      }
      foot.height_correlation = Pearson(hs, hr);
      const std::vector<bool> ps = PlantedFrames(sc.contacts[m], frames);
      const std::vector<bool> pr = PlantedFrames(rc.contacts[i], frames);
      int kept = 0, same = 0;
      for (int f = 0; f < frames; ++f) {
        foot.source_contact_frames += ps[size_t(f)] ? 1 : 0;
        kept += ps[size_t(f)] && pr[size_t(f)] ? 1 : 0;
        same += ps[size_t(f)] == pr[size_t(f)] ? 1 : 0;
      }
      foot.contacts_kept =
          foot.source_contact_frames > 0 ? float(kept) / float(foot.source_contact_frames) : 1.0f;
      foot.planted_agreement = float(same) / float(frames);
      for (const ik::FootContact& c : sc.contacts[m]) {
        foot.source_skate_mm = std::max(foot.source_skate_mm, c.skate * k * 1000.0f);
      }
      for (const ik::FootContact& c : rc.contacts[i]) {
        foot.result_skate_mm = std::max(foot.result_skate_mm, c.skate * 1000.0f);
      }
      foot.sliding_added_mm = foot.result_skate_mm - foot.source_skate_mm;
      r.feet.push_back(foot);
    }
  }
  // Bone-length ratios and rest differences, limb by limb.
  const Alignment al = Align(source, result);
  r.warnings = mapping.warnings;
  for (const ik::Limb& limb : result.limbs()) {
    const int s_end = source_of[size_t(limb.chain.end)];
    const ik::Limb* sl = nullptr;
    for (const ik::Limb& l : source.limbs()) {
      if (l.chain.end == s_end) sl = &l;
    }
    if (sl == nullptr) continue;
    const auto& pt = al.target.position;
    const auto& ps = al.source.position;
    const int tj[3] = {limb.chain.start, limb.chain.mid, limb.chain.end};
    const int sj[3] = {sl->chain.start, sl->chain.mid, sl->chain.end};
    const float lt = glm::distance(pt[size_t(tj[0])], pt[size_t(tj[1])]) +
                     glm::distance(pt[size_t(tj[1])], pt[size_t(tj[2])]);
    const float ls = glm::distance(ps[size_t(sj[0])], ps[size_t(sj[1])]) +
                     glm::distance(ps[size_t(sj[1])], ps[size_t(sj[2])]);
    r.bone_length_ratios.push_back({limb.label, ls > 0.0f ? lt / ls : 0.0f});
    for (int b = 0; b < 2; ++b) {
      const glm::vec3 dt = pt[size_t(tj[b + 1])] - pt[size_t(tj[b])];
      const glm::vec3 ds = al.turn * (ps[size_t(sj[b + 1])] - ps[size_t(sj[b])]);
      const float lens = glm::length(dt) * glm::length(ds);
      if (!(lens > 0.0f)) continue;
      const float deg = glm::degrees(std::acos(std::clamp(glm::dot(dt, ds) / lens, -1.0f, 1.0f)));
      if (deg > 45.0f) {
        char text[64];
        std::snprintf(text, sizeof(text), "%.0f", double(deg));
        r.warnings.push_back(result.skeleton().name(tj[b]) + ": its rest differs from " +
                             source.skeleton().name(sj[b]) + "'s by " + text + " degrees");
      }
    }
  }
  *report = std::move(r);
  return true;
}

}  // namespace app
