// Selecting a joint by clicking the view: the nearest joint or bone segment on screen, else the
// joint that weighs most on the clicked point of the skinned mesh.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "app/scene/camera.h"
#include "assets/model/model.h"

namespace app {

struct PickView {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  Viewport viewport;
};

// The joint whose bone (BoneSegments: joint → child, selecting the joint that owns it, the same
// bone the view highlights) is under the cursor: its head within `tolerance_px`, else its segment
// within the tolerance or the drawn bone's half width; heads win over bodies; -1 when none.
int PickBone(const assets::Model& model, const std::vector<glm::mat4>& models, const PickView& view,
             const glm::vec2& cursor, float tolerance_px);

// Nearest hit of a ray with a triangle mesh: ray parameter, triangle and barycentric weights of
// its vertices 1 and 2. False when the ray misses.
struct MeshHit {
  float t = 0.0f;
  int triangle = -1;
  glm::vec2 barycentric{0.0f};
};
bool IntersectMesh(const Ray& ray, const std::vector<glm::vec3>& positions,
                   const std::vector<uint32_t>& indices, MeshHit* hit);

// The skeleton joint with the largest weight at the surface point under the cursor (the clicked
// triangle's vertex nearest the hit), skinning the meshes with `models`; -1 when the ray misses.
int PickJointOnMesh(const assets::Model& model, const std::vector<glm::mat4>& models,
                    const Ray& ray);

}  // namespace app
