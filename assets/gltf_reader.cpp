// glTF reader (the import pre-pass): parses the container and JSON with nlohmann-json, reads
// accessors itself (bounds checked), applies the repairs listed in internal/gltf_reader.h and
// re-serialises the file for Assimp. Generated data (identity inverse binds, float weights) go into
// the .glb binary chunk or an extra base64 buffer.
#include "assets/internal/gltf_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "assets/importer.h"
#include "assets/internal/gltf_document.h"
#include "assets/internal/messages.h"
#include "ik/skeleton.h"

namespace assets::gltf {
namespace {

using json = Json;

constexpr int kFloat = kComponentFloat;
constexpr int kUnsignedShort = kComponentUnsignedShort;

bool StartsWithGlbMagic(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 4 && bytes[0] == 'g' && bytes[1] == 'l' && bytes[2] == 'T' &&
         bytes[3] == 'F';
}

std::string ToLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// --- repairs ----------------------------------------------------------------------------------

// Gives each node a unique name as Assimp will see it (name, or "nodes[i]" when unnamed).
void MakeNodeNamesUnique(Document* d, std::vector<std::string>* names,
                         std::vector<std::string>* warnings) {
  json& nodes = d->root["nodes"];
  names->clear();
  std::set<std::string> taken;
  std::vector<size_t> renamed;
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::string name = StringMember(nodes[i], "name");
    if (name.empty()) name = "nodes[" + std::to_string(i) + "]";
    if (!taken.insert(name).second) {
      std::string unique = name + "." + std::to_string(i);
      for (int k = 2; !taken.insert(unique).second; ++k) {
        unique = name + "." + std::to_string(i) + "." + std::to_string(k);
      }
      if (nodes[i].is_object()) nodes[i]["name"] = unique;
      name = unique;
      renamed.push_back(i);
    }
    names->push_back(name);
  }
  if (!renamed.empty()) {
    d->MarkChanged();
    warnings->push_back(std::to_string(renamed.size()) +
                        " nodes had the same name as an earlier node and were renamed "
                        "'<name>.<node index>' so that joints can be told apart");
  }
}

// Walks the default scene in the order Assimp builds its node tree.
bool WalkScene(const json& doc, Prepass* out, std::string* error) {
  const json& scenes = ArrayMember(doc, "scenes");
  const json& nodes = ArrayMember(doc, "nodes");
  int64_t scene_index = 0;
  if (Member(doc, "scene")) {
    const auto s = IndexMember(doc, "scene");
    if (!s) {
      *error = "its 'scene' property is not a valid index";
      return false;
    }
    scene_index = *s;
  }
  if (scenes.empty() || scene_index >= static_cast<int64_t>(scenes.size())) {
    *error = "it defines no scene to show";
    return false;
  }
  const json& roots = ArrayMember(scenes[static_cast<size_t>(scene_index)], "nodes");
  const size_t node_count = nodes.size();
  auto valid = [&](const json& v) {
    return v.is_number_integer() && v.get<int64_t>() >= 0 &&
           v.get<int64_t>() < static_cast<int64_t>(node_count);
  };
  out->preorder_nodes.clear();
  if (roots.size() != 1) out->preorder_nodes.push_back(-1);
  std::vector<char> on_path(node_count, 0);
  // Explicit stack of (node, next child position); a node is on the path while it is on the stack.
  struct Frame {
    size_t node;
    size_t next_child;
  };
  std::vector<Frame> stack;
  for (const json& root : roots) {
    if (!valid(root)) {
      *error = "the scene lists a node that does not exist";
      return false;
    }
    auto enter = [&](size_t node) -> bool {
      if (on_path[node]) {
        *error = "its node hierarchy has a cycle through node " + std::to_string(node);
        return false;
      }
      if (stack.size() >= static_cast<size_t>(kMaxDepth)) {
        *error = "its node hierarchy is deeper than " + std::to_string(kMaxDepth) + " levels";
        return false;
      }
      if (out->preorder_nodes.size() >= static_cast<size_t>(ik::Skeleton::kMaxJoints)) {
        *error = "its scene has more than " + std::to_string(ik::Skeleton::kMaxJoints) +
                 " nodes, the most skelview supports as joints";
        return false;
      }
      on_path[node] = 1;
      out->preorder_nodes.push_back(static_cast<int>(node));
      stack.push_back({node, 0});
      return true;
    };
    if (!enter(static_cast<size_t>(root.get<int64_t>()))) return false;
    while (!stack.empty()) {
      Frame& top = stack.back();
      const json& children = ArrayMember(nodes[top.node], "children");
      if (top.next_child >= children.size()) {
        on_path[top.node] = 0;
        stack.pop_back();
        continue;
      }
      const json& child = children[top.next_child++];
      if (!valid(child)) {
        *error = "node " + std::to_string(top.node) + " has a child that does not exist";
        return false;
      }
      if (!enter(static_cast<size_t>(child.get<int64_t>()))) return false;
    }
  }
  return true;
}

void GiveSharedMeshesOwnCopies(Document* d, std::vector<std::string>* warnings) {
  json& nodes = d->root["nodes"];
  json* meshes = d->root.contains("meshes") ? &d->root["meshes"] : nullptr;
  if (!meshes || !meshes->is_array()) return;
  std::map<int64_t, std::vector<size_t>> users;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (auto mesh = IndexMember(nodes[i], "mesh")) {
      if (*mesh < static_cast<int64_t>(meshes->size())) users[*mesh].push_back(i);
    }
  }
  int copies = 0;
  for (const auto& [mesh, list] : users) {
    if (list.size() < 2) continue;
    const bool any_skin = std::any_of(
        list.begin(), list.end(), [&](size_t n) { return Member(nodes[n], "skin") != nullptr; });
    if (!any_skin) continue;
    for (size_t k = 1; k < list.size(); ++k) {
      json copy = (*meshes)[static_cast<size_t>(mesh)];
      meshes->push_back(copy);
      nodes[list[k]]["mesh"] = meshes->size() - 1;
      ++copies;
    }
  }
  if (copies > 0) {
    d->MarkChanged();
    warnings->push_back(
        "gave " + std::to_string(copies) +
        " nodes that share a skinned mesh their own copy, so that each keeps its own skin");
  }
}

