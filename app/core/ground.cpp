// Ground shapes for planted feet, and the --ground parser.
#include "app/core/ground.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "app/core/args.h"
#include "app/core/pose_input.h"
#include "assets/files/text.h"
#include "assets/model/skinning.h"
#include "ik/core/kinematics.h"

namespace app {

namespace {

constexpr float kDegreesToRadians = 3.14159265358979f / 180.0f;
constexpr uint64_t kMaxGridEntries = 16'000'000;

// The triangle's height at (x, z) when (x, z) lies inside its XZ projection.
bool TriangleHeight(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, float x, float z,
                    float* y, glm::vec3* normal) {
  const float d = (b.z - c.z) * (a.x - c.x) + (c.x - b.x) * (a.z - c.z);
  if (std::fabs(d) < 1e-12f) return false;  // vertical or degenerate
  const float u = ((b.z - c.z) * (x - c.x) + (c.x - b.x) * (z - c.z)) / d;
  const float v = ((c.z - a.z) * (x - c.x) + (a.x - c.x) * (z - c.z)) / d;
  const float w = 1.0f - u - v;
  const float eps = -1e-6f;
  if (u < eps || v < eps || w < eps) return false;
  *y = u * a.y + v * b.y + w * c.y;
  glm::vec3 n = glm::cross(b - a, c - a);
  if (n.y < 0.0f) n = -n;
  const float length = glm::length(n);
  *normal = length > 0.0f ? n / length : glm::vec3(0, 1, 0);
  return true;
}

// The mesh ground under (x, z): the highest triangle there; false outside the mesh.
bool MeshAt(const Ground& g, float x, float z, float* y, glm::vec3* normal) {
  if (g.grid_size <= 0) return false;
  const int cx = static_cast<int>(std::floor((x - g.grid_min.x) / g.grid_cell.x));
  const int cz = static_cast<int>(std::floor((z - g.grid_min.y) / g.grid_cell.y));
  if (cx < 0 || cz < 0 || cx >= g.grid_size || cz >= g.grid_size) return false;
  const size_t cell = static_cast<size_t>(cz) * static_cast<size_t>(g.grid_size) + size_t(cx);
  bool found = false;
  for (uint32_t k = g.cell_start[cell]; k < g.cell_start[cell + 1]; ++k) {
    const size_t t = g.cell_items[k];
    float h = 0.0f;
    glm::vec3 n;
    if (TriangleHeight(g.triangles[3 * t], g.triangles[3 * t + 1], g.triangles[3 * t + 2], x, z, &h,
                       &n) &&
        (!found || h > *y)) {
      found = true;
      *y = h;
      *normal = n;
    }
  }
  return found;
}

bool BadSpec(const std::string& spec, const std::string& why, std::string* error) {
  *error = "--ground '" + assets::ShownArgument(spec) + "': " + why;
  return false;
}

const char kExpected[] =
    "expected plane[,y=H], ramp,degrees=D, stairs,step=H,depth=D or a .glb/.gltf file";

bool LoadMeshGround(const std::string& spec, Ground* out, std::string* error) {
  assets::Model model;
  std::string load_error;
  if (!LoadModelOrBuiltin(spec, /*allow_outside_files=*/false, /*raw_units=*/false, &model,
                          &load_error)) {
    return BadSpec(spec, load_error, error);
  }
  std::string why;
  if (!GroundFromModel(model, spec, out, &why)) return BadSpec(spec, why, error);
  return true;
}

}  // namespace

bool IsGroundMeshSpec(const std::string& spec) {
  std::string lower = spec;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto ends_with = [&](const char* suffix) {
    const size_t n = std::char_traits<char>::length(suffix);
    return lower.size() >= n && lower.compare(lower.size() - n, n, suffix) == 0;
  };
  return ends_with(".glb") || ends_with(".gltf");
}

bool GroundFromModel(const assets::Model& model, const std::string& spec, Ground* out,
                     std::string* why) {
  size_t count = 0;
  for (const assets::Mesh& mesh : model.meshes) count += mesh.indices.size() / 3;
  if (count > kMaxGroundTriangles) {
    *why = "more than " + std::to_string(kMaxGroundTriangles) + " triangles (" +
           std::to_string(count) + ")";
    return false;
  }
  if (count == 0) {
    *why = "the file has no triangles";
    return false;
  }
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, ik::Pose{model.skeleton.rest_locals()}, &models);
  Ground g;
  g.kind = Ground::Kind::kMesh;
  g.spec = spec;
  g.triangles.reserve(3 * count);
  std::vector<glm::vec3> positions;
  for (const assets::Mesh& mesh : model.meshes) {
    assets::SkinMesh(mesh, models, &positions, nullptr);
    for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
      for (size_t k = 0; k < 3; ++k) {
        const uint32_t v = mesh.indices[i + k];
        if (v >= positions.size()) {
          *why = "a triangle index out of range";
          return false;
        }
        g.triangles.push_back(positions[v]);
      }
    }
  }
  if (!BuildGroundGrid(&g, why)) return false;
  *out = std::move(g);
  return true;
}

