// The export's meshes: one glTF mesh with one primitive per model mesh, its vertices in the
// model's order (so joints, weights and morph deltas line up by index), and its morph targets.
#include <algorithm>
#include <cstring>

#include "assets/export/export_plan.h"

namespace assets {
namespace {

using gltf_out::Json;
using gltf_out::ViewUse;

const float* Floats(const glm::vec3* v) { return &v->x; }

// JOINTS_k / WEIGHTS_k of one influence set; a rigid mesh's vertices weigh 1 on bone 0. An unused
// slot (no weight, or a bone outside the skin) names joint 0 with weight 0, as the validator
// expects.
void WriteInfluences(const Mesh& mesh, int set, bool rigid, size_t bones, gltf_out::Writer* writer,
                     Json* attributes) {
  const size_t n = mesh.positions.size();
  const auto& mesh_joints = set == 0 ? mesh.joints : mesh.extra_joints;
  const auto& mesh_weights = set == 0 ? mesh.weights : mesh.extra_weights;
  std::vector<uint16_t> joints(n * 4, 0);
  std::vector<float> weights(n * 4, 0.0f);
  for (size_t v = 0; v < n; ++v) {
    if (rigid || v >= mesh_weights.size() || v >= mesh_joints.size()) {
      if (set == 0) weights[v * 4] = 1.0f;
      continue;
    }
    for (int k = 0; k < 4; ++k) {
      const bool usable = mesh_joints[v][k] < bones && mesh_weights[v][k] != 0.0f;
      joints[v * 4 + k] = usable ? mesh_joints[v][k] : 0;
      weights[v * 4 + k] = usable ? mesh_weights[v][k] : 0.0f;
    }
  }
  const std::string suffix = std::to_string(set);
  if (bones <= 256) {  // one byte per joint index
    std::vector<uint8_t> narrow(joints.begin(), joints.end());
    (*attributes)["JOINTS_" + suffix] =
        writer->AddAccessor(narrow.data(), gltf_out::kUnsignedByte, "VEC4", n, ViewUse::kVertices);
  } else {
    (*attributes)["JOINTS_" + suffix] =
        writer->AddAccessor(joints.data(), gltf_out::kUnsignedShort, "VEC4", n, ViewUse::kVertices);
  }
  (*attributes)["WEIGHTS_" + suffix] =
      writer->AddFloats(weights.data(), n, 4, ViewUse::kVertices, /*bounds=*/false);
}

// One target attribute's deltas (`deltas`, or zeros when it does not hold one per vertex) as a
// VEC3 float accessor with min and max (glTF requires them of POSITION). Deltas that are mostly
// zero (a face shape moves a few vertices of the head) are written sparse: only the vertices that
// move, by index; all zero, with no data at all. Either reads back as the same numbers.
int64_t WriteDeltas(const std::vector<glm::vec3>& deltas, size_t n, gltf_out::Writer* writer) {
  const bool present = deltas.size() == n;
  std::vector<uint32_t> moved;
  glm::vec3 lo(0.0f), hi(0.0f);
  if (present) {
    for (size_t v = 0; v < n; ++v) {
      const glm::vec3& d = deltas[v];
      if (d.x == 0.0f && d.y == 0.0f && d.z == 0.0f) continue;
      moved.push_back(static_cast<uint32_t>(v));
      lo = glm::min(lo, d);
      hi = glm::max(hi, d);
    }
  }
  const bool narrow = n <= 65536;
  const size_t index_size = narrow ? 2 : 4;
  if (present && moved.size() * (index_size + 12) >= n * 12) {  // dense is no larger
    glm::vec3 dense_lo = deltas[0], dense_hi = deltas[0];
    for (const glm::vec3& d : deltas) {
      dense_lo = glm::min(dense_lo, d);
      dense_hi = glm::max(dense_hi, d);
    }
    return writer->AddAccessor(Floats(deltas.data()), gltf_out::kFloat, "VEC3", n,
                               ViewUse::kVertices,
                               {{"min", {dense_lo.x, dense_lo.y, dense_lo.z}},
                                {"max", {dense_hi.x, dense_hi.y, dense_hi.z}}});
  }
  // The zeros of the vertices that do not move count for the bounds as well.
  Json accessor = {{"componentType", gltf_out::kFloat},
                   {"count", n},
                   {"type", "VEC3"},
                   {"min", {lo.x, lo.y, lo.z}},
                   {"max", {hi.x, hi.y, hi.z}}};
  if (!moved.empty()) {
    std::vector<float> values;
    values.reserve(moved.size() * 3);
    for (const uint32_t v : moved)
      values.insert(values.end(), {deltas[v].x, deltas[v].y, deltas[v].z});
    int64_t indices;
    if (narrow) {
      std::vector<uint16_t> small(moved.begin(), moved.end());
      indices = writer->AddView(small.data(), small.size() * 2, ViewUse::kOther);
    } else {
      indices = writer->AddView(moved.data(), moved.size() * 4, ViewUse::kOther);
    }
    const int64_t data = writer->AddView(values.data(), values.size() * 4, ViewUse::kOther);
    accessor["sparse"] = {
        {"count", moved.size()},
        {"indices",
         {{"bufferView", indices},
          {"componentType", narrow ? gltf_out::kUnsignedShort : gltf_out::kUnsignedInt}}},
        {"values", {{"bufferView", data}}}};
  }
  Json& accessors = writer->root["accessors"];
  accessors.push_back(std::move(accessor));
  return static_cast<int64_t>(accessors.size()) - 1;
}

}  // namespace

void WriteMesh(const Mesh& mesh, const MeshPlacement& placement, int material, size_t bones,
               const std::vector<float>& default_weights, gltf_out::Writer* writer) {
  const size_t n = mesh.positions.size();
  Json attributes = Json::object();
  attributes["POSITION"] =
      writer->AddFloats(Floats(mesh.positions.data()), n, 3, ViewUse::kVertices, /*bounds=*/true);
  if (mesh.normals.size() == n) {
    attributes["NORMAL"] =
        writer->AddFloats(Floats(mesh.normals.data()), n, 3, ViewUse::kVertices, false);
  } else {
    const std::vector<glm::vec3> up(n, glm::vec3(0.0f, 1.0f, 0.0f));
    attributes["NORMAL"] = writer->AddFloats(Floats(up.data()), n, 3, ViewUse::kVertices, false);
  }
  const bool tangents = mesh.tangents.size() == n;
  if (tangents) {
    attributes["TANGENT"] =
        writer->AddFloats(&mesh.tangents[0].x, n, 4, ViewUse::kVertices, /*bounds=*/false);
  }
  if (mesh.uvs.size() == n) {
    attributes["TEXCOORD_0"] =
        writer->AddFloats(&mesh.uvs[0].x, n, 2, ViewUse::kVertices, /*bounds=*/false);
  }
  if (placement.skinned) {
    const bool rigid = placement.rigid;
    WriteInfluences(mesh, 0, rigid, bones, writer, &attributes);
    if (!rigid && mesh.extra_weights.size() == n && mesh.extra_joints.size() == n) {
      WriteInfluences(mesh, 1, rigid, bones, writer, &attributes);
    }
  }
  Json primitive = {{"attributes", attributes}, {"material", material}};
  // Triangle indices, in 16 bits while they fit (65,535 itself is the primitive restart value,
  // which glTF forbids as an index).
  const uint32_t last = static_cast<uint32_t>(n - 1);
  const size_t corners = mesh.indices.size() / 3 * 3;  // whole triangles
  if (n <= 65535) {
    std::vector<uint16_t> indices(corners);
    for (size_t i = 0; i < indices.size(); ++i) {
      indices[i] = static_cast<uint16_t>(std::min(mesh.indices[i], last));
    }
    primitive["indices"] = writer->AddAccessor(indices.data(), gltf_out::kUnsignedShort, "SCALAR",
                                               indices.size(), ViewUse::kIndices);
  } else {
    std::vector<uint32_t> indices(corners);
    for (size_t i = 0; i < indices.size(); ++i) indices[i] = std::min(mesh.indices[i], last);
    primitive["indices"] = writer->AddAccessor(indices.data(), gltf_out::kUnsignedInt, "SCALAR",
                                               indices.size(), ViewUse::kIndices);
  }
  Json gltf_mesh = {{"name", mesh.name}};
  if (!mesh.targets.empty()) {
    // Every target gets POSITION (glTF asks all targets of a primitive for the same attributes);
    // NORMAL when the first target has it; TANGENT when the mesh has tangents and some target has
    // tangent deltas.
    const bool normals = mesh.targets[0].normals.size() == n;
    const bool target_tangents =
        tangents && std::any_of(mesh.targets.begin(), mesh.targets.end(),
                                [n](const MorphTarget& t) { return t.tangents.size() == n; });
    Json targets = Json::array(), names = Json::array(), weights = Json::array();
    for (size_t t = 0; t < mesh.targets.size(); ++t) {
      const MorphTarget& target = mesh.targets[t];
      Json target_attributes = {{"POSITION", WriteDeltas(target.positions, n, writer)}};
      if (normals) target_attributes["NORMAL"] = WriteDeltas(target.normals, n, writer);
      if (target_tangents) target_attributes["TANGENT"] = WriteDeltas(target.tangents, n, writer);
      targets.push_back(std::move(target_attributes));
      names.push_back(target.name);
      weights.push_back(t < default_weights.size() ? default_weights[t] : 0.0f);
    }
    primitive["targets"] = std::move(targets);
    gltf_mesh["weights"] = std::move(weights);
    gltf_mesh["extras"] = {{"targetNames", std::move(names)}};
  }
  gltf_mesh["primitives"] = Json::array({std::move(primitive)});
  writer->root["meshes"].push_back(std::move(gltf_mesh));
}

}  // namespace assets
