// Forward kinematics and the skin palette: local transforms -> model-space matrices 𝕋_i, and
// 𝕋_i · S_i⁻¹ per joint for skinning.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "ik/skeleton.h"

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

// Skin palette 𝕋_i · S_i⁻¹ with the skeleton's inverse bind matrices.
void SkinPalette(const Skeleton& skeleton, const std::vector<glm::mat4>& models,
                 std::vector<glm::mat4>* palette);

}  // namespace ik
