// Export: writes a Model as glTF 2.0 through Assimp's exporter (into memory), repairs what Assimp
// 5.2.5's glTF writer cannot express (per-mesh skins, exact node transforms, clips) and writes
// the result atomically.
#pragma once

#include <string>
#include <vector>

#include "assets/model.h"
#include "ik/skeleton.h"

namespace assets {

// Why an export failed: kRefused for what the caller asked (extension, a model without joints, a
// pose that does not fit, an output that would overwrite one of the model's input files), which a
// command line reports as bad input; kWriteFailed when the file could not be produced or written
// (disk full, file-size limit, no permission).
enum class ExportFailure { kNone, kRefused, kWriteFailed };

// The files an export to `path` writes: `path`, and for ".gltf" the ".bin" beside it (same name,
// extension replaced). Callers check them against their inputs before doing any work.
std::vector<std::string> ExportedFiles(const std::string& path);

// Writes `model` to `path`: binary glTF for ".glb", text glTF plus a ".bin" beside it for ".gltf"
// (extension in any case; the .bin is ExportedFiles(path)[1], the .gltf's only buffer). The file
// holds:
//  - one node per skeleton joint, in the skeleton's order when it is depth-first (as loaded
//    models and the built-in character are), with the joint names (duplicate or empty names are
//    made unique, "<name>.<joint index>" / "joint<index>") and rest transforms as T, R, S;
//  - every mesh with positions, normals, tangents (when it has them), uvs, triangles and
//    material; a skinned mesh gets its own skin (its bones' joints and inverse binds) and
//    JOINTS_0/WEIGHTS_0 (and _1 past four influences); an unskinned one sits on its node;
//  - morph targets (POSITION, NORMAL and TANGENT deltas), their names and default weights;
//  - materials with base colour and base-colour texture (embedded as PNG);
//  - every clip as one animation with the same name, keys and interpolation (morph weights too).
// LoadModel on the result gives back the same skeleton (names, parents, rest transforms) and
// the same skinned vertices. The files are written atomically (assets/file_output.h): after a
// failure every target holds what it held before. Fails with the reason in *error (which names
// the path) and the kind in *failure (when not null) when the extension is not .glb/.gltf, a file
// it would write is one of the model's input files (ModelInputFiles; e.g. exporting
// CesiumMan.gltf to CesiumMan0.gltf, whose .bin is the model's buffer), the model has no joints,
// or a file cannot be written.
bool ExportGltf(const Model& model, const std::string& path, std::string* error,
                ExportFailure* failure = nullptr);

// As above, but writes `rest_pose` (one local transform per joint, all finite) as the nodes'
// transforms while keeping every skin's inverse binds: viewers show the meshes deformed into that
// pose (e.g. after IK), and the clips still play. Fails also when the pose does not match the
// skeleton.
bool ExportGltf(const Model& model, const ik::Pose& rest_pose, const std::string& path,
                std::string* error, ExportFailure* failure = nullptr);

}  // namespace assets