void AddMissingInverseBinds(Document* d, std::vector<std::string>* warnings) {
  if (!d->root.contains("skins") || !d->root["skins"].is_array()) return;
  json& skins = d->root["skins"];
  int repaired = 0;
  for (json& skin : skins) {
    if (!skin.is_object() || skin.contains("inverseBindMatrices")) continue;
    const size_t joints = ArrayMember(skin, "joints").size();
    if (joints == 0) continue;
    std::vector<float> identities(joints * 16, 0.0f);
    for (size_t j = 0; j < joints; ++j)
      for (int k = 0; k < 4; ++k) identities[j * 16 + static_cast<size_t>(k) * 5] = 1.0f;
    skin["inverseBindMatrices"] =
        d->AddAccessor(identities.data(), identities.size() * 4, kFloat, "MAT4", joints);
    ++repaired;
  }
  if (repaired > 0) {
    warnings->push_back(std::to_string(repaired) +
                        " skins had no inverseBindMatrices; used identity matrices as glTF "
                        "specifies");
  }
}

// Rewrites skin attributes Assimp would misread as one float WEIGHTS_0 + u16 JOINTS_0 set.
bool RewriteSkinWeights(Document* d, std::vector<std::string>* warnings, std::string* error) {
  if (!d->root.contains("meshes") || !d->root["meshes"].is_array()) return true;
  int normalized_primitives = 0;
  size_t over_four = 0;
  std::map<std::string, std::pair<int64_t, int64_t>> done;  // attribute set -> new accessors
  const json& accessors = ArrayMember(d->root, "accessors");
  for (json& mesh : d->root["meshes"]) {
    if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) {
      continue;
    }
    for (json& primitive : mesh["primitives"]) {
      if (!primitive.is_object() || !primitive.contains("attributes")) continue;
      json& attributes = primitive["attributes"];
      std::vector<std::pair<int64_t, int64_t>> sets;
      for (int n = 0;; ++n) {
        const auto j = IndexMember(attributes, ("JOINTS_" + std::to_string(n)).c_str());
        const auto w = IndexMember(attributes, ("WEIGHTS_" + std::to_string(n)).c_str());
        if (!j || !w) break;
        sets.emplace_back(*j, *w);
      }
      if (sets.empty()) continue;
      const int64_t w0 = sets[0].second;
      const bool float_weights =
          w0 < static_cast<int64_t>(accessors.size()) &&
          IntMember(accessors[static_cast<size_t>(w0)], "componentType", 0) == kFloat;
      if (float_weights && sets.size() == 1) continue;
      std::string key;
      for (const auto& [j, w] : sets) key += std::to_string(j) + "/" + std::to_string(w) + ";";
      auto cached = done.find(key);
      if (cached == done.end()) {
        std::vector<AccessorData> joints(sets.size()), weights(sets.size());
        for (size_t s = 0; s < sets.size(); ++s) {
          if (!d->ReadAccessor(sets[s].first, &joints[s], error) ||
              !d->ReadAccessor(sets[s].second, &weights[s], error)) {
            return false;
          }
          if (joints[s].components != 4 || weights[s].components != 4 ||
              joints[s].count != weights[0].count || weights[s].count != weights[0].count) {
            *error = "a primitive's JOINTS_n/WEIGHTS_n accessors are not VEC4 of one length";
            return false;
          }
        }
        if (!float_weights) ++normalized_primitives;
        const size_t count = weights[0].count;
        std::vector<uint16_t> new_joints(count * 4, 0);
        std::vector<float> new_weights(count * 4, 0.0f);
        std::vector<std::pair<float, float>> influences;  // weight, joint
        for (size_t v = 0; v < count; ++v) {
          influences.clear();
          for (size_t s = 0; s < sets.size(); ++s) {
            for (size_t k = 0; k < 4; ++k) {
              const float w = weights[s].values[v * 4 + k];
              const float j = joints[s].values[v * 4 + k];
              if (std::isfinite(w) && w > 0.0f && std::isfinite(j) && j >= 0.0f && j <= 65535.0f)
                influences.emplace_back(w, j);
            }
          }
          std::stable_sort(influences.begin(), influences.end(),
                           [](const auto& a, const auto& b) { return a.first > b.first; });
          if (influences.size() > 4) ++over_four;
          float sum = 0.0f;
          for (size_t k = 0; k < influences.size() && k < 4; ++k) sum += influences[k].first;
          for (size_t k = 0; k < influences.size() && k < 4; ++k) {
            new_joints[v * 4 + k] = static_cast<uint16_t>(influences[k].second);
            new_weights[v * 4 + k] = sum > 0.0f ? influences[k].first / sum : 0.0f;
          }
        }
        const int64_t j_index =
            d->AddAccessor(new_joints.data(), new_joints.size() * 2, kUnsignedShort, "VEC4", count);
        const int64_t w_index =
            d->AddAccessor(new_weights.data(), new_weights.size() * 4, kFloat, "VEC4", count);
        cached = done.emplace(key, std::make_pair(j_index, w_index)).first;
      }
      for (size_t s = 1; s < sets.size(); ++s) {
        attributes.erase("JOINTS_" + std::to_string(s));
        attributes.erase("WEIGHTS_" + std::to_string(s));
      }
      attributes["JOINTS_0"] = cached->second.first;
      attributes["WEIGHTS_0"] = cached->second.second;
    }
  }
  if (normalized_primitives > 0) {
    warnings->push_back("converted normalized integer skin weights to floats in " +
                        std::to_string(normalized_primitives) + " primitives");
  }
  if (over_four > 0) {
    warnings->push_back(std::to_string(over_four) +
                        " vertices had more than 4 joint influences: kept the 4 largest "
                        "and renormalised");
  }
  return true;
}

