// What the exporter's parts share (exporter.cpp: nodes, skins, materials and the files;
// exporter_meshes.cpp: mesh primitives and morph targets; exporter_clips.cpp: animations): where
// each joint and mesh goes in the written file. Internal to assets/.
#pragma once

#include <string>
#include <vector>

#include "assets/gltf/gltf_writer.h"
#include "assets/model/model.h"

namespace assets {

// Where a mesh goes: the node that carries it, and whether it is written skinned.
struct MeshPlacement {
  bool written = false;  // false: nothing to draw (no vertices or no triangles), left out
  int node = -1;         // glTF node index: a joint's (its joint index) or a holder's
  bool skinned = false;  // written with a skin (and JOINTS/WEIGHTS), on a holder node
  // Skinned but not in the model (an unskinned mesh moved off its node, or a skinned one without
  // bones): a one-bone skin on its joint with an identity inverse bind, every vertex weight 1.
  bool rigid = false;
  int mesh = -1;  // glTF mesh index
  int skin = -1;  // glTF skin index when skinned
};

// Node j of the file is joint j; holder nodes (one per skinned mesh, at the scene's root, with no
// transform: glTF ignores both for a skinned mesh) follow the joints.
struct ExportPlan {
  std::vector<std::string> node_names;    // per joint, unique
  std::vector<std::string> holder_names;  // per holder node, unique among all nodes
  std::vector<MeshPlacement> placements;  // per model mesh
};

// exporter_meshes.cpp: glTF mesh `placement.mesh` for model mesh `mesh` (its one primitive:
// positions, normals, tangents, uvs, joints and weights when skinned, triangles, material
// `material`; morph targets, their default weights and extras.targetNames), appended to
// writer->root["meshes"]. `bones`: the skin's joint count (1 for a rigid mesh written skinned).
void WriteMesh(const Mesh& mesh, const MeshPlacement& placement, int material, size_t bones,
               const std::vector<float>& default_weights, gltf_out::Writer* writer);

// exporter_clips.cpp: every clip as one animation with its name, keys and interpolation (joint
// translation, rotation and scale, and morph-target weights on the node carrying the mesh);
// clips with nothing to write are left out.
void WriteClips(const Model& model, const ExportPlan& plan, gltf_out::Writer* writer);

}  // namespace assets
