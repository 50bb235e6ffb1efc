// The glTF reader's meshes: primitives (positions, normals, tangents, uvs, the eight largest
// influences, morph targets; from accessors or a Draco stream), skins and materials.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "assets/files/limits.h"
#include "assets/files/messages.h"
#include "assets/gltf/gltf_document.h"
#include "assets/gltf/gltf_reader.h"
#include "assets/gltf/gltf_reader_steps.h"
#include "assets/model/mesh_cleanup.h"
#include "ik/core/skeleton.h"

namespace assets::gltf {
namespace {

using json = Json;

// Where a primitive's attributes come from: its accessors, or the Draco stream that stands in for
// the attributes its KHR_draco_mesh_compression extension names.
class Attributes {
 public:
  Attributes(Document* d, const json& attributes, DracoPrimitive* draco)
      : d_(d), attributes_(attributes), draco_(draco) {}

  // The accessor of attribute `key`, when the primitive has one.
  std::optional<int64_t> Accessor(const std::string& key) const {
    return IndexMember(attributes_, key.c_str());
  }
  // Element and component counts of attribute `key` as declared; false when absent or invalid.
  bool Shape(const std::string& key, size_t* count, int* components) const {
    const auto index = Accessor(key);
    return index && d_->AccessorShape(*index, count, components);
  }
  // Attribute `key` (exactly `count` elements of Vec, a glm vector of floats) into *out.
  template <typename Vec>
  bool ReadFloats(const std::string& key, size_t count, std::vector<Vec>* out, std::string* error) {
    constexpr int kWidth = static_cast<int>(sizeof(Vec) / sizeof(float));
    if (const AccessorData* decoded = Decoded(key)) {
      if (decoded->components != kWidth || decoded->count != count) {
        *error = "its Draco attribute " + key + " does not have the expected shape";
        return false;
      }
      out->resize(count);
      std::copy(decoded->values.begin(), decoded->values.end(), &(*out)[0][0]);
      return true;
    }
    const int64_t index = *Accessor(key);
    if (d_->ReadArray(index, kWidth, kComponentFloat, count, out, error)) return true;
    if (!error->empty()) return false;
    out->resize(count);
    return count == 0 || d_->ReadAccessorInto(index, kWidth, count, &(*out)[0][0], error);
  }
  // Attribute `key` as floats in *out.
  bool Read(const std::string& key, AccessorData* out, std::string* error) {
    if (AccessorData* decoded = Decoded(key)) {
      *out = std::move(*decoded);
      draco_->attributes.erase(key);
      return true;
    }
    return d_->ReadAccessor(*Accessor(key), out, error);
  }
  // A JOINTS_n attribute straight into *out (count VEC4 of unsigned bytes or shorts); false, with
  // nothing read, when it is stored otherwise (then Read it).
  bool ReadJoints(const std::string& key, size_t count, std::vector<glm::u16vec4>* out,
                  std::string* error) {
    const auto index = Accessor(key);
    if (Decoded(key) || !index) return false;
    const int type = d_->AccessorComponentType(*index);
    if (type != 5121 && type != 5123) return false;
    if (d_->ReadArray(*index, 4, kComponentUnsignedShort, count, out, error)) return true;
    if (!error->empty()) return false;
    out->resize(count);
    return d_->ReadUnsignedInto(*index, 4, count, &(*out)[0][0], error);
  }

 private:
  AccessorData* Decoded(const std::string& key) {
    if (!draco_) return nullptr;
    auto found = draco_->attributes.find(key);
    return found == draco_->attributes.end() ? nullptr : &found->second;
  }
  const AccessorData* Decoded(const std::string& key) const {
    return const_cast<Attributes*>(this)->Decoded(key);
  }

