// Mesh clean-up after import: normals rebuilt from the faces, unusable texture coordinates dropped,
// skin influences kept to eight and normalised, identical vertices welded in linear time.
#include "assets/model/mesh_cleanup.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

namespace assets {

std::vector<glm::vec3> FaceNormals(const std::vector<glm::vec3>& positions,
                                   const std::vector<uint32_t>& indices) {
  std::vector<glm::vec3> sum(positions.size(), glm::vec3(0.0f));
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    const glm::vec3& a = positions[indices[t]];
    const glm::vec3& b = positions[indices[t + 1]];
    const glm::vec3& c = positions[indices[t + 2]];
    const glm::vec3 n = glm::cross(b - a, c - a);
    for (int k = 0; k < 3; ++k) sum[indices[t + k]] += n;
  }
  for (glm::vec3& n : sum) {
    const float len = glm::length(n);
    n = len > 1e-30f && std::isfinite(len) ? n / len : glm::vec3(0.0f, 1.0f, 0.0f);
  }
  return sum;
}

void RepairNormals(Mesh* mesh, bool had_normals, std::vector<uint8_t>* flags) {
  std::vector<glm::vec3> face_normals;
  for (size_t i = 0; i < mesh->normals.size(); ++i) {
    glm::vec3& v = mesh->normals[i];
    const float len = glm::length(v);
    if (std::isfinite(len) && len > 1e-12f) {
      v /= len;
      continue;
    }
    if (face_normals.empty()) face_normals = FaceNormals(mesh->positions, mesh->indices);
    v = face_normals[i];
    if (had_normals && flags) (*flags)[i] |= kRepairNormal;
  }
}

bool DropNonFiniteUvs(Mesh* mesh) {
  for (const glm::vec2& t : mesh->uvs) {
    if (!std::isfinite(t.x) || !std::isfinite(t.y)) {
      mesh->uvs.clear();
      return true;
    }
  }
  return false;
}

void InsertInfluence(float weight, uint16_t slot, int kept, glm::vec4* top, glm::u16vec4* slots,
                     glm::vec4* extra_top, glm::u16vec4* extra_slots) {
  auto w = [&](int k) -> float& { return k < 4 ? (*top)[k] : (*extra_top)[k - 4]; };
  auto s = [&](int k) -> uint16_t& { return k < 4 ? (*slots)[k] : (*extra_slots)[k - 4]; };
  const int capacity = extra_top && extra_slots ? kMaxInfluences : 4;
  int k = 0;
  while (k < kept && w(k) >= weight) ++k;
  if (k >= capacity) return;
  for (int m = std::min(kept, capacity - 1); m > k; --m) {
    w(m) = w(m - 1);
    s(m) = s(m - 1);
  }
  w(k) = weight;
  s(k) = slot;
}

void NormaliseInfluences(Mesh* mesh, const std::vector<uint8_t>& counts, int node,
                         std::vector<uint8_t>* flags) {
  int own_bone = -1;  // the mesh's node as a bone, for vertices no bone moves
  const size_t n = mesh->positions.size();
  bool has_extra = mesh->extra_weights.size() == n && mesh->extra_joints.size() == n;
  bool extra_used = false;
  for (size_t i = 0; i < n; ++i) {
    const int count = counts[i];
    const int kept = std::min(count, has_extra ? kMaxInfluences : 4);
    // Through pointers: glm's operator[] with a run-time index is a switch.
    float* const weights = &mesh->weights[i].x;
    float* const extra_weights = has_extra ? &mesh->extra_weights[i].x : nullptr;
    float sum = 0.0f;
    for (int k = 0; k < std::min(kept, 4); ++k) sum += weights[k];
    for (int k = 4; k < kept; ++k) sum += extra_weights[k - 4];
    if (count > 4) (*flags)[i] |= kRepairOverFour;
    if (count > kept) {
      (*flags)[i] |= kRepairOverEight;
    } else if (kept > 0 && std::abs(sum - 1.0f) > 1e-3f) {
      (*flags)[i] |= kRepairRenormalised;
    }
    if (kept == 0 || !(sum > 0.0f) || !std::isfinite(sum)) {
      if (own_bone < 0) {
        own_bone = static_cast<int>(mesh->bone_joints.size());
        mesh->bone_joints.push_back(node);
        mesh->bone_inverse_binds.push_back(glm::mat4(1.0f));
      }
      mesh->joints[i] = glm::u16vec4(static_cast<uint16_t>(own_bone), 0, 0, 0);
      mesh->weights[i] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
      if (has_extra) {
        mesh->extra_joints[i] = glm::u16vec4(0);
        mesh->extra_weights[i] = glm::vec4(0.0f);
      }
      (*flags)[i] |= kRepairUnweighted;
      continue;
    }
    for (int k = 0; k < 4; ++k) weights[k] = k < kept ? weights[k] / sum : 0.0f;
    if (!has_extra) continue;
    uint16_t* const extra_joints = &mesh->extra_joints[i].x;
    for (int k = 4; k < kMaxInfluences; ++k) {
      float& w = extra_weights[k - 4];
      w = k < kept ? w / sum : 0.0f;
      if (w == 0.0f) extra_joints[k - 4] = 0;
      extra_used = extra_used || w > 0.0f;
    }
  }
  if (!extra_used) {
    mesh->extra_joints = std::vector<glm::u16vec4>();
    mesh->extra_weights = std::vector<glm::vec4>();
  }
}

