// What the exporter's two passes share: where each joint and mesh goes in the written file (the
// plan exporter.cpp makes for Assimp) and the repair pass (exporter_repair.cpp). Internal to
// assets/.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "assets/model.h"
#include "ik/transform.h"

namespace assets {

// Name of the node added above several root joints (Assimp needs one root); removed again by the
// repair pass, so it never appears in the file.
inline constexpr char kWrapperName[] = "skelview-export-root";

// Where each mesh goes: the node it is attached to, and whether it must be written skinned.
struct MeshPlacement {
  int node = -1;         // joint index, or -(k+1) for the k-th extra holder node
  bool skinned = false;  // an unskinned mesh moved off its node is written as a 1-bone skin
};

struct ExportPlan {
  std::vector<std::string> node_names;    // per joint, unique
  std::vector<std::string> mesh_names;    // per mesh, unique
  std::vector<MeshPlacement> placements;  // per mesh
  std::vector<std::string> holder_names;  // extra nodes under the root, for crowded nodes
  bool wrapper = false;                   // several roots: kWrapperName above them
};

namespace gltf {
class Document;
}

// exporter_repair.cpp: the one primitive Assimp wrote for model mesh `i` (found by its
// ExportPlan::mesh_names entry in `mesh_by_name`), and the written mesh's index in
// *written_mesh; null with the reason when Assimp did not write the mesh or split it into several
// primitives.
nlohmann::json* WrittenPrimitive(nlohmann::json* root, const ExportPlan& plan,
                                 const std::unordered_map<std::string, int>& mesh_by_name, size_t i,
                                 int* written_mesh, std::string* error);

// exporter_repair.cpp: the written vertex order is Assimp's; for each written vertex of
// `primitive`, the index of the same vertex in `mesh` (same position, closest normal; on a tie
// the vertex with the written one's index). False with the reason when a written vertex is not
// among the mesh's.
bool MatchVertices(gltf::Document* doc, const nlohmann::json& primitive, const Mesh& mesh,
                   std::vector<uint32_t>* ours, std::string* error);

// MatchVertices' result per model mesh, computed once for the skins and the morph targets
// (an empty entry: not matched yet).
using VertexMatches = std::vector<std::vector<uint32_t>>;

// (*matches)[mesh_index], matched first when empty; null with the reason when it cannot be.
const std::vector<uint32_t>* MatchedVertices(gltf::Document* doc, const nlohmann::json& primitive,
                                             const Model& model, size_t mesh_index,
                                             VertexMatches* matches, std::string* error);

// exporter_morphs.cpp: writes each mesh's TANGENT and morph targets (POSITION, NORMAL and
// TANGENT deltas in the written vertex order), its default weights and extras.targetNames into
// the written mesh (`mesh_by_name`: written mesh index by ExportPlan::mesh_names), and sets
// (*node_of_mesh)[m] to the written node carrying model mesh m (-1 when none or without targets).
// TANGENT deltas go on every target when the mesh has tangents and some target has deltas.
bool AddMorphTargets(const Model& model, const ExportPlan& plan,
                     const std::unordered_map<std::string, int>& mesh_by_name, gltf::Document* doc,
                     VertexMatches* matches, std::vector<int>* node_of_mesh, std::string* error);

// exporter_morphs.cpp: a clip's weight channels as glTF `weights` channels on those nodes.
void AddMorphChannels(const Clip& clip, const std::vector<int>& node_of_mesh, gltf::Document* doc,
                      nlohmann::json* samplers, nlohmann::json* channels);

// Repairs the .glb Assimp wrote (`bytes`, in memory, of a file to be written to `path`) from the
// plan, the joints' local transforms and `written_order` (for each node Assimp wrote, depth-first,
// the joint it stands for or -1) and returns the finished .glb in *out; false with the reason in
// *error when Assimp's file does not match the plan.
bool RepairExport(const Model& model, const std::vector<ik::Transform>& locals,
                  const ExportPlan& plan, const std::vector<int>& written_order,
                  const std::string& path, const std::vector<uint8_t>& bytes,
                  std::vector<uint8_t>* out, std::string* error);

}  // namespace assets
