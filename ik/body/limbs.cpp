// Arm and leg detection from a declared humanoid map, by naming conventions, then by topology and
// mirror symmetry.
#include "ik/body/limbs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "ik/body/joint_names.h"

namespace ik {

namespace {

bool HasToken(const std::vector<std::string>& tokens, std::initializer_list<const char*> words) {
  for (const std::string& t : tokens)
    for (const char* w : words)
      if (t == w) return true;
  return false;
}

// Joints that are never a limb's end: fingers, toes, and rig helpers.
bool IsExcludedEnd(const std::vector<std::string>& tokens) {
  return HasToken(tokens,
                  {"finger", "thumb", "index", "middle", "ring",     "pinky",  "little", "toe",
                   "toes",   "ik",    "fk",    "pole",   "target",   "tgt",    "ctrl",   "control",
                   "end",    "nub",   "tip",   "twist",  "roll",     "helper", "mch",    "socket",
                   "heel",   "ball",  "ref",   "null",   "effector", "palm",   "goal"});
}

// Rig controls by name: IK targets, poles and control handles exported as joints. They are never
// part of a limb; outside a limb's subtree they are offered as its target and pole.
bool IsControlName(const std::vector<std::string>& tokens) {
  return HasToken(tokens, {"ik", "pole", "target", "tgt", "ctrl", "ctl", "control", "goal"});
}

bool IsPoleName(const std::vector<std::string>& tokens) {
  return HasToken(tokens, {"pole", "knee", "elbow"});
}

// Joints skipped when walking up from an end: they ride along a bone without bending it.
bool IsTwistJoint(const std::vector<std::string>& tokens) {
  return HasToken(tokens, {"twist", "roll", "helper", "bend"});
}

LimbSide SideFromTokens(const std::vector<std::string>& tokens) {
  if (HasToken(tokens, {"left", "l", "lft", "lf"})) return LimbSide::kLeft;
  if (HasToken(tokens, {"right", "r", "rt", "rgt"})) return LimbSide::kRight;
  return LimbSide::kCenter;
}

std::string Label(LimbKind kind, LimbSide side) {
  const std::string base = kind == LimbKind::kLeg ? "Leg" : "Arm";
  switch (side) {
    case LimbSide::kLeft:
      return "Left" + base;
    case LimbSide::kRight:
      return "Right" + base;
    case LimbSide::kCenter:
      break;
  }
  return base;
}

struct Context {
  const Skeleton& skeleton;
  std::vector<glm::vec3> positions;  // rest, model space
  std::vector<std::vector<std::string>> tokens;
  std::vector<bool> candidate;  // may take part in a limb
  float size = 1.0f;            // diagonal of the joints' bounding box
  float min_y = 0.0f, max_y = 0.0f;
  // The body: the hips (declared, named, or where the legs and spine branch), -1 when not found.
  int body = -1;
  // The body and its ancestors (the hips, the root bone, the armature): never in a limb.
  std::vector<bool> trunk;
  // Joints named as rig controls (IsControlName): never in a limb found by name or symmetry.
  std::vector<bool> control;
  // Candidate joints in each joint's subtree, itself included.
  std::vector<int> subtree;
};

float Distance(const Context& c, int a, int b) {
  return glm::length(c.positions[a] - c.positions[b]);
}

// The chain ending at `end`: the nearest ancestors that are not twist joints and not at the same
// place as the joint below them. -1 in start when there is none.
TwoBoneChain ChainUpFrom(const Context& c, int end) {
  TwoBoneChain chain;
  chain.end = end;
  const float min_offset = 1e-4f * c.size;
  int below = end;
  int* slots[2] = {&chain.mid, &chain.start};
  int slot = 0;
  for (int j = c.skeleton.parent(end); j >= 0 && slot < 2; j = c.skeleton.parent(j)) {
    if (IsTwistJoint(c.tokens[j])) continue;
    if (Distance(c, j, below) < min_offset) continue;
    *slots[slot++] = j;
    below = j;
  }
  return chain;
}

// A chain of limb joints: none is the body or above it; unless `declared` (the humanoid map says
// so), none is a rig control either.
bool ChainUsable(const Context& c, const TwoBoneChain& chain, bool declared = false) {
  if (chain.start < 0 || chain.mid < 0 || chain.end < 0) return false;
  for (int j : {chain.start, chain.mid, chain.end}) {
    if (c.trunk[j] || (!declared && c.control[j])) return false;
  }
  const float min_bone = 0.02f * c.size;
  return Distance(c, chain.start, chain.mid) > min_bone &&
         Distance(c, chain.mid, chain.end) > min_bone;
}

bool LimbCandidate(const Context& c, int joint) {
  return c.candidate[joint] && !c.trunk[joint] && !c.control[joint];
}

// The branch below `first`: it, then repeatedly the child with the largest subtree (the first of
// equals; Context::subtree). At a fork (two or more children that each carry a chain of their
// own, as a forearm forking straight into palm and finger chains) the branch ends with the child
// nearest the children's middle: the limb ends where it forks, and its left and right picks are
// mirror images.
std::vector<int> BranchPath(const Context& c, int first) {
  std::vector<int> path = {first};
  const Skeleton& s = c.skeleton;
  while (path.size() < 10) {
    int best = -1, best_size = 0, branches = 0;
    glm::vec3 middle(0.0f);
    int kids = 0;
    for (int child : s.children(path.back())) {
      if (!LimbCandidate(c, child)) continue;
      const int size = c.subtree[child];
      if (size >= 2) ++branches;
      middle += c.positions[child];
      ++kids;
      if (size > best_size) {
        best = child;
        best_size = size;
      }
    }
    if (best < 0) break;
    if (branches >= 2 && path.size() > 1) {
      middle /= static_cast<float>(kids);
      int nearest = -1;
      float nearest_distance = 0.0f;
      for (int child : s.children(path.back())) {
        if (!LimbCandidate(c, child)) continue;
        const float d = glm::length(c.positions[child] - middle);
        if (nearest < 0 || d < nearest_distance) {
          nearest = child;
          nearest_distance = d;
        }
      }
      path.push_back(nearest);
      break;
    }
    path.push_back(best);
  }
  return path;
}

// Index k of the best two-bone triple path[k], path[k+1], path[k+2], or -1.
int BestTriple(const Context& c, const std::vector<int>& path) {
  int best = -1;
  float best_length = 0.0f;
  const float min_bone = 0.02f * c.size;
  for (size_t k = 0; k + 2 < path.size(); ++k) {
    const float upper = Distance(c, path[k], path[k + 1]);
    const float lower = Distance(c, path[k + 1], path[k + 2]);
    if (upper < min_bone || lower < min_bone) continue;
    if (upper > 2.0f * lower || lower > 2.0f * upper) continue;
    if (upper + lower > best_length) {
      best_length = upper + lower;
      best = static_cast<int>(k);
    }
  }
  return best;
}

// True when path b is the mirror image of path a (first `count` joints) across their mid-plane;
// *plane_normal then is that plane's normal (from b toward a).
bool Mirrored(const Context& c, const std::vector<int>& a, const std::vector<int>& b, size_t count,
              glm::vec3* plane_normal) {
  glm::vec3 normal(0.0f), middle(0.0f);
  bool found_plane = false;
  for (size_t k = 0; k < count; ++k) {
    const glm::vec3 d = c.positions[a[k]] - c.positions[b[k]];
    if (glm::length(d) > 0.01f * c.size) {
      normal = glm::normalize(d);
      middle = 0.5f * (c.positions[a[k]] + c.positions[b[k]]);
      found_plane = true;
      break;
    }
  }
  if (!found_plane) return false;
  const float tolerance = 0.05f * c.size;
  for (size_t k = 0; k < count; ++k) {
    const glm::vec3 p = c.positions[a[k]];
    const glm::vec3 reflected = p - 2.0f * glm::dot(p - middle, normal) * normal;
    if (glm::length(reflected - c.positions[b[k]]) > tolerance) return false;
  }
  *plane_normal = normal;
  return true;
}

}  // namespace

const char* LimbKindName(LimbKind kind) { return kind == LimbKind::kLeg ? "leg" : "arm"; }

const char* LimbSideName(LimbSide side) {
  switch (side) {
    case LimbSide::kLeft:
      return "left";
    case LimbSide::kRight:
      return "right";
    case LimbSide::kCenter:
      break;
  }
  return "center";
}

const char* LimbFoundByName(LimbFoundBy found_by) {
  switch (found_by) {
    case LimbFoundBy::kHumanoid:
      return "humanoid";
    case LimbFoundBy::kName:
      return "name";
    case LimbFoundBy::kUser:
      return "user";
    case LimbFoundBy::kSymmetry:
      break;
  }
  return "symmetry";
}

namespace {

// The limbs found so far: slots[kind][side], and the joints they use.
struct Found {
  Limb slots[2][3];
  bool filled[2][3] = {};
  std::set<int> used;

