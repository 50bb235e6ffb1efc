// glTF export in two passes. First an aiScene is built from the Model (nodes = joints, meshes,
// materials, embedded textures) and written by Assimp. Assimp 5.2.5's glTF writer puts every
// bone of every mesh in one shared skin (wrong when meshes bind a joint differently), dereferences
// a null parent when a skin joint is the scene root, splits each animation into one per channel
// and keeps only linear interpolation. So no bones or animations are handed to it; the second pass
// reopens the written file and adds skins, joint weights, exact T/R/S node transforms and the
// clips itself.
#include "assets/exporter.h"

#include <assimp/material.h>
#include <assimp/scene.h>
#include <stb_image_write.h>

#include <algorithm>
#include <assimp/Exporter.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "assets/file_output.h"
#include "assets/internal/export_plan.h"
#include "assets/internal/gltf_document.h"
#include "ik/transform.h"

namespace assets {
namespace {

using gltf::Json;

aiMatrix4x4 ToAssimp(const glm::mat4& m) {
  // glm is column major, Assimp row major.
  return aiMatrix4x4(m[0][0], m[1][0], m[2][0], m[3][0], m[0][1], m[1][1], m[2][1], m[3][1],
                     m[0][2], m[1][2], m[2][2], m[3][2], m[0][3], m[1][3], m[2][3], m[3][3]);
}

std::string ToLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Unique, non-empty names: Assimp finds nodes and meshes by name while writing.
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
  plan.node_names = UniqueNames(s.names(), "joint");
  // Assimp gives every object of the file an id unique across all kinds and renames clashes
  // (a node and a mesh both called "Body"), so meshes travel under internal names and get their
  // own names back in the repair pass.
  for (size_t i = 0; i < model.meshes.size(); ++i) {
    plan.mesh_names.push_back("skelview-mesh-" + std::to_string(i));
  }
  int roots = 0;
  for (int j = 0; j < s.joint_count(); ++j) roots += s.parent(j) < 0 ? 1 : 0;
  // Skinned meshes go on nodes of their own at the scene's root, with no transform and no
  // animation: glTF ignores both for a skinned mesh (the validator warns about either). skelview
  // reads such nodes of its own files back as no joint (assets/gltf_reader.cpp).
  // glTF nodes hold one mesh each (Assimp would merge a node's meshes into one, sharing a skin).
  std::vector<char> used(static_cast<size_t>(s.joint_count()), 0);
  std::set<std::string> taken(plan.node_names.begin(), plan.node_names.end());
  auto valid = [&](int j) { return j >= 0 && j < s.joint_count(); };
  for (size_t i = 0; i < model.meshes.size(); ++i) {
    const Mesh& mesh = model.meshes[i];
    MeshPlacement p;
    p.skinned = mesh.skinned;
    p.node = mesh.skinned ? -1 : (mesh.bone_joints.empty() ? 0 : mesh.bone_joints[0]);
    if (!mesh.skinned && !valid(p.node)) p.node = 0;
    // A rigid mesh on a joint that already holds one is written as a one-bone skin instead.
    if (p.node >= 0 && used[static_cast<size_t>(p.node)]) {
      p.skinned = true;
      p.node = -1;
    }
    if (p.node < 0) {
      // Named after the mesh, as tools name a skinned mesh's object; unique among all nodes.
      const std::string base = mesh.name.empty() ? "mesh" : mesh.name;
      std::string name = base;
      for (int k = 1; taken.count(name); ++k) name = base + "." + std::to_string(k);
      taken.insert(name);
      plan.holder_names.push_back(name);
      p.node = -static_cast<int>(plan.holder_names.size());
    }
    if (p.node >= 0) used[static_cast<size_t>(p.node)] = 1;
    plan.placements.push_back(p);
  }
  // Holders go under the wrapper, which the repair pass removes: they become the scene's roots.
  plan.wrapper = roots != 1 || !plan.holder_names.empty();
  return plan;
}

// Materials, plus a default one for meshes without a valid material, and the textures they use
// (embedded as PNG).
void AddMaterials(const Model& model, aiScene* scene) {
  std::vector<int> texture_slot(model.textures.size(), -1);
  std::vector<std::vector<uint8_t>> pngs;
  for (size_t t = 0; t < model.textures.size(); ++t) {
    std::vector<uint8_t> png;
    if (EncodePng(model.textures[t], &png)) {
      texture_slot[t] = static_cast<int>(pngs.size());
      pngs.push_back(std::move(png));
    }
  }
  bool needs_default = model.materials.empty();
  for (const Mesh& mesh : model.meshes) {
    needs_default |=
        mesh.material < 0 || static_cast<size_t>(mesh.material) >= model.materials.size();
  }
  const unsigned material_count =
      static_cast<unsigned>(model.materials.size()) + (needs_default ? 1 : 0);
  scene->mNumMaterials = material_count;
  scene->mMaterials = new aiMaterial*[material_count];
  for (unsigned m = 0; m < material_count; ++m) {
    const Material source = m < model.materials.size() ? model.materials[m] : Material{};
    auto* material = new aiMaterial();
    aiString name("skelview-material-" + std::to_string(m));  // restored by the repair pass
    material->AddProperty(&name, AI_MATKEY_NAME);
    const aiColor4D color(source.base_color.r, source.base_color.g, source.base_color.b,
                          source.base_color.a);
    material->AddProperty(&color, 1, AI_MATKEY_BASE_COLOR);
    material->AddProperty(&color, 1, AI_MATKEY_COLOR_DIFFUSE);
    const int texture = source.base_color_texture;
    if (texture >= 0 && static_cast<size_t>(texture) < texture_slot.size() &&
        texture_slot[static_cast<size_t>(texture)] >= 0) {
      aiString reference("*" + std::to_string(texture_slot[static_cast<size_t>(texture)]));
      material->AddProperty(&reference, AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0));
      material->AddProperty(&reference, AI_MATKEY_TEXTURE(aiTextureType_BASE_COLOR, 0));
    }
    scene->mMaterials[m] = material;
  }
  if (!pngs.empty()) {
    scene->mNumTextures = static_cast<unsigned>(pngs.size());
    scene->mTextures = new aiTexture*[pngs.size()];
    for (size_t t = 0; t < pngs.size(); ++t) {
      auto* texture = new aiTexture();
      texture->mWidth = static_cast<unsigned>(pngs[t].size());  // compressed: byte count
      texture->mHeight = 0;
      texture->pcData = new aiTexel[(pngs[t].size() + sizeof(aiTexel) - 1) / sizeof(aiTexel)];
      std::memcpy(texture->pcData, pngs[t].data(), pngs[t].size());
      std::strcpy(texture->achFormatHint, "png");
      scene->mTextures[t] = texture;
    }
  }
}

