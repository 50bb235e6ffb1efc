// glTF reader (it runs before Assimp): reads a .gltf/.glb file before Assimp does, validates every
// count and reference against the data, and either decodes meshes, skins, materials and animations
// itself (the native path) or rewrites what Assimp 5.2.5 would misread. Internal to assets/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assets/files/model_files.h"
#include "assets/model/model.h"

namespace assets::gltf {

// Assimp's name for the node it adds above several scene roots.
inline constexpr const char* kSyntheticRootName = "ROOT";

// A mesh primitive decoded by the glTF reader (the native mesh path: Assimp never reads glTF mesh
// data, whose import there peaks at several times the decoded size and whose vertex joining is
// quadratic in bone weights).
struct Primitive {
  // As Assimp names it: the mesh's name (or "meshes[<index>]"), with "-<primitive index>" added
  // when the mesh has several primitives.
  std::string name;
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;  // as in the file, unchecked; empty when absent
  std::vector<glm::vec2> uvs;      // TEXCOORD_0, glTF convention; empty when absent
  // TANGENT, checked: unit xyz, w exactly +1 or -1 (as Mesh::tangents). Empty when absent, when
  // the primitive has no NORMAL (glTF then ignores tangents), or when the accessor is not VEC4
  // with one finite, non-zero tangent per vertex (bad_tangents set for the warning).
  std::vector<glm::vec4> tangents;
  bool bad_tangents = false;
  // Skin influences over every JOINTS_n/WEIGHTS_n set: per vertex the eight largest positive
  // weights in descending order (ties in file order) with their skin joint indices, the first
  // four in joints/weights and the next four in extra_joints/extra_weights (empty when no vertex
  // has more than four), unnormalised, and how many positive influences the vertex had in all
  // (saturating at 255). Empty when the primitive has no JOINTS_0/WEIGHTS_0.
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
  std::vector<glm::u16vec4> extra_joints;
  std::vector<glm::vec4> extra_weights;
  std::vector<uint8_t> influence_counts;
  size_t invalid_influences = 0;  // negative or non-finite weights, non-integer joints: dropped
  std::vector<uint32_t> indices;  // triangles, strips and fans converted
  size_t dropped_triangles = 0;   // with a corner past the vertices
  int material = -1;              // glTF material index, -1 for Assimp's default material
  // Morph targets in file order, named from the mesh's extras.targetNames. A target whose
  // POSITION or NORMAL accessor is not VEC3 with one element per vertex, or holds a non-finite or
  // huge delta, is kept without deltas (so weights keep their indices) and counted here.
  // A target's TANGENT deltas are kept only when `tangents` is; a bad TANGENT accessor drops only
  // that target's tangent deltas (counted in dropped_target_tangents).
  std::vector<MorphTarget> targets;
  size_t dropped_targets = 0;
  size_t dropped_target_tangents = 0;
  // The mesh's default weights (its `weights`), one per target; all 0 when the file gives none
  // or an array of the wrong length (counted in bad_weights).
  std::vector<float> target_weights;
  bool bad_weights = false;
  bool triangles = true;  // false: points or lines (or no positions), not loaded
};

struct Skin {
  std::vector<int> joints;               // glTF node indices
  std::vector<glm::mat4> inverse_binds;  // one per joint; identity when the file has none
};

// A material as the native path reads it: base colour and the image of its base-colour texture
// (pbrMetallicRoughness, or the diffuse of KHR_materials_pbrSpecularGlossiness).
struct MaterialSource {
  std::string name;
  glm::vec4 base_color{1.0f};  // glTF's default
  int image = -1;              // index into Contents::images, -1 for none
};

// An image's encoded bytes (embedded in a bufferView or data URI), or the path of its file.
struct ImageSource {
  std::string name;  // its uri, or "image <index>"
  std::vector<uint8_t> bytes;
  std::string file;   // its uri percent-decoded, relative to the model; empty when embedded
  std::string error;  // why neither could be read, when so
};

struct PrepareOptions {
  // Decode glTF meshes and skins in the glTF reader and hand Assimp a file without them (unless a
  // primitive uses Draco or meshopt compression, which only Assimp decodes).
  bool native_meshes = true;
  // How buffer files are opened (the import's rules, and its record of files read); null: with
  // the folder rule and no record kept. Not owned.
  ModelFiles* files = nullptr;
};

struct Contents {
  // Bytes Assimp must read in place of the file's own (same path, so relative URIs still resolve);
  // empty when the file needs no repair.
  std::vector<uint8_t> patched;
  // What was repaired, for the user.
  std::vector<std::string> warnings;
  // The node order Assimp builds: the glTF node index of each node in the preorder walk of the
  // scene, -1 for the synthetic root Assimp adds when the scene has several root nodes.
  std::vector<int> preorder_nodes;
  // Name Assimp gives each glTF node (its name, or "nodes[i]" when unnamed), after the glTF reader
  // made duplicates unique.
  std::vector<std::string> node_names;
  // Animations read straight from the file with their real interpolation (Assimp 5.2.5 turns step
  // and cubic-spline into linear). JointAnimation::joint holds the glTF *node* index here.
  std::vector<Clip> clips;
  bool is_gltf2 = false;  // false for glTF 1.0, which is left to Assimp untouched
  // The native mesh path was taken: `patched` has no meshes, skins or animations, and these hold
  // every glTF mesh's primitives (indexed like the file's meshes) and every skin.
  bool native_meshes = false;
  std::vector<std::vector<Primitive>> meshes;
  std::vector<Skin> skins;
  std::vector<MaterialSource> materials;  // the file's materials, in order
  std::vector<ImageSource> images;        // the file's images, in order
  std::vector<int> node_meshes;           // per glTF node: its mesh index, -1 for none
  std::vector<int> node_skins;            // per glTF node: its skin index, -1 for none
  // In files skelview wrote (asset.generator "skelview"): the scene root nodes that only hold a
  // skinned mesh (no children, no transform animation, not a joint of any skin), where export puts
  // skinned meshes as glTF wants them. Left out of the node tree, so that a model comes back with
  // the joints it was written with, and their meshes read all the same. Other files keep every node
  // as a joint. Native mesh path only.
  std::vector<int> mesh_holders;
  // Per glTF node: its own morph `weights` (overriding its mesh's), empty when it has none or
  // they are not all finite numbers.
  std::vector<std::vector<float>> node_weights;
};

// True for a path ending in .gltf or .glb (any case) or bytes starting with the binary magic.
bool LooksLikeGltf(const std::string& path, const std::vector<uint8_t>& bytes);

// Runs the glTF reader on a file of `file_size` bytes whose start is in `bytes`: all of a .gltf,
// and of a .glb at least the header, JSON chunk and next chunk header (see Document::Parse). With
// options.native_meshes (the default) it decodes meshes and skins itself (see Primitive) and gives
// Assimp only the scene; otherwise Assimp reads the meshes and the glTF reader repairs, each with a
// warning:
//   - a skin without inverseBindMatrices (Assimp 5.2.5 crashes): identity matrices are written in,
//     which is what glTF specifies for the missing accessor;
//   - normalized unsigned byte/short weights (Assimp returns garbage) and extra JOINTS_n/WEIGHTS_n
//     sets (Assimp keeps only the first): rewritten as one float set holding each vertex's four
//     largest weights, renormalised;
//   - several nodes sharing one mesh where a skin is involved (Assimp merges their skins): each
//     node gets its own copy of the mesh;
//   - duplicate node names (joints are found by name): renamed "<name>.<node index>".
// In both cases node rotations are made unit quaternions (glTF 1.0 files too, which are otherwise
// left to Assimp), with a warning naming the node when one was far from unit length; a zero or
// non-finite rotation becomes no rotation, also with a warning.
// Fails, with the reason in *error (without the path), on: a truncated or malformed .glb, JSON
// that does not parse, no scene, a node hierarchy with a cycle or deeper than kMaxDepth, more than
// ik::Skeleton::kMaxJoints nodes, a skin with more than 65,535 joints or none, references to
// meshes, skins, nodes or accessors that do not exist, buffers, bufferViews or accessors that
// claim more than their data holds or more than the limits in importer.h (the decode budget
// included), JSON nested deeper than kMaxJsonDepth, and buffers that cannot be read (missing,
// not regular files, or outside the model's folder when that is not allowed).
bool Prepare(const std::string& path, const std::vector<uint8_t>& bytes, uint64_t file_size,
             const PrepareOptions& options, Contents* out, std::string* error);

inline constexpr int kMaxDepth = 1000;
// Animation keys later than this (seconds, about 11.6 days) are dropped as corrupt.
inline constexpr float kMaxKeyTime = 1.0e6f;

}  // namespace assets::gltf
