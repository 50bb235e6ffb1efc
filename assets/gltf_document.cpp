// glTF document: container parsing, bounds-checked accessor reads, appended accessors and
// serialisation. Every offset read from the file is checked before it is used.
#include "assets/internal/gltf_document.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

#include "assets/file_output.h"
#include "assets/internal/messages.h"

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

// Deepest nesting of [ and { outside strings (a cheap scan; the text need not be valid JSON).
int JsonDepth(const uint8_t* text, size_t size) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const uint8_t c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// Decoded size of base64 text from `begin` (whitespace ignored, '=' ends it).
uint64_t Base64DecodedSize(const std::string& text, size_t begin) {
  uint64_t symbols = 0;
  for (size_t i = begin; i < text.size() && text[i] != '='; ++i) {
    const char c = text[i];
    if (c != '\n' && c != '\r' && c != ' ') ++symbols;
  }
  return symbols * 6 / 8;
}

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
  InputFile file;
  if (OpenRegularFile(path, &file, error) != FileStatus::kOk) return false;
  out->resize(static_cast<size_t>(file.size()));
  if (!out->empty() && !file.ReadAt(0, out->data(), out->size())) {
    *error = errno ? std::strerror(errno) : "read error (the file shrank)";
    return false;
  }
  return true;
}

bool WriteWholeFile(const std::string& path, const std::vector<uint8_t>& bytes,
                    std::string* error) {
  std::string reason;
  if (WriteFileAtomically(path, bytes.data(), bytes.size(), &reason)) return true;
  // WriteFileAtomically's message names the path; this function's callers add their own.
  const std::string prefix = path + ": cannot write: ";
  *error = reason.rfind(prefix, 0) == 0 ? reason.substr(prefix.size()) : reason;
  return false;
}

