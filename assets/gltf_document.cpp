// glTF document: container parsing, bounds-checked accessor reads, appended accessors and
// serialisation. Every offset read from the file is checked before it is used.
#include "assets/gltf_document.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

namespace assets::gltf {
namespace {

constexpr uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr uint32_t kChunkJson = 0x4E4F534A;
constexpr uint32_t kChunkBin = 0x004E4942;
constexpr int kFloat = kComponentFloat;
// Larger accessors are refused before any allocation: 2^28 elements is far beyond real assets.
constexpr uint64_t kMaxAccessorCount = uint64_t{1} << 28;

uint32_t ReadLe32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}

void AppendLe32(std::vector<uint8_t>* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

std::string ToLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// --- base64 and URIs ------------------------------------------------------------------------

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string Base64Encode(const std::vector<uint8_t>& data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  for (size_t i = 0; i < data.size(); i += 3) {
    const uint32_t b0 = data[i];
    const uint32_t b1 = i + 1 < data.size() ? data[i + 1] : 0;
    const uint32_t b2 = i + 2 < data.size() ? data[i + 2] : 0;
    const uint32_t triple = (b0 << 16) | (b1 << 8) | b2;
    out.push_back(kBase64Alphabet[(triple >> 18) & 63]);
    out.push_back(kBase64Alphabet[(triple >> 12) & 63]);
    out.push_back(i + 1 < data.size() ? kBase64Alphabet[(triple >> 6) & 63] : '=');
    out.push_back(i + 2 < data.size() ? kBase64Alphabet[triple & 63] : '=');
  }
  return out;
}

bool Base64Decode(const std::string& text, size_t begin, std::vector<uint8_t>* out) {
  uint32_t accumulator = 0;
  int bits = 0;
  for (size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '=') break;
    int value;
    if (c >= 'A' && c <= 'Z')
      value = c - 'A';
    else if (c >= 'a' && c <= 'z')
      value = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      value = c - '0' + 52;
    else if (c == '+' || c == '-')
      value = 62;
    else if (c == '/' || c == '_')
      value = 63;
    else if (c == '\n' || c == '\r' || c == ' ')
      continue;
    else
      return false;
    accumulator = (accumulator << 6) | static_cast<uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<uint8_t>((accumulator >> bits) & 0xFF));
    }
  }
  return true;
}

// --- the document ---------------------------------------------------------------------------

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

}  // namespace

// --- small JSON accessors that never throw ------------------------------------------------

const Json* Member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// A non-negative integer member, or nullopt when absent or of another type.
std::optional<int64_t> IndexMember(const Json& object, const char* key) {
  const Json* m = Member(object, key);
  if (!m || !m->is_number_integer()) return std::nullopt;
  const int64_t v = m->get<int64_t>();
  if (v < 0) return std::nullopt;
  return v;
}

int64_t IntMember(const Json& object, const char* key, int64_t fallback) {
  const Json* m = Member(object, key);
  if (!m || !m->is_number_integer()) return fallback;
  return m->get<int64_t>();
}

std::string StringMember(const Json& object, const char* key) {
  const Json* m = Member(object, key);
  return m && m->is_string() ? m->get<std::string>() : std::string();
}

const Json& ArrayMember(const Json& object, const char* key) {
  static const Json empty = Json::array();
  const Json* m = Member(object, key);
  return m && m->is_array() ? *m : empty;
}

std::string PercentDecode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

bool ReadWholeFile(const std::string& path, std::vector<uint8_t>* out, std::string* error) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = errno ? std::strerror(errno) : "cannot open";
    return false;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0) {
    *error = "cannot determine its size";
    return false;
  }
  out->resize(static_cast<size_t>(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(out->data()), size)) {
    *error = "read error";
    return false;
  }
  return true;
}

bool WriteWholeFile(const std::string& path, const std::vector<uint8_t>& bytes,
                    std::string* error) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    *error = errno ? std::strerror(errno) : "cannot open for writing";
    return false;
  }
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    *error = errno ? std::strerror(errno) : "write error";
    return false;
  }
  return true;
}

