// The steps of the glTF reader that Prepare (gltf_reader.cpp) runs once the scene is walked: the
// limits, the animations, and the native meshes, skins and materials. Internal to assets/.
#pragma once

#include <cstdint>
#include <string>

namespace assets::gltf {

class Document;
struct Contents;

// gltf_reader_limits.cpp. Each fails with the reason in *error.
// Indices between top-level objects that Assimp follows without checking them all.
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

// gltf_reader_meshes.cpp: the native mesh path's meshes, skins and materials into *out.
// Morph targets are read with each primitive; a problem with them drops the part with a warning.
bool ReadMeshes(Document* d, Contents* out, std::string* error);
// The numbers of a JSON array (a `weights` member) when it is one and every element is a finite
// number; empty otherwise (and for null).
std::vector<float> FiniteNumbers(const Json* array);
bool ReadSkins(Document* d, Contents* out, std::string* error);
void ReadMaterials(Document* d, Contents* out);

}  // namespace assets::gltf
