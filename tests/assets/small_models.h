// Small models made by our code for tests, fuzz seeds and malformed-file variants: the built-in
// character's skeleton, clips and material with only a handful of its triangles, so files
// written from it stay a few kilobytes.
#pragma once

#include <unordered_map>

#include "assets/builtin/builtin_character.h"
#include "assets/model/animation.h"
#include "assets/model/model.h"

namespace testmodels {

// The built-in character with its body cut to the first `triangles` triangles (vertices
// compacted, every per-vertex array kept in step).
inline assets::Model SmallCharacter(size_t triangles = 24) {
  assets::Model model = assets::MakeBuiltinCharacter();
  assets::Mesh& mesh = model.meshes[0];
  assets::Mesh small = mesh;
  small.positions.clear();
  small.normals.clear();
  small.uvs.clear();
  small.joints.clear();
  small.weights.clear();
  small.indices.clear();
  std::unordered_map<uint32_t, uint32_t> remap;
  for (size_t i = 0; i < mesh.indices.size() && i < triangles * 3; ++i) {
    const uint32_t old_index = mesh.indices[i];
    auto found = remap.find(old_index);
    if (found == remap.end()) {
      found = remap.emplace(old_index, static_cast<uint32_t>(small.positions.size())).first;
      small.positions.push_back(mesh.positions[old_index]);
      small.normals.push_back(mesh.normals[old_index]);
      if (!mesh.uvs.empty()) small.uvs.push_back(mesh.uvs[old_index]);
      small.joints.push_back(mesh.joints[old_index]);
      small.weights.push_back(mesh.weights[old_index]);
    }
    small.indices.push_back(found->second);
  }
  mesh = std::move(small);
  // Shorter clips too: every third key of the walk, the idle dropped.
  model.clips.resize(1);
  for (assets::JointAnimation& a : model.clips[0].channels) {
    for (auto* track : {&a.translation, &a.scale}) {
      for (size_t k = 0, kept = 0; k < track->times.size(); k += 3, ++kept) {
        track->times[kept] = track->times[k];
        track->values[kept] = track->values[k];
      }
      track->times.resize((track->times.size() + 2) / 3);
      track->values.resize(track->times.size());
    }
    for (size_t k = 0, kept = 0; k < a.rotation.times.size(); k += 3, ++kept) {
      a.rotation.times[kept] = a.rotation.times[k];
      a.rotation.values[kept] = a.rotation.values[k];
    }
    a.rotation.times.resize((a.rotation.times.size() + 2) / 3);
    a.rotation.values.resize(a.rotation.times.size());
  }
  assets::PrepareClip(&model.clips[0]);
  return model;
}

}  // namespace testmodels