  void Take(const Limb& limb) {
    const int k = static_cast<int>(limb.kind), s = static_cast<int>(limb.side);
    filled[k][s] = true;
    slots[k][s] = limb;
    used.insert({limb.chain.start, limb.chain.mid, limb.chain.end});
  }

  std::vector<TwoBoneChain> Chains() const {
    std::vector<TwoBoneChain> chains;
    for (int k = 0; k < 2; ++k)
      for (int s = 0; s < 3; ++s)
        if (filled[k][s]) chains.push_back(slots[k][s].chain);
    return chains;
  }

  // The body's left-to-right axis as the found left and right limbs show it (their starts), or
  // zero when no left/right pair was found.
  glm::vec3 SideAxis(const std::vector<glm::vec3>& positions) const {
    for (int k = 0; k < 2; ++k) {
      if (!filled[k][0] || !filled[k][1]) continue;
      const glm::vec3 d = positions[slots[k][0].chain.start] - positions[slots[k][1].chain.start];
      if (glm::length(d) > 0.0f) return glm::normalize(d);
    }
    return glm::vec3(0.0f);
  }
};

// True when `chain` shares a joint with one of `taken`, lies inside one (the fingers of a found
// arm) or holds one below it.
bool Overlaps(const Skeleton& skeleton, const std::vector<TwoBoneChain>& taken,
              const TwoBoneChain& chain) {
  for (const TwoBoneChain& other : taken) {
    for (int j : {chain.start, chain.mid, chain.end}) {
      if (skeleton.IsAncestorOrSelf(other.start, j) || skeleton.IsAncestorOrSelf(j, other.start)) {
        return true;
      }
    }
  }
  return false;
}

// Two mirror-image chains below a common joint.
struct Pair {
  TwoBoneChain a, b;
  float length = 0.0f;
  int split_depth = 0;     // depth of the joint they branch from
  glm::vec3 normal{0.0f};  // their mirror plane's normal
};

// The body's root joint (the hips): the humanoid map's hips; else the shallowest joint named
// hips or pelvis (or a hip without a side); else the shallowest joint where three branches of
// three or more joints start (the legs and the spine). -1 when none.
int FindBody(const Context& c) {
  const Skeleton& skeleton = c.skeleton;
  const int declared = skeleton.HumanoidJoint("hips");
  if (declared >= 0) return declared;
  const int n = skeleton.joint_count();
  int best = -1;
  for (int i = 0; i < n; ++i) {
    const auto& t = c.tokens[i];
    if (c.control[i] || IsExcludedEnd(t)) continue;
    const bool named = HasToken(t, {"hips", "pelvis"}) ||
                       (HasToken(t, {"hip"}) && SideFromTokens(t) == LimbSide::kCenter);
    if (named && (best < 0 || skeleton.Depth(i) < skeleton.Depth(best))) best = i;
  }
  if (best >= 0) return best;
  for (int i = 0; i < n; ++i) {
    int branches = 0;
    for (int child : skeleton.children(i)) branches += c.subtree[child] >= 3 ? 1 : 0;
    if (branches >= 3 && (best < 0 || skeleton.Depth(i) < skeleton.Depth(best))) best = i;
  }
  return best;
}

// Fills the context: rest positions, name tokens, candidates and the candidates' extent. False
// when there is nothing to look at.
bool MakeContext(const Skeleton& skeleton, const std::vector<bool>* is_bone, Context* context) {
  Context& c = *context;
  const int n = skeleton.joint_count();
  if (n < 3) return false;
  const bool use_bones = is_bone && static_cast<int>(is_bone->size()) == n &&
                         std::find(is_bone->begin(), is_bone->end(), true) != is_bone->end();
  c.positions.resize(n);
  c.tokens.resize(n);
  c.candidate.resize(n);
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (int i = 0; i < n; ++i) {
    c.positions[i] = glm::vec3(skeleton.rest_models()[i][3]);
    c.tokens[i] = NameTokens(skeleton.name(i));
    c.candidate[i] = !use_bones || (*is_bone)[i];
    if (c.candidate[i]) {
      lo = glm::min(lo, c.positions[i]);
      hi = glm::max(hi, c.positions[i]);
    }
  }
  if (lo.x > hi.x) return false;
  c.size = std::max(glm::length(hi - lo), 1e-6f);
  c.min_y = lo.y;
  c.max_y = hi.y;
  c.control.resize(n);
  for (int i = 0; i < n; ++i) c.control[i] = IsControlName(c.tokens[i]);
  // Parents come before children: one backward pass sums the subtrees.
  c.subtree.assign(n, 0);
  for (int i = n - 1; i >= 0; --i) {
    if (c.candidate[i] && !c.control[i]) ++c.subtree[i];
    if (skeleton.parent(i) >= 0) c.subtree[skeleton.parent(i)] += c.subtree[i];
  }
  c.body = FindBody(c);
  c.trunk.assign(n, false);
  for (int j = c.body; j >= 0; j = skeleton.parent(j)) c.trunk[j] = true;
  return true;
}

// 0. From the humanoid map: each limb whose three joints it declares, one below the other.
void FindByHumanoid(const Context& c, Found* found) {
  const Skeleton& skeleton = c.skeleton;
  if (skeleton.humanoid().empty()) return;
  static const char* const kBones[2][2][3] = {{{"leftUpperLeg", "leftLowerLeg", "leftFoot"},
                                               {"rightUpperLeg", "rightLowerLeg", "rightFoot"}},
                                              {{"leftUpperArm", "leftLowerArm", "leftHand"},
                                               {"rightUpperArm", "rightLowerArm", "rightHand"}}};
  for (int kind = 0; kind < 2; ++kind) {
    for (int side = 0; side < 2; ++side) {
      TwoBoneChain chain;
      chain.start = skeleton.HumanoidJoint(kBones[kind][side][0]);
      chain.mid = skeleton.HumanoidJoint(kBones[kind][side][1]);
      chain.end = skeleton.HumanoidJoint(kBones[kind][side][2]);
      if (chain.start < 0 || chain.mid < 0 || chain.end < 0 || chain.start == chain.mid ||
          chain.mid == chain.end || !skeleton.IsAncestorOrSelf(chain.start, chain.mid) ||
          !skeleton.IsAncestorOrSelf(chain.mid, chain.end) || !ChainUsable(c, chain)) {
        continue;
      }
      Limb limb;
      limb.kind = static_cast<LimbKind>(kind);
      limb.side = side == 0 ? LimbSide::kLeft : LimbSide::kRight;
      limb.chain = chain;
      limb.found_by = LimbFoundBy::kHumanoid;
      found->Take(limb);
    }
  }
}

// 1. By name: the shallowest foot/ankle and hand/wrist per side.
void FindByName(const Context& c, Found* found) {
  const Skeleton& skeleton = c.skeleton;
  const int n = skeleton.joint_count();
  for (int kind = 0; kind < 2; ++kind) {
    for (int side = 0; side < 3; ++side) {
      if (found->filled[kind][side]) continue;
      int best = -1;
      TwoBoneChain best_chain;
      for (int i = 0; i < n; ++i) {
        if (!c.candidate[i] || found->used.count(i)) continue;
        const auto& t = c.tokens[i];
        const bool end_word =
            kind == 0 ? HasToken(t, {"foot", "ankle"}) : HasToken(t, {"hand", "wrist"});
        if (!end_word || IsExcludedEnd(t)) continue;
        if (static_cast<int>(SideFromTokens(t)) != side) continue;
        const TwoBoneChain chain = ChainUpFrom(c, i);
        if (!ChainUsable(c, chain) || Overlaps(skeleton, found->Chains(), chain)) continue;
        if (best < 0 || skeleton.Depth(i) < skeleton.Depth(best)) {
          best = i;
          best_chain = chain;
        }
      }
      if (best < 0) continue;
      Limb limb;
      limb.kind = static_cast<LimbKind>(kind);
      limb.side = static_cast<LimbSide>(side);
      limb.chain = best_chain;
      limb.found_by = LimbFoundBy::kName;
      found->Take(limb);
    }
  }
}

// Most mirror tests per branch (against the branches after it whose first bone is about as long):
// a body joint has a handful of branches; a joint with thousands of alike ones (a hostile file)
// stays linear, each of them paired with its nearest few.
constexpr size_t kMaxPartnersPerBranch = 8;

// 2. By topology: mirror-image branches below a common joint. Each child's branch is walked once
// and the branches are bucketed by the length of their first bone before pairing (a mirror image
// keeps every length, within the mirror test's tolerance), so a joint with many children costs
// linear time, not quadratic. Pairs come out in the order of a test of every pair (parent, then
// first child, then second child in child order).
std::vector<Pair> MirroredPairs(const Context& c) {
  const Skeleton& skeleton = c.skeleton;
  const int n = skeleton.joint_count();
  // Two points of a mirror pair are each within 0.05 · size of the other's reflection: lengths
  // differ by at most 0.1 · size (and a little rounding).
  const float window = 0.1f * c.size * 1.001f;
  std::vector<Pair> pairs;
  struct Branch {
    size_t kid;  // index among the parent's children
    float first_bone;
    std::vector<int> path;
  };
  std::vector<Branch> branches;
  std::vector<size_t> by_length;
  std::vector<std::pair<size_t, size_t>> candidates;
  for (int p = 0; p < n; ++p) {
    const std::vector<int>& kids = skeleton.children(p);
    if (kids.size() < 2) continue;
    branches.clear();
    for (size_t i = 0; i < kids.size(); ++i) {
      if (!LimbCandidate(c, kids[i])) continue;
      std::vector<int> path = BranchPath(c, kids[i]);
      if (path.size() < 3) continue;  // no two bones: never part of a pair
      const float first_bone = Distance(c, path[0], path[1]);
      branches.push_back({i, first_bone, std::move(path)});
    }
    if (branches.size() < 2) continue;
    by_length.resize(branches.size());
    for (size_t b = 0; b < branches.size(); ++b) by_length[b] = b;
    std::sort(by_length.begin(), by_length.end(), [&](size_t x, size_t y) {
      return branches[x].first_bone < branches[y].first_bone ||
             (branches[x].first_bone == branches[y].first_bone && x < y);
    });
    candidates.clear();
    for (size_t s = 0; s < by_length.size(); ++s) {
      const Branch& x = branches[by_length[s]];
      for (size_t t = s + 1, tested = 0; t < by_length.size() && tested < kMaxPartnersPerBranch;
           ++t, ++tested) {
        const Branch& y = branches[by_length[t]];
        if (y.first_bone - x.first_bone > window) break;
        candidates.emplace_back(std::min(by_length[s], by_length[t]),
                                std::max(by_length[s], by_length[t]));
      }
    }
    std::sort(candidates.begin(), candidates.end());
    for (const auto& [first, second] : candidates) {
      const std::vector<int>& a = branches[first].path;
      const std::vector<int>& b = branches[second].path;
      const size_t count = std::min(a.size(), b.size());
      Pair pair;
      if (!Mirrored(c, a, b, count, &pair.normal)) continue;
      const int k = BestTriple(c, std::vector<int>(a.begin(), a.begin() + count));
      if (k < 0) continue;
      pair.a = {a[k], a[k + 1], a[k + 2]};
      pair.b = {b[k], b[k + 1], b[k + 2]};
      if (!ChainUsable(c, pair.a) || !ChainUsable(c, pair.b)) continue;
      pair.length = Distance(c, a[k], a[k + 1]) + Distance(c, a[k + 1], a[k + 2]);
      pair.split_depth = skeleton.Depth(p);
      pairs.push_back(pair);
    }
  }
  return pairs;
}

// At most two pairs, nearest the body first (the legs branch at the hips, the arms at the chest,
// fingers deeper), the longest first among equals. A pair is left out when it shares joints with
// a chosen pair or a limb already found, lies inside one (when the real arm exists its fingers
// are no limbs), or holds one; and when it mirrors across another plane than the body's left and
// right (two fingers of one hand are never the left and right arms).
std::vector<Pair> ChoosePairs(const Context& c, std::vector<Pair> pairs, const Found& found) {
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) {
    if (x.split_depth != y.split_depth) return x.split_depth < y.split_depth;
    return x.length > y.length;
  });
  std::vector<Pair> chosen;
  std::vector<TwoBoneChain> taken = found.Chains();
  glm::vec3 axis = found.SideAxis(c.positions);
  for (const Pair& pair : pairs) {
    if (chosen.size() == 2) break;
    if (Overlaps(c.skeleton, taken, pair.a) || Overlaps(c.skeleton, taken, pair.b)) continue;
    if (glm::length(axis) > 0.0f && std::abs(glm::dot(axis, pair.normal)) < 0.9f) continue;
    if (glm::length(axis) == 0.0f) axis = pair.normal;
    chosen.push_back(pair);
    taken.push_back(pair.a);
    taken.push_back(pair.b);
  }
  return chosen;
}

