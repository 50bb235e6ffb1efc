// The clips of an import once the scene is converted: the glTF reader's exact clips, split clips
// merged, empty clips dropped. Internal to assets/.
#pragma once

#include <string>
#include <vector>

#include "assets/internal/gltf_reader.h"
#include "assets/model.h"

namespace assets {

// Several unnamed clips of one length that move disjoint joint sets are one animation that an
// exporter split per joint; merges them into one clip (with a warning).
void MergeSplitClips(Model* model, std::vector<std::string>* warnings);

// Replaces Assimp's clips with the reader's exact glTF clips when `joint_names` (the converted
// joints, `skipped_root` when the converter left out Assimp's synthetic root) are the scene walk
// the reader predicted; otherwise keeps Assimp's and warns when the file has clips.
void ApplyGltfClips(const gltf::Contents& contents, bool skipped_root,
                    const std::vector<std::string>& joint_names, Model* model,
                    std::vector<std::string>* warnings);

// Last steps for every import: merges split clips, drops clips that move no joint (with a
// warning), names unnamed ones ("Animation", "Animation N") and prepares each for sampling.
void FinishClips(Model* model, std::vector<std::string>* warnings);

}  // namespace assets
