// Assimp's anim meshes as morph targets (deltas from the base mesh), and a warning for the morph
// weight animations Assimp's scenes carry but skelview does not convert.
#include "assets/internal/scene_morphs.h"

#include <assimp/anim.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>

#include <cctype>
#include <cmath>

#include "assets/importer.h"
#include "assets/internal/messages.h"

namespace assets {
namespace {

bool Usable(const aiVector3D& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) &&
         std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
         std::abs(v.z) <= kMaxCoordinate;
}

// `values` minus `base` per vertex into *deltas; false (and *deltas empty) when a value is
// unusable.
bool Deltas(const aiVector3D* values, const std::vector<glm::vec3>& base,
            std::vector<glm::vec3>* deltas) {
  deltas->resize(base.size());
  for (size_t v = 0; v < base.size(); ++v) {
    if (!Usable(values[v])) {
      deltas->clear();
      return false;
    }
    (*deltas)[v] = glm::vec3(values[v].x, values[v].y, values[v].z) - base[v];
  }
  return true;
}

bool IsFbx(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".fbx";
}

}  // namespace

void ConvertAnimMeshes(const aiMesh* source, const std::string& path, Mesh* mesh,
                       std::vector<std::string>* warnings) {
  if (!source || source->mNumAnimMeshes == 0 || !source->mAnimMeshes) return;
  const bool fbx = IsFbx(path);
  const size_t n = mesh->positions.size();
  size_t dropped = 0;
  for (unsigned a = 0; a < source->mNumAnimMeshes; ++a) {
    const aiAnimMesh* anim = source->mAnimMeshes[a];
    MorphTarget target;
    float weight = 0.0f;
    if (anim) {
      target.name = anim->mName.C_Str();
      weight = !fbx && std::isfinite(anim->mWeight) && std::abs(anim->mWeight) <= 1e6f
                   ? anim->mWeight
                   : 0.0f;
      const bool sized = anim->mNumVertices == n;
      bool ok = sized &&
                (!anim->mVertices || Deltas(anim->mVertices, mesh->positions, &target.positions));
      if (ok && anim->mNormals && mesh->normals.size() == n) {
        ok = Deltas(anim->mNormals, mesh->normals, &target.normals);
      }
      if (!ok) {
        target.positions.clear();
        target.normals.clear();
        ++dropped;
      }
    } else {
      ++dropped;
    }
    mesh->targets.push_back(std::move(target));
    mesh->target_weights.push_back(weight);
  }
  if (fbx) {
    warnings->push_back("mesh " + Quoted(mesh->name) + ": Assimp does not give FBX blend-shape " +
                        "values; its " + std::to_string(source->mNumAnimMeshes) +
                        " morph targets start at weight 0");
  }
  if (dropped > 0) {
    warnings->push_back("mesh " + Quoted(mesh->name) + ": " + std::to_string(dropped) +
                        " morph targets have the wrong vertex count or non-finite values; they "
                        "move nothing");
  }
}

void WarnMorphAnimations(const aiScene* scene, std::vector<std::string>* warnings) {
  size_t channels = 0;
  for (unsigned a = 0; scene && scene->mAnimations && a < scene->mNumAnimations; ++a) {
    if (scene->mAnimations[a]) channels += scene->mAnimations[a]->mNumMorphMeshChannels;
  }
  if (channels > 0) {
    warnings->push_back(
        Plural(channels, "morph-weight animation channel", "morph-weight animation channels") +
        " from this format are not supported and were ignored");
  }
}

}  // namespace assets
