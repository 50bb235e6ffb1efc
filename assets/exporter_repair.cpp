// The export's repair pass: reopens the .glb Assimp wrote and adds what Assimp 5.2.5 gets wrong
// or drops (skins per mesh, joint weights, exact T/R/S node transforms, the clips as they are,
// morph targets and their weight channels).
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <unordered_map>

#include "assets/internal/export_plan.h"
#include "assets/internal/gltf_document.h"
#include "ik/transform.h"

namespace assets {
namespace {

using gltf::Json;

// Drops node 0 (the wrapper), making its children the scene's roots.
void RemoveWrapper(Json* root) {
  Json& nodes = (*root)["nodes"];
  Json scene_roots = Json::array();
  for (const Json& c : gltf::ArrayMember(nodes[0], "children"))
    scene_roots.push_back(c.get<int64_t>() - 1);
  nodes.erase(0);
  for (Json& node : nodes) {
    if (!node.contains("children")) continue;
    for (Json& c : node["children"]) c = c.get<int64_t>() - 1;
  }
  for (Json& scene : (*root)["scenes"]) scene["nodes"] = scene_roots;
}

void SetTrs(const ik::Transform& t, Json* node) {
  node->erase("matrix");
  (*node)["translation"] = {t.translation.x, t.translation.y, t.translation.z};
  (*node)["rotation"] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
  (*node)["scale"] = {t.scale.x, t.scale.y, t.scale.z};
}

}  // namespace

// Found among ours so that joints, weights and morph deltas line up even if Assimp merged or
// reordered vertices.
Json* WrittenPrimitive(Json* root, const ExportPlan& plan,
                       const std::unordered_map<std::string, int>& mesh_by_name, size_t i,
                       int* written_mesh, std::string* error) {
  auto found = mesh_by_name.find(plan.mesh_names[i]);
  if (found == mesh_by_name.end()) {
    *error = "Assimp did not write mesh '" + plan.mesh_names[i] + "'";
    return nullptr;
  }
  *written_mesh = found->second;
  Json& gltf_mesh = (*root)["meshes"][static_cast<size_t>(found->second)];
  if (!gltf_mesh.contains("primitives") || gltf_mesh["primitives"].size() != 1) {
    *error = "Assimp wrote mesh '" + plan.mesh_names[i] + "' with several primitives";
    return nullptr;
  }
  return &gltf_mesh["primitives"][0];
}

bool MatchVertices(gltf::Document* doc, const Json& primitive, const Mesh& mesh,
                   std::vector<uint32_t>* ours, std::string* error) {
  const Json& attributes = primitive["attributes"];
  gltf::AccessorData positions, normals;
  const auto position_index = gltf::IndexMember(attributes, "POSITION");
  if (!position_index || !doc->ReadAccessor(*position_index, &positions, error)) return false;
  const auto normal_index = gltf::IndexMember(attributes, "NORMAL");
  const bool has_normals = normal_index && doc->ReadAccessor(*normal_index, &normals, error);
  std::unordered_multimap<std::string, uint32_t> by_position;
  auto key = [](const float* p) { return std::string(reinterpret_cast<const char*>(p), 12); };
  for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
    by_position.emplace(key(&mesh.positions[v].x), v);
  }
  ours->assign(positions.count, 0);
  for (size_t e = 0; e < positions.count; ++e) {
    auto range = by_position.equal_range(key(&positions.values[e * 3]));
    if (range.first == range.second) {
      *error = "the written mesh '" + mesh.name + "' has a vertex the model does not";
      return false;
    }
    float best = -2.0f;
    for (auto it = range.first; it != range.second; ++it) {
      const glm::vec3 n =
          it->second < mesh.normals.size() ? mesh.normals[it->second] : glm::vec3(0);
      const float d = has_normals
                          ? glm::dot(n, glm::vec3(normals.values[e * 3], normals.values[e * 3 + 1],
                                                  normals.values[e * 3 + 2]))
                          : 0.0f;
      // Equally close normals: the vertex at the same index, as Assimp writes vertices in order
      // (duplicates that differ only in uv, tangent or morph deltas then keep theirs).
      if (d > best + 1e-6f || (d >= best - 1e-6f && it->second == e)) {
        best = std::max(best, d);
        (*ours)[e] = it->second;
      }
    }
  }
  return true;
}

