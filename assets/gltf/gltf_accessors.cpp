// glTF accessors: every accessor, bufferView and buffer checked against the real bytes before
// anything is read (ValidateLayout), then read bounds-checked into floats or indices.
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>
#include <utility>

#include "assets/files/messages.h"
#include "assets/gltf/gltf_document.h"

namespace assets::gltf {
namespace {

constexpr int kFloat = kComponentFloat;
// Larger accessors are refused before any allocation: 2^28 elements is far beyond real assets.
constexpr uint64_t kMaxAccessorCount = uint64_t{1} << 28;

int ComponentCount(const std::string& type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4") return 4;
  if (type == "MAT2") return 4;
  if (type == "MAT3") return 9;
  if (type == "MAT4") return 16;
  return 0;
}

int ComponentSize(int component_type) {
  switch (component_type) {
    case 5120:
    case 5121:
      return 1;
    case 5122:
    case 5123:
      return 2;
    case 5125:
    case 5126:
      return 4;
    default:
      return 0;
  }
}

float DecodeComponent(const uint8_t* p, int component_type, bool normalized) {
  switch (component_type) {
    case 5120: {
      int8_t v;
      std::memcpy(&v, p, 1);
      return normalized ? std::max(static_cast<float>(v) / 127.0f, -1.0f) : static_cast<float>(v);
    }
    case 5121: {
      const uint8_t v = *p;
      return normalized ? static_cast<float>(v) / 255.0f : static_cast<float>(v);
    }
    case 5122: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? std::max(static_cast<float>(v) / 32767.0f, -1.0f) : static_cast<float>(v);
    }
    case 5123: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? static_cast<float>(v) / 65535.0f : static_cast<float>(v);
    }
    case 5125: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return static_cast<float>(v);
    }
    case 5126: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default:
      return 0.0f;
  }
}

uint32_t DecodeUnsigned(const uint8_t* p, int component_type) {
  switch (component_type) {
    case 5121:
      return *p;
    case 5123: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 5125: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default:
      return UINT32_MAX;  // signed or float: not an index type
  }
}

}  // namespace

