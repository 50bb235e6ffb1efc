// A glTF 2.0 document as JSON plus its buffers: container parsing (.gltf / .glb), bounds-checked
// accessor reads, appending new accessors, and writing the file back. Internal to assets/ (used
// by the glTF reader and by the exporter's repair pass); nothing outside assets/ includes it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "assets/files/model_files.h"

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
  bool has_view = false;      // false: zero-filled (and maybe sparse) data
  std::vector<float> values;  // count * components
};

class Document {
 public:
  Json root;  // the JSON document
  bool glb = false;

  // The files the document may read (buffers, its own binary chunk): set before Parse to apply an
  // import's rules and record what was read; without it Parse makes one with the folder rule.
  // Not owned; must outlive the Document.
  void UseFiles(ModelFiles* files) { files_ = files; }

  // Reads the container. Fails with a reason (truncated or malformed .glb, JSON that does not
  // parse or nests deeper than kMaxJsonDepth, JSON text over kMaxJsonBytes) in *error. `bytes`
  // may be only the start of a .glb of `file_size` bytes (at least its header, JSON chunk and the
  // next chunk header): its binary chunk is then read from `path` as accessors need it, so a
  // large model is never held whole. Nothing is copied from `bytes`: they must outlive the
  // Document.
  bool Parse(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error,
             uint64_t file_size = 0);

  // Reads accessor `index`, checking every offset against its bufferView and buffer. Buffers are
  // loaded on first use: the .glb binary chunk, base64 data URIs, or files next to the model
  // (through ModelFiles: inside the model's folder unless allowed, regular files only; a refusal
  // fails with "cannot read buffer file 'URI': REASON").
  bool ReadAccessor(int64_t index, AccessorData* out, std::string* error);

  // Checks every buffer, bufferView and accessor before anything reads them: each buffer holds
  // the bytes its byteLength declares (BufferSize), each bufferView lies inside its buffer, each
  // accessor has a valid type and component type, at most `max_elements` elements, and lies
  // inside its bufferView (so its count is bounded by real bytes); sparse sections likewise; an
  // accessor without a bufferView (zero-filled) may decode to at most kMaxZeroFilledBytes. Fails
  // with the first problem in *error.
  bool ValidateLayout(uint64_t max_elements, std::string* error) const;

  // Reads accessor `index` (checked as ReadAccessor does) straight into `out`, which has room for
  // `count` elements of `components` floats; fails unless the accessor has exactly that shape.
  // Large vertex attributes are decoded without an intermediate copy this way.
  bool ReadAccessorInto(int64_t index, int components, size_t count, float* out,
                        std::string* error);
  // An unsigned byte, short or int scalar accessor (triangle indices) as exact integers.
  bool ReadIndices(int64_t index, std::vector<uint32_t>* out, std::string* error);
  // Reads an unsigned byte or short accessor (JOINTS_n) of exactly `count` elements of
  // `components` components straight into `out` as exact integers; fails for another shape or
  // component type.
  bool ReadUnsignedInto(int64_t index, int components, size_t count, uint16_t* out,
                        std::string* error);
  // The component type an accessor declares (5120...5126), or 0 when it has none valid.
  int AccessorComponentType(int64_t index) const;

  // Reads accessor `index` into *out (which it replaces) when it is exactly `count` tightly packed
  // elements of type T — `components` components of `component_type` each, without a sparse
  // section — a chunk at a time, so that the array is written once (no zero-filled array read
  // over). Returns false with *error empty when the accessor is laid out otherwise (read it
  // element by element then), false with *error set when its data cannot be read.
  template <typename T>
  bool ReadArray(int64_t index, int components, int component_type, size_t count,
                 std::vector<T>* out, std::string* error) {
    static_assert(std::is_standard_layout<T>::value, "T is read as bytes");
    int64_t buffer = -1;
    uint64_t offset = 0;
    if (!PackedRange(index, components, component_type, sizeof(T), count, &buffer, &offset)) {
      return false;
    }
    constexpr size_t kChunkElements = std::max<size_t>(1, (size_t{128} << 10) / sizeof(T));
    const std::unique_ptr<T[]> chunk(new T[std::min(kChunkElements, std::max<size_t>(count, 1))]);
    out->clear();
    out->reserve(count);
    for (size_t done = 0; done < count;) {
      const size_t n = std::min(kChunkElements, count - done);
      if (!ReadInto(buffer, offset + done * sizeof(T), n * sizeof(T), chunk.get(), error)) {
        if (error->empty()) *error = "accessor " + std::to_string(index) + " cannot be read";
        return false;
      }
      out->insert(out->end(), chunk.get(), chunk.get() + n);
      done += n;
    }
    return true;
  }
  // Element and component counts of an accessor as declared; false when it has none valid.
  bool AccessorShape(int64_t index, size_t* count, int* components) const;

  // A copy of bufferView `view`'s bytes (checked to lie inside its buffer).
  bool ViewData(int64_t view, std::vector<uint8_t>* out, std::string* error);

  // Bytes buffer `index` really holds, without reading an external file (its size on disk), for
  // checking declared sizes before anything is allocated from them. Fails for a missing buffer,
  // a file that cannot be opened (missing, refused by ModelFiles) or a data URI that is not
  // base64.
  bool BufferSize(int64_t index, uint64_t* size, std::string* error) const;
  // Sizes of the distinct external files the buffers name, added up (files that cannot be opened
  // count 0): with the file's own size, the bytes the model really has.
  uint64_t ExternalBufferBytes() const;

