// Mesh clean-up shared by the import paths (Assimp's meshes and the glTF reader's): normals rebuilt
// from the faces, unusable texture coordinates dropped, skin influences normalised, identical
// vertices welded. Internal to assets/.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/type_precision.hpp>
#include <vector>

#include "assets/model/model.h"

namespace assets {

// Per-vertex repair flags (OR-ed; welding merges them into the kept vertex), so that a warning
// counts distinct vertices.
inline constexpr uint8_t kRepairOverFour = 1;      // more than four influences (kept up to eight)
inline constexpr uint8_t kRepairRenormalised = 2;  // weights did not add up to 1
inline constexpr uint8_t kRepairUnweighted = 4;    // no usable weight: bound to the mesh's node
inline constexpr uint8_t kRepairNormal = 8;        // the file's normal was unusable: rebuilt
inline constexpr uint8_t kRepairOverEight = 16;    // more than eight: the eight largest kept

// Unit normals per vertex (one per position) from the triangles around it, area weighted; +Y for
// a vertex that only degenerate triangles (or none) touch. `indices` must be < positions.size().
std::vector<glm::vec3> FaceNormals(const std::vector<glm::vec3>& positions,
                                   const std::vector<uint32_t>& indices);

// Normalises mesh->normals (one per position) in place; a zero, tiny or non-finite one is
// replaced by the vertex's FaceNormals and, when `had_normals` (the file gave them), flagged
// kRepairNormal in *flags (one per vertex; may be null).
void RepairNormals(Mesh* mesh, bool had_normals, std::vector<uint8_t>* flags);

// Clears mesh->uvs when any is non-finite; true when it did.
bool DropNonFiniteUvs(Mesh* mesh);

// Adds an influence (`weight` of bone slot `slot`) to a vertex's kMaxInfluences largest so far,
// kept in descending order, the first four in *top / *slots and the next four in *extra_top /
// *extra_slots, of which the first `kept` (0..8) are filled; ties keep the earlier influence first,
// as a stable sort would. A weight below all eight is dropped. The extra pair may be null while
// `kept` < 4 (nothing can reach it then).
void InsertInfluence(float weight, uint16_t slot, int kept, glm::vec4* top, glm::u16vec4* slots,
                     glm::vec4* extra_top = nullptr, glm::u16vec4* extra_slots = nullptr);

// mesh->weights / mesh->joints (and mesh->extra_weights / extra_joints when not empty) hold each
// vertex's (up to) eight largest influences in descending order and counts[v] how many it had:
// normalises them to add up to 1, flags what was repaired in *flags (one per vertex), binds
// vertices without any usable weight to `node` (a joint index, added once to mesh->bone_joints
// with an identity inverse bind), and empties the extra arrays when no vertex uses them.
void NormaliseInfluences(Mesh* mesh, const std::vector<uint8_t>& counts, int node,
                         std::vector<uint8_t>* flags);

// Sets mesh->weight_flags from the repair flags (one per vertex) as the kWeight* bits of
// assets/model/model.h, or empties it when no vertex had a weight problem (so clean meshes carry
// nothing).
void RecordWeightFlags(const std::vector<uint8_t>& flags, Mesh* mesh);

// Vertices with each kind of weight repair, and the influences dropped past the eighth.
struct WeightRepairCounts {
  uint64_t over_four = 0, over_eight = 0, dropped = 0, renormalised = 0, unweighted = 0;
};

// Adds to *out what `flags` (one per vertex: kRepairOverFour, kRepairOverEight,
// kRepairRenormalised, kRepairUnweighted) and `counts` (influences per vertex as given to
// NormaliseInfluences; empty: none dropped) say about the mesh's vertices. With `by_position`,
// vertices at bit-identical positions count once (flags OR-ed, the largest count kept): Assimp's
// readers split a source vertex into one per face corner, each at the source vertex's position
// with its weights, so this counts the file's vertices; two distinct source vertices at exactly
// the same position count as one; call it before WeldIdenticalVertices then. Without, each vertex
// counts: call it after WeldIdenticalVertices to count a file's duplicated vertices once.
void CountWeightRepairs(const Mesh& mesh, const std::vector<uint8_t>& flags,
                        const std::vector<uint8_t>& counts, bool by_position,
                        WeightRepairCounts* out);

// Merges vertices with bit-identical position, uv, joints and weights, normals (and tangents'
// xyz, with the same handedness) less than kWeldNormalDistance apart (exporters leave rounding
// noise in split normals; the first vertex's are kept), and remaps the triangles: most of Assimp's
// readers (FBX, OBJ, Collada...) give every face corner its own vertex, and glTF files carry such
// duplicates too. A vertex merges into the first earlier kept vertex it matches. Linear time (the
// vertices are grouped by a hash of their exact fields with a radix sort, in sequential passes),
// where Assimp's own JoinIdenticalVertices step is quadratic in bone weights. The mesh must have
// normals, joints and weights for every position (uvs may be empty). `flags` (optional, one per
// vertex) are merged with OR into the kept vertex, `counts` (optional, one per vertex) with max.
inline constexpr float kWeldNormalDistance = 1e-5f;
void WeldIdenticalVertices(Mesh* mesh, std::vector<uint8_t>* flags = nullptr,
                           std::vector<uint8_t>* counts = nullptr);

}  // namespace assets
