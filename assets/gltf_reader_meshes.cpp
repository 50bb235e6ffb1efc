// The glTF reader's native meshes: primitives (positions, normals, tangents, uvs, the eight
// largest influences, morph targets), skins and materials decoded from the accessors, for Assimp
// never to read them.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "assets/importer.h"
#include "assets/internal/gltf_document.h"
#include "assets/internal/gltf_reader.h"
#include "assets/internal/gltf_reader_steps.h"
#include "assets/internal/mesh_cleanup.h"
#include "assets/internal/messages.h"
#include "ik/skeleton.h"

namespace assets::gltf {
namespace {

using json = Json;

// Reads a VEC3/VEC2 attribute of `count` elements into `out`; false (and no data) when the
// attribute is absent or of another shape, so that it is treated as missing.
template <typename Vec>
bool ReadOptionalAttribute(Document* d, const json& attributes, const char* key, size_t count,
                           std::vector<Vec>* out, std::string* error) {
  const auto index = IndexMember(attributes, key);
  size_t n = 0;
  int components = 0;
  constexpr int kWidth = static_cast<int>(sizeof(Vec) / sizeof(float));
  if (!index || !d->AccessorShape(*index, &n, &components) || n != count || components != kWidth ||
      count == 0) {
    return true;
  }
  out->resize(count);
  if (!d->ReadAccessorInto(*index, kWidth, count, &(*out)[0][0], error)) return false;
  return true;
}

// The eight largest positive influences per vertex over every JOINTS_n/WEIGHTS_n set, in
// descending order (ties keep file order, as a stable sort would), unnormalised.
bool ReadInfluences(Document* d, const json& attributes, Primitive* out, std::string* error) {
  const size_t n = out->positions.size();
  bool any = false;
  for (int set = 0;; ++set) {
    const auto j = IndexMember(attributes, ("JOINTS_" + std::to_string(set)).c_str());
    const auto w = IndexMember(attributes, ("WEIGHTS_" + std::to_string(set)).c_str());
    if (!j || !w) break;
    AccessorData joints, weights;
    if (!d->ReadAccessor(*j, &joints, error) || !d->ReadAccessor(*w, &weights, error)) {
      return false;
    }
    if (joints.components != 4 || weights.components != 4 || joints.count != n ||
        weights.count != n) {
      *error = "a primitive's JOINTS_" + std::to_string(set) + "/WEIGHTS_" + std::to_string(set) +
               " accessors are not VEC4 with one element per vertex";
      return false;
    }
    if (!any) {
      out->joints.assign(n, glm::u16vec4(0));
      out->weights.assign(n, glm::vec4(0.0f));
      out->influence_counts.assign(n, 0);
      any = true;
    }
    for (size_t v = 0; v < n; ++v) {
      for (size_t c = 0; c < 4; ++c) {
        const float weight = weights.values[v * 4 + c];
        const float joint = joints.values[v * 4 + c];
        if (weight == 0.0f) continue;
        if (!std::isfinite(weight) || weight < 0.0f || !(joint >= 0.0f) || joint > 65535.0f ||
            joint != std::floor(joint)) {
          ++out->invalid_influences;
          continue;
        }
        const int count = out->influence_counts[v];
        if (count < 255) out->influence_counts[v] = static_cast<uint8_t>(count + 1);
        if (count >= 4 && out->extra_weights.empty()) {
          out->extra_joints.assign(n, glm::u16vec4(0));
          out->extra_weights.assign(n, glm::vec4(0.0f));
        }
        const bool extra = !out->extra_weights.empty();
        InsertInfluence(weight, static_cast<uint16_t>(joint), std::min(count, kMaxInfluences),
                        &out->weights[v], &out->joints[v], extra ? &out->extra_weights[v] : nullptr,
                        extra ? &out->extra_joints[v] : nullptr);
      }
    }
  }
  return true;
}

// A VEC3 delta accessor of a morph target, one element per vertex with finite deltas within
// kMaxCoordinate; false (and *out empty) otherwise.
bool ReadDeltas(Document* d, int64_t index, size_t count, std::vector<glm::vec3>* out) {
  size_t n = 0;
  int components = 0;
  std::string ignored;
  out->clear();
  if (!d->AccessorShape(index, &n, &components) || n != count || components != 3) return false;
  out->resize(count);
  const bool ok = d->ReadAccessorInto(index, 3, count, &(*out)[0][0], &ignored) &&
                  std::all_of(out->begin(), out->end(), [](const glm::vec3& v) {
                    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) &&
                           std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
                           std::abs(v.z) <= kMaxCoordinate;
                  });
  if (!ok) out->clear();
  return ok;
}

// The TANGENT attribute when the primitive also has NORMAL (glTF ignores tangents without
// normals): VEC4 (float or normalized integers, dense or sparse) with one element per vertex,
// each xyz finite and not zero (normalised here; quantized tangents are only nearly unit) and w
// taken as its sign. Anything else leaves out->tangents empty and sets out->bad_tangents: a bad
// tangent array never fails the file.
void ReadTangents(Document* d, const json& attributes, Primitive* out) {
  const size_t n = out->positions.size();
  const auto index = IndexMember(attributes, "TANGENT");
  if (!index || out->normals.empty()) return;
  size_t count = 0;
  int components = 0;
  std::string ignored;
  out->bad_tangents =
      !d->AccessorShape(*index, &count, &components) || count != n || components != 4 || n == 0;
  if (out->bad_tangents) return;
  out->tangents.resize(n);
  out->bad_tangents = !d->ReadAccessorInto(*index, 4, n, &out->tangents[0][0], &ignored);
  for (size_t v = 0; v < n && !out->bad_tangents; ++v) {
    glm::vec4& t = out->tangents[v];
    const float length = glm::length(glm::vec3(t));
    out->bad_tangents = !std::isfinite(length) || !(length > 1e-6f) || !std::isfinite(t.w);
    if (!out->bad_tangents) t = glm::vec4(glm::vec3(t) / length, t.w < 0.0f ? -1.0f : 1.0f);
  }
  if (out->bad_tangents) out->tangents = std::vector<glm::vec4>();
}

// The primitive's morph targets (POSITION, NORMAL and TANGENT deltas). A bad POSITION or NORMAL
// keeps the target's slot without deltas; a bad TANGENT drops only its tangent deltas, and
// tangent deltas are dropped altogether when the primitive keeps no tangents.
void ReadTargets(Document* d, const json& primitive, Primitive* out) {
  const size_t n = out->positions.size();
  for (const json& target : ArrayMember(primitive, "targets")) {
    MorphTarget morph;
    bool ok = target.is_object();
    for (const char* key : {"POSITION", "NORMAL"}) {
      const auto index = ok ? IndexMember(target, key) : std::nullopt;
      if (!index) continue;
      std::vector<glm::vec3>* deltas =
          std::strcmp(key, "POSITION") == 0 ? &morph.positions : &morph.normals;
      ok = ReadDeltas(d, *index, n, deltas);
    }
    if (!ok) {
      morph = MorphTarget();
      ++out->dropped_targets;
    }
    const auto tangent =
        ok && !out->tangents.empty() ? IndexMember(target, "TANGENT") : std::nullopt;
    if (tangent && !ReadDeltas(d, *tangent, n, &morph.tangents)) ++out->dropped_target_tangents;
    out->targets.push_back(std::move(morph));
  }
}

bool DecodePrimitive(Document* d, const json& primitive, size_t materials, Primitive* out,
                     std::string* error) {
  const int64_t mode = IntMember(primitive, "mode", 4);
  const json* attributes = Member(primitive, "attributes");
  const auto position = attributes ? IndexMember(*attributes, "POSITION") : std::nullopt;
  size_t n = 0;
  int components = 0;
  if ((mode != 4 && mode != 5 && mode != 6) || !position ||
      !d->AccessorShape(*position, &n, &components) || n == 0) {
    out->triangles = false;  // points, lines, or nothing to draw
    return true;
  }
  if (components != 3) {
    *error = "a primitive's POSITION accessor is not VEC3";
    return false;
  }
  out->positions.resize(n);
  if (!d->ReadAccessorInto(*position, 3, n, &out->positions[0][0], error) ||
      !ReadOptionalAttribute(d, *attributes, "NORMAL", n, &out->normals, error) ||
      !ReadOptionalAttribute(d, *attributes, "TEXCOORD_0", n, &out->uvs, error) ||
      !ReadInfluences(d, *attributes, out, error)) {
    return false;
  }
  ReadTangents(d, *attributes, out);
  ReadTargets(d, primitive, out);
  std::vector<uint32_t> corners;
  if (const auto indices = IndexMember(primitive, "indices")) {
    if (!d->ReadIndices(*indices, &corners, error)) return false;
  } else {
    corners.resize(n);
    for (size_t i = 0; i < n; ++i) corners[i] = static_cast<uint32_t>(i);
  }
  auto add = [&](uint32_t a, uint32_t b, uint32_t c) {
    if (a >= n || b >= n || c >= n) {
      ++out->dropped_triangles;
      return;
    }
    out->indices.insert(out->indices.end(), {a, b, c});
  };
  if (mode == 4) {
    corners.resize(corners.size() - corners.size() % 3);
    const bool all_valid =
        std::all_of(corners.begin(), corners.end(), [n](uint32_t c) { return c < n; });
    if (all_valid) {
      out->indices = std::move(corners);  // the common case: taken as it is
    } else {
      out->indices.reserve(corners.size());
      for (size_t i = 0; i + 2 < corners.size(); i += 3) {
        add(corners[i], corners[i + 1], corners[i + 2]);
      }
    }
  } else if (mode == 5) {  // strip: every other triangle flipped to keep the winding
    for (size_t i = 0; i + 2 < corners.size(); ++i) {
      if (i % 2 == 0) {
        add(corners[i], corners[i + 1], corners[i + 2]);
      } else {
        add(corners[i + 1], corners[i], corners[i + 2]);
      }
    }
  } else {  // fan around the first corner
    for (size_t i = 1; i + 1 < corners.size(); ++i) add(corners[0], corners[i], corners[i + 1]);
  }
  if (out->indices.empty()) out->triangles = false;
  const auto material = IndexMember(primitive, "material");
  out->material =
      material && *material < static_cast<int64_t>(materials) ? static_cast<int>(*material) : -1;
  return true;
}

// Names from extras.targetNames and default weights from `weights` for a mesh's primitives.
void NameAndWeighTargets(const json& mesh, std::vector<Primitive>* primitives) {
  const json* extras = Member(mesh, "extras");
  const json* names = extras && extras->is_object() ? Member(*extras, "targetNames") : nullptr;
  const std::vector<float> weights = FiniteNumbers(Member(mesh, "weights"));
  const bool has_weights = Member(mesh, "weights") != nullptr;
  for (Primitive& p : *primitives) {
    const size_t count = p.targets.size();
    if (count == 0) continue;
    for (size_t t = 0; names && names->is_array() && t < std::min(count, names->size()); ++t) {
      if ((*names)[t].is_string()) p.targets[t].name = (*names)[t].get<std::string>();
    }
    p.bad_weights = has_weights && weights.size() != count;
    p.target_weights = weights.size() == count ? weights : std::vector<float>(count, 0.0f);
  }
}

}  // namespace

