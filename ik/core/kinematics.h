// Forward kinematics and the skin palette: local transforms -> model-space matrices 𝕋_i, and
// 𝕋_i · S_i⁻¹ per joint for skinning.
#pragma once

#include <cstddef>
#include <glm/glm.hpp>
#include <vector>

#include "ik/core/skeleton.h"

namespace ik {

// Model-space matrix of every joint: 𝕋_i = 𝕋_parent(i) · T_i, roots use T_i alone.
// `models` is resized to the joint count. `pose` must have one local per joint.
void LocalToModel(const Skeleton& skeleton, const Pose& pose, std::vector<glm::mat4>* models);

// The same with the roots placed by `root` (e.g. a character's place in a crowd): 𝕋_root = root·T.
void LocalToModel(const Skeleton& skeleton, const Pose& pose, const glm::mat4& root,
                  std::vector<glm::mat4>* models);

// *out = a · b (4x4), with SSE where available; `out` may alias `a` or `b`.
void MultiplyInto(const glm::mat4& a, const glm::mat4& b, glm::mat4* out);

// Recomputes 𝕋 for `joint` and all its descendants only, leaving the others as they are; `models`
// must already hold valid matrices for the ancestors of `joint`. Allocates nothing, whatever the
// joint order.
void LocalToModelFrom(const Skeleton& skeleton, const Pose& pose, int joint,
                      std::vector<glm::mat4>* models);

// What a skin palette is made of: the joints' model matrices and, per bone, its joint and
// inverse bind matrix. `joints` may be null: bone b is then joint b.
struct SkinBones {
  const glm::mat4* models = nullptr;  // 𝕋, model space, `model_count` of them
  size_t model_count = 0;
  const int* joints = nullptr;               // per bone: its joint (an index into models), or null
  const glm::mat4* inverse_binds = nullptr;  // per bone: S⁻¹
  size_t inverse_bind_count = 0;
  size_t bone_count = 0;
};

// The skin palette out[b] = 𝕋_joint(b) · S_b⁻¹ for every bone b (the one palette the CPU skinning,
// the GPU model and the crowd all use). A bone whose joint is outside [0, model_count) gets the
// identity; a bone at or past inverse_bind_count gets 𝕋_joint(b) alone. `out` holds bone_count
// matrices; nothing is allocated.
void SkinPalette(const SkinBones& bones, glm::mat4* out);

// The bones of a mesh: one per entry of `joints`, with `models` and `inverse_binds` (all three
// must outlive the result).
SkinBones MakeSkinBones(const std::vector<glm::mat4>& models, const std::vector<int>& joints,
                        const std::vector<glm::mat4>& inverse_binds);

// Skin palette 𝕋_i · S_i⁻¹ of every joint with the skeleton's inverse bind matrices (resizes
// `palette` to the joint count).
void SkinPalette(const Skeleton& skeleton, const std::vector<glm::mat4>& models,
                 std::vector<glm::mat4>* palette);

}  // namespace ik
