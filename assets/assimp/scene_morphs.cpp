// Assimp's anim meshes as morph targets (deltas from the base mesh), and a warning for the morph
// weight animations Assimp's scenes carry but skelview does not convert.
#include "assets/assimp/scene_morphs.h"

#include <assimp/anim.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

#include "assets/files/limits.h"
#include "assets/files/messages.h"
#include "assets/gltf/model_builder.h"

namespace assets {
namespace {

bool Usable(const aiVector3D& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) &&
         std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
         std::abs(v.z) <= kMaxCoordinate;
}

// `values` minus `base` per vertex into *deltas; false (and *deltas empty) when a value is
// unusable.
bool Deltas(const aiVector3D* values, const std::vector<glm::vec3>& base,
            std::vector<glm::vec3>* deltas) {
  deltas->resize(base.size());
  for (size_t v = 0; v < base.size(); ++v) {
    if (!Usable(values[v])) {
      deltas->clear();
      return false;
    }
    (*deltas)[v] = glm::vec3(values[v].x, values[v].y, values[v].z) - base[v];
  }
  return true;
}

bool IsFbx(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".fbx";
}

// A channel's node name: "NODE*0" (FBX's first geometry of the model) or a plain "NODE"; false
// for another geometry of an FBX model.
bool ChannelNode(const std::string& channel, std::string* node) {
  const size_t star = channel.rfind('*');
  if (star == std::string::npos || star + 1 == channel.size() ||
      channel.find_first_not_of("0123456789", star + 1) != std::string::npos) {
    *node = channel;
    return true;
  }
  *node = channel.substr(0, star);
  return channel.substr(star + 1).find_first_not_of('0') == std::string::npos;
}

// Value of keys (time, weight), increasing in time, at `t`: linear, clamped to the ends.
float SampleKeys(const std::vector<std::pair<float, float>>& keys, float t) {
  if (t <= keys.front().first) return keys.front().second;
  if (t >= keys.back().first) return keys.back().second;
  const auto next =
      std::upper_bound(keys.begin(), keys.end(), t,
                       [](float a, const std::pair<float, float>& k) { return a < k.first; });
  const auto prev = next - 1;
  const float u = (t - prev->first) / (next->first - prev->first);
  return prev->second * (1.0f - u) + next->second * u;
}

// One mesh's track from the channel's keys, or an empty one when no key is usable.
MorphAnimation ConvertChannel(const aiMeshMorphAnim& channel, double ticks_per_second,
                              const Mesh& mesh, MorphAnimationSkips* skips) {
  const size_t width = mesh.targets.size();
  std::vector<std::vector<std::pair<float, float>>> keys(width);
  std::vector<float> times;
  for (unsigned k = 0; channel.mKeys && k < channel.mNumKeys; ++k) {
    const aiMeshMorphKey& key = channel.mKeys[k];
    const double t = key.mTime / ticks_per_second;
    if (!std::isfinite(t) || std::abs(t) > static_cast<double>(kMaxKeyTime)) {
      ++skips->dropped_keys;
      continue;
    }
    const float time = static_cast<float>(t);
    bool used = false;
    for (unsigned i = 0; key.mValues && key.mWeights && i < key.mNumValuesAndWeights; ++i) {
      const double w = key.mWeights[i];
      if (key.mValues[i] >= width) {
        ++skips->unknown_targets;
      } else if (!std::isfinite(w) || std::abs(w) > 1e6 ||
                 (!keys[key.mValues[i]].empty() && time <= keys[key.mValues[i]].back().first)) {
        ++skips->dropped_keys;
      } else {
        keys[key.mValues[i]].emplace_back(time, static_cast<float>(w));
        used = true;
      }
    }
    if (used) times.push_back(time);
  }
  MorphAnimation track;
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  if (times.empty()) return track;
  track.width = static_cast<int>(width);
  track.interpolation = Interpolation::kLinear;
  track.times = times;
  track.values.reserve(times.size() * width);
  for (float t : times) {
    for (size_t target = 0; target < width; ++target) {
      const float fallback =
          target < mesh.target_weights.size() ? mesh.target_weights[target] : 0.0f;
      track.values.push_back(keys[target].empty() ? fallback : SampleKeys(keys[target], t));
    }
  }
  return track;
}

}  // namespace

