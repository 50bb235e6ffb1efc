// The glTF reader's animations: every channel's keys checked (times finite, increasing, within
// kMaxKeyTime; values finite) and read into clips on the file's nodes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "assets/files/limits.h"
#include "assets/files/messages.h"
#include "assets/gltf/gltf_document.h"
#include "assets/gltf/gltf_reader.h"
#include "assets/gltf/gltf_reader_steps.h"
#include "assets/gltf/model_builder.h"
#include "ik/core/skeleton.h"

namespace assets::gltf {
namespace {

using json = Json;

struct KeyStats {
  size_t dropped_keys = 0;
  size_t skipped_channels = 0;
};

bool ParseInterpolation(const json& sampler, Interpolation* interpolation, std::string* why) {
  const std::string name =
      Member(sampler, "interpolation") ? StringMember(sampler, "interpolation") : "LINEAR";
  if (name == "LINEAR") {
    *interpolation = Interpolation::kLinear;
  } else if (name == "STEP") {
    *interpolation = Interpolation::kStep;
  } else if (name == "CUBICSPLINE") {
    *interpolation = Interpolation::kCubicSpline;
  } else {
    *why = "unknown interpolation '" + name + "'";
    return false;
  }
  return true;
}

// Morph targets of the mesh on glTF node `node` (its first primitive's; glTF requires every
// primitive to have as many), 0 when it has no mesh.
size_t NodeTargetCount(const Document& d, int64_t node) {
  const json& nodes = ArrayMember(d.root, "nodes");
  const auto mesh = IndexMember(nodes[static_cast<size_t>(node)], "mesh");
  const json& meshes = ArrayMember(d.root, "meshes");
  if (!mesh || *mesh >= static_cast<int64_t>(meshes.size())) return 0;
  const json& primitives = ArrayMember(meshes[static_cast<size_t>(*mesh)], "primitives");
  return primitives.empty() ? 0 : ArrayMember(primitives[0], "targets").size();
}

// A `weights` channel: SCALAR output of keys · targets values (× 3 for cubic spline). Keys with
// non-finite or non-increasing times or non-finite values are dropped.
bool ReadWeightsChannel(Document* d, const json& sampler, size_t targets, MorphAnimation* anim,
                        KeyStats* stats, std::string* why) {
  const auto input = IndexMember(sampler, "input");
  const auto output = IndexMember(sampler, "output");
  if (!input || !output || targets == 0) {
    *why = "sampler without input or output, or a node without morph targets";
    return false;
  }
  if (!ParseInterpolation(sampler, &anim->interpolation, why)) return false;
  AccessorData times, values;
  if (!d->ReadAccessor(*input, &times, why) || !d->ReadAccessor(*output, &values, why)) {
    return false;
  }
  const size_t per_key = (anim->interpolation == Interpolation::kCubicSpline ? 3 : 1) * targets;
  if (times.components != 1 || values.components != 1 || values.count != times.count * per_key) {
    *why = "weights sampler output is not keys x targets";
    return false;
  }
  anim->width = static_cast<int>(targets);
  for (size_t k = 0; k < times.count; ++k) {
    const float t = times.values[k];
    bool ok = std::isfinite(t) && std::abs(t) <= kMaxKeyTime &&
              (anim->times.empty() || t > anim->times.back());
    const float* v = &values.values[k * per_key];
    for (size_t e = 0; ok && e < per_key; ++e) {
      ok = std::isfinite(v[e]) && std::abs(v[e]) <= kMaxCoordinate;
    }
    if (!ok) {
      ++stats->dropped_keys;
      continue;
    }
    anim->times.push_back(t);
    anim->values.insert(anim->values.end(), v, v + per_key);
  }
  if (anim->times.empty()) {
    *why = "no usable keys";
    return false;
  }
  return true;
}

bool ReadChannel(Document* d, const json& sampler, const std::string& path, JointAnimation* anim,
                 KeyStats* stats, std::string* why) {
  const auto input = IndexMember(sampler, "input");
  const auto output = IndexMember(sampler, "output");
  if (!input || !output) {
    *why = "sampler without input or output";
    return false;
  }
  Interpolation interpolation;
  if (!ParseInterpolation(sampler, &interpolation, why)) return false;
  AccessorData times, values;
  if (!d->ReadAccessor(*input, &times, why) || !d->ReadAccessor(*output, &values, why)) {
    return false;
  }
  const bool rotation = path == "rotation";
  const int width = rotation ? 4 : 3;
  const size_t per_key = interpolation == Interpolation::kCubicSpline ? 3 : 1;
  if (times.components != 1 || values.components != width ||
      values.count != times.count * per_key) {
    *why = "sampler input/output accessors do not match";
    return false;
  }
  // Keep keys with finite, strictly increasing times up to kMaxKeyTime and values within
  // kMaxCoordinate (rotations: any non-zero length, normalised below), as the importer does for
  // Assimp's keys; larger ones overflow interpolation (a cubic tangent is scaled by the interval).
  std::vector<float> kept_times;
  std::vector<size_t> kept_keys;
  for (size_t k = 0; k < times.count; ++k) {
    const float t = times.values[k];
    bool ok = std::isfinite(t) && std::abs(t) <= kMaxKeyTime &&
              (kept_times.empty() || t > kept_times.back());
    for (size_t e = 0; ok && e < per_key * static_cast<size_t>(width); ++e) {
      const float v = values.values[k * per_key * width + e];
      ok = std::isfinite(v) && (rotation || std::abs(v) <= kMaxCoordinate);
    }
    if (ok && rotation) {
      // In double: the squares of large float components overflow a float.
      for (size_t slot = 0; slot < per_key; ++slot) {
        const size_t base = (k * per_key + slot) * 4;
        double len2 = 0.0;
        for (int e = 0; e < 4; ++e) {
          const double c = static_cast<double>(values.values[base + e]);
          len2 += c * c;
        }
        const bool value_slot = per_key == 1 || slot == 1;
        if (value_slot) {
          ok = ok && len2 > 1e-12;
          const double len = std::sqrt(len2);
          for (int e = 0; ok && e < 4; ++e) {
            values.values[base + e] =
                static_cast<float>(static_cast<double>(values.values[base + e]) / len);
          }
        } else {
          // Tangents keep their length but must stay where interpolation cannot overflow.
          const double limit = static_cast<double>(kMaxCoordinate);
          ok = ok && len2 <= limit * limit;
        }
      }
    }
    if (!ok) {
      ++stats->dropped_keys;
      continue;
    }
    kept_times.push_back(t);
    kept_keys.push_back(k);
  }
  if (kept_keys.empty()) {
    *why = "no usable keys";
    return false;
  }
  auto element = [&](size_t k, size_t slot) {
    return &values.values[(k * per_key + slot) * width];
  };
  if (rotation) {
    Track<glm::quat>& track = anim->rotation;
    track.interpolation = interpolation;
    track.times = kept_times;
    for (size_t k : kept_keys) {
      for (size_t slot = 0; slot < per_key; ++slot) {
        const float* q = element(k, slot);
        // glTF stores x, y, z, w; values were normalised above.
        track.values.emplace_back(q[3], q[0], q[1], q[2]);
      }
    }
  } else {
    Track<glm::vec3>& track = path == "translation" ? anim->translation : anim->scale;
    track.interpolation = interpolation;
    track.times = kept_times;
    for (size_t k : kept_keys) {
      for (size_t slot = 0; slot < per_key; ++slot) {
        const float* v = element(k, slot);
        track.values.emplace_back(v[0], v[1], v[2]);
      }
    }
  }
  return true;
}

// Widens *duration to the last key time of sampler `index` (when it is readable).
void WidenToSamplerTimes(Document* d, const json& samplers, std::optional<int64_t> index,
                         float* duration) {
  if (!index || *index >= static_cast<int64_t>(samplers.size())) return;
  const auto input = IndexMember(samplers[static_cast<size_t>(*index)], "input");
  AccessorData times;
  std::string why;
  if (!input || !d->ReadAccessor(*input, &times, &why) || times.components != 1) return;
  for (size_t k = 0; k < times.count; ++k) {
    const float t = times.values[k];
    if (std::isfinite(t) && t <= kMaxKeyTime) *duration = std::max(*duration, t);
  }
}

}  // namespace

bool ReadAnimations(Document* d, Contents* out) {
  std::vector<std::string>* warnings = &out->warnings;
  KeyStats stats;
  const json& animations = ArrayMember(d->root, "animations");
  const size_t node_count = ArrayMember(d->root, "nodes").size();
  for (const json& animation : animations) {
    Clip clip;
    clip.name = StringMember(animation, "name");
    const json& samplers = ArrayMember(animation, "samplers");
    std::map<int64_t, size_t> channel_of_node;
    std::set<int64_t> weighted_nodes;
    for (const json& channel : ArrayMember(animation, "channels")) {
      const json* target = Member(channel, "target");
      const auto sampler_index = IndexMember(channel, "sampler");
      const auto node = target ? IndexMember(*target, "node") : std::nullopt;
      const std::string path = target ? StringMember(*target, "path") : std::string();
      if (path == "weights") {
        // Its keys count towards the clip's length even when unusable, as in three.js and Blender.
        WidenToSamplerTimes(d, samplers, sampler_index, &clip.duration);
        MorphAnimation anim;
        std::string why;
        if (!sampler_index || *sampler_index >= static_cast<int64_t>(samplers.size()) || !node ||
            *node >= static_cast<int64_t>(node_count) || !weighted_nodes.insert(*node).second ||
            !ReadWeightsChannel(d, samplers[static_cast<size_t>(*sampler_index)],
                                NodeTargetCount(*d, *node), &anim, &stats, &why)) {
          ++stats.skipped_channels;
          continue;
        }
        anim.mesh = static_cast<int>(*node);  // a glTF node until ApplyGltfClips maps it
        clip.morph_channels.push_back(std::move(anim));
        continue;
      }
      if (!sampler_index || *sampler_index >= static_cast<int64_t>(samplers.size()) || !node ||
          *node >= static_cast<int64_t>(node_count) ||
          (path != "translation" && path != "rotation" && path != "scale")) {
        ++stats.skipped_channels;
        continue;
      }
      auto found = channel_of_node.find(*node);
      if (found == channel_of_node.end()) {
        JointAnimation fresh;
        fresh.joint = static_cast<int>(*node);
        clip.channels.push_back(fresh);
        found = channel_of_node.emplace(*node, clip.channels.size() - 1).first;
      }
      JointAnimation& anim = clip.channels[found->second];
      const bool taken = (path == "translation" && !anim.translation.empty()) ||
                         (path == "rotation" && !anim.rotation.empty()) ||
                         (path == "scale" && !anim.scale.empty());
      std::string why;
      if (taken || !ReadChannel(d, samplers[static_cast<size_t>(*sampler_index)], path, &anim,
                                &stats, &why)) {
        ++stats.skipped_channels;
        continue;
      }
    }
    // Drop nodes whose every channel failed.
    clip.channels.erase(std::remove_if(clip.channels.begin(), clip.channels.end(),
                                       [](const JointAnimation& a) {
                                         return a.translation.empty() && a.rotation.empty() &&
                                                a.scale.empty();
                                       }),
                        clip.channels.end());
    for (const JointAnimation& a : clip.channels) {
      for (const std::vector<float>* times :
           {&a.translation.times, &a.rotation.times, &a.scale.times}) {
        if (!times->empty()) clip.duration = std::max(clip.duration, times->back());
      }
    }
    out->clips.push_back(std::move(clip));
  }
  if (stats.dropped_keys > 0) {
    warnings->push_back("dropped " + std::to_string(stats.dropped_keys) +
                        " animation keys with non-increasing times or non-finite values");
  }
  if (stats.skipped_channels > 0) {
    warnings->push_back("skipped " + std::to_string(stats.skipped_channels) +
                        " invalid or duplicate animation channels");
  }
  return true;
}

}  // namespace assets::gltf