const std::vector<uint32_t>* MatchedVertices(gltf::Document* doc, const Json& primitive,
                                             const Model& model, size_t mesh_index,
                                             VertexMatches* matches, std::string* error) {
  std::vector<uint32_t>& ours = (*matches)[mesh_index];
  if (ours.empty() && !MatchVertices(doc, primitive, model.meshes[mesh_index], &ours, error)) {
    return nullptr;
  }
  return &ours;
}

namespace {

template <typename T>
void AddTrack(gltf::Document* doc, const Track<T>& track, int node, const char* path,
              Json* samplers, Json* channels) {
  const size_t per_key = track.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  if (track.times.empty() || track.values.size() != track.times.size() * per_key) return;
  // glTF requires min and max on animation inputs.
  const int64_t input = doc->AddAccessor(
      track.times.data(), track.times.size() * 4, gltf::kComponentFloat, "SCALAR",
      track.times.size(),
      {{"min", Json::array({track.times.front()})}, {"max", Json::array({track.times.back()})}});
  std::vector<float> values;
  for (const T& v : track.values) {
    if constexpr (std::is_same_v<T, glm::quat>) {
      values.insert(values.end(), {v.x, v.y, v.z, v.w});
    } else {
      values.insert(values.end(), {v.x, v.y, v.z});
    }
  }
  const bool rotation = std::is_same_v<T, glm::quat>;
  const int64_t output = doc->AddAccessor(values.data(), values.size() * 4, gltf::kComponentFloat,
                                          rotation ? "VEC4" : "VEC3", track.values.size());
  const char* interpolation = track.interpolation == Interpolation::kStep          ? "STEP"
                              : track.interpolation == Interpolation::kCubicSpline ? "CUBICSPLINE"
                                                                                   : "LINEAR";
  samplers->push_back({{"input", input}, {"output", output}, {"interpolation", interpolation}});
  channels->push_back(
      {{"sampler", samplers->size() - 1}, {"target", {{"node", node}, {"path", path}}}});
}

// Assimp 5.2.5 lists extensions it never uses (KHR_materials_volume, FB_ngon_encoding); keep only
// those some object actually carries.
void CollectExtensions(const Json& value, std::set<std::string>* used) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it.key() == "extensions" && it.value().is_object()) {
        for (auto e = it.value().begin(); e != it.value().end(); ++e) used->insert(e.key());
      }
      CollectExtensions(it.value(), used);
    }
  } else if (value.is_array()) {
    for (const Json& element : value) CollectExtensions(element, used);
  }
}

void RemoveUnusedExtensions(Json* root) {
  std::set<std::string> used;
  CollectExtensions(*root, &used);
  for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
    if (!root->contains(list) || !(*root)[list].is_array()) continue;
    Json kept = Json::array();
    for (const Json& name : (*root)[list])
      if (name.is_string() && used.count(name.get<std::string>())) kept.push_back(name);
    if (kept.empty())
      root->erase(list);
    else
      (*root)[list] = kept;
  }
}

