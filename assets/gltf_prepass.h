// glTF pre-pass: reads a .gltf/.glb file's JSON (and the buffers it needs) before Assimp does,
// refuses what would crash Assimp 5.2.5 and rewrites what it would misread. Internal to assets/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assets/model.h"

namespace assets::gltf {

// Assimp's name for the node it adds above several scene roots.
inline constexpr const char* kSyntheticRootName = "ROOT";

struct Prepass {
  // Bytes Assimp must read in place of the file's own (same path, so relative URIs still resolve);
  // empty when the file needs no repair.
  std::vector<uint8_t> patched;
  // What was repaired, for the user.
  std::vector<std::string> warnings;
  // The node order Assimp builds: the glTF node index of each node in the preorder walk of the
  // scene, -1 for the synthetic root Assimp adds when the scene has several root nodes.
  std::vector<int> preorder_nodes;
  // Name Assimp gives each glTF node (its name, or "nodes[i]" when unnamed), after the pre-pass
  // made duplicates unique.
  std::vector<std::string> node_names;
  // Animations read straight from the file with their real interpolation (Assimp 5.2.5 turns step
  // and cubic-spline into linear). JointAnimation::joint holds the glTF *node* index here.
  std::vector<Clip> clips;
  bool is_gltf2 = false;  // false for glTF 1.0, which is left to Assimp untouched
};

// True for a path ending in .gltf or .glb (any case) or bytes starting with the binary magic.
bool LooksLikeGltf(const std::string& path, const std::vector<uint8_t>& bytes);

// Runs the pre-pass on a file already read into `bytes`. Repairs, each with a warning:
//   - a skin without inverseBindMatrices (Assimp 5.2.5 crashes): identity matrices are written in,
//     which is what glTF specifies for the missing accessor;
//   - normalized unsigned byte/short weights (Assimp returns garbage) and extra JOINTS_n/WEIGHTS_n
//     sets (Assimp keeps only the first): rewritten as one float set holding each vertex's four
//     largest weights, renormalised;
//   - several nodes sharing one mesh where a skin is involved (Assimp merges their skins): each
//     node gets its own copy of the mesh;
//   - duplicate node names (joints are found by name): renamed "<name>.<node index>".
// Fails, with the reason in *error (without the path), on: a truncated or malformed .glb, JSON
// that does not parse, no scene, a node hierarchy with a cycle or deeper than kMaxDepth, more than
// ik::Skeleton::kMaxJoints nodes, a skin with more than 65,535 joints, and buffers that cannot be
// read or are shorter than their accessors need.
bool Prepare(const std::string& path, const std::vector<uint8_t>& bytes, Prepass* out,
             std::string* error);

inline constexpr int kMaxDepth = 1000;

}  // namespace assets::gltf
