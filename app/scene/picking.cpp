// Bone and mesh picking.
#include "app/scene/picking.h"

#include <algorithm>
#include <limits>

#include "app/scene/bones.h"
#include "app/scene/gizmo.h"
#include "assets/model/skinning.h"

namespace app {

int PickBone(const assets::Model& model, const std::vector<glm::mat4>& models, const PickView& view,
             const glm::vec2& cursor, float tolerance_px) {
  const ik::Skeleton& skeleton = model.skeleton;
  const int n = std::min(skeleton.joint_count(), static_cast<int>(models.size()));
  std::vector<BoneSegment> segments;
  BoneSegments(model, models, &segments);
  int best = -1;
  float best_distance = tolerance_px;
  for (const BoneSegment& bone : segments) {  // joint markers (bone heads) first
    glm::vec2 pixel;
    if (!ProjectToPixel(view.view, view.projection, view.viewport, bone.head, &pixel)) continue;
    const float d = glm::length(pixel - cursor);
    if (d < best_distance) {
      best_distance = d;
      best = bone.joint;
    }
  }
  if (best >= 0) return best;
  // Then the bones themselves, each selecting the joint that owns it: within the tolerance or
  // within the drawn octahedron's half width on screen, whichever is more.
  float best_score = std::numeric_limits<float>::max();
  for (const BoneSegment& bone : segments) {
    if (bone.joint < 0 || bone.joint >= n) continue;
    glm::vec2 head, tail, rim;
    if (!ProjectToPixel(view.view, view.projection, view.viewport, bone.head, &head) ||
        !ProjectToPixel(view.view, view.projection, view.viewport, bone.tail, &tail)) {
      continue;
    }
    const float length = glm::length(bone.tail - bone.head);
    const glm::vec3 middle = 0.5f * (bone.head + bone.tail);
    // The camera's right axis in world space, to measure the bone's radius in pixels.
    const glm::vec3 right = glm::normalize(glm::vec3(glm::transpose(view.view)[0]));
    const glm::vec3 rim_point = middle + right * BoneRadius(length, true);
    glm::vec2 centre_px;
    float radius_px = 0.0f;
    if (ProjectToPixel(view.view, view.projection, view.viewport, middle, &centre_px) &&
        ProjectToPixel(view.view, view.projection, view.viewport, rim_point, &rim)) {
      radius_px = glm::length(rim - centre_px);
    }
    const float d = DistanceToSegment(cursor, head, tail);
    const float reach = std::max(tolerance_px, radius_px);
    // Relative to each bone's reach, so a thin bone beside a thick one can still be hit.
    if (d < reach && d / reach < best_score) {
      best_score = d / reach;
      best = bone.joint;
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