bool BuildGroundGrid(Ground* g, std::string* error) {
  const size_t count = g->triangles.size() / 3;
  glm::vec2 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& p : g->triangles) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
      *error = "a vertex is not finite";
      return false;
    }
    lo = glm::min(lo, glm::vec2(p.x, p.z));
    hi = glm::max(hi, glm::vec2(p.x, p.z));
  }
  const int size = std::clamp(static_cast<int>(std::sqrt(double(count) / 2.0)), 1, 512);
  g->grid_size = size;
  g->grid_min = lo;
  g->grid_cell = glm::max((hi - lo) / float(size), glm::vec2(1e-6f));
  auto cell_range = [&](size_t t, int* x0, int* z0, int* x1, int* z1) {
    glm::vec2 a(1e30f), b(-1e30f);
    for (size_t k = 0; k < 3; ++k) {
      const glm::vec3& p = g->triangles[3 * t + k];
      a = glm::min(a, glm::vec2(p.x, p.z));
      b = glm::max(b, glm::vec2(p.x, p.z));
    }
    auto index = [&](float v, float origin, float cell) {
      return std::clamp(static_cast<int>(std::floor((v - origin) / cell)), 0, size - 1);
    };
    *x0 = index(a.x, lo.x, g->grid_cell.x);
    *x1 = index(b.x, lo.x, g->grid_cell.x);
    *z0 = index(a.y, lo.y, g->grid_cell.y);
    *z1 = index(b.y, lo.y, g->grid_cell.y);
  };
  const size_t cells = static_cast<size_t>(size) * static_cast<size_t>(size);
  std::vector<uint64_t> counts(cells + 1, 0);
  uint64_t total = 0;
  for (size_t t = 0; t < count; ++t) {
    int x0, z0, x1, z1;
    cell_range(t, &x0, &z0, &x1, &z1);
    total += uint64_t(x1 - x0 + 1) * uint64_t(z1 - z0 + 1);
    if (total > kMaxGridEntries) {
      *error = "its triangles overlap too much to index (over 16 million grid entries)";
      return false;
    }
    for (int z = z0; z <= z1; ++z)
      for (int x = x0; x <= x1; ++x) ++counts[size_t(z) * size_t(size) + size_t(x)];
  }
  g->cell_start.assign(cells + 1, 0);
  for (size_t c = 0; c < cells; ++c)
    g->cell_start[c + 1] = g->cell_start[c] + static_cast<uint32_t>(counts[c]);
  g->cell_items.assign(total, 0);
  std::vector<uint32_t> fill(g->cell_start.begin(), g->cell_start.end() - 1);
  for (size_t t = 0; t < count; ++t) {
    int x0, z0, x1, z1;
    cell_range(t, &x0, &z0, &x1, &z1);
    for (int z = z0; z <= z1; ++z)
      for (int x = x0; x <= x1; ++x)
        g->cell_items[fill[size_t(z) * size_t(size) + size_t(x)]++] = static_cast<uint32_t>(t);
  }
  return true;
}

