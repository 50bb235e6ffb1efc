// A glTF 2.0 document as JSON plus its buffers: container parsing (.gltf / .glb), bounds-checked
// accessor reads, appending new accessors, and writing the file back. Internal to assets/ (used
// by the import pre-pass and by the exporter's repair pass); nothing outside assets/ includes it.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace assets::gltf {

using Json = nlohmann::json;

inline constexpr int kComponentFloat = 5126;
inline constexpr int kComponentUnsignedShort = 5123;

// Small accessors that never throw: nullptr / nullopt / fallback when absent or mistyped.
const Json* Member(const Json& object, const char* key);
std::optional<int64_t> IndexMember(const Json& object, const char* key);  // >= 0 integers only
int64_t IntMember(const Json& object, const char* key, int64_t fallback);
std::string StringMember(const Json& object, const char* key);
const Json& ArrayMember(const Json& object, const char* key);  // empty array when absent

// An accessor's elements converted to float (normalized integers scaled as glTF specifies).
struct AccessorData {
  int components = 0;
  int component_type = 0;
  bool normalized = false;
  size_t count = 0;
  std::vector<float> values;  // count * components
};

class Document {
 public:
  Json root;  // the JSON document
  bool glb = false;

  // Reads the container. Fails with a reason (truncated or malformed .glb, JSON that does not
  // parse) in *error.
  bool Parse(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error);

  // Reads accessor `index`, checking every offset against its bufferView and buffer. Buffers are
  // loaded on first use: the .glb binary chunk, base64 data URIs, or files next to the model.
  bool ReadAccessor(int64_t index, AccessorData* out, std::string* error);

  // Appends an accessor over new bytes; returns its index. The bytes go into the .glb binary
  // chunk when there is one, else into an extra base64 buffer. Marks the document changed.
  // `extra` members (e.g. min and max) are added to the accessor.
  int64_t AddAccessor(const void* data, size_t byte_count, int component_type, const char* type,
                      size_t count, const Json& extra = Json::object());

  bool changed() const { return changed_; }
  void MarkChanged() { changed_ = true; }

  // The file's new bytes (the same container kind as it was read from).
  std::vector<uint8_t> Serialize();

 private:
  bool Buffer(int64_t index, const std::vector<uint8_t>** data, std::string* error);
  bool ViewBytes(const Json& reference, uint64_t bytes_needed, const uint8_t** begin,
                 std::string* error);

  std::vector<uint8_t> bin_;
  bool has_bin_ = false;
  std::string directory_;
  std::map<int64_t, std::vector<uint8_t>> buffers_;
  std::vector<uint8_t> generated_;
  std::vector<std::pair<size_t, size_t>> generated_views_;  // offset, length in generated_
  std::vector<Json> generated_accessors_;
  bool changed_ = false;
};

// Decodes %XX escapes in a URI.
std::string PercentDecode(const std::string& uri);

// Reads a whole file; false with the reason (strerror) in *error.
bool ReadWholeFile(const std::string& path, std::vector<uint8_t>* out, std::string* error);
bool WriteWholeFile(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error);

}  // namespace assets::gltf
