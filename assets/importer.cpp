// Import: file checks, the glTF pre-pass, Assimp, then a validating copy of Assimp's scene into a
// Model. Assimp's data is never trusted: indices, sizes and floats are checked as they are copied.
#include "assets/importer.h"

#include <assimp/MemoryIOWrapper.h>
#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>
#include <assimp/ProgressHandler.hpp>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "assets/animation.h"
#include "assets/image_decode.h"
#include "assets/internal/gltf_document.h"
#include "assets/internal/gltf_reader.h"
#include "assets/internal/messages.h"
#include "assets/internal/model_files.h"
#include "ik/transform.h"

namespace assets {
namespace {

// Bytes of a non-glTF file read before Assimp: enough for the header checks.
constexpr size_t kHeaderBytes = 8192;
// Ticks per second assumed when a (non-glTF) file leaves it unset, as Assimp's viewer does.
constexpr double kDefaultTicksPerSecond = 25.0;

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Progress and cancellation of one load: maps each stage onto its share of 0..1, keeps reports
// monotonic and throttles them to about one per percent.
class Progress {
 public:
  explicit Progress(const LoadOptions& options) : options_(options) {}

  // Enters the stage covering [begin, end) of the whole load.
  void Stage(float begin, float end) {
    begin_ = begin;
    end_ = end;
    Report(0.0f);
  }
  // Fraction `f` (0..1) of the current stage is done.
  void Report(float f) {
    if (!options_.progress) return;
    const float total =
        begin_ + (end_ - begin_) * std::clamp(std::isfinite(f) ? f : 0.0f, 0.0f, 1.0f);
    if (total < 1.0f && total < reported_ + 0.01f && reported_ >= 0.0f) return;
    if (total <= reported_) return;
    reported_ = total;
    options_.progress(total);
  }
  void Done() {
    if (options_.progress && reported_ < 1.0f) {
      reported_ = 1.0f;
      options_.progress(1.0f);
    }
  }
  bool Cancelled() const { return options_.cancelled && options_.cancelled(); }

 private:
  const LoadOptions& options_;
  float begin_ = 0.0f, end_ = 0.0f;
  float reported_ = -1.0f;
};

// Assimp's progress callbacks (0 at the start of parsing, 0.5 after it, then per post-processing
// step up to 1) mapped onto the current stage. Assimp 5.2.5 ignores the return value of most of
// its callers, so cancellation is checked by us between Assimp's phases instead.
class AssimpProgress : public Assimp::ProgressHandler {
 public:
  explicit AssimpProgress(Progress* progress) : progress_(progress) {}
  bool Update(float percentage) override {
    if (percentage >= 0.0f) progress_->Report(percentage);
    return !progress_->Cancelled();
  }

 private:
  Progress* progress_;
};

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

enum class ReadStatus { kOk, kMissing, kNotRegular, kUnreadable, kEmpty, kTooLarge };

ReadStatus StatusOf(FileStatus status) {
  switch (status) {
    case FileStatus::kOk:
      return ReadStatus::kOk;
    case FileStatus::kMissing:
      return ReadStatus::kMissing;
    case FileStatus::kNotRegular:
    case FileStatus::kOutside:
      return ReadStatus::kNotRegular;
    default:
      return ReadStatus::kUnreadable;
  }
}

// Reads (at most the first `max_bytes` of) an open file after checking it is not empty and is
// within kMaxFileBytes.
ReadStatus ReadOpenFile(const InputFile& file, std::vector<uint8_t>* bytes, std::string* reason,
                        size_t max_bytes, uint64_t* file_size) {
  const uint64_t size = file.size();
  if (size == 0) {
    *reason = "the file is empty";
    return ReadStatus::kEmpty;
  }
  if (size > kMaxFileBytes) {
    *reason = "the file is " + std::to_string(size >> 20) + " MiB, larger than the " +
              std::to_string(kMaxFileBytes >> 20) + " MiB skelview reads";
    return ReadStatus::kTooLarge;
  }
  if (file_size) *file_size = size;
  const size_t wanted = std::min(static_cast<size_t>(size), max_bytes);
  bytes->resize(wanted);
  errno = 0;
  if (!file.ReadAt(0, bytes->data(), wanted)) {
    *reason = std::string("cannot read the file: ") +
              (errno ? std::strerror(errno) : "it ended early (changed while read?)");
    return ReadStatus::kUnreadable;
  }
  return ReadStatus::kOk;
}

// Reads the model file (at most its first `max_bytes`) after checking it exists, is a regular
// file (a FIFO is refused before it is opened), is not empty and is within kMaxFileBytes.
ReadStatus ReadModelBytes(ModelFiles* files, std::vector<uint8_t>* bytes, std::string* reason,
                          size_t max_bytes = SIZE_MAX, uint64_t* file_size = nullptr) {
  InputFile file;
  const FileStatus status = files->OpenModel(&file, reason);
  if (status != FileStatus::kOk) return StatusOf(status);
  return ReadOpenFile(file, bytes, reason, max_bytes, file_size);
}

// An Assimp stream over one of our open files.
class FileStream : public Assimp::IOStream {
 public:
  explicit FileStream(InputFile file) : file_(std::move(file)) {}

  size_t Read(void* buffer, size_t size, size_t count) override {
    if (!buffer || size == 0 || count == 0 || position_ >= file_.size()) return 0;
    const uint64_t items = std::min<uint64_t>(count, (file_.size() - position_) / size);
    if (items == 0 || !file_.ReadAt(position_, buffer, static_cast<size_t>(items * size))) {
      return 0;
    }
    position_ += items * size;
    return static_cast<size_t>(items);
  }
  size_t Write(const void*, size_t, size_t) override { return 0; }
  aiReturn Seek(size_t offset, aiOrigin origin) override {
    // Assimp passes backward moves as negative offsets cast to size_t (as fseek's long).
    const int64_t delta = static_cast<int64_t>(offset);
    int64_t target;
    if (origin == aiOrigin_SET) {
      if (offset > file_.size()) return aiReturn_FAILURE;
      target = static_cast<int64_t>(offset);
    } else if (origin == aiOrigin_CUR || origin == aiOrigin_END) {
      const int64_t base = static_cast<int64_t>(origin == aiOrigin_CUR ? position_ : file_.size());
      if ((delta > 0 && base > INT64_MAX - delta)) return aiReturn_FAILURE;
      target = base + delta;
    } else {
      return aiReturn_FAILURE;
    }
    if (target < 0 || static_cast<uint64_t>(target) > file_.size()) return aiReturn_FAILURE;
    position_ = static_cast<uint64_t>(target);
    return aiReturn_SUCCESS;
  }
  size_t Tell() const override { return static_cast<size_t>(position_); }
  size_t FileSize() const override { return static_cast<size_t>(file_.size()); }
  void Flush() override {}

 private:
  InputFile file_;
  uint64_t position_ = 0;
};

// Every file Assimp reads goes through here, under the import's ModelFiles rules (regular files,
// inside the model's folder unless allowed, non-blocking opens, recorded); the model file itself
// may be served from the pre-pass's repaired bytes instead. Assimp may not write, create or
// delete anything. Refusals other than "not found" (which is how Assimp probes for optional side
// files) are collected for the user.
class GuardedIOSystem : public Assimp::IOSystem {
 public:
  GuardedIOSystem(ModelFiles* files, const std::vector<uint8_t>* patched,
                  std::vector<std::string>* refusals)
      : files_(files), patched_(patched), refusals_(refusals) {}

  bool Exists(const char* file) const override {
    if (!file) return false;
    std::string reason;
    const FileStatus status = files_->CheckPath(file, &reason);
    if (status == FileStatus::kOk) return true;
    Note(file, status, reason);
    return false;
  }
  char getOsSeparator() const override { return '/'; }
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (!file || !mode || std::strpbrk(mode, "wa+")) return nullptr;
    if (patched_ && !patched_->empty() && files_->IsModelPath(file)) {
      return new Assimp::MemoryIOStream(patched_->data(), patched_->size(), false);
    }
    InputFile input;
    std::string reason;
    const FileStatus status = files_->OpenPath(file, &input, &reason);
    if (status != FileStatus::kOk) {
      Note(file, status, reason);
      return nullptr;
    }
    return new FileStream(std::move(input));
  }
  void Close(Assimp::IOStream* stream) override { delete stream; }
  bool ComparePaths(const char* one, const char* second) const override {
    return one && second &&
           std::filesystem::path(one).lexically_normal() ==
               std::filesystem::path(second).lexically_normal();
  }
  bool CreateDirectory(const std::string&) override { return false; }
  bool ChangeDirectory(const std::string&) override { return false; }
  bool DeleteFile(const std::string&) override { return false; }

