// Synthetic rigged models for renderer tests, and a double-precision CPU skinning reference that
// follows the formula in assets/model/model.h independently of the renderer.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "assets/model/model.h"
#include "ik/core/skeleton.h"

namespace rendertest {

// A vertical tube (radius 0.15, height 1.6, standing on y = 0, capped) skinned to a chain of
// four joints along +y, blending linearly between neighbouring joints: a stand-in mannequin.
assets::Model MakeTube();

// A rig of 1 + chains × chain_length joints: a root and fans of chains around it, each chain
// joint carrying a small box whose vertices blend up to four joints (itself, its parent, its
// grandparent, the root) with uneven weights. Two meshes, each with its own bone list in an
// order that differs from the skeleton's and inverse binds that include a mesh bind transform.
// 64 × 16 gives 1,025 joints.
assets::Model MakeWideRig(int chains = 64, int chain_length = 16);

// A pose away from rest: every joint rotated by up to `max_angle` radians about a pseudo-random
// axis, non-uniformly scaled within [1 - scale_range, 1 + scale_range] and nudged, from `seed`.
ik::Pose RandomPose(const ik::Skeleton& skeleton, unsigned seed, float max_angle = 0.6f,
                    float scale_range = 0.2f);

// Model-space joint matrices of a pose.
std::vector<glm::mat4> JointModels(const ik::Skeleton& skeleton, const ik::Pose& pose);

// Σ_k w_k · (𝕋[bone_joints[j_k]] · bone_inverse_binds[j_k]) · p for every vertex, in double, over
// both influence sets (joints/weights and extra_joints/extra_weights).
std::vector<glm::vec3> ReferenceSkin(const assets::Mesh& mesh,
                                     const std::vector<glm::mat4>& joint_models);
// Skinned normals: inverse-transpose of the blended matrix, normalized, in double.
std::vector<glm::vec3> ReferenceSkinNormals(const assets::Mesh& mesh,
                                            const std::vector<glm::mat4>& joint_models);

// Diagonal of the bounding box of all positions of all meshes.
float BoundsSize(const std::vector<std::vector<glm::vec3>>& positions);

}  // namespace rendertest
