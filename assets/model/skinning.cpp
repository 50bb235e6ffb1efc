// Linear-blend skinning on the CPU: per mesh bone palette 𝕋·S⁻¹, blended per vertex over its
// (up to eight) influences.
#include "assets/model/skinning.h"

#include <cmath>

#include "ik/core/kinematics.h"
#include "ik/core/transform.h"

namespace assets {
namespace {

// Transpose of the cofactor matrix, i.e. det(m) · inverse-transpose(m), which stays defined when m
// is singular. Multiplied by sign(det) it maps normals like the inverse transpose does.
glm::mat3 CofactorMatrix(const glm::mat3& m) {
  glm::mat3 c;
  c[0] = glm::cross(m[1], m[2]);
  c[1] = glm::cross(m[2], m[0]);
  c[2] = glm::cross(m[0], m[1]);
  return c;
}

}  // namespace

void Bounds::Add(const glm::vec3& p) {
  if (!ik::IsFinite(p)) return;
  if (empty()) {
    min = max = p;
    return;
  }
  min = glm::min(min, p);
  max = glm::max(max, p);
}

glm::vec3 Bounds::center() const { return empty() ? glm::vec3(0.0f) : (min + max) * 0.5f; }
glm::vec3 Bounds::size() const { return empty() ? glm::vec3(0.0f) : max - min; }
float Bounds::diagonal() const { return glm::length(size()); }

void SkinMesh(const Mesh& mesh, const std::vector<glm::mat4>& models,
              std::vector<glm::vec3>* positions, std::vector<glm::vec3>* normals) {
  SkinMesh(mesh, models, mesh.target_weights, positions, normals);
}

void SkinMesh(const Mesh& mesh, const std::vector<glm::mat4>& models,
              const std::vector<float>& morph_weights, std::vector<glm::vec3>* positions,
              std::vector<glm::vec3>* normals) {
  // Morphed bind-time vertices, when some target has a weight; otherwise the mesh's own.
  std::vector<glm::vec3> morphed_positions, morphed_normals;
  const bool morphed = !mesh.targets.empty() &&
                       BlendMorphTargets(mesh, morph_weights, &morphed_positions, &morphed_normals);
  const std::vector<glm::vec3>& base_positions = morphed ? morphed_positions : mesh.positions;
  const std::vector<glm::vec3>& base_normals = morphed ? morphed_normals : mesh.normals;
  const size_t bone_count = mesh.bone_joints.size();
  std::vector<glm::mat4> palette(bone_count);
  ik::SkinPalette(ik::MakeSkinBones(models, mesh.bone_joints, mesh.bone_inverse_binds),
                  palette.data());
  const size_t n = mesh.positions.size();
  const bool has_weights = mesh.joints.size() == n && mesh.weights.size() == n;
  const bool has_extra = mesh.extra_joints.size() == n && mesh.extra_weights.size() == n;
  const bool has_normals = base_normals.size() == n;
  positions->resize(n);
  if (normals) normals->resize(n);
  for (size_t i = 0; i < n; ++i) {
    glm::mat4 blended(0.0f);
    float total = 0.0f;
    auto add = [&](const glm::vec4& weights, const glm::u16vec4& joints) {
      for (int k = 0; k < 4; ++k) {
        const float w = weights[k];
        const unsigned bone = joints[k];
        if (w == 0.0f || bone >= bone_count) continue;
        blended += palette[bone] * w;
        total += w;
      }
    };
    if (has_weights) add(mesh.weights[i], mesh.joints[i]);
    if (has_weights && has_extra) add(mesh.extra_weights[i], mesh.extra_joints[i]);
    // A vertex without usable influences follows the first bone, the mesh's own node for an
    // unskinned mesh.
    if (total == 0.0f) blended = bone_count > 0 ? palette[0] : glm::mat4(1.0f);
    (*positions)[i] = glm::vec3(blended * glm::vec4(base_positions[i], 1.0f));
    if (!normals) continue;
    const glm::vec3 bind_normal = has_normals ? base_normals[i] : glm::vec3(0.0f, 1.0f, 0.0f);
    const glm::mat3 linear(blended);
    const float det = glm::determinant(linear);
    glm::vec3 nrm = CofactorMatrix(linear) * bind_normal;
    if (det < 0.0f) nrm = -nrm;
    const float len = glm::length(nrm);
    (*normals)[i] = len > 1e-20f && std::isfinite(len) ? nrm / len : bind_normal;
  }
}

Bounds ModelBounds(const Model& model, const std::vector<glm::mat4>& models,
                   const MorphWeights* weights) {
  Bounds bounds;
  std::vector<glm::vec3> skinned;
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const bool given = weights && m < weights->size();
    SkinMesh(mesh, models, given ? (*weights)[m] : mesh.target_weights, &skinned, nullptr);
    for (const glm::vec3& p : skinned) bounds.Add(p);
  }
  if (bounds.empty()) {
    for (const glm::mat4& m : models) bounds.Add(glm::vec3(m[3]));
  }
  return bounds;
}

Bounds RestBounds(const Model& model) { return ModelBounds(model, model.skeleton.rest_models()); }

}  // namespace assets
