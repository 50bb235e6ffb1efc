// Materials and their textures into a Model: from Assimp's scene or from the glTF reader's
// material list; every texture is checked against the pixel limits before it is decoded.
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <utility>

#include "assets/image_decode.h"
#include "assets/importer.h"
#include "assets/internal/gltf_document.h"
#include "assets/internal/messages.h"
#include "assets/internal/scene_converter.h"

namespace assets {

bool SceneConverter::DecodeTexture(const uint8_t* data, size_t size, Texture* texture,
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

int SceneConverter::KeepTexture(Texture&& texture) {
  if (!texture_pixels_wanted_) return -1;
  model_->textures.push_back(std::move(texture));
  return static_cast<int>(model_->textures.size()) - 1;
}

bool SceneConverter::TexturePixelsFit(int width, int height, std::string* reason) const {
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
    index = KeepTexture(std::move(texture));
  } else {
    warnings_.push_back("texture " + Quoted(reference) + " of material " + Quoted(material) +
                        " could not be loaded (" + reason + "); drawn without it");
  }
  texture_by_reference_[reference] = index;
  return index;
}

bool SceneConverter::ReadTextureFile(const InputFile& file, Texture* texture, std::string* reason) {
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

void SceneConverter::ConvertNativeMaterials() {
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
            texture = KeepTexture(std::move(decoded));
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

void SceneConverter::ConvertMaterials() {
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

}  // namespace assets
