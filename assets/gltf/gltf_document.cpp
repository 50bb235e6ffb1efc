// glTF document: container parsing, buffers (the .glb chunk, data URIs, side files), appended
// accessors and serialisation; accessor reads are in gltf_accessors.cpp. Every offset read from
// the file is checked before it is used.
#include "assets/gltf/gltf_document.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

#include "assets/files/file_output.h"
#include "assets/files/messages.h"

namespace assets::gltf {
namespace {

constexpr uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr uint32_t kChunkJson = 0x4E4F534A;
constexpr uint32_t kChunkBin = 0x004E4942;

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
  glb = magic || ext == ".glb" || ext == ".vrm";  // a VRM avatar is a .glb
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

bool Document::ReadInto(int64_t buffer, uint64_t offset, uint64_t length, void* out,
                        std::string* error) {
  Source source;
  if (!Resolve(buffer, &source, error)) return false;
  if (offset > source.size || length > source.size - offset) {
    *error = "a read of " + std::to_string(length) + " bytes at " + std::to_string(offset) +
             " lies outside buffer " + std::to_string(buffer);
    return false;
  }
  if (source.memory) {
    std::memcpy(out, source.memory + offset, static_cast<size_t>(length));
    return true;
  }
  const InputFile* input = OpenSource(source.file, error);
  if (!input) return false;
  const uint64_t at = source.file_offset + offset;
  if (at > input->size() || length > input->size() - at ||
      !input->ReadAt(at, out, static_cast<size_t>(length))) {
    *error =
        "cannot read " + std::to_string(length) + " bytes at offset " + std::to_string(at) +
        " of " +
        Quoted(
            std::filesystem::path(source.file.empty() ? path_ : source.file).filename().string()) +
        " (truncated file?)";
    return false;
  }
  return true;
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

std::string Base64(const std::vector<uint8_t>& data) { return Base64Encode(data); }

bool DecodeBase64(const std::string& text, size_t begin, std::vector<uint8_t>* out) {
  return Base64Decode(text, begin, out);
}

namespace {

// The file's bytes: the JSON text alone, or a .glb with a JSON chunk and, when `with_bin`, a BIN
// chunk of `bin_size` bytes at `bin` (both padded to 4 bytes).
std::vector<uint8_t> Container(const Json& root, bool glb, const uint8_t* bin, size_t bin_size,
                               bool with_bin) {
  const std::string text = root.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (!glb) return std::vector<uint8_t>(text.begin(), text.end());
  std::vector<uint8_t> json_chunk(text.begin(), text.end());
  while (json_chunk.size() % 4 != 0) json_chunk.push_back(' ');
  const size_t bin_padding = (4 - bin_size % 4) % 4;
  const size_t total = 12 + 8 + json_chunk.size() + (with_bin ? 8 + bin_size + bin_padding : 0);
  std::vector<uint8_t> out;
  out.reserve(total);
  AppendLe32(&out, kGlbMagic);
  AppendLe32(&out, 2);
  AppendLe32(&out, static_cast<uint32_t>(total));
  AppendLe32(&out, static_cast<uint32_t>(json_chunk.size()));
  AppendLe32(&out, kChunkJson);
  out.insert(out.end(), json_chunk.begin(), json_chunk.end());
  if (with_bin) {
    AppendLe32(&out, static_cast<uint32_t>(bin_size + bin_padding));
    AppendLe32(&out, kChunkBin);
    if (bin_size > 0) out.insert(out.end(), bin, bin + bin_size);
    out.insert(out.end(), bin_padding, 0);
  }
  return out;
}

}  // namespace

std::vector<uint8_t> WriteContainer(const Json& root, bool glb, const std::vector<uint8_t>& bin) {
  return Container(root, glb, bin.data(), bin.size(), !bin.empty());
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

std::vector<uint8_t> Document::Serialize() {
  std::string ignored;
  LoadBin(&ignored);  // a binary chunk left in the file is needed whole now
  // Decoded meshopt buffers live in memory only: the file Assimp reads carries them as data URIs.
  for (int64_t index : unpacked_buffers_) {
    root["buffers"][static_cast<size_t>(index)]["uri"] =
        "data:application/octet-stream;base64," + Base64Encode(decoded_[index]);
  }
  unpacked_buffers_.clear();
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
  const View bin = Bin();
  return Container(root, glb, bin.data, bin.size, has_bin_);
}

}  // namespace assets::gltf