std::vector<float> FiniteNumbers(const json* array) {
  std::vector<float> numbers;
  if (!array || !array->is_array()) return numbers;
  for (const json& v : *array) {
    const double x = v.is_number() ? v.get<double>() : std::nan("");
    if (!std::isfinite(x) || std::abs(x) > 1e30) return {};
    numbers.push_back(static_cast<float>(x));
  }
  return numbers;
}

bool ReadMeshes(Document* d, Contents* out, std::string* error) {
  const json& meshes = ArrayMember(d->root, "meshes");
  const size_t materials = ArrayMember(d->root, "materials").size();
  out->meshes.resize(meshes.size());
  for (size_t m = 0; m < meshes.size(); ++m) {
    const json& primitives = ArrayMember(meshes[m], "primitives");
    std::string name = StringMember(meshes[m], "name");
    if (name.empty()) name = "meshes[" + std::to_string(m) + "]";
    out->meshes[m].resize(primitives.size());
    for (size_t p = 0; p < primitives.size(); ++p) {
      Primitive& primitive = out->meshes[m][p];
      primitive.name = primitives.size() > 1 ? name + "-" + std::to_string(p) : name;
      if (!DecodePrimitive(d, primitives[p], materials, &primitive, error)) {
        *error = "mesh " + std::to_string(m) + ": " + *error;
        return false;
      }
    }
    NameAndWeighTargets(meshes[m], &out->meshes[m]);
  }
  return true;
}

