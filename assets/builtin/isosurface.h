// Isosurface extraction by marching tetrahedra: turns a scalar field sampled on a regular grid
// into a closed triangle mesh of its zero level set. Used to build the built-in character.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace assets {

// Field samples on a regular grid; negative values are inside the surface.
struct ScalarGrid {
  glm::ivec3 size{0};         // samples per axis
  glm::vec3 origin{0.0f};     // position of sample (0, 0, 0)
  float spacing = 1.0f;       // distance between neighbouring samples
  std::vector<float> values;  // x fastest, then y, then z

  size_t Index(int x, int y, int z) const {
    return static_cast<size_t>(x) +
           static_cast<size_t>(size.x) * (static_cast<size_t>(y) + static_cast<size_t>(size.y) * z);
  }
  glm::vec3 Position(int x, int y, int z) const { return origin + spacing * glm::vec3(x, y, z); }
};

struct TriangleMesh {
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;  // counter-clockwise seen from outside (the positive side)
};

// Extracts the zero level set. Each cube is split into six tetrahedra around its main diagonal,
// the same way in every cube, so neighbouring cubes agree on shared faces and the result has no
// cracks: when every sample on the grid's boundary is positive, each edge of the output is shared
// by exactly two triangles. Vertices are shared between triangles (one per crossed grid edge).
// Samples equal to 0 count as outside.
TriangleMesh MarchingTetrahedra(const ScalarGrid& grid);

}  // namespace assets
