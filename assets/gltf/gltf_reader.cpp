// glTF reader: parses the container and JSON with nlohmann-json, walks the scene, reads the nodes,
// runs the checks and readers of gltf_reader_steps.h; glTF 1.0 files get their node rotations
// made unit quaternions and go to Assimp.
#include "assets/gltf/gltf_reader.h"

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

#include "assets/files/limits.h"
#include "assets/files/messages.h"
#include "assets/gltf/gltf_document.h"
#include "assets/gltf/gltf_reader_steps.h"
#include "assets/gltf/model_builder.h"
#include "ik/core/skeleton.h"

namespace assets::gltf {
namespace {

using json = Json;

bool StartsWithGlbMagic(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 4 && bytes[0] == 'g' && bytes[1] == 'l' && bytes[2] == 'T' &&
         bytes[3] == 'F';
}

std::string ToLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// --- nodes -------------------------------------------------------------------------------------

// Gives each node a unique name (name, or "nodes[i]" when unnamed; a repeat "<name>.<index>").
void NameNodes(const json& nodes, std::vector<Node>* out, std::vector<std::string>* warnings) {
  std::set<std::string> taken;
  size_t renamed = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::string name = StringMember(nodes[i], "name");
    (*out)[i].named = !name.empty();
    if (name.empty()) name = "nodes[" + std::to_string(i) + "]";
    if (!taken.insert(name).second) {
      std::string unique = name + "." + std::to_string(i);
      for (int k = 2; !taken.insert(unique).second; ++k) {
        unique = name + "." + std::to_string(i) + "." + std::to_string(k);
      }
      name = unique;
      ++renamed;
    }
    (*out)[i].name = std::move(name);
  }
  if (renamed > 0) {
    warnings->push_back(std::to_string(renamed) +
                        " nodes had the same name as an earlier node and were renamed "
                        "'<name>.<node index>' so that joints can be told apart");
  }
}

// The numbers of member `key` of `node` when it is an array of exactly `count` numbers; false when
// absent. A member of another shape is ignored with a warning naming the node.
bool NumbersMember(const json& node, const char* key, size_t count, const std::string& node_name,
                   double* out, std::vector<std::string>* warnings) {
  const json* member = Member(node, key);
  if (!member) return false;
  bool ok = member->is_array() && member->size() == count;
  for (size_t i = 0; ok && i < count; ++i) {
    ok = (*member)[i].is_number();
    if (ok) out[i] = (*member)[i].get<double>();
  }
  if (!ok) {
    warnings->push_back("node " + Quoted(node_name) + " has a '" + key + "' that is not " +
                        std::to_string(count) + " numbers; ignored it");
  }
  return ok;
}

// Each node's local transform (see Node::rest), mesh, skin and weights. Rotations were made unit
// quaternions by NormalizeNodeRotations.
void ReadNodes(const json& nodes, std::vector<Node>* out, std::vector<std::string>* warnings) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    const json& source = nodes[i];
    Node& node = (*out)[i];
    double m[16], t[3], r[4], s[3];
    if (NumbersMember(source, "matrix", 16, node.name, m, warnings)) {
      glm::mat4 local;
      for (int c = 0; c < 4; ++c)
        for (int k = 0; k < 4; ++k) local[c][k] = static_cast<float>(m[c * 4 + k]);
      // A non-finite or huge matrix is refused when the node is a joint (BuildModel).
      node.huge = !ModelBuilder::WithinLimits(local);
      node.approximated = !node.huge && !ModelBuilder::RestFromMatrix(local, &node.rest);
    } else {
      if (NumbersMember(source, "translation", 3, node.name, t, warnings)) {
        node.rest.translation = glm::vec3(t[0], t[1], t[2]);
      }
      if (NumbersMember(source, "rotation", 4, node.name, r, warnings)) {
        // Unit length already (NormalizeNodeRotations); normalised again in float.
        const glm::quat q(static_cast<float>(r[3]), static_cast<float>(r[0]),
                          static_cast<float>(r[1]), static_cast<float>(r[2]));
        const float length = glm::length(q);
        if (std::isfinite(length) && length > 0.0f) node.rest.rotation = q / length;
      }
      if (NumbersMember(source, "scale", 3, node.name, s, warnings)) {
        node.rest.scale = glm::vec3(s[0], s[1], s[2]);
      }
    }
    const auto mesh = IndexMember(source, "mesh");
    const auto skin = IndexMember(source, "skin");
    node.mesh = mesh ? static_cast<int>(*mesh) : -1;
    node.skin = skin ? static_cast<int>(*skin) : -1;
    node.weights = FiniteNumbers(Member(source, "weights"));
  }
}