bool Document::Parse(const std::string& path, const std::vector<uint8_t>& bytes,
                     std::string* error) {
  directory_ = std::filesystem::path(path).parent_path().string();
  const bool magic = bytes.size() >= 4 && ReadLe32(bytes.data()) == kGlbMagic;
  const std::string ext = ToLower(std::filesystem::path(path).extension().string());
  glb = magic || ext == ".glb";
  const uint8_t* json_begin = bytes.data();
  size_t json_size = bytes.size();
  if (glb) {
    if (bytes.size() < 12) {
      *error = "truncated .glb: " + std::to_string(bytes.size()) +
               " bytes, shorter than the 12-byte header";
      return false;
    }
    if (!magic) {
      *error = "not a glTF binary file (the first bytes are not the 'glTF' magic)";
      return false;
    }
    const uint32_t version = ReadLe32(bytes.data() + 4);
    if (version != 2) {
      *error = "glTF binary container version " + std::to_string(version) +
               " is not supported (only version 2)";
      return false;
    }
    const uint32_t declared = ReadLe32(bytes.data() + 8);
    if (declared > bytes.size()) {
      *error = "truncated .glb: its header declares " + std::to_string(declared) +
               " bytes but the file has " + std::to_string(bytes.size());
      return false;
    }
    size_t offset = 12;
    bool have_json = false;
    while (offset + 8 <= declared) {
      const uint32_t length = ReadLe32(bytes.data() + offset);
      const uint32_t type = ReadLe32(bytes.data() + offset + 4);
      if (uint64_t{length} + offset + 8 > declared) {
        *error = "truncated .glb: a chunk of " + std::to_string(length) + " bytes at offset " +
                 std::to_string(offset) + " runs past the end of the file";
        return false;
      }
      const uint8_t* data = bytes.data() + offset + 8;
      if (!have_json) {
        if (type != kChunkJson) {
          *error = "malformed .glb: the first chunk is not JSON";
          return false;
        }
        json_begin = data;
        json_size = length;
        have_json = true;
      } else if (type == kChunkBin && !has_bin_) {
        bin_.assign(data, data + length);
        has_bin_ = true;
      }
      offset += 8 + static_cast<size_t>(length);
    }
    if (!have_json) {
      *error = "truncated .glb: no JSON chunk";
      return false;
    }
  }
  root = Json::parse(json_begin, json_begin + json_size, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) {
    *error = glb ? "malformed .glb: its JSON chunk does not parse"
                 : "not a glTF file: the content is not valid JSON";
    return false;
  }
  return true;
}

bool Document::Buffer(int64_t index, const std::vector<uint8_t>** data, std::string* error) {
  auto it = buffers_.find(index);
  if (it != buffers_.end()) {
    *data = &it->second;
    return true;
  }
  const Json& buffers = ArrayMember(root, "buffers");
  if (index >= static_cast<int64_t>(buffers.size())) {
    *error = "buffer " + std::to_string(index) + " does not exist";
    return false;
  }
  const Json& buffer = buffers[static_cast<size_t>(index)];
  const std::string uri = StringMember(buffer, "uri");
  std::vector<uint8_t> content;
  if (uri.empty()) {
    if (!(glb && index == 0 && has_bin_)) {
      *error = "buffer " + std::to_string(index) + " has no data (no uri and no binary chunk)";
      return false;
    }
    content = bin_;
  } else if (uri.rfind("data:", 0) == 0) {
    const size_t marker = uri.find(";base64,");
    if (marker == std::string::npos || !Base64Decode(uri, marker + 8, &content)) {
      *error = "buffer " + std::to_string(index) + " has a data URI that is not valid base64";
      return false;
    }
  } else {
    const std::string file =
        (std::filesystem::path(directory_) / PercentDecode(uri)).lexically_normal().string();
    std::string reason;
    if (!ReadWholeFile(file, &content, &reason)) {
      *error = "cannot read buffer file '" + uri + "': " + reason;
      return false;
    }
  }
  const int64_t declared = IntMember(buffer, "byteLength", -1);
  if (declared < 0 || static_cast<uint64_t>(declared) > content.size()) {
    *error = "buffer " + std::to_string(index) + " holds " + std::to_string(content.size()) +
             " bytes, fewer than its byteLength " + std::to_string(declared);
    return false;
  }
  auto inserted = buffers_.emplace(index, std::move(content));
  *data = &inserted.first->second;
  return true;
}

