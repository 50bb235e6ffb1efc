// glTF export, written directly from the Model: nodes (one per joint, then one per skinned mesh),
// skins, meshes, materials with embedded PNG textures, and the clips, into one document and one
// binary buffer (assets/gltf/gltf_writer.h), then to disk atomically as .glb or .gltf + .bin.
#include "assets/export/exporter.h"

#include <stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

#include "assets/export/export_plan.h"
#include "assets/files/file_output.h"
#include "assets/gltf/gltf_writer.h"
#include "ik/core/transform.h"

namespace assets {
namespace {

using gltf_out::Json;

std::string ToLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Unique, non-empty names ("<name>.<index>" for a repeated or empty one): the reader finds
// joints by name.
std::vector<std::string> UniqueNames(const std::vector<std::string>& names, const char* fallback) {
  std::vector<std::string> out(names.size());
  std::set<std::string> taken(names.begin(), names.end());
  std::set<std::string> used;
  for (size_t i = 0; i < names.size(); ++i) {
    std::string name = names[i].empty() ? fallback + std::to_string(i) : names[i];
    if (used.count(name) || (names[i].empty() && taken.count(name))) {
      std::string candidate = name + "." + std::to_string(i);
      for (int k = 2; used.count(candidate) || taken.count(candidate); ++k) {
        candidate = name + "." + std::to_string(i) + "." + std::to_string(k);
      }
      name = candidate;
    }
    used.insert(name);
    out[i] = name;
  }
  return out;
}

bool EncodePng(const Texture& texture, std::vector<uint8_t>* png) {
  if (texture.width <= 0 || texture.height <= 0 ||
      texture.rgba.size() != static_cast<size_t>(texture.width) * texture.height * 4) {
    return false;
  }
  auto sink = [](void* context, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(context);
    const auto* bytes = static_cast<const uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
  };
  return stbi_write_png_to_func(sink, png, texture.width, texture.height, 4, texture.rgba.data(),
                                texture.width * 4) != 0;
}

ExportPlan MakePlan(const Model& model) {
  ExportPlan plan;
  const ik::Skeleton& s = model.skeleton;
  const int joints = s.joint_count();
  plan.node_names = UniqueNames(s.names(), "joint");
  // Skinned meshes go on nodes of their own at the scene's root, with no transform and no
  // animation: glTF ignores both for a skinned mesh (the validator warns about either). skelview
  // reads such nodes of its own files back as no joint (assets/gltf/gltf_reader.cpp). An unskinned
  // mesh sits on its joint's node; a glTF node holds one mesh, so a second one on the same joint
  // is written as a one-bone skin on a node of its own.
  std::vector<char> used(static_cast<size_t>(joints), 0);
  std::set<std::string> taken(plan.node_names.begin(), plan.node_names.end());
  int meshes = 0, skins = 0;
  for (const Mesh& mesh : model.meshes) {
    MeshPlacement p;
    p.written = !mesh.positions.empty() && mesh.indices.size() >= 3;
    if (!p.written) {
      plan.placements.push_back(p);
      continue;
    }
    p.mesh = meshes++;
    // A skinned mesh without bones has nothing to bind to: written as an unskinned one.
    const bool skinned = mesh.skinned && !mesh.bone_joints.empty();
    p.skinned = skinned;
    if (!skinned) {
      const int joint = mesh.bone_joints.empty() ? 0 : mesh.bone_joints[0];
      p.node = joint >= 0 && joint < joints ? joint : 0;
      p.rigid = p.skinned = used[static_cast<size_t>(p.node)] != 0;
      used[static_cast<size_t>(p.node)] = 1;
    }
    if (p.skinned) {
      // Named after the mesh, as tools name a skinned mesh's object; unique among all nodes.
      const std::string base = mesh.name.empty() ? "mesh" : mesh.name;
      std::string name = base;
      for (int k = 1; taken.count(name); ++k) name = base + "." + std::to_string(k);
      taken.insert(name);
      p.node = joints + static_cast<int>(plan.holder_names.size());
      plan.holder_names.push_back(name);
      p.skin = skins++;
    }
    plan.placements.push_back(p);
  }
  return plan;
}

// The joints' nodes with their local transforms as T, R, S (defaults left out) and children; the
// holders' nodes with their mesh and skin.
void WriteNodes(const Model& model, const std::vector<ik::Transform>& locals,
                const ExportPlan& plan, gltf_out::Writer* writer) {
  const ik::Skeleton& s = model.skeleton;
  Json nodes = Json::array();
  for (int j = 0; j < s.joint_count(); ++j) {
    const ik::Transform& t = locals[static_cast<size_t>(j)];
    Json node = {{"name", plan.node_names[static_cast<size_t>(j)]}};
    if (t.translation != glm::vec3(0.0f)) {
      node["translation"] = {t.translation.x, t.translation.y, t.translation.z};
    }
    if (t.rotation != glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) {
      node["rotation"] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
    }
    if (t.scale != glm::vec3(1.0f)) node["scale"] = {t.scale.x, t.scale.y, t.scale.z};
    if (!s.children(j).empty()) node["children"] = s.children(j);
    nodes.push_back(std::move(node));
  }
  for (const std::string& name : plan.holder_names) nodes.push_back({{"name", name}});
  for (const MeshPlacement& p : plan.placements) {
    if (!p.written) continue;
    Json& node = nodes[static_cast<size_t>(p.node)];
    node["mesh"] = p.mesh;
    if (p.skinned) node["skin"] = p.skin;
  }
  // One scene: the skeleton's roots, then the skinned meshes' nodes.
  Json roots = Json::array();
  for (int j = 0; j < s.joint_count(); ++j) {
    if (s.parent(j) < 0) roots.push_back(j);
  }
  for (size_t h = 0; h < plan.holder_names.size(); ++h) roots.push_back(s.joint_count() + h);
  writer->root["nodes"] = std::move(nodes);
  writer->root["scenes"] = Json::array({{{"nodes", std::move(roots)}}});
  writer->root["scene"] = 0;
}

// A skin per skinned mesh, with that mesh's own bones and inverse binds (one shared skin would
// misplace meshes that bind a joint differently); a rigid mesh written skinned gets its node's
// joint as its only bone, with an identity inverse bind.
void WriteSkin(const Model& model, const Mesh& mesh, const MeshPlacement& placement,
               const std::string& name, gltf_out::Writer* writer) {
  const int joints = model.skeleton.joint_count();
  std::vector<int> bone_joints = mesh.bone_joints;
  std::vector<glm::mat4> inverse_binds = mesh.bone_inverse_binds;
  if (placement.rigid) {
    bone_joints = {mesh.bone_joints.empty() ? 0 : mesh.bone_joints[0]};
    inverse_binds = {glm::mat4(1.0f)};
  }
  Json skin_joints = Json::array();
  std::vector<float> matrices;
  matrices.reserve(bone_joints.size() * 16);
  for (size_t b = 0; b < bone_joints.size(); ++b) {
    skin_joints.push_back(bone_joints[b] >= 0 && bone_joints[b] < joints ? bone_joints[b] : 0);
    const glm::mat4 m = b < inverse_binds.size() ? inverse_binds[b] : glm::mat4(1.0f);
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) matrices.push_back(m[c][r]);
  }
  const int64_t ibm = writer->AddFloats(matrices.data(), bone_joints.size(), 16,
                                        gltf_out::ViewUse::kOther, /*bounds=*/false);
  writer->root["skins"].push_back(
      {{"name", name}, {"joints", std::move(skin_joints)}, {"inverseBindMatrices", ibm}});
}

// Materials (plus "default" for meshes without a valid one, when some mesh needs it) with base
// colour and base-colour texture; each texture a material uses is embedded once, as PNG. Returns
// the index of the default material (-1 when none was written).
int WriteMaterials(const Model& model, const ExportPlan& plan, gltf_out::Writer* writer) {
  bool needs_default = false;
  for (size_t i = 0; i < model.meshes.size(); ++i) {
    const int m = model.meshes[i].material;
    needs_default |=
        plan.placements[i].written && (m < 0 || static_cast<size_t>(m) >= model.materials.size());
  }
  std::vector<int64_t> texture_of(model.textures.size(), -2);  // -2: not tried yet, -1: failed
  Json materials = Json::array();
  const size_t count = model.materials.size() + (needs_default ? 1 : 0);
  for (size_t m = 0; m < count; ++m) {
    const bool own = m < model.materials.size();
    const Material source = own ? model.materials[m] : Material{};
    const glm::vec4& c = source.base_color;
    Json pbr = {{"baseColorFactor", {c.r, c.g, c.b, c.a}}, {"metallicFactor", 0.0f}};
    const int t = source.base_color_texture;
    if (t >= 0 && static_cast<size_t>(t) < model.textures.size()) {
      int64_t& texture = texture_of[static_cast<size_t>(t)];
      if (texture == -2) {
        texture = -1;
        std::vector<uint8_t> png;
        if (EncodePng(model.textures[static_cast<size_t>(t)], &png)) {
          Json image = {
              {"bufferView", writer->AddView(png.data(), png.size(), gltf_out::ViewUse::kOther)},
              {"mimeType", "image/png"}};
          const std::string& name = model.textures[static_cast<size_t>(t)].name;
          if (!name.empty()) image["name"] = name;
          Json& images = writer->root["images"];
          images.push_back(std::move(image));
          Json& textures = writer->root["textures"];
          textures.push_back({{"source", images.size() - 1}});
          texture = static_cast<int64_t>(textures.size()) - 1;
        }
      }
      if (texture >= 0) pbr["baseColorTexture"] = {{"index", texture}};
    }
    materials.push_back({{"name", own ? source.name : "default"}, {"pbrMetallicRoughness", pbr}});
  }
  if (!materials.empty()) writer->root["materials"] = std::move(materials);
  return needs_default ? static_cast<int>(model.materials.size()) : -1;
}

// About the bytes WriteDocument packs into the buffer (a little more rather than less).
size_t EstimatedBufferSize(const Model& model, bool clips) {
  size_t bytes = 0;
  for (const Mesh& mesh : model.meshes) {
    const size_t n = mesh.positions.size();
    // Position, normal, tangent, uv, two influence sets; indices; target deltas; inverse binds.
    bytes += n * (12 + 12 + 16 + 8 + 2 * (8 + 16)) + mesh.indices.size() * 4 +
             mesh.targets.size() * n * 36 + mesh.bone_joints.size() * 64 + 64;
  }
  for (const Texture& texture : model.textures) bytes += texture.rgba.size() / 2;
  if (clips) {
    for (const Clip& clip : model.clips) {
      for (const JointAnimation& a : clip.channels) {
        bytes += (a.translation.times.size() + a.rotation.times.size() + a.scale.times.size()) * 4 +
                 (a.translation.values.size() + a.scale.values.size()) * 12 +
                 a.rotation.values.size() * 16 + 12;
      }
      for (const MorphAnimation& a : clip.morph_channels) {
        bytes += (a.times.size() + a.values.size()) * 4 + 8;
      }
    }
  }
  return bytes;
}

// The whole document and buffer.
void WriteDocument(const Model& model, const std::vector<ik::Transform>& locals, bool clips,
                   const std::vector<std::vector<float>>* morph_weights, gltf_out::Writer* writer) {
  writer->Reserve(EstimatedBufferSize(model, clips));
  const ExportPlan plan = MakePlan(model);
  WriteNodes(model, locals, plan, writer);
  const int default_material = WriteMaterials(model, plan, writer);
  size_t holder = 0;
  for (size_t i = 0; i < model.meshes.size(); ++i) {
    const Mesh& mesh = model.meshes[i];
    const MeshPlacement& p = plan.placements[i];
    if (!p.written) continue;
    const bool own_material =
        mesh.material >= 0 && static_cast<size_t>(mesh.material) < model.materials.size();
    const std::vector<float>& weights =
        morph_weights && i < morph_weights->size() ? (*morph_weights)[i] : mesh.target_weights;
    const size_t bones = p.rigid ? 1 : mesh.bone_joints.size();
    WriteMesh(mesh, p, own_material ? mesh.material : default_material, bones, weights, writer);
    if (p.skinned) WriteSkin(model, mesh, p, plan.holder_names[holder++], writer);
  }
  if (clips) WriteClips(model, plan, writer);
}

bool Export(const Model& model, const std::vector<ik::Transform>& locals, bool clips,
            const std::vector<std::vector<float>>* morph_weights, const std::string& path,
            std::string* error, ExportFailure* failure) {
  auto fail = [&](ExportFailure kind, const std::string& reason) {
    if (error) *error = path + ": " + reason;
    if (failure) *failure = kind;
    return false;
  };
  if (failure) *failure = ExportFailure::kNone;
  const std::string ext = ToLower(std::filesystem::path(path).extension().string());
  if (ext != ".glb" && ext != ".gltf") {
    return fail(ExportFailure::kRefused, "unsupported extension (use .glb or .gltf)");
  }
  std::string reason;
  const std::vector<std::string> files = ExportedFiles(path);
  if (!CheckOutputsSpareInputs(model, files, &reason)) {
    return fail(ExportFailure::kRefused, reason);
  }
  if (model.skeleton.joint_count() == 0) {
    return fail(ExportFailure::kRefused, "the model has no joints to export");
  }
  if (locals.size() != static_cast<size_t>(model.skeleton.joint_count())) {
    return fail(ExportFailure::kRefused, "the pose has " + std::to_string(locals.size()) +
                                             " joints, the skeleton " +
                                             std::to_string(model.skeleton.joint_count()));
  }
  for (const ik::Transform& t : locals) {
    if (!t.IsFinite()) return fail(ExportFailure::kRefused, "the pose has a non-finite transform");
  }
  if (morph_weights) {
    for (const std::vector<float>& weights : *morph_weights) {
      for (const float w : weights) {
        if (!std::isfinite(w)) {
          return fail(ExportFailure::kRefused, "a blend-shape weight is not finite");
        }
      }
    }
  }
  try {
    gltf_out::Writer writer;
    WriteDocument(model, locals, clips, morph_weights, &writer);
    // A .glb counts its length in 32 bits.
    constexpr uint64_t kMaxGlb = uint64_t{0xFFFFFFFF} - (uint64_t{64} << 20);
    if (writer.buffer_size() > kMaxGlb) {
      return fail(ExportFailure::kWriteFailed, "the model's data (" +
                                                   std::to_string(writer.buffer_size() >> 20) +
                                                   " MiB) is too large for one glTF buffer");
    }
    bool written;
    if (ext == ".glb") {
      const std::vector<uint8_t> glb = writer.Glb();
      written = WriteFileAtomically(path, glb.data(), glb.size(), &reason);
    } else {
      const std::string bin_name = std::filesystem::path(files[1]).filename().string();
      const std::vector<uint8_t> text = writer.GltfText(gltf_out::UriOfFileName(bin_name));
      std::vector<OutputFile> outputs;
      if (writer.buffer_size() > 0) {
        outputs.push_back({files[1], writer.buffer().data(), writer.buffer().size()});
      }
      outputs.push_back({path, text.data(), text.size()});  // last: it refers to the .bin
      written = WriteFilesAtomically(outputs, &reason);
    }
    if (!written) {
      if (error) *error = reason;
      if (failure) *failure = ExportFailure::kWriteFailed;
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    // Out of memory, mostly; never an exception out of the exporter.
    return fail(ExportFailure::kWriteFailed,
                std::string("unexpected error while exporting: ") + e.what());
  }
}

}  // namespace

std::vector<std::string> ExportedFiles(const std::string& path) {
  const std::filesystem::path p(path);
  if (ToLower(p.extension().string()) != ".gltf") return {path};
  std::filesystem::path bin = p;
  bin.replace_extension(".bin");
  return {path, bin.string()};
}

bool ExportGltf(const Model& model, const std::string& path, std::string* error,
                ExportFailure* failure) {
  return Export(model, model.skeleton.rest_locals(), /*clips=*/true, nullptr, path, error, failure);
}

bool ExportGltf(const Model& model, const ik::Pose& rest_pose, const std::string& path,
                std::string* error, ExportFailure* failure,
                const std::vector<std::vector<float>>* morph_weights) {
  return Export(model, rest_pose.locals, /*clips=*/false, morph_weights, path, error, failure);
}

}  // namespace assets
