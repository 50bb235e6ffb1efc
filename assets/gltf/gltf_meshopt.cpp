// EXT_meshopt_compression (gltfpack -c / -cc): bufferViews compressed with meshoptimizer's codec
// are decoded with Debian's libmeshoptimizer into memory and become plain bufferViews, so every
// accessor read after it (meshes, skins, animations) sees ordinary, uncompressed bytes.
#include <meshoptimizer.h>

#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "assets/gltf/gltf_document.h"

namespace assets::gltf {
namespace {

constexpr char kMeshopt[] = "EXT_meshopt_compression";

// One compressed bufferView as its extension describes it.
struct Packed {
  int64_t buffer = -1;
  uint64_t offset = 0, length = 0, count = 0, stride = 0;
  std::string mode, filter;
};

// Reads and checks the extension object of bufferView `view` against the limits the codec and the
// extension's specification set; false with the reason.
bool ReadPacked(const Json& ext, int64_t view, Packed* p, std::string* error) {
  const std::string what = "bufferView " + std::to_string(view) + " (" + kMeshopt + ")";
  const auto buffer = IndexMember(ext, "buffer");
  const int64_t offset = IntMember(ext, "byteOffset", 0);
  const int64_t length = IntMember(ext, "byteLength", -1);
  const int64_t count = IntMember(ext, "count", -1);
  const int64_t stride = IntMember(ext, "byteStride", -1);
  p->mode = StringMember(ext, "mode");
  p->filter = Member(ext, "filter") ? StringMember(ext, "filter") : "NONE";
  if (!buffer || offset < 0 || length < 0 || count < 0 || stride <= 0) {
    *error = what + " lacks a valid buffer, byteLength, count or byteStride";
    return false;
  }
  p->buffer = *buffer;
  p->offset = static_cast<uint64_t>(offset);
  p->length = static_cast<uint64_t>(length);
  p->count = static_cast<uint64_t>(count);
  p->stride = static_cast<uint64_t>(stride);
  bool ok;
  if (p->mode == "ATTRIBUTES") {
    ok = p->stride % 4 == 0 && p->stride <= 256;
  } else if (p->mode == "TRIANGLES") {
    ok = (p->stride == 2 || p->stride == 4) && p->count % 3 == 0;
  } else if (p->mode == "INDICES") {
    ok = p->stride == 2 || p->stride == 4;
  } else {
    *error = what + " has unknown mode '" + p->mode + "'";
    return false;
  }
  if (!ok) {
    *error = what + ": byteStride " + std::to_string(p->stride) + " and count " +
             std::to_string(p->count) + " do not fit mode " + p->mode;
    return false;
  }
  const bool attributes = p->mode == "ATTRIBUTES";
  if (p->filter == "NONE") {
    ok = true;
  } else if (p->filter == "OCTAHEDRAL") {
    ok = attributes && (p->stride == 4 || p->stride == 8);
  } else if (p->filter == "QUATERNION") {
    ok = attributes && p->stride == 8;
  } else if (p->filter == "EXPONENTIAL") {
    ok = attributes;  // any multiple of 4, checked above
  } else {
    *error = what + " has unknown filter '" + p->filter + "'";
    return false;
  }
  if (!ok) {
    *error = what + ": filter " + p->filter + " does not fit mode " + p->mode +
             " with byteStride " + std::to_string(p->stride);
    return false;
  }
  return true;
}

// Decodes `compressed` into *out (count * stride bytes) and undoes the filter.
bool Unpack(const Packed& p, const uint8_t* compressed, std::vector<uint8_t>* out) {
  const size_t count = static_cast<size_t>(p.count), stride = static_cast<size_t>(p.stride);
  out->assign(count * stride, 0);
  int status;
  if (p.mode == "ATTRIBUTES") {
    status = meshopt_decodeVertexBuffer(out->data(), count, stride, compressed,
                                        static_cast<size_t>(p.length));
  } else if (p.mode == "TRIANGLES") {
    status = meshopt_decodeIndexBuffer(out->data(), count, stride, compressed,
                                       static_cast<size_t>(p.length));
  } else {
    status = meshopt_decodeIndexSequence(out->data(), count, stride, compressed,
                                         static_cast<size_t>(p.length));
  }
  if (status != 0) return false;
  if (p.filter == "OCTAHEDRAL") meshopt_decodeFilterOct(out->data(), count, stride);
  if (p.filter == "QUATERNION") meshopt_decodeFilterQuat(out->data(), count, stride);
  if (p.filter == "EXPONENTIAL") meshopt_decodeFilterExp(out->data(), count, stride);
  return true;
}

}  // namespace

bool Document::UnpackMeshopt(uint64_t max_bytes, std::string* error) {
  if (!root.contains("bufferViews") || !root["bufferViews"].is_array()) return true;
  Json& views = root["bufferViews"];
  // What every compressed view will decode to, checked against the budget before any decoding.
  uint64_t total = 0;
  for (size_t v = 0; v < views.size(); ++v) {
    const Json* extensions = Member(views[v], "extensions");
    const Json* ext = extensions ? Member(*extensions, kMeshopt) : nullptr;
    if (!ext) continue;
    Packed p;
    if (!ReadPacked(*ext, static_cast<int64_t>(v), &p, error)) return false;
    // count and stride are bounded by the budget, so their product cannot overflow.
    if (p.count > max_bytes || p.count * p.stride > max_bytes - total) {
      *error = "its " + std::string(kMeshopt) + " data would decode to more than " +
               std::to_string(max_bytes >> 20) + " MiB, more than skelview allows for its size";
      return false;
    }
    total += p.count * p.stride;
  }
  std::vector<uint8_t> scratch;
  for (size_t v = 0; v < views.size(); ++v) {
    const Json* extensions = Member(views[v], "extensions");
    const Json* ext = extensions ? Member(*extensions, kMeshopt) : nullptr;
    if (!ext) continue;
    Packed p;
    if (!ReadPacked(*ext, static_cast<int64_t>(v), &p, error)) return false;
    const uint8_t* compressed = nullptr;
    if (!Read(p.buffer, p.offset, p.length, &compressed, &scratch, error)) return false;
    std::vector<uint8_t> plain;
    if (!Unpack(p, compressed, &plain)) {
      *error = "bufferView " + std::to_string(v) + " (" + kMeshopt +
               ") does not decode (corrupt or truncated data)";
      return false;
    }
    // The decoded bytes become a buffer of their own, held in memory like a data URI's.
    Json& buffers = root["buffers"];
    const int64_t index = static_cast<int64_t>(buffers.size());
    buffers.push_back({{"byteLength", plain.size()}});
    std::vector<uint8_t>& stored = decoded_[index] = std::move(plain);
    Source source;
    source.memory = stored.data();
    source.size = stored.size();
    sources_[index] = source;
    unpacked_buffers_.insert(index);
    unpacked_bytes_ += stored.size();
    Json& view = views[v];
    view["buffer"] = index;
    view["byteOffset"] = 0;
    view["byteLength"] = stored.size();
    view["extensions"].erase(kMeshopt);
    if (view["extensions"].empty()) view.erase("extensions");
  }
  // Nothing is compressed now: the extension is no longer used or required.
  for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
    if (!root.contains(list) || !root[list].is_array()) continue;
    Json kept = Json::array();
    for (const Json& name : root[list]) {
      if (!(name.is_string() && name.get<std::string>() == kMeshopt)) kept.push_back(name);
    }
    root[list] = kept;
  }
  return true;
}

}  // namespace assets::gltf