void RecordWeightFlags(const std::vector<uint8_t>& flags, Mesh* mesh) {
  mesh->weight_flags = std::vector<uint8_t>();
  const size_t n = mesh->positions.size();
  if (flags.size() != n) return;
  constexpr uint8_t kProblems = kRepairRenormalised | kRepairUnweighted | kRepairOverEight;
  size_t first = 0;
  while (first < n && (flags[first] & kProblems) == 0) ++first;
  if (first == n) return;  // the common case: one pass over the flags, nothing stored
  mesh->weight_flags.assign(n, 0);
  for (size_t i = first; i < n; ++i) {
    const uint8_t f = flags[i];
    uint8_t out = 0;
    if (f & kRepairUnweighted) {
      out = kWeightUnweighted;  // all-zero weights also count as "not summing to 1": not repeated
    } else if (f & kRepairRenormalised) {
      out = kWeightNotNormalized;
    }
    if (f & kRepairOverEight) out |= kWeightTooMany;
    mesh->weight_flags[i] = out;
  }
}

void CountWeightRepairs(const Mesh& mesh, const std::vector<uint8_t>& flags,
                        const std::vector<uint8_t>& counts, bool by_position,
                        WeightRepairCounts* out) {
  constexpr uint8_t kWeightFlags =
      kRepairOverFour | kRepairOverEight | kRepairRenormalised | kRepairUnweighted;
  struct Flagged {
    std::array<uint32_t, 3> position_bits;
    uint8_t flags;
    uint8_t count;
  };
  std::vector<Flagged> flagged;
  for (size_t i = 0; i < flags.size() && i < mesh.positions.size(); ++i) {
    if ((flags[i] & kWeightFlags) == 0) continue;
    Flagged f{{}, flags[i], i < counts.size() ? counts[i] : uint8_t{0}};
    std::memcpy(f.position_bits.data(), &mesh.positions[i], sizeof(glm::vec3));
    flagged.push_back(f);
  }
  if (by_position) {
    std::sort(flagged.begin(), flagged.end(),
              [](const Flagged& a, const Flagged& b) { return a.position_bits < b.position_bits; });
    size_t kept = 0;
    for (size_t i = 0; i < flagged.size(); ++i) {
      if (kept > 0 && flagged[kept - 1].position_bits == flagged[i].position_bits) {
        flagged[kept - 1].flags |= flagged[i].flags;
        flagged[kept - 1].count = std::max(flagged[kept - 1].count, flagged[i].count);
      } else {
        flagged[kept++] = flagged[i];
      }
    }
    flagged.resize(kept);
  }
  for (const Flagged& f : flagged) {
    out->over_four += (f.flags & kRepairOverFour) ? 1 : 0;
    out->renormalised += (f.flags & kRepairRenormalised) ? 1 : 0;
    out->unweighted += (f.flags & kRepairUnweighted) ? 1 : 0;
    if (f.flags & kRepairOverEight) {
      ++out->over_eight;
      out->dropped += static_cast<uint64_t>(std::max(f.count - kMaxInfluences, 0));
    }
  }
}

