// The glTF reader's animations: every channel's keys checked (times finite, increasing, within
// kMaxKeyTime; values finite) and read into clips on the file's nodes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "assets/importer.h"
#include "assets/internal/gltf_document.h"
#include "assets/internal/gltf_reader.h"
#include "assets/internal/gltf_reader_steps.h"
#include "assets/internal/messages.h"
#include "ik/skeleton.h"

namespace assets::gltf {
namespace {

using json = Json;

struct KeyStats {
  size_t dropped_keys = 0;
  size_t skipped_channels = 0;
  bool morph_weights = false;
};

bool ReadChannel(Document* d, const json& sampler, const std::string& path, JointAnimation* anim,
                 KeyStats* stats, std::string* why) {
  const auto input = IndexMember(sampler, "input");
  const auto output = IndexMember(sampler, "output");
  if (!input || !output) {
    *why = "sampler without input or output";
    return false;
  }
  const std::string interpolation_name =
      Member(sampler, "interpolation") ? StringMember(sampler, "interpolation") : "LINEAR";
  Interpolation interpolation;
  if (interpolation_name == "LINEAR")
    interpolation = Interpolation::kLinear;
  else if (interpolation_name == "STEP")
    interpolation = Interpolation::kStep;
  else if (interpolation_name == "CUBICSPLINE")
    interpolation = Interpolation::kCubicSpline;
  else {
    *why = "unknown interpolation '" + interpolation_name + "'";
    return false;
  }
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
    for (const json& channel : ArrayMember(animation, "channels")) {
      const json* target = Member(channel, "target");
      const auto sampler_index = IndexMember(channel, "sampler");
      const auto node = target ? IndexMember(*target, "node") : std::nullopt;
      const std::string path = target ? StringMember(*target, "path") : std::string();
      if (path == "weights") {
        stats.morph_weights = true;
        // Its keys still count towards the clip's length, as they do in three.js and Blender.
        WidenToSamplerTimes(d, samplers, sampler_index, &clip.duration);
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
  if (stats.morph_weights) {
    warnings->push_back("morph-target weight animations are not supported and were ignored");
  }
  return true;
}

}  // namespace assets::gltf
