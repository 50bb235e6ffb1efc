// A small, bounds-checked reader of the FBX node properties that Assimp 5.2.5 loses (local
// translations and scalings too close to zero or one), and their restoration on Assimp's nodes.
// Internal to assets/.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "assets/files/model_files.h"

struct aiScene;

namespace assets {

// One FBX Model object's local transform properties, as the file writes them (file units,
// degrees); `has_*` say whether its Properties70 holds the property.
struct FbxModelTransform {
  std::string name;  // without the "Model::" class prefix, as Assimp names the node
  bool has_translation = false, has_scaling = false, has_scaling_pivot = false;
  glm::dvec3 translation{0.0}, scaling{1.0};
};

// Reads every Objects/Model's "Lcl Translation", "Lcl Scaling" and whether it has a non-zero
// "ScalingPivot", from a binary FBX (records are walked by their offsets; geometry is skipped,
// never read) or an ASCII one (read whole). False with the reason when the file is neither or is
// malformed (a record that ends outside its parent, a property that runs past its record...).
bool ReadFbxModelTransforms(const InputFile& file, std::vector<FbxModelTransform>* models,
                            std::string* reason);

// Assimp 5.2.5's FBX converter leaves out a local translation whose squared length is at most
// float epsilon (about 1.2e-7, a length of 3.5e-4 file units) and a scaling within that of
// (1,1,1); under a parent scaled ×100 that moves a child visibly. For each node named by exactly
// one Model (and one node), puts back what was dropped: the translation before Assimp's matrix
// (it is the leftmost factor of FBX's transform chain) and the scaling after it (the rightmost,
// when there is no scaling pivot). Returns how many nodes were corrected.
size_t RestoreDroppedFbxTransforms(const std::vector<FbxModelTransform>& models, aiScene* scene);

}  // namespace assets
