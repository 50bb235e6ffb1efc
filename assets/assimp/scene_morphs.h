// Morph targets from Assimp's scenes (aiAnimMesh: FBX blend shapes, Collada morph controllers),
// kept apart from scene_converter.cpp. Internal to assets/.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "assets/model/model.h"

struct aiAnimation;
struct aiMesh;

namespace assets {

// Appends source->mAnimMeshes to mesh->targets as deltas from the mesh's vertices (Assimp gives
// each anim mesh's full positions, normals and tangents; tangent deltas only when the mesh has
// tangents), with their names and weights as the defaults —
// except for an FBX file (`path` ending in .fbx, any case), where Assimp 5.2.5's weight is the
// shape's full weight rather than the channel's value (DeformPercent, which it drops): there the
// targets start at 0, with a warning.
// `mesh` must hold the source's positions and normals, one per Assimp vertex, and no targets
// yet. An anim mesh of another vertex count or with a non-finite or huge value keeps its slot
// without deltas; each mesh with such targets adds a warning to *warnings.
void ConvertAnimMeshes(const aiMesh* source, const std::string& path, Mesh* mesh,
                       std::vector<std::string>* warnings);

// What ConvertMorphAnimation could not convert, summed over a file's animations.
struct MorphAnimationSkips {
  std::set<std::string> unmatched;  // channel names that name no mesh with targets
  size_t dropped_keys = 0;     // keys with a bad time, non-finite or huge weight, or out of order
  size_t unknown_targets = 0;  // key values naming a target the mesh does not have
};

// Adds `source`'s morph-weight channels (aiMeshMorphAnim) to clip->morph_channels, one linear
// track per mesh, key times in seconds (ticks / ticks_per_second, which must be > 0), weights as
// Assimp gives them (FBX: DeformPercent / 100, Blender's shape-key value). A channel is named
// after the node showing the mesh: "NODE*G" for an FBX model's geometry G (only G = 0, the
// model's one geometry, is matched) or "NODE"; it animates every mesh of that node with morph
// targets (FBX splits a geometry per material), its key values indexing the mesh's targets. A
// target without keys in a channel keeps its default weight; one keyed at other times than the
// others is interpolated linearly to the channel's times. `node_names` are the original node
// names, indexed like Mesh::node; clip->duration grows to the last key. What is left out is
// counted in *skips.
void ConvertMorphAnimation(const aiAnimation* source, double ticks_per_second,
                           const std::vector<std::string>& node_names,
                           const std::vector<Mesh>& meshes, Clip* clip, MorphAnimationSkips* skips);

// Warnings naming what ConvertMorphAnimation left out; nothing when it converted everything.
void WarnMorphAnimationSkips(const MorphAnimationSkips& skips, std::vector<std::string>* warnings);

}  // namespace assets