bool Document::Parse(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error,
                     uint64_t file_size) {
  path_ = path;
  if (!files_) {
    own_files_ = std::make_unique<ModelFiles>(path, /*allow_outside_files=*/false);
    files_ = own_files_.get();
  }
  file_size = std::max<uint64_t>(file_size, bytes.size());
  const bool magic = bytes.size() >= 4 && ReadLe32(bytes.data()) == kGlbMagic;
  const std::string ext = ToLower(std::filesystem::path(path).extension().string());
  glb = magic || ext == ".glb";
  const uint8_t* json_begin = bytes.data();
  size_t json_size = bytes.size();
  if (glb) {
    if (file_size < 12 || bytes.size() < 12) {
      *error = "truncated .glb: " + std::to_string(file_size) +
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
    if (declared > file_size) {
      *error = "truncated .glb: its header declares " + std::to_string(declared) +
               " bytes but the file has " + std::to_string(file_size);
      return false;
    }
    // Chunk headers and the JSON chunk must lie in `bytes`; the binary chunk may lie beyond (it
    // is then read from the file as accessors need it).
    size_t offset = 12;
    bool have_json = false;
    while (offset + 8 <= declared && offset + 8 <= bytes.size()) {
      const uint32_t length = ReadLe32(bytes.data() + offset);
      const uint32_t type = ReadLe32(bytes.data() + offset + 4);
      if (uint64_t{length} + offset + 8 > declared) {
        *error = "truncated .glb: a chunk of " + std::to_string(length) + " bytes at offset " +
                 std::to_string(offset) + " runs past the end of the file";
        return false;
      }
      const bool in_memory = uint64_t{length} + offset + 8 <= bytes.size();
      if (!have_json) {
        if (type != kChunkJson) {
          *error = "malformed .glb: the first chunk is not JSON";
          return false;
        }
        if (!in_memory) {
          *error = "truncated .glb: its JSON chunk runs past the bytes read";
          return false;
        }
        json_begin = bytes.data() + offset + 8;
        json_size = length;
        have_json = true;
      } else if (type == kChunkBin && !has_bin_) {
        bin_source_ = {in_memory ? bytes.data() + offset + 8 : nullptr, length};
        bin_file_offset_ = offset + 8;
        has_bin_ = true;
      }
      offset += 8 + static_cast<size_t>(length);
    }
    if (!have_json) {
      *error = "truncated .glb: no JSON chunk";
      return false;
    }
  }
  if (json_size > kMaxJsonBytes) {
    *error = "its JSON is " + std::to_string(json_size >> 20) + " MiB, more than the " +
             std::to_string(kMaxJsonBytes >> 20) + " MiB skelview reads";
    return false;
  }
  if (JsonDepth(json_begin, json_size) > kMaxJsonDepth) {
    *error = "its JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    return false;
  }
  root = Json::parse(json_begin, json_begin + json_size, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) {
    *error = glb ? "malformed .glb: its JSON chunk does not parse"
                 : "not a glTF file: the content is not valid JSON";
    return false;
  }
  return true;
}

bool Document::LoadBin(std::string* error) {
  if (bin_copied_ || !has_bin_ || bin_source_.data) return true;
  const uint8_t* data = nullptr;
  if (!ReadFileRange(std::string(), bin_file_offset_, bin_source_.size, &data, &bin_, error)) {
    return false;
  }
  bin_copied_ = true;
  return true;
}

Document::View Document::Bin() const {
  return bin_copied_ ? View{bin_.data(), bin_.size()} : bin_source_;
}

const InputFile* Document::OpenSource(const std::string& file, std::string* error) const {
  auto found = open_files_.find(file);
  if (found != open_files_.end()) return &found->second;
  // A model may list thousands of buffer files: keep a few open, reopen the others (through the
  // same rules) when they are read again.
  constexpr size_t kMaxOpenFiles = 16;
  if (open_files_.size() >= kMaxOpenFiles) open_files_.erase(open_files_.begin());
  InputFile opened;
  std::string reason;
  const FileStatus status =
      file.empty() ? files_->OpenModel(&opened, &reason) : files_->OpenPath(file, &opened, &reason);
  if (status != FileStatus::kOk) {
    *error = "cannot read " +
             (file.empty() ? std::string("the file")
                           : Quoted(std::filesystem::path(file).filename().string())) +
             ": " + reason;
    return nullptr;
  }
  return &open_files_.emplace(file, std::move(opened)).first->second;
}

bool Document::ReadFileRange(const std::string& file, uint64_t offset, uint64_t length,
                             const uint8_t** out, std::vector<uint8_t>* scratch,
                             std::string* error) {
  const InputFile* input = OpenSource(file, error);
  if (!input) return false;
  if (offset > input->size() || length > input->size() - offset) {
    *error = "cannot read " + std::to_string(length) + " bytes at offset " +
             std::to_string(offset) + " of " +
             Quoted(std::filesystem::path(file.empty() ? path_ : file).filename().string()) +
             " (truncated file?)";
    return false;
  }
  scratch->resize(length);
  if (length > 0 && !input->ReadAt(offset, scratch->data(), length)) {
    *error = "cannot read " + std::to_string(length) + " bytes at offset " +
             std::to_string(offset) + " of " +
             Quoted(std::filesystem::path(file.empty() ? path_ : file).filename().string()) +
             " (truncated file?)";
    return false;
  }
  *out = scratch->data();
  return true;
}

bool Document::Read(int64_t buffer, uint64_t offset, uint64_t length, const uint8_t** out,
                    std::vector<uint8_t>* scratch, std::string* error) {
  Source source;
  if (!Resolve(buffer, &source, error)) return false;
  if (offset > source.size || length > source.size - offset) {
    *error = "a read of " + std::to_string(length) + " bytes at " + std::to_string(offset) +
             " lies outside buffer " + std::to_string(buffer);
    return false;
  }
  if (source.memory) {
    *out = source.memory + offset;
    return true;
  }
  return ReadFileRange(source.file, source.file_offset + offset, length, out, scratch, error);
}

bool Document::Resolve(int64_t index, Source* out, std::string* error) {
  auto cached = sources_.find(index);
  if (cached != sources_.end()) {
    *out = cached->second;
    return true;
  }
  const Json& buffers = ArrayMember(root, "buffers");
  if (index < 0 || index >= static_cast<int64_t>(buffers.size())) {
    *error = "buffer " + std::to_string(index) + " does not exist";
    return false;
  }
  const Json& buffer = buffers[static_cast<size_t>(index)];
  const std::string uri = StringMember(buffer, "uri");
  Source source;
  if (uri.empty()) {
    if (!(glb && index == 0 && has_bin_)) {
      *error = "buffer " + std::to_string(index) + " has no data (no uri and no binary chunk)";
      return false;
    }
    const View bin = Bin();
    source.size = bin.size;
    source.memory = bin.data;
    if (!source.memory) {  // the binary chunk stays in the file (Source::file empty)
      source.file_offset = bin_file_offset_;
    }
  } else if (uri.rfind("data:", 0) == 0) {
    const size_t marker = uri.find(";base64,");
    std::vector<uint8_t> content;
    if (marker == std::string::npos || !Base64Decode(uri, marker + 8, &content)) {
      *error = "buffer " + std::to_string(index) + " has a data URI that is not valid base64";
      return false;
    }
    std::vector<uint8_t>& stored = decoded_[index] = std::move(content);
    source.memory = stored.data();
    source.size = stored.size();
  } else {
    InputFile file;
    std::string reason;
    if (files_->OpenReference(PercentDecode(uri), &file, &reason) != FileStatus::kOk) {
      *error = "cannot read buffer file " + Quoted(uri) + ": " + reason;
      return false;
    }
    source.file = file.real_path();
    source.size = file.size();
    if (open_files_.size() < 16) open_files_.emplace(source.file, std::move(file));
  }
  const int64_t declared = IntMember(buffer, "byteLength", -1);
  if (declared < 0 || static_cast<uint64_t>(declared) > source.size) {
    *error = "buffer " + std::to_string(index) + " holds " + std::to_string(source.size) +
             " bytes, fewer than its byteLength " + std::to_string(declared);
    return false;
  }
  sources_[index] = source;
  *out = source;
  return true;
}

static uint32_t DecodeUnsigned(const uint8_t* p, int component_type) {
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

// Validates accessor `index` against its bufferView and buffer, then hands every component to
// `put(element, bytes)` for every element (dense data first, then the sparse substitutions).
// `begin(meta)` runs once the shape is known, before any component, and may refuse it.
template <typename Begin, typename Put>
bool Document::Visit(int64_t index, AccessorData* meta, Begin begin, Put put, std::string* error) {
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
    // Only the accessor's own bytes are read (from the file when the buffer stays there).
    const uint8_t* base = nullptr;
    std::vector<uint8_t> scratch;
    if (span > 0 && !Read(*buffer_index, static_cast<uint64_t>(view_offset + acc_offset), span,
                          &base, &scratch, error)) {
      return false;
    }
    for (size_t i = 0; i < meta->count; ++i) {
      put(i, base + stride * i);
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
  return Visit(index, out, begin, put, error);
}

bool Document::ReadAccessorInto(int64_t index, int components, size_t count, float* out,
                                std::string* error) {
  AccessorData meta;
  auto begin = [&](const AccessorData& m) {
    if (m.components != components || m.count != count) {
      *error = "accessor " + std::to_string(index) + " does not have the expected shape";
      return false;
    }
    std::fill(out, out + count * static_cast<size_t>(components), 0.0f);
    return true;
  };
  const size_t width = static_cast<size_t>(components);
  auto put = [&](size_t i, const uint8_t* p) {
    if (meta.component_type == kFloat) {  // the common case: plain floats, copied as they are
      std::memcpy(out + i * width, p, width * sizeof(float));
      return;
    }
    const size_t size = static_cast<size_t>(ComponentSize(meta.component_type));
    for (size_t c = 0; c < width; ++c) {
      out[i * width + c] = DecodeComponent(p + c * size, meta.component_type, meta.normalized);
    }
  };
  return Visit(index, &meta, begin, put, error);
}

bool Document::ReadIndices(int64_t index, std::vector<uint32_t>* out, std::string* error) {
  AccessorData meta;
  auto begin = [&](const AccessorData& m) {
    if (m.components != 1 ||
        (m.component_type != 5121 && m.component_type != 5123 && m.component_type != 5125)) {
      *error = "accessor " + std::to_string(index) + " is not an unsigned integer scalar";
      return false;
    }
    out->assign(m.count, 0);
    return true;
  };
  auto put = [&](size_t i, const uint8_t* p) {
    (*out)[i] = DecodeUnsigned(p, meta.component_type);
  };
  return Visit(index, &meta, begin, put, error);
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

std::string Base64(const std::vector<uint8_t>& data) { return Base64Encode(data); }

bool DecodeBase64(const std::string& text, size_t begin, std::vector<uint8_t>* out) {
  return Base64Decode(text, begin, out);
}

std::vector<uint8_t> WriteContainer(const Json& root, bool glb, const std::vector<uint8_t>& bin) {
  const std::string text = root.dump();
  if (!glb) return std::vector<uint8_t>(text.begin(), text.end());
  std::vector<uint8_t> json_chunk(text.begin(), text.end());
  while (json_chunk.size() % 4 != 0) json_chunk.push_back(' ');
  const size_t bin_padding = (4 - bin.size() % 4) % 4;
  const size_t total =
      12 + 8 + json_chunk.size() + (bin.empty() ? 0 : 8 + bin.size() + bin_padding);
  std::vector<uint8_t> out;
  out.reserve(total);
  AppendLe32(&out, kGlbMagic);
  AppendLe32(&out, 2);
  AppendLe32(&out, static_cast<uint32_t>(total));
  AppendLe32(&out, static_cast<uint32_t>(json_chunk.size()));
  AppendLe32(&out, kChunkJson);
  out.insert(out.end(), json_chunk.begin(), json_chunk.end());
  if (!bin.empty()) {
    AppendLe32(&out, static_cast<uint32_t>(bin.size() + bin_padding));
    AppendLe32(&out, kChunkBin);
    out.insert(out.end(), bin.begin(), bin.end());
    out.insert(out.end(), bin_padding, 0);
  }
  return out;
}

bool Document::BufferSize(int64_t index, uint64_t* size, std::string* error) const {
  const Json& buffers = ArrayMember(root, "buffers");
  if (index < 0 || index >= static_cast<int64_t>(buffers.size())) {
    *error = "buffer " + std::to_string(index) + " does not exist";
    return false;
  }
  auto resolved = sources_.find(index);
  if (resolved != sources_.end()) {
    *size = resolved->second.size;
    return true;
  }
  const std::string uri = StringMember(buffers[static_cast<size_t>(index)], "uri");
  if (uri.empty()) {
    if (!(glb && index == 0 && has_bin_)) {
      *error = "buffer " + std::to_string(index) + " has no data (no uri and no binary chunk)";
      return false;
    }
    *size = Bin().size;
    return true;
  }
  if (uri.rfind("data:", 0) == 0) {
    const size_t marker = uri.find(";base64,");
    if (marker == std::string::npos) {
      *error = "buffer " + std::to_string(index) + " has a data URI that is not base64";
      return false;
    }
    *size = Base64DecodedSize(uri, marker + 8);
    return true;
  }
  std::string reason, real;
  if (files_->SizeOfReference(PercentDecode(uri), size, &real, &reason) != FileStatus::kOk) {
    *error = "cannot read buffer file " + Quoted(uri) + ": " + reason;
    return false;
  }
  return true;
}

uint64_t Document::ExternalBufferBytes() const {
  // Each file once, however many buffers name it and however they spell it.
  std::set<std::string> uris, files;
  uint64_t total = 0;
  for (const Json& buffer : ArrayMember(root, "buffers")) {
    const std::string uri = StringMember(buffer, "uri");
    if (uri.empty() || uri.rfind("data:", 0) == 0 || !uris.insert(uri).second) continue;
    uint64_t size = 0;
    std::string reason, real;
    if (files_->SizeOfReference(PercentDecode(uri), &size, &real, &reason) != FileStatus::kOk) {
      continue;
    }
    if (files.insert(real).second) total += size;
  }
  return total;
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

std::vector<uint8_t> Document::Serialize() {
  std::string ignored;
  LoadBin(&ignored);  // a binary chunk left in the file is needed whole now
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
      if (!bin_copied_) {
        if (bin_source_.data) bin_.assign(bin_source_.data, bin_source_.data + bin_source_.size);
        bin_copied_ = true;
      }
      while (bin_.size() % 4 != 0) bin_.push_back(0);
      base = bin_.size();
      bin_.insert(bin_.end(), generated_.begin(), generated_.end());
      has_bin_ = true;
      buffers[0]["byteLength"] = bin_.size();
      buffer_index = 0;
      sources_.erase(0);  // it points at the old bytes
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
  const View bin = Bin();
  const size_t bin_padding = (4 - bin.size % 4) % 4;
  const size_t total = 12 + 8 + json_chunk.size() + (has_bin_ ? 8 + bin.size + bin_padding : 0);
  std::vector<uint8_t> out;
  out.reserve(total);
  AppendLe32(&out, kGlbMagic);
  AppendLe32(&out, 2);
  AppendLe32(&out, static_cast<uint32_t>(total));
  AppendLe32(&out, static_cast<uint32_t>(json_chunk.size()));
  AppendLe32(&out, kChunkJson);
  out.insert(out.end(), json_chunk.begin(), json_chunk.end());
  if (has_bin_) {
    AppendLe32(&out, static_cast<uint32_t>(bin.size + bin_padding));
    AppendLe32(&out, kChunkBin);
    out.insert(out.end(), bin.data, bin.data + bin.size);
    out.insert(out.end(), bin_padding, 0);
  }
  return out;
}

}  // namespace assets::gltf
