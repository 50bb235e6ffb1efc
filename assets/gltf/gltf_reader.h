// glTF reader: reads a glTF 2.0 file (.gltf/.glb) into a Model with skelview's own code — the
// node tree, meshes (plain, quantized, meshopt- or Draco-compressed), skins, morph targets,
// materials, textures and clips — after checking every count and reference against the data.
// glTF 1.0 files are left to Assimp. Internal to assets/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assets/files/load_progress.h"
#include "assets/files/model_files.h"
#include "assets/gltf/vrm.h"
#include "assets/model/model.h"
#include "ik/core/transform.h"

namespace assets::gltf {

// A mesh primitive as the glTF reader decodes it.
struct Primitive {
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
  int material = -1;              // glTF material index, -1 for glTF's default material
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

// A material as the reader takes it: base colour and the image of its base-colour texture
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

// A node of the file, as the Model needs it.
struct Node {
  // Its name, or "nodes[<index>]" when it has none; a name an earlier node has is made
  // "<name>.<index>" (with a warning), so that every node's is unique.
  std::string name;
  bool named = false;  // the file gives it a name (not "nodes[<index>]")
  // Its local transform: the `translation`, `rotation` (made unit length) and `scale` as given,
  // or the decomposition of its `matrix` (which wins when both are there).
  ik::Transform rest;
  // The matrix had shear or projection (or a zero scale) that translation-rotation-scale cannot
  // hold.
  bool approximated = false;
  // The matrix has a non-finite element or one beyond kMaxCoordinate (refused for a joint).
  bool huge = false;
  int mesh = -1;  // glTF mesh index, -1 for none
  int skin = -1;  // glTF skin index, -1 for none
  // Its own morph `weights` (overriding its mesh's), empty when it has none or they are not all
  // finite numbers.
  std::vector<float> weights;
};

struct PrepareOptions {
  // How buffer files are opened (the import's rules, and its record of files read); null: with
  // the folder rule and no record kept. Not owned.
  ModelFiles* files = nullptr;
  // Progress and cancellation (polled between steps and meshes); null for none. Not owned.
  LoadProgress* progress = nullptr;
};

struct Contents {
  // glTF 1.0 only: the file's bytes with its node rotations made unit quaternions, for Assimp to
  // read in place of the file's own (same path, so relative URIs still resolve); empty when
  // nothing needed that.
  std::vector<uint8_t> patched;
  // What was repaired, for the user.
  std::vector<std::string> warnings;
  bool is_gltf2 = false;  // false for glTF 1.0, which is left to Assimp
  // The scene's node tree: the glTF node index of each joint in the preorder walk of the scene
  // (a node two parents list appears under each), and each joint's parent there (-1 for a root).
  std::vector<int> preorder_nodes;
  std::vector<int> preorder_parents;
  std::vector<Node> nodes;  // every node of the file, indexed like the file's
  // Animations read straight from the file with their interpolation. JointAnimation::joint and
  // MorphAnimation::mesh hold the glTF *node* index here.
  std::vector<Clip> clips;
  std::vector<std::vector<Primitive>>
      meshes;                           // every glTF mesh's primitives, indexed like the file
  std::vector<std::string> mesh_names;  // every glTF mesh's name, empty when it has none
  std::vector<Skin> skins;
  std::vector<MaterialSource> materials;  // the file's materials, in order
  std::vector<ImageSource> images;        // the file's images, in order
  // In files skelview wrote (asset.generator "skelview"): the scene root nodes that only hold a
  // skinned mesh (no children, no transform animation, not a joint of any skin), where export puts
  // skinned meshes as glTF wants them. Left out of the node tree, so that a model comes back with
  // the joints it was written with, and their meshes read all the same. Other files keep every node
  // as a joint.
  std::vector<int> mesh_holders;
  // A VRM avatar's meta and humanoid map (extensions.VRM or VRMC_vrm), when the file declares one.
  bool has_avatar = false;
  vrm::Avatar avatar;
};

// True for a path ending in .gltf, .glb or .vrm (any case) or bytes starting with the binary magic.
bool LooksLikeGltf(const std::string& path, const std::vector<uint8_t>& bytes);

// Reads a glTF file of `file_size` bytes whose start is in `bytes`: all of a .gltf, and of a .glb
// at least the header, JSON chunk and next chunk header (see Document::Parse). For glTF 2.0 it
// checks everything and decodes nodes, meshes, skins, materials and animations into *out; a glTF
// 1.0 file only gets its node rotations made unit quaternions (out->patched) and is_gltf2 false.
// Repairs, each with a warning: node rotations made unit quaternions (a zero or non-finite one
// becomes no rotation), duplicate node names made unique ("<name>.<node index>"), a skin without
// inverseBindMatrices bound with identity matrices (as glTF specifies).
// Fails, with the reason in *error (without the path), on: a truncated or malformed .glb, JSON
// that does not parse, no scene, a node hierarchy with a cycle or deeper than kMaxDepth, more than
// ik::Skeleton::kMaxJoints nodes, a skin with more than 65,535 joints or none, references to
// meshes, skins, nodes or accessors that do not exist, buffers, bufferViews or accessors that
// claim more than their data holds or more than the limits in importer.h (the decode budget
// included), JSON nested deeper than kMaxJsonDepth, an extension it requires that skelview does
// not support, compressed data that does not decode, buffers that cannot be read (missing, not
// regular files, or outside the model's folder when that is not allowed), and when
// options.progress says the load was cancelled ("cancelled").
bool Prepare(const std::string& path, const std::vector<uint8_t>& bytes, uint64_t file_size,
             const PrepareOptions& options, Contents* out, std::string* error);

// The Model of a glTF 2.0 file Prepare read (`contents`, whose decoded arrays it moves out): the
// scene's nodes as joints (see Contents::preorder_nodes), a Mesh per primitive of every node that
// shows a mesh (skinned by the node's skin, else bound rigidly to the node; an unnamed mesh is
// named after its node, when that has a name), only the materials meshes use (glTF's white
// default for primitives without one) with their base colour textures decoded (within the pixel
// limits, or only checked against them when !texture_pixels: then no textures are kept; a texture
// that cannot be loaded is a warning), and the clips mapped onto the joints and
// meshes (not yet prepared: see FinishClips). A VRM avatar's meta becomes Model::avatar and its
// humanoid map the skeleton's (bones on nodes outside the scene left out, with a warning).
// Warnings go to *warnings. Fails, with the reason,
// on non-finite or huge transforms, positions or inverse binds, an empty scene, or a cancel.
bool BuildModel(const std::string& path, Contents* contents, bool texture_pixels,
                LoadProgress* progress, ModelFiles* files, Model* model,
                std::vector<std::string>* warnings, std::string* error);

inline constexpr int kMaxDepth = 1000;

}  // namespace assets::gltf
