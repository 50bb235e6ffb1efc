// Export: writes a Model as glTF 2.0 with our own document code (assets/gltf/gltf_writer.h),
// atomically, as .glb or as .gltf + .bin.
#pragma once

#include <string>
#include <vector>

#include "assets/model/model.h"
#include "ik/core/skeleton.h"

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
//  - node j for skeleton joint j, with the joint names (duplicate or empty names are made unique,
//    "<name>.<joint index>" / "joint<index>") and rest transforms as T, R, S;
//  - every mesh with vertices and triangles, its vertices in the model's order: positions,
//    normals, tangents (when it has them), uvs, triangles and material. A skinned mesh gets its
//    own skin (its bones' joints and inverse binds) and JOINTS_0/WEIGHTS_0 (and _1 past four
//    influences), on a node of its own at the scene's root with no transform; an unskinned one
//    sits on its joint's node (a second one there is written as a one-bone skin);
//  - morph targets (POSITION, NORMAL and TANGENT deltas, sparse where that is smaller), their
//    names (extras.targetNames) and default weights;
//  - materials with base colour and base-colour texture (embedded as PNG);
//  - every clip as one animation with the same name, keys and interpolation (morph weights too);
//  - asset.generator "skelview".
// The same model gives the same bytes. LoadModel on the result gives back the same skeleton
// (names, parents, rest transforms), skinned vertices, targets and clips. The files are written
// atomically (assets/files/file_output.h): after a failure every target holds what it held before.
// Fails with the reason in *error (which names the path) and the kind in *failure (when not
// null) when the extension is not .glb/.gltf, a file it would write is one of the model's input
// files (ModelInputFiles; e.g. exporting CesiumMan.gltf to CesiumMan0.gltf, whose .bin is the
// model's buffer), the model has no joints, or a file cannot be written.
bool ExportGltf(const Model& model, const std::string& path, std::string* error,
                ExportFailure* failure = nullptr);

// A pose export: as above, but writes `rest_pose` (one local transform per joint, all finite) as
// the nodes' transforms while keeping every skin's inverse binds, so that viewers show the meshes
// deformed into that pose (e.g. after IK); and `morph_weights` (when not null: per mesh, one
// weight per target, as assets/model/morph.h's MorphWeights) as the meshes' default blend-shape
// weights. The file holds no clips: it is the pose, and opens in it in skelview and elsewhere
// (a clip would set its joints to its own first frame). Fails also when the pose does not match
// the skeleton or a weight is not finite.
bool ExportGltf(const Model& model, const ik::Pose& rest_pose, const std::string& path,
                std::string* error, ExportFailure* failure = nullptr,
                const std::vector<std::vector<float>>* morph_weights = nullptr);

}  // namespace assets
