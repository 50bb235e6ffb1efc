// glTF reader (it runs before Assimp): parses the container and JSON with nlohmann-json, walks the
// scene, runs the checks and readers of gltf_reader_steps.h, applies the repairs listed in
// internal/gltf_reader.h and re-serialises the file for Assimp. Generated data (identity inverse
// binds, float weights) go into the .glb binary chunk or an extra base64 buffer.
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
#include "assets/internal/gltf_reader_steps.h"
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
bool WalkScene(const json& doc, Contents* out, std::string* error) {
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

// --- native meshes ----------------------------------------------------------------------------

// The extensions a file may require: what skelview decodes itself (quantized attributes, meshopt
// buffers, specular-glossiness base colour, WebP textures) or leaves to Assimp (Draco meshes).
// Fails naming every other one, as glTF asks of a loader that cannot honour a required extension.
const std::set<std::string>& HonouredExtensions() {
  static const std::set<std::string> kHonoured = {
      "KHR_mesh_quantization", "EXT_meshopt_compression", "KHR_draco_mesh_compression",
      "KHR_materials_pbrSpecularGlossiness", "EXT_texture_webp"};
  return kHonoured;
}

// The names in doc[list] that skelview does not honour, each once, in file order.
std::vector<std::string> UnhonouredExtensions(const json& doc, const char* list) {
  std::vector<std::string> missing;
  for (const json& name : ArrayMember(doc, list)) {
    const std::string text = name.is_string() ? name.get<std::string>() : name.dump();
    if (!HonouredExtensions().count(text) &&
        std::find(missing.begin(), missing.end(), text) == missing.end()) {
      missing.push_back(text);
    }
  }
  return missing;
}

std::string JoinedList(const std::vector<std::string>& names) {
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return list;
}

bool CheckRequiredExtensions(const json& doc, std::string* error) {
  const std::vector<std::string> missing = UnhonouredExtensions(doc, "extensionsRequired");
  if (missing.empty()) return true;
  *error = "requires " + JoinedList(missing) + ", which skelview does not support";
  return false;
}

// Extensions the file uses but does not require, which skelview leaves unread: one warning (the
// model loads without what they add; `skelview check` reports it as extension.unsupported).
void WarnUnreadExtensions(const json& doc, std::vector<std::string>* warnings) {
  const std::vector<std::string> unread = UnhonouredExtensions(doc, "extensionsUsed");
  if (unread.empty()) return;
  warnings->push_back("uses " + Quoted(JoinedList(unread), kMaxMessageBytes / 2) +
                      (unread.size() == 1
                           ? ", an extension skelview does not read; loaded without it"
                           : ", extensions skelview does not read; loaded without them"));
}

// Mesh compression only Assimp decodes (Draco); a file using it keeps the Assimp mesh path.
bool UsesCompressedMeshes(const json& doc) {
  for (const json& mesh : ArrayMember(doc, "meshes")) {
    for (const json& primitive : ArrayMember(mesh, "primitives")) {
      const json* extensions = Member(primitive, "extensions");
      if (extensions && extensions->is_object() && !extensions->empty()) {
        for (const auto& [name, value] : extensions->items()) {
          if (name == "KHR_draco_mesh_compression") return true;
        }
      }
    }
  }
  return false;
}

// Scene root nodes that only hold a skinned mesh (see Contents::mesh_holders), taken out of the
// scene's root list so the node tree (and the skeleton) leaves them out; at least one root stays.
// Only for skelview's own files: elsewhere every node is a joint (and tests compare joints with
// the file's nodes one to one).
std::vector<int> TakeOutMeshHolders(Document* d) {
  json& root = d->root;
  const json& nodes = ArrayMember(root, "nodes");
  std::vector<char> joint(nodes.size(), 0), animated(nodes.size(), 0);
  auto mark = [&](const json& v, std::vector<char>* set) {
    if (v.is_number_integer() && v.get<int64_t>() >= 0 &&
        v.get<int64_t>() < static_cast<int64_t>(nodes.size())) {
      (*set)[static_cast<size_t>(v.get<int64_t>())] = 1;
    }
  };
  for (const json& skin : ArrayMember(root, "skins")) {
    for (const json& j : ArrayMember(skin, "joints")) mark(j, &joint);
    if (const json* skeleton = Member(skin, "skeleton")) mark(*skeleton, &joint);
  }
  for (const json& animation : ArrayMember(root, "animations")) {
    for (const json& channel : ArrayMember(animation, "channels")) {
      // Moved by a clip (a morph-weights channel moves no node).
      const json* target = Member(channel, "target");
      const json* node = target ? Member(*target, "node") : nullptr;
      if (node && StringMember(*target, "path") != "weights") mark(*node, &animated);
    }
  }
  const json& meshes = ArrayMember(root, "meshes");
  auto only_skinned_primitives = [&](int64_t m) {
    if (m < 0 || m >= static_cast<int64_t>(meshes.size())) return false;
    const json& primitives = ArrayMember(meshes[static_cast<size_t>(m)], "primitives");
    return !primitives.empty() &&
           std::all_of(primitives.begin(), primitives.end(), [](const json& p) {
             const json* attributes = Member(p, "attributes");
             return attributes && attributes->contains("JOINTS_0");
           });
  };
  std::vector<int> holders;
  int64_t scene_index = 0;
  if (const auto s = IndexMember(root, "scene")) scene_index = *s;
  json& scenes = root["scenes"];
  if (!scenes.is_array() || scene_index >= static_cast<int64_t>(scenes.size())) return holders;
  json& scene = scenes[static_cast<size_t>(scene_index)];
  if (!scene.contains("nodes") || !scene["nodes"].is_array()) return holders;
  json kept = json::array();
  for (const json& r : scene["nodes"]) {
    bool holder = false;
    if (r.is_number_integer() && r.get<int64_t>() >= 0 &&
        r.get<int64_t>() < static_cast<int64_t>(nodes.size())) {
      const size_t n = static_cast<size_t>(r.get<int64_t>());
      const json& node = nodes[n];
      const auto mesh = IndexMember(node, "mesh");
      holder = mesh && IndexMember(node, "skin") && ArrayMember(node, "children").empty() &&
               !Member(node, "weights") && !joint[n] && !animated[n] &&
               only_skinned_primitives(*mesh);
      if (holder) holders.push_back(static_cast<int>(n));
    }
    if (!holder) kept.push_back(r);
  }
  if (kept.empty()) return {};  // nothing but holders: keep the scene as it is
  if (!holders.empty()) scene["nodes"] = kept;
  return holders;
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
             const PrepareOptions& options, Contents* out, std::string* error) {
  *out = Contents();
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
    WarnUnreadExtensions(d.root, &out->warnings);
    if (!CheckRequiredExtensions(d.root, error) ||
        !d.UnpackMeshopt(DecodeBudget(file_size + d.ExternalBufferBytes()), error) ||
        !d.ValidateLayout(kMaxAccessorElements, error) || !CheckReferences(d, error) ||
        !CheckInstancedSize(d, *out, error) || !CheckDecodeBudget(d, *out, file_size, error)) {
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
        out->node_weights.push_back(FiniteNumbers(Member(node, "weights")));
      }
      out->native_meshes = true;
      if (StringMember(*asset, "generator") == "skelview") {
        out->mesh_holders = TakeOutMeshHolders(&d);
      }
      if (!out->mesh_holders.empty() && !WalkScene(d.root, out, error)) return false;
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
