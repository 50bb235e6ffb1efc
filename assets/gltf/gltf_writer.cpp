// The glTF writer's document and binary buffer (assets/gltf/gltf_writer.h).
#include "assets/gltf/gltf_writer.h"

#include <algorithm>
#include <cctype>

namespace assets::gltf_out {
namespace {

constexpr uint32_t kGlbMagic = 0x46546C67;   // "glTF"
constexpr uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;   // "BIN\0"

void AppendLe32(std::vector<uint8_t>* out, uint32_t v) {
  for (int shift = 0; shift < 32; shift += 8) out->push_back(static_cast<uint8_t>(v >> shift));
}

size_t ComponentSize(int component_type) {
  switch (component_type) {
    case kUnsignedByte:
      return 1;
    case kUnsignedShort:
      return 2;
    default:
      return 4;
  }
}

const char* TypeOfComponents(int components) {
  switch (components) {
    case 1:
      return "SCALAR";
    case 2:
      return "VEC2";
    case 3:
      return "VEC3";
    case 16:
      return "MAT4";
    default:
      return "VEC4";
  }
}

int ComponentsOfType(const char* type) {
  const std::string t(type);
  if (t == "SCALAR") return 1;
  if (t == "VEC2") return 2;
  if (t == "VEC3") return 3;
  if (t == "MAT4") return 16;
  return 4;
}

}  // namespace

Writer::Writer() { root["asset"] = {{"version", "2.0"}, {"generator", "skelview"}}; }

int64_t Writer::AddView(const void* data, size_t size, ViewUse use) {
  bin_.insert(bin_.end(), (4 - bin_.size() % 4) % 4, 0);  // each view on a 4-byte boundary
  const size_t offset = bin_.size();
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (size > 0) bin_.insert(bin_.end(), bytes, bytes + size);
  Json view = {{"buffer", 0}, {"byteLength", size}};
  if (offset > 0) view["byteOffset"] = offset;
  if (use == ViewUse::kVertices) view["target"] = 34962;  // ARRAY_BUFFER
  if (use == ViewUse::kIndices) view["target"] = 34963;   // ELEMENT_ARRAY_BUFFER
  Json& views = root["bufferViews"];
  views.push_back(std::move(view));
  return static_cast<int64_t>(views.size()) - 1;
}

int64_t Writer::AddAccessor(const void* data, int component_type, const char* type, size_t count,
                            ViewUse use, const Json& extra) {
  const size_t size =
      count * static_cast<size_t>(ComponentsOfType(type)) * ComponentSize(component_type);
  const int64_t view = AddView(data, size, use);
  Json accessor = {
      {"bufferView", view}, {"componentType", component_type}, {"count", count}, {"type", type}};
  for (auto it = extra.begin(); it != extra.end(); ++it) accessor[it.key()] = it.value();
  Json& accessors = root["accessors"];
  accessors.push_back(std::move(accessor));
  return static_cast<int64_t>(accessors.size()) - 1;
}

int64_t Writer::AddFloats(const float* values, size_t count, int components, ViewUse use,
                          bool bounds) {
  Json extra = Json::object();
  if (bounds && count > 0) {
    const size_t c = static_cast<size_t>(components);
    std::vector<float> lo(values, values + c), hi(values, values + c);
    for (size_t e = 1; e < count; ++e) {
      for (size_t k = 0; k < c; ++k) {
        lo[k] = std::min(lo[k], values[e * c + k]);
        hi[k] = std::max(hi[k], values[e * c + k]);
      }
    }
    extra["min"] = lo;
    extra["max"] = hi;
  }
  return AddAccessor(values, kFloat, TypeOfComponents(components), count, use, extra);
}

int64_t Writer::AddSharedFloats(const float* values, size_t count, int components) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(values);
  std::vector<uint8_t> key(bytes, bytes + count * static_cast<size_t>(components) * sizeof(float));
  key.push_back(static_cast<uint8_t>(components));
  auto found = shared_.find(key);
  if (found != shared_.end()) return found->second;
  const int64_t index = AddFloats(values, count, components, ViewUse::kOther, /*bounds=*/true);
  shared_.emplace(std::move(key), index);
  return index;
}

void Writer::SetBuffer(const std::string& uri) {
  if (bin_.empty()) {
    root.erase("buffers");
    return;
  }
  Json buffer = {{"byteLength", bin_.size()}};
  if (!uri.empty()) buffer["uri"] = uri;
  root["buffers"] = Json::array({buffer});
}

std::vector<uint8_t> Writer::Glb() {
  SetBuffer("");
  std::string text = JsonText(root);
  text.resize((text.size() + 3) / 4 * 4, ' ');
  const size_t bin_padded = (bin_.size() + 3) / 4 * 4;
  const size_t total = 12 + 8 + text.size() + (bin_.empty() ? 0 : 8 + bin_padded);
  std::vector<uint8_t> out;
  out.reserve(total);
  AppendLe32(&out, kGlbMagic);
  AppendLe32(&out, 2);
  AppendLe32(&out, static_cast<uint32_t>(total));
  AppendLe32(&out, static_cast<uint32_t>(text.size()));
  AppendLe32(&out, kChunkJson);
  out.insert(out.end(), text.begin(), text.end());
  if (!bin_.empty()) {
    AppendLe32(&out, static_cast<uint32_t>(bin_padded));
    AppendLe32(&out, kChunkBin);
    out.insert(out.end(), bin_.begin(), bin_.end());
    out.insert(out.end(), total - out.size(), 0);
  }
  return out;
}

std::vector<uint8_t> Writer::GltfText(const std::string& bin_uri) {
  SetBuffer(bin_uri);
  const std::string text = JsonText(root);
  return std::vector<uint8_t>(text.begin(), text.end());
}

std::string JsonText(const Json& root) {
  return root.dump(-1, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

std::string UriOfFileName(const std::string& name) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string uri;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') {
      uri.push_back(c);
    } else {
      uri += {'%', kHex[u >> 4], kHex[u & 15]};
    }
  }
  return uri;
}

}  // namespace assets::gltf_out