  Document* d_;
  const json& attributes_;
  DracoPrimitive* draco_;
};

// Reads a VEC3/VEC2 attribute of `count` elements into `out`; false (and no data) when the
// attribute is absent or of another shape, so that it is treated as missing.
template <typename Vec>
bool ReadOptionalAttribute(Attributes* a, const char* key, size_t count, std::vector<Vec>* out,
                           std::string* error) {
  size_t n = 0;
  int components = 0;
  constexpr int kWidth = static_cast<int>(sizeof(Vec) / sizeof(float));
  if (!a->Shape(key, &n, &components) || n != count || components != kWidth || count == 0) {
    return true;
  }
  return a->ReadFloats(key, count, out, error);
}

// Sorts a vertex's influences in place into descending order of weight (ties keep file order, as
// a stable sort would), dropping zero ones and counting invalid ones (negative or non-finite
// weights; joints are exact integers here).
inline int SortInfluences(glm::vec4* weights, glm::u16vec4* joints, size_t* invalid) {
  // Through pointers: glm's operator[] with a run-time index is a switch.
  float* const wv = &weights->x;
  uint16_t* const jv = &joints->x;
  // A sorting network without branches; each joint carries its slot above its 16 bits, which
  // breaks ties in file order. Dropped influences sort last (-1).
  float w[4];
  uint32_t j[4];
  int kept = 0;
  for (int c = 0; c < 4; ++c) {
    const float weight = wv[c];
    const bool valid = std::isfinite(weight) && weight > 0.0f;
    *invalid += !valid && weight != 0.0f ? 1 : 0;
    kept += valid ? 1 : 0;
    w[c] = valid ? weight : -1.0f;
    j[c] = static_cast<uint32_t>(c) << 16 | jv[c];
  }
  auto order = [&](int a, int b) {
    const bool swap = w[a] < w[b] || (w[a] == w[b] && j[a] > j[b]);
    const float wa = w[a], wb = w[b];
    const uint32_t ja = j[a], jb = j[b];
    w[a] = swap ? wb : wa;
    w[b] = swap ? wa : wb;
    j[a] = swap ? jb : ja;
    j[b] = swap ? ja : jb;
  };
  order(0, 1);
  order(2, 3);
  order(0, 2);
  order(1, 3);
  order(1, 2);
  for (int c = 0; c < 4; ++c) {
    wv[c] = c < kept ? w[c] : 0.0f;
    jv[c] = c < kept ? static_cast<uint16_t>(j[c] & 0xFFFF) : uint16_t{0};
  }
  return kept;
}

// The eight largest positive influences per vertex over every JOINTS_n/WEIGHTS_n set, in
// descending order (ties keep file order, as a stable sort would), unnormalised.
bool ReadInfluences(Attributes* a, Primitive* out, std::string* error) {
  const size_t n = out->positions.size();
  auto check_shape = [&](int set, size_t joints, int joint_width, size_t weights,
                         int weight_width) {
    if (joint_width == 4 && weight_width == 4 && joints == n && weights == n) return true;
    *error = "a primitive's JOINTS_" + std::to_string(set) + "/WEIGHTS_" + std::to_string(set) +
             " accessors are not VEC4 with one element per vertex";
    return false;
  };
  int sets = 0;
  while (a->Accessor("JOINTS_" + std::to_string(sets)) &&
         a->Accessor("WEIGHTS_" + std::to_string(sets))) {
    ++sets;
  }
  if (sets == 0) return true;
  if (sets == 1) {
    // The common case: one set read straight into the primitive's arrays and sorted in place.
    size_t joint_count = 0, weight_count = 0;
    int joint_width = 0, weight_width = 0;
    if (!a->Shape("JOINTS_0", &joint_count, &joint_width) ||
        !a->Shape("WEIGHTS_0", &weight_count, &weight_width) ||
        !check_shape(0, joint_count, joint_width, weight_count, weight_width)) {
      if (error->empty()) *error = "a primitive's JOINTS_0/WEIGHTS_0 accessors are invalid";
      return false;
    }
    if (a->ReadJoints("JOINTS_0", n, &out->joints, error) &&
        a->ReadFloats("WEIGHTS_0", n, &out->weights, error)) {
      out->influence_counts.resize(n);
      for (size_t v = 0; v < n; ++v) {
        out->influence_counts[v] = static_cast<uint8_t>(
            SortInfluences(&out->weights[v], &out->joints[v], &out->invalid_influences));
      }
      return true;
    }
    if (!error->empty()) return false;
    out->joints.clear();
    out->weights.clear();
  }
  bool any = false;
  for (int set = 0; set < sets; ++set) {
    AccessorData joints, weights;
    if (!a->Read("JOINTS_" + std::to_string(set), &joints, error) ||
        !a->Read("WEIGHTS_" + std::to_string(set), &weights, error)) {
      return false;
    }
    if (!check_shape(set, joints.count, joints.components, weights.count, weights.components)) {
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
  bool ok = d->ReadArray(index, 3, kComponentFloat, count, out, &ignored);
  if (!ok && ignored.empty()) {
    out->resize(count);
    ok = d->ReadAccessorInto(index, 3, count, &(*out)[0][0], &ignored);
  }
  ok = ok && std::all_of(out->begin(), out->end(), [](const glm::vec3& v) {
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
void ReadTangents(Attributes* a, Primitive* out) {
  const size_t n = out->positions.size();
  if (!a->Accessor("TANGENT") || out->normals.empty()) return;
  size_t count = 0;
  int components = 0;
  std::string ignored;
  out->bad_tangents =
      !a->Shape("TANGENT", &count, &components) || count != n || components != 4 || n == 0;
  if (out->bad_tangents) return;
  out->bad_tangents = !a->ReadFloats("TANGENT", n, &out->tangents, &ignored);
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

// Triangles from the primitive's corners (its indices, or 0..n-1) in its mode (4 triangles, 5
// strip, 6 fan); triangles with a corner past the vertices are dropped and counted.
void Triangulate(std::vector<uint32_t> corners, int64_t mode, Primitive* out) {
  const size_t n = out->positions.size();
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
  const json* extensions = Member(primitive, "extensions");
  const json* draco_extension = extensions && extensions->is_object()
                                    ? Member(*extensions, "KHR_draco_mesh_compression")
                                    : nullptr;
  DracoPrimitive draco;
  if (draco_extension && !DecodeDraco(d, primitive, *draco_extension, &draco, error)) {
    return false;
  }
  Attributes a(d, *attributes, draco_extension ? &draco : nullptr);
  if (!a.ReadFloats("POSITION", n, &out->positions, error) ||
      !ReadOptionalAttribute(&a, "NORMAL", n, &out->normals, error) ||
      !ReadOptionalAttribute(&a, "TEXCOORD_0", n, &out->uvs, error) ||
      !ReadInfluences(&a, out, error)) {
    return false;
  }
  ReadTangents(&a, out);
  ReadTargets(d, primitive, out);
  std::vector<uint32_t> corners;
  if (draco_extension) {
    corners = std::move(draco.indices);
  } else if (const auto indices = IndexMember(primitive, "indices")) {
    if (!d->ReadIndices(*indices, &corners, error)) return false;
  } else {
    corners.resize(n);
    for (size_t i = 0; i < n; ++i) corners[i] = static_cast<uint32_t>(i);
  }
  Triangulate(std::move(corners), mode, out);
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

bool ReadMeshes(Document* d, LoadProgress* progress, Contents* out, std::string* error) {
  const json& meshes = ArrayMember(d->root, "meshes");
  const size_t materials = ArrayMember(d->root, "materials").size();
  out->meshes.resize(meshes.size());
  for (size_t m = 0; m < meshes.size(); ++m) {
    if (progress) {
      if (progress->Cancelled()) {
        *error = "cancelled";
        return false;
      }
      progress->Report(static_cast<float>(m) / static_cast<float>(meshes.size()));
    }
    const json& primitives = ArrayMember(meshes[m], "primitives");
    out->mesh_names.push_back(StringMember(meshes[m], "name"));
    out->meshes[m].resize(primitives.size());
    for (size_t p = 0; p < primitives.size(); ++p) {
      if (!DecodePrimitive(d, primitives[p], materials, &out->meshes[m][p], error)) {
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

// Materials and the images they use (BuildModel keeps those some mesh uses).
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
