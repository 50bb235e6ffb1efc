// Morph-target weights (defaults, clip channels) and the CPU blend of targets into a mesh's
// bind-time vertices; the GPU path (renderer/) blends the same sums in its vertex shader.
#include "assets/model/morph.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace assets {

MorphWeights DefaultMorphWeights(const Model& model) {
  MorphWeights weights;
  DefaultMorphWeights(model, &weights);
  return weights;
}

void DefaultMorphWeights(const Model& model, MorphWeights* weights) {
  weights->resize(model.meshes.size());
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    std::vector<float>& w = (*weights)[m];
    if (mesh.targets.empty()) {
      w.clear();
    } else if (mesh.target_weights.size() == mesh.targets.size()) {
      w.assign(mesh.target_weights.begin(), mesh.target_weights.end());
    } else {
      w.assign(mesh.targets.size(), 0.0f);
    }
  }
}

bool HasMorphTargets(const Model& model) {
  return std::any_of(model.meshes.begin(), model.meshes.end(),
                     [](const Mesh& mesh) { return !mesh.targets.empty(); });
}

bool SampleMorphTrack(const MorphAnimation& track, float time_seconds, float* out) {
  const size_t keys = track.times.size();
  const size_t width = track.width > 0 ? static_cast<size_t>(track.width) : 0;
  const bool cubic = track.interpolation == Interpolation::kCubicSpline;
  const size_t per_key = (cubic ? 3 : 1) * width;
  if (keys == 0 || width == 0 || track.values.size() != keys * per_key) return false;
  // The key k with times[k] <= t < times[k+1] and the fraction u along it.
  size_t k = 0;
  float u = 0.0f, dt = 0.0f;
  bool single = true;
  if (keys > 1 && time_seconds > track.times.front()) {
    if (time_seconds >= track.times.back()) {
      k = keys - 1;
    } else {
      const size_t next = static_cast<size_t>(
          std::upper_bound(track.times.begin(), track.times.end(), time_seconds) -
          track.times.begin());
      k = next - 1;
      dt = track.times[next] - track.times[k];
      if (dt > 0.0f) {
        u = std::clamp((time_seconds - track.times[k]) / dt, 0.0f, 1.0f);
        single = false;
      }
    }
  }
  const float* v = track.values.data();
  const size_t value_slot = cubic ? width : 0;  // cubic keys: in-tangent, value, out-tangent
  const float* a = v + k * per_key + value_slot;
  if (single || track.interpolation == Interpolation::kStep) {
    std::copy(a, a + width, out);
    return true;
  }
  const float* b = v + (k + 1) * per_key + value_slot;
  if (!cubic) {
    for (size_t i = 0; i < width; ++i) out[i] = a[i] * (1.0f - u) + b[i] * u;
    return true;
  }
  // Hermite basis; tangents scaled by the key interval as glTF specifies.
  const float* a_out = a + width;  // out-tangent of key k
  const float* b_in = b - width;   // in-tangent of key k + 1
  const float u2 = u * u, u3 = u2 * u;
  const float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f, h10 = (u3 - 2.0f * u2 + u) * dt;
  const float h01 = -2.0f * u3 + 3.0f * u2, h11 = (u3 - u2) * dt;
  for (size_t i = 0; i < width; ++i) {
    out[i] = h00 * a[i] + h10 * a_out[i] + h01 * b[i] + h11 * b_in[i];
  }
  return true;
}

void SampleClipMorphs(const Model& model, const Clip& clip, float time_seconds,
                      MorphWeights* weights) {
  DefaultMorphWeights(model, weights);
  const float t = std::clamp(std::isfinite(time_seconds) ? time_seconds : 0.0f, 0.0f,
                             std::max(clip.duration, 0.0f));
  for (const MorphAnimation& channel : clip.morph_channels) {
    if (channel.mesh < 0 || channel.mesh >= static_cast<int>(weights->size())) continue;
    std::vector<float>& w = (*weights)[static_cast<size_t>(channel.mesh)];
    if (channel.width <= 0 || static_cast<size_t>(channel.width) != w.size()) continue;
    thread_local std::vector<float> sampled;  // kept between calls: a frame allocates nothing
    sampled.resize(w.size());
    if (!SampleMorphTrack(channel, t, sampled.data())) continue;
    for (size_t i = 0; i < w.size(); ++i) w[i] = std::isfinite(sampled[i]) ? sampled[i] : w[i];
  }
}