// Walks the default scene (node tree in preorder, children in file order): the joints' nodes and
// parents.
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
  out->preorder_parents.clear();
  std::vector<char> on_path(node_count, 0);
  // Explicit stack of (node, its joint, next child position); a node is on the path while it is
  // on the stack.
  struct Frame {
    size_t node;
    int joint;
    size_t next_child;
  };
  std::vector<Frame> stack;
  for (const json& root : roots) {
    if (!valid(root)) {
      *error = "the scene lists a node that does not exist";
      return false;
    }
    auto enter = [&](size_t node, int parent) -> bool {
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
      const int joint = static_cast<int>(out->preorder_nodes.size());
      out->preorder_nodes.push_back(static_cast<int>(node));
      out->preorder_parents.push_back(parent);
      stack.push_back({node, joint, 0});
      return true;
    };
    if (!enter(static_cast<size_t>(root.get<int64_t>()), -1)) return false;
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
      if (!enter(static_cast<size_t>(child.get<int64_t>()), top.joint)) return false;
    }
  }
  return true;
}

// Node rotations as unit quaternions. glTF requires them (a rotation of length 65536 would
// otherwise become a scale of 65536 squared and a turn), and keyframe rotations are normalised
// likewise; Assimp's glTF 1.0 reader builds a node's matrix from the quaternion as it is. A zero or
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

// --- extensions and mesh holders ---------------------------------------------------------------

// The extensions a file may require: what skelview decodes itself (quantized attributes, meshopt
// buffers, Draco meshes, specular-glossiness base colour, WebP textures, a VRM avatar's meta and
// humanoid map). Fails naming every other one, as glTF asks of a loader that cannot honour a
// required extension.
const std::set<std::string>& HonouredExtensions() {
  static const std::set<std::string> kHonoured = {"KHR_mesh_quantization",
                                                  "EXT_meshopt_compression",
                                                  "KHR_draco_mesh_compression",
                                                  "KHR_materials_pbrSpecularGlossiness",
                                                  "EXT_texture_webp",
                                                  "VRM",
                                                  "VRMC_vrm"};
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

}  // namespace

bool LooksLikeGltf(const std::string& path, const std::vector<uint8_t>& bytes) {
  const std::string ext = ToLower(std::filesystem::path(path).extension().string());
  return ext == ".gltf" || ext == ".glb" || ext == ".vrm" || StartsWithGlbMagic(bytes);
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
    const json& nodes = d.root["nodes"];
    out->nodes.resize(nodes.size());
    NameNodes(nodes, &out->nodes, &out->warnings);
    NormalizeNodeRotations(&d, &out->warnings);
    ReadNodes(nodes, &out->nodes, &out->warnings);
    if (!WalkScene(d.root, out, error)) return false;
    for (const json& skin : ArrayMember(d.root, "skins")) {
      if (ArrayMember(skin, "joints").size() > 65535) {
        *error = "a skin has more than 65,535 joints";
        return false;
      }
    }
    LoadProgress* progress = options.progress;
    auto cancelled = [&] {
      if (!progress || !progress->Cancelled()) return false;
      *error = "cancelled";
      return true;
    };
    WarnUnreadExtensions(d.root, &out->warnings);
    // A VRM avatar: its meta and humanoid map, read from the JSON (vrm.h).
    if (vrm::ReadAvatar(d.root, &out->avatar)) {
      out->has_avatar = true;
      for (const std::string& w : out->avatar.warnings) out->warnings.push_back(w);
    }
    if (!CheckRequiredExtensions(d.root, error) ||
        !d.UnpackMeshopt(DecodeBudget(file_size + d.ExternalBufferBytes()), error) ||
        !d.ValidateLayout(kMaxAccessorElements, error) || !CheckReferences(d, error) ||
        !CheckInstancedSize(d, *out, error) || !CheckDecodeBudget(d, *out, file_size, error) ||
        cancelled()) {
      return false;
    }
    if (!ReadAnimations(&d, out) || cancelled()) return false;
    if (!ReadMeshes(&d, progress, out, error) || !ReadSkins(&d, out, error)) return false;
    ReadMaterials(&d, out);
    if (StringMember(*asset, "generator") == "skelview") {
      out->mesh_holders = TakeOutMeshHolders(&d);
    }
    if (!out->mesh_holders.empty() && !WalkScene(d.root, out, error)) return false;
    return !cancelled();
  } catch (const std::exception& e) {
    // nlohmann-json throws on type mismatches the checks above did not foresee; a bad file must
    // still end in a message, never in an exception leaving the library.
    *error = std::string("malformed glTF: ") + e.what();
    return false;
  }
}

}  // namespace assets::gltf