// The meshes, without bones (the repair pass adds skins), under their planned names.
void AddMeshes(const Model& model, const ExportPlan& plan, aiScene* scene) {
  scene->mNumMeshes = static_cast<unsigned>(model.meshes.size());
  scene->mMeshes = scene->mNumMeshes ? new aiMesh*[scene->mNumMeshes] : nullptr;
  for (size_t i = 0; i < model.meshes.size(); ++i) {
    const Mesh& source = model.meshes[i];
    auto* mesh = new aiMesh();
    mesh->mName = aiString(plan.mesh_names[i]);
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    const unsigned count = static_cast<unsigned>(source.positions.size());
    mesh->mNumVertices = count;
    mesh->mVertices = new aiVector3D[count];
    mesh->mNormals = new aiVector3D[count];
    const bool uvs = source.uvs.size() == source.positions.size();
    if (uvs) {
      mesh->mTextureCoords[0] = new aiVector3D[count];
      mesh->mNumUVComponents[0] = 2;
    }
    // Assimp's glb2 export joins vertices equal in position, normal, uv, tangent and bitangent;
    // it cannot see the skin weights, morph deltas and tangent handedness the repair pass writes
    // afterwards, and would merge vertices that differ only in those. The model's vertices are
    // welded already, so each gets a bitangent of its own (its index) and none is joined; Assimp
    // writes no tangents or bitangents to glTF, and the repair pass writes TANGENT itself.
    const bool tangents = source.tangents.size() == source.positions.size();
    if (count > 0) {
      mesh->mTangents = new aiVector3D[count];
      mesh->mBitangents = new aiVector3D[count];
    }
    for (unsigned v = 0; v < count; ++v) {
      const glm::vec3& p = source.positions[v];
      mesh->mVertices[v] = aiVector3D(p.x, p.y, p.z);
      const glm::vec3 nrm =
          v < source.normals.size() ? source.normals[v] : glm::vec3(0.0f, 1.0f, 0.0f);
      mesh->mNormals[v] = aiVector3D(nrm.x, nrm.y, nrm.z);
      // Assimp keeps OpenGL's bottom-up v and flips it when writing glTF.
      if (uvs) mesh->mTextureCoords[0][v] = aiVector3D(source.uvs[v].x, 1.0f - source.uvs[v].y, 0);
      const glm::vec3 tangent = tangents ? glm::vec3(source.tangents[v]) : glm::vec3(1, 0, 0);
      mesh->mTangents[v] = aiVector3D(tangent.x, tangent.y, tangent.z);
      // Two 16-bit halves: exact in a float at any vertex count.
      mesh->mBitangents[v] =
          aiVector3D(static_cast<float>(v & 0xffffu), static_cast<float>(v >> 16), 0.0f);
    }
    const unsigned faces = static_cast<unsigned>(source.indices.size() / 3);
    mesh->mNumFaces = faces;
    mesh->mFaces = new aiFace[faces];
    for (unsigned f = 0; f < faces; ++f) {
      mesh->mFaces[f].mNumIndices = 3;
      mesh->mFaces[f].mIndices = new unsigned[3];
      for (int k = 0; k < 3; ++k) {
        mesh->mFaces[f].mIndices[k] = std::min(source.indices[f * 3 + k], count ? count - 1 : 0);
      }
    }
    const bool has_material =
        source.material >= 0 && static_cast<size_t>(source.material) < model.materials.size();
    mesh->mMaterialIndex = has_material ? static_cast<unsigned>(source.material)
                                        : static_cast<unsigned>(model.materials.size());
    scene->mMeshes[i] = mesh;
  }
}