float Ground::HeightAt(float x, float z) const {
  switch (kind) {
    case Kind::kPlane:
      return y;
    case Kind::kRamp:
      return z * std::tan(degrees * kDegreesToRadians);
    case Kind::kStairs:
      return step * std::floor(z / depth);
    case Kind::kMesh: {
      float h = 0.0f;
      glm::vec3 n;
      return MeshAt(*this, x, z, &h, &n) ? h : 0.0f;
    }
  }
  return 0.0f;
}

glm::vec3 Ground::NormalAt(float x, float z) const {
  switch (kind) {
    case Kind::kRamp: {
      const float a = degrees * kDegreesToRadians;
      return glm::vec3(0.0f, std::cos(a), -std::sin(a));
    }
    case Kind::kMesh: {
      float h = 0.0f;
      glm::vec3 n(0.0f, 1.0f, 0.0f);
      MeshAt(*this, x, z, &h, &n);
      return n;
    }
    default:
      return glm::vec3(0.0f, 1.0f, 0.0f);
  }
}

float Ground::HeightAbove(const glm::vec3& p) const {
  return (p.y - HeightAt(p.x, p.z)) * NormalAt(p.x, p.z).y;
}

glm::vec3 Ground::PointAbove(float x, float z, float height) const {
  return glm::vec3(x, HeightAt(x, z), z) + NormalAt(x, z) * height;
}

bool ParseGroundSpec(const std::string& spec, Ground* out, std::string* error) {
  if (IsGroundMeshSpec(spec)) return LoadMeshGround(spec, out, error);
  std::vector<std::string> parts;
  std::stringstream stream(spec);
  for (std::string part; std::getline(stream, part, ',');) parts.push_back(part);
  if (parts.empty()) return BadSpec(spec, kExpected, error);
  Ground g;
  g.spec = spec;
  // Reads the KEY=VALUE parts into `values`, in order of `keys`, each required unless optional.
  auto read = [&](const std::vector<std::string>& keys, size_t required,
                  std::vector<float*> values) -> bool {
    std::vector<bool> seen(keys.size(), false);
    for (size_t i = 1; i < parts.size(); ++i) {
      const size_t eq = parts[i].find('=');
      const std::string key = eq == std::string::npos ? parts[i] : parts[i].substr(0, eq);
      const auto it = std::find(keys.begin(), keys.end(), key);
      if (it == keys.end() || eq == std::string::npos) {
        return BadSpec(spec,
                       "unexpected '" + assets::ShownArgument(parts[i]) + "' (" + kExpected + ")",
                       error);
      }
      const size_t k = static_cast<size_t>(it - keys.begin());
      if (seen[k]) return BadSpec(spec, key + " given twice", error);
      seen[k] = true;
      if (!ParseCoordinate(parts[i].substr(eq + 1), values[k])) {
        return BadSpec(spec, key + " must be a finite number", error);
      }
    }
    for (size_t k = 0; k < required; ++k) {
      if (!seen[k]) return BadSpec(spec, "needs " + keys[k] + "= (" + kExpected + ")", error);
    }
    return true;
  };
  if (parts[0] == "plane") {
    g.kind = Ground::Kind::kPlane;
    if (!read({"y"}, 0, {&g.y})) return false;
  } else if (parts[0] == "ramp") {
    g.kind = Ground::Kind::kRamp;
    if (!read({"degrees"}, 1, {&g.degrees})) return false;
    if (!(std::fabs(g.degrees) < 80.0f)) {
      return BadSpec(spec, "degrees must be between -80 and 80 (exclusive)", error);
    }
  } else if (parts[0] == "stairs") {
    g.kind = Ground::Kind::kStairs;
    if (!read({"step", "depth"}, 2, {&g.step, &g.depth})) return false;
    if (!(g.depth > 0.0f)) return BadSpec(spec, "depth must be greater than 0", error);
  } else {
    return BadSpec(spec, kExpected, error);
  }
  *out = std::move(g);
  return true;
}

}  // namespace app
