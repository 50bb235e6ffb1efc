// The format-neutral end of every import: meshes cleaned up, welded and counted, textures decoded
// within the pixel limits, rest transforms from matrices, the skeleton, the repair warnings.
#include "assets/gltf/model_builder.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include "assets/files/image_decode.h"
#include "assets/files/limits.h"
#include "assets/files/messages.h"
#include "assets/gltf/gltf_document.h"
#include "assets/model/mesh_cleanup.h"
#include "assets/model/weight_check.h"

namespace assets {

bool ModelBuilder::WithinLimits(const glm::mat4& m) {
  if (!ik::IsFinite(m)) return false;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (std::abs(m[c][r]) > kMaxCoordinate) return false;
  return true;
}

bool ModelBuilder::RestFromMatrix(const glm::mat4& local, ik::Transform* rest) {
  if (!ik::Transform::FromMatrix(local, rest)) {
    // Singular (a zero scale): keep translation and axis lengths, drop the rotation.
    *rest = ik::Transform();
    rest->translation = glm::vec3(local[3]);
    rest->scale = glm::vec3(glm::length(glm::vec3(local[0])), glm::length(glm::vec3(local[1])),
                            glm::length(glm::vec3(local[2])));
    return false;
  }
  // T·R·S cannot hold shear or projection; say so when the matrix had them.
  const glm::mat4 back = rest->ToMatrix();
  float scale = 1.0f, diff = 0.0f;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) {
      diff = std::max(diff, std::abs(back[c][r] - local[c][r]));
      scale = std::max(scale, std::abs(local[c][r]));
    }
  return diff <= 1e-4f * scale;
}

size_t ModelBuilder::MakeNamesUnique(const std::vector<std::string*>& names, std::string* example) {
  std::set<std::string> taken;
  for (const std::string* n : names) taken.insert(*n);
  std::set<std::string> seen;
  size_t renamed = 0;
  for (std::string* n : names) {
    if (seen.insert(*n).second) continue;
    std::string candidate;
    for (int k = 1;; ++k) {
      char suffix[16];
      std::snprintf(suffix, sizeof(suffix), ".%03d", k);
      candidate = *n + suffix;
      if (!taken.count(candidate)) break;
    }
    if (renamed++ == 0) *example = Quoted(*n) + " is now " + Quoted(candidate);
    taken.insert(candidate);
    seen.insert(candidate);
    *n = candidate;
  }
  return renamed;
}