// Validates accessor `index` against its bufferView and buffer, then hands every component to
// `put(element, bytes)` for every element (dense data first, then the sparse substitutions).
// `begin(meta)` runs once the shape is known, before any component, and may refuse it.
template <typename Begin, typename Put, typename Direct>
bool Document::Visit(int64_t index, AccessorData* meta, Begin begin, Put put, Direct direct,
                     int direct_type, std::string* error) {
  const Json& accessors = ArrayMember(root, "accessors");
  const std::string name = "accessor " + std::to_string(index);
  if (index < 0 || index >= static_cast<int64_t>(accessors.size())) {
    *error = name + " does not exist";
    return false;
  }
  const Json& acc = accessors[static_cast<size_t>(index)];
  meta->components = ComponentCount(StringMember(acc, "type"));
  meta->component_type = static_cast<int>(IntMember(acc, "componentType", 0));
  meta->normalized = Member(acc, "normalized") && (*Member(acc, "normalized")).is_boolean() &&
                     (*Member(acc, "normalized")).get<bool>();
  const int component_size = ComponentSize(meta->component_type);
  const int64_t count = IntMember(acc, "count", -1);
  if (meta->components == 0 || component_size == 0 || count < 0 ||
      static_cast<uint64_t>(count) > kMaxAccessorCount) {
    *error = name + " has an invalid type, component type or count";
    return false;
  }
  if (meta->components > 4 && component_size < 4) {
    *error = name + " is a matrix of 8- or 16-bit components, which is not supported";
    return false;
  }
  meta->count = static_cast<size_t>(count);
  meta->has_view = Member(acc, "bufferView") != nullptr;
  if (!begin(*meta)) return false;
  const size_t width = static_cast<size_t>(meta->components);
  const uint64_t element_size = uint64_t{width} * static_cast<uint64_t>(component_size);
  if (auto view_index = IndexMember(acc, "bufferView")) {
    const Json& views = ArrayMember(root, "bufferViews");
    if (*view_index >= static_cast<int64_t>(views.size())) {
      *error = name + " refers to a missing bufferView";
      return false;
    }
    const Json& view = views[static_cast<size_t>(*view_index)];
    const auto buffer_index = IndexMember(view, "buffer");
    if (!buffer_index) {
      *error = "bufferView " + std::to_string(*view_index) + " names no buffer";
      return false;
    }
    Source source;
    if (!Resolve(*buffer_index, &source, error)) return false;
    const int64_t view_offset = IntMember(view, "byteOffset", 0);
    const int64_t view_length = IntMember(view, "byteLength", -1);
    const int64_t stride_member = IntMember(view, "byteStride", 0);
    const int64_t acc_offset = IntMember(acc, "byteOffset", 0);
    if (view_offset < 0 || view_length < 0 || acc_offset < 0 || stride_member < 0 ||
        static_cast<uint64_t>(view_offset) + static_cast<uint64_t>(view_length) > source.size) {
      *error = "bufferView " + std::to_string(*view_index) + " lies outside its buffer";
      return false;
    }
    const uint64_t stride = stride_member > 0 ? static_cast<uint64_t>(stride_member) : element_size;
    const uint64_t span = meta->count > 0 ? stride * (meta->count - 1) + element_size : 0;
    if (static_cast<uint64_t>(acc_offset) + span > static_cast<uint64_t>(view_length)) {
      *error = name + " reads past the end of its bufferView (truncated data)";
      return false;
    }
    // Only the accessor's own bytes are read (from the file when the buffer stays there),
    // straight into the caller's array when they are laid out as it wants them.
    const uint64_t begin_offset = static_cast<uint64_t>(view_offset + acc_offset);
    void* destination = direct();
    if (destination && meta->component_type == direct_type && stride == element_size) {
      if (span > 0 && !ReadInto(*buffer_index, begin_offset, span, destination, error)) {
        return false;
      }
    } else {
      const uint8_t* base = nullptr;
      std::vector<uint8_t> scratch;
      if (span > 0 && !Read(*buffer_index, begin_offset, span, &base, &scratch, error)) {
        return false;
      }
      for (size_t i = 0; i < meta->count; ++i) {
        put(i, base + stride * i);
      }
    }
  }
  if (const Json* sparse = Member(acc, "sparse")) {
    const int64_t sparse_count = IntMember(*sparse, "count", -1);
    const Json* indices = Member(*sparse, "indices");
    const Json* values = Member(*sparse, "values");
    if (sparse_count < 0 || static_cast<uint64_t>(sparse_count) > meta->count || !indices ||
        !values) {
      *error = name + " has an invalid sparse section";
      return false;
    }
    const int index_type = static_cast<int>(IntMember(*indices, "componentType", 0));
    const int index_size = ComponentSize(index_type);
    const uint8_t* index_data = nullptr;
    const uint8_t* value_data = nullptr;
    std::vector<uint8_t> index_scratch, value_scratch;
    const uint64_t n = static_cast<uint64_t>(sparse_count);
    if ((index_type != 5121 && index_type != 5123 && index_type != 5125) ||
        !ViewBytes(*indices, n * static_cast<uint64_t>(index_size), &index_data, &index_scratch,
                   error) ||
        !ViewBytes(*values, n * element_size, &value_data, &value_scratch, error)) {
      if (error->empty()) *error = name + " has sparse data outside its buffers";
      return false;
    }
    for (uint64_t s = 0; s < n; ++s) {
      const uint64_t target =
          DecodeUnsigned(index_data + s * static_cast<uint64_t>(index_size), index_type);
      if (target >= meta->count) {
        *error = name + " has a sparse index out of range";
        return false;
      }
      put(static_cast<size_t>(target), value_data + s * element_size);
    }
  }
  return true;
}

bool Document::ReadAccessor(int64_t index, AccessorData* out, std::string* error) {
  auto begin = [&](const AccessorData& meta) {
    out->values.assign(meta.count * static_cast<size_t>(meta.components), 0.0f);
    return true;
  };
  auto put = [&](size_t i, const uint8_t* p) {
    const size_t width = static_cast<size_t>(out->components);
    const size_t size = static_cast<size_t>(ComponentSize(out->component_type));
    for (size_t c = 0; c < width; ++c) {
      out->values[i * width + c] =
          DecodeComponent(p + c * size, out->component_type, out->normalized);
    }
  };
  return Visit(
      index, out, begin, put, [] { return static_cast<void*>(nullptr); }, 0, error);
}

