// The file formats the importer reads, for file dialogs and drop filters.
#pragma once

#include <string>
#include <vector>

namespace assets {

// Lower-case extensions without the dot ("gltf", "glb", "fbx", ...), sorted, that Assimp reads, and
// "vrm" (VRM avatars, binary glTF that skelview's own reader opens).
const std::vector<std::string>& SupportedExtensions();

// True when `path` ends in one of SupportedExtensions() (case-insensitive).
bool HasSupportedExtension(const std::string& path);

}  // namespace assets
