// The mirror map of a rig and poses reflected with it.
//
// Why the flips: a joint's local frame on the left is rarely the reflection of its counterpart's
// frame on the right (reflections swap handedness, rigs roll their bones as they like), so a
// rotation cannot be copied across. With F the reflection across the plane and Q the rest
// model-space rotations, K_j = Q_jᵀ F Q_m takes joint j's rest frame onto the reflected rest frame
// of its counterpart m. The mirrored pose puts each joint's model frame at F · W_m · K_jᵀ, which in
// local terms (the counterpart of a joint's parent being its counterpart's parent) is
// L'_j = K_p · L_m · K_jᵀ: the pose's rotations turn by orthogonal matrices of determinant -1 on
// both sides, so the result is a proper rotation. Since K_m = K_jᵀ and F² = I, mirroring twice
// multiplies out to the pose again. K is built down the hierarchy as K_j = l_jᵀ · K_p · l_m from
// the rest local rotations l (K of a root's parent is F), which is Q_jᵀ F Q_m written without model
// matrices, and stays exact for a joint left without a partner below one that has one.
#include "ik/body/mirror.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ik/body/joint_names.h"

namespace ik {

namespace {

enum class NameSide { kNone, kLeft, kRight };

struct SideWord {
  const char* left;
  const char* right;
};
constexpr SideWord kSideWords[] = {{"left", "right"}, {"l", "r"}, {"lft", "rgt"}, {"lf", "rt"}};

// The side a word says, and the word of the other side (lower case), or kNone.
NameSide WordSide(const std::string& lower, const char** other) {
  for (const SideWord& w : kSideWords) {
    if (lower == w.left) {
      *other = w.right;
      return NameSide::kLeft;
    }
    if (lower == w.right) {
      *other = w.left;
      return NameSide::kRight;
    }
  }
  return NameSide::kNone;
}

// `word` written in the letter case of `like`: all capitals, a capital first, or lower case.
std::string InCaseOf(const std::string& word, const std::string& like) {
  std::string out = word;
  const bool all_upper = like.size() > 1 && std::all_of(like.begin(), like.end(), [](char c) {
                           return std::isupper(static_cast<unsigned char>(c)) != 0;
                         });
  if (all_upper || (like.size() == 1 && std::isupper(static_cast<unsigned char>(like[0])))) {
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  } else if (!like.empty() && std::isupper(static_cast<unsigned char>(like[0]))) {
    out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  }
  return out;
}

// The side a name says (kNone for none or both).
NameSide SideOfName(const std::string& name) {
  NameSide side = NameSide::kNone;
  for (const NameWord& word : NameWords(name)) {
    const char* other = nullptr;
    const NameSide s = WordSide(word.lower, &other);
    if (s == NameSide::kNone) continue;
    if (side != NameSide::kNone && side != s) return NameSide::kNone;
    side = s;
  }
  return side;
}

glm::dmat3 RestLocalRotation(const Skeleton& skeleton, int joint) {
  const glm::dquat q(skeleton.rest_locals()[static_cast<size_t>(joint)].rotation);
  const double length = glm::length(q);
  if (!(length > 0.0) || !std::isfinite(length)) return glm::dmat3(1.0);
  return glm::mat3_cast(q / length);
}

// Snaps a unit normal onto a model axis when it is within 0.05° of one.
glm::vec3 SnapToAxis(const glm::vec3& n) {
  const float cos_tolerance = std::cos(0.05f * 3.14159265f / 180.0f);
  for (int axis = 0; axis < 3; ++axis) {
    if (std::abs(n[axis]) >= cos_tolerance) {
      glm::vec3 snapped(0.0f);
      snapped[axis] = n[axis] > 0.0f ? 1.0f : -1.0f;
      return snapped;
    }
  }
  return n;
}

}  // namespace

glm::vec3 MirrorMap::MirrorPoint(const glm::vec3& point) const {
  return point - 2.0f * (glm::dot(normal, point) - offset) * normal;
}

glm::vec3 MirrorMap::MirrorDirection(const glm::vec3& direction) const {
  return direction - 2.0f * glm::dot(normal, direction) * normal;
}

std::string MirroredJointName(const std::string& name) {
  const std::vector<NameWord> words = NameWords(name);
  NameSide side = NameSide::kNone;
  std::string out;
  size_t copied = 0;
  for (const NameWord& word : words) {
    const char* other = nullptr;
    const NameSide s = WordSide(word.lower, &other);
    if (s == NameSide::kNone) continue;
    if (side != NameSide::kNone && side != s) return "";
    side = s;
    out += name.substr(copied, word.begin - copied);
    out += InCaseOf(other, name.substr(word.begin, word.end - word.begin));
    copied = word.end;
  }
  if (side == NameSide::kNone) return "";
  out += name.substr(copied);
  return out;
}

MirrorMap BuildMirrorMap(const Skeleton& skeleton, const std::vector<Limb>& limbs) {
  MirrorMap map;
  const int n = skeleton.joint_count();
  if (n == 0) return map;
  std::vector<glm::vec3> positions(static_cast<size_t>(n));
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (int j = 0; j < n; ++j) {
    positions[size_t(j)] = glm::vec3(skeleton.rest_models()[size_t(j)][3]);
    lo = glm::min(lo, positions[size_t(j)]);
    hi = glm::max(hi, positions[size_t(j)]);
  }
  const float size = std::max(glm::length(hi - lo), 1e-6f);
  std::vector<int>& counterpart = map.counterpart;
  counterpart.assign(static_cast<size_t>(n), -1);

  // 1. Pairs by name, parents before children: a pair's parents are one joint or a pair.
  struct Sided {
    int left, right;
  };
  std::vector<Sided> sided;  // pairs whose left joint is known, for the plane
  for (int j = 0; j < n; ++j) {
    if (counterpart[size_t(j)] >= 0) continue;
    const std::string other_name = MirroredJointName(skeleton.name(j));
    if (other_name.empty()) continue;
    const int k = skeleton.Find(other_name);
    if (k < 0 || k == j || counterpart[size_t(k)] >= 0) continue;
    const int pj = skeleton.parent(j), pk = skeleton.parent(k);
    const bool parents_match =
        pj == pk || (pj >= 0 && pk >= 0 && counterpart[size_t(pj)] == pk && pj != pk);
    if (!parents_match) continue;
    counterpart[size_t(j)] = k;
    counterpart[size_t(k)] = j;
    ++map.pairs_by_name;
    const bool j_left = SideOfName(skeleton.name(j)) == NameSide::kLeft;
    sided.push_back(j_left ? Sided{j, k} : Sided{k, j});
  }
  for (const Limb& limb : limbs) {
    if (limb.side != LimbSide::kLeft) continue;
    for (const Limb& other : limbs) {
      if (other.kind != limb.kind || other.side != LimbSide::kRight) continue;
      sided.push_back({limb.chain.start, other.chain.start});
      sided.push_back({limb.chain.mid, other.chain.mid});
      sided.push_back({limb.chain.end, other.chain.end});
    }
  }

  // 2. The plane between the pairs: its normal the sum of their left-minus-right offsets, its
  // offset their mean mid-point.
  glm::vec3 sum(0.0f);
  for (const Sided& s : sided) sum += positions[size_t(s.left)] - positions[size_t(s.right)];
  if (glm::length(sum) > 1e-4f * size) {
    map.normal = SnapToAxis(glm::normalize(sum));
    double offset = 0.0;
    for (const Sided& s : sided) {
      offset += double(
          glm::dot(map.normal, 0.5f * (positions[size_t(s.left)] + positions[size_t(s.right)])));
    }
    map.offset = float(offset / double(sided.size()));
    if (std::abs(map.offset) < 1e-6f * size) map.offset = 0.0f;
    map.found_plane = true;
  } else {
    // No pairs: the X = 0 plane through the first root, each joint its own counterpart.
    map.normal = glm::vec3(1.0f, 0.0f, 0.0f);
    map.offset = positions[0].x;
  }

  // 3. The rest by symmetry, from the root down: a joint pairs with the nearest joint to its
  // reflection among the children of its parent's counterpart (the roots for a root).
  const float tolerance = 0.05f * size;
  std::vector<int> roots;
  for (int j = 0; j < n; ++j) {
    if (skeleton.parent(j) < 0) roots.push_back(j);
  }
  for (int j = 0; j < n; ++j) {
    if (counterpart[size_t(j)] >= 0) continue;
    if (!map.found_plane) {
      counterpart[size_t(j)] = j;
      continue;
    }
    // The joint nearest the reflection of `joint` among those it may pair with: the children of
    // its parent's counterpart (the roots, for a root) not paired yet, itself included.
    auto nearest_to_reflection_of = [&](int joint) {
      const int parent = skeleton.parent(joint);
      const std::vector<int>& candidates =
          parent < 0 ? roots : skeleton.children(counterpart[size_t(parent)]);
      const glm::vec3 reflected = map.MirrorPoint(positions[size_t(joint)]);
      int best = -1;
      float best_distance = tolerance;
      for (int c : candidates) {
        if (counterpart[size_t(c)] >= 0 && c != joint) continue;
        const float d = glm::length(positions[size_t(c)] - reflected);
        if (d <= best_distance) {
          best = c;
          best_distance = d;
        }
      }
      return best;
    };
    const int best = nearest_to_reflection_of(j);
    if (best >= 0 && best != j && nearest_to_reflection_of(best) == j) {
      counterpart[size_t(j)] = best;
      counterpart[size_t(best)] = j;
      ++map.pairs_by_symmetry;
    } else {
      counterpart[size_t(j)] = j;
    }
  }

  // 4. The flips, down the hierarchy: K_j = l_jᵀ · K_p · l_m (K of a root's parent: F), a pair's
  // second joint taking the transpose of the first's so that mirroring twice is exact.
  const glm::dvec3 normal(map.normal);
  const glm::dmat3 reflection = glm::dmat3(1.0) - 2.0 * glm::outerProduct(normal, normal);
  std::vector<glm::dmat3> flips(static_cast<size_t>(n), glm::dmat3(1.0));
  std::vector<bool> done(static_cast<size_t>(n), false);
  for (int j = 0; j < n; ++j) {
    if (done[size_t(j)]) continue;
    const int m = counterpart[size_t(j)];
    const int parent = skeleton.parent(j);
    const glm::dmat3 k_parent = parent < 0 ? reflection : flips[size_t(parent)];
    glm::dmat3 k =
        glm::transpose(RestLocalRotation(skeleton, j)) * k_parent * RestLocalRotation(skeleton, m);
    if (m == j) {
      k = 0.5 * (k + glm::transpose(k));
    } else {
      flips[size_t(m)] = glm::transpose(k);
      done[size_t(m)] = true;
    }
    flips[size_t(j)] = k;
    done[size_t(j)] = true;
  }
  map.flips.resize(static_cast<size_t>(n));
  for (int j = 0; j < n; ++j) map.flips[size_t(j)] = glm::mat3(flips[size_t(j)]);
  return map;
}

void MirrorPose(const MirrorMap& map, const Skeleton& skeleton, const Pose& pose, Pose* mirrored) {
  const int n = skeleton.joint_count();
  if (map.counterpart.size() != size_t(n) || pose.locals.size() != size_t(n)) return;
  const std::vector<Transform> source = pose.locals;  // `mirrored` may be `pose`
  mirrored->locals.resize(size_t(n));
  const glm::mat3 reflection = glm::mat3(1.0f) - 2.0f * glm::outerProduct(map.normal, map.normal);
  for (int j = 0; j < n; ++j) {
    const int m = map.counterpart[size_t(j)];
    const int parent = skeleton.parent(j);
    const Transform& from = source[size_t(m)];
    const glm::mat3& k = map.flips[size_t(j)];
    const glm::mat3& k_parent = parent < 0 ? reflection : map.flips[size_t(parent)];
    Transform& to = mirrored->locals[size_t(j)];
    const glm::mat3 rotation =
        k_parent * glm::mat3_cast(glm::normalize(from.rotation)) * glm::transpose(k);
    glm::quat q = glm::normalize(glm::quat_cast(rotation));
    // The hemisphere of the joint's rest rotation, so that keys made from mirrored poses
    // interpolate the short way.
    if (glm::dot(q, skeleton.rest_locals()[size_t(j)].rotation) < 0.0f) q = -q;
    to.rotation = q;
    to.translation = k_parent * from.translation;
    if (parent < 0) to.translation += 2.0f * map.offset * map.normal;
    // The scale along each of the joint's axes: diag(K · diag(s) · Kᵀ).
    for (int axis = 0; axis < 3; ++axis) {
      float s = 0.0f;
      for (int c = 0; c < 3; ++c) s += k[c][axis] * k[c][axis] * from.scale[c];
      to.scale[axis] = s;
    }
  }
}

}  // namespace ik