namespace {

static_assert(sizeof(glm::vec3) == 3 * sizeof(float), "vec3 arrays are read as float arrays");

// Targets are added a few at a time so the sums are read and written once per group rather than
// once per target; the additions keep the one-target-at-a-time order, so results are identical.
constexpr size_t kGroup = 4;
// Floats per block: the block of sums stays in the first-level cache while every group of
// deltas streams through it.
constexpr size_t kBlock = 3 * 1024;

// Four floats as one SIMD register (GCC/Clang vector extension): -O2's cost model does not
// vectorise these loops by itself.
typedef float Float4 __attribute__((vector_size(16)));

Float4 Load4(const float* p) {
  Float4 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

void Store4(float* p, Float4 v) { std::memcpy(p, &v, sizeof(v)); }

// out[i] += w[0]·d[0][i] + ... + w[k-1]·d[k-1][i] for i in [begin, end), added one target after
// the other (so the sums equal adding the targets separately); k is 1..kGroup.
void AddGroup(float* __restrict out, size_t begin, size_t end, const float* const* d,
              const float* w, size_t k) {
  const float* dk[kGroup];
  float wk[kGroup];
  for (size_t j = 0; j < kGroup; ++j) {
    dk[j] = d[std::min(j, k - 1)];
    wk[j] = j < k ? w[j] : 0.0f;
  }
  size_t i = begin;
  const Float4 w0 = Float4{} + wk[0], w1 = Float4{} + wk[1], w2 = Float4{} + wk[2],
               w3 = Float4{} + wk[3];
  switch (k) {
    case 4:
      for (; i + 4 <= end; i += 4) {
        Store4(out + i, (((Load4(out + i) + w0 * Load4(dk[0] + i)) + w1 * Load4(dk[1] + i)) +
                         w2 * Load4(dk[2] + i)) +
                            w3 * Load4(dk[3] + i));
      }
      break;
    case 3:
      for (; i + 4 <= end; i += 4) {
        Store4(out + i, ((Load4(out + i) + w0 * Load4(dk[0] + i)) + w1 * Load4(dk[1] + i)) +
                            w2 * Load4(dk[2] + i));
      }
      break;
    case 2:
      for (; i + 4 <= end; i += 4) {
        Store4(out + i, (Load4(out + i) + w0 * Load4(dk[0] + i)) + w1 * Load4(dk[1] + i));
      }
      break;
    default:
      for (; i + 4 <= end; i += 4) Store4(out + i, Load4(out + i) + w0 * Load4(dk[0] + i));
      break;
  }
  for (; i < end; ++i) {
    for (size_t j = 0; j < k; ++j) out[i] += wk[j] * dk[j][i];
  }
}

// Adds Σ weights[t] · deltas[t] to `sums` (all `floats` long), block by block.
void AddWeightedDeltas(float* sums, size_t floats, const std::vector<const float*>& deltas,
                       const std::vector<float>& weights) {
  for (size_t begin = 0; begin < floats; begin += kBlock) {
    const size_t end = std::min(floats, begin + kBlock);
    for (size_t g = 0; g < deltas.size(); g += kGroup) {
      AddGroup(sums, begin, end, deltas.data() + g, weights.data() + g,
               std::min(kGroup, deltas.size() - g));
    }
  }
}

}  // namespace

bool BlendMorphTargets(const Mesh& mesh, const std::vector<float>& weights,
                       std::vector<glm::vec3>* positions, std::vector<glm::vec3>* normals) {
  const size_t n = mesh.positions.size();
  const size_t count = std::min(mesh.targets.size(), weights.size());
  const bool has_normals = mesh.normals.size() == n;
  // The contributing targets' deltas and weights, in target order.
  std::vector<const float*> position_deltas, normal_deltas;
  std::vector<float> position_weights, normal_weights;
  bool any = false;
  for (size_t t = 0; t < count; ++t) {
    const float w = weights[t];
    if (w == 0.0f || !std::isfinite(w)) continue;
    const MorphTarget& target = mesh.targets[t];
    any = any || target.positions.size() == n || target.normals.size() == n;
    if (target.positions.size() == n && n > 0) {
      position_deltas.push_back(&target.positions.front().x);
      position_weights.push_back(w);
    }
    if (has_normals && target.normals.size() == n && n > 0) {
      normal_deltas.push_back(&target.normals.front().x);
      normal_weights.push_back(w);
    }
  }
  if (!any) return false;
  positions->assign(mesh.positions.begin(), mesh.positions.end());
  if (has_normals) {
    normals->assign(mesh.normals.begin(), mesh.normals.end());
  } else {
    normals->clear();
  }
  if (n == 0) return true;
  AddWeightedDeltas(&positions->front().x, 3 * n, position_deltas, position_weights);
  if (has_normals) AddWeightedDeltas(&normals->front().x, 3 * n, normal_deltas, normal_weights);
  return true;
}

bool BlendMorphTangents(const Mesh& mesh, const std::vector<float>& weights,
                        std::vector<glm::vec4>* tangents) {
  const size_t n = mesh.positions.size();
  if (mesh.tangents.size() != n || n == 0) return false;
  const size_t count = std::min(mesh.targets.size(), weights.size());
  std::vector<const glm::vec3*> deltas;
  std::vector<float> delta_weights;
  for (size_t t = 0; t < count; ++t) {
    const float w = weights[t];
    if (w == 0.0f || !std::isfinite(w) || mesh.targets[t].tangents.size() != n) continue;
    deltas.push_back(mesh.targets[t].tangents.data());
    delta_weights.push_back(w);
  }
  if (deltas.empty()) return false;
  tangents->resize(n);
  for (size_t v = 0; v < n; ++v) {
    const glm::vec4& base = mesh.tangents[v];
    glm::vec3 sum(base);
    for (size_t k = 0; k < deltas.size(); ++k) sum += delta_weights[k] * deltas[k][v];
    const float length = glm::length(sum);
    (*tangents)[v] =
        length > 1e-20f && std::isfinite(length) ? glm::vec4(sum / length, base.w) : base;
  }
  return true;
}

}  // namespace assets