 private:
  void Note(const char* file, FileStatus status, const std::string& reason) const {
    if (status == FileStatus::kMissing || !refusals_) return;
    const std::string note = "file " + Quoted(file) + " was not read: " + reason;
    if (std::find(refusals_->begin(), refusals_->end(), note) == refusals_->end()) {
      refusals_->push_back(note);
    }
  }
  ModelFiles* files_;
  const std::vector<uint8_t>* patched_;
  std::vector<std::string>* refusals_;
};

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

// Merges vertices with bit-identical position, uv, joints and weights and normals less than
// kWeldNormalDistance apart (exporters leave rounding noise in split normals; the first vertex's
// normal is kept), and remaps the triangles: most of Assimp's readers (FBX, OBJ, Collada...) give
// every face corner its own vertex, and glTF files carry such duplicates too. Linear time with an
// open-addressing table, where Assimp's own JoinIdenticalVertices step is quadratic in bone
// weights (43 s for a 1M-vertex skinned mesh).
constexpr float kWeldNormalDistance = 1e-5f;

// `flags` (optional, one per vertex) are merged with OR into the kept vertex.
void WeldIdenticalVertices(Mesh* mesh, std::vector<uint8_t>* flags = nullptr) {
  const size_t n = mesh->positions.size();
  if (n < 2) return;
  const bool has_uvs = !mesh->uvs.empty();
  auto same = [&](size_t a, size_t b) {
    const glm::vec3 dn = mesh->normals[a] - mesh->normals[b];
    return std::memcmp(&mesh->positions[a], &mesh->positions[b], sizeof(glm::vec3)) == 0 &&
           glm::dot(dn, dn) <= kWeldNormalDistance * kWeldNormalDistance &&
           (!has_uvs || std::memcmp(&mesh->uvs[a], &mesh->uvs[b], sizeof(glm::vec2)) == 0) &&
           std::memcmp(&mesh->joints[a], &mesh->joints[b], sizeof(glm::u16vec4)) == 0 &&
           std::memcmp(&mesh->weights[a], &mesh->weights[b], sizeof(glm::vec4)) == 0;
  };
  auto hash = [&](size_t i) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    auto mix = [&h](const void* data, size_t bytes) {
      for (size_t o = 0; o + 4 <= bytes; o += 4) {
        uint32_t word;
        std::memcpy(&word, static_cast<const char*>(data) + o, 4);
        h = (h ^ word) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
      }
    };
    mix(&mesh->positions[i], sizeof(glm::vec3));  // not the normal: it is compared loosely
    if (has_uvs) mix(&mesh->uvs[i], sizeof(glm::vec2));
    mix(&mesh->weights[i], sizeof(glm::vec4));
    return h;
  };
  size_t capacity = 16;
  while (capacity < 2 * n) capacity *= 2;
  std::vector<uint32_t> table(capacity, UINT32_MAX);  // new vertex index, or empty
  std::vector<uint32_t> remap(n);
  uint32_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t slot = hash(i) & (capacity - 1);
    while (table[slot] != UINT32_MAX && !same(table[slot], i)) slot = (slot + 1) & (capacity - 1);
    if (table[slot] == UINT32_MAX) {
      // First of its kind: moves down to position `kept` (never above i, so in place is safe).
      if (kept != i) {
        mesh->positions[kept] = mesh->positions[i];
        mesh->normals[kept] = mesh->normals[i];
        if (has_uvs) mesh->uvs[kept] = mesh->uvs[i];
        mesh->joints[kept] = mesh->joints[i];
        mesh->weights[kept] = mesh->weights[i];
      }
      table[slot] = kept;
      remap[i] = kept++;
    } else {
      remap[i] = table[slot];
    }
  }
  if (kept == n) return;
  if (flags && flags->size() == n) {
    std::vector<uint8_t> merged(kept, 0);
    for (size_t i = 0; i < n; ++i) merged[remap[i]] |= (*flags)[i];
    *flags = std::move(merged);
  }
  mesh->positions.resize(kept);
  mesh->normals.resize(kept);
  if (has_uvs) mesh->uvs.resize(kept);
  mesh->joints.resize(kept);
  mesh->weights.resize(kept);
  for (uint32_t& index : mesh->indices) index = remap[index];
}

class Converter {
 public:
  // skip_root: leave out the scene's root node, which Assimp invents above several glTF scene
  // roots (its children become roots), so that joints are exactly the file's nodes.
  // weld: merge identical vertices (WeldIdenticalVertices), for readers that do not index.
  // files: how texture files are opened (the import's rules and record).
  Converter(aiScene* scene, std::string path, bool skip_root, bool weld, Progress* progress,
            ModelFiles* files)
      : scene_(scene),
        path_(std::move(path)),
        skip_root_(skip_root),
        weld_(weld),
        progress_(progress),
        files_(files) {}

  bool Run(Model* model, std::string* error);
  std::vector<std::string>& warnings() { return warnings_; }
  bool skipped_root() const { return skip_root_; }
  // Take meshes and skins from the pre-pass's native decoding instead of Assimp's scene; the
  // primitives are moved out where a mesh is used once.
  void UseNativeMeshes(gltf::Prepass* prepass) { native_ = prepass; }
  // Run's error when Assimp's node tree is not the scene walk the pre-pass predicted, so that
  // native meshes cannot be placed (the caller then loads through Assimp's meshes).
  static constexpr const char* kMisaligned = "internal: glTF nodes do not match Assimp's";
  const std::vector<std::string>& joint_names() const { return names_; }

 private:
  bool WalkNodes(std::string* error);
  // count_repairs: the first instance of its source mesh, whose repairs the warnings count (a
  // mesh shown by several nodes is repaired once per node but is one mesh of the file).
  bool ConvertMesh(const aiMesh* source, int node, bool count_repairs, std::string* error);
  bool ConvertSceneMeshes(std::string* error);
  bool ConvertNativeMeshes(std::string* error);
  bool Finish(Model* model, std::string* error);
  void ConvertNativeMaterials();
  bool ConvertPrimitive(gltf::Primitive* primitive, bool last_use, bool count_repairs, int node,
                        const gltf::Skin* skin, std::string* error);
  bool CountInstance(size_t vertices, size_t triangles, std::string* error);
  void FinishInfluences(Mesh* mesh, const std::vector<uint8_t>& counts, int node,
                        std::vector<uint8_t>* flags);
  // Welds the mesh (when weld_) carrying the per-vertex repair flags, counts the flagged vertices
  // that remain when count_repairs, and adds the mesh to the model.
  void AddMesh(Mesh mesh, std::vector<uint8_t>* flags, bool count_repairs);
  void ConvertMaterials();
  // reference: an embedded texture's name, or a texture path from the file (a URI: it is
  // percent-decoded), relative to the model's folder or absolute.
  int LoadTexture(const std::string& reference, const std::string& material);
  // Reads and decodes an image file if it fits the texture limits (its header is checked first).
  bool ReadTextureFile(const InputFile& file, Texture* texture, std::string* reason);
  // Decodes an image if it fits the texture limits; false with the reason otherwise.
  bool DecodeTexture(const uint8_t* data, size_t size, Texture* texture, std::string* reason);
  // Whether a width x height texture fits kMaxTexturePixels and, with the textures decoded so
  // far, kMaxTotalTexturePixels.
  bool TexturePixelsFit(int width, int height, std::string* reason) const;
  void ConvertAnimations();

  aiScene* scene_;  // owned by the caller; meshes are freed as soon as they are converted
  std::string path_;
  bool skip_root_ = false;
  bool weld_ = false;
  Progress* progress_;
  ModelFiles* files_;
  gltf::Prepass* native_ = nullptr;
  std::vector<int> joint_of_node_;  // native meshes: glTF node -> joint (first occurrence), or -1
  Model* model_ = nullptr;
  std::vector<std::string> warnings_;

