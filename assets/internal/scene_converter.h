// The validating copy of an imported scene into a Model: Assimp's node tree, meshes, materials
// and animations (scene_converter.cpp, scene_materials.cpp), or the glTF reader's own meshes
// placed on that tree (gltf_meshes.cpp). Internal to assets/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "assets/internal/gltf_reader.h"
#include "assets/internal/load_progress.h"
#include "assets/internal/mesh_cleanup.h"
#include "assets/internal/model_files.h"
#include "assets/internal/scene_frame.h"
#include "assets/model.h"
#include "ik/skeleton.h"

struct aiScene;
struct aiNode;
struct aiMesh;

namespace assets {

// Copies an Assimp scene into a Model, checking every index, size and float as it goes: Assimp's
// data is never trusted.
class SceneConverter {
 public:
  // skip_root: leave out the scene's root node, which Assimp invents above several glTF scene
  // roots (its children become roots), so that joints are exactly the file's nodes.
  // weld: merge identical vertices (WeldIdenticalVertices), for readers that do not index.
  // files: how texture files are opened (the import's rules and record).
  SceneConverter(aiScene* scene, std::string path, bool skip_root, bool weld,
                 LoadProgress* progress, ModelFiles* files)
      : scene_(scene),
        path_(std::move(path)),
        skip_root_(skip_root),
        weld_(weld),
        progress_(progress),
        files_(files) {}

  bool Run(Model* model, std::string* error);
  std::vector<std::string>& warnings() { return warnings_; }
  bool skipped_root() const { return skip_root_; }
  // Take meshes and skins from the glTF reader's native decoding instead of Assimp's scene; the
  // primitives are moved out where a mesh is used once.
  void UseNativeMeshes(gltf::Contents* contents) { native_ = contents; }
  // Run's error when Assimp's node tree is not the scene walk the glTF reader predicted, so that
  // native meshes cannot be placed (the caller then loads through Assimp's meshes).
  static constexpr const char* kMisaligned = "internal: glTF nodes do not match Assimp's";
  const std::vector<std::string>& joint_names() const { return names_; }
  // Native meshes: per converted mesh, the glTF node it was read from (holder nodes included,
  // which are no joint), for the clips' morph-weight channels; empty otherwise.
  const std::vector<int>& mesh_gltf_nodes() const { return mesh_gltf_nodes_; }
  // Applied on top of every root joint, to its rest local and its animation keys, so that the
  // whole model (skinned or rigid meshes, joints, clips) moves into skelview's frame.
  void SetFrameCorrection(const FrameCorrection& correction) { frame_ = correction; }
  // Textures are checked but not decoded, and materials get none (LoadOptions::texture_pixels).
  void SkipTexturePixels() { texture_pixels_wanted_ = false; }
  // Name each mesh after its node (made unique with .001... when a node has several) instead of
  // Assimp's mesh name, which for FBX and Collada is the geometry's (Mesh_0, Cylinder-mesh).
  void NameMeshesByNode() { name_meshes_by_node_ = true; }

 private:
  bool WalkNodes(std::string* error);
  // count_repairs: the first instance of its source mesh, whose repairs the warnings count (a
  // mesh shown by several nodes is repaired once per node but is one mesh of the file).
  bool ConvertMesh(const aiMesh* source, int node, bool count_repairs, std::string* error);
  // A mesh's bones and weights (the four largest per vertex, counted in *counts, one per vertex).
  bool ConvertBones(const aiMesh* source, bool count_repairs, Mesh* mesh,
                    std::vector<uint8_t>* counts, std::string* error);
  bool ConvertSceneMeshes(std::string* error);
  bool ConvertNativeMeshes(std::string* error);
  bool Finish(Model* model, std::string* error);
  void ConvertNativeMaterials();
  bool ConvertPrimitive(gltf::Primitive* primitive, bool last_use, bool count_repairs, int node,
                        const gltf::Skin* skin, std::string* error);
  // Binds `skin`'s joints to mesh->bone_joints: (*slot_of)[k] is skin joint k's bone slot, or -1
  // for a joint outside the scene (its weights are dropped).
  bool BindSkin(const gltf::Skin& skin, const std::string& mesh_name, Mesh* mesh,
                std::vector<int>* slot_of, std::string* error);
  // Whether every element of `m` is finite and within kMaxCoordinate.
  static bool WithinLimits(const glm::mat4& m);
  bool CountInstance(size_t vertices, size_t triangles, std::string* error);
  // Welds the mesh (when weld_) carrying the per-vertex repair flags and `counts` (influences
  // per vertex, or empty), counts what was repaired when count_repairs — weight repairs by
  // source vertex (unique positions, see CountWeightRepairs) when `by_position`, else by welded
  // vertex; normals by welded vertex — and adds the mesh to the model.
  void AddMesh(Mesh mesh, std::vector<uint8_t>* flags, std::vector<uint8_t> counts,
               bool count_repairs, bool by_position);
  void ConvertMaterials();
  // reference: an embedded texture's name, or a texture path from the file (a URI: it is
  // percent-decoded), relative to the model's folder or absolute.
  int LoadTexture(const std::string& reference, const std::string& material);
  // Reads and decodes an image file if it fits the texture limits (its header is checked first).
  bool ReadTextureFile(const InputFile& file, Texture* texture, std::string* reason);
  // Decodes an image if it fits the texture limits; false with the reason otherwise.
  bool DecodeTexture(const uint8_t* data, size_t size, Texture* texture, std::string* reason);
  // Whether a width x height texture fits kMaxTexturePixels and, with the textures decoded so
  // far, kMaxTotalTexturePixels.
  bool TexturePixelsFit(int width, int height, std::string* reason) const;
  // Adds a loaded texture to the model and returns its index; -1 (nothing added) when texture
  // pixels are not wanted.
  int KeepTexture(Texture&& texture);
  void ConvertAnimations();

  aiScene* scene_;  // owned by the caller; meshes are freed as soon as they are converted
  std::string path_;
  bool skip_root_ = false;
  bool weld_ = false;
  LoadProgress* progress_;
  ModelFiles* files_;
  gltf::Contents* native_ = nullptr;
  FrameCorrection frame_;
  bool name_meshes_by_node_ = false;
  std::vector<int> joint_of_node_;    // native meshes: glTF node -> joint (first occurrence), or -1
  std::vector<int> mesh_gltf_nodes_;  // see mesh_gltf_nodes()
  Model* model_ = nullptr;
  std::vector<std::string> warnings_;

  std::vector<const aiNode*> nodes_;
  std::vector<ik::JointDesc> descs_;
  std::vector<std::string> names_;
  std::vector<glm::mat4> rest_models_;
  std::unordered_map<std::string, int> joint_by_name_;
  std::set<std::string> ambiguous_names_;
  std::map<std::string, int> texture_by_reference_;

  // Mesh instances converted so far, against kMaxVertices, kMaxTriangles and the decode budget.
  uint64_t total_vertices_ = 0, total_triangles_ = 0;
  // Texture pixels decoded so far, against kMaxTotalTexturePixels.
  uint64_t texture_pixels_ = 0;
  bool texture_pixels_wanted_ = true;

  // Repair counters, reported once per file, first instance of each mesh: weight repairs in the
  // file's vertices (see AddMesh), normals after welding.
  WeightRepairCounts weight_repairs_;
  size_t bad_weights_ = 0;
  size_t skipped_faces_ = 0, repaired_normals_ = 0, skipped_meshes_ = 0;
  std::set<std::string> missing_bones_;
};

}  // namespace assets
