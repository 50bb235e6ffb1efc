// Skin-weight problems of a loaded model: the importer's per-vertex flags turned into per-mesh
// vertex lists and totals, and the posed bounds of those vertices for framing them.
#include "assets/model/weight_check.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace assets {

const char* WeightProblemKey(WeightProblem problem) {
  switch (problem) {
    case WeightProblem::kUnweighted:
      return "unweighted";
    case WeightProblem::kNotNormalized:
      return "not_normalized";
    case WeightProblem::kTooManyInfluences:
      return "too_many_influences";
  }
  return "";
}

const char* WeightProblemLabel(WeightProblem problem) {
  switch (problem) {
    case WeightProblem::kUnweighted:
      return "Unweighted";
    case WeightProblem::kNotNormalized:
      return "Weights not summing to 1";
    case WeightProblem::kTooManyInfluences:
      return "More than 8 influences";
  }
  return "";
}

namespace {

// The flags of vertex v: the importer's, or for a mesh it did not flag, what its weights say
// (a mesh built in code need not have gone through the importer's repairs).
uint8_t VertexFlags(const Mesh& mesh, size_t v) {
  if (mesh.weight_flags.size() == mesh.positions.size()) return mesh.weight_flags[v];
  if (v >= mesh.weights.size()) return kWeightUnweighted;
  float sum = mesh.weights[v].x + mesh.weights[v].y + mesh.weights[v].z + mesh.weights[v].w;
  if (v < mesh.extra_weights.size()) {
    const glm::vec4& e = mesh.extra_weights[v];
    sum += e.x + e.y + e.z + e.w;
  }
  if (!(sum > 0.0f)) return kWeightUnweighted;
  return std::abs(sum - 1.0f) > 1e-3f ? kWeightNotNormalized : 0;
}

// How many distinct positions (bit for bit) the listed vertices have.
uint64_t DistinctPositions(const Mesh& mesh, const std::vector<uint32_t>& list) {
  std::vector<std::array<uint32_t, 3>> bits(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    std::memcpy(bits[i].data(), &mesh.positions[list[i]], sizeof(glm::vec3));
  }
  std::sort(bits.begin(), bits.end());
  return static_cast<uint64_t>(std::unique(bits.begin(), bits.end()) - bits.begin());
}

// Whether mesh `b` is another copy of mesh `a`: a file's mesh shown by several nodes is loaded
// once per node, with the same vertices, triangles and weight problems.
bool SameFileMesh(const Mesh& a, const Mesh& b) {
  return a.positions.size() == b.positions.size() && a.indices == b.indices &&
         a.weight_flags == b.weight_flags &&
         std::memcmp(a.positions.data(), b.positions.data(),
                     a.positions.size() * sizeof(glm::vec3)) == 0;
}

}  // namespace

WeightProblems CheckWeights(const Model& model) {
  constexpr uint8_t kBits[kWeightProblemKinds] = {kWeightUnweighted, kWeightNotNormalized,
                                                  kWeightTooMany};
  WeightProblems out;
  out.meshes.resize(model.meshes.size());
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const size_t n = mesh.positions.size();
    for (size_t v = 0; v < n; ++v) {
      const uint8_t f = VertexFlags(mesh, v);
      if (f == 0) continue;
      for (int k = 0; k < kWeightProblemKinds; ++k) {
        if (f & kBits[k]) {
          out.meshes[m].vertices[static_cast<size_t>(k)].push_back(static_cast<uint32_t>(v));
        }
      }
    }
    const auto& lists = out.meshes[m].vertices;
    if (std::all_of(lists.begin(), lists.end(), [](const auto& l) { return l.empty(); })) continue;
    // Another node's copy of a mesh already counted adds no vertices of the file.
    bool copy = false;
    for (size_t earlier = 0; earlier < m && !copy; ++earlier) {
      copy = out.meshes[earlier].vertices == lists && SameFileMesh(model.meshes[earlier], mesh);
    }
    if (copy) continue;
    for (size_t k = 0; k < kWeightProblemKinds; ++k) {
      out.totals[k] += DistinctPositions(mesh, lists[k]);
    }
  }
  return out;
}

Bounds ProblemBounds(const Model& model, const WeightProblems& problems, WeightProblem problem,
                     const std::vector<glm::mat4>& models, const MorphWeights* weights) {
  Bounds bounds;
  const size_t kind = static_cast<size_t>(problem);
  std::vector<glm::vec3> positions;
  for (size_t m = 0; m < model.meshes.size() && m < problems.meshes.size(); ++m) {
    const std::vector<uint32_t>& list = problems.meshes[m].vertices[kind];
    if (list.empty()) continue;
    const Mesh& mesh = model.meshes[m];
    if (weights && m < weights->size()) {
      SkinMesh(mesh, models, (*weights)[m], &positions, nullptr);
    } else {
      SkinMesh(mesh, models, &positions, nullptr);
    }
    for (uint32_t v : list) {
      if (v < positions.size()) bounds.Add(positions[v]);
    }
  }
  return bounds;
}

}  // namespace assets
