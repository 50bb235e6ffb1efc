// Import: file checks, the glTF pre-pass, Assimp, then a validating copy of Assimp's scene into a
// Model. Assimp's data is never trusted: indices, sizes and floats are checked as they are copied.
#include "assets/importer.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <stb_image.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <utility>

#include "assets/gltf_document.h"
#include "assets/gltf_prepass.h"
#include "ik/transform.h"

namespace assets {
namespace {

// Ticks per second assumed when a (non-glTF) file leaves it unset, as Assimp's viewer does.
constexpr double kDefaultTicksPerSecond = 25.0;
// Texture sides beyond this are refused before decoding (memory).
constexpr int kMaxTextureSide = 16384;

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

glm::mat4 ToGlm(const aiMatrix4x4& m) {
  // Assimp is row major (a1..a4 is the first row); glm is column major.
  return glm::mat4(m.a1, m.b1, m.c1, m.d1, m.a2, m.b2, m.c2, m.d2, m.a3, m.b3, m.c3, m.d3, m.a4,
                   m.b4, m.c4, m.d4);
}

bool WithinLimits(const glm::mat4& m) {
  if (!ik::IsFinite(m)) return false;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (std::abs(m[c][r]) > kMaxCoordinate) return false;
  return true;
}

bool WithinLimits(const aiVector3D& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) &&
         std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
         std::abs(v.z) <= kMaxCoordinate;
}

enum class ReadStatus { kOk, kMissing, kDirectory, kUnreadable, kEmpty };

ReadStatus ReadFileBytes(const std::string& path, std::vector<uint8_t>* bytes,
                         std::string* reason) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    *reason = "file not found";
    return ReadStatus::kMissing;
  }
  if (std::filesystem::is_directory(status)) {
    *reason = "is a directory, not a model file";
    return ReadStatus::kDirectory;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *reason =
        std::string("cannot open the file: ") + (errno ? std::strerror(errno) : "unknown error");
    return ReadStatus::kUnreadable;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size <= 0) {
    *reason = "the file is empty";
    return ReadStatus::kEmpty;
  }
  bytes->resize(static_cast<size_t>(size));
  if (!in.read(reinterpret_cast<char*>(bytes->data()), size)) {
    *reason = std::string("cannot read the file: ") + (errno ? std::strerror(errno) : "I/O error");
    return ReadStatus::kUnreadable;
  }
  return ReadStatus::kOk;
}

// Serves the pre-pass's repaired bytes in place of the model file; every other file (buffers,
// textures) comes from disk as usual, so relative URIs keep working.
class PatchedIOSystem : public Assimp::DefaultIOSystem {
 public:
  PatchedIOSystem(const std::string& path, const std::vector<uint8_t>* bytes)
      : main_(std::filesystem::path(path).lexically_normal()), bytes_(bytes) {}

  bool Exists(const char* file) const override {
    return IsMain(file) || Assimp::DefaultIOSystem::Exists(file);
  }
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (IsMain(file)) return new Assimp::MemoryIOStream(bytes_->data(), bytes_->size(), false);
    return Assimp::DefaultIOSystem::Open(file, mode);
  }
  void Close(Assimp::IOStream* stream) override { delete stream; }

 private:
  bool IsMain(const char* file) const {
    return file && std::filesystem::path(file).lexically_normal() == main_;
  }
  std::filesystem::path main_;
  const std::vector<uint8_t>* bytes_;
};

bool DecodeImage(const uint8_t* data, size_t size, Texture* out, std::string* reason) {
  if (size == 0 || size > static_cast<size_t>(INT32_MAX)) {
    *reason = "empty or oversized image data";
    return false;
  }
  int w = 0, h = 0, channels = 0;
  const int length = static_cast<int>(size);
  if (!stbi_info_from_memory(data, length, &w, &h, &channels)) {
    *reason = std::string("not a decodable image (") + stbi_failure_reason() + ")";
    return false;
  }
  if (w <= 0 || h <= 0 || w > kMaxTextureSide || h > kMaxTextureSide) {
    *reason = "image is " + std::to_string(w) + "x" + std::to_string(h) + ", larger than " +
              std::to_string(kMaxTextureSide) + " pixels a side";
    return false;
  }
  stbi_uc* pixels = stbi_load_from_memory(data, length, &w, &h, &channels, 4);
  if (!pixels) {
    *reason = std::string("decoding failed (") + stbi_failure_reason() + ")";
    return false;
  }
  out->width = w;
  out->height = h;
  out->rgba.assign(pixels, pixels + static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  stbi_image_free(pixels);
  return true;
}

// Unit normals per vertex from the triangles around it, area weighted.
std::vector<glm::vec3> FaceNormals(const std::vector<glm::vec3>& positions,
                                   const std::vector<uint32_t>& indices) {
  std::vector<glm::vec3> sum(positions.size(), glm::vec3(0.0f));
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    const glm::vec3& a = positions[indices[t]];
    const glm::vec3& b = positions[indices[t + 1]];
    const glm::vec3& c = positions[indices[t + 2]];
    const glm::vec3 n = glm::cross(b - a, c - a);
    for (int k = 0; k < 3; ++k) sum[indices[t + k]] += n;
  }
  for (glm::vec3& n : sum) {
    const float len = glm::length(n);
    n = len > 1e-30f && std::isfinite(len) ? n / len : glm::vec3(0.0f, 1.0f, 0.0f);
  }
  return sum;
}

