// The steps of the glTF reader that Prepare (gltf_reader.cpp) runs once the scene is walked: the
// limits, the animations, and the meshes, skins and materials. Internal to assets/.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "assets/files/load_progress.h"
#include "assets/gltf/gltf_document.h"

namespace assets::gltf {

struct Contents;

// gltf_reader_limits.cpp. Each fails with the reason in *error.
// Indices between top-level objects (nodes to meshes and skins, skins to nodes and accessors,
// primitives to accessors).
bool CheckReferences(const Document& d, std::string* error);
// Vertices and triangles over every node that shows a mesh (`walk`: the scene walk), against
// kMaxVertices and kMaxTriangles, from the accessor counts (already checked against their data).
bool CheckInstancedSize(const Document& d, const Contents& walk, std::string* error);
// What decoding the meshes (per instance), skins and animations would take, against DecodeBudget
// of the bytes the model really has (`file_size` plus its external buffers).
bool CheckDecodeBudget(const Document& d, const Contents& walk, uint64_t file_size,
                       std::string* error);

// gltf_reader_animations.cpp: the clips into out->clips (joints are glTF node indices). Keys and
// channels that fail their checks are dropped with a warning; returns true.
bool ReadAnimations(Document* d, Contents* out);

// gltf_reader_meshes.cpp: the meshes, skins and materials into *out. Morph targets are read with
// each primitive; a problem with them drops the part with a warning. `progress` (may be null)
// hears of each mesh and is polled for a cancel between them.
bool ReadMeshes(Document* d, LoadProgress* progress, Contents* out, std::string* error);
// The numbers of a JSON array (a `weights` member) when it is one and every element is a finite
// number; empty otherwise (and for null).
std::vector<float> FiniteNumbers(const Json* array);
bool ReadSkins(Document* d, Contents* out, std::string* error);
void ReadMaterials(Document* d, Contents* out);

// gltf_draco.cpp: a primitive compressed with KHR_draco_mesh_compression (`extension`, the
// primitive's extension object) decoded with Debian's libdraco: its attributes by glTF name
// (POSITION, NORMAL, TEXCOORD_0, TANGENT, JOINTS_n, WEIGHTS_n...), each as floats in the shape the
// primitive's accessor declares (normalized integers scaled as glTF specifies), and its triangles.
struct DracoPrimitive {
  size_t vertices = 0;
  std::map<std::string, AccessorData> attributes;
  std::vector<uint32_t> indices;
};
// Fails naming the problem: a malformed extension, a stream that does not decode or is not a
// triangle mesh, an attribute it names that the stream lacks, or one whose count or components
// differ from its accessor's.
bool DecodeDraco(Document* d, const Json& primitive, const Json& extension, DracoPrimitive* out,
                 std::string* error);

}  // namespace assets::gltf
