// The export's tangents and morph targets: Assimp 5.2.5 writes neither from our meshes, so the
// repair pass adds each mesh's TANGENT, targets (POSITION/NORMAL/TANGENT deltas), default weights,
// target names and the clips' weight channels to the .glb Assimp wrote.
#include <algorithm>
#include <optional>

#include "assets/internal/export_plan.h"
#include "assets/internal/gltf_document.h"

namespace assets {
namespace {

using gltf::Json;

// Deltas reordered to the written vertices, as a VEC3 float accessor (with min and max, which
// glTF requires of POSITION).
int64_t AddDeltas(const std::vector<glm::vec3>& deltas, const std::vector<uint32_t>& ours,
                  gltf::Document* doc) {
  std::vector<float> values;
  values.reserve(ours.size() * 3);
  glm::vec3 lo(0.0f), hi(0.0f);
  for (size_t e = 0; e < ours.size(); ++e) {
    const glm::vec3 d = deltas[ours[e]];
    values.insert(values.end(), {d.x, d.y, d.z});
    lo = e == 0 ? d : glm::min(lo, d);
    hi = e == 0 ? d : glm::max(hi, d);
  }
  return doc->AddAccessor(
      values.data(), values.size() * 4, gltf::kComponentFloat, "VEC3", ours.size(),
      {{"min", Json::array({lo.x, lo.y, lo.z})}, {"max", Json::array({hi.x, hi.y, hi.z})}});
}

// Tangents reordered to the written vertices, as a VEC4 float accessor.
int64_t AddTangents(const std::vector<glm::vec4>& tangents, const std::vector<uint32_t>& ours,
                    gltf::Document* doc) {
  std::vector<float> values;
  values.reserve(ours.size() * 4);
  for (const uint32_t v : ours) {
    const glm::vec4& t = tangents[v];
    values.insert(values.end(), {t.x, t.y, t.z, t.w});
  }
  return doc->AddAccessor(values.data(), values.size() * 4, gltf::kComponentFloat, "VEC4",
                          ours.size());
}

}  // namespace

bool AddMorphTargets(const Model& model, const ExportPlan& plan,
                     const std::unordered_map<std::string, int>& mesh_by_name, gltf::Document* doc,
                     VertexMatches* matches, std::vector<int>* node_of_mesh, std::string* error) {
  Json& root = doc->root;
  node_of_mesh->assign(model.meshes.size(), -1);
  for (size_t i = 0; i < model.meshes.size(); ++i) {
    const Mesh& mesh = model.meshes[i];
    const size_t n = mesh.positions.size();
    const bool tangents = mesh.tangents.size() == n && n > 0;
    if (mesh.targets.empty() && !tangents) continue;
    int written_mesh = -1;
    Json* written = WrittenPrimitive(&root, plan, mesh_by_name, i, &written_mesh, error);
    if (!written) return false;
    Json& primitive = *written;
    Json& gltf_mesh = root["meshes"][static_cast<size_t>(written_mesh)];
    const std::vector<uint32_t>* matched =
        MatchedVertices(doc, primitive, model, i, matches, error);
    if (!matched) return false;
    const std::vector<uint32_t>& ours = *matched;
    if (tangents) primitive["attributes"]["TANGENT"] = AddTangents(mesh.tangents, ours, doc);
    if (mesh.targets.empty()) continue;
    const std::vector<glm::vec3> zeros(n, glm::vec3(0.0f));
    // TANGENT deltas on every target when some target has them (and the mesh has tangents).
    const bool target_tangents =
        tangents && std::any_of(mesh.targets.begin(), mesh.targets.end(),
                                [n](const MorphTarget& t) { return t.tangents.size() == n; });
    Json targets = Json::array(), names = Json::array(), weights = Json::array();
    for (size_t t = 0; t < mesh.targets.size(); ++t) {
      const MorphTarget& target = mesh.targets[t];
      // Every target gets POSITION (glTF asks all targets of a primitive to have the same
      // attributes); NORMAL when the mesh's first target has it.
      Json attributes = {
          {"POSITION",
           AddDeltas(target.positions.size() == n ? target.positions : zeros, ours, doc)}};
      if (mesh.targets[0].normals.size() == n) {
        attributes["NORMAL"] =
            AddDeltas(target.normals.size() == n ? target.normals : zeros, ours, doc);
      }
      if (target_tangents) {
        attributes["TANGENT"] =
            AddDeltas(target.tangents.size() == n ? target.tangents : zeros, ours, doc);
      }
      targets.push_back(attributes);
      names.push_back(target.name);
      weights.push_back(t < mesh.target_weights.size() ? mesh.target_weights[t] : 0.0f);
    }
    primitive["targets"] = targets;
    gltf_mesh["weights"] = weights;
    gltf_mesh["extras"]["targetNames"] = names;
    const Json& nodes = gltf::ArrayMember(root, "nodes");
    for (size_t k = 0; k < nodes.size(); ++k) {
      if (gltf::IndexMember(nodes[k], "mesh") == std::optional<int64_t>(written_mesh)) {
        (*node_of_mesh)[i] = static_cast<int>(k);
        break;
      }
    }
  }
  return true;
}

void AddMorphChannels(const Clip& clip, const std::vector<int>& node_of_mesh, gltf::Document* doc,
                      Json* samplers, Json* channels) {
  for (const MorphAnimation& a : clip.morph_channels) {
    if (a.mesh < 0 || static_cast<size_t>(a.mesh) >= node_of_mesh.size() ||
        node_of_mesh[static_cast<size_t>(a.mesh)] < 0 || a.width <= 0 || a.times.empty()) {
      continue;
    }
    const size_t per_key =
        (a.interpolation == Interpolation::kCubicSpline ? 3 : 1) * static_cast<size_t>(a.width);
    if (a.values.size() != a.times.size() * per_key) continue;
    const int64_t input = doc->AddAccessor(
        a.times.data(), a.times.size() * 4, gltf::kComponentFloat, "SCALAR", a.times.size(),
        {{"min", Json::array({a.times.front()})}, {"max", Json::array({a.times.back()})}});
    const int64_t output = doc->AddAccessor(a.values.data(), a.values.size() * 4,
                                            gltf::kComponentFloat, "SCALAR", a.values.size());
    const char* interpolation = a.interpolation == Interpolation::kStep          ? "STEP"
                                : a.interpolation == Interpolation::kCubicSpline ? "CUBICSPLINE"
                                                                                 : "LINEAR";
    samplers->push_back({{"input", input}, {"output", output}, {"interpolation", interpolation}});
    channels->push_back(
        {{"sampler", samplers->size() - 1},
         {"target", {{"node", node_of_mesh[static_cast<size_t>(a.mesh)]}, {"path", "weights"}}}});
  }
}

}  // namespace assets
