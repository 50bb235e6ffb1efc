// Writing a glTF 2.0 file from scratch: the JSON document (nlohmann-json) and one binary buffer
// packed here, each piece of data a bufferView of its own, aligned to 4 bytes; then either a .glb
// (JSON chunk and BIN chunk) or a .gltf whose buffer is a file beside it. The exporter
// (assets/export/exporter.cpp) fills it from a Model. Deterministic: the same calls give the same
// bytes. Internal to assets/; independent of the reader's gltf::Document.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace assets::gltf_out {

using Json = nlohmann::json;

// glTF componentType values.
inline constexpr int kUnsignedByte = 5121;
inline constexpr int kUnsignedShort = 5123;
inline constexpr int kUnsignedInt = 5125;
inline constexpr int kFloat = 5126;

// What a bufferView holds, for its `target`: vertex attributes (ARRAY_BUFFER), triangle indices
// (ELEMENT_ARRAY_BUFFER), or anything else (inverse binds, animation keys, images: no target).
enum class ViewUse { kOther, kVertices, kIndices };

class Writer {
 public:
  Writer();

  // The document. Starts as {"asset": {"version": "2.0", "generator": "skelview"}}; the caller
  // adds scenes, nodes, meshes and so on. `buffers` and `bufferViews` are the writer's.
  Json root;

  // Appends `size` bytes as a new bufferView (starting on a 4-byte boundary of the buffer) and
  // returns its index.
  int64_t AddView(const void* data, size_t size, ViewUse use);

  // Appends `count` elements of `type` ("SCALAR", "VEC2", "VEC3", "VEC4", "MAT4") made of
  // `component_type` components, tightly packed at `data`, as a bufferView of its own and an
  // accessor over it; returns the accessor's index. `extra` members (min, max, normalized) are
  // added to the accessor.
  int64_t AddAccessor(const void* data, int component_type, const char* type, size_t count,
                      ViewUse use, const Json& extra = Json::object());

  // A float accessor of `count` elements of `components` floats each (type from the count: 1
  // SCALAR, 2 VEC2, 3 VEC3, 4 VEC4, 16 MAT4), with exact per-component min and max when `bounds`.
  int64_t AddFloats(const float* values, size_t count, int components, ViewUse use, bool bounds);

  // As AddFloats with bounds, but the same values given twice make one accessor: the key times
  // of animation samplers, which tracks and clips often share.
  int64_t AddSharedFloats(const float* values, size_t count, int components);

  // Makes room for `bytes` of binary data (an estimate), so the buffer grows without copies.
  void Reserve(size_t bytes) { bin_.reserve(bytes); }

  // Bytes in the binary buffer so far.
  size_t buffer_size() const { return bin_.size(); }

  // The finished file: a .glb with the binary buffer as its BIN chunk...
  std::vector<uint8_t> Glb();
  // ...or the JSON text of a .gltf whose buffer is the file `bin_uri` (a relative URI); its
  // contents are then buffer() (nothing to write, and no buffer in the document, when empty).
  std::vector<uint8_t> GltfText(const std::string& bin_uri);
  const std::vector<uint8_t>& buffer() const { return bin_; }

 private:
  void SetBuffer(const std::string& uri);
  std::vector<uint8_t> bin_;
  std::map<std::vector<uint8_t>, int64_t> shared_;  // AddSharedFloats' accessors by their bytes
};

// The JSON text of `root`, compact; strings that are not valid UTF-8 get U+FFFD where they are
// broken (names come from files that promise nothing).
std::string JsonText(const Json& root);

// A file name as a relative URI: every byte but unreserved characters percent-encoded.
std::string UriOfFileName(const std::string& name);

}  // namespace assets::gltf_out
