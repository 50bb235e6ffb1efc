// What every import path does with a format's data once it has read it: meshes cleaned up,
// welded and counted into the Model, textures decoded within the pixel limits, rest transforms
// taken from matrices, the skeleton built, and the repairs reported once per file. The glTF
// reader's model builder (gltf_model.cpp) and the Assimp scene converter derive from it.
// Internal to assets/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "assets/files/load_progress.h"
#include "assets/files/model_files.h"
#include "assets/model/mesh_cleanup.h"
#include "assets/model/model.h"
#include "ik/core/skeleton.h"
#include "ik/core/transform.h"

namespace assets {

// Animation keys later than this (seconds, about 11.6 days) are dropped as corrupt, in every
// format.
inline constexpr float kMaxKeyTime = 1.0e6f;

class ModelBuilder {
 public:
  // `path`: the model file, for messages. weld: merge identical vertices (WeldIdenticalVertices).
  // files: how texture files are opened (the import's rules and record).
  ModelBuilder(std::string path, bool weld, LoadProgress* progress, ModelFiles* files)
      : path_(std::move(path)), weld_(weld), progress_(progress), files_(files) {}

  std::vector<std::string>& warnings() { return warnings_; }
  // Textures are checked but not decoded, and materials get none (LoadOptions::texture_pixels).
  void SkipTexturePixels() { texture_pixels_wanted_ = false; }

  // Whether every element of `m` is finite and within kMaxCoordinate.
  static bool WithinLimits(const glm::mat4& m);
  // `local` as translation-rotation-scale into *rest; false when T·R·S cannot hold it (shear,
  // projection, or a zero scale: then translation and axis lengths are kept, without rotation).
  static bool RestFromMatrix(const glm::mat4& local, ik::Transform* rest);
  // Renames repeats Blender's way: the second NAME becomes NAME.001, the next NAME.002, each the
  // first such name no other entry has (as given or as renamed). Returns how many were renamed;
  // the first is described in *example ("'A' is now 'A.001'").
  static size_t MakeNamesUnique(const std::vector<std::string*>& names, std::string* example);

 protected:
  ~ModelBuilder() = default;

  // Counts a mesh instance against kMaxVertices, kMaxTriangles and the decode budget of the
  // bytes read so far; fails naming the limit.
  bool CountInstance(size_t vertices, size_t triangles, std::string* error);
  // Welds the mesh (when weld_) carrying the per-vertex repair flags and `counts` (influences
  // per vertex, or empty), counts what was repaired when count_repairs — weight repairs by
  // source vertex (unique positions, see CountWeightRepairs) when `by_position`, else by welded
  // vertex; normals by welded vertex — and adds the mesh to the model.
  void AddMesh(Mesh mesh, std::vector<uint8_t>* flags, std::vector<uint8_t> counts,
               bool count_repairs, bool by_position);

  // Decodes an image if it fits the texture limits; false with the reason otherwise.
  bool DecodeTexture(const uint8_t* data, size_t size, Texture* texture, std::string* reason);
  // Whether a width x height texture fits kMaxTexturePixels and, with the textures decoded so
  // far, kMaxTotalTexturePixels.
  bool TexturePixelsFit(int width, int height, std::string* reason) const;
  // Reads and decodes an image file if it fits the texture limits (its header is checked first).
  bool ReadTextureFile(const InputFile& file, Texture* texture, std::string* reason);
  // Reads and decodes the texture file a model names (a URI: percent-decoded), relative to the
  // model's folder or absolute: the path as given, then its file name in the model's folder
  // (exporters often store the path on the artist's machine). Through files_'s rules.
  bool LoadTextureFile(const std::string& reference, Texture* texture, std::string* reason);
  // Adds a loaded texture to the model and returns its index; -1 (nothing added) when texture
  // pixels are not wanted.
  int KeepTexture(Texture&& texture);
  // Counts the pixels of a texture decoded outside DecodeTexture (raw texels).
  void CountTexturePixels(uint64_t pixels) { texture_pixels_ += pixels; }
  // The warning for a texture left out.
  void WarnTexture(const std::string& reference, const std::string& material,
                   const std::string& reason);

  // Rest locals of joints: `approximated` counts transforms T·R·S could not hold (warned once in
  // NameJoints).
  void CountApproximated() { ++approximated_; }
  // Makes the joints' names unique (with a warning) and warns about approximated transforms.
  void NameJoints(std::vector<ik::JointDesc>* descs);
  // The model's skeleton from `descs`; fails with the reason when it cannot be built or the scene
  // is empty (no meshes and at most one node).
  bool BuildSkeleton(const std::vector<ik::JointDesc>& descs, std::string* error);
  // One warning per kind of repair counted while meshes were added.
  void WarnRepairs();

  std::string path_;
  bool weld_ = false;
  LoadProgress* progress_;
  ModelFiles* files_;
  Model* model_ = nullptr;
  std::vector<std::string> warnings_;

  // Repair counters, reported once per file, first instance of each mesh: weight repairs in the
  // file's vertices (see AddMesh), normals after welding.
  size_t bad_weights_ = 0;
  size_t skipped_faces_ = 0, skipped_meshes_ = 0;
  std::set<std::string> missing_bones_;

 private:
  // Mesh instances converted so far, against kMaxVertices, kMaxTriangles and the decode budget.
  uint64_t total_vertices_ = 0, total_triangles_ = 0;
  // Texture pixels decoded so far, against kMaxTotalTexturePixels.
  uint64_t texture_pixels_ = 0;
  bool texture_pixels_wanted_ = true;
  WeightRepairCounts weight_repairs_;
  size_t repaired_normals_ = 0;
  size_t approximated_ = 0;
};

}  // namespace assets