// Names the chosen pairs (legs or arms, left or right) and fills the slots names left empty.
void TakePairs(const Context& c, const std::vector<Pair>& chosen, Found* found) {
  if (chosen.empty()) return;
  const Skeleton& skeleton = c.skeleton;
  // Legs are the lower pair; with one pair, legs when it starts in the lower half.
  auto start_y = [&](const Pair& pr) {
    return 0.5f * (c.positions[pr.a.start].y + c.positions[pr.b.start].y);
  };
  std::vector<LimbKind> kinds(chosen.size());
  if (chosen.size() == 2) {
    const bool first_lower = start_y(chosen[0]) < start_y(chosen[1]);
    kinds[0] = first_lower ? LimbKind::kLeg : LimbKind::kArm;
    kinds[1] = first_lower ? LimbKind::kArm : LimbKind::kLeg;
  } else {
    kinds[0] = start_y(chosen[0]) < 0.5f * (c.min_y + c.max_y) ? LimbKind::kLeg : LimbKind::kArm;
  }
  // Forward from the toes of the legs (the joint below each foot), else +Z.
  glm::vec3 forward(0.0f);
  for (size_t i = 0; i < chosen.size(); ++i) {
    if (kinds[i] != LimbKind::kLeg) continue;
    for (int end : {chosen[i].a.end, chosen[i].b.end}) {
      for (int toe : skeleton.children(end)) {
        glm::vec3 d = c.positions[toe] - c.positions[end];
        d.y = 0.0f;
        forward += d;
      }
    }
  }
  if (glm::length(forward) < 1e-3f * c.size) forward = glm::vec3(0.0f, 0.0f, 1.0f);
  const glm::vec3 left = glm::cross(glm::vec3(0.0f, 1.0f, 0.0f), glm::normalize(forward));
  for (size_t i = 0; i < chosen.size(); ++i) {
    const bool a_left =
        glm::dot(c.positions[chosen[i].a.end] - c.positions[chosen[i].b.end], left) > 0.0f;
    const TwoBoneChain chains[2] = {a_left ? chosen[i].a : chosen[i].b,
                                    a_left ? chosen[i].b : chosen[i].a};
    const LimbSide sides[2] = {LimbSide::kLeft, LimbSide::kRight};
    for (int s = 0; s < 2; ++s) {
      if (found->filled[static_cast<int>(kinds[i])][static_cast<int>(sides[s])]) continue;
      Limb limb;
      limb.kind = kinds[i];
      limb.side = sides[s];
      limb.chain = chains[s];
      limb.found_by = LimbFoundBy::kSymmetry;
      found->Take(limb);
    }
  }
}