bool Document::ReadAccessorInto(int64_t index, int components, size_t count, float* out,
                                std::string* error) {
  AccessorData meta;
  auto begin = [&](const AccessorData& m) {
    if (m.components != components || m.count != count) {
      *error = "accessor " + std::to_string(index) + " does not have the expected shape";
      return false;
    }
    // Zero-filled data (dense data overwrites every element).
    if (!m.has_view) std::fill(out, out + count * static_cast<size_t>(components), 0.0f);
    return true;
  };
  const size_t width = static_cast<size_t>(components);
  auto put = [&](size_t i, const uint8_t* p) {
    if (meta.component_type == kFloat) {  // plain floats (strided or sparse), copied as they are
      std::memcpy(out + i * width, p, width * sizeof(float));
      return;
    }
    const size_t size = static_cast<size_t>(ComponentSize(meta.component_type));
    for (size_t c = 0; c < width; ++c) {
      out[i * width + c] = DecodeComponent(p + c * size, meta.component_type, meta.normalized);
    }
  };
  return Visit(
      index, &meta, begin, put, [out] { return static_cast<void*>(out); }, kFloat, error);
}

bool Document::ReadIndices(int64_t index, std::vector<uint32_t>* out, std::string* error) {
  size_t count = 0;
  int components = 0;
  if (AccessorShape(index, &count, &components) && ReadArray(index, 1, 5125, count, out, error)) {
    return true;
  }
  if (!error->empty()) return false;
  AccessorData meta;
  auto begin = [&](const AccessorData& m) {
    if (m.components != 1 ||
        (m.component_type != 5121 && m.component_type != 5123 && m.component_type != 5125)) {
      *error = "accessor " + std::to_string(index) + " is not an unsigned integer scalar";
      return false;
    }
    if (m.has_view) {
      out->resize(m.count);
    } else {
      out->assign(m.count, 0);
    }
    return true;
  };
  auto put = [&](size_t i, const uint8_t* p) {
    (*out)[i] = DecodeUnsigned(p, meta.component_type);
  };
  // 32-bit indices are copied as they are (into *out as `begin` sized it).
  return Visit(
      index, &meta, begin, put, [out] { return static_cast<void*>(out->data()); }, 5125, error);
}

bool Document::ReadUnsignedInto(int64_t index, int components, size_t count, uint16_t* out,
                                std::string* error) {
  AccessorData meta;
  auto begin = [&](const AccessorData& m) {
    if (m.components != components || m.count != count ||
        (m.component_type != 5121 && m.component_type != 5123)) {
      *error = "accessor " + std::to_string(index) +
               " is not of unsigned bytes or shorts in the expected shape";
      return false;
    }
    if (!m.has_view) std::fill(out, out + count * static_cast<size_t>(components), uint16_t{0});
    return true;
  };
  const size_t width = static_cast<size_t>(components);
  auto put = [&](size_t i, const uint8_t* p) {
    const size_t size = static_cast<size_t>(ComponentSize(meta.component_type));
    for (size_t c = 0; c < width; ++c) {
      out[i * width + c] = static_cast<uint16_t>(DecodeUnsigned(p + c * size, meta.component_type));
    }
  };
  return Visit(
      index, &meta, begin, put, [out] { return static_cast<void*>(out); }, 5123, error);
}

bool Document::PackedRange(int64_t index, int components, int component_type, size_t element_size,
                           size_t count, int64_t* buffer, uint64_t* offset) const {
  const Json& accessors = ArrayMember(root, "accessors");
  if (index < 0 || index >= static_cast<int64_t>(accessors.size())) return false;
  const Json& acc = accessors[static_cast<size_t>(index)];
  const int size = ComponentSize(component_type);
  if (ComponentCount(StringMember(acc, "type")) != components ||
      IntMember(acc, "componentType", 0) != component_type || size == 0 ||
      element_size != static_cast<size_t>(components * size) ||
      IntMember(acc, "count", -1) != static_cast<int64_t>(count) || Member(acc, "sparse")) {
    return false;
  }
  const auto view_index = IndexMember(acc, "bufferView");
  const Json& views = ArrayMember(root, "bufferViews");
  if (!view_index || *view_index >= static_cast<int64_t>(views.size())) return false;
  const Json& view = views[static_cast<size_t>(*view_index)];
  const auto buffer_index = IndexMember(view, "buffer");
  const int64_t view_offset = IntMember(view, "byteOffset", 0);
  const int64_t view_length = IntMember(view, "byteLength", -1);
  const int64_t stride = IntMember(view, "byteStride", 0);
  const int64_t acc_offset = IntMember(acc, "byteOffset", 0);
  if (!buffer_index || view_offset < 0 || view_length < 0 || acc_offset < 0 ||
      (stride != 0 && stride != static_cast<int64_t>(element_size)) ||
      static_cast<uint64_t>(acc_offset) + uint64_t{element_size} * count >
          static_cast<uint64_t>(view_length)) {
    return false;
  }
  *buffer = *buffer_index;
  *offset = static_cast<uint64_t>(view_offset) + static_cast<uint64_t>(acc_offset);
  return true;
}

