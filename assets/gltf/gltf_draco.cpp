// KHR_draco_mesh_compression: a primitive's compressed bufferView decoded with Debian's libdraco
// into the attributes and triangles its accessors describe, checked against them.
#include <draco/compression/decode.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "assets/files/messages.h"
#include "assets/gltf/gltf_document.h"
#include "assets/gltf/gltf_reader_steps.h"

namespace assets::gltf {
namespace {

// What one integer component of draco type `type` becomes when glTF calls it normalized (the
// largest value maps to 1; signed ones are clamped at -1, as glTF specifies).
float Normalized(float value, draco::DataType type) {
  switch (type) {
    case draco::DT_INT8:
      return std::max(value / 127.0f, -1.0f);
    case draco::DT_UINT8:
      return value / 255.0f;
    case draco::DT_INT16:
      return std::max(value / 32767.0f, -1.0f);
    case draco::DT_UINT16:
      return value / 65535.0f;
    default:
      return value;
  }
}

bool IsInteger(draco::DataType type) {
  return type == draco::DT_INT8 || type == draco::DT_UINT8 || type == draco::DT_INT16 ||
         type == draco::DT_UINT16 || type == draco::DT_INT32 || type == draco::DT_UINT32;
}

}  // namespace

bool DecodeDraco(Document* d, const Json& primitive, const Json& extension, DracoPrimitive* out,
                 std::string* error) {
  *out = DracoPrimitive();
  const auto view = IndexMember(extension, "bufferView");
  const Json* attributes = Member(extension, "attributes");
  if (!view || !attributes || !attributes->is_object()) {
    *error = "its KHR_draco_mesh_compression extension has no bufferView or attributes";
    return false;
  }
  std::vector<uint8_t> bytes;
  if (!d->ViewData(*view, &bytes, error)) return false;
  draco::DecoderBuffer buffer;
  buffer.Init(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  draco::Decoder decoder;
  auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
  if (!decoded.ok() || !decoded.value()) {
    *error = "its Draco data does not decode to a triangle mesh" +
             (decoded.ok() ? std::string() : " (" + Excerpt(decoded.status().error_msg()) + ")");
    return false;
  }
  const std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
  const size_t n = mesh->num_points();
  out->vertices = n;
  // The primitive's accessors give every attribute's count and shape; the stream must match.
  const Json* accessors_of = Member(primitive, "attributes");
  for (const auto& [name, id] : attributes->items()) {
    const std::string what = "its Draco attribute " + Quoted(name);
    const auto accessor = accessors_of ? IndexMember(*accessors_of, name.c_str()) : std::nullopt;
    size_t count = 0;
    int components = 0;
    if (!accessor || !d->AccessorShape(*accessor, &count, &components)) continue;
    if (!id.is_number_unsigned() || id.get<uint64_t>() > std::numeric_limits<uint32_t>::max()) {
      *error = what + " has an invalid id";
      return false;
    }
    const draco::PointAttribute* attribute =
        mesh->GetAttributeByUniqueId(static_cast<uint32_t>(id.get<uint64_t>()));
    if (!attribute) {
      *error = what + " is not in its Draco data";
      return false;
    }
    if (count != n || attribute->num_components() != components || components > 16) {
      *error = what + " has " + std::to_string(n) + " elements of " +
               std::to_string(attribute->num_components()) + " components where its accessor has " +
               std::to_string(count) + " of " + std::to_string(components);
      return false;
    }
    AccessorData data;
    data.components = components;
    data.count = n;
    data.has_view = true;
    data.values.resize(n * static_cast<size_t>(components));
    // Integers glTF calls normalized are scaled here unless the stream already marks them so.
    const Json& accessor_json = ArrayMember(d->root, "accessors")[static_cast<size_t>(*accessor)];
    const Json* normalized_member = Member(accessor_json, "normalized");
    const bool scale = normalized_member && normalized_member->is_boolean() &&
                       normalized_member->get<bool>() && !attribute->normalized() &&
                       IsInteger(attribute->data_type());
    float value[16];
    for (size_t p = 0; p < n; ++p) {
      const draco::AttributeValueIndex index =
          attribute->mapped_index(draco::PointIndex(static_cast<uint32_t>(p)));
      if (index.value() >= attribute->size() ||
          !attribute->ConvertValue<float>(index, static_cast<int8_t>(components), value)) {
        *error = what + " has a value that cannot be read";
        return false;
      }
      for (int c = 0; c < components; ++c) {
        data.values[p * static_cast<size_t>(components) + static_cast<size_t>(c)] =
            scale ? Normalized(value[c], attribute->data_type()) : value[c];
      }
    }
    out->attributes.emplace(name, std::move(data));
  }
  out->indices.reserve(static_cast<size_t>(mesh->num_faces()) * 3);
  for (draco::FaceIndex f(0); f < mesh->num_faces(); ++f) {
    const draco::Mesh::Face& face = mesh->face(f);
    for (int k = 0; k < 3; ++k) out->indices.push_back(face[k].value());
  }
  return true;
}

}  // namespace assets::gltf
