// The model stream's parts shared by its writer (model_io_write.cpp) and its reader
// (model_io_read.cpp): the magic, the Writer and the Reader of the stream's fields, and the one
// list of a mesh's and a morph target's arrays in stream order. Private to assets/files.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "assets/files/model_io.h"
#include "assets/files/text.h"

namespace assets::model_io {

// The stream's first bytes.
inline constexpr char kMagic[8] = {'S', 'K', 'V', 'M', 'O', 'D', 'E', 'L'};
// Strings longer than this are refused (names and warnings are short; a source path is < 4 KiB).
inline constexpr uint32_t kMaxStringBytes = 1u << 20;

// Element types copied as raw bytes. glm's vectors are not formally trivially copyable under
// GLM_FORCE_CTOR_INIT (it gives them constructors) but are plain arrays of floats or integers.
template <typename T>
inline constexpr bool kPlainData =
    std::is_standard_layout_v<T>&& std::is_trivially_destructible_v<T> &&
    sizeof(T) % alignof(T) == 0;

// Writes the stream's fields to a sink in pieces of up to 64 KiB (larger arrays straight from the
// Model), counting the bytes; after the sink fails it only counts.
class Writer {
 public:
  // Without a sink the writer only counts (SerializedModelSize).
  explicit Writer(const ByteSink* sink) : sink_(sink) {
    if (sink_) buffer_.reserve(kBufferBytes);
  }
  void Bytes(const void* data, size_t size) {
    written_ += size;
    if (!sink_ || !ok_ || size == 0) return;
    if (buffer_.size() + size > kBufferBytes) Flush();
    if (size >= kBufferBytes) {
      ok_ = ok_ && (*sink_)(data, size);  // arrays go straight from the Model
      return;
    }
    const auto* p = static_cast<const char*>(data);
    buffer_.insert(buffer_.end(), p, p + size);
  }
  void U8(uint8_t v) { Bytes(&v, 1); }
  void U32(uint32_t v) { Bytes(&v, 4); }
  void I32(int32_t v) { Bytes(&v, 4); }
  void F32(float v) { Bytes(&v, 4); }
  void String(const std::string& s) {
    U32(static_cast<uint32_t>(s.size()));
    Bytes(s.data(), s.size());
  }
  // A vector of trivially copyable elements: count, then the raw elements.
  template <typename T>
  void Array(const std::vector<T>& v) {
    static_assert(kPlainData<T>);
    U32(static_cast<uint32_t>(v.size()));
    Bytes(v.data(), v.size() * sizeof(T));
  }
  void Quat(const glm::quat& q) {
    for (const float f : {q.x, q.y, q.z, q.w}) F32(f);
  }
  void Vec3(const glm::vec3& v) { Bytes(&v, sizeof(v)); }
  void Mat4(const glm::mat4& m) { Bytes(&m, sizeof(m)); }
  bool Flush() {
    if (sink_ && ok_ && !buffer_.empty()) ok_ = (*sink_)(buffer_.data(), buffer_.size());
    buffer_.clear();
    return ok_;
  }
  uint64_t written() const { return written_; }

 private:
  static constexpr size_t kBufferBytes = size_t{1} << 16;
  const ByteSink* sink_;
  std::vector<char> buffer_;
  uint64_t written_ = 0;
  bool ok_ = true;
};

// Reads the stream's fields from a source that holds `size` bytes: a read past them, or that the
// source cannot fill, fails with a one-line reason, as does a count the rest cannot hold.
class Reader {
 public:
  Reader(const ByteSource* source, uint64_t size) : source_(source), size_(size) {}

  uint64_t remaining() const { return size_ - offset_; }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

  // Records the first failure only: later reads after a failure are no-ops returning zeros.
  bool Fail(const std::string& reason) {
    if (error_.empty()) error_ = reason;
    return false;
  }