// 3. The rig's own IK controls, offered as the limbs' targets and poles: joints named as controls
// or bones hanging beside the body (neither the body, above it nor below it), outside every limb
// and holding none. A limb's target is the control nearest its end, within a tenth of its length;
// its pole the control nearest its mid joint, within its length and off the start-end line, those
// named as poles first.
void FindControls(const Context& c, std::vector<Limb>* limbs) {
  const Skeleton& skeleton = c.skeleton;
  const int n = skeleton.joint_count();
  std::vector<TwoBoneChain> chains;
  for (const Limb& limb : *limbs) chains.push_back(limb.chain);
  std::vector<bool> usable(static_cast<size_t>(n), false);
  for (int j = 0; j < n; ++j) {
    if (c.trunk[j] || Overlaps(skeleton, chains, {j, j, j})) continue;
    const bool beside = c.body >= 0 && !skeleton.IsAncestorOrSelf(c.body, j);
    usable[static_cast<size_t>(j)] = c.control[j] || (beside && c.candidate[j]);
  }
  std::set<int> offered;
  for (Limb& limb : *limbs) {
    const TwoBoneChain& ch = limb.chain;
    const float length = Distance(c, ch.start, ch.mid) + Distance(c, ch.mid, ch.end);
    float best = 0.1f * length;
    for (int j = 0; j < n; ++j) {
      if (!usable[static_cast<size_t>(j)] || offered.count(j) || IsPoleName(c.tokens[j])) continue;
      const float d = Distance(c, j, ch.end);
      if (d <= best) {
        best = d;
        limb.target = j;
      }
    }
    if (limb.target >= 0) offered.insert(limb.target);
    const glm::vec3 start = c.positions[ch.start];
    const glm::vec3 line = c.positions[ch.end] - start;
    const float line_length = glm::length(line);
    bool best_named = false;
    float best_pole = length;
    for (int j = 0; j < n; ++j) {
      if (!usable[static_cast<size_t>(j)] || offered.count(j)) continue;
      const glm::vec3 p = c.positions[j];
      const float off_line =
          line_length > 0.0f ? glm::length(glm::cross(line, p - start)) / line_length : 0.0f;
      if (off_line < 0.05f * length) continue;
      const float d = Distance(c, j, ch.mid);
      if (d > length || d > Distance(c, j, ch.end) || d > Distance(c, j, ch.start)) continue;
      const bool named = IsPoleName(c.tokens[j]);
      if (named < best_named || (named == best_named && d > best_pole)) continue;
      best_named = named;
      best_pole = d;
      limb.pole = j;
    }
    if (limb.pole >= 0) offered.insert(limb.pole);
  }
}

}  // namespace