bool Document::ReadAccessor(int64_t index, AccessorData* out, std::string* error) {
  const Json& accessors = ArrayMember(root, "accessors");
  const std::string name = "accessor " + std::to_string(index);
  if (index < 0 || index >= static_cast<int64_t>(accessors.size())) {
    *error = name + " does not exist";
    return false;
  }
  const Json& acc = accessors[static_cast<size_t>(index)];
  out->components = ComponentCount(StringMember(acc, "type"));
  out->component_type = static_cast<int>(IntMember(acc, "componentType", 0));
  out->normalized = Member(acc, "normalized") && (*Member(acc, "normalized")).is_boolean() &&
                    (*Member(acc, "normalized")).get<bool>();
  const int component_size = ComponentSize(out->component_type);
  const int64_t count = IntMember(acc, "count", -1);
  if (out->components == 0 || component_size == 0 || count < 0 ||
      static_cast<uint64_t>(count) > kMaxAccessorCount) {
    *error = name + " has an invalid type, component type or count";
    return false;
  }
  if (out->components > 4 && component_size < 4) {
    *error = name + " is a matrix of 8- or 16-bit components, which is not supported";
    return false;
  }
  out->count = static_cast<size_t>(count);
  const size_t width = static_cast<size_t>(out->components);
  out->values.assign(out->count * width, 0.0f);
  const uint64_t element_size = uint64_t{width} * static_cast<uint64_t>(component_size);
  if (auto view_index = IndexMember(acc, "bufferView")) {
    const Json& views = ArrayMember(root, "bufferViews");
    if (*view_index >= static_cast<int64_t>(views.size())) {
      *error = name + " refers to a missing bufferView";
      return false;
    }
    const Json& view = views[static_cast<size_t>(*view_index)];
    const std::vector<uint8_t>* data = nullptr;
    const auto buffer_index = IndexMember(view, "buffer");
    if (!buffer_index) {
      *error = "bufferView " + std::to_string(*view_index) + " names no buffer";
      return false;
    }
    if (!Buffer(*buffer_index, &data, error)) return false;
    const int64_t view_offset = IntMember(view, "byteOffset", 0);
    const int64_t view_length = IntMember(view, "byteLength", -1);
    const int64_t stride_member = IntMember(view, "byteStride", 0);
    const int64_t acc_offset = IntMember(acc, "byteOffset", 0);
    if (view_offset < 0 || view_length < 0 || acc_offset < 0 || stride_member < 0 ||
        static_cast<uint64_t>(view_offset) + static_cast<uint64_t>(view_length) > data->size()) {
      *error = "bufferView " + std::to_string(*view_index) + " lies outside its buffer";
      return false;
    }
    const uint64_t stride = stride_member > 0 ? static_cast<uint64_t>(stride_member) : element_size;
    if (out->count > 0 &&
        static_cast<uint64_t>(acc_offset) + stride * (out->count - 1) + element_size >
            static_cast<uint64_t>(view_length)) {
      *error = name + " reads past the end of its bufferView (truncated data)";
      return false;
    }
    const uint8_t* base = data->data() + view_offset + acc_offset;
    for (size_t i = 0; i < out->count; ++i) {
      const uint8_t* element = base + stride * i;
      for (size_t c = 0; c < width; ++c) {
        out->values[i * width + c] =
            DecodeComponent(element + c * static_cast<size_t>(component_size), out->component_type,
                            out->normalized);
      }
    }
  }
  if (const Json* sparse = Member(acc, "sparse")) {
    const int64_t sparse_count = IntMember(*sparse, "count", -1);
    const Json* indices = Member(*sparse, "indices");
    const Json* values = Member(*sparse, "values");
    if (sparse_count < 0 || static_cast<uint64_t>(sparse_count) > out->count || !indices ||
        !values) {
      *error = name + " has an invalid sparse section";
      return false;
    }
    const int index_type = static_cast<int>(IntMember(*indices, "componentType", 0));
    const int index_size = ComponentSize(index_type);
    const uint8_t* index_data = nullptr;
    const uint8_t* value_data = nullptr;
    const uint64_t n = static_cast<uint64_t>(sparse_count);
    if (index_size == 0 || index_type == kFloat ||
        !ViewBytes(*indices, n * static_cast<uint64_t>(index_size), &index_data, error) ||
        !ViewBytes(*values, n * element_size, &value_data, error)) {
      if (error->empty()) *error = name + " has sparse data outside its buffers";
      return false;
    }
    for (uint64_t s = 0; s < n; ++s) {
      const float target_f =
          DecodeComponent(index_data + s * static_cast<uint64_t>(index_size), index_type, false);
      const uint64_t target = static_cast<uint64_t>(target_f);
      if (target >= out->count) {
        *error = name + " has a sparse index out of range";
        return false;
      }
      for (size_t c = 0; c < width; ++c) {
        out->values[target * width + c] =
            DecodeComponent(value_data + s * element_size + c * static_cast<size_t>(component_size),
                            out->component_type, out->normalized);
      }
    }
  }
  return true;
}

