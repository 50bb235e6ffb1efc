// CPU linear-blend skinning (the reference the GPU path is checked against, and what `pose
// --vertices` prints) and the world bounding box used to frame the camera.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "assets/model/model.h"
#include "assets/model/morph.h"

namespace assets {

// Axis-aligned box in world space. Empty (min > max) until a point is added.
struct Bounds {
  glm::vec3 min{1.0f};
  glm::vec3 max{-1.0f};

  bool empty() const { return min.x > max.x; }
  void Add(const glm::vec3& p);  // non-finite points are ignored
  glm::vec3 center() const;      // (0,0,0) when empty
  glm::vec3 size() const;        // (0,0,0) when empty
  float diagonal() const;        // length of size(); 0 when empty
};

// Skins one mesh with model-space joint matrices 𝕋 (one per skeleton joint, e.g. from
// ik::LocalToModel; model space is world space, all node transforms applied):
//   p' = Σ_k w_k · (𝕋[bone_joints[j_k]] · bone_inverse_binds[j_k]) · p
// Normals use the inverse transpose of the blended 3x3 and are renormalised (a degenerate blend
// keeps the bind-time normal). A bone whose joint is not in `models` counts as the identity, so
// a mismatched pose cannot crash. `positions` and `normals` are resized to the vertex count;
// `normals` may be null. Morph targets are blended in first (BlendMorphTargets) with
// `morph_weights`, one per target of this mesh; the overload without takes the mesh's defaults
// (Mesh::target_weights). A mesh without targets skins its own arrays directly.
void SkinMesh(const Mesh& mesh, const std::vector<glm::mat4>& models,
              std::vector<glm::vec3>* positions, std::vector<glm::vec3>* normals);
void SkinMesh(const Mesh& mesh, const std::vector<glm::mat4>& models,
              const std::vector<float>& morph_weights, std::vector<glm::vec3>* positions,
              std::vector<glm::vec3>* normals);

// World AABB of all skinned meshes for the given joint matrices, or of the joint positions when
// the model has no mesh vertices. Empty only for a model with neither. Morph weights: `weights`
// (indexed like model.meshes) when given, else each mesh's defaults.
Bounds ModelBounds(const Model& model, const std::vector<glm::mat4>& models,
                   const MorphWeights* weights = nullptr);

// ModelBounds of the rest pose.
Bounds RestBounds(const Model& model);

}  // namespace assets
