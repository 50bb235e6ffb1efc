// Builds small glTF 2.0 files for tests (malformed ones too): one embedded buffer, accessors
// appended as data is added, written as .gltf (data URI) or .glb.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/assets/gltf_reference.h"

namespace testgltf {

using json = nlohmann::json;

class Builder {
 public:
  json doc = {{"asset", {{"version", "2.0"}}},
              {"scene", 0},
              {"scenes", json::array({json{{"nodes", json::array()}}})},
              {"nodes", json::array()}};
  std::vector<uint8_t> data;

  int Accessor(const void* bytes, size_t size, int component_type, const std::string& type,
               size_t count, bool normalized = false) {
    while (data.size() % 4) data.push_back(0);
    const size_t offset = data.size();
    data.insert(data.end(), static_cast<const uint8_t*>(bytes),
                static_cast<const uint8_t*>(bytes) + size);
    doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", size}});
    json accessor = {{"bufferView", doc["bufferViews"].size() - 1},
                     {"componentType", component_type},
                     {"type", type},
                     {"count", count}};
    if (normalized) accessor["normalized"] = true;
    doc["accessors"].push_back(accessor);
    return static_cast<int>(doc["accessors"].size() - 1);
  }
  int Floats(const std::vector<float>& v, const std::string& type, size_t count) {
    return Accessor(v.data(), v.size() * 4, 5126, type, count);
  }
  // POSITION accessors must carry min and max.
  int Positions(const std::vector<float>& v) {
    const int index = Floats(v, "VEC3", v.size() / 3);
    std::vector<float> lo(3, 1e30f), hi(3, -1e30f);
    for (size_t i = 0; i < v.size(); ++i) {
      lo[i % 3] = std::min(lo[i % 3], v[i]);
      hi[i % 3] = std::max(hi[i % 3], v[i]);
    }
    doc["accessors"][index]["min"] = lo;
    doc["accessors"][index]["max"] = hi;
    return index;
  }
  int Node(const json& node, bool scene_root) {
    doc["nodes"].push_back(node);
    const int index = static_cast<int>(doc["nodes"].size() - 1);
    if (scene_root) doc["scenes"][0]["nodes"].push_back(index);
    return index;
  }