namespace {

// Morph deltas take part in welding: two vertices merge only when every target moves them alike.
bool SameDeltas(const std::vector<MorphTarget>& targets, size_t a, size_t b) {
  for (const MorphTarget& t : targets) {
    for (const std::vector<glm::vec3>* d : {&t.positions, &t.normals, &t.tangents}) {
      if (!d->empty() && std::memcmp(&(*d)[a], &(*d)[b], sizeof(glm::vec3)) != 0) return false;
    }
  }
  return true;
}

void MoveDeltas(std::vector<MorphTarget>* targets, size_t from, size_t to) {
  for (MorphTarget& t : *targets) {
    for (std::vector<glm::vec3>* d : {&t.positions, &t.normals, &t.tangents}) {
      if (!d->empty()) (*d)[to] = (*d)[from];
    }
  }
}

}  // namespace

void WeldIdenticalVertices(Mesh* mesh, std::vector<uint8_t>* flags, std::vector<uint8_t>* counts) {
  const size_t n = mesh->positions.size();
  if (n < 2) return;
  const bool has_uvs = !mesh->uvs.empty();
  const bool has_extra = !mesh->extra_weights.empty();
  const bool has_tangents = mesh->tangents.size() == n;
  // Tangents compare like normals, handedness exactly: a mirrored-uv seam differs only in it.
  auto same_tangent = [&](size_t a, size_t b) {
    const glm::vec4 dt = mesh->tangents[a] - mesh->tangents[b];
    return dt.w == 0.0f &&
           dt.x * dt.x + dt.y * dt.y + dt.z * dt.z <= kWeldNormalDistance * kWeldNormalDistance;
  };
  auto same = [&](size_t a, size_t b) {
    if (std::memcmp(&mesh->positions[a], &mesh->positions[b], sizeof(glm::vec3)) != 0) {
      return false;
    }
    const glm::vec3 dn = mesh->normals[a] - mesh->normals[b];
    return glm::dot(dn, dn) <= kWeldNormalDistance * kWeldNormalDistance &&
           (!has_tangents || same_tangent(a, b)) &&
           (!has_uvs || std::memcmp(&mesh->uvs[a], &mesh->uvs[b], sizeof(glm::vec2)) == 0) &&
           std::memcmp(&mesh->joints[a], &mesh->joints[b], sizeof(glm::u16vec4)) == 0 &&
           std::memcmp(&mesh->weights[a], &mesh->weights[b], sizeof(glm::vec4)) == 0 &&
           (!has_extra || (std::memcmp(&mesh->extra_joints[a], &mesh->extra_joints[b],
                                       sizeof(glm::u16vec4)) == 0 &&
                           std::memcmp(&mesh->extra_weights[a], &mesh->extra_weights[b],
                                       sizeof(glm::vec4)) == 0)) &&
           SameDeltas(mesh->targets, a, b);
  };
  // A hash of what must match exactly (not the normal: it is compared loosely): each 32-bit word
  // times its own odd constant, summed (independent multiplies, no chain), then mixed.
  auto hash = [&](size_t i) {
    uint32_t p[3], t[2] = {0, 0}, w[4];
    std::memcpy(p, &mesh->positions[i], sizeof(p));
    if (has_uvs) std::memcpy(t, &mesh->uvs[i], sizeof(t));
    std::memcpy(w, &mesh->weights[i], sizeof(w));
    uint64_t h = (p[0] + uint64_t{1}) * 0x9E3779B97F4A7C15ull +
                 (p[1] + uint64_t{1}) * 0xC2B2AE3D27D4EB4Full +
                 (p[2] + uint64_t{1}) * 0x165667B19E3779F9ull +
                 (t[0] + uint64_t{1}) * 0xD6E8FEB86659FD93ull +
                 (t[1] + uint64_t{1}) * 0xFF51AFD7ED558CCDull +
                 (w[0] + uint64_t{1}) * 0xC4CEB9FE1A85EC53ull +
                 (w[1] + uint64_t{1}) * 0x94D049BB133111EBull +
                 (w[2] + uint64_t{1}) * 0xBF58476D1CE4E5B9ull +
                 (w[3] + uint64_t{1}) * 0x2545F4914F6CDD1Dull;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return static_cast<uint32_t>(h >> 32);
  };
  // Vertices grouped by the low 22 bits of the hash with a stable radix sort (two passes of 11
  // bits; index order within a group), read and written in sequence: only vertices of one group
  // whose whole hash matches are compared, and no table is probed at random.
  struct Key {
    uint32_t hash;
    uint32_t index;
  };
  constexpr int kBits = 11;
  constexpr uint32_t kBuckets = 1u << kBits;
  constexpr uint32_t kGroupMask = (1u << (2 * kBits)) - 1;
  // Uninitialised (every element is written before it is read).
  std::unique_ptr<Key[]> keys(new Key[n]), sorted(new Key[n]);
  std::vector<uint32_t> histogram(2 * kBuckets, 0);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t h = hash(i);
    keys[i] = {h, static_cast<uint32_t>(i)};
    ++histogram[h & (kBuckets - 1)];
    ++histogram[kBuckets + ((h >> kBits) & (kBuckets - 1))];
  }
  for (int pass = 0; pass < 2; ++pass) {
    uint32_t* const offsets = &histogram[static_cast<size_t>(pass) * kBuckets];
    uint32_t sum = 0;
    for (uint32_t b = 0; b < kBuckets; ++b) {
      const uint32_t count = offsets[b];
      offsets[b] = sum;
      sum += count;
    }
    const int shift = pass * kBits;
    for (size_t i = 0; i < n; ++i) {
      const Key key = keys[i];
      sorted[offsets[(key.hash >> shift) & (kBuckets - 1)]++] = key;
    }
    keys.swap(sorted);
  }
  // remap[i]: first the vertex i merges into (i itself when it is the first of its kind: it is
  // compared with the earlier firsts of its group in index order, as they came), then its new
  // index.
  std::vector<uint32_t> remap(n);
  std::vector<Key> firsts;
  for (size_t begin = 0; begin < n;) {
    size_t end = begin + 1;
    while (end < n && ((keys[end].hash ^ keys[begin].hash) & kGroupMask) == 0) ++end;
    if (end - begin == 1) {
      remap[keys[begin].index] = keys[begin].index;
    } else {
      firsts.clear();  // (hash, index) of the group's firsts so far
      for (size_t k = begin; k < end; ++k) {
        const uint32_t i = keys[k].index;
        remap[i] = i;
        for (const Key& first : firsts) {
          if (first.hash == keys[k].hash && same(first.index, i)) {
            remap[i] = first.index;
            break;
          }
        }
        if (remap[i] == i) firsts.push_back(keys[k]);
      }
    }
    begin = end;
  }
  keys.reset();
  sorted.reset();
  uint32_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    if (remap[i] != i) {
      remap[i] = remap[remap[i]];  // an earlier vertex, already given its new index
      continue;
    }
    // First of its kind: moves down to position `kept` (never above i, so in place is safe).
    if (kept != i) {
      mesh->positions[kept] = mesh->positions[i];
      mesh->normals[kept] = mesh->normals[i];
      if (has_tangents) mesh->tangents[kept] = mesh->tangents[i];
      if (has_uvs) mesh->uvs[kept] = mesh->uvs[i];
      mesh->joints[kept] = mesh->joints[i];
      mesh->weights[kept] = mesh->weights[i];
      if (has_extra) {
        mesh->extra_joints[kept] = mesh->extra_joints[i];
        mesh->extra_weights[kept] = mesh->extra_weights[i];
      }
      MoveDeltas(&mesh->targets, i, kept);
    }
    remap[i] = kept++;
  }
  if (kept == n) return;
  if (flags && flags->size() == n) {
    std::vector<uint8_t> merged(kept, 0);
    for (size_t i = 0; i < n; ++i) merged[remap[i]] |= (*flags)[i];
    *flags = std::move(merged);
  }
  if (counts && counts->size() == n) {
    std::vector<uint8_t> merged(kept, 0);
    for (size_t i = 0; i < n; ++i) merged[remap[i]] = std::max(merged[remap[i]], (*counts)[i]);
    *counts = std::move(merged);
  }
  mesh->positions.resize(kept);
  mesh->normals.resize(kept);
  if (has_tangents) mesh->tangents.resize(kept);
  if (has_uvs) mesh->uvs.resize(kept);
  mesh->joints.resize(kept);
  mesh->weights.resize(kept);
  if (has_extra) {
    mesh->extra_joints.resize(kept);
    mesh->extra_weights.resize(kept);
  }
  for (MorphTarget& t : mesh->targets) {
    if (!t.positions.empty()) t.positions.resize(kept);
    if (!t.normals.empty()) t.normals.resize(kept);
    if (!t.tangents.empty()) t.tangents.resize(kept);
  }
  for (uint32_t& index : mesh->indices) index = remap[index];
}

}  // namespace assets
