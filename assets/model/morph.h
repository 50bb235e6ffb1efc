// Morph targets (blend shapes): each mesh's weight vector from its defaults, clips and overrides,
// and the blend of its targets into the bind-time vertices that skinning then deforms.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "assets/model/model.h"

namespace assets {

// Per mesh of a Model (indexed like Model::meshes), one weight per morph target of that mesh;
// empty for a mesh without targets. Weights are unitless factors on the deltas (usually 0..1, any
// finite value allowed).
using MorphWeights = std::vector<std::vector<float>>;

// Every mesh's default weights (Mesh::target_weights; 0 where that array does not match the
// target count).
MorphWeights DefaultMorphWeights(const Model& model);
// The same into *weights, reusing its storage: called every frame, it allocates nothing once the
// arrays have their sizes.
void DefaultMorphWeights(const Model& model, MorphWeights* weights);

// True when some mesh of the model has morph targets.
bool HasMorphTargets(const Model& model);

// Value of a weights track at `time_seconds` (clamped to its first and last keys), `track.width`
// values written to `out`. Returns false, writing nothing, for an empty track or one whose values
// do not match its times and width (times · width, × 3 for kCubicSpline).
bool SampleMorphTrack(const MorphAnimation& track, float time_seconds, float* out);

// Sets *weights to DefaultMorphWeights(model), then overrides the weights of each mesh the clip
// animates with its value at `time_seconds`. Channels naming a mesh outside the model, or whose
// width is not that mesh's target count, are ignored. Reuses *weights' storage.
void SampleClipMorphs(const Model& model, const Clip& clip, float time_seconds,
                      MorphWeights* weights);

// The mesh's bind-time positions and normals with its targets blended in:
//   p = positions[v] + Σ_t weights[t] · targets[t].positions[v]   (normals alike, not renormalised)
// Targets past weights.size(), with a zero or non-finite weight, or with deltas of another length
// than the mesh's vertices add nothing. Returns false, leaving the outputs alone, when no target
// contributes (the caller then uses the mesh's own arrays); otherwise resizes both outputs to the
// vertex count (normals stay empty when the mesh has none).
bool BlendMorphTargets(const Mesh& mesh, const std::vector<float>& weights,
                       std::vector<glm::vec3>* positions, std::vector<glm::vec3>* normals);

// The mesh's tangents with its targets' tangent deltas blended in, renormalised, handedness kept:
//   t = normalize(tangents[v].xyz + Σ_t weights[t] · targets[t].tangents[v]),  w = tangents[v].w
// (a sum that is zero or non-finite keeps the mesh's tangent). Targets are skipped as in
// BlendMorphTargets. Returns false, leaving *tangents alone, when the mesh has no tangents or no
// target's tangent deltas contribute (the caller then uses Mesh::tangents); otherwise resizes
// *tangents to the vertex count. Kept apart from BlendMorphTargets so that meshes without tangents
// (all that skelview draws) pay nothing for them.
bool BlendMorphTangents(const Mesh& mesh, const std::vector<float>& weights,
                        std::vector<glm::vec4>* tangents);

}  // namespace assets