// The nodes: one per joint with its local transform, holder nodes and the wrapper. Records the
// order Assimp writes them in (see BuildScene).
void AddNodes(const Model& model, const std::vector<ik::Transform>& locals, const ExportPlan& plan,
              aiScene* scene, std::vector<int>* written_order) {
  const ik::Skeleton& s = model.skeleton;
  const int n = s.joint_count();
  std::vector<aiNode*> nodes(static_cast<size_t>(n));
  for (int j = 0; j < n; ++j) {
    nodes[j] = new aiNode(plan.node_names[j]);
    nodes[j]->mTransformation = ToAssimp(locals[j].ToMatrix());
  }
  std::vector<std::vector<unsigned>> meshes_of(static_cast<size_t>(n));
  std::vector<aiNode*> holders;
  for (size_t i = 0; i < plan.placements.size(); ++i) {
    const int node = plan.placements[i].node;
    if (node >= 0) meshes_of[node].push_back(static_cast<unsigned>(i));
  }
  for (size_t h = 0; h < plan.holder_names.size(); ++h) {
    auto* holder = new aiNode(plan.holder_names[h]);
    for (size_t i = 0; i < plan.placements.size(); ++i) {
      if (plan.placements[i].node == -static_cast<int>(h + 1)) {
        holder->mNumMeshes = 1;
        holder->mMeshes = new unsigned[1]{static_cast<unsigned>(i)};
      }
    }
    holders.push_back(holder);
  }
  aiNode* root = plan.wrapper ? new aiNode(kWrapperName) : nodes[0];
  auto attach = [](aiNode* parent, const std::vector<aiNode*>& children) {
    if (children.empty()) return;
    parent->mNumChildren = static_cast<unsigned>(children.size());
    parent->mChildren = new aiNode*[children.size()];
    for (size_t c = 0; c < children.size(); ++c) {
      parent->mChildren[c] = children[c];
      children[c]->mParent = parent;
    }
  };
  std::vector<aiNode*> roots;
  for (int j = 0; j < n; ++j) {
    std::vector<aiNode*> children;
    for (int c : s.children(j)) children.push_back(nodes[c]);
    if (nodes[j] == root) children.insert(children.end(), holders.begin(), holders.end());
    attach(nodes[j], children);
    if (!meshes_of[j].empty()) {
      nodes[j]->mNumMeshes = static_cast<unsigned>(meshes_of[j].size());
      nodes[j]->mMeshes = new unsigned[meshes_of[j].size()];
      std::copy(meshes_of[j].begin(), meshes_of[j].end(), nodes[j]->mMeshes);
    }
    if (s.parent(j) < 0) roots.push_back(nodes[j]);
  }
  if (plan.wrapper) {
    roots.insert(roots.end(), holders.begin(), holders.end());
    attach(root, roots);
  }
  scene->mRootNode = root;
  std::unordered_map<const aiNode*, int> joint_of_node;
  for (int j = 0; j < n; ++j) joint_of_node[nodes[j]] = j;
  written_order->clear();
  std::vector<const aiNode*> stack{root};
  while (!stack.empty()) {
    const aiNode* node = stack.back();
    stack.pop_back();
    auto found = joint_of_node.find(node);
    written_order->push_back(found == joint_of_node.end() ? -1 : found->second);
    for (unsigned c = node->mNumChildren; c-- > 0;) stack.push_back(node->mChildren[c]);
  }
}

// Builds the aiScene Assimp writes: nodes, meshes (no bones), materials, embedded textures.
// `written_order` receives, for each node in the order Assimp writes them (depth-first from the
// root, children in order), the joint it stands for, or -1 for the wrapper and holder nodes.
std::unique_ptr<aiScene> BuildScene(const Model& model, const std::vector<ik::Transform>& locals,
                                    const ExportPlan& plan, std::vector<int>* written_order) {
  auto scene = std::make_unique<aiScene>();
  AddMaterials(model, scene.get());
  AddMeshes(model, plan, scene.get());
  AddNodes(model, locals, plan, scene.get(), written_order);
  return scene;
}