void ConvertAnimMeshes(const aiMesh* source, const std::string& path, Mesh* mesh,
                       std::vector<std::string>* warnings) {
  if (!source || source->mNumAnimMeshes == 0 || !source->mAnimMeshes) return;
  const bool fbx = IsFbx(path);
  const size_t n = mesh->positions.size();
  size_t dropped = 0;
  for (unsigned a = 0; a < source->mNumAnimMeshes; ++a) {
    const aiAnimMesh* anim = source->mAnimMeshes[a];
    MorphTarget target;
    float weight = 0.0f;
    if (anim) {
      target.name = anim->mName.C_Str();
      weight = !fbx && std::isfinite(anim->mWeight) && std::abs(anim->mWeight) <= 1e6f
                   ? anim->mWeight
                   : 0.0f;
      const bool sized = anim->mNumVertices == n;
      bool ok = sized &&
                (!anim->mVertices || Deltas(anim->mVertices, mesh->positions, &target.positions));
      if (ok && anim->mNormals && mesh->normals.size() == n) {
        ok = Deltas(anim->mNormals, mesh->normals, &target.normals);
      }
      // Tangent deltas only for a mesh that kept its tangents (of their xyz; the handedness does
      // not blend).
      if (ok && anim->mTangents && mesh->tangents.size() == n) {
        std::vector<glm::vec3> base(n);
        for (size_t v = 0; v < n; ++v) base[v] = glm::vec3(mesh->tangents[v]);
        ok = Deltas(anim->mTangents, base, &target.tangents);
      }
      if (!ok) {
        target.positions.clear();
        target.normals.clear();
        target.tangents.clear();
        ++dropped;
      }
    } else {
      ++dropped;
    }
    mesh->targets.push_back(std::move(target));
    mesh->target_weights.push_back(weight);
  }
  if (fbx) {
    warnings->push_back("mesh " + Quoted(mesh->name) + ": Assimp does not give FBX blend-shape " +
                        "values; its " + std::to_string(source->mNumAnimMeshes) +
                        " morph targets start at weight 0");
  }
  if (dropped > 0) {
    warnings->push_back("mesh " + Quoted(mesh->name) + ": " + std::to_string(dropped) +
                        " morph targets have the wrong vertex count or non-finite values; they "
                        "move nothing");
  }
}

void ConvertMorphAnimation(const aiAnimation* source, double ticks_per_second,
                           const std::vector<std::string>& node_names,
                           const std::vector<Mesh>& meshes, Clip* clip,
                           MorphAnimationSkips* skips) {
  for (unsigned c = 0; source && source->mMorphMeshChannels && c < source->mNumMorphMeshChannels;
       ++c) {
    const aiMeshMorphAnim* channel = source->mMorphMeshChannels[c];
    if (!channel) continue;
    const std::string name = channel->mName.C_Str();
    std::string node;
    bool matched = false;
    for (size_t m = 0; ChannelNode(name, &node) && m < meshes.size(); ++m) {
      const Mesh& mesh = meshes[m];
      if (mesh.targets.empty() || mesh.node < 0 ||
          static_cast<size_t>(mesh.node) >= node_names.size() ||
          node_names[static_cast<size_t>(mesh.node)] != node) {
        continue;
      }
      matched = true;
      const int index = static_cast<int>(m);
      const bool taken = std::any_of(clip->morph_channels.begin(), clip->morph_channels.end(),
                                     [&](const MorphAnimation& a) { return a.mesh == index; });
      if (taken) continue;  // the clip's first channel for this mesh wins
      MorphAnimation track = ConvertChannel(*channel, ticks_per_second, mesh, skips);
      if (track.empty()) continue;
      track.mesh = index;
      clip->duration = std::max(clip->duration, track.times.back());
      clip->morph_channels.push_back(std::move(track));
    }
    if (!matched) skips->unmatched.insert(name);
  }
}

void WarnMorphAnimationSkips(const MorphAnimationSkips& skips, std::vector<std::string>* warnings) {
  if (!skips.unmatched.empty()) {
    warnings->push_back(Plural(skips.unmatched.size(), "morph-weight animation channel names",
                               "morph-weight animation channels name") +
                        " no mesh with morph targets (e.g. " + Quoted(*skips.unmatched.begin()) +
                        "); ignored");
  }
  if (skips.dropped_keys > 0) {
    warnings->push_back("dropped " +
                        Plural(skips.dropped_keys, "morph weight key", "morph weight keys") +
                        " with non-increasing times or non-finite values");
  }
  if (skips.unknown_targets > 0) {
    warnings->push_back(Plural(skips.unknown_targets, "morph weight key value names",
                               "morph weight key values name") +
                        " a target its mesh does not have; ignored");
  }
}

}  // namespace assets