// JOINTS_0/WEIGHTS_0 (and JOINTS_1/WEIGHTS_1 when the mesh has influences past the fourth) of the
// exported vertices `ours` (indices into `mesh`); a rigid mesh's vertices weigh 1 on bone 0.
void AddInfluences(const Mesh& mesh, const std::vector<uint32_t>& ours, bool rigid, size_t bones,
                   gltf::Document* doc, Json* primitive) {
  const bool extra = !rigid && !mesh.extra_weights.empty();
  for (int set = 0; set < (extra ? 2 : 1); ++set) {
    const auto& mesh_joints = set == 0 ? mesh.joints : mesh.extra_joints;
    const auto& mesh_weights = set == 0 ? mesh.weights : mesh.extra_weights;
    std::vector<uint16_t> joints(ours.size() * 4, 0);
    std::vector<float> weights(ours.size() * 4, 0.0f);
    for (size_t e = 0; e < ours.size(); ++e) {
      const uint32_t v = ours[e];
      if (rigid || v >= mesh_weights.size() || v >= mesh_joints.size()) {
        if (set == 0) weights[e * 4] = 1.0f;
        continue;
      }
      for (int k = 0; k < 4; ++k) {
        // An unused slot (no weight) names joint 0, as the glTF validator expects.
        const bool usable = mesh_joints[v][k] < bones && mesh_weights[v][k] != 0.0f;
        joints[e * 4 + k] = usable ? mesh_joints[v][k] : 0;
        weights[e * 4 + k] = usable ? mesh_weights[v][k] : 0.0f;
      }
    }
    const std::string suffix = std::to_string(set);
    (*primitive)["attributes"]["JOINTS_" + suffix] = doc->AddAccessor(
        joints.data(), joints.size() * 2, gltf::kComponentUnsignedShort, "VEC4", ours.size());
    (*primitive)["attributes"]["WEIGHTS_" + suffix] = doc->AddAccessor(
        weights.data(), weights.size() * 4, gltf::kComponentFloat, "VEC4", ours.size());
  }
}

// Skins: one per skinned mesh, with that mesh's own bones, and the mesh's joints and weights
// matched to the vertices Assimp wrote. `mesh_by_name`: written mesh index by
// ExportPlan::mesh_names.
bool AddSkins(const Model& model, const ExportPlan& plan, const std::vector<int>& node_of_joint,
              const std::unordered_map<std::string, int>& mesh_by_name, gltf::Document* doc,
              VertexMatches* matches, std::string* error) {
  Json& root = doc->root;
  Json& nodes = root["nodes"];
  const ik::Skeleton& s = model.skeleton;
  Json skins = Json::array();
  for (size_t i = 0; i < model.meshes.size(); ++i) {
    const Mesh& mesh = model.meshes[i];
    const MeshPlacement& placement = plan.placements[i];
    if (!placement.skinned) continue;
    int written_mesh = -1;
    Json* written = WrittenPrimitive(&root, plan, mesh_by_name, i, &written_mesh, error);
    if (!written) return false;
    Json& primitive = *written;
    const std::vector<uint32_t>* matched =
        MatchedVertices(doc, primitive, model, i, matches, error);
    if (!matched) return false;
    const std::vector<uint32_t>& ours = *matched;
    // An unskinned mesh moved off its node becomes a skin with that node as its only bone.
    std::vector<int> bone_joints = mesh.bone_joints;
    std::vector<glm::mat4> inverse_binds = mesh.bone_inverse_binds;
    const bool rigid = !mesh.skinned;
    if (rigid) {
      bone_joints = {mesh.bone_joints.empty() ? 0 : mesh.bone_joints[0]};
      inverse_binds = {glm::mat4(1.0f)};
    }
    AddInfluences(mesh, ours, rigid, bone_joints.size(), doc, &primitive);
    Json skin_joints = Json::array();
    std::vector<float> matrices;
    for (size_t b = 0; b < bone_joints.size(); ++b) {
      const int joint =
          bone_joints[b] >= 0 && bone_joints[b] < s.joint_count() ? bone_joints[b] : 0;
      skin_joints.push_back(node_of_joint[joint]);
      const glm::mat4 m = b < inverse_binds.size() ? inverse_binds[b] : glm::mat4(1.0f);
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) matrices.push_back(m[c][r]);
    }
    const int64_t ibm = doc->AddAccessor(matrices.data(), matrices.size() * 4,
                                         gltf::kComponentFloat, "MAT4", bone_joints.size());
    skins.push_back(
        {{"name", plan.mesh_names[i]}, {"joints", skin_joints}, {"inverseBindMatrices", ibm}});
    // The node that carries the mesh.
    for (Json& node : nodes) {
      if (gltf::IndexMember(node, "mesh") == std::optional<int64_t>(written_mesh)) {
        node["skin"] = skins.size() - 1;
      }
    }
  }
  if (!skins.empty()) root["skins"] = skins;
  return true;
}