std::vector<Limb> DetectLimbs(const Skeleton& skeleton, const std::vector<bool>* is_bone) {
  Context c{skeleton, {}, {}, {}, 1.0f, 0.0f, 0.0f, -1, {}, {}, {}};
  if (!MakeContext(skeleton, is_bone, &c)) return {};
  Found found;
  FindByHumanoid(c, &found);
  FindByName(c, &found);
  TakePairs(c, ChoosePairs(c, MirroredPairs(c), found), &found);
  std::vector<Limb> limbs;
  for (int kind = 0; kind < 2; ++kind) {
    for (int side = 0; side < 3; ++side) {
      if (!found.filled[kind][side]) continue;
      found.slots[kind][side].label =
          Label(static_cast<LimbKind>(kind), static_cast<LimbSide>(side));
      limbs.push_back(found.slots[kind][side]);
    }
  }
  FindControls(c, &limbs);
  return limbs;
}

bool ParseLimbLabel(const std::string& label, LimbKind* kind, LimbSide* side) {
  for (int k = 0; k < 2; ++k) {
    for (int d = 0; d < 3; ++d) {
      if (label == Label(static_cast<LimbKind>(k), static_cast<LimbSide>(d))) {
        *kind = static_cast<LimbKind>(k);
        *side = static_cast<LimbSide>(d);
        return true;
      }
    }
  }
  return false;
}

