// Skin-weight problems of a loaded model, per mesh and in total: vertices no joint moves,
// vertices whose weights did not sum to 1 in the file, vertices with more influences than kept.
#pragma once

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "assets/model/model.h"
#include "assets/model/morph.h"
#include "assets/model/skinning.h"

namespace assets {

enum class WeightProblem {
  kUnweighted,         // no influence, or every weight 0 (the importer binds it to its node)
  kNotNormalized,      // weights summed more than 1e-3 away from 1 (the importer renormalised)
  kTooManyInfluences,  // more than kMaxInfluences influences (the largest were kept)
};
inline constexpr int kWeightProblemKinds = 3;

// "unweighted", "not_normalized", "too_many_influences" (the JSON keys of `skelview info`).
const char* WeightProblemKey(WeightProblem problem);
// "Unweighted", "Weights not summing to 1", "More than 8 influences" (for the panel).
const char* WeightProblemLabel(WeightProblem problem);

struct MeshWeightProblems {
  // Per kind (indexed by WeightProblem), the mesh's vertex indices with that problem, ascending.
  std::array<std::vector<uint32_t>, kWeightProblemKinds> vertices;
};

struct WeightProblems {
  std::vector<MeshWeightProblems> meshes;  // one per Model::meshes, in order
  // Vertices per kind over all meshes, counted as the file's vertices: within a mesh, vertices at
  // bit-identical positions count once (Assimp's readers split a source vertex into one per face
  // corner, and corners that differ in normal or uv stay apart after welding), and a mesh that
  // is another node's copy of an earlier one (same vertices, triangles and problems) adds
  // nothing. The one count of weight problems: the importer's warnings, `info`, the Model and
  // Weights panels all give these.
  std::array<uint64_t, kWeightProblemKinds> totals{};

  uint64_t count(WeightProblem problem) const { return totals[static_cast<int>(problem)]; }
};

// The problems of every mesh (vertex lists in the loaded meshes' vertices, totals in distinct
// positions): from Mesh::weight_flags (what the importer saw in the file before repairing)
// when it has one per vertex, else from the weights themselves (all zero: unweighted; a sum off
// by more than 1e-3: not normalised), for meshes the importer found clean or that code built. A
// vertex is unweighted or not normalised, not both. Linear in the vertex count plus a sort
// of the problem vertices; never fails.
WeightProblems CheckWeights(const Model& model);

// World-space bounds of the vertices with `problem`, skinned on the CPU with the model-space
// joint matrices `models` (one per skeleton joint) and morph weights `weights` (indexed like
// model.meshes; each mesh's defaults when null). Empty when there are no such vertices.
// `problems` must come from CheckWeights(model).
Bounds ProblemBounds(const Model& model, const WeightProblems& problems, WeightProblem problem,
                     const std::vector<glm::mat4>& models, const MorphWeights* weights = nullptr);

}  // namespace assets