class Converter {
 public:
  // skip_root: leave out the scene's root node, which Assimp invents above several glTF scene
  // roots (its children become roots), so that joints are exactly the file's nodes.
  Converter(const aiScene* scene, std::string path, bool skip_root)
      : scene_(scene), path_(std::move(path)), skip_root_(skip_root) {
    directory_ = std::filesystem::path(path_).parent_path();
  }

  bool Run(Model* model, std::string* error);
  std::vector<std::string>& warnings() { return warnings_; }
  bool skipped_root() const { return skip_root_; }
  const std::vector<std::string>& joint_names() const { return names_; }

 private:
  bool WalkNodes(std::string* error);
  bool ConvertMesh(const aiMesh* source, int node, std::string* error);
  void ConvertMaterials();
  int LoadTexture(const std::string& reference, const std::string& material);
  void ConvertAnimations();

  const aiScene* scene_;
  std::string path_;
  bool skip_root_ = false;
  std::filesystem::path directory_;
  Model* model_ = nullptr;
  std::vector<std::string> warnings_;

  std::vector<const aiNode*> nodes_;
  std::vector<ik::JointDesc> descs_;
  std::vector<std::string> names_;
  std::vector<glm::mat4> rest_models_;
  std::unordered_map<std::string, int> joint_by_name_;
  std::set<std::string> ambiguous_names_;
  std::map<std::string, int> texture_by_reference_;

  // Repair counters, reported once per file.
  size_t over_four_ = 0, renormalised_ = 0, unweighted_ = 0, bad_weights_ = 0;
  size_t skipped_faces_ = 0, repaired_normals_ = 0, skipped_meshes_ = 0;
  std::set<std::string> missing_bones_;
};

bool Converter::WalkNodes(std::string* error) {
  if (!scene_->mRootNode) {
    *error = "the scene has no root node";
    return false;
  }
  size_t approximated = 0;
  struct Item {
    const aiNode* node;
    int parent;
  };
  std::vector<Item> stack;
  const aiNode* root = scene_->mRootNode;
  if (skip_root_ && root->mNumMeshes == 0 && root->mTransformation.IsIdentity()) {
    for (unsigned c = root->mNumChildren; c-- > 0;) {
      if (root->mChildren && root->mChildren[c]) stack.push_back({root->mChildren[c], -1});
    }
  } else {
    skip_root_ = false;
    stack.push_back({root, -1});
  }
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    if (nodes_.size() >= static_cast<size_t>(ik::Skeleton::kMaxJoints)) {
      *error = "the scene has more than " + std::to_string(ik::Skeleton::kMaxJoints) +
               " nodes, the most skelview supports as joints";
      return false;
    }
    const int index = static_cast<int>(nodes_.size());
    const aiNode* node = item.node;
    const std::string name = node->mName.C_Str();
    const glm::mat4 local = ToGlm(node->mTransformation);
    if (!WithinLimits(local)) {
      *error = "node '" + name + "' has a non-finite or huge transform";
      return false;
    }
    ik::JointDesc desc;
    desc.name = name;
    desc.parent = item.parent;
    bool exact = ik::Transform::FromMatrix(local, &desc.rest);
    if (!exact) {
      // Singular (a zero scale): keep translation and axis lengths, drop the rotation.
      desc.rest = ik::Transform();
      desc.rest.translation = glm::vec3(local[3]);
      desc.rest.scale =
          glm::vec3(glm::length(glm::vec3(local[0])), glm::length(glm::vec3(local[1])),
                    glm::length(glm::vec3(local[2])));
    } else {
      // T·R·S cannot hold shear or projection; say so when the file had them.
      const glm::mat4 back = desc.rest.ToMatrix();
      float scale = 1.0f, diff = 0.0f;
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
          diff = std::max(diff, std::abs(back[c][r] - local[c][r]));
          scale = std::max(scale, std::abs(local[c][r]));
        }
      exact = diff <= 1e-4f * scale;
    }
    if (!exact) ++approximated;
    const glm::mat4 model =
        item.parent < 0 ? desc.rest.ToMatrix() : rest_models_[item.parent] * desc.rest.ToMatrix();
    if (!WithinLimits(model)) {
      *error = "node '" + name + "' lies at a non-finite or huge position";
      return false;
    }
    nodes_.push_back(node);
    names_.push_back(name);
    rest_models_.push_back(model);
    descs_.push_back(std::move(desc));
    if (!joint_by_name_.emplace(name, index).second) ambiguous_names_.insert(name);
    // Push children in reverse so they pop in file order (Assimp's order, which glTF relies on).
    if (node->mChildren) {
      for (unsigned c = node->mNumChildren; c-- > 0;) {
        if (node->mChildren[c]) stack.push_back({node->mChildren[c], index});
      }
    }
  }
  if (approximated > 0) {
    warnings_.push_back(Plural(approximated, "node transform", "node transforms") +
                        " had shear, projection or zero scale that translation-rotation-scale "
                        "cannot hold; approximated");
  }
  return true;
}