// Clips: one animation each, keys and interpolation as they are.
void AddClips(const Model& model, const std::vector<int>& node_of_joint,
              const std::vector<int>& node_of_mesh, gltf::Document* doc) {
  Json& root = doc->root;
  const ik::Skeleton& s = model.skeleton;
  Json animations = Json::array();
  for (const Clip& clip : model.clips) {
    Json samplers = Json::array(), channels = Json::array();
    for (const JointAnimation& a : clip.channels) {
      if (a.joint < 0 || a.joint >= s.joint_count()) continue;
      const int node = node_of_joint[a.joint];
      AddTrack(doc, a.translation, node, "translation", &samplers, &channels);
      AddTrack(doc, a.rotation, node, "rotation", &samplers, &channels);
      AddTrack(doc, a.scale, node, "scale", &samplers, &channels);
    }
    AddMorphChannels(clip, node_of_mesh, doc, &samplers, &channels);
    if (channels.empty()) continue;
    animations.push_back({{"name", clip.name}, {"samplers", samplers}, {"channels", channels}});
  }
  if (animations.empty()) {
    root.erase("animations");
  } else {
    root["animations"] = animations;
  }
}

}  // namespace

bool RepairExport(const Model& model, const std::vector<ik::Transform>& locals,
                  const ExportPlan& plan, const std::vector<int>& written_order,
                  const std::string& path, const std::vector<uint8_t>& bytes,
                  std::vector<uint8_t>* out, std::string* error) {
  gltf::Document doc;
  if (!doc.Parse(path, bytes, error)) return false;
  Json& root = doc.root;
  // The file says who wrote it: skelview (Assimp only served as the first pass).
  root["asset"]["generator"] = "skelview";
  if (!root.contains("nodes") || !root["nodes"].is_array()) {
    *error = "Assimp wrote no nodes";
    return false;
  }
  if (root["nodes"].size() != written_order.size()) {
    *error = "Assimp wrote " + std::to_string(root["nodes"].size()) + " nodes instead of " +
             std::to_string(written_order.size());
    return false;
  }
  // Joint -> node index: Assimp writes nodes depth-first, as BuildScene recorded.
  std::vector<int> order = written_order;
  if (plan.wrapper) {
    RemoveWrapper(&root);
    order.erase(order.begin());
  }
  Json& nodes = root["nodes"];
  const ik::Skeleton& s = model.skeleton;
  std::vector<int> node_of_joint(static_cast<size_t>(s.joint_count()), -1);
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] < 0) continue;
    node_of_joint[static_cast<size_t>(order[i])] = static_cast<int>(i);
    SetTrs(locals[static_cast<size_t>(order[i])], &nodes[i]);
    nodes[i]["name"] = plan.node_names[static_cast<size_t>(order[i])];
  }

  // Skins: one per skinned mesh, with that mesh's own bones.
  std::unordered_map<std::string, int> mesh_by_name;
  const Json& meshes = gltf::ArrayMember(root, "meshes");
  for (size_t i = 0; i < meshes.size(); ++i) {
    mesh_by_name.emplace(gltf::StringMember(meshes[i], "name"), static_cast<int>(i));
  }
  VertexMatches matches(model.meshes.size());
  if (!AddSkins(model, plan, node_of_joint, mesh_by_name, &doc, &matches, error)) return false;
  std::vector<int> node_of_mesh;
  if (!AddMorphTargets(model, plan, mesh_by_name, &doc, &matches, &node_of_mesh, error)) {
    return false;
  }
  // The real names of meshes and materials.
  for (size_t i = 0; i < model.meshes.size(); ++i) {
    auto found = mesh_by_name.find(plan.mesh_names[i]);
    if (found != mesh_by_name.end()) {
      root["meshes"][static_cast<size_t>(found->second)]["name"] = model.meshes[i].name;
    }
  }
  if (root.contains("materials") && root["materials"].is_array()) {
    Json& materials = root["materials"];
    for (size_t m = 0; m < materials.size(); ++m) {
      materials[m]["name"] = m < model.materials.size() ? model.materials[m].name : "default";
    }
  }

  AddClips(model, node_of_joint, node_of_mesh, &doc);
  RemoveUnusedExtensions(&root);
  *out = doc.Serialize();
  return true;
}

}  // namespace assets
