// What an imported file may make skelview allocate and decode: the limits every reader (ours for
// glTF, Assimp's scene conversion for the other formats) checks, and the serialised Model too.
// Public: LoadModel's contract (assets/importer.h includes this header).
#pragma once

#include <cstdint>

namespace assets {

// Limits on what a file may make skelview allocate, checked against the counts a file declares
// before anything is allocated from them (for glTF in the glTF reader, before Assimp reads the
// file; for other formats as Assimp's scene is copied). Each violation fails the load with a
// message naming the limit.
//  - files larger than kMaxFileBytes are refused before they are read;
//  - glTF: every accessor must lie inside its bufferView and every bufferView inside its buffer,
//    every buffer must hold the bytes its byteLength claims (checked on the file size, a .glb
//    chunk or a data URI's length), and an accessor may not claim more elements than
//    kMaxAccessorElements; an accessor without a bufferView (zero-filled) may decode to at most
//    256 MiB; JSON may nest at most 256 levels and hold at most 512 MiB;
//  - OFF and PLY: element counts in the header must fit in the file's size (Assimp reserves
//    memory for them before reading);
//  - all formats: at most kMaxVertices vertices and kMaxTriangles triangles over all mesh instances
//    (a mesh used by several nodes counts once per node), at most ik::Skeleton::kMaxJoints
//    (65,535) nodes and 65,534 bones per mesh;
//  - the decode budget: what a file makes skelview decode may not exceed DecodeBudget(bytes), where
//    bytes is what the model really has (its file plus its external buffer files; for other
//    formats every file Assimp read), so that a small file cannot make it decode gigabytes by
//    repeating or zero-filling data. glTF, counted before anything is decoded: per primitive
//    kDecodeBytesPerVertex bytes per vertex plus kDecodeBytesPerInfluenceSet per JOINTS_n/WEIGHTS_n
//    set, 4 per index and 12 per triangle, once per node that shows the mesh (once for a mesh no
//    node shows); 64 per inverse bind matrix; 4 per animation key time and value component, per
//    channel. Other formats: kDecodeBytesPerVertex per vertex and 12 per triangle of every mesh
//    instance copied from Assimp's scene. Refused with "its meshes... would take N MiB to decode,
//    more than the M MiB skelview allows for a model of K KiB";
//  - textures: at most 16,384 pixels a side, kMaxTexturePixels pixels each and
//    kMaxTotalTexturePixels over the model, checked on the image's header before it is decoded;
//    a texture beyond them is left out with a warning naming it (the model still loads).
inline constexpr uint64_t kMaxFileBytes = uint64_t{2} << 30;        // 2 GiB
inline constexpr uint64_t kMaxVertices = 50'000'000;                // over all mesh instances
inline constexpr uint64_t kMaxTriangles = 100'000'000;              // over all mesh instances
inline constexpr uint64_t kMaxAccessorElements = 100'000'000;       // per glTF accessor
inline constexpr uint64_t kDecodeBudgetBase = uint64_t{256} << 20;  // 256 MiB
inline constexpr uint64_t kDecodeBudgetPerByte = 16;
inline constexpr uint64_t kMaxDecodeBytes = uint64_t{6} << 30;  // 6 GiB, whatever the file size
// Position, normal, uv, four joints and four weights of a Model vertex.
inline constexpr uint64_t kDecodeBytesPerVertex = 56;
// One JOINTS_n/WEIGHTS_n pair read as floats.
inline constexpr uint64_t kDecodeBytesPerInfluenceSet = 32;
inline constexpr uint64_t kMaxTexturePixels = uint64_t{8192} * 8192;       // 256 MiB as RGBA8
inline constexpr uint64_t kMaxTotalTexturePixels = 4 * kMaxTexturePixels;  // 1 GiB as RGBA8

// min(kMaxDecodeBytes, kDecodeBudgetBase + kDecodeBudgetPerByte * source_bytes), in bytes.
inline uint64_t DecodeBudget(uint64_t source_bytes) {
  if (source_bytes > (kMaxDecodeBytes - kDecodeBudgetBase) / kDecodeBudgetPerByte) {
    return kMaxDecodeBytes;
  }
  return kDecodeBudgetBase + kDecodeBudgetPerByte * source_bytes;
}

// Largest absolute coordinate (in file units) accepted in positions, translations and matrices.
inline constexpr float kMaxCoordinate = 1.0e7f;

}  // namespace assets
