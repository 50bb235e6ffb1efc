// Retargeting's joint mapping: the roles of each rig's joints (humanoid map, names, structure),
// paired across the rigs, and a user's map file applied over them.
#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "app/core/retarget.h"
#include "app/core/retarget_rig.h"
#include "ik/body/joint_names.h"

namespace app {

using retargeting::CountLegs;
using retargeting::FindLimb;
using retargeting::FourLegged;
using retargeting::Rest;
using retargeting::RestFrame;

namespace {

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

}  // namespace

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

}  // namespace app
