// Arm and leg detection by naming conventions, then by topology and mirror symmetry.
#include "ik/limbs.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "ik/internal/joint_names.h"

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
                  {"finger", "thumb", "index", "middle", "ring",    "pinky",  "little", "toe",
                   "toes",   "ik",    "fk",    "pole",   "target",  "tgt",    "ctrl",   "control",
                   "end",    "nub",   "tip",   "twist",  "roll",    "helper", "mch",    "socket",
                   "heel",   "ball",  "ref",   "null",   "effector"});
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

bool ChainUsable(const Context& c, const TwoBoneChain& chain) {
  if (chain.start < 0 || chain.mid < 0 || chain.end < 0) return false;
  const float min_bone = 0.02f * c.size;
  return Distance(c, chain.start, chain.mid) > min_bone &&
         Distance(c, chain.mid, chain.end) > min_bone;
}

// The branch below `first`: it, then repeatedly the child with the largest subtree (the first
// of equals). `subtree`: every joint's subtree size (itself and all its descendants).
std::vector<int> BranchPath(const Context& c, const std::vector<int>& subtree, int first) {
  std::vector<int> path = {first};
  const Skeleton& s = c.skeleton;
  while (path.size() < 10) {
    int best = -1, best_size = 0;
    for (int child : s.children(path.back())) {
      if (!c.candidate[child]) continue;
      if (subtree[child] > best_size) {
        best = child;
        best_size = subtree[child];
      }
    }
    if (best < 0) break;
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

// True when path b is the mirror image of path a (first `count` joints) across their mid-plane.
bool Mirrored(const Context& c, const std::vector<int>& a, const std::vector<int>& b,
              size_t count) {
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

namespace {

using internal::NameTokens;

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
};

// Two mirror-image chains below a common joint.
struct Pair {
  TwoBoneChain a, b;
  float length = 0.0f;
};

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
  return true;
}

// 1. By name: the shallowest foot/ankle and hand/wrist per side.
void FindByName(const Context& c, Found* found) {
  const Skeleton& skeleton = c.skeleton;
  const int n = skeleton.joint_count();
  for (int kind = 0; kind < 2; ++kind) {
    for (int side = 0; side < 3; ++side) {
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
        if (!ChainUsable(c, chain)) continue;
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
      limb.by_name = true;
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
  // Subtree sizes in one pass: parents are stored before their children.
  std::vector<int> subtree(static_cast<size_t>(n), 1);
  for (int j = n - 1; j >= 0; --j) {
    if (skeleton.parent(j) >= 0) subtree[skeleton.parent(j)] += subtree[j];
  }
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
      if (!c.candidate[kids[i]]) continue;
      std::vector<int> path = BranchPath(c, subtree, kids[i]);
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
      if (!Mirrored(c, a, b, count)) continue;
      const int k = BestTriple(c, std::vector<int>(a.begin(), a.begin() + count));
      if (k < 0) continue;
      Pair pair;
      pair.a = {a[k], a[k + 1], a[k + 2]};
      pair.b = {b[k], b[k + 1], b[k + 2]};
      if (!ChainUsable(c, pair.a) || !ChainUsable(c, pair.b)) continue;
      pair.length = Distance(c, a[k], a[k + 1]) + Distance(c, a[k + 1], a[k + 2]);
      pairs.push_back(pair);
    }
  }
  return pairs;
}

// The two longest pairs that do not share joints with each other or with the limbs in `used`.
std::vector<Pair> ChoosePairs(std::vector<Pair> pairs, const std::set<int>& used) {
  std::sort(pairs.begin(), pairs.end(),
            [](const Pair& x, const Pair& y) { return x.length > y.length; });
  std::vector<Pair> chosen;
  std::set<int> pair_joints = used;
  for (const Pair& pair : pairs) {
    if (chosen.size() == 2) break;
    const int joints[6] = {pair.a.start, pair.a.mid, pair.a.end,
                           pair.b.start, pair.b.mid, pair.b.end};
    bool overlaps = false;
    for (int j : joints) overlaps = overlaps || pair_joints.count(j) > 0;
    if (overlaps) continue;
    chosen.push_back(pair);
    pair_joints.insert(std::begin(joints), std::end(joints));
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
      limb.by_name = false;
      found->Take(limb);
    }
  }
}

}  // namespace

std::vector<Limb> DetectLimbs(const Skeleton& skeleton, const std::vector<bool>* is_bone) {
  Context c{skeleton, {}, {}, {}, 1.0f, 0.0f, 0.0f};
  if (!MakeContext(skeleton, is_bone, &c)) return {};
  Found found;
  FindByName(c, &found);
  TakePairs(c, ChoosePairs(MirroredPairs(c), found.used), &found);
  std::vector<Limb> limbs;
  for (int kind = 0; kind < 2; ++kind) {
    for (int side = 0; side < 3; ++side) {
      if (!found.filled[kind][side]) continue;
      found.slots[kind][side].label =
          Label(static_cast<LimbKind>(kind), static_cast<LimbSide>(side));
      limbs.push_back(found.slots[kind][side]);
    }
  }
  return limbs;
}

}  // namespace ik