  std::vector<const aiNode*> nodes_;
  std::vector<ik::JointDesc> descs_;
  std::vector<std::string> names_;
  std::vector<glm::mat4> rest_models_;
  std::unordered_map<std::string, int> joint_by_name_;
  std::set<std::string> ambiguous_names_;
  std::map<std::string, int> texture_by_reference_;

  // Mesh instances converted so far, against kMaxVertices, kMaxTriangles and the decode budget.
  uint64_t total_vertices_ = 0, total_triangles_ = 0;
  // Texture pixels decoded so far, against kMaxTotalTexturePixels.
  uint64_t texture_pixels_ = 0;

  // Per-vertex repair flags (see AddMesh), so that repairs are counted on distinct vertices.
  static constexpr uint8_t kOverFour = 1, kRenormalised = 2, kUnweighted = 4, kRepairedNormal = 8;
  // Repair counters, reported once per file: vertices after welding, first instance of each mesh.
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
      *error = "node " + Quoted(name) + " has a non-finite or huge transform";
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
      *error = "node " + Quoted(name) + " lies at a non-finite or huge position";
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

bool Converter::ConvertMesh(const aiMesh* source, int node, bool count_repairs,
                            std::string* error) {
  const std::string name = source->mName.C_Str();
  if (!(source->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || source->mNumVertices == 0 ||
      !source->mVertices || !source->mFaces || source->mNumFaces == 0) {
    if (count_repairs) ++skipped_meshes_;
    return true;
  }
  const size_t n = source->mNumVertices;
  if (!CountInstance(n, source->mNumFaces, error)) return false;
  Mesh mesh;
  mesh.name = name;
  mesh.node = node;
  mesh.positions.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const aiVector3D& p = source->mVertices[i];
    if (!WithinLimits(p)) {
      *error = "mesh " + Quoted(name) + " has a non-finite or huge vertex coordinate (vertex " +
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
      if (count_repairs) ++skipped_faces_;
      continue;
    }
    mesh.indices.insert(mesh.indices.end(), face.mIndices, face.mIndices + 3);
  }
  if (mesh.indices.empty()) {
    if (count_repairs) ++skipped_meshes_;
    return true;
  }
  std::vector<uint8_t> flags(n, 0);
  // Normals: keep valid ones, rebuild the rest from the faces.
  mesh.normals.resize(n);
  std::vector<glm::vec3> face_normals;
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
    if (source->mNormals) flags[i] |= kRepairedNormal;
  }
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
      warnings_.push_back("mesh " + Quoted(name) +
                          " has non-finite texture coordinates; dropped them");
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
    AddMesh(std::move(mesh), &flags, count_repairs);
    return true;
  }
  if (source->mNumBones >= 65535) {
    *error = "mesh " + Quoted(name) + " has " + std::to_string(source->mNumBones) +
             " bones, more than the 65,534 supported";
    return false;
  }
  mesh.skinned = true;
  // Per vertex, the four largest influences so far in descending order, kept straight in
  // mesh.weights / mesh.joints (ties keep bone order, as a stable sort would), and how many the
  // vertex had in all: no per-vertex lists, which cost an allocation each on large meshes.
  std::vector<uint8_t> influence_count(n, 0);
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
      *error = "bone " + Quoted(bone_name) + " of mesh " + Quoted(name) +
               " has a non-finite or huge inverse bind matrix";
      return false;
    }
    const uint16_t slot = static_cast<uint16_t>(mesh.bone_joints.size());
    mesh.bone_joints.push_back(joint);
    mesh.bone_inverse_binds.push_back(inverse_bind);
    if (!descs_[joint].inverse_bind) descs_[joint].inverse_bind = inverse_bind;
    for (unsigned w = 0; w < bone->mNumWeights && bone->mWeights; ++w) {
      const aiVertexWeight& vw = bone->mWeights[w];
      if (vw.mVertexId >= n || !std::isfinite(vw.mWeight) || vw.mWeight < 0.0f) {
        if (count_repairs) ++bad_weights_;
        continue;
      }
      if (!(vw.mWeight > 0.0f)) continue;
      const size_t v = vw.mVertexId;
      const int count = influence_count[v];
      if (count < 255) influence_count[v] = static_cast<uint8_t>(count + 1);
      const int kept = std::min(count, 4);
      glm::vec4& top = mesh.weights[v];
      glm::u16vec4& slots = mesh.joints[v];
      int k = 0;
      while (k < kept && top[k] >= vw.mWeight) ++k;
      if (k >= 4) continue;
      for (int m = std::min(kept, 3); m > k; --m) {
        top[m] = top[m - 1];
        slots[m] = slots[m - 1];
      }
      top[k] = vw.mWeight;
      slots[k] = slot;
    }
  }
  FinishInfluences(&mesh, influence_count, node, &flags);
  AddMesh(std::move(mesh), &flags, count_repairs);
  return true;
}

void Converter::AddMesh(Mesh mesh, std::vector<uint8_t>* flags, bool count_repairs) {
  if (weld_) WeldIdenticalVertices(&mesh, flags);
  if (count_repairs) {
    for (uint8_t f : *flags) {
      over_four_ += (f & kOverFour) ? 1 : 0;
      renormalised_ += (f & kRenormalised) ? 1 : 0;
      unweighted_ += (f & kUnweighted) ? 1 : 0;
      repaired_normals_ += (f & kRepairedNormal) ? 1 : 0;
    }
  }
  model_->meshes.push_back(std::move(mesh));
}

bool Converter::CountInstance(size_t vertices, size_t triangles, std::string* error) {
  total_vertices_ += vertices;
  total_triangles_ += triangles;
  if (total_vertices_ > kMaxVertices || total_triangles_ > kMaxTriangles) {
    *error = "its meshes have more than " +
             (total_vertices_ > kMaxVertices ? std::to_string(kMaxVertices) + " vertices"
                                             : std::to_string(kMaxTriangles) + " triangles") +
             " in all (counting each node that shows a mesh), more than skelview loads";
    return false;
  }
  // Both totals are bounded above, so this cannot overflow.
  const uint64_t bytes = total_vertices_ * kDecodeBytesPerVertex + total_triangles_ * 12;
  const uint64_t source_bytes = files_->bytes_read();
  if (bytes > DecodeBudget(source_bytes)) {
    const uint64_t mib = uint64_t{1} << 20;
    *error = "its meshes (counting each node that shows a mesh) would take more than " +
             std::to_string(DecodeBudget(source_bytes) / mib) +
             " MiB, the most skelview allows for a model of " +
             std::to_string((source_bytes + 1023) / 1024) + " KiB (the file repeats data)";
    return false;
  }
  return true;
}

// mesh->weights / mesh->joints hold each vertex's (up to) four largest influences in descending
// order and counts[v] how many it had: normalises them, counts what was repaired, and binds
// vertices without any weight to the mesh's node.
void Converter::FinishInfluences(Mesh* mesh, const std::vector<uint8_t>& counts, int node,
                                 std::vector<uint8_t>* flags) {
  int own_bone = -1;  // the mesh's node as a bone, for vertices no bone moves
  for (size_t i = 0; i < mesh->positions.size(); ++i) {
    const int count = counts[i];
    const int kept = std::min(count, 4);
    float sum = 0.0f;
    for (int k = 0; k < kept; ++k) sum += mesh->weights[i][k];
    if (count > 4) {
      (*flags)[i] |= kOverFour;
    } else if (kept > 0 && std::abs(sum - 1.0f) > 1e-3f) {
      (*flags)[i] |= kRenormalised;
    }
    if (kept == 0 || !(sum > 0.0f) || !std::isfinite(sum)) {
      if (own_bone < 0) {
        own_bone = static_cast<int>(mesh->bone_joints.size());
        mesh->bone_joints.push_back(node);
        mesh->bone_inverse_binds.push_back(glm::mat4(1.0f));
      }
      mesh->joints[i] = glm::u16vec4(static_cast<uint16_t>(own_bone), 0, 0, 0);
      mesh->weights[i] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
      (*flags)[i] |= kUnweighted;
      continue;
    }
    for (int k = 0; k < 4; ++k) mesh->weights[i][k] = k < kept ? mesh->weights[i][k] / sum : 0.0f;
  }
}

