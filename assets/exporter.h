// Export: writes a Model as glTF 2.0 through Assimp's exporter, then repairs in the written file
// what Assimp 5.2.5's glTF writer cannot express (per-mesh skins, exact node transforms, clips).
#pragma once

#include <string>

#include "assets/model.h"
#include "ik/skeleton.h"

namespace assets {

// Writes `model` to `path`: binary glTF for ".glb", text glTF plus a ".bin" beside it for ".gltf"
// (extension in any case). The file holds:
//  - one node per skeleton joint, in the skeleton's order when it is depth-first (as loaded
//    models and the built-in character are), with the joint names (duplicate or empty names are
//    made unique, "<name>.<joint index>" / "joint<index>") and rest transforms as T, R, S;
//  - every mesh with positions, normals, uvs, triangles and material; a skinned mesh gets its own
//    skin (its bones' joints and inverse binds) and JOINTS_0/WEIGHTS_0; an unskinned one sits on
//    its node;
//  - materials with base colour and base-colour texture (embedded as PNG);
//  - every clip as one animation with the same name, keys and interpolation.
// LoadModel on the result gives back the same skeleton (names, parents, rest transforms) and
// the same skinned vertices. Fails with the reason in *error (which names the path) when the
// extension is not .glb/.gltf, the model has no joints, or the file cannot be written.
bool ExportGltf(const Model& model, const std::string& path, std::string* error);

// As above, but writes `rest_pose` (one local transform per joint, all finite) as the nodes'
// transforms while keeping every skin's inverse binds: viewers show the meshes deformed into that
// pose (e.g. after IK), and the clips still play. Fails also when the pose does not match the
// skeleton.
bool ExportGltf(const Model& model, const ik::Pose& rest_pose, const std::string& path,
                std::string* error);

}  // namespace assets