// --- limits ---------------------------------------------------------------------------------

// Indices between top-level objects that Assimp follows without checking them all.
bool CheckReferences(const json& doc, std::string* error) {
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
    // Assimp 5.2.5 dereferences the inverse binds of a skin without joints (crash).
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
bool CheckInstancedSize(const json& doc, const Prepass& walk, std::string* error) {
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

// Node rotations as unit quaternions. Assimp builds a node's matrix from glTF's TRS taking the
// quaternion as it is, so a rotation of length 65536 became a scale of 65536 squared and a turn;
// glTF requires unit quaternions, and keyframe rotations are normalised likewise. A zero or
// non-finite quaternion (no direction to keep) becomes no rotation. Works on glTF 1.0's node
// dictionary too. Returns whether anything changed.
bool NormalizeNodeRotations(Document* d, std::vector<std::string>* warnings) {
  json* nodes = d->root.contains("nodes") ? &d->root["nodes"] : nullptr;
  if (!nodes || !(nodes->is_array() || nodes->is_object())) return false;
  size_t far = 0, degenerate = 0;
  std::string far_name, degenerate_name;
  double far_length = 0.0;
  bool changed = false;
  size_t index = 0;
  for (auto& [key, node] : nodes->items()) {
    const size_t i = index++;
    if (!node.is_object() || !node.contains("rotation")) continue;
    json& rotation = node["rotation"];
    if (!rotation.is_array() || rotation.size() != 4) continue;
    if (!std::all_of(rotation.begin(), rotation.end(),
                     [](const json& v) { return v.is_number(); })) {
      continue;
    }
    double q[4], largest = 0.0;
    bool finite = true;
    for (size_t c = 0; c < 4; ++c) {
      q[c] = rotation[c].get<double>();
      finite = finite && std::isfinite(q[c]);
      largest = std::max(largest, std::abs(q[c]));
    }
    // Scaled first, so that squares of huge components cannot overflow.
    double length = 0.0;
    if (finite && largest > 0.0) {
      double sum = 0.0;
      for (double c : q) sum += (c / largest) * (c / largest);
      length = largest * std::sqrt(sum);
    }
    std::string name = StringMember(node, "name");
    if (name.empty()) name = nodes->is_array() ? "nodes[" + std::to_string(i) + "]" : key;
    if (!finite || !(length > 1e-6)) {
      rotation = json::array({0.0, 0.0, 0.0, 1.0});
      if (degenerate++ == 0) degenerate_name = name;
      changed = true;
      continue;
    }
    if (std::abs(length - 1.0) <= 1e-7) continue;
    for (size_t c = 0; c < 4; ++c) rotation[c] = q[c] / length;
    changed = true;
    if (std::abs(length - 1.0) > 1e-3 && far++ == 0) {
      far_name = name;
      far_length = length;
    }
  }
  if (far > 0) {
    char length_text[32];
    std::snprintf(length_text, sizeof(length_text), "%g", far_length);
    warnings->push_back(
        far == 1 ? "node " + Quoted(far_name) + " has a rotation quaternion of length " +
                       length_text + "; normalised it"
                 : std::to_string(far) +
                       " nodes have rotation quaternions far from unit length "
                       "(e.g. node " +
                       Quoted(far_name) + ", length " + length_text + "); normalised them");
  }
  if (degenerate > 0) {
    warnings->push_back(
        degenerate == 1 ? "node " + Quoted(degenerate_name) +
                              " has a zero or non-finite rotation quaternion; used no rotation"
                        : std::to_string(degenerate) +
                              " nodes have zero or non-finite rotation quaternions (e.g. node " +
                              Quoted(degenerate_name) + "); used no rotation");
  }
  if (changed) d->MarkChanged();
  return changed;
}

uint64_t SaturatingAdd(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
uint64_t SaturatingMul(uint64_t a, uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

std::string Mebibytes(uint64_t bytes) {
  return std::to_string(bytes / (uint64_t{1} << 20) + (bytes % (uint64_t{1} << 20) ? 1 : 0)) +
         " MiB";
}

// What decoding the file's meshes, skins and animations takes (see kDecodeBudgetBase in
// importer.h for the counting), against DecodeBudget of the bytes the model really has. Catches
// files that make little data decode many times: a zero-filled accessor, or one accessor shared
// by many primitives, samplers or mesh instances.
bool CheckDecodeBudget(const Document& d, const Prepass& walk, uint64_t file_size,
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
  const uint64_t source_bytes = SaturatingAdd(file_size, d.ExternalBufferBytes());
  const uint64_t budget = DecodeBudget(source_bytes);
  if (total > budget) {
    *error = "its meshes, skins and animations would take " + Mebibytes(total) +
             " to decode, more than the " + Mebibytes(budget) + " skelview allows for a model of " +
             std::to_string((source_bytes + 1023) / 1024) +
             " KiB (the file repeats or zero-fills data)";
    return false;
  }
  return true;
}

// --- animations -------------------------------------------------------------------------------

struct KeyStats {
  size_t dropped_keys = 0;
  size_t skipped_channels = 0;
  bool morph_weights = false;
};

bool ReadChannel(Document* d, const json& sampler, const std::string& path, JointAnimation* anim,
                 KeyStats* stats, std::string* why) {
  const auto input = IndexMember(sampler, "input");
  const auto output = IndexMember(sampler, "output");
  if (!input || !output) {
    *why = "sampler without input or output";
    return false;
  }
  const std::string interpolation_name =
      Member(sampler, "interpolation") ? StringMember(sampler, "interpolation") : "LINEAR";
  Interpolation interpolation;
  if (interpolation_name == "LINEAR")
    interpolation = Interpolation::kLinear;
  else if (interpolation_name == "STEP")
    interpolation = Interpolation::kStep;
  else if (interpolation_name == "CUBICSPLINE")
    interpolation = Interpolation::kCubicSpline;
  else {
    *why = "unknown interpolation '" + interpolation_name + "'";
    return false;
  }
  AccessorData times, values;
  if (!d->ReadAccessor(*input, &times, why) || !d->ReadAccessor(*output, &values, why)) {
    return false;
  }
  const bool rotation = path == "rotation";
  const int width = rotation ? 4 : 3;
  const size_t per_key = interpolation == Interpolation::kCubicSpline ? 3 : 1;
  if (times.components != 1 || values.components != width ||
      values.count != times.count * per_key) {
    *why = "sampler input/output accessors do not match";
    return false;
  }
  // Keep keys with finite, strictly increasing times up to kMaxKeyTime and values within
  // kMaxCoordinate (rotations: any non-zero length, normalised below), as the importer does for
  // Assimp's keys; larger ones overflow interpolation (a cubic tangent is scaled by the interval).
  std::vector<float> kept_times;
  std::vector<size_t> kept_keys;
  for (size_t k = 0; k < times.count; ++k) {
    const float t = times.values[k];
    bool ok = std::isfinite(t) && std::abs(t) <= kMaxKeyTime &&
              (kept_times.empty() || t > kept_times.back());
    for (size_t e = 0; ok && e < per_key * static_cast<size_t>(width); ++e) {
      const float v = values.values[k * per_key * width + e];
      ok = std::isfinite(v) && (rotation || std::abs(v) <= kMaxCoordinate);
    }
    if (ok && rotation) {
      // In double: the squares of large float components overflow a float.
      for (size_t slot = 0; slot < per_key; ++slot) {
        const size_t base = (k * per_key + slot) * 4;
        double len2 = 0.0;
        for (int e = 0; e < 4; ++e) {
          const double c = static_cast<double>(values.values[base + e]);
          len2 += c * c;
        }
        const bool value_slot = per_key == 1 || slot == 1;
        if (value_slot) {
          ok = ok && len2 > 1e-12;
          const double len = std::sqrt(len2);
          for (int e = 0; ok && e < 4; ++e) {
            values.values[base + e] =
                static_cast<float>(static_cast<double>(values.values[base + e]) / len);
          }
        } else {
          // Tangents keep their length but must stay where interpolation cannot overflow.
          const double limit = static_cast<double>(kMaxCoordinate);
          ok = ok && len2 <= limit * limit;
        }
      }
    }
    if (!ok) {
      ++stats->dropped_keys;
      continue;
    }
    kept_times.push_back(t);
    kept_keys.push_back(k);
  }
  if (kept_keys.empty()) {
    *why = "no usable keys";
    return false;
  }
  auto element = [&](size_t k, size_t slot) {
    return &values.values[(k * per_key + slot) * width];
  };
  if (rotation) {
    Track<glm::quat>& track = anim->rotation;
    track.interpolation = interpolation;
    track.times = kept_times;
    for (size_t k : kept_keys) {
      for (size_t slot = 0; slot < per_key; ++slot) {
        const float* q = element(k, slot);
        // glTF stores x, y, z, w; values were normalised above.
        track.values.emplace_back(q[3], q[0], q[1], q[2]);
      }
    }
  } else {
    Track<glm::vec3>& track = path == "translation" ? anim->translation : anim->scale;
    track.interpolation = interpolation;
    track.times = kept_times;
    for (size_t k : kept_keys) {
      for (size_t slot = 0; slot < per_key; ++slot) {
        const float* v = element(k, slot);
        track.values.emplace_back(v[0], v[1], v[2]);
      }
    }
  }
  return true;
}

bool ReadAnimations(Document* d, Prepass* out) {
  std::vector<std::string>* warnings = &out->warnings;
  KeyStats stats;
  const json& animations = ArrayMember(d->root, "animations");
  const size_t node_count = ArrayMember(d->root, "nodes").size();
  for (const json& animation : animations) {
    Clip clip;
    clip.name = StringMember(animation, "name");
    const json& samplers = ArrayMember(animation, "samplers");
    std::map<int64_t, size_t> channel_of_node;
    for (const json& channel : ArrayMember(animation, "channels")) {
      const json* target = Member(channel, "target");
      const auto sampler_index = IndexMember(channel, "sampler");
      const auto node = target ? IndexMember(*target, "node") : std::nullopt;
      const std::string path = target ? StringMember(*target, "path") : std::string();
      if (path == "weights") {
        stats.morph_weights = true;
        continue;
      }
      if (!sampler_index || *sampler_index >= static_cast<int64_t>(samplers.size()) || !node ||
          *node >= static_cast<int64_t>(node_count) ||
          (path != "translation" && path != "rotation" && path != "scale")) {
        ++stats.skipped_channels;
        continue;
      }
      auto found = channel_of_node.find(*node);
      if (found == channel_of_node.end()) {
        JointAnimation fresh;
        fresh.joint = static_cast<int>(*node);
        clip.channels.push_back(fresh);
        found = channel_of_node.emplace(*node, clip.channels.size() - 1).first;
      }
      JointAnimation& anim = clip.channels[found->second];
      const bool taken = (path == "translation" && !anim.translation.empty()) ||
                         (path == "rotation" && !anim.rotation.empty()) ||
                         (path == "scale" && !anim.scale.empty());
      std::string why;
      if (taken || !ReadChannel(d, samplers[static_cast<size_t>(*sampler_index)], path, &anim,
                                &stats, &why)) {
        ++stats.skipped_channels;
        continue;
      }
    }
    // Drop nodes whose every channel failed.
    clip.channels.erase(std::remove_if(clip.channels.begin(), clip.channels.end(),
                                       [](const JointAnimation& a) {
                                         return a.translation.empty() && a.rotation.empty() &&
                                                a.scale.empty();
                                       }),
                        clip.channels.end());
    for (const JointAnimation& a : clip.channels) {
      for (const std::vector<float>* times :
           {&a.translation.times, &a.rotation.times, &a.scale.times}) {
        if (!times->empty()) clip.duration = std::max(clip.duration, times->back());
      }
    }
    out->clips.push_back(std::move(clip));
  }
  if (stats.dropped_keys > 0) {
    warnings->push_back("dropped " + std::to_string(stats.dropped_keys) +
                        " animation keys with non-increasing times or non-finite values");
  }
  if (stats.skipped_channels > 0) {
    warnings->push_back("skipped " + std::to_string(stats.skipped_channels) +
                        " invalid or duplicate animation channels");
  }
  if (stats.morph_weights) {
    warnings->push_back("morph-target weight animations are not supported and were ignored");
  }
  return true;
}

// --- native meshes ----------------------------------------------------------------------------

// Mesh compression extensions only Assimp decodes; a file using one keeps the Assimp mesh path.
bool UsesCompressedMeshes(const json& doc) {
  for (const json& mesh : ArrayMember(doc, "meshes")) {
    for (const json& primitive : ArrayMember(mesh, "primitives")) {
      const json* extensions = Member(primitive, "extensions");
      if (extensions && extensions->is_object() && !extensions->empty()) {
        for (const auto& [name, value] : extensions->items()) {
          if (name == "KHR_draco_mesh_compression" || name == "EXT_meshopt_compression") {
            return true;
          }
        }
      }
    }
  }
  return false;
}

// Reads a VEC3/VEC2 attribute of `count` elements into `out`; false (and no data) when the
// attribute is absent or of another shape, so that it is treated as missing.
template <typename Vec>
bool ReadOptionalAttribute(Document* d, const json& attributes, const char* key, size_t count,
                           std::vector<Vec>* out, std::string* error) {
  const auto index = IndexMember(attributes, key);
  size_t n = 0;
  int components = 0;
  constexpr int kWidth = static_cast<int>(sizeof(Vec) / sizeof(float));
  if (!index || !d->AccessorShape(*index, &n, &components) || n != count || components != kWidth ||
      count == 0) {
    return true;
  }
  out->resize(count);
  if (!d->ReadAccessorInto(*index, kWidth, count, &(*out)[0][0], error)) return false;
  return true;
}

// The four largest positive influences per vertex over every JOINTS_n/WEIGHTS_n set, in
// descending order (ties keep file order, as a stable sort would), unnormalised.
bool ReadInfluences(Document* d, const json& attributes, Primitive* out, std::string* error) {
  const size_t n = out->positions.size();
  bool any = false;
  for (int set = 0;; ++set) {
    const auto j = IndexMember(attributes, ("JOINTS_" + std::to_string(set)).c_str());
    const auto w = IndexMember(attributes, ("WEIGHTS_" + std::to_string(set)).c_str());
    if (!j || !w) break;
    AccessorData joints, weights;
    if (!d->ReadAccessor(*j, &joints, error) || !d->ReadAccessor(*w, &weights, error)) {
      return false;
    }
    if (joints.components != 4 || weights.components != 4 || joints.count != n ||
        weights.count != n) {
      *error = "a primitive's JOINTS_" + std::to_string(set) + "/WEIGHTS_" + std::to_string(set) +
               " accessors are not VEC4 with one element per vertex";
      return false;
    }
    if (!any) {
      out->joints.assign(n, glm::u16vec4(0));
      out->weights.assign(n, glm::vec4(0.0f));
      out->influence_counts.assign(n, 0);
      any = true;
    }
    for (size_t v = 0; v < n; ++v) {
      for (size_t c = 0; c < 4; ++c) {
        const float weight = weights.values[v * 4 + c];
        const float joint = joints.values[v * 4 + c];
        if (weight == 0.0f) continue;
        if (!std::isfinite(weight) || weight < 0.0f || !(joint >= 0.0f) || joint > 65535.0f ||
            joint != std::floor(joint)) {
          ++out->invalid_influences;
          continue;
        }
        const int count = out->influence_counts[v];
        if (count < 255) out->influence_counts[v] = static_cast<uint8_t>(count + 1);
        const int kept = std::min(count, 4);
        glm::vec4& top = out->weights[v];
        glm::u16vec4& slots = out->joints[v];
        int k = 0;
        while (k < kept && top[k] >= weight) ++k;
        if (k >= 4) continue;
        for (int m = std::min(kept, 3); m > k; --m) {
          top[m] = top[m - 1];
          slots[m] = slots[m - 1];
        }
        top[k] = weight;
        slots[k] = static_cast<uint16_t>(joint);
      }
    }
  }
  return true;
}

bool DecodePrimitive(Document* d, const json& primitive, size_t materials, Primitive* out,
                     std::string* error) {
  const int64_t mode = IntMember(primitive, "mode", 4);
  const json* attributes = Member(primitive, "attributes");
  const auto position = attributes ? IndexMember(*attributes, "POSITION") : std::nullopt;
  size_t n = 0;
  int components = 0;
  if ((mode != 4 && mode != 5 && mode != 6) || !position ||
      !d->AccessorShape(*position, &n, &components) || n == 0) {
    out->triangles = false;  // points, lines, or nothing to draw
    return true;
  }
  if (components != 3) {
    *error = "a primitive's POSITION accessor is not VEC3";
    return false;
  }
  out->positions.resize(n);
  if (!d->ReadAccessorInto(*position, 3, n, &out->positions[0][0], error) ||
      !ReadOptionalAttribute(d, *attributes, "NORMAL", n, &out->normals, error) ||
      !ReadOptionalAttribute(d, *attributes, "TEXCOORD_0", n, &out->uvs, error) ||
      !ReadInfluences(d, *attributes, out, error)) {
    return false;
  }
  std::vector<uint32_t> corners;
  if (const auto indices = IndexMember(primitive, "indices")) {
    if (!d->ReadIndices(*indices, &corners, error)) return false;
  } else {
    corners.resize(n);
    for (size_t i = 0; i < n; ++i) corners[i] = static_cast<uint32_t>(i);
  }
  auto add = [&](uint32_t a, uint32_t b, uint32_t c) {
    if (a >= n || b >= n || c >= n) {
      ++out->dropped_triangles;
      return;
    }
    out->indices.insert(out->indices.end(), {a, b, c});
  };
  if (mode == 4) {
    corners.resize(corners.size() - corners.size() % 3);
    const bool all_valid =
        std::all_of(corners.begin(), corners.end(), [n](uint32_t c) { return c < n; });
    if (all_valid) {
      out->indices = std::move(corners);  // the common case: taken as it is
    } else {
      out->indices.reserve(corners.size());
      for (size_t i = 0; i + 2 < corners.size(); i += 3) {
        add(corners[i], corners[i + 1], corners[i + 2]);
      }
    }
  } else if (mode == 5) {  // strip: every other triangle flipped to keep the winding
    for (size_t i = 0; i + 2 < corners.size(); ++i) {
      if (i % 2 == 0) {
        add(corners[i], corners[i + 1], corners[i + 2]);
      } else {
        add(corners[i + 1], corners[i], corners[i + 2]);
      }
    }
  } else {  // fan around the first corner
    for (size_t i = 1; i + 1 < corners.size(); ++i) add(corners[0], corners[i], corners[i + 1]);
  }
  if (out->indices.empty()) out->triangles = false;
  const auto material = IndexMember(primitive, "material");
  out->material =
      material && *material < static_cast<int64_t>(materials) ? static_cast<int>(*material) : -1;
  return true;
}

bool ReadMeshes(Document* d, Prepass* out, std::string* error) {
  const json& meshes = ArrayMember(d->root, "meshes");
  const size_t materials = ArrayMember(d->root, "materials").size();
  out->meshes.resize(meshes.size());
  for (size_t m = 0; m < meshes.size(); ++m) {
    const json& primitives = ArrayMember(meshes[m], "primitives");
    std::string name = StringMember(meshes[m], "name");
    if (name.empty()) name = "meshes[" + std::to_string(m) + "]";
    out->meshes[m].resize(primitives.size());
    for (size_t p = 0; p < primitives.size(); ++p) {
      Primitive& primitive = out->meshes[m][p];
      primitive.name = primitives.size() > 1 ? name + "-" + std::to_string(p) : name;
      if (!DecodePrimitive(d, primitives[p], materials, &primitive, error)) {
        *error = "mesh " + std::to_string(m) + ": " + *error;
        return false;
      }
    }
  }
  return true;
}

bool ReadSkins(Document* d, Prepass* out, std::string* error) {
  const json& skins = ArrayMember(d->root, "skins");
  size_t without_inverse_binds = 0;
  for (size_t s = 0; s < skins.size(); ++s) {
    Skin skin;
    for (const json& joint : ArrayMember(skins[s], "joints")) {
      skin.joints.push_back(static_cast<int>(joint.get<int64_t>()));  // checked: a node index
    }
    skin.inverse_binds.assign(skin.joints.size(), glm::mat4(1.0f));
    if (const auto accessor = IndexMember(skins[s], "inverseBindMatrices")) {
      AccessorData data;
      if (!d->ReadAccessor(*accessor, &data, error)) return false;
      if (data.components != 16 || data.count < skin.joints.size()) {
        *error = "skin " + std::to_string(s) + " has fewer inverse bind matrices than joints";
        return false;
      }
      for (size_t j = 0; j < skin.joints.size(); ++j) {
        glm::mat4& m = skin.inverse_binds[j];
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r)
            m[c][r] = data.values[j * 16 + static_cast<size_t>(c * 4 + r)];
      }
    } else {
      ++without_inverse_binds;
    }
    out->skins.push_back(std::move(skin));
  }
  if (without_inverse_binds > 0) {
    out->warnings.push_back(std::to_string(without_inverse_binds) +
                            " skins had no inverseBindMatrices; used identity matrices as glTF "
                            "specifies");
  }
  return true;
}

// Materials and the images they use (Assimp would load only the materials meshes reference,
// and the native path gives it no meshes).
void ReadMaterials(Document* d, Prepass* out) {
  const json& textures = ArrayMember(d->root, "textures");
  const json& images = ArrayMember(d->root, "images");
  for (size_t i = 0; i < images.size(); ++i) {
    ImageSource image;
    const std::string uri = StringMember(images[i], "uri");
    image.name = uri.empty() || uri.rfind("data:", 0) == 0 ? "image " + std::to_string(i) : uri;
    if (const auto view = IndexMember(images[i], "bufferView")) {
      if (!d->ViewData(*view, &image.bytes, &image.error) && image.error.empty()) {
        image.error = "its bufferView is invalid";
      }
    } else if (uri.rfind("data:", 0) == 0) {
      const size_t marker = uri.find(";base64,");
      if (marker == std::string::npos || !DecodeBase64(uri, marker + 8, &image.bytes)) {
        image.error = "its data URI is not valid base64";
      }
    } else if (!uri.empty()) {
      image.file = PercentDecode(uri);
    } else {
      image.error = "it has neither a uri nor a bufferView";
    }
    out->images.push_back(std::move(image));
  }
  auto image_of = [&](const json* texture_info) -> int {
    const auto texture = texture_info ? IndexMember(*texture_info, "index") : std::nullopt;
    if (!texture || *texture >= static_cast<int64_t>(textures.size())) return -1;
    const auto source = IndexMember(textures[static_cast<size_t>(*texture)], "source");
    return source && *source < static_cast<int64_t>(images.size()) ? static_cast<int>(*source) : -1;
  };
  auto color_of = [](const json* factor, glm::vec4* color) {
    if (!factor || !factor->is_array() || factor->size() != 4) return;
    for (size_t c = 0; c < 4; ++c) {
      const json& v = (*factor)[c];
      if (!v.is_number()) return;
    }
    for (int c = 0; c < 4; ++c) {
      const double v = (*factor)[static_cast<size_t>(c)].get<double>();
      (*color)[c] = std::isfinite(v) ? static_cast<float>(std::clamp(v, 0.0, 1.0)) : 1.0f;
    }
  };
  for (const json& material : ArrayMember(d->root, "materials")) {
    MaterialSource m;
    m.name = StringMember(material, "name");
    const json* pbr = Member(material, "pbrMetallicRoughness");
    const json* extensions = Member(material, "extensions");
    const json* gloss =
        extensions ? Member(*extensions, "KHR_materials_pbrSpecularGlossiness") : nullptr;
    if (pbr) {
      color_of(Member(*pbr, "baseColorFactor"), &m.base_color);
      m.image = image_of(Member(*pbr, "baseColorTexture"));
    } else if (gloss) {
      color_of(Member(*gloss, "diffuseFactor"), &m.base_color);
      m.image = image_of(Member(*gloss, "diffuseTexture"));
    }
    out->materials.push_back(std::move(m));
  }
}

// The file as Assimp should see it once meshes, skins, animations and materials are read here: the
// node hierarchy only. Assimp then reads a few kilobytes instead of the whole model.
std::vector<uint8_t> SceneOnlyFile(Document* d) {
  json root = json::object();
  for (const char* key : {"asset", "scene", "scenes", "nodes", "extensionsUsed"}) {
    if (d->root.contains(key)) root[key] = d->root[key];
  }
  for (json& node : root["nodes"]) {
    if (!node.is_object()) continue;
    for (const char* key : {"mesh", "skin", "weights", "camera", "extensions"}) node.erase(key);
  }
  return WriteContainer(root, d->glb, {});
}

}  // namespace

bool LooksLikeGltf(const std::string& path, const std::vector<uint8_t>& bytes) {
  const std::string ext = ToLower(std::filesystem::path(path).extension().string());
  return ext == ".gltf" || ext == ".glb" || StartsWithGlbMagic(bytes);
}

bool Prepare(const std::string& path, const std::vector<uint8_t>& bytes, uint64_t file_size,
             const PrepareOptions& options, Prepass* out, std::string* error) {
  *out = Prepass();
  try {
    Document d;
    d.UseFiles(options.files);
    if (!d.Parse(path, bytes, error, file_size)) return false;
    const json* asset = Member(d.root, "asset");
    const std::string version = asset ? StringMember(*asset, "version") : std::string();
    // glTF 1.0 (some exporters wrote its version as the number 1): Assimp's own importer.
    const json* version_number = asset ? Member(*asset, "version") : nullptr;
    if (version.rfind("1", 0) == 0 ||
        (version_number && version_number->is_number() && version_number->get<double>() >= 1.0 &&
         version_number->get<double>() < 2.0)) {
      // Left to Assimp, but with unit node rotations (see NormalizeNodeRotations).
      if (NormalizeNodeRotations(&d, &out->warnings)) out->patched = d.Serialize();
      return true;
    }
    if (!asset || version.rfind("2", 0) != 0) {
      *error = "not a glTF 2.0 file (asset.version is " + Quoted(version) + ")";
      return false;
    }
    out->is_gltf2 = true;
    if (!d.root.contains("nodes") || !d.root["nodes"].is_array()) d.root["nodes"] = json::array();
    MakeNodeNamesUnique(&d, &out->node_names, &out->warnings);
    NormalizeNodeRotations(&d, &out->warnings);
    if (!WalkScene(d.root, out, error)) return false;
    for (const json& skin : ArrayMember(d.root, "skins")) {
      if (ArrayMember(skin, "joints").size() > 65535) {
        *error = "a skin has more than 65,535 joints";
        return false;
      }
    }
    if (!d.ValidateLayout(kMaxAccessorElements, error) || !CheckReferences(d.root, error) ||
        !CheckInstancedSize(d.root, *out, error) || !CheckDecodeBudget(d, *out, file_size, error)) {
      return false;
    }
    if (!ReadAnimations(&d, out)) return false;
    if (options.native_meshes && !UsesCompressedMeshes(d.root)) {
      // Meshes and skins are decoded here; Assimp only builds the node tree and materials.
      if (!ReadMeshes(&d, out, error) || !ReadSkins(&d, out, error)) return false;
      ReadMaterials(&d, out);
      for (const json& node : ArrayMember(d.root, "nodes")) {
        const auto mesh = IndexMember(node, "mesh");
        const auto skin = IndexMember(node, "skin");
        out->node_meshes.push_back(mesh ? static_cast<int>(*mesh) : -1);
        out->node_skins.push_back(skin ? static_cast<int>(*skin) : -1);
      }
      out->native_meshes = true;
      out->patched = SceneOnlyFile(&d);
      return true;
    }
    GiveSharedMeshesOwnCopies(&d, &out->warnings);
    AddMissingInverseBinds(&d, &out->warnings);
    if (!RewriteSkinWeights(&d, &out->warnings, error)) return false;
    if (d.changed()) out->patched = d.Serialize();
    return true;
  } catch (const std::exception& e) {
    // nlohmann-json throws on type mismatches the checks above did not foresee; a bad file must
    // still end in a message, never in an exception leaving the library.
    *error = std::string("malformed glTF: ") + e.what();
    return false;
  }
}

}  // namespace assets::gltf