bool Converter::ConvertNativeMeshes(std::string* error) {
  // glTF node -> joint, through the scene walk the pre-pass predicted, checked against the node
  // names Assimp gave its tree.
  std::vector<int> order = native_->preorder_nodes;
  if (skip_root_ && !order.empty() && order[0] < 0) order.erase(order.begin());
  const size_t node_count = native_->node_names.size();
  bool aligned = order.size() == names_.size() && native_->node_meshes.size() == node_count;
  for (size_t i = 0; aligned && i < order.size(); ++i) {
    aligned = order[i] < 0 ? names_[i] == gltf::kSyntheticRootName
                           : static_cast<size_t>(order[i]) < node_count &&
                                 native_->node_names[static_cast<size_t>(order[i])] == names_[i];
  }
  if (!aligned) {
    *error = kMisaligned;
    return false;
  }
  std::vector<int>& joint_of_node = joint_of_node_;
  joint_of_node.assign(node_count, -1);
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] >= 0 && joint_of_node[static_cast<size_t>(order[i])] < 0) {
      joint_of_node[static_cast<size_t>(order[i])] = static_cast<int>(i);
    }
  }
  // Instances per glTF mesh, so that the last one can take the decoded arrays instead of copying.
  std::vector<size_t> remaining(native_->meshes.size(), 0);
  uint64_t all_vertices = 0, done_vertices = 0;
  for (int g : order) {
    if (g < 0) continue;
    const int m = native_->node_meshes[static_cast<size_t>(g)];
    if (m < 0 || static_cast<size_t>(m) >= native_->meshes.size()) continue;
    ++remaining[static_cast<size_t>(m)];
    for (const gltf::Primitive& p : native_->meshes[static_cast<size_t>(m)]) {
      all_vertices += p.positions.size();
    }
  }
  std::vector<char> counted(native_->meshes.size(), 0);
  for (size_t j = 0; j < order.size(); ++j) {
    const int g = order[j];
    if (g < 0) continue;
    const int m = native_->node_meshes[static_cast<size_t>(g)];
    if (m < 0 || static_cast<size_t>(m) >= native_->meshes.size()) continue;
    const int s = native_->node_skins[static_cast<size_t>(g)];
    const gltf::Skin* skin =
        s >= 0 && static_cast<size_t>(s) < native_->skins.size() ? &native_->skins[s] : nullptr;
    const bool last_use = --remaining[static_cast<size_t>(m)] == 0;
    const bool first_use = !counted[static_cast<size_t>(m)];
    counted[static_cast<size_t>(m)] = 1;
    for (gltf::Primitive& primitive : native_->meshes[static_cast<size_t>(m)]) {
      if (progress_->Cancelled()) {
        *error = "cancelled";
        return false;
      }
      const size_t vertices = primitive.positions.size();
      if (!ConvertPrimitive(&primitive, last_use, first_use, static_cast<int>(j), skin, error)) {
        return false;
      }
      done_vertices += vertices;
      progress_->Report(
          static_cast<float>(static_cast<double>(done_vertices) /
                             static_cast<double>(std::max<uint64_t>(all_vertices, 1))));
    }
  }
  // Skins' joints that no mesh instance used still bind those joints (as Assimp's bones would).
  for (size_t g = 0; g < node_count; ++g) {
    const int s = native_->node_skins[g];
    if (s < 0 || static_cast<size_t>(s) >= native_->skins.size() || joint_of_node[g] < 0 ||
        native_->node_meshes[g] < 0) {
      continue;
    }
    for (int joint_node : native_->skins[static_cast<size_t>(s)].joints) {
      if (joint_node >= 0 && static_cast<size_t>(joint_node) < node_count &&
          joint_of_node[static_cast<size_t>(joint_node)] >= 0) {
        model_->is_bone[static_cast<size_t>(joint_of_node[static_cast<size_t>(joint_node)])] = true;
      }
    }
  }
  return true;
}

bool Converter::ConvertPrimitive(gltf::Primitive* p, bool last_use, bool count_repairs, int node,
                                 const gltf::Skin* skin, std::string* error) {
  if (!p->triangles) {
    if (count_repairs) ++skipped_meshes_;
    return true;
  }
  const size_t n = p->positions.size();
  if (!CountInstance(n, p->indices.size() / 3, error)) return false;
  auto take = [last_use](auto& from, auto* to) {
    if (last_use) {
      *to = std::move(from);
    } else {
      *to = from;
    }
  };
  Mesh mesh;
  mesh.name = p->name;
  mesh.node = node;
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3& v = p->positions[i];
    if (!(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) &&
          std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
          std::abs(v.z) <= kMaxCoordinate)) {
      *error = "mesh " + Quoted(p->name) + " has a non-finite or huge vertex coordinate (vertex " +
               std::to_string(i) + ")";
      return false;
    }
  }
  take(p->positions, &mesh.positions);
  take(p->indices, &mesh.indices);
  if (count_repairs) skipped_faces_ += p->dropped_triangles;
  std::vector<uint8_t> flags(n, 0);
  // Normals: keep valid ones (normalised), rebuild the rest from the faces.
  const bool had_normals = !p->normals.empty();
  take(p->normals, &mesh.normals);
  if (mesh.normals.size() != n) mesh.normals.assign(n, glm::vec3(0.0f));
  std::vector<glm::vec3> face_normals;
  for (size_t i = 0; i < n; ++i) {
    glm::vec3& v = mesh.normals[i];
    const float len = glm::length(v);
    if (std::isfinite(len) && len > 1e-12f) {
      v /= len;
      continue;
    }
    if (face_normals.empty()) face_normals = FaceNormals(mesh.positions, mesh.indices);
    v = face_normals[i];
    if (had_normals) flags[i] |= kRepairedNormal;
  }
  take(p->uvs, &mesh.uvs);
  for (const glm::vec2& t : mesh.uvs) {
    if (!std::isfinite(t.x) || !std::isfinite(t.y)) {
      mesh.uvs.clear();
      warnings_.push_back("mesh " + Quoted(p->name) +
                          " has non-finite texture coordinates; dropped them");
      break;
    }
  }
  mesh.material = p->material;  // a glTF index for now; ConvertNativeMaterials remaps it

  if (!skin || p->joints.empty()) {
    // Rigid: the node itself is the only bone.
    mesh.bone_joints = {node};
    mesh.bone_inverse_binds = {glm::mat4(1.0f)};
    mesh.joints.assign(n, glm::u16vec4(0));
    mesh.weights.assign(n, glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    AddMesh(std::move(mesh), &flags, count_repairs);
    return true;
  }
  mesh.skinned = true;
  // Skin joint -> mesh bone slot, -1 for a joint outside the scene (its weights are dropped).
  std::vector<int> slot_of(skin->joints.size(), -1);
  for (size_t k = 0; k < skin->joints.size(); ++k) {
    const int g = skin->joints[k];
    const int joint = g >= 0 && static_cast<size_t>(g) < joint_of_node_.size()
                          ? joint_of_node_[static_cast<size_t>(g)]
                          : -1;
    if (joint < 0) {
      missing_bones_.insert(g >= 0 && static_cast<size_t>(g) < native_->node_names.size()
                                ? native_->node_names[static_cast<size_t>(g)]
                                : std::to_string(g));
      continue;
    }
    const glm::mat4& inverse_bind = skin->inverse_binds[k];
    if (!WithinLimits(inverse_bind)) {
      *error = "bone " + Quoted(names_[static_cast<size_t>(joint)]) + " of mesh " +
               Quoted(p->name) + " has a non-finite or huge inverse bind matrix";
      return false;
    }
    model_->is_bone[static_cast<size_t>(joint)] = true;
    if (!descs_[static_cast<size_t>(joint)].inverse_bind) {
      descs_[static_cast<size_t>(joint)].inverse_bind = inverse_bind;
    }
    slot_of[k] = static_cast<int>(mesh.bone_joints.size());
    mesh.bone_joints.push_back(joint);
    mesh.bone_inverse_binds.push_back(inverse_bind);
  }
  if (count_repairs) bad_weights_ += p->invalid_influences;
  mesh.joints.assign(n, glm::u16vec4(0));
  mesh.weights.assign(n, glm::vec4(0.0f));
  std::vector<uint8_t> counts(n, 0);
  for (size_t v = 0; v < n; ++v) {
    const int count = p->influence_counts[v];
    int kept = 0;
    for (int k = 0; k < std::min(count, 4); ++k) {
      const size_t skin_joint = p->joints[v][k];
      if (skin_joint >= slot_of.size()) {
        if (count_repairs) ++bad_weights_;
        continue;
      }
      if (slot_of[skin_joint] < 0) continue;
      mesh.joints[v][kept] = static_cast<uint16_t>(slot_of[skin_joint]);
      mesh.weights[v][kept] = p->weights[v][k];
      ++kept;
    }
    // More than four keeps its count (for the warning); otherwise what survived.
    counts[v] = static_cast<uint8_t>(count > 4 ? count : kept);
  }
  if (last_use) {
    p->joints = std::vector<glm::u16vec4>();
    p->weights = std::vector<glm::vec4>();
    p->influence_counts = std::vector<uint8_t>();
  }
  FinishInfluences(&mesh, counts, node, &flags);
  AddMesh(std::move(mesh), &flags, count_repairs);
  return true;
}