bool ModelBuilder::CountInstance(size_t vertices, size_t triangles, std::string* error) {
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

void ModelBuilder::AddMesh(Mesh mesh, std::vector<uint8_t>* flags, std::vector<uint8_t> counts,
                           bool count_repairs, bool by_position) {
  // By position before welding (it merges corners only when everything matches); otherwise the
  // welded vertices, so that a file's exact duplicates count once.
  if (count_repairs && by_position) {
    CountWeightRepairs(mesh, *flags, counts, true, &weight_repairs_);
  }
  if (weld_) WeldIdenticalVertices(&mesh, flags, &counts);
  if (count_repairs && !by_position) {
    CountWeightRepairs(mesh, *flags, counts, false, &weight_repairs_);
  }
  if (count_repairs) {
    for (uint8_t f : *flags) repaired_normals_ += (f & kRepairNormal) ? 1 : 0;
  }
  RecordWeightFlags(*flags, &mesh);
  model_->meshes.push_back(std::move(mesh));
}

bool ModelBuilder::DecodeTexture(const uint8_t* data, size_t size, Texture* texture,
                                 std::string* reason) {
  int width = 0, height = 0;
  if (!ReadImageSize(data, size, &width, &height, reason)) return false;
  const uint64_t pixels = uint64_t(width) * uint64_t(height);
  if (!TexturePixelsFit(width, height, reason)) return false;
  if (!texture_pixels_wanted_) {
    texture->width = width;
    texture->height = height;
  } else if (!DecodeImage(data, size, texture, reason)) {
    return false;
  }
  texture_pixels_ += pixels;
  return true;
}

int ModelBuilder::KeepTexture(Texture&& texture) {
  if (!texture_pixels_wanted_) return -1;
  model_->textures.push_back(std::move(texture));
  return static_cast<int>(model_->textures.size()) - 1;
}

bool ModelBuilder::TexturePixelsFit(int width, int height, std::string* reason) const {
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

bool ModelBuilder::ReadTextureFile(const InputFile& file, Texture* texture, std::string* reason) {
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

bool ModelBuilder::LoadTextureFile(const std::string& reference, Texture* texture,
                                   std::string* reason) {
  const std::string file = gltf::PercentDecode(reference);
  std::vector<std::string> candidates = {file};
  const std::string name = std::filesystem::path(file).filename().string();
  if (!name.empty() && name != file) candidates.push_back(name);
  *reason = "file not found";
  std::string refusal;
  for (const std::string& candidate : candidates) {
    InputFile input;
    std::string why;
    const FileStatus status = files_->OpenReference(candidate, &input, &why);
    if (status == FileStatus::kMissing) continue;
    if (status == FileStatus::kOutside) {
      if (refusal.empty()) refusal = why;
      continue;
    }
    if (status != FileStatus::kOk) {
      *reason = why;
      return false;
    }
    return ReadTextureFile(input, texture, reason);
  }
  if (!refusal.empty()) *reason = refusal;
  return false;
}

void ModelBuilder::WarnTexture(const std::string& reference, const std::string& material,
                               const std::string& reason) {
  warnings_.push_back("texture " + Quoted(reference) + " of material " + Quoted(material) +
                      " could not be loaded (" + reason + "); drawn without it");
}

void ModelBuilder::NameJoints(std::vector<ik::JointDesc>* descs) {
  // Joint names must be unique (--ik NAME, the pose JSON).
  std::vector<std::string*> joint_names;
  for (ik::JointDesc& d : *descs) joint_names.push_back(&d.name);
  std::string example;
  if (const size_t renamed = MakeNamesUnique(joint_names, &example)) {
    warnings_.push_back(Plural(renamed, "joint was", "joints were") +
                        " renamed to keep joint names unique (e.g. " + example + ")");
  }
  if (approximated_ > 0) {
    warnings_.push_back(Plural(approximated_, "node transform", "node transforms") +
                        " had shear, projection or zero scale that translation-rotation-scale "
                        "cannot hold; approximated");
  }
}

bool ModelBuilder::BuildSkeleton(const std::vector<ik::JointDesc>& descs, std::string* error) {
  if (model_->meshes.empty() && descs.size() <= 1) {
    *error = skipped_meshes_ > 0
                 ? "nothing to show: the file has only points or lines, no triangles"
                 : "the scene is empty (no meshes and no nodes besides the root)";
    return false;
  }
  std::string skeleton_error;
  auto skeleton = ik::Skeleton::Build(descs, &skeleton_error);
  if (!skeleton) {
    *error = skeleton_error;
    return false;
  }
  model_->skeleton = std::move(*skeleton);
  return true;
}

void ModelBuilder::WarnRepairs() {
  if (!missing_bones_.empty()) {
    warnings_.push_back(Plural(missing_bones_.size(), "bone refers", "bones refer") +
                        " to no node (e.g. " + Quoted(*missing_bones_.begin()) +
                        "); their weights were dropped");
  }
  const WeightRepairCounts& w = weight_repairs_;
  // The vertex counts as CheckWeights gives them to `info` and the panels: one count everywhere.
  const WeightProblems problems = CheckWeights(*model_);
  const uint64_t over_eight = problems.count(WeightProblem::kTooManyInfluences);
  const uint64_t not_normalized = problems.count(WeightProblem::kNotNormalized);
  const uint64_t unweighted = problems.count(WeightProblem::kUnweighted);
  model_->influences.over_four = w.over_four;
  model_->influences.over_eight = over_eight;
  model_->influences.dropped = w.dropped;
  if (over_eight > 0) {
    warnings_.push_back(Plural(over_eight, "vertex", "vertices") +
                        " had more than 8 joint influences: kept the 8 largest and renormalised (" +
                        Plural(w.dropped, "influence", "influences") + " dropped)");
  }
  if (not_normalized > 0) {
    warnings_.push_back(Plural(not_normalized, "vertex", "vertices") +
                        " had weights not summing to 1; renormalised");
  }
  if (unweighted > 0) {
    warnings_.push_back(Plural(unweighted, "skinned vertex has", "skinned vertices have") +
                        (unweighted == 1 ? " no weight; it follows its mesh's node"
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
}

}  // namespace assets