bool Converter::ConvertMesh(const aiMesh* source, int node, std::string* error) {
  const std::string name = source->mName.C_Str();
  if (!(source->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || source->mNumVertices == 0 ||
      !source->mVertices || !source->mFaces || source->mNumFaces == 0) {
    ++skipped_meshes_;
    return true;
  }
  Mesh mesh;
  mesh.name = name;
  mesh.node = node;
  const size_t n = source->mNumVertices;
  mesh.positions.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const aiVector3D& p = source->mVertices[i];
    if (!WithinLimits(p)) {
      *error = "mesh '" + name + "' has a non-finite or huge vertex coordinate (vertex " +
               std::to_string(i) + ")";
      return false;
    }
    mesh.positions[i] = glm::vec3(p.x, p.y, p.z);
  }
  mesh.indices.reserve(static_cast<size_t>(source->mNumFaces) * 3);
  for (unsigned f = 0; f < source->mNumFaces; ++f) {
    const aiFace& face = source->mFaces[f];
    if (face.mNumIndices != 3 || !face.mIndices || face.mIndices[0] >= n || face.mIndices[1] >= n ||
        face.mIndices[2] >= n) {
      ++skipped_faces_;
      continue;
    }
    mesh.indices.insert(mesh.indices.end(), face.mIndices, face.mIndices + 3);
  }
  if (mesh.indices.empty()) {
    ++skipped_meshes_;
    return true;
  }
  // Normals: keep valid ones, rebuild the rest from the faces.
  mesh.normals.resize(n);
  std::vector<glm::vec3> face_normals;
  size_t bad_normals = 0;
  for (size_t i = 0; i < n; ++i) {
    glm::vec3 v(0.0f);
    if (source->mNormals) {
      const aiVector3D& a = source->mNormals[i];
      v = glm::vec3(a.x, a.y, a.z);
    }
    const float len = glm::length(v);
    if (std::isfinite(len) && len > 1e-12f) {
      mesh.normals[i] = v / len;
      continue;
    }
    if (face_normals.empty()) face_normals = FaceNormals(mesh.positions, mesh.indices);
    mesh.normals[i] = face_normals[i];
    ++bad_normals;
  }
  if (source->mNormals && bad_normals > 0) repaired_normals_ += bad_normals;
  // UVs: Assimp gives OpenGL's bottom-up v; store glTF's top-down v (see Mesh::uvs).
  if (source->mTextureCoords[0] && source->mNumUVComponents[0] >= 2) {
    mesh.uvs.resize(n);
    bool finite = true;
    for (size_t i = 0; i < n && finite; ++i) {
      const aiVector3D& t = source->mTextureCoords[0][i];
      finite = std::isfinite(t.x) && std::isfinite(t.y);
      mesh.uvs[i] = glm::vec2(t.x, 1.0f - t.y);
    }
    if (!finite) {
      mesh.uvs.clear();
      warnings_.push_back("mesh '" + name + "' has non-finite texture coordinates; dropped them");
    }
  }
  const unsigned materials = scene_->mNumMaterials;
  mesh.material =
      source->mMaterialIndex < materials ? static_cast<int>(source->mMaterialIndex) : -1;

  mesh.joints.assign(n, glm::u16vec4(0));
  mesh.weights.assign(n, glm::vec4(0.0f));
  if (source->mNumBones == 0 || !source->mBones) {
    // Rigid: the node itself is the only bone.
    mesh.bone_joints = {node};
    mesh.bone_inverse_binds = {glm::mat4(1.0f)};
    for (size_t i = 0; i < n; ++i) mesh.weights[i].x = 1.0f;
    model_->meshes.push_back(std::move(mesh));
    return true;
  }
  if (source->mNumBones >= 65535) {
    *error = "mesh '" + name + "' has " + std::to_string(source->mNumBones) +
             " bones, more than the 65,534 supported";
    return false;
  }
  mesh.skinned = true;
  std::vector<std::vector<std::pair<float, uint16_t>>> influences(n);
  for (unsigned b = 0; b < source->mNumBones; ++b) {
    const aiBone* bone = source->mBones[b];
    if (!bone) continue;
    const std::string bone_name = bone->mName.C_Str();
    auto found = joint_by_name_.find(bone_name);
    if (found == joint_by_name_.end()) {
      missing_bones_.insert(bone_name);
      continue;
    }
    const int joint = found->second;
    model_->is_bone[joint] = true;
    glm::mat4 inverse_bind = ToGlm(bone->mOffsetMatrix);
    if (!WithinLimits(inverse_bind)) {
      *error = "bone '" + bone_name + "' of mesh '" + name +
               "' has a non-finite or huge inverse bind matrix";
      return false;
    }
    const uint16_t slot = static_cast<uint16_t>(mesh.bone_joints.size());
    mesh.bone_joints.push_back(joint);
    mesh.bone_inverse_binds.push_back(inverse_bind);
    if (!descs_[joint].inverse_bind) descs_[joint].inverse_bind = inverse_bind;
    for (unsigned w = 0; w < bone->mNumWeights && bone->mWeights; ++w) {
      const aiVertexWeight& vw = bone->mWeights[w];
      if (vw.mVertexId >= n || !std::isfinite(vw.mWeight) || vw.mWeight < 0.0f) {
        ++bad_weights_;
        continue;
      }
      if (vw.mWeight > 0.0f) influences[vw.mVertexId].emplace_back(vw.mWeight, slot);
    }
  }
  int own_bone = -1;  // the mesh's node as a bone, for vertices no bone moves
  for (size_t i = 0; i < n; ++i) {
    auto& list = influences[i];
    std::stable_sort(list.begin(), list.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    if (list.size() > 4) {
      ++over_four_;
      list.resize(4);
    } else {
      float raw = 0.0f;
      for (const auto& e : list) raw += e.first;
      if (!list.empty() && std::abs(raw - 1.0f) > 1e-3f) ++renormalised_;
    }
    float sum = 0.0f;
    for (const auto& e : list) sum += e.first;
    if (list.empty() || !(sum > 0.0f) || !std::isfinite(sum)) {
      if (own_bone < 0) {
        own_bone = static_cast<int>(mesh.bone_joints.size());
        mesh.bone_joints.push_back(node);
        mesh.bone_inverse_binds.push_back(glm::mat4(1.0f));
      }
      mesh.joints[i] = glm::u16vec4(static_cast<uint16_t>(own_bone), 0, 0, 0);
      mesh.weights[i] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
      ++unweighted_;
      continue;
    }
    for (size_t k = 0; k < list.size(); ++k) {
      mesh.joints[i][static_cast<int>(k)] = list[k].second;
      mesh.weights[i][static_cast<int>(k)] = list[k].first / sum;
    }
  }
  model_->meshes.push_back(std::move(mesh));
  return true;
}

int Converter::LoadTexture(const std::string& reference, const std::string& material) {
  auto cached = texture_by_reference_.find(reference);
  if (cached != texture_by_reference_.end()) return cached->second;
  Texture texture;
  texture.name = reference;
  std::string reason;
  bool ok = false;
  if (const aiTexture* embedded = scene_->GetEmbeddedTexture(reference.c_str())) {
    if (embedded->mHeight == 0) {
      ok = embedded->pcData && DecodeImage(reinterpret_cast<const uint8_t*>(embedded->pcData),
                                           embedded->mWidth, &texture, &reason);
    } else if (embedded->pcData && embedded->mWidth <= static_cast<unsigned>(kMaxTextureSide) &&
               embedded->mHeight <= static_cast<unsigned>(kMaxTextureSide)) {
      texture.width = static_cast<int>(embedded->mWidth);
      texture.height = static_cast<int>(embedded->mHeight);
      const size_t count = static_cast<size_t>(texture.width) * texture.height;
      texture.rgba.resize(count * 4);
      for (size_t i = 0; i < count; ++i) {
        const aiTexel& t = embedded->pcData[i];
        texture.rgba[i * 4 + 0] = t.r;
        texture.rgba[i * 4 + 1] = t.g;
        texture.rgba[i * 4 + 2] = t.b;
        texture.rgba[i * 4 + 3] = t.a;
      }
      ok = true;
    } else {
      reason = "embedded texture has invalid size";
    }
  } else if (!reference.empty() && reference[0] == '*') {
    reason = "embedded texture index out of range";
  } else {
    std::filesystem::path file = gltf::PercentDecode(reference);
    std::vector<std::filesystem::path> candidates;
    if (file.is_absolute()) candidates.push_back(file);
    candidates.push_back(directory_ / file);
    candidates.push_back(directory_ / file.filename());
    reason = "file not found";
    for (const auto& candidate : candidates) {
      std::vector<uint8_t> bytes;
      std::string read_reason;
      const ReadStatus status = ReadFileBytes(candidate.string(), &bytes, &read_reason);
      if (status == ReadStatus::kMissing) continue;
      if (status != ReadStatus::kOk) {
        reason = read_reason;
        break;
      }
      ok = DecodeImage(bytes.data(), bytes.size(), &texture, &reason);
      break;
    }
  }
  int index = -1;
  if (ok) {
    index = static_cast<int>(model_->textures.size());
    model_->textures.push_back(std::move(texture));
  } else {
    warnings_.push_back("texture '" + reference + "' of material '" + material +
                        "' could not be loaded (" + reason + "); drawn without it");
  }
  texture_by_reference_[reference] = index;
  return index;
}

void Converter::ConvertMaterials() {
  // Only materials some mesh uses (Assimp appends a default one to every glTF file), in file
  // order; mesh indices are remapped.
  std::vector<int> new_index(scene_->mNumMaterials, -1);
  for (const Mesh& mesh : model_->meshes) {
    if (mesh.material >= 0) new_index[static_cast<size_t>(mesh.material)] = 0;
  }
  for (unsigned i = 0; i < scene_->mNumMaterials; ++i) {
    if (new_index[i] < 0) continue;
    new_index[i] = static_cast<int>(model_->materials.size());
    const aiMaterial* source = scene_->mMaterials ? scene_->mMaterials[i] : nullptr;
    Material material;
    if (!source) {
      model_->materials.push_back(material);
      continue;
    }
    material.name = source->GetName().C_Str();
    aiColor4D color;
    if (source->Get(AI_MATKEY_BASE_COLOR, color) == AI_SUCCESS ||
        source->Get(AI_MATKEY_COLOR_DIFFUSE, color) == AI_SUCCESS) {
      glm::vec4 c(color.r, color.g, color.b, color.a);
      for (int k = 0; k < 4; ++k) c[k] = std::isfinite(c[k]) ? std::clamp(c[k], 0.0f, 1.0f) : 1.0f;
      material.base_color = c;
    }
    aiString texture_path;
    if (source->GetTexture(aiTextureType_BASE_COLOR, 0, &texture_path) == AI_SUCCESS ||
        source->GetTexture(aiTextureType_DIFFUSE, 0, &texture_path) == AI_SUCCESS) {
      if (texture_path.length > 0) {
        material.base_color_texture = LoadTexture(texture_path.C_Str(), material.name);
      }
    }
    model_->materials.push_back(material);
  }
  for (Mesh& mesh : model_->meshes) {
    if (mesh.material >= 0) mesh.material = new_index[static_cast<size_t>(mesh.material)];
  }
}

void Converter::ConvertAnimations() {
  size_t dropped_keys = 0;
  std::set<std::string> unknown_nodes;
  for (unsigned a = 0; a < scene_->mNumAnimations; ++a) {
    const aiAnimation* source = scene_->mAnimations ? scene_->mAnimations[a] : nullptr;
    if (!source) continue;
    Clip clip;
    clip.name = source->mName.C_Str();
    double tps = source->mTicksPerSecond;
    if (!(tps > 0.0) || !std::isfinite(tps)) tps = kDefaultTicksPerSecond;
    std::set<int> seen;
    for (unsigned c = 0; c < source->mNumChannels; ++c) {
      const aiNodeAnim* channel = source->mChannels ? source->mChannels[c] : nullptr;
      if (!channel) continue;
      auto found = joint_by_name_.find(channel->mNodeName.C_Str());
      if (found == joint_by_name_.end()) {
        unknown_nodes.insert(channel->mNodeName.C_Str());
        continue;
      }
      if (!seen.insert(found->second).second) continue;  // a second channel for one joint
      JointAnimation anim;
      anim.joint = found->second;
      // Copies keys with finite, strictly increasing times and acceptable values.
      auto copy_vectors = [&](const aiVectorKey* keys, unsigned count, Track<glm::vec3>* track) {
        track->interpolation = Interpolation::kLinear;
        for (unsigned k = 0; keys && k < count; ++k) {
          const double t = keys[k].mTime / tps;
          if (!std::isfinite(t) || !WithinLimits(keys[k].mValue) ||
              (!track->times.empty() && static_cast<float>(t) <= track->times.back())) {
            ++dropped_keys;
            continue;
          }
          track->times.push_back(static_cast<float>(t));
          track->values.emplace_back(keys[k].mValue.x, keys[k].mValue.y, keys[k].mValue.z);
        }
      };
      copy_vectors(channel->mPositionKeys, channel->mNumPositionKeys, &anim.translation);
      copy_vectors(channel->mScalingKeys, channel->mNumScalingKeys, &anim.scale);
      anim.rotation.interpolation = Interpolation::kLinear;
      for (unsigned k = 0; channel->mRotationKeys && k < channel->mNumRotationKeys; ++k) {
        const aiQuatKey& key = channel->mRotationKeys[k];
        const double t = key.mTime / tps;
        const glm::quat q(key.mValue.w, key.mValue.x, key.mValue.y, key.mValue.z);
        const float len = glm::length(q);
        if (!std::isfinite(t) || !std::isfinite(len) || len < 1e-6f ||
            (!anim.rotation.times.empty() && static_cast<float>(t) <= anim.rotation.times.back())) {
          ++dropped_keys;
          continue;
        }
        anim.rotation.times.push_back(static_cast<float>(t));
        anim.rotation.values.push_back(q / len);
      }
      for (const std::vector<float>* times :
           {&anim.translation.times, &anim.rotation.times, &anim.scale.times}) {
        if (!times->empty()) clip.duration = std::max(clip.duration, times->back());
      }
      if (!anim.translation.empty() || !anim.rotation.empty() || !anim.scale.empty()) {
        clip.channels.push_back(std::move(anim));
      }
    }
    const double declared = source->mDuration / tps;
    if (std::isfinite(declared) && declared > static_cast<double>(clip.duration) &&
        declared < 1e6) {
      clip.duration = static_cast<float>(declared);
    }
    model_->clips.push_back(std::move(clip));
  }
  if (dropped_keys > 0) {
    warnings_.push_back("dropped " + Plural(dropped_keys, "animation key", "animation keys") +
                        " with non-increasing times or non-finite values");
  }
  if (!unknown_nodes.empty()) {
    warnings_.push_back("animation channels for " +
                        Plural(unknown_nodes.size(), "unknown node", "unknown nodes") +
                        " were ignored (e.g. '" + *unknown_nodes.begin() + "')");
  }
}

bool Converter::Run(Model* model, std::string* error) {
  model_ = model;
  if (!WalkNodes(error)) return false;
  model->is_bone.assign(nodes_.size(), false);
  for (size_t j = 0; j < nodes_.size(); ++j) {
    const aiNode* node = nodes_[j];
    for (unsigned m = 0; node->mMeshes && m < node->mNumMeshes; ++m) {
      const unsigned index = node->mMeshes[m];
      if (index >= scene_->mNumMeshes || !scene_->mMeshes || !scene_->mMeshes[index]) {
        *error = "node '" + names_[j] + "' refers to a mesh that does not exist";
        return false;
      }
      if (!ConvertMesh(scene_->mMeshes[index], static_cast<int>(j), error)) return false;
    }
  }
  ConvertMaterials();
  ConvertAnimations();
  if (model->meshes.empty() && nodes_.size() <= 1) {
    *error = skipped_meshes_ > 0
                 ? "nothing to show: the file has only points or lines, no triangles"
                 : "the scene is empty (no meshes and no nodes besides the root)";
    return false;
  }
  std::string skeleton_error;
  auto skeleton = ik::Skeleton::Build(descs_, &skeleton_error);
  if (!skeleton) {
    *error = skeleton_error;
    return false;
  }
  model->skeleton = std::move(*skeleton);

  if (!ambiguous_names_.empty()) {
    warnings_.push_back(Plural(ambiguous_names_.size(), "node name is", "node names are") +
                        " used by several nodes (e.g. '" + *ambiguous_names_.begin() +
                        "'); bones and animations bind to the first such node");
  }
  if (!missing_bones_.empty()) {
    warnings_.push_back(Plural(missing_bones_.size(), "bone refers", "bones refer") +
                        " to no node (e.g. '" + *missing_bones_.begin() +
                        "'); their weights were dropped");
  }
  if (over_four_ > 0) {
    warnings_.push_back(Plural(over_four_, "vertex", "vertices") +
                        " had more than 4 joint influences: kept the 4 largest and renormalised");
  }
  if (renormalised_ > 0) {
    warnings_.push_back(Plural(renormalised_, "vertex", "vertices") +
                        " had weights not summing to 1; renormalised");
  }
  if (unweighted_ > 0) {
    warnings_.push_back(Plural(unweighted_, "skinned vertex has", "skinned vertices have") +
                        " no weight; they follow their mesh's node");
  }
  if (bad_weights_ > 0) {
    warnings_.push_back(
        Plural(bad_weights_, "invalid bone weight was", "invalid bone weights were") +
        " dropped (bad vertex index or value)");
  }
  if (skipped_faces_ > 0) {
    warnings_.push_back(Plural(skipped_faces_, "face", "faces") +
                        " that were not valid triangles were dropped");
  }
  if (skipped_meshes_ > 0) {
    warnings_.push_back(Plural(skipped_meshes_, "mesh", "meshes") +
                        " without triangles (points or lines) were not loaded");
  }
  if (repaired_normals_ > 0) {
    warnings_.push_back(Plural(repaired_normals_, "invalid normal was", "invalid normals were") +
                        " recomputed from the faces");
  }
  return true;
}

// Several unnamed clips of one length that move disjoint joint sets are one animation that an
// exporter split per joint (RiggedFigure has 19 of them); riggers want to play them together.
void MergeSplitClips(Model* model, std::vector<std::string>* warnings) {
  auto& clips = model->clips;
  if (clips.size() < 2) return;
  float longest = 0.0f;
  std::set<int> joints;
  size_t channel_count = 0;
  for (const Clip& clip : clips) {
    if (!clip.name.empty() || clip.channels.empty()) return;
    longest = std::max(longest, clip.duration);
    for (const JointAnimation& a : clip.channels) {
      joints.insert(a.joint);
      ++channel_count;
    }
  }
  if (joints.size() != channel_count) return;  // some joint is animated by two clips
  for (const Clip& clip : clips) {
    if (std::abs(clip.duration - longest) > std::max(1e-3f, 0.01f * longest)) return;
  }
  Clip merged;
  merged.duration = longest;
  for (Clip& clip : clips) {
    for (JointAnimation& a : clip.channels) merged.channels.push_back(std::move(a));
  }
  warnings->push_back("merged " + std::to_string(clips.size()) +
                      " unnamed animations that each move different joints into one clip");
  clips.clear();
  clips.push_back(std::move(merged));
}

// Replaces Assimp's clips with the pre-pass's exact glTF clips when Assimp's node tree is the
// scene walk the pre-pass predicted (it always is for glTF 2.0; the check guards the mapping).
void ApplyGltfClips(const gltf::Prepass& prepass, bool skipped_root,
                    const std::vector<std::string>& joint_names, Model* model,
                    std::vector<std::string>* warnings) {
  std::vector<int> order = prepass.preorder_nodes;
  if (skipped_root && !order.empty() && order[0] < 0) order.erase(order.begin());
  bool aligned = order.size() == joint_names.size();
  for (size_t i = 0; aligned && i < order.size(); ++i) {
    const std::string expected = order[i] < 0
                                     ? std::string(gltf::kSyntheticRootName)
                                     : (static_cast<size_t>(order[i]) < prepass.node_names.size()
                                            ? prepass.node_names[static_cast<size_t>(order[i])]
                                            : std::string());
    aligned = expected == joint_names[i];
  }
  if (!aligned) {
    if (!prepass.clips.empty()) {
      warnings->push_back(
          "could not match the glTF nodes to Assimp's; animations use Assimp's data, with step "
          "and cubic-spline interpolation played as linear");
    }
    return;
  }
  std::multimap<int, int> joints_of_node;
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] >= 0) joints_of_node.emplace(order[i], static_cast<int>(i));
  }
  std::vector<Clip> clips;
  for (const Clip& source : prepass.clips) {
    Clip clip;
    clip.name = source.name;
    clip.duration = source.duration;
    for (const JointAnimation& a : source.channels) {
      auto range = joints_of_node.equal_range(a.joint);
      for (auto it = range.first; it != range.second; ++it) {
        JointAnimation copy = a;
        copy.joint = it->second;
        clip.channels.push_back(std::move(copy));
      }
    }
    clips.push_back(std::move(clip));
  }
  model->clips = std::move(clips);
}

