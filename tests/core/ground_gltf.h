// A ground mesh as glTF for tests: a grid of quads over [-half, half] in X and Z, tilted to rise
// `degrees` along +Z and lifted by `lift` (y = lift + z·tan(degrees)), on a node of its own with no
// skin — the file a user gives as `--ground` or chooses in the window's Ground section.
#pragma once

#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "tests/assets/gltf_builder.h"

namespace testground {

// Triangles: 2·cells².
inline std::vector<uint8_t> GroundGlb(float half, int cells, float degrees, float lift = 0.0f) {
  const float slope = std::tan(degrees * 3.14159265f / 180.0f);
  std::vector<float> positions;
  for (int j = 0; j <= cells; ++j) {
    for (int i = 0; i <= cells; ++i) {
      const float x = -half + 2.0f * half * float(i) / float(cells);
      const float z = -half + 2.0f * half * float(j) / float(cells);
      positions.insert(positions.end(), {x, lift + z * slope, z});
    }
  }
  std::vector<uint32_t> indices;
  const uint32_t row = uint32_t(cells) + 1;
  for (uint32_t j = 0; j < uint32_t(cells); ++j) {
    for (uint32_t i = 0; i < uint32_t(cells); ++i) {
      const uint32_t a = j * row + i, b = a + 1, c = a + row, d = c + 1;
      indices.insert(indices.end(), {a, c, b, b, c, d});
    }
  }
  testgltf::Builder builder;
  const int position_accessor = builder.Positions(positions);
  const int index_accessor =
      builder.Accessor(indices.data(), indices.size() * 4, 5125, "SCALAR", indices.size());
  builder.doc["meshes"] = testgltf::json::array(
      {{{"name", "ground"},
        {"primitives",
         {{{"attributes", {{"POSITION", position_accessor}}}, {"indices", index_accessor}}}}}});
  builder.Node({{"name", "ground"}, {"mesh", 0}}, true);
  return builder.Glb();
}

// Writes GroundGlb to `path`; false when it cannot.
inline bool WriteGroundGlb(const std::string& path, float half, int cells, float degrees,
                           float lift = 0.0f) {
  const std::vector<uint8_t> bytes = GroundGlb(half, cells, degrees, lift);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return bool(out);
}

}  // namespace testground
