// Import: reads any file Assimp understands (glTF first) into a Model, validating everything it
// copies so that no later stage can crash or produce NaN on a bad file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "assets/model.h"

namespace assets {

struct LoadResult {
  std::optional<Model> model;  // set on success
  // On failure: one line naming the file and the reason, e.g.
  // "models/bad.glb: truncated .glb: its header declares 9000 bytes but the file has 4000".
  std::string error;
  // On success: what was repaired while loading (also in model->warnings), one line each.
  std::vector<std::string> warnings;

  bool ok() const { return model.has_value(); }
};

// Loads a rigged (or static) model. On success the Model holds:
//  - skeleton: every node of the scene's hierarchy from the root, parents before children, rest
//    locals from the node transforms (world space = all of them applied, the root's included);
//    is_bone marks joints some skin deforms with; inverse binds come from the first skin using
//    the joint, else the inverse of the rest model matrix;
//  - meshes: triangles only (points and lines are dropped), one Mesh per node that references a
//    mesh, positions in the mesh's bind space, unit normals (generated when missing or invalid),
//    uvs in glTF convention (see Mesh::uvs), up to 4 influences per vertex summing to 1 (more are
//    cut to the 4 largest and renormalised, with a warning); unskinned meshes are bound rigidly to
//    their node; vertices of a skinned mesh without any weight follow the mesh's node;
//  - materials with base colour and textures decoded to RGBA8 (file textures relative to the
//    model, embedded ones too; an unreadable texture is a warning, not a failure);
//  - clips: per-joint tracks in seconds (ticks per second from the file, 25 when a non-glTF
//    file gives none), glTF step/linear/cubic-spline interpolation kept exactly; several unnamed
//    animations that each move different joints for the same time are merged into one clip.
// Fails, with LoadResult::error, for a missing, unreadable or empty file, a file that is not a
// model Assimp reads, a truncated or malformed glTF, an empty scene (no meshes and no nodes),
// non-finite or huge (> kMaxCoordinate) coordinates or transforms, more than
// ik::Skeleton::kMaxJoints nodes, and a mesh with more than 65,535 bones. Never throws.
LoadResult LoadModel(const std::string& path);

// Largest absolute coordinate (in file units) accepted in positions, translations and matrices.
inline constexpr float kMaxCoordinate = 1.0e7f;

}  // namespace assets