  // Decodes every bufferView compressed with EXT_meshopt_compression (attributes, triangle and
  // index modes; OCTAHEDRAL, QUATERNION and EXPONENTIAL filters) into memory and rewrites it as a
  // plain bufferView over a new buffer, then drops the extension from extensionsUsed and
  // extensionsRequired; its fallback buffer is never read. Fails naming the bufferView when the
  // extension is malformed or its data does not decode, or when all of it would decode to more
  // than `max_bytes`. Call it before anything reads the views (ValidateLayout included).
  bool UnpackMeshopt(uint64_t max_bytes, std::string* error);
  // Bytes UnpackMeshopt decoded (what the file would hold uncompressed).
  uint64_t unpacked_bytes() const { return unpacked_bytes_; }

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
  struct View {
    const uint8_t* data = nullptr;
    size_t size = 0;
  };
  // Where a buffer's bytes are: in memory, or a range of a file (the model file itself when
  // `file` is empty, else the real path of an external buffer file).
  struct Source {
    const uint8_t* memory = nullptr;
    std::string file;
    uint64_t file_offset = 0;
    uint64_t size = 0;
  };
  // The open file for a Source's `file`, opened through files_ on first use.
  const InputFile* OpenSource(const std::string& file, std::string* error) const;
  bool Resolve(int64_t index, Source* out, std::string* error);
  // Bytes [offset, offset + length) of buffer `buffer`: a pointer into memory, or read into
  // *scratch from the file.
  bool Read(int64_t buffer, uint64_t offset, uint64_t length, const uint8_t** out,
            std::vector<uint8_t>* scratch, std::string* error);
  bool ReadFileRange(const std::string& file, uint64_t offset, uint64_t length, const uint8_t** out,
                     std::vector<uint8_t>* scratch, std::string* error);
  // Where accessor `index` lies for ReadArray (its buffer, and the byte offset there) when it is
  // `count` elements of `element_size` bytes, `components` components of `component_type`,
  // tightly packed in a bufferView, without a sparse section; false otherwise.
  bool PackedRange(int64_t index, int components, int component_type, size_t element_size,
                   size_t count, int64_t* buffer, uint64_t* offset) const;
  // Bytes [offset, offset + length) of buffer `buffer` copied straight into `out`.
  bool ReadInto(int64_t buffer, uint64_t offset, uint64_t length, void* out, std::string* error);
  // `direct()` (called after `begin`): where tightly packed dense data of component type
  // `direct_type` is copied as it is instead of element by element through `put`; null for none.
  template <typename Begin, typename Put, typename Direct>
  bool Visit(int64_t index, AccessorData* meta, Begin begin, Put put, Direct direct,
             int direct_type, std::string* error);
  bool LoadBin(std::string* error);
  View Bin() const;
  bool ViewBytes(const Json& reference, uint64_t bytes_needed, const uint8_t** begin,
                 std::vector<uint8_t>* scratch, std::string* error);

  std::string path_;
  View bin_source_;  // the .glb binary chunk: data null when it was left in the file
  uint64_t bin_file_offset_ = 0;
  std::vector<uint8_t> bin_;  // a copy, made only when Serialize extends it
  bool bin_copied_ = false;
  bool has_bin_ = false;
  ModelFiles* files_ = nullptr;
  std::unique_ptr<ModelFiles> own_files_;
  std::map<int64_t, Source> sources_;
  std::map<int64_t, std::vector<uint8_t>> decoded_;  // data URIs and meshopt-decoded buffers
  std::set<int64_t> unpacked_buffers_;               // the meshopt-decoded ones
  uint64_t unpacked_bytes_ = 0;
  // Files open for reading, by Source::file; a few at a time (a file may list thousands).
  mutable std::map<std::string, InputFile> open_files_;
  std::vector<uint8_t> generated_;
  std::vector<std::pair<size_t, size_t>> generated_views_;  // offset, length in generated_
  std::vector<Json> generated_accessors_;
  bool changed_ = false;
};

// JSON nested deeper than this is refused before parsing: Assimp's glTF reader parses
// recursively and would overflow the stack (real files nest about 10 levels).
inline constexpr int kMaxJsonDepth = 256;
// JSON text larger than this is refused (a parsed document takes several times its text).
inline constexpr uint64_t kMaxJsonBytes = uint64_t{512} << 20;

// Largest decoded size of an accessor that has no bufferView (all zeros, maybe sparse): such
// accessors cost memory without costing file bytes.
inline constexpr uint64_t kMaxZeroFilledBytes = uint64_t{256} << 20;

// Base64 of `data` (for data URIs), and back from `text` starting at `begin` (false on a
// character outside the alphabet).
std::string Base64(const std::vector<uint8_t>& data);
bool DecodeBase64(const std::string& text, size_t begin, std::vector<uint8_t>* out);

// A glTF file's bytes: `root` as text, or for `glb` a binary container with `root` as its JSON
// chunk and `bin` (when not empty) as its binary chunk.
std::vector<uint8_t> WriteContainer(const Json& root, bool glb, const std::vector<uint8_t>& bin);

// Decodes %XX escapes in a URI.
std::string PercentDecode(const std::string& uri);

// Reads a whole regular file (opened without blocking); false with the reason in *error.
bool ReadWholeFile(const std::string& path, std::vector<uint8_t>* out, std::string* error);
// Writes a whole file atomically and checked (assets/files/file_output.h's WriteFileAtomically);
// false with the reason (not naming the path) in *error.
bool WriteWholeFile(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error);

}  // namespace assets::gltf
