// The clips of an import once the scene is converted: the glTF reader's exact clips, one per file
// animation in file order. Internal to assets/.
#pragma once

#include <string>
#include <vector>

#include "assets/gltf/gltf_reader.h"
#include "assets/model/model.h"

namespace assets {

// Replaces Assimp's clips with the reader's exact glTF clips when `joint_names` (the converted
// joints, `skipped_root` when the converter left out Assimp's synthetic root) are the scene walk
// the reader predicted; otherwise keeps Assimp's and warns when the file has clips.
// `mesh_gltf_nodes`: per mesh of *model, the glTF node it was read from (may be empty: the
// meshes placed on a node's joints are then the node's).
void ApplyGltfClips(const gltf::Contents& contents, bool skipped_root,
                    const std::vector<std::string>& joint_names,
                    const std::vector<int>& mesh_gltf_nodes, Model* model,
                    std::vector<std::string>* warnings);

// Last steps for every import: keeps every clip where the file has it (one that moves no joint
// stays, with a warning, so later clip numbers still match the file's), names unnamed ones
// ("Animation", or "Animation N" with N the clip's index) and prepares each for sampling.
void FinishClips(Model* model, std::vector<std::string>* warnings);

}  // namespace assets