int Document::AccessorComponentType(int64_t index) const {
  const Json& accessors = ArrayMember(root, "accessors");
  if (index < 0 || index >= static_cast<int64_t>(accessors.size())) return 0;
  const int type =
      static_cast<int>(IntMember(accessors[static_cast<size_t>(index)], "componentType", 0));
  return ComponentSize(type) > 0 ? type : 0;
}

bool Document::AccessorShape(int64_t index, size_t* count, int* components) const {
  const Json& accessors = ArrayMember(root, "accessors");
  if (index < 0 || index >= static_cast<int64_t>(accessors.size())) return false;
  const Json& acc = accessors[static_cast<size_t>(index)];
  const int64_t n = IntMember(acc, "count", -1);
  *components = ComponentCount(StringMember(acc, "type"));
  if (n < 0 || *components == 0) return false;
  *count = static_cast<size_t>(n);
  return true;
}

bool Document::ViewData(int64_t view, std::vector<uint8_t>* out, std::string* error) {
  const Json reference = {{"bufferView", view}};
  const Json& views = ArrayMember(root, "bufferViews");
  if (view < 0 || view >= static_cast<int64_t>(views.size())) {
    *error = "bufferView " + std::to_string(view) + " does not exist";
    return false;
  }
  const int64_t length = IntMember(views[static_cast<size_t>(view)], "byteLength", -1);
  const uint8_t* begin = nullptr;
  std::vector<uint8_t> scratch;
  if (length < 0 || !ViewBytes(reference, static_cast<uint64_t>(length), &begin, &scratch, error)) {
    if (error->empty()) *error = "bufferView " + std::to_string(view) + " lies outside its buffer";
    return false;
  }
  out->assign(begin, begin + length);
  return true;
}

