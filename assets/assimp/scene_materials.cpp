// Materials and their textures from Assimp's scene into a Model; every texture is checked against
// the pixel limits before it is decoded (model_builder.cpp).
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "assets/assimp/scene_converter.h"
#include "assets/files/image_decode.h"
#include "assets/files/limits.h"
#include "assets/files/messages.h"

namespace assets {

int SceneConverter::LoadTexture(const std::string& reference, const std::string& material) {
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
        CountTexturePixels(count);
        ok = true;
      }
    } else {
      reason = "embedded texture has invalid size";
    }
  } else if (!reference.empty() && reference[0] == '*') {
    reason = "embedded texture index out of range";
  } else {
    ok = LoadTextureFile(reference, &texture, &reason);
  }
  int index = -1;
  if (ok) {
    index = KeepTexture(std::move(texture));
  } else {
    WarnTexture(reference, material, reason);
  }
  texture_by_reference_[reference] = index;
  return index;
}

void SceneConverter::ConvertMaterials() {
  // Only materials some mesh uses (Assimp appends a default one to several formats), in file
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

}  // namespace assets