bool ReadSkins(Document* d, Contents* out, std::string* error) {
  const json& skins = ArrayMember(d->root, "skins");
  size_t without_inverse_binds = 0;
  for (size_t s = 0; s < skins.size(); ++s) {
    Skin skin;
    for (const json& joint : ArrayMember(skins[s], "joints")) {
      skin.joints.push_back(static_cast<int>(joint.get<int64_t>()));  // checked: a node index
    }
    skin.inverse_binds.assign(skin.joints.size(), glm::mat4(1.0f));
    if (const auto accessor = IndexMember(skins[s], "inverseBindMatrices")) {
      AccessorData data;
      if (!d->ReadAccessor(*accessor, &data, error)) return false;
      if (data.components != 16 || data.count < skin.joints.size()) {
        *error = "skin " + std::to_string(s) + " has fewer inverse bind matrices than joints";
        return false;
      }
      for (size_t j = 0; j < skin.joints.size(); ++j) {
        glm::mat4& m = skin.inverse_binds[j];
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r)
            m[c][r] = data.values[j * 16 + static_cast<size_t>(c * 4 + r)];
      }
    } else {
      ++without_inverse_binds;
    }
    out->skins.push_back(std::move(skin));
  }
  if (without_inverse_binds > 0) {
    out->warnings.push_back(std::to_string(without_inverse_binds) +
                            " skins had no inverseBindMatrices; used identity matrices as glTF "
                            "specifies");
  }
  return true;
}

