// The glTF reader's own meshes and skins placed on the converted node tree (the native mesh path:
// Assimp never reads glTF mesh data), checked and cleaned up like Assimp's.
#include <algorithm>
#include <cmath>
#include <utility>

#include "assets/assimp/scene_converter.h"
#include "assets/files/limits.h"
#include "assets/files/messages.h"
#include "assets/model/mesh_cleanup.h"

namespace assets {
namespace {

// What the reader dropped from a primitive's tangents and morph targets, one warning each.
void WarnAboutTangentsAndTargets(const gltf::Primitive& p, std::vector<std::string>* warnings) {
  const std::string mesh = "mesh " + Quoted(p.name);
  if (p.bad_tangents) {
    warnings->push_back(mesh +
                        " has tangents of the wrong count or type, zero or non-finite; dropped "
                        "them");
  }
  if (p.dropped_targets > 0) {
    warnings->push_back(mesh + ": " + std::to_string(p.dropped_targets) +
                        " morph targets have deltas of the wrong count or non-finite values; "
                        "they move nothing");
  }
  if (p.dropped_target_tangents > 0) {
    warnings->push_back(mesh + ": " + std::to_string(p.dropped_target_tangents) +
                        " morph targets have tangent deltas of the wrong count or non-finite "
                        "values; dropped those deltas");
  }
  if (p.bad_weights) {
    warnings->push_back(mesh + ": its morph weights are not one finite number per target; used 0");
  }
}

}  // namespace

bool SceneConverter::ConvertNativeMeshes(std::string* error) {
  // glTF node -> joint, through the scene walk the glTF reader predicted, checked against the node
  // names Assimp gave its tree.
  std::vector<int> order = native_->preorder_nodes;
  if (skip_root_ && !order.empty() && order[0] < 0) order.erase(order.begin());
  const size_t node_count = native_->node_names.size();
  bool aligned = order.size() == names_.size() && native_->node_meshes.size() == node_count;
  for (size_t i = 0; aligned && i < order.size(); ++i) {
    aligned = order[i] < 0 ? names_[i] == gltf::kSyntheticRootName
                           : static_cast<size_t>(order[i]) < node_count &&
                                 native_->node_names[static_cast<size_t>(order[i])] == names_[i];
  }
  if (!aligned) {
    *error = kMisaligned;
    return false;
  }
  std::vector<int>& joint_of_node = joint_of_node_;
  joint_of_node.assign(node_count, -1);
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] >= 0 && joint_of_node[static_cast<size_t>(order[i])] < 0) {
      joint_of_node[static_cast<size_t>(order[i])] = static_cast<int>(i);
    }
  }
  // Mesh instances: (glTF node, joint the mesh is placed on) for the tree's nodes, then the
  // skinned meshes of holder nodes left out of the tree (placed on their skin's first joint).
  std::vector<std::pair<int, int>> instances;
  for (size_t j = 0; j < order.size(); ++j) {
    if (order[j] >= 0) instances.emplace_back(order[j], static_cast<int>(j));
  }
  for (int g : native_->mesh_holders) {
    if (g < 0 || static_cast<size_t>(g) >= node_count) continue;
    const int s = native_->node_skins[static_cast<size_t>(g)];
    int joint = 0;
    if (s >= 0 && static_cast<size_t>(s) < native_->skins.size() &&
        !native_->skins[static_cast<size_t>(s)].joints.empty()) {
      const int first = native_->skins[static_cast<size_t>(s)].joints[0];
      if (first >= 0 && static_cast<size_t>(first) < node_count && joint_of_node[first] >= 0) {
        joint = joint_of_node[static_cast<size_t>(first)];
      }
    }
    instances.emplace_back(g, joint);
  }
  // Instances per glTF mesh, so that the last one can take the decoded arrays instead of copying.
  std::vector<size_t> remaining(native_->meshes.size(), 0);
  uint64_t all_vertices = 0, done_vertices = 0;
  for (const auto& [g, unused_joint] : instances) {
    const int m = native_->node_meshes[static_cast<size_t>(g)];
    if (m < 0 || static_cast<size_t>(m) >= native_->meshes.size()) continue;
    ++remaining[static_cast<size_t>(m)];
    for (const gltf::Primitive& p : native_->meshes[static_cast<size_t>(m)]) {
      all_vertices += p.positions.size();
    }
  }
  std::vector<char> counted(native_->meshes.size(), 0);
  for (const auto& [g, j] : instances) {
    const int m = native_->node_meshes[static_cast<size_t>(g)];
    if (m < 0 || static_cast<size_t>(m) >= native_->meshes.size()) continue;
    const int s = native_->node_skins[static_cast<size_t>(g)];
    const gltf::Skin* skin =
        s >= 0 && static_cast<size_t>(s) < native_->skins.size() ? &native_->skins[s] : nullptr;
    const bool last_use = --remaining[static_cast<size_t>(m)] == 0;
    const bool first_use = !counted[static_cast<size_t>(m)];
    counted[static_cast<size_t>(m)] = 1;
    for (gltf::Primitive& primitive : native_->meshes[static_cast<size_t>(m)]) {
      if (progress_->Cancelled()) {
        *error = "cancelled";
        return false;
      }
      const size_t vertices = primitive.positions.size();
      const size_t before = model_->meshes.size();
      if (!ConvertPrimitive(&primitive, last_use, first_use, j, skin, error)) {
        return false;
      }
      mesh_gltf_nodes_.resize(model_->meshes.size(), g);
      // The node's own weights override its mesh's (glTF).
      const std::vector<float>* node_weights = static_cast<size_t>(g) < native_->node_weights.size()
                                                   ? &native_->node_weights[static_cast<size_t>(g)]
                                                   : nullptr;
      if (model_->meshes.size() > before && node_weights && !node_weights->empty() &&
          node_weights->size() == model_->meshes.back().targets.size()) {
        model_->meshes.back().target_weights = *node_weights;
      }
      done_vertices += vertices;
      progress_->Report(
          static_cast<float>(static_cast<double>(done_vertices) /
                             static_cast<double>(std::max<uint64_t>(all_vertices, 1))));
    }
  }
  // Skins' joints that no mesh instance used still bind those joints (as Assimp's bones would).
  for (size_t g = 0; g < node_count; ++g) {
    const int s = native_->node_skins[g];
    if (s < 0 || static_cast<size_t>(s) >= native_->skins.size() || joint_of_node[g] < 0 ||
        native_->node_meshes[g] < 0) {
      continue;
    }
    for (int joint_node : native_->skins[static_cast<size_t>(s)].joints) {
      if (joint_node >= 0 && static_cast<size_t>(joint_node) < node_count &&
          joint_of_node[static_cast<size_t>(joint_node)] >= 0) {
        model_->is_bone[static_cast<size_t>(joint_of_node[static_cast<size_t>(joint_node)])] = true;
      }
    }
  }
  return true;
}