bool Converter::DecodeTexture(const uint8_t* data, size_t size, Texture* texture,
                              std::string* reason) {
  int width = 0, height = 0;
  if (!ReadImageSize(data, size, &width, &height, reason)) return false;
  const uint64_t pixels = uint64_t(width) * uint64_t(height);
  if (!TexturePixelsFit(width, height, reason)) return false;
  if (!DecodeImage(data, size, texture, reason)) return false;
  texture_pixels_ += pixels;
  return true;
}

bool Converter::TexturePixelsFit(int width, int height, std::string* reason) const {
  const uint64_t pixels = uint64_t(width) * uint64_t(height);
  auto megapixels = [](uint64_t n) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f megapixels", static_cast<double>(n) / 1e6);
    return std::string(text);
  };
  const std::string size = std::to_string(width) + " x " + std::to_string(height) + " pixels";
  if (pixels > kMaxTexturePixels) {
    *reason = "it is " + size + "; skelview decodes at most " + megapixels(kMaxTexturePixels) +
              " (8192 x 8192) per texture";
    return false;
  }
  if (texture_pixels_ + pixels > kMaxTotalTexturePixels) {
    *reason = "its " + size + " would take the model's textures past " +
              megapixels(kMaxTotalTexturePixels) + ", the most skelview decodes per model";
    return false;
  }
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
      ok = embedded->pcData && DecodeTexture(reinterpret_cast<const uint8_t*>(embedded->pcData),
                                             embedded->mWidth, &texture, &reason);
    } else if (embedded->pcData && embedded->mWidth <= static_cast<unsigned>(kMaxTextureSide) &&
               embedded->mHeight <= static_cast<unsigned>(kMaxTextureSide)) {
      texture.width = static_cast<int>(embedded->mWidth);
      texture.height = static_cast<int>(embedded->mHeight);
      if (TexturePixelsFit(texture.width, texture.height, &reason)) {
        const size_t count = static_cast<size_t>(texture.width) * texture.height;
        texture.rgba.resize(count * 4);
        for (size_t i = 0; i < count; ++i) {
          const aiTexel& t = embedded->pcData[i];
          texture.rgba[i * 4 + 0] = t.r;
          texture.rgba[i * 4 + 1] = t.g;
          texture.rgba[i * 4 + 2] = t.b;
          texture.rgba[i * 4 + 3] = t.a;
        }
        texture_pixels_ += count;
        ok = true;
      }
    } else {
      reason = "embedded texture has invalid size";
    }
  } else if (!reference.empty() && reference[0] == '*') {
    reason = "embedded texture index out of range";
  } else {
    // The path as the file gives it (from the model's folder, or absolute), then its file name
    // in the model's folder (exporters often store the path on the artist's machine).
    const std::string file = gltf::PercentDecode(reference);
    std::vector<std::string> candidates = {file};
    const std::string name = std::filesystem::path(file).filename().string();
    if (!name.empty() && name != file) candidates.push_back(name);
    reason = "file not found";
    std::string refusal;
    bool found = false;
    for (const std::string& candidate : candidates) {
      InputFile input;
      std::string why;
      const FileStatus status = files_->OpenReference(candidate, &input, &why);
      if (status == FileStatus::kMissing) continue;
      if (status == FileStatus::kOutside) {
        if (refusal.empty()) refusal = why;
        continue;
      }
      found = true;
      if (status != FileStatus::kOk) {
        reason = why;
        break;
      }
      ok = ReadTextureFile(input, &texture, &reason);
      break;
    }
    if (!found && !refusal.empty()) reason = refusal;
  }
  int index = -1;
  if (ok) {
    index = static_cast<int>(model_->textures.size());
    model_->textures.push_back(std::move(texture));
  } else {
    warnings_.push_back("texture " + Quoted(reference) + " of material " + Quoted(material) +
                        " could not be loaded (" + reason + "); drawn without it");
  }
  texture_by_reference_[reference] = index;
  return index;
}

bool Converter::ReadTextureFile(const InputFile& file, Texture* texture, std::string* reason) {
  if (file.size() > kMaxImageFileBytes) {
    *reason = "the image file is " + std::to_string(file.size() >> 20) + " MiB, more than the " +
              std::to_string(kMaxImageFileBytes >> 20) + " MiB skelview reads for a texture";
    return false;
  }
  // The header first: a texture over the budgets is refused without reading the rest.
  constexpr size_t kHeadBytes = size_t{64} << 10;
  std::vector<uint8_t> bytes(static_cast<size_t>(std::min<uint64_t>(file.size(), kHeadBytes)));
  errno = 0;
  if (bytes.empty() || !file.ReadAt(0, bytes.data(), bytes.size())) {
    *reason = bytes.empty() ? "the image file is empty"
                            : std::string("cannot read the image file: ") +
                                  (errno ? std::strerror(errno) : "it ended early");
    return false;
  }
  int width = 0, height = 0;
  std::string ignored;
  if (ReadImageSize(bytes.data(), bytes.size(), &width, &height, &ignored) &&
      !TexturePixelsFit(width, height, reason)) {
    return false;
  }
  if (bytes.size() < file.size()) {
    bytes.resize(static_cast<size_t>(file.size()));
    if (!file.ReadAt(0, bytes.data(), bytes.size())) {
      *reason = std::string("cannot read the image file: ") +
                (errno ? std::strerror(errno) : "it ended early");
      return false;
    }
  }
  return DecodeTexture(bytes.data(), bytes.size(), texture, reason);
}

