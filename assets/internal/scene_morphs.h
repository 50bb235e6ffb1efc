// Morph targets from Assimp's scenes (aiAnimMesh: FBX blend shapes, Collada morph controllers),
// kept apart from scene_converter.cpp. Internal to assets/.
#pragma once

#include <string>
#include <vector>

#include "assets/model.h"

struct aiMesh;
struct aiScene;

namespace assets {

// Appends source->mAnimMeshes to mesh->targets as deltas from the mesh's vertices (Assimp gives
// each anim mesh's full positions and normals), with their names and weights as the defaults —
// except for an FBX file (`path` ending in .fbx, any case), where Assimp 5.2.5's weight is the
// shape's full weight rather than the channel's value (DeformPercent, which it drops): there the
// targets start at 0, with a warning.
// `mesh` must hold the source's positions and normals, one per Assimp vertex, and no targets
// yet. An anim mesh of another vertex count or with a non-finite or huge value keeps its slot
// without deltas; each mesh with such targets adds a warning to *warnings.
void ConvertAnimMeshes(const aiMesh* source, const std::string& path, Mesh* mesh,
                       std::vector<std::string>* warnings);

// A warning when the scene's animations carry morph-weight channels (aiMeshMorphAnim), which
// skelview does not read from Assimp's scenes; nothing otherwise.
void WarnMorphAnimations(const aiScene* scene, std::vector<std::string>* warnings);

}  // namespace assets
