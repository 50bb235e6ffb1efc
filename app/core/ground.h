// The ground planted feet stand on (`--ground SPEC`, the window's Ground section): a level plane, a
// ramp rising along +Z, an endless staircase, or the triangles of a mesh file. World space, +Y up,
// the model's units. The clip's own floor is y = 0 as authored.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace assets {
struct Model;
}

namespace app {

struct Ground {
  enum class Kind { kPlane, kRamp, kStairs, kMesh };
  Kind kind = Kind::kPlane;
  float y = 0.0f;        // kPlane: the height
  float degrees = 0.0f;  // kRamp: y = z·tan(degrees), |degrees| < 80
  float step = 0.0f;     // kStairs: y = step·floor(z / depth)
  float depth = 1.0f;
  // kMesh: three corners per triangle, world space (the file's rest pose). Outside the mesh's
  // footprint the ground is the plane y = 0.
  std::vector<glm::vec3> triangles;
  std::string spec = "plane";  // as given, for messages and JSON
  // kMesh: a grid over the triangles' XZ bounds; cell c holds cell_items[cell_start[c] ..
  // cell_start[c + 1]) (triangle indices). Built by ParseGroundSpec / BuildGroundGrid.
  glm::vec2 grid_min{0.0f}, grid_cell{1.0f};
  int grid_size = 0;  // cells per side
  std::vector<uint32_t> cell_start, cell_items;

  // True for the authored floor (the plane y = 0): feet need no carrying.
  bool IsAuthoredFloor() const { return kind == Kind::kPlane && y == 0.0f; }
  // The ground's height under (x, z): for a mesh, the highest triangle there.
  float HeightAt(float x, float z) const;
  // The ground's unit normal under (x, z), pointing up.
  glm::vec3 NormalAt(float x, float z) const;
  // How far `p` is above the ground (negative: below it), across the surface: the vertical
  // distance times the normal's Y (the perpendicular distance for a plane or ramp).
  float HeightAbove(const glm::vec3& p) const;
  // The point `height` above the ground under (x, z), along its normal.
  glm::vec3 PointAbove(float x, float z, float height) const;
};

// Parses --ground: "plane", "plane,y=H", "ramp,degrees=D", "stairs,step=H,depth=D" or the path of
// a .glb/.gltf file whose triangles are the ground (loaded with the model loader, at most
// kMaxGroundTriangles). False with one line naming --ground and the reason.
// Fills the grid of a kMesh ground from its triangles; false with the reason when they overlap so
// much that the grid would hold more than 16 million entries.
bool BuildGroundGrid(Ground* ground, std::string* error);

inline constexpr size_t kMaxGroundTriangles = 1'000'000;
bool ParseGroundSpec(const std::string& spec, Ground* out, std::string* error);

// True when `spec` names a mesh file (it ends in .glb or .gltf, any case): ParseGroundSpec reads
// it with the model loader; the window reads it in the background (GroundLoad).
bool IsGroundMeshSpec(const std::string& spec);
// The mesh ground of a loaded model: its triangles in world space (the rest pose), at most
// kMaxGroundTriangles, with the grid built; `spec` is kept as the ground's spec. False with the
// reason alone (no file name) when it has no triangles, too many or unusable ones.
bool GroundFromModel(const assets::Model& model, const std::string& spec, Ground* out,
                     std::string* why);

}  // namespace app