  bool Bytes(void* out, size_t size, const char* what) {
    if (failed()) return false;
    if (size > remaining()) {
      return Fail(std::string("truncated model data: ") + what + " needs " + std::to_string(size) +
                  " bytes, " + std::to_string(remaining()) + " remain");
    }
    if (size > 0 && !(*source_)(out, size)) {
      return Fail(std::string("truncated model data: the stream ended in ") + what);
    }
    offset_ += size;
    return true;
  }
  uint8_t U8(const char* what) { return Scalar<uint8_t>(what); }
  uint32_t U32(const char* what) { return Scalar<uint32_t>(what); }
  int32_t I32(const char* what) { return Scalar<int32_t>(what); }
  float F32(const char* what) { return Scalar<float>(what); }
  glm::vec3 Vec3(const char* what) {
    glm::vec3 v(0.0f);
    Bytes(&v, sizeof(v), what);
    return v;
  }
  glm::quat Quat(const char* what) {
    float v[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    Bytes(v, sizeof(v), what);
    return glm::quat(v[3], v[0], v[1], v[2]);
  }
  glm::mat4 Mat4(const char* what) {
    glm::mat4 m(1.0f);
    Bytes(&m, sizeof(m), what);
    return m;
  }
  std::string String(const char* what) {
    const uint32_t size = U32(what);
    if (failed()) return {};
    if (size > kMaxStringBytes || size > remaining()) {
      Fail(std::string("corrupted model data: ") + what + " claims " + std::to_string(size) +
           " bytes, " + std::to_string(remaining()) + " remain");
      return {};
    }
    std::string s(size, '\0');
    if (!Bytes(s.data(), size, what)) return {};
    return s;
  }
  // A name or message: a String that must be UTF-8 (the importer makes every name so; JSON
  // output and the UI rely on it). Paths are Strings: they need not be.
  std::string Text(const char* what) {
    std::string s = String(what);
    if (!failed() && !IsValidUtf8(s)) {
      Fail(std::string("corrupted model data: a ") + what + " is not valid UTF-8");
      return {};
    }
    return s;
  }
  // A count of elements that each take at least `min_bytes` of the stream: refused when the rest
  // of the stream cannot hold that many, so no allocation exceeds the input's size.
  size_t Count(size_t min_bytes, const char* what) {
    const uint32_t n = U32(what);
    if (failed()) return 0;
    if (min_bytes > 0 && n > remaining() / min_bytes) {
      Fail(std::string("corrupted model data: ") + what + " count " + std::to_string(n) +
           " needs at least " + std::to_string(uint64_t{n} * min_bytes) + " bytes, " +
           std::to_string(remaining()) + " remain");
      return 0;
    }
    return n;
  }
  template <typename T>
  bool Array(std::vector<T>* v, const char* what) {
    static_assert(kPlainData<T>);
    const size_t n = Count(sizeof(T), what);
    if (failed()) return false;
    v->resize(n);
    return Bytes(v->data(), n * sizeof(T), what);
  }

 private:
  // A number read as raw bytes; 0 when the stream failed.
  template <typename T>
  T Scalar(const char* what) {
    T v = 0;
    Bytes(&v, sizeof(v), what);
    return v;
  }

  const ByteSource* source_;
  uint64_t size_;
  uint64_t offset_ = 0;
  std::string error_;
};

// A mesh's arrays in stream order, each with the name the reader's messages give it: the one list
// the writer and the reader both go through (`visit(array, name)`).
template <typename MeshType, typename Visit>
void MeshArrays(MeshType& m, Visit&& visit) {
  visit(m.positions, "mesh positions");
  visit(m.normals, "mesh normals");
  visit(m.tangents, "mesh tangents");
  visit(m.uvs, "mesh uvs");
  visit(m.joints, "mesh joints");
  visit(m.weights, "mesh weights");
  visit(m.extra_joints, "mesh extra joints");
  visit(m.extra_weights, "mesh extra weights");
  visit(m.weight_flags, "mesh weight flags");
  visit(m.indices, "mesh indices");
  visit(m.bone_joints, "mesh bone joints");
  visit(m.bone_inverse_binds, "mesh inverse binds");
}

// A morph target's delta arrays in stream order (as MeshArrays).
template <typename TargetType, typename Visit>
void MorphArrays(TargetType& t, Visit&& visit) {
  visit(t.positions, "morph position deltas");
  visit(t.normals, "morph normal deltas");
  visit(t.tangents, "morph tangent deltas");
}

}  // namespace assets::model_io