LoadResult Fail(const std::string& path, const std::string& reason) {
  LoadResult result;
  result.error = path + ": " + reason;
  return result;
}

LoadResult LoadModelUnchecked(const std::string& path) {
  std::vector<uint8_t> bytes;
  std::string reason;
  if (ReadFileBytes(path, &bytes, &reason) != ReadStatus::kOk) return Fail(path, reason);

  gltf::Prepass prepass;
  const bool is_gltf = gltf::LooksLikeGltf(path, bytes);
  if (is_gltf && !gltf::Prepare(path, bytes, &prepass, &reason)) return Fail(path, reason);

  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  // A file with bones but no mesh must load as a bare skeleton, not with a generated mesh.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  if (!prepass.patched.empty()) importer.SetIOHandler(new PatchedIOSystem(path, &prepass.patched));
  // No flag here flattens or pre-transforms the hierarchy: joints are nodes and must stay nodes.
  const unsigned flags = aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                         aiProcess_GenSmoothNormals | aiProcess_SortByPType |
                         aiProcess_ValidateDataStructure;
  const aiScene* scene = importer.ReadFile(path, flags);
  if (!scene) {
    std::string message = importer.GetErrorString();
    if (message.find("No suitable reader found") != std::string::npos) {
      return Fail(path, "not a 3D model format Assimp can read");
    }
    if (message.empty()) message = "unknown error";
    return Fail(path, "Assimp could not read it: " + message);
  }
  Model model;
  model.source = path;
  const bool synthetic_root = is_gltf && prepass.is_gltf2 && !prepass.preorder_nodes.empty() &&
                              prepass.preorder_nodes[0] < 0;
  Converter converter(scene, path, synthetic_root);
  if (!converter.Run(&model, &reason)) return Fail(path, reason);
  std::vector<std::string> warnings = prepass.warnings;
  for (std::string& w : converter.warnings()) warnings.push_back(std::move(w));
  if (is_gltf && prepass.is_gltf2) {
    ApplyGltfClips(prepass, converter.skipped_root(), converter.joint_names(), &model, &warnings);
  }
  MergeSplitClips(&model, &warnings);
  const size_t clips_before = model.clips.size();
  model.clips.erase(std::remove_if(model.clips.begin(), model.clips.end(),
                                   [](const Clip& c) { return c.channels.empty(); }),
                    model.clips.end());
  if (model.clips.size() != clips_before) {
    warnings.push_back(Plural(clips_before - model.clips.size(), "animation", "animations") +
                       " that move no joint (e.g. morph weights only) were left out");
  }
  for (size_t i = 0; i < model.clips.size(); ++i) {
    if (model.clips[i].name.empty()) {
      model.clips[i].name =
          model.clips.size() == 1 ? "Animation" : "Animation " + std::to_string(i);
    }
  }
  model.warnings = warnings;
  LoadResult result;
  result.warnings = std::move(warnings);
  result.model = std::move(model);
  return result;
}

}  // namespace

LoadResult LoadModel(const std::string& path) {
  try {
    return LoadModelUnchecked(path);
  } catch (const std::bad_alloc&) {
    return Fail(path, "out of memory while loading");
  } catch (const std::exception& e) {
    return Fail(path, std::string("unexpected error while loading: ") + e.what());
  } catch (...) {
    return Fail(path, "unexpected error while loading");
  }
}

}  // namespace assets