void Converter::ConvertNativeMaterials() {
  // Native meshes hold glTF material indices (-1: none). Only used materials are kept, in file
  // order, with glTF's default (white) for primitives without one; images decoded once each.
  const std::vector<gltf::MaterialSource>& sources = native_->materials;
  std::vector<int> new_index(sources.size() + 1, -1);  // last: the default material
  for (const Mesh& mesh : model_->meshes) {
    const size_t slot = mesh.material >= 0 && static_cast<size_t>(mesh.material) < sources.size()
                            ? static_cast<size_t>(mesh.material)
                            : sources.size();
    new_index[slot] = 0;
  }
  std::vector<int> texture_of_image(native_->images.size(), -2);  // -2: not tried yet
  for (size_t i = 0; i < new_index.size(); ++i) {
    if (new_index[i] < 0) continue;
    new_index[i] = static_cast<int>(model_->materials.size());
    Material material;
    if (i == sources.size()) {
      material.name = "DefaultMaterial";
      material.base_color = glm::vec4(1.0f);
      model_->materials.push_back(material);
      continue;
    }
    const gltf::MaterialSource& source = sources[i];
    material.name = source.name;
    material.base_color = source.base_color;
    if (source.image >= 0 && static_cast<size_t>(source.image) < native_->images.size()) {
      int& texture = texture_of_image[static_cast<size_t>(source.image)];
      if (texture == -2) {
        const gltf::ImageSource& image = native_->images[static_cast<size_t>(source.image)];
        if (!image.file.empty()) {
          texture = LoadTexture(image.name, material.name);  // the uri, decoded there
        } else {
          Texture decoded;
          decoded.name = image.name;
          std::string reason = image.error;
          if (reason.empty() &&
              DecodeTexture(image.bytes.data(), image.bytes.size(), &decoded, &reason)) {
            texture = static_cast<int>(model_->textures.size());
            model_->textures.push_back(std::move(decoded));
          } else {
            texture = -1;
            warnings_.push_back("texture " + Quoted(image.name) + " of material " +
                                Quoted(material.name) + " could not be loaded (" + reason +
                                "); drawn without it");
          }
        }
      }
      material.base_color_texture = texture;
    }
    model_->materials.push_back(material);
  }
  for (Mesh& mesh : model_->meshes) {
    const size_t slot = mesh.material >= 0 && static_cast<size_t>(mesh.material) < sources.size()
                            ? static_cast<size_t>(mesh.material)
                            : sources.size();
    mesh.material = new_index[slot];
  }
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
          if (!std::isfinite(t) || std::abs(t) > static_cast<double>(gltf::kMaxKeyTime) ||
              !WithinLimits(keys[k].mValue) ||
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
        if (!std::isfinite(t) || std::abs(t) > static_cast<double>(gltf::kMaxKeyTime) ||
            !std::isfinite(len) || len < 1e-6f ||
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
                        " were ignored (e.g. " + Quoted(*unknown_nodes.begin()) + ")");
  }
}

bool Converter::Run(Model* model, std::string* error) {
  model_ = model;
  if (!WalkNodes(error)) return false;
  model->is_bone.assign(nodes_.size(), false);
  if (native_) {
    if (!ConvertNativeMeshes(error)) return false;
  } else if (!ConvertSceneMeshes(error)) {
    return false;
  }
  if (native_) {
    ConvertNativeMaterials();
  } else {
    ConvertMaterials();
  }
  ConvertAnimations();
  return Finish(model, error);
}

bool Converter::ConvertSceneMeshes(std::string* error) {
  // Progress is measured in vertices, the bulk of the work.
  uint64_t all_vertices = 0, done_vertices = 0;
  for (const aiNode* node : nodes_) {
    for (unsigned m = 0; node->mMeshes && m < node->mNumMeshes; ++m) {
      const unsigned index = node->mMeshes[m];
      if (index < scene_->mNumMeshes && scene_->mMeshes && scene_->mMeshes[index]) {
        all_vertices += scene_->mMeshes[index]->mNumVertices;
      }
    }
  }
  // Each Assimp mesh is freed right after its last use, so that Assimp's copy and ours do not
  // both stay in memory (the peak of a large import).
  std::vector<std::pair<size_t, unsigned>> last_use(scene_->mMeshes ? scene_->mNumMeshes : 0);
  for (size_t j = 0; j < nodes_.size(); ++j) {
    for (unsigned m = 0; nodes_[j]->mMeshes && m < nodes_[j]->mNumMeshes; ++m) {
      if (nodes_[j]->mMeshes[m] < last_use.size()) last_use[nodes_[j]->mMeshes[m]] = {j, m};
    }
  }
  std::vector<char> freed(last_use.size(), 0), counted(last_use.size(), 0);
  for (size_t j = 0; j < nodes_.size(); ++j) {
    const aiNode* node = nodes_[j];
    for (unsigned m = 0; node->mMeshes && m < node->mNumMeshes; ++m) {
      const unsigned index = node->mMeshes[m];
      if (index >= scene_->mNumMeshes || !scene_->mMeshes || !scene_->mMeshes[index] ||
          freed[index]) {
        *error = "node " + Quoted(names_[j]) + " refers to a mesh that does not exist";
        return false;
      }
      if (progress_->Cancelled()) {
        *error = "cancelled";
        return false;
      }
      const bool first_use = !counted[index];
      counted[index] = 1;
      if (!ConvertMesh(scene_->mMeshes[index], static_cast<int>(j), first_use, error)) {
        return false;
      }
      done_vertices += scene_->mMeshes[index]->mNumVertices;
      if (last_use[index] == std::make_pair(j, m)) {
        delete scene_->mMeshes[index];
        scene_->mMeshes[index] = nullptr;
        freed[index] = 1;
      }
      progress_->Report(
          static_cast<float>(static_cast<double>(done_vertices) /
                             static_cast<double>(std::max<uint64_t>(all_vertices, 1))));
    }
  }
  return true;
}

bool Converter::Finish(Model* model, std::string* error) {
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
                        " used by several nodes (e.g. " + Quoted(*ambiguous_names_.begin()) +
                        "); bones and animations bind to the first such node");
  }
  if (!missing_bones_.empty()) {
    warnings_.push_back(Plural(missing_bones_.size(), "bone refers", "bones refer") +
                        " to no node (e.g. " + Quoted(*missing_bones_.begin()) +
                        "); their weights were dropped");
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
                        (unweighted_ == 1 ? " no weight; it follows its mesh's node"
                                          : " no weight; they follow their mesh's node"));
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

// The error is one short line: Assimp's messages may hold line breaks and control characters, and
// may quote much of the file.
LoadResult Fail(const std::string& path, const std::string& reason) {
  LoadResult result;
  result.error = path + ": " + Excerpt(reason, kMaxMessageBytes);
  while (!result.error.empty() && result.error.back() == ' ') result.error.pop_back();
  return result;
}

std::string LowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// Leading decimal digits of `token` as a number (0 when there are none, as Assimp's strtoul10),
// saturating far above any real count.
uint64_t LeadingNumber(std::string_view token) {
  uint64_t v = 0;
  for (char c : token) {
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    v = v > UINT64_MAX / 16 ? UINT64_MAX / 16 : v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// OFF: an optional keyword (OFF, COFF, NOFF, STOFF...), then vertex, face and edge counts; '#'
// starts a comment. Like Assimp, a count is the leading digits of its token, a file without the
// keyword has its counts first, and digits glued to the keyword ("OFF999") are the first count.
bool OffCountsFit(std::string_view head, uint64_t size, std::string* reason) {
  std::vector<uint64_t> counts;
  size_t i = 0;
  bool first_token = true;
  while (i < head.size() && counts.size() < 2) {
    const char c = head[i];
    if (c == '#') {
      while (i < head.size() && head[i] != '\n') ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < head.size() && !std::isspace(static_cast<unsigned char>(head[i])) &&
           head[i] != '#') {
      ++i;
    }
    std::string_view token = head.substr(start, i - start);
    if (first_token) {
      first_token = false;
      const size_t keyword = token.find("OFF");
      if (keyword != std::string_view::npos) {
        token.remove_prefix(keyword + 3);
        if (token.empty()) continue;
      }
    }
    if (!std::isdigit(static_cast<unsigned char>(token[0]))) break;  // Assimp will complain
    counts.push_back(LeadingNumber(token));
  }
  // A vertex takes at least "0 0 0\n", a face at least "0\n".
  const char* const what[2] = {"vertices", "faces"};
  const uint64_t min_bytes[2] = {6, 2};
  for (size_t k = 0; k < counts.size(); ++k) {
    if (counts[k] > size / min_bytes[k]) {
      *reason = "its header claims " + std::to_string(counts[k]) + " " + what[k] +
                ", more than its " + std::to_string(size) + " bytes can hold (corrupt file)";
      return false;
    }
  }
  return true;
}

// PLY: "element <name> <count>" lines up to end_header; every element takes at least a byte.
bool PlyCountsFit(std::string_view head, uint64_t size, std::string* reason) {
  size_t line_start = 0;
  while (line_start < head.size()) {
    size_t line_end = head.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = head.size();
    const std::string_view line = head.substr(line_start, line_end - line_start);
    if (line.substr(0, 10) == "end_header") break;
    if (line.substr(0, 8) == "element ") {
      const size_t last_space = line.find_last_of(' ');
      std::string_view number = line.substr(last_space + 1);
      if (!number.empty() && number.back() == '\r') number.remove_suffix(1);
      const bool digits = !number.empty() && std::all_of(number.begin(), number.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      });
      const uint64_t count = LeadingNumber(number);
      if (digits && count > size) {
        *reason = "its header claims " + std::to_string(count) + " " +
                  Quoted(line.substr(8, last_space - 8)) + " elements, more than its " +
                  std::to_string(size) + " bytes can hold (corrupt file)";
        return false;
      }
    }
    line_start = line_end + 1;
  }
  return true;
}

// Collada, as Assimp 5.2.5 reads it: a count="N" attribute reserves N elements, and the index
// lists (<p>, <h>, <vcount>, <v>) are read number by number until their end, so a character that
// is not a digit or a space makes the reader add zeros without end. Both are checked on the whole
// file first, and the <vcount> weights together must fit in it too.
bool ColladaFits(std::string_view text, uint64_t size, std::string* reason) {
  for (size_t at = text.find("count=\""); at != std::string_view::npos;
       at = text.find("count=\"", at + 7)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) {
      continue;  // "vcount=..." or another attribute ending in "count"
    }
    const uint64_t count = LeadingNumber(text.substr(at + 7));
    if (count > size) {
      *reason = "it claims " + std::to_string(count) + " elements (count=\"...\"), more than its " +
                std::to_string(size) + " bytes can hold (corrupt file)";
      return false;
    }
  }
  for (const char* tag : {"<p>", "<h>", "<vcount>", "<v>"}) {
    const std::string_view open(tag);
    for (size_t at = text.find(open); at != std::string_view::npos; at = text.find(open, at + 1)) {
      const size_t begin = at + open.size();
      const size_t end = std::min(text.find('<', begin), text.size());
      const std::string_view content = text.substr(begin, end - begin);
      const auto bad = std::find_if(content.begin(), content.end(), [](char c) {
        return !std::isdigit(static_cast<unsigned char>(c)) && c != ' ' && c != '\t' && c != '\r' &&
               c != '\n';
      });
      if (bad != content.end()) {
        *reason = "its " + std::string(tag) +
                  " element holds something other than numbers (corrupt file)";
        return false;
      }
      if (open == "<vcount>") {
        uint64_t total = 0;
        for (std::string_view number : Tokens(content)) {
          total = std::min<uint64_t>(total + LeadingNumber(number), UINT64_MAX / 16);
        }
        if (total > size) {
          *reason = "its <vcount> claims " + std::to_string(total) + " entries, more than its " +
                    std::to_string(size) + " bytes can hold (corrupt file)";
          return false;
        }
      }
    }
  }
  return true;
}

