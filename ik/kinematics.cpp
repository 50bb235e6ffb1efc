// Forward kinematics over a parents-before-children skeleton, and the skin palette.
#include "ik/kinematics.h"

#include <cassert>

namespace ik {

void LocalToModel(const Skeleton& skeleton, const Pose& pose, std::vector<glm::mat4>* models) {
  const int n = skeleton.joint_count();
  assert(static_cast<int>(pose.locals.size()) == n);
  models->resize(n);
  const int* parents = skeleton.parents().data();
  const Transform* locals = pose.locals.data();
  glm::mat4* out = models->data();
  for (int i = 0; i < n; ++i) {
    const glm::mat4 local = locals[i].ToMatrix();
    out[i] = parents[i] < 0 ? local : out[parents[i]] * local;
  }
}

void LocalToModelFrom(const Skeleton& skeleton, const Pose& pose, int joint,
                      std::vector<glm::mat4>* models) {
  const int n = skeleton.joint_count();
  assert(static_cast<int>(models->size()) == n && joint >= 0 && joint < n);
  auto& out = *models;
  const auto& parents = skeleton.parents();
  auto update = [&](int i) {
    const glm::mat4 local = pose.locals[i].ToMatrix();
    out[i] = parents[i] < 0 ? local : out[parents[i]] * local;
  };
  if (skeleton.subtree_contiguous()) {
    const int end = skeleton.subtree_end(joint);
    for (int i = joint; i < end; ++i) update(i);
    return;
  }
  // General order: a joint after `joint` is in the subtree when its parent is.
  std::vector<char> in_subtree(n, 0);
  in_subtree[joint] = 1;
  update(joint);
  for (int i = joint + 1; i < n; ++i) {
    if (parents[i] >= 0 && in_subtree[parents[i]]) {
      in_subtree[i] = 1;
      update(i);
    }
  }
}

void SkinPalette(const Skeleton& skeleton, const std::vector<glm::mat4>& models,
                 std::vector<glm::mat4>* palette) {
  const int n = skeleton.joint_count();
  assert(static_cast<int>(models.size()) == n);
  palette->resize(n);
  const auto& inverse_binds = skeleton.inverse_binds();
  for (int i = 0; i < n; ++i) (*palette)[i] = models[i] * inverse_binds[i];
}

}  // namespace ik