int64_t Document::AddAccessor(const void* data, size_t byte_count, int component_type,
                              const char* type, size_t count, const Json& extra) {
  while (generated_.size() % 4 != 0) generated_.push_back(0);
  const size_t offset = generated_.size();
  const auto* bytes = static_cast<const uint8_t*>(data);
  generated_.insert(generated_.end(), bytes, bytes + byte_count);
  generated_views_.emplace_back(offset, byte_count);
  Json accessor = {{"componentType", component_type},
                   {"count", count},
                   {"type", type},
                   {"bufferView", -1}};  // patched in Serialize once view indices are known
  if (extra.is_object()) accessor.update(extra);
  generated_accessors_.push_back(accessor);
  changed_ = true;
  return static_cast<int64_t>(ArrayMember(root, "accessors").size() + generated_accessors_.size() -
                              1);
}

bool Document::ViewBytes(const Json& reference, uint64_t bytes_needed, const uint8_t** begin,
                         std::string* error) {
  const auto view_index = IndexMember(reference, "bufferView");
  const Json& views = ArrayMember(root, "bufferViews");
  if (!view_index || *view_index >= static_cast<int64_t>(views.size())) return false;
  const Json& view = views[static_cast<size_t>(*view_index)];
  const auto buffer_index = IndexMember(view, "buffer");
  const std::vector<uint8_t>* data = nullptr;
  if (!buffer_index || !Buffer(*buffer_index, &data, error)) return false;
  const int64_t view_offset = IntMember(view, "byteOffset", 0);
  const int64_t view_length = IntMember(view, "byteLength", -1);
  const int64_t offset = IntMember(reference, "byteOffset", 0);
  if (view_offset < 0 || view_length < 0 || offset < 0 ||
      static_cast<uint64_t>(view_offset) + static_cast<uint64_t>(view_length) > data->size() ||
      static_cast<uint64_t>(offset) + bytes_needed > static_cast<uint64_t>(view_length)) {
    return false;
  }
  *begin = data->data() + view_offset + offset;
  return true;
}

std::vector<uint8_t> Document::Serialize() {
  if (!generated_.empty()) {
    for (const char* key : {"buffers", "bufferViews", "accessors"}) {
      if (!root.contains(key) || !root[key].is_array()) root[key] = Json::array();
    }
    Json& buffers = root["buffers"];
    // In a .glb the new bytes extend the binary chunk (buffer 0); elsewhere they become a
    // base64 buffer of their own.
    const bool into_bin = glb && (buffers.empty() || !buffers[0].contains("uri"));
    size_t base = 0, buffer_index = buffers.size();
    if (into_bin) {
      if (buffers.empty()) buffers.push_back(Json{{"byteLength", 0}});
      while (bin_.size() % 4 != 0) bin_.push_back(0);
      base = bin_.size();
      bin_.insert(bin_.end(), generated_.begin(), generated_.end());
      has_bin_ = true;
      buffers[0]["byteLength"] = bin_.size();
      buffer_index = 0;
      buffers_.erase(0);  // cached copy is stale
    } else {
      buffers.push_back(
          {{"byteLength", generated_.size()},
           {"uri", "data:application/octet-stream;base64," + Base64Encode(generated_)}});
    }
    const size_t first_view = root["bufferViews"].size();
    for (const auto& [offset, length] : generated_views_) {
      root["bufferViews"].push_back(
          {{"buffer", buffer_index}, {"byteOffset", base + offset}, {"byteLength", length}});
    }
    for (size_t i = 0; i < generated_accessors_.size(); ++i) {
      Json accessor = generated_accessors_[i];
      accessor["bufferView"] = first_view + i;
      root["accessors"].push_back(accessor);
    }
    generated_.clear();
    generated_views_.clear();
    generated_accessors_.clear();
  }
  const std::string text = root.dump();
  if (!glb) return std::vector<uint8_t>(text.begin(), text.end());
  std::vector<uint8_t> json_chunk(text.begin(), text.end());
  while (json_chunk.size() % 4 != 0) json_chunk.push_back(' ');
  std::vector<uint8_t> bin_chunk = bin_;
  while (bin_chunk.size() % 4 != 0) bin_chunk.push_back(0);
  const size_t total = 12 + 8 + json_chunk.size() + (has_bin_ ? 8 + bin_chunk.size() : 0);
  std::vector<uint8_t> out;
  out.reserve(total);
  AppendLe32(&out, kGlbMagic);
  AppendLe32(&out, 2);
  AppendLe32(&out, static_cast<uint32_t>(total));
  AppendLe32(&out, static_cast<uint32_t>(json_chunk.size()));
  AppendLe32(&out, kChunkJson);
  out.insert(out.end(), json_chunk.begin(), json_chunk.end());
  if (has_bin_) {
    AppendLe32(&out, static_cast<uint32_t>(bin_chunk.size()));
    AppendLe32(&out, kChunkBin);
    out.insert(out.end(), bin_chunk.begin(), bin_chunk.end());
  }
  return out;
}

}  // namespace assets::gltf