// MD5 meshes, as Assimp 5.2.5 reads them: "numtris" sizes a mesh's triangle list and each "tri"
// line fills one, and triangle corners, vertex weight ranges and weight joints index their lists
// unchecked. A mesh must list each of its triangles, and every index must be in range.
bool Md5MeshFits(std::string_view text, std::string* reason) {
  struct Mesh {
    uint64_t verts = 0, tris = 0, weights = 0;
    std::vector<uint64_t> tri_indices;
    uint64_t max_corner = 0, max_weight_end = 0, max_bone = 0, max_vert = 0, max_weight = 0;
    bool any_tri = false, any_vert = false, any_weight = false;
  };
  uint64_t joints = 0;
  std::string block;
  Mesh mesh;
  size_t mesh_index = 0;
  auto fail = [&](const std::string& what) {
    *reason = "mesh " + std::to_string(mesh_index) + " " + what + " (corrupt file)";
    return false;
  };
  size_t line_start = 0;
  while (line_start <= text.size()) {
    size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::vector<std::string_view> t = Tokens(text.substr(line_start, line_end - line_start));
    line_start = line_end + 1;
    if (t.empty() || t[0].substr(0, 2) == "//") continue;
    if (block.empty()) {
      if (t.size() >= 2 && t.back() == "{") block = std::string(t[0]);
      if (block == "mesh") mesh = Mesh();
      continue;
    }
    if (t[0] == "}") {
      if (block == "mesh") {
        std::sort(mesh.tri_indices.begin(), mesh.tri_indices.end());
        mesh.tri_indices.erase(std::unique(mesh.tri_indices.begin(), mesh.tri_indices.end()),
                               mesh.tri_indices.end());
        if (mesh.tri_indices.size() != mesh.tris ||
            (!mesh.tri_indices.empty() && mesh.tri_indices.back() >= mesh.tris)) {
          return fail("declares " + std::to_string(mesh.tris) + " triangles but lists " +
                      std::to_string(mesh.tri_indices.size()));
        }
        if (mesh.any_tri && mesh.max_corner >= mesh.verts) {
          return fail("has a triangle using vertex " + std::to_string(mesh.max_corner) + " of " +
                      std::to_string(mesh.verts));
        }
        if (mesh.any_vert && mesh.max_vert >= mesh.verts) {
          return fail("lists vertex " + std::to_string(mesh.max_vert) + " of " +
                      std::to_string(mesh.verts));
        }
        if (mesh.any_vert && mesh.max_weight_end > mesh.weights) {
          return fail("has a vertex using weights past its " + std::to_string(mesh.weights));
        }
        if (mesh.any_weight && mesh.max_weight >= mesh.weights) {
          return fail("lists weight " + std::to_string(mesh.max_weight) + " of " +
                      std::to_string(mesh.weights));
        }
        // Weights that are not listed are joint 0's.
        if ((mesh.any_weight && mesh.max_bone >= joints) || (mesh.weights > 0 && joints == 0)) {
          return fail("has a weight on joint " + std::to_string(mesh.max_bone) + " of " +
                      std::to_string(joints));
        }
        ++mesh_index;
      }
      block.clear();
      continue;
    }
    if (block == "joints") {
      ++joints;
    } else if (block == "mesh") {
      auto number = [&](size_t k) { return k < t.size() ? LeadingNumber(t[k]) : 0; };
      if (t[0] == "numverts") {
        mesh.verts = number(1);
      } else if (t[0] == "numtris") {
        mesh.tris = number(1);
      } else if (t[0] == "numweights") {
        mesh.weights = number(1);
      } else if (t[0] == "tri") {
        if (mesh.tri_indices.size() > text.size()) return fail("lists too many triangles");
        mesh.tri_indices.push_back(number(1));
        for (size_t k = 2; k < 5; ++k) mesh.max_corner = std::max(mesh.max_corner, number(k));
        mesh.any_tri = true;
      } else if (t[0] == "vert") {
        mesh.max_vert = std::max(mesh.max_vert, number(1));
        // "vert i ( u v ) first count": the two numbers after the closing parenthesis.
        size_t close = 0;
        while (close < t.size() && t[close].find(')') == std::string_view::npos) ++close;
        const uint64_t end = number(close + 1) + std::min<uint64_t>(number(close + 2), 1u << 30);
        mesh.max_weight_end = std::max(mesh.max_weight_end, end);
        mesh.any_vert = true;
      } else if (t[0] == "weight") {
        mesh.max_weight = std::max(mesh.max_weight, number(1));
        mesh.max_bone = std::max(mesh.max_bone, number(2));
        mesh.any_weight = true;
      }
    }
  }
  return true;
}

// Formats whose readers in Assimp 5.2.5 trust counts or indices in the file (OFF, PLY, Collada,
// MD5): checked before Assimp reads the file, so that a few hundred bytes cannot make it reserve
// gigabytes, loop without end or read out of bounds. `bytes` holds the start of the file (all of
// it for .dae and .md5mesh), `file_size` its whole size.
bool DeclaredCountsFit(const std::string& path, const std::vector<uint8_t>& bytes,
                       uint64_t file_size, std::string* reason) {
  const std::string ext = LowerExtension(path);
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (ext == ".off") return OffCountsFit(text.substr(0, kHeaderBytes), file_size, reason);
  if (ext == ".ply") return PlyCountsFit(text.substr(0, kHeaderBytes), file_size, reason);
  if (ext == ".dae") return ColladaFits(text, file_size, reason);
  if (ext == ".md5mesh") return Md5MeshFits(text, reason);
  return true;
}

// Extensions whose checks above need the whole file.
bool NeedsWholeFile(const std::string& path) {
  const std::string ext = LowerExtension(path);
  return ext == ".dae" || ext == ".md5mesh";
}