bool SceneConverter::ConvertPrimitive(gltf::Primitive* p, bool last_use, bool count_repairs,
                                      int node, const gltf::Skin* skin, std::string* error) {
  if (!p->triangles) {
    if (count_repairs) ++skipped_meshes_;
    return true;
  }
  const size_t n = p->positions.size();
  if (!CountInstance(n, p->indices.size() / 3, error)) return false;
  auto take = [last_use](auto& from, auto* to) {
    if (last_use) {
      *to = std::move(from);
    } else {
      *to = from;
    }
  };
  Mesh mesh;
  mesh.name = p->name;
  mesh.node = node;
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3& v = p->positions[i];
    if (!(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) &&
          std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
          std::abs(v.z) <= kMaxCoordinate)) {
      *error = "mesh " + Quoted(p->name) + " has a non-finite or huge vertex coordinate (vertex " +
               std::to_string(i) + ")";
      return false;
    }
  }
  take(p->positions, &mesh.positions);
  take(p->indices, &mesh.indices);
  if (count_repairs) skipped_faces_ += p->dropped_triangles;
  std::vector<uint8_t> flags(n, 0);
  // Normals: keep valid ones (normalised), rebuild the rest from the faces.
  const bool had_normals = !p->normals.empty();
  take(p->normals, &mesh.normals);
  if (mesh.normals.size() != n) mesh.normals.assign(n, glm::vec3(0.0f));
  RepairNormals(&mesh, had_normals, &flags);
  take(p->tangents, &mesh.tangents);  // checked by the reader
  take(p->uvs, &mesh.uvs);
  if (DropNonFiniteUvs(&mesh)) {
    warnings_.push_back("mesh " + Quoted(p->name) +
                        " has non-finite texture coordinates; dropped them");
  }
  mesh.material = p->material;  // a glTF index for now; ConvertNativeMaterials remaps it
  take(p->targets, &mesh.targets);
  mesh.target_weights = p->target_weights;
  if (count_repairs) WarnAboutTangentsAndTargets(*p, &warnings_);

  if (!skin || p->joints.empty()) {
    // Rigid: the node itself is the only bone.
    mesh.bone_joints = {node};
    mesh.bone_inverse_binds = {glm::mat4(1.0f)};
    mesh.joints.assign(n, glm::u16vec4(0));
    mesh.weights.assign(n, glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    AddMesh(std::move(mesh), &flags, {}, count_repairs, false);
    return true;
  }
  mesh.skinned = true;
  std::vector<int> slot_of;
  if (!BindSkin(*skin, p->name, &mesh, &slot_of, error)) return false;
  if (count_repairs) bad_weights_ += p->invalid_influences;
  mesh.joints.assign(n, glm::u16vec4(0));
  mesh.weights.assign(n, glm::vec4(0.0f));
  const bool extra = !p->extra_weights.empty();
  if (extra) {
    mesh.extra_joints.assign(n, glm::u16vec4(0));
    mesh.extra_weights.assign(n, glm::vec4(0.0f));
  }
  std::vector<uint8_t> counts(n, 0);
  for (size_t v = 0; v < n; ++v) {
    const int count = p->influence_counts[v];
    int kept = 0;
    for (int k = 0; k < std::min(count, extra ? kMaxInfluences : 4); ++k) {
      const size_t skin_joint = k < 4 ? p->joints[v][k] : p->extra_joints[v][k - 4];
      if (skin_joint >= slot_of.size()) {
        if (count_repairs) ++bad_weights_;
        continue;
      }
      if (slot_of[skin_joint] < 0) continue;
      const uint16_t slot = static_cast<uint16_t>(slot_of[skin_joint]);
      const float weight = k < 4 ? p->weights[v][k] : p->extra_weights[v][k - 4];
      if (kept < 4) {
        mesh.joints[v][kept] = slot;
        mesh.weights[v][kept] = weight;
      } else {
        mesh.extra_joints[v][kept - 4] = slot;
        mesh.extra_weights[v][kept - 4] = weight;
      }
      ++kept;
    }
    // More than eight keeps its count (for the warning); otherwise what survived.
    counts[v] = static_cast<uint8_t>(count > kMaxInfluences ? count : kept);
  }
  if (last_use) {
    p->joints = std::vector<glm::u16vec4>();
    p->weights = std::vector<glm::vec4>();
    p->extra_joints = std::vector<glm::u16vec4>();
    p->extra_weights = std::vector<glm::vec4>();
    p->influence_counts = std::vector<uint8_t>();
  }
  NormaliseInfluences(&mesh, counts, node, &flags);
  // The file's vertices are the accessor's: counted one by one (duplicates once).
  AddMesh(std::move(mesh), &flags, std::move(counts), count_repairs, false);
  return true;
}

