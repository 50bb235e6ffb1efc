// Marching tetrahedra. A tetrahedron has no ambiguous sign configuration, which is why it is used
// here instead of marching cubes: the output is watertight without any case tables.
#include "assets/builtin/isosurface.h"

#include <array>
#include <unordered_map>

namespace assets {
namespace {

// Cube corners are numbered by their offset bits: x = bit 0, y = bit 1, z = bit 2. The six
// tetrahedra are the paths 0 -> one axis -> two axes -> 7 (Kuhn's subdivision); each cube face is
// then cut by the diagonal through its lowest corner, the same in every cube.
constexpr std::array<std::array<int, 4>, 6> kTetrahedra = {
    {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}}};

class Extractor {
 public:
  explicit Extractor(const ScalarGrid& grid) : grid_(grid) {}

  TriangleMesh Run() {
    const glm::ivec3 n = grid_.size;
    if (n.x < 2 || n.y < 2 || n.z < 2 ||
        grid_.values.size() != static_cast<size_t>(n.x) * n.y * n.z) {
      return {};
    }
    for (int z = 0; z + 1 < n.z; ++z) {
      for (int y = 0; y + 1 < n.y; ++y) {
        for (int x = 0; x + 1 < n.x; ++x) Cube(x, y, z);
      }
    }
    return std::move(mesh_);
  }

 private:
  bool Inside(size_t sample) const { return grid_.values[sample] < 0.0f; }

  glm::vec3 SamplePosition(size_t sample) const {
    const size_t nx = static_cast<size_t>(grid_.size.x);
    const size_t ny = static_cast<size_t>(grid_.size.y);
    return grid_.Position(static_cast<int>(sample % nx), static_cast<int>((sample / nx) % ny),
                          static_cast<int>(sample / (nx * ny)));
  }

  // The vertex where the surface crosses the edge between an inside and an outside sample.
  uint32_t EdgeVertex(size_t inside, size_t outside) {
    const uint64_t key = (static_cast<uint64_t>(inside) << 32) | static_cast<uint64_t>(outside);
    auto found = vertex_of_edge_.find(key);
    if (found != vertex_of_edge_.end()) return found->second;
    const float a = grid_.values[inside];   // < 0
    const float b = grid_.values[outside];  // >= 0
    const float t = a / (a - b);            // a - b < 0 strictly, so t is in (0, 1]
    const glm::vec3 p = SamplePosition(inside) * (1.0f - t) + SamplePosition(outside) * t;
    const uint32_t index = static_cast<uint32_t>(mesh_.positions.size());
    mesh_.positions.push_back(p);
    vertex_of_edge_.emplace(key, index);
    return index;
  }

  // Emits a triangle, flipped if needed so that it faces away from the inside samples.
  void Triangle(uint32_t a, uint32_t b, uint32_t c, const glm::vec3& outward) {
    const glm::vec3& pa = mesh_.positions[a];
    const glm::vec3 normal = glm::cross(mesh_.positions[b] - pa, mesh_.positions[c] - pa);
    if (glm::dot(normal, outward) < 0.0f) std::swap(b, c);
    mesh_.indices.insert(mesh_.indices.end(), {a, b, c});
  }

  void Cube(int x, int y, int z) {
    std::array<size_t, 8> corner;
    for (int c = 0; c < 8; ++c)
      corner[c] = grid_.Index(x + (c & 1), y + ((c >> 1) & 1), z + (c >> 2));
    int inside_count = 0;
    for (size_t s : corner) inside_count += Inside(s) ? 1 : 0;
    if (inside_count == 0 || inside_count == 8) return;  // the common case: no surface here
    for (const auto& tet : kTetrahedra) {
      std::array<size_t, 4> in, out;
      int ni = 0, no = 0;
      for (int v : tet) {
        if (Inside(corner[v]))
          in[ni++] = corner[v];
        else
          out[no++] = corner[v];
      }
      if (ni == 0 || no == 0) continue;
      glm::vec3 outward(0.0f);
      for (int i = 0; i < ni; ++i)
        for (int o = 0; o < no; ++o) outward += SamplePosition(out[o]) - SamplePosition(in[i]);
      if (ni == 1 || no == 1) {
        // One sample alone on its side: a triangle around it.
        const bool lone_inside = ni == 1;
        const size_t lone = lone_inside ? in[0] : out[0];
        const auto& others = lone_inside ? out : in;
        uint32_t v[3];
        for (int k = 0; k < 3; ++k) {
          v[k] = lone_inside ? EdgeVertex(lone, others[k]) : EdgeVertex(others[k], lone);
        }
        Triangle(v[0], v[1], v[2], outward);
      } else {
        // Two and two: a quad over the four crossed edges, in cyclic order i0o0, i0o1, i1o1, i1o0.
        const uint32_t a = EdgeVertex(in[0], out[0]);
        const uint32_t b = EdgeVertex(in[0], out[1]);
        const uint32_t c = EdgeVertex(in[1], out[1]);
        const uint32_t d = EdgeVertex(in[1], out[0]);
        Triangle(a, b, c, outward);
        Triangle(a, c, d, outward);
      }
    }
  }

  const ScalarGrid& grid_;
  TriangleMesh mesh_;
  std::unordered_map<uint64_t, uint32_t> vertex_of_edge_;
};

}  // namespace

TriangleMesh MarchingTetrahedra(const ScalarGrid& grid) { return Extractor(grid).Run(); }

}  // namespace assets
