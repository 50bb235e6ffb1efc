// The validating copy of an Assimp scene into a Model: the node tree, meshes, materials and
// animations (scene_converter.cpp, scene_materials.cpp), for the formats only Assimp reads (glTF
// 2.0 is read by assets/gltf_*). Internal to assets/.
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

#include "assets/assimp/scene_frame.h"
#include "assets/files/load_progress.h"
#include "assets/files/model_files.h"
#include "assets/gltf/model_builder.h"
#include "assets/model/model.h"
#include "ik/core/skeleton.h"

struct aiScene;
struct aiNode;
struct aiMesh;

namespace assets {

// Copies an Assimp scene into a Model, checking every index, size and float as it goes: Assimp's
// data is never trusted.
class SceneConverter : public ModelBuilder {
 public:
  // weld: merge identical vertices (WeldIdenticalVertices), for readers that do not index.
  // files: how texture files are opened (the import's rules and record).
  SceneConverter(aiScene* scene, std::string path, bool weld, LoadProgress* progress,
                 ModelFiles* files)
      : ModelBuilder(std::move(path), weld, progress, files), scene_(scene) {}

  bool Run(Model* model, std::string* error);
  // Applied on top of every root joint, to its rest local and its animation keys, so that the
  // whole model (skinned or rigid meshes, joints, clips) moves into skelview's frame.
  void SetFrameCorrection(const FrameCorrection& correction) { frame_ = correction; }
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
  bool Finish(Model* model, std::string* error);
  void ConvertMaterials();
  // reference: an embedded texture's name, or a texture path from the file (a URI: it is
  // percent-decoded), relative to the model's folder or absolute.
  int LoadTexture(const std::string& reference, const std::string& material);
  void ConvertAnimations();

  aiScene* scene_;  // owned by the caller; meshes are freed as soon as they are converted
  FrameCorrection frame_;
  bool name_meshes_by_node_ = false;

  std::vector<const aiNode*> nodes_;
  std::vector<ik::JointDesc> descs_;
  std::vector<std::string> names_;
  std::vector<glm::mat4> rest_models_;
  std::unordered_map<std::string, int> joint_by_name_;
  std::set<std::string> ambiguous_names_;
  std::map<std::string, int> texture_by_reference_;
};

}  // namespace assets