LoadResult LoadModelUnchecked(const std::string& path, Progress* progress, ModelFiles* files,
                              bool native_meshes) {
  // Stages and their share of the progress bar, roughly by their time on large files.
  progress->Stage(0.0f, 0.05f);
  // Only glTF is read whole here (for the pre-pass); for other formats the header checks need the
  // first few KiB and Assimp reads the file itself.
  std::vector<uint8_t> bytes;
  std::string reason;
  uint64_t file_size = 0;
  if (ReadModelBytes(files, &bytes, &reason, kHeaderBytes, &file_size) != ReadStatus::kOk) {
    return Fail(path, reason);
  }
  const bool is_gltf = gltf::LooksLikeGltf(path, bytes);
  if (is_gltf && bytes.size() < file_size) {
    // A .glb up to its binary chunk's header (the chunk itself is read per accessor); a .gltf
    // whole.
    size_t wanted = SIZE_MAX;
    if (bytes.size() >= 16 && std::memcmp(bytes.data(), "glTF", 4) == 0) {
      uint32_t json_length = 0;
      std::memcpy(&json_length, bytes.data() + 12, 4);
      wanted = static_cast<size_t>(std::min<uint64_t>(file_size, 20 + uint64_t{json_length} + 8));
    }
    if (wanted > bytes.size() &&
        ReadModelBytes(files, &bytes, &reason, wanted) != ReadStatus::kOk) {
      return Fail(path, reason);
    }
  }
  if (progress->Cancelled()) return Fail(path, "cancelled");

  if (!is_gltf && NeedsWholeFile(path) && bytes.size() < file_size &&
      ReadModelBytes(files, &bytes, &reason) != ReadStatus::kOk) {
    return Fail(path, reason);
  }
  if (!DeclaredCountsFit(path, bytes, file_size, &reason)) return Fail(path, reason);

  progress->Stage(0.05f, 0.15f);
  gltf::Prepass prepass;
  gltf::PrepareOptions prepare_options;
  prepare_options.native_meshes = native_meshes;
  prepare_options.files = files;
  if (is_gltf && !gltf::Prepare(path, bytes, file_size, prepare_options, &prepass, &reason)) {
    return Fail(path, reason);
  }
  // Assimp reads the file again itself (or the pre-pass's patched copy).
  bytes = std::vector<uint8_t>();
  if (progress->Cancelled()) return Fail(path, "cancelled");

  progress->Stage(0.15f, 0.75f);
  // What Assimp was refused (side files outside the folder, FIFOs...), for the user.
  std::vector<std::string> refusals;
  // One configured importer per attempt: Assimp's readers keep state between reads.
  auto make_importer = [&]() {
    auto importer = std::make_unique<Assimp::Importer>();
    importer->SetProgressHandler(new AssimpProgress(progress));
    importer->SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                                 aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    importer->SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
    // A file with bones but no mesh must load as a bare skeleton, not with a generated mesh.
    importer->SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
    importer->SetIOHandler(new GuardedIOSystem(files, &prepass.patched, &refusals));
    return importer;
  };
  std::unique_ptr<Assimp::Importer> importer = make_importer();
  // No flag here flattens or pre-transforms the hierarchy: joints are nodes and must stay nodes.
  // No aiProcess_JoinIdenticalVertices: the converter welds identical vertices itself in linear
  // time (Assimp's step is quadratic in bone weights: 43 s on a 1M-vertex skinned mesh).
  const unsigned flags = aiProcess_Triangulate | aiProcess_GenSmoothNormals | aiProcess_SortByPType;
  // Parsing (with validation, as ReadFile would run it first) and post-processing are two calls,
  // so that a cancel between them skips the post-processing; the result is the same as one call.
  const aiScene* scene = importer->ReadFile(path, aiProcess_ValidateDataStructure);
  std::string assimp_error = scene ? std::string() : importer->GetErrorString();
  bool skeleton_only = false;
  if (!scene && assimp_error.find("At least one mesh must be there") != std::string::npos &&
      !progress->Cancelled()) {
    // Assimp's validation refuses scenes without meshes, but an animated skeleton alone (BVH,
    // a mesh-less FBX) is worth showing. Only nodes and animations of such a scene are used, and
    // the converter checks both as it copies them, so it is read again without validation.
    importer = make_importer();
    scene = importer->ReadFile(path, 0);
    skeleton_only = scene && scene->mNumMeshes == 0;
    if (!skeleton_only) scene = nullptr;  // it had meshes after all: keep the first verdict
  }
  if (scene && progress->Cancelled()) return Fail(path, "cancelled");
  if (scene && !skeleton_only) {
    scene = importer->ApplyPostProcessing(flags);
    if (!scene) assimp_error = importer->GetErrorString();
  }
  if (progress->Cancelled()) return Fail(path, "cancelled");
  if (!scene) {
    std::string message = assimp_error;
    if (message.find("No suitable reader found") != std::string::npos) {
      return Fail(path, "not a 3D model format Assimp can read");
    }
    if (message.find("bad_alloc") != std::string::npos) {
      return Fail(path, "out of memory while Assimp read it (the file may claim huge counts)");
    }
    if (message.find("No meshes remaining") != std::string::npos) {
      return Fail(path, "nothing to show: the file has only points or lines, no triangles");
    }
    message = message.empty() ? "unknown error" : Excerpt(message, kMaxLibraryMessageBytes);
    // A refused side file is often why (e.g. a glTF 1.0 buffer outside the folder).
    if (!refusals.empty()) message += " (" + refusals.front() + ")";
    return Fail(path, "Assimp could not read it: " + message);
  }
  Model model;
  model.source = path;
  const bool synthetic_root = is_gltf && prepass.is_gltf2 && !prepass.preorder_nodes.empty() &&
                              prepass.preorder_nodes[0] < 0;
  progress->Stage(0.75f, 0.98f);
  // The converter frees Assimp's meshes as it goes: the scene is the importer's, but nothing
  // reads it after the conversion and aiScene's destructor skips the freed (null) entries.
  Converter converter(const_cast<aiScene*>(scene), path, synthetic_root, /*weld=*/true, progress,
                      files);
  if (prepass.native_meshes) converter.UseNativeMeshes(&prepass);
  if (!converter.Run(&model, &reason)) {
    if (prepass.native_meshes && reason == Converter::kMisaligned) {
      // Cannot happen for a valid scene walk; if it does, let Assimp read the meshes.
      return LoadModelUnchecked(path, progress, files, /*native_meshes=*/false);
    }
    return Fail(path, reason);
  }
  importer->FreeScene();  // the Model holds everything now
  std::vector<std::string> warnings = prepass.warnings;
  for (std::string& w : refusals) warnings.push_back(std::move(w));
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
  for (Clip& clip : model.clips) PrepareClip(&clip);
  for (std::string& w : warnings) w = Excerpt(w, kMaxMessageBytes);
  model.warnings = warnings;
  model.source_files = files->files_read();
  if (progress->Cancelled()) return Fail(path, "cancelled");
  progress->Done();
  LoadResult result;
  result.warnings = std::move(warnings);
  result.model = std::move(model);
  return result;
}

}  // namespace

uint64_t DecodeBudget(uint64_t source_bytes) {
  if (source_bytes > (kMaxDecodeBytes - kDecodeBudgetBase) / kDecodeBudgetPerByte) {
    return kMaxDecodeBytes;
  }
  return kDecodeBudgetBase + kDecodeBudgetPerByte * source_bytes;
}

LoadResult LoadModel(const std::string& path) { return LoadModel(path, LoadOptions()); }

LoadResult LoadModel(const std::string& path, const LoadOptions& options) {
  try {
    Progress progress(options);
    ModelFiles files(path, options.allow_outside_files);
    return LoadModelUnchecked(path, &progress, &files, /*native_meshes=*/true);
  } catch (const std::bad_alloc&) {
    return Fail(path, "out of memory while loading");
  } catch (const std::exception& e) {
    return Fail(path, std::string("unexpected error while loading: ") + e.what());
  } catch (...) {
    return Fail(path, "unexpected error while loading");
  }
}

}  // namespace assets