  json Finished() const {
    json out = doc;
    if (!data.empty()) {
      out["buffers"] = json::array(
          {json{{"byteLength", data.size()},
                {"uri", "data:application/octet-stream;base64," + gltfref::Base64(data)}}});
    }
    return out;
  }
  void WriteGltf(const std::string& path) const {
    std::ofstream(path, std::ios::binary) << Finished().dump();
  }
  // .glb with the buffer in the binary chunk.
  std::vector<uint8_t> Glb() const {
    json out = doc;
    std::vector<uint8_t> bin = data;
    while (bin.size() % 4) bin.push_back(0);
    if (!data.empty()) out["buffers"] = json::array({json{{"byteLength", data.size()}}});
    std::string text = out.dump();
    while (text.size() % 4) text.push_back(' ');
    std::vector<uint8_t> glb;
    auto u32 = [&](uint32_t v) {
      for (int i = 0; i < 4; ++i) glb.push_back(static_cast<uint8_t>(v >> (8 * i)));
    };
    const uint32_t total =
        static_cast<uint32_t>(12 + 8 + text.size() + (bin.empty() ? 0 : 8 + bin.size()));
    u32(0x46546C67);
    u32(2);
    u32(total);
    u32(static_cast<uint32_t>(text.size()));
    u32(0x4E4F534A);
    glb.insert(glb.end(), text.begin(), text.end());
    if (!bin.empty()) {
      u32(static_cast<uint32_t>(bin.size()));
      u32(0x004E4942);
      glb.insert(glb.end(), bin.begin(), bin.end());
    }
    return glb;
  }
};

// A 2x2 uncompressed true-colour TGA (stb_image reads it), for texture files.
inline std::string SmallTga() {
  std::string t(18, '\0');
  t[2] = 2;   // uncompressed true colour
  t[12] = 2;  // width
  t[14] = 2;  // height
  t[16] = 32;
  t[17] = 8;
  for (int i = 0; i < 4; ++i) t += std::string{'\x40', '\x80', '\xC0', '\xFF'};
  return t;
}

inline void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

// A vertical strip of two quads (6 vertices at y = 0, 1, 2) skinned to two joints: joint0 at
// the origin, joint1 at y = 1. Row y=0 follows joint0, row y=2 joint1, the middle row is
// blended by `middle_weights` (joint0, joint1). Nodes: 0 = joint0, 1 = joint1, 2 = mesh node.
struct StripOptions {
  float middle_weights[2] = {0.5f, 0.5f};
  int weight_type = 5126;  // 5121 / 5123 for normalized integer weights
  bool inverse_binds = true;
};

inline Builder SkinnedStrip(const StripOptions& options = {}) {
  Builder b;
  const std::vector<float> positions = {-0.5f, 0, 0, 0.5f,  0, 0, -0.5f, 1, 0,
                                        0.5f,  1, 0, -0.5f, 2, 0, 0.5f,  2, 0};
  const std::vector<uint16_t> indices = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4};
  const std::vector<uint16_t> joint_values = {0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0,
                                              0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
  const float w[6][2] = {{1, 0},
                         {1, 0},
                         {options.middle_weights[0], options.middle_weights[1]},
                         {options.middle_weights[0], options.middle_weights[1]},
                         {0, 1},
                         {0, 1}};
  const int position_accessor = b.Positions(positions);
  const int index_accessor = b.Accessor(indices.data(), indices.size() * 2, 5123, "SCALAR", 12);
  const int joint_accessor = b.Accessor(joint_values.data(), 48, 5123, "VEC4", 6);
  int weight_accessor;
  if (options.weight_type == 5126) {
    std::vector<float> wf;
    for (auto& row : w) wf.insert(wf.end(), {row[0], row[1], 0.0f, 0.0f});
    weight_accessor = b.Floats(wf, "VEC4", 6);
  } else if (options.weight_type == 5121) {
    std::vector<uint8_t> wb;
    for (auto& row : w) {
      wb.insert(wb.end(), {static_cast<uint8_t>(row[0] * 255.0f + 0.5f),
                           static_cast<uint8_t>(row[1] * 255.0f + 0.5f), 0, 0});
    }
    weight_accessor = b.Accessor(wb.data(), wb.size(), 5121, "VEC4", 6, true);
  } else {
    std::vector<uint16_t> ws;
    for (auto& row : w) {
      ws.insert(ws.end(), {static_cast<uint16_t>(row[0] * 65535.0f + 0.5f),
                           static_cast<uint16_t>(row[1] * 65535.0f + 0.5f), 0, 0});
    }
    weight_accessor = b.Accessor(ws.data(), ws.size() * 2, 5123, "VEC4", 6, true);
  }
  b.doc["meshes"] =
      json::array({json{{"name", "strip"},
                        {"primitives", json::array({json{{"attributes",
                                                          {{"POSITION", position_accessor},
                                                           {"JOINTS_0", joint_accessor},
                                                           {"WEIGHTS_0", weight_accessor}}},
                                                         {"indices", index_accessor}}})}}});
  b.Node({{"name", "joint0"}, {"children", {1}}}, true);
  b.Node({{"name", "joint1"}, {"translation", {0.0, 1.0, 0.0}}}, false);
  b.Node({{"name", "strip"}, {"mesh", 0}, {"skin", 0}}, true);
  json skin = {{"joints", {0, 1}}};
  if (options.inverse_binds) {
    const std::vector<float> ibm = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,
                                    1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1};
    skin["inverseBindMatrices"] = b.Floats(ibm, "MAT4", 2);
  }
  b.doc["skins"] = json::array({skin});
  return b;
}

}  // namespace testgltf