namespace {

// The image a texture shows: its EXT_texture_webp source (skelview decodes WebP), else its plain
// `source` (the fallback such files may give for viewers without WebP); -1 when neither is an
// image of the file.
int TextureImage(const json& texture, size_t image_count) {
  const json* extensions = Member(texture, "extensions");
  const json* webp = extensions ? Member(*extensions, "EXT_texture_webp") : nullptr;
  for (const json* holder : {webp, &texture}) {
    const auto source = holder ? IndexMember(*holder, "source") : std::nullopt;
    if (source && *source < static_cast<int64_t>(image_count)) return static_cast<int>(*source);
  }
  return -1;
}

}  // namespace

// Materials and the images they use (Assimp would load only the materials meshes reference,
// and the native path gives it no meshes).
void ReadMaterials(Document* d, Contents* out) {
  const json& textures = ArrayMember(d->root, "textures");
  const json& images = ArrayMember(d->root, "images");
  for (size_t i = 0; i < images.size(); ++i) {
    ImageSource image;
    const std::string uri = StringMember(images[i], "uri");
    image.name = uri.empty() || uri.rfind("data:", 0) == 0 ? "image " + std::to_string(i) : uri;
    if (const auto view = IndexMember(images[i], "bufferView")) {
      if (!d->ViewData(*view, &image.bytes, &image.error) && image.error.empty()) {
        image.error = "its bufferView is invalid";
      }
    } else if (uri.rfind("data:", 0) == 0) {
      const size_t marker = uri.find(";base64,");
      if (marker == std::string::npos || !DecodeBase64(uri, marker + 8, &image.bytes)) {
        image.error = "its data URI is not valid base64";
      }
    } else if (!uri.empty()) {
      image.file = PercentDecode(uri);
    } else {
      image.error = "it has neither a uri nor a bufferView";
    }
    out->images.push_back(std::move(image));
  }
  auto image_of = [&](const json* texture_info) -> int {
    const auto texture = texture_info ? IndexMember(*texture_info, "index") : std::nullopt;
    if (!texture || *texture >= static_cast<int64_t>(textures.size())) return -1;
    return TextureImage(textures[static_cast<size_t>(*texture)], images.size());
  };
  auto color_of = [](const json* factor, glm::vec4* color) {
    if (!factor || !factor->is_array() || factor->size() != 4) return;
    for (size_t c = 0; c < 4; ++c) {
      const json& v = (*factor)[c];
      if (!v.is_number()) return;
    }
    for (int c = 0; c < 4; ++c) {
      const double v = (*factor)[static_cast<size_t>(c)].get<double>();
      (*color)[c] = std::isfinite(v) ? static_cast<float>(std::clamp(v, 0.0, 1.0)) : 1.0f;
    }
  };
  for (const json& material : ArrayMember(d->root, "materials")) {
    MaterialSource m;
    m.name = StringMember(material, "name");
    const json* pbr = Member(material, "pbrMetallicRoughness");
    const json* extensions = Member(material, "extensions");
    const json* gloss =
        extensions ? Member(*extensions, "KHR_materials_pbrSpecularGlossiness") : nullptr;
    if (pbr) {
      color_of(Member(*pbr, "baseColorFactor"), &m.base_color);
      m.image = image_of(Member(*pbr, "baseColorTexture"));
    } else if (gloss) {
      color_of(Member(*gloss, "diffuseFactor"), &m.base_color);
      m.image = image_of(Member(*gloss, "diffuseTexture"));
    }
    out->materials.push_back(std::move(m));
  }
}

}  // namespace assets::gltf
