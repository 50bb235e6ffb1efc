// Bone and mesh picking.
#include "app/scene/picking.h"

#include <algorithm>
#include <limits>

#include "app/scene/gizmo.h"
#include "assets/skinning.h"

namespace app {

int PickBone(const assets::Model& model, const std::vector<glm::mat4>& models, const PickView& view,
             const glm::vec2& cursor, float tolerance_px) {
  const ik::Skeleton& skeleton = model.skeleton;
  const int n = std::min(skeleton.joint_count(), static_cast<int>(models.size()));
  const bool any_bone =
      std::find(model.is_bone.begin(), model.is_bone.end(), true) != model.is_bone.end();
  auto shown = [&](int j) {
    return !any_bone || (j < static_cast<int>(model.is_bone.size()) && model.is_bone[j]);
  };
  std::vector<glm::vec2> pixels(n);
  std::vector<char> visible(n, 0);
  for (int j = 0; j < n; ++j) {
    visible[j] = ProjectToPixel(view.view, view.projection, view.viewport, glm::vec3(models[j][3]),
                                &pixels[j]);
  }
  int best = -1;
  float best_distance = tolerance_px;
  for (int j = 0; j < n; ++j) {  // joint markers first
    if (!shown(j) || !visible[j]) continue;
    const float d = glm::length(pixels[j] - cursor);
    if (d < best_distance) {
      best_distance = d;
      best = j;
    }
  }
  if (best >= 0) return best;
  best_distance = tolerance_px;
  for (int j = 0; j < n; ++j) {  // then segments, parent → child, selecting the parent
    const int p = skeleton.parent(j);
    if (p < 0 || !shown(j) || !shown(p) || !visible[j] || !visible[p]) continue;
    const float d = DistanceToSegment(cursor, pixels[p], pixels[j]);
    if (d < best_distance) {
      best_distance = d;
      best = p;
    }
  }
  return best;
}

bool IntersectMesh(const Ray& ray, const std::vector<glm::vec3>& positions,
                   const std::vector<uint32_t>& indices, MeshHit* hit) {
  bool found = false;
  float nearest = std::numeric_limits<float>::max();
  for (size_t i = 0; i + 2 < indices.size(); i += 3) {
    if (indices[i] >= positions.size() || indices[i + 1] >= positions.size() ||
        indices[i + 2] >= positions.size()) {
      continue;
    }
    // Möller–Trumbore, both faces.
    const glm::vec3& v0 = positions[indices[i]];
    const glm::vec3 e1 = positions[indices[i + 1]] - v0;
    const glm::vec3 e2 = positions[indices[i + 2]] - v0;
    const glm::vec3 p = glm::cross(ray.direction, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-12f) continue;
    const float inv = 1.0f / det;
    const glm::vec3 s = ray.origin - v0;
    const float u = glm::dot(s, p) * inv;
    if (u < 0.0f || u > 1.0f) continue;
    const glm::vec3 q = glm::cross(s, e1);
    const float v = glm::dot(ray.direction, q) * inv;
    if (v < 0.0f || u + v > 1.0f) continue;
    const float t = glm::dot(e2, q) * inv;
    if (t <= 0.0f || t >= nearest) continue;
    nearest = t;
    hit->t = t;
    hit->triangle = static_cast<int>(i / 3);
    hit->barycentric = {u, v};
    found = true;
  }
  return found;
}

int PickJointOnMesh(const assets::Model& model, const std::vector<glm::mat4>& models,
                    const Ray& ray) {
  float nearest = std::numeric_limits<float>::max();
  int joint = -1;
  std::vector<glm::vec3> positions;
  for (const assets::Mesh& mesh : model.meshes) {
    assets::SkinMesh(mesh, models, &positions, nullptr);
    MeshHit hit;
    if (!IntersectMesh(ray, positions, mesh.indices, &hit) || hit.t >= nearest) continue;
    nearest = hit.t;
    // The triangle's vertex with the largest barycentric weight is nearest the hit.
    const float w[3] = {1.0f - hit.barycentric.x - hit.barycentric.y, hit.barycentric.x,
                        hit.barycentric.y};
    const int corner = static_cast<int>(std::max_element(w, w + 3) - w);
    const uint32_t vertex = mesh.indices[size_t(hit.triangle) * 3 + size_t(corner)];
    if (vertex >= mesh.weights.size() || vertex >= mesh.joints.size()) continue;
    const glm::vec4& weights = mesh.weights[vertex];
    int k = 0;
    for (int i = 1; i < 4; ++i)
      if (weights[i] > weights[k]) k = i;
    const int bone = mesh.joints[vertex][k];
    if (bone >= 0 && bone < static_cast<int>(mesh.bone_joints.size())) {
      joint = mesh.bone_joints[bone];
    }
  }
  return joint;
}

}  // namespace app