bool SceneConverter::BindSkin(const gltf::Skin& skin, const std::string& mesh_name, Mesh* mesh,
                              std::vector<int>* slot_of, std::string* error) {
  slot_of->assign(skin.joints.size(), -1);
  for (size_t k = 0; k < skin.joints.size(); ++k) {
    const int g = skin.joints[k];
    const int joint = g >= 0 && static_cast<size_t>(g) < joint_of_node_.size()
                          ? joint_of_node_[static_cast<size_t>(g)]
                          : -1;
    if (joint < 0) {
      missing_bones_.insert(g >= 0 && static_cast<size_t>(g) < native_->node_names.size()
                                ? native_->node_names[static_cast<size_t>(g)]
                                : std::to_string(g));
      continue;
    }
    const glm::mat4& inverse_bind = skin.inverse_binds[k];
    if (!WithinLimits(inverse_bind)) {
      *error = "bone " + Quoted(names_[static_cast<size_t>(joint)]) + " of mesh " +
               Quoted(mesh_name) + " has a non-finite or huge inverse bind matrix";
      return false;
    }
    model_->is_bone[static_cast<size_t>(joint)] = true;
    if (!descs_[static_cast<size_t>(joint)].inverse_bind) {
      descs_[static_cast<size_t>(joint)].inverse_bind = inverse_bind;
    }
    (*slot_of)[k] = static_cast<int>(mesh->bone_joints.size());
    mesh->bone_joints.push_back(joint);
    mesh->bone_inverse_binds.push_back(inverse_bind);
  }
  return true;
}

}  // namespace assets