uint32_t ReadLe32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// Splits a .glb into its JSON and binary chunk (empty when it has none).
bool SplitGlb(const std::vector<uint8_t>& glb, gltf::Json* root, std::vector<uint8_t>* bin,
              std::string* error) {
  constexpr uint32_t kJsonChunk = 0x4E4F534A, kBinChunk = 0x004E4942;
  size_t at = 12;
  bool has_json = false;
  while (at + 8 <= glb.size()) {
    const uint32_t length = ReadLe32(&glb[at]), type = ReadLe32(&glb[at + 4]);
    if (length > glb.size() - at - 8) break;
    const uint8_t* chunk = glb.data() + at + 8;
    if (type == kJsonChunk && !has_json) {
      *root = gltf::Json::parse(chunk, chunk + length, nullptr, /*allow_exceptions=*/false);
      has_json = !root->is_discarded();
    } else if (type == kBinChunk && bin->empty()) {
      bin->assign(chunk, chunk + length);
    }
    at += 8 + size_t(length);
  }
  if (!has_json) *error = "the repaired .glb has no readable JSON chunk";
  return has_json;
}

// A file name as a relative URI: everything but unreserved characters percent-encoded.
std::string UriOfFileName(const std::string& name) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string uri;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') {
      uri.push_back(c);
    } else {
      uri += {'%', kHex[u >> 4], kHex[u & 15]};
    }
  }
  return uri;
}

bool Export(const Model& model, const std::vector<ik::Transform>& locals, const std::string& path,
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
  if (!CheckOutputsSpareInputs(model, ExportedFiles(path), &reason)) {
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
  try {
    const ExportPlan plan = MakePlan(model);
    std::vector<int> written_order;
    std::unique_ptr<aiScene> scene = BuildScene(model, locals, plan, &written_order);
    // Assimp writes a .glb into memory (a .gltf would make it write the .bin beside `path` itself,
    // unchecked); the repaired file is written by us, atomically, as .glb or as .gltf + .bin.
    Assimp::Exporter exporter;
    const aiExportDataBlob* blob = exporter.ExportToBlob(scene.get(), "glb2");
    if (!blob || !blob->data) {
      return fail(ExportFailure::kWriteFailed,
                  std::string("Assimp could not write it: ") + exporter.GetErrorString());
    }
    const auto* blob_bytes = static_cast<const uint8_t*>(blob->data);
    std::vector<uint8_t> written(blob_bytes, blob_bytes + blob->size);
    exporter.FreeBlob();
    std::vector<uint8_t> glb;
    if (!RepairExport(model, locals, plan, written_order, path, written, &glb, &reason)) {
      return fail(ExportFailure::kWriteFailed, reason);
    }
    written = {};
    if (ext == ".glb") {
      if (!WriteFileAtomically(path, glb.data(), glb.size(), &reason)) {
        if (error) *error = reason;
        if (failure) *failure = ExportFailure::kWriteFailed;
        return false;
      }
      return true;
    }
    gltf::Json root;
    std::vector<uint8_t> bin;
    if (!SplitGlb(glb, &root, &bin, &reason)) return fail(ExportFailure::kWriteFailed, reason);
    glb = {};
    const std::vector<std::string> files = ExportedFiles(path);
    std::vector<OutputFile> outputs;
    if (!bin.empty()) {
      gltf::Json& buffers = root["buffers"];
      if (!buffers.is_array() || buffers.empty()) {
        return fail(ExportFailure::kWriteFailed, "the repaired file has binary data but no buffer");
      }
      // The binary chunk is padded to 4 bytes; the .bin holds exactly the buffer.
      const int64_t length = gltf::IntMember(buffers[0], "byteLength", -1);
      if (length >= 0 && uint64_t(length) <= bin.size()) bin.resize(size_t(length));
      buffers[0]["uri"] = UriOfFileName(std::filesystem::path(files[1]).filename().string());
      outputs.push_back({files[1], bin.data(), bin.size()});
    }
    const std::vector<uint8_t> text = gltf::WriteContainer(root, /*glb=*/false, {});
    outputs.push_back({path, text.data(), text.size()});  // last: it refers to the .bin
    if (!WriteFilesAtomically(outputs, &reason)) {
      if (error) *error = reason;
      if (failure) *failure = ExportFailure::kWriteFailed;
      return false;
    }
    return true;
  } catch (const std::exception& e) {
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
  return Export(model, model.skeleton.rest_locals(), path, error, failure);
}

bool ExportGltf(const Model& model, const ik::Pose& rest_pose, const std::string& path,
                std::string* error, ExportFailure* failure) {
  return Export(model, rest_pose.locals, path, error, failure);
}

}  // namespace assets
