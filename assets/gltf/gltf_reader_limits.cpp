// The glTF reader's limits, checked before anything is decoded: references between top-level
// objects, vertices and triangles over all mesh instances, and the decode budget.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "assets/files/limits.h"
#include "assets/files/messages.h"
#include "assets/gltf/gltf_document.h"
#include "assets/gltf/gltf_reader.h"
#include "assets/gltf/gltf_reader_steps.h"
#include "ik/core/skeleton.h"

namespace assets::gltf {
namespace {

using json = Json;

uint64_t SaturatingAdd(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
uint64_t SaturatingMul(uint64_t a, uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

std::string Mebibytes(uint64_t bytes) {
  return std::to_string(bytes / (uint64_t{1} << 20) + (bytes % (uint64_t{1} << 20) ? 1 : 0)) +
         " MiB";
}

}  // namespace

// Indices between top-level objects: nodes to meshes and skins, skins to nodes and accessors,
// primitives to accessors.
bool CheckReferences(const Document& d, std::string* error) {
  const json& doc = d.root;
  const size_t meshes = ArrayMember(doc, "meshes").size();
  const size_t skins = ArrayMember(doc, "skins").size();
  const size_t nodes = ArrayMember(doc, "nodes").size();
  const size_t accessors = ArrayMember(doc, "accessors").size();
  const json& node_list = ArrayMember(doc, "nodes");
  for (size_t i = 0; i < node_list.size(); ++i) {
    const json& node = node_list[i];
    if (Member(node, "mesh")) {
      const auto mesh = IndexMember(node, "mesh");
      if (!mesh || *mesh >= static_cast<int64_t>(meshes)) {
        *error = "node " + std::to_string(i) + " refers to a mesh that does not exist";
        return false;
      }
    }
    if (Member(node, "skin")) {
      const auto skin = IndexMember(node, "skin");
      if (!skin || *skin >= static_cast<int64_t>(skins)) {
        *error = "node " + std::to_string(i) + " refers to a skin that does not exist";
        return false;
      }
    }
  }
  const json& skin_list = ArrayMember(doc, "skins");
  for (size_t s = 0; s < skin_list.size(); ++s) {
    // glTF requires at least one joint (and Assimp 5.2.5 crashed on a skin without).
    if (ArrayMember(skin_list[s], "joints").empty()) {
      *error = "skin " + std::to_string(s) + " lists no joints";
      return false;
    }
    for (const json& joint : ArrayMember(skin_list[s], "joints")) {
      if (!joint.is_number_integer() || joint.get<int64_t>() < 0 ||
          joint.get<int64_t>() >= static_cast<int64_t>(nodes)) {
        *error = "skin " + std::to_string(s) + " lists a joint that is not a node";
        return false;
      }
    }
    if (Member(skin_list[s], "inverseBindMatrices")) {
      const auto a = IndexMember(skin_list[s], "inverseBindMatrices");
      if (!a || *a >= static_cast<int64_t>(accessors)) {
        *error = "skin " + std::to_string(s) + " refers to an accessor that does not exist";
        return false;
      }
    }
  }
  const json& mesh_list = ArrayMember(doc, "meshes");
  for (size_t m = 0; m < mesh_list.size(); ++m) {
    for (const json& primitive : ArrayMember(mesh_list[m], "primitives")) {
      const json* attributes = Member(primitive, "attributes");
      bool ok = attributes && attributes->is_object();
      if (ok) {
        for (const auto& [key, value] : attributes->items()) {
          ok = ok && value.is_number_integer() && value.get<int64_t>() >= 0 &&
               value.get<int64_t>() < static_cast<int64_t>(accessors);
        }
      }
      if (ok && Member(primitive, "indices")) {
        const auto a = IndexMember(primitive, "indices");
        ok = a && *a < static_cast<int64_t>(accessors);
      }
      if (!ok) {
        *error =
            "mesh " + std::to_string(m) + " has a primitive with a missing or invalid accessor";
        return false;
      }
    }
  }
  return true;
}

// Vertices and triangles over every node that shows a mesh, against kMaxVertices and
// kMaxTriangles, from the accessor counts (already checked against their data).
bool CheckInstancedSize(const Document& d, const Contents& walk, std::string* error) {
  const json& doc = d.root;
  const json& accessors = ArrayMember(doc, "accessors");
  auto count_of = [&](int64_t a) -> uint64_t {
    if (a < 0 || a >= static_cast<int64_t>(accessors.size())) return 0;
    return static_cast<uint64_t>(
        std::max<int64_t>(IntMember(accessors[static_cast<size_t>(a)], "count", 0), 0));
  };
  const json& meshes = ArrayMember(doc, "meshes");
  std::vector<uint64_t> vertices(meshes.size(), 0), triangles(meshes.size(), 0);
  for (size_t m = 0; m < meshes.size(); ++m) {
    for (const json& primitive : ArrayMember(meshes[m], "primitives")) {
      const json* attributes = Member(primitive, "attributes");
      const auto position = attributes ? IndexMember(*attributes, "POSITION") : std::nullopt;
      const uint64_t n = position ? count_of(*position) : 0;
      const auto indices = IndexMember(primitive, "indices");
      const uint64_t corners = indices ? count_of(*indices) : n;
      const int64_t mode = IntMember(primitive, "mode", 4);
      vertices[m] += n;
      triangles[m] += mode == 4                                 ? corners / 3
                      : (mode == 5 || mode == 6) && corners > 2 ? corners - 2
                                                                : 0;
    }
  }
  const json& nodes = ArrayMember(doc, "nodes");
  uint64_t total_vertices = 0, total_triangles = 0;
  for (int node : walk.preorder_nodes) {
    if (node < 0 || static_cast<size_t>(node) >= nodes.size()) continue;
    const auto mesh = IndexMember(nodes[static_cast<size_t>(node)], "mesh");
    if (!mesh || *mesh >= static_cast<int64_t>(meshes.size())) continue;
    total_vertices += vertices[static_cast<size_t>(*mesh)];
    total_triangles += triangles[static_cast<size_t>(*mesh)];
  }
  if (total_vertices > kMaxVertices) {
    *error = "its meshes have " + std::to_string(total_vertices) +
             " vertices in all (counting each node that shows a mesh), more than the " +
             std::to_string(kMaxVertices) + " skelview loads";
    return false;
  }
  if (total_triangles > kMaxTriangles) {
    *error = "its meshes have " + std::to_string(total_triangles) +
             " triangles in all (counting each node that shows a mesh), more than the " +
             std::to_string(kMaxTriangles) + " skelview loads";
    return false;
  }
  return true;
}

// What decoding the file's meshes, skins and animations takes (see kDecodeBudgetBase in
// importer.h for the counting), against DecodeBudget of the bytes the model really has. Catches
// files that make little data decode many times: a zero-filled accessor, or one accessor shared
// by many primitives, samplers or mesh instances.
bool CheckDecodeBudget(const Document& d, const Contents& walk, uint64_t file_size,
                       std::string* error) {
  const json& doc = d.root;
  const json& accessors = ArrayMember(doc, "accessors");
  auto count_of = [&](const std::optional<int64_t>& a) -> uint64_t {
    if (!a || *a >= static_cast<int64_t>(accessors.size())) return 0;
    return static_cast<uint64_t>(
        std::max<int64_t>(IntMember(accessors[static_cast<size_t>(*a)], "count", 0), 0));
  };
  const json& meshes = ArrayMember(doc, "meshes");
  std::vector<uint64_t> mesh_bytes(meshes.size(), 0), instances(meshes.size(), 0);
  for (size_t m = 0; m < meshes.size(); ++m) {
    for (const json& primitive : ArrayMember(meshes[m], "primitives")) {
      const json* attributes = Member(primitive, "attributes");
      if (!attributes) continue;
      const uint64_t n = count_of(IndexMember(*attributes, "POSITION"));
      uint64_t sets = 0;
      while (IndexMember(*attributes, ("JOINTS_" + std::to_string(sets)).c_str()) &&
             IndexMember(*attributes, ("WEIGHTS_" + std::to_string(sets)).c_str())) {
        ++sets;
      }
      const auto indices = IndexMember(primitive, "indices");
      const uint64_t corners = indices ? count_of(indices) : n;
      const int64_t mode = IntMember(primitive, "mode", 4);
      const uint64_t triangles = mode == 4                                 ? corners / 3
                                 : (mode == 5 || mode == 6) && corners > 2 ? corners - 2
                                                                           : 0;
      uint64_t bytes = SaturatingMul(
          n, kDecodeBytesPerVertex + SaturatingMul(sets, kDecodeBytesPerInfluenceSet));
      bytes = SaturatingAdd(bytes, SaturatingMul(corners, 4));
      bytes = SaturatingAdd(bytes, SaturatingMul(triangles, 12));
      // Morph targets: each decodes a delta per vertex for each of its attributes (many targets
      // may share one accessor, or zero-fill theirs, in a few bytes of JSON).
      for (const json& target : ArrayMember(primitive, "targets")) {
        for (const char* attribute : {"POSITION", "NORMAL", "TANGENT"}) {
          const auto accessor = IndexMember(target, attribute);
          if (accessor)
            bytes = SaturatingAdd(bytes, SaturatingMul(std::max(n, count_of(accessor)), 12));
        }
      }
      mesh_bytes[m] = SaturatingAdd(mesh_bytes[m], bytes);
    }
  }
  const json& nodes = ArrayMember(doc, "nodes");
  for (int node : walk.preorder_nodes) {
    if (node < 0 || static_cast<size_t>(node) >= nodes.size()) continue;
    const auto mesh = IndexMember(nodes[static_cast<size_t>(node)], "mesh");
    if (mesh && *mesh < static_cast<int64_t>(meshes.size()))
      ++instances[static_cast<size_t>(*mesh)];
  }
  uint64_t total = 0;
  for (size_t m = 0; m < meshes.size(); ++m) {
    total = SaturatingAdd(total, SaturatingMul(mesh_bytes[m], std::max<uint64_t>(instances[m], 1)));
  }
  for (const json& skin : ArrayMember(doc, "skins")) {
    total =
        SaturatingAdd(total, SaturatingMul(count_of(IndexMember(skin, "inverseBindMatrices")), 64));
  }
  for (const json& animation : ArrayMember(doc, "animations")) {
    const json& samplers = ArrayMember(animation, "samplers");
    for (const json& channel : ArrayMember(animation, "channels")) {
      const auto sampler = IndexMember(channel, "sampler");
      if (!sampler || *sampler >= static_cast<int64_t>(samplers.size())) continue;
      const json& s = samplers[static_cast<size_t>(*sampler)];
      const auto output = IndexMember(s, "output");
      size_t output_count = 0;
      int components = 0;
      if (!output || !d.AccessorShape(*output, &output_count, &components)) components = 0;
      total = SaturatingAdd(total, SaturatingMul(count_of(IndexMember(s, "input")), 4));
      total = SaturatingAdd(
          total, SaturatingMul(SaturatingMul(output_count, static_cast<uint64_t>(components)), 4));
    }
  }
  // A meshopt-compressed file gets the budget of the same file uncompressed.
  const uint64_t source_bytes =
      SaturatingAdd(SaturatingAdd(file_size, d.ExternalBufferBytes()), d.unpacked_bytes());
  const uint64_t budget = DecodeBudget(source_bytes);
  if (total > budget) {
    *error = "its meshes, morph targets, skins and animations would take " + Mebibytes(total) +
             " to decode, more than the " + Mebibytes(budget) + " skelview allows for a model of " +
             std::to_string((source_bytes + 1023) / 1024) +
             " KiB (the file repeats or zero-fills data)";
    return false;
  }
  return true;
}

}  // namespace assets::gltf