void ApplyLimbPicks(const Skeleton& skeleton, const std::vector<LimbPick>& picks,
                    std::vector<Limb>* limbs, std::vector<std::string>* problems) {
  for (const LimbPick& pick : picks) {
    Limb limb;
    std::string why;
    if (!ParseLimbLabel(pick.label, &limb.kind, &limb.side)) {
      if (problems) problems->push_back(pick.label + ": not a limb (LeftLeg, RightArm, ...)");
      continue;
    }
    if (!pick.chain.Validate(skeleton, &why)) {
      if (problems) problems->push_back(pick.label + ": " + why);
      continue;
    }
    limb.label = pick.label;
    limb.chain = pick.chain;
    limb.found_by = LimbFoundBy::kUser;
    auto same = std::find_if(limbs->begin(), limbs->end(),
                             [&](const Limb& l) { return l.label == pick.label; });
    if (same != limbs->end()) {
      limb.target = same->target;
      limb.pole = same->pole;
      *same = limb;
    } else {
      limbs->push_back(limb);
    }
  }
  std::stable_sort(limbs->begin(), limbs->end(), [](const Limb& a, const Limb& b) {
    return std::make_pair(int(a.kind), int(a.side)) < std::make_pair(int(b.kind), int(b.side));
  });
}

}  // namespace ik
