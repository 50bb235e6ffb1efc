// The last step of every import: names that are not UTF-8 (a Latin-1 byte in a BVH joint, an FBX
// model or a Collada node) made valid, so that JSON output, the trace and the UI can hold them.
// Internal to assets/.
#pragma once

#include <string>
#include <vector>

#include "assets/model/model.h"

namespace assets {

// Replaces the bytes that are not UTF-8 in every name of `model` (joints, meshes, morph targets,
// materials, textures, clips) by U+FFFD (assets::ValidUtf8). A joint, mesh, clip or mesh's target
// whose repaired name equals another name of its kind gets Blender's suffix (".001", ".002", ...)
// so that names that were different stay different. Adds one warning to *warnings when a name
// changed, and repairs the warnings themselves. Model::source and source_files are paths and
// stay as they are.
void MakeNamesValidUtf8(Model* model, std::vector<std::string>* warnings);

}  // namespace assets