bool Document::ValidateLayout(uint64_t max_elements, std::string* error) const {
  const Json& buffers = ArrayMember(root, "buffers");
  std::vector<uint64_t> buffer_sizes(buffers.size(), 0);
  std::vector<char> buffer_checked(buffers.size(), 0);
  // Buffers are sized lazily: one that no bufferView uses may be missing without harm.
  auto buffer_size = [&](int64_t index, uint64_t* size) -> bool {
    if (index < 0 || index >= static_cast<int64_t>(buffers.size())) {
      *error = "a bufferView refers to buffer " + std::to_string(index) + ", which does not exist";
      return false;
    }
    const size_t i = static_cast<size_t>(index);
    if (!buffer_checked[i]) {
      const int64_t declared = IntMember(buffers[i], "byteLength", -1);
      uint64_t real = 0;
      if (declared < 0) {
        *error = "buffer " + std::to_string(index) + " has no valid byteLength";
        return false;
      }
      if (!BufferSize(index, &real, error)) return false;
      if (static_cast<uint64_t>(declared) > real) {
        *error = "buffer " + std::to_string(index) + " declares " + std::to_string(declared) +
                 " bytes but holds " + std::to_string(real) + " (truncated or corrupt)";
        return false;
      }
      buffer_sizes[i] = static_cast<uint64_t>(declared);
      buffer_checked[i] = 1;
    }
    *size = buffer_sizes[i];
    return true;
  };
  const Json& views = ArrayMember(root, "bufferViews");
  // Length of bufferView `index` after checking it lies inside its buffer.
  auto view_length = [&](const Json& reference, const std::string& what, uint64_t* length) {
    const auto view_index = IndexMember(reference, "bufferView");
    if (!view_index || *view_index >= static_cast<int64_t>(views.size())) {
      *error = what + " refers to a bufferView that does not exist";
      return false;
    }
    const Json& view = views[static_cast<size_t>(*view_index)];
    const auto buffer_index = IndexMember(view, "buffer");
    uint64_t size = 0;
    if (!buffer_index) {
      *error = "bufferView " + std::to_string(*view_index) + " names no buffer";
      return false;
    }
    if (!buffer_size(*buffer_index, &size)) return false;
    const int64_t offset = IntMember(view, "byteOffset", 0);
    const int64_t bytes = IntMember(view, "byteLength", -1);
    const int64_t stride = IntMember(view, "byteStride", 0);
    if (offset < 0 || bytes < 0 || stride < 0 || stride > 255 ||
        static_cast<uint64_t>(offset) > size || static_cast<uint64_t>(bytes) > size - offset) {
      *error = "bufferView " + std::to_string(*view_index) + " lies outside its buffer";
      return false;
    }
    *length = static_cast<uint64_t>(bytes);
    return true;
  };
  const Json& accessors = ArrayMember(root, "accessors");
  for (size_t a = 0; a < accessors.size(); ++a) {
    const Json& acc = accessors[a];
    const std::string name = "accessor " + std::to_string(a);
    const int components = ComponentCount(StringMember(acc, "type"));
    const int component_size = ComponentSize(static_cast<int>(IntMember(acc, "componentType", 0)));
    const int64_t count = IntMember(acc, "count", -1);
    if (components == 0 || component_size == 0 || count < 0) {
      *error = name + " has an invalid type, component type or count";
      return false;
    }
    if (static_cast<uint64_t>(count) > max_elements) {
      *error = name + " claims " + std::to_string(count) + " elements, more than the " +
               std::to_string(max_elements) + " skelview reads";
      return false;
    }
    const uint64_t element = static_cast<uint64_t>(components) * component_size;
    const uint64_t n = static_cast<uint64_t>(count);
    if (Member(acc, "bufferView")) {
      uint64_t length = 0;
      if (!view_length(acc, name, &length)) return false;
      const Json& view = views[static_cast<size_t>(*IndexMember(acc, "bufferView"))];
      const int64_t stride_member = IntMember(view, "byteStride", 0);
      const uint64_t stride = stride_member > 0 ? static_cast<uint64_t>(stride_member) : element;
      const int64_t offset = IntMember(acc, "byteOffset", 0);
      if (offset < 0 ||
          (n > 0 && static_cast<uint64_t>(offset) + stride * (n - 1) + element > length)) {
        *error = name + " claims " + std::to_string(count) +
                 " elements, more than its bufferView holds (truncated or corrupt)";
        return false;
      }
    } else if (n * element > kMaxZeroFilledBytes) {
      *error = name + " has no data but claims " + std::to_string(count) + " elements";
      return false;
    }
    if (const Json* sparse = Member(acc, "sparse")) {
      const int64_t sparse_count = IntMember(*sparse, "count", -1);
      const Json* indices = Member(*sparse, "indices");
      const Json* values = Member(*sparse, "values");
      const int index_size =
          indices ? ComponentSize(static_cast<int>(IntMember(*indices, "componentType", 0))) : 0;
      if (sparse_count < 0 || static_cast<uint64_t>(sparse_count) > n || !indices || !values ||
          index_size == 0) {
        *error = name + " has an invalid sparse section";
        return false;
      }
      const uint64_t m = static_cast<uint64_t>(sparse_count);
      uint64_t length = 0;
      for (const auto& [part, bytes] :
           {std::make_pair(indices, m * index_size), std::make_pair(values, m * element)}) {
        if (!view_length(*part, name + " (sparse)", &length)) return false;
        const int64_t offset = IntMember(*part, "byteOffset", 0);
        if (offset < 0 || static_cast<uint64_t>(offset) + bytes > length) {
          *error = name + " has sparse data outside its bufferView";
          return false;
        }
      }
    }
  }
  return true;
}

bool Document::ViewBytes(const Json& reference, uint64_t bytes_needed, const uint8_t** begin,
                         std::vector<uint8_t>* scratch, std::string* error) {
  const auto view_index = IndexMember(reference, "bufferView");
  const Json& views = ArrayMember(root, "bufferViews");
  if (!view_index || *view_index >= static_cast<int64_t>(views.size())) return false;
  const Json& view = views[static_cast<size_t>(*view_index)];
  const auto buffer_index = IndexMember(view, "buffer");
  Source source;
  if (!buffer_index || !Resolve(*buffer_index, &source, error)) return false;
  const int64_t view_offset = IntMember(view, "byteOffset", 0);
  const int64_t view_length = IntMember(view, "byteLength", -1);
  const int64_t offset = IntMember(reference, "byteOffset", 0);
  if (view_offset < 0 || view_length < 0 || offset < 0 ||
      static_cast<uint64_t>(view_offset) + static_cast<uint64_t>(view_length) > source.size ||
      static_cast<uint64_t>(offset) + bytes_needed > static_cast<uint64_t>(view_length)) {
    return false;
  }
  if (bytes_needed == 0) {
    *begin = nullptr;
    return true;
  }
  return Read(*buffer_index, static_cast<uint64_t>(view_offset + offset), bytes_needed, begin,
              scratch, error);
}

}  // namespace assets::gltf
