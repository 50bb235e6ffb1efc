// Skeleton construction and queries.
#include "ik/core/skeleton.h"

#include <algorithm>
#include <set>
#include <utility>

namespace ik {

std::optional<Skeleton> Skeleton::Build(std::vector<JointDesc> joints, std::string* error) {
  auto fail = [&](std::string message) -> std::optional<Skeleton> {
    if (error) *error = std::move(message);
    return std::nullopt;
  };
  if (joints.size() > static_cast<size_t>(kMaxJoints)) {
    return fail("skeleton has " + std::to_string(joints.size()) + " joints, more than the " +
                std::to_string(kMaxJoints) + " supported");
  }
  Skeleton s;
  const int n = static_cast<int>(joints.size());
  s.names_.reserve(n);
  s.parents_.reserve(n);
  s.rest_locals_.reserve(n);
  s.rest_models_.reserve(n);
  s.inverse_binds_.reserve(n);
  s.children_.resize(n);
  for (int i = 0; i < n; ++i) {
    JointDesc& j = joints[i];
    if (j.parent < -1 || j.parent >= i) {
      return fail("joint '" + j.name + "' (" + std::to_string(i) + ") has parent " +
                  std::to_string(j.parent) + ", which is not an earlier joint");
    }
    if (!j.rest.IsFinite()) return fail("joint '" + j.name + "' has a non-finite rest transform");
    const glm::mat4 local = j.rest.ToMatrix();
    const glm::mat4 model = j.parent < 0 ? local : s.rest_models_[j.parent] * local;
    if (!IsFinite(model)) return fail("joint '" + j.name + "' has a non-finite rest matrix");
    glm::mat4 inverse_bind;
    if (j.inverse_bind) {
      if (!IsFinite(*j.inverse_bind)) {
        return fail("joint '" + j.name + "' has a non-finite inverse bind matrix");
      }
      inverse_bind = *j.inverse_bind;
    } else {
      inverse_bind = glm::inverse(model);
      if (!IsFinite(inverse_bind)) inverse_bind = glm::mat4(1.0f);
    }
    s.names_.push_back(std::move(j.name));
    s.parents_.push_back(j.parent);
    s.rest_locals_.push_back(j.rest);
    s.rest_models_.push_back(model);
    s.inverse_binds_.push_back(inverse_bind);
    if (j.parent >= 0) s.children_[j.parent].push_back(i);
  }
  // Subtree ranges. Joints are in depth-first order exactly when, for every joint, its children
  // follow it back to back, each after the whole subtree of the previous one.
  std::vector<int> size(n, 1);
  for (int i = n - 1; i > 0; --i)
    if (s.parents_[i] >= 0) size[s.parents_[i]] += size[i];
  s.subtree_end_.resize(n);
  for (int i = 0; i < n; ++i) {
    s.subtree_end_[i] = i + size[i];
    int expected = i + 1;
    for (int c : s.children_[i]) {
      if (c != expected) s.subtree_contiguous_ = false;
      expected = c + size[c];
    }
  }
  // Depth-first order: each joint followed by its children's subtrees in index order.
  s.depth_first_.reserve(n);
  s.depth_first_position_.assign(n, 0);
  std::vector<int> stack;
  for (int root = 0; root < n; ++root) {
    if (s.parents_[root] >= 0) continue;
    stack.push_back(root);
    while (!stack.empty()) {
      const int j = stack.back();
      stack.pop_back();
      s.depth_first_position_[j] = static_cast<int>(s.depth_first_.size());
      s.depth_first_.push_back(j);
      const std::vector<int>& children = s.children_[j];
      for (auto c = children.rbegin(); c != children.rend(); ++c) stack.push_back(*c);
    }
  }
  return s;
}

bool Skeleton::SetHumanoid(std::vector<HumanoidBone> bones, std::string* error) {
  std::set<std::string_view> roles;
  std::vector<char> has_role(static_cast<size_t>(joint_count()), 0);
  for (const HumanoidBone& b : bones) {
    std::string problem;
    if (b.bone.empty()) {
      problem = "a humanoid bone has no name";
    } else if (b.joint < 0 || b.joint >= joint_count()) {
      problem = "humanoid bone '" + b.bone + "' is on joint " + std::to_string(b.joint) +
                ", which does not exist";
    } else if (!roles.insert(b.bone).second) {
      problem = "humanoid bone '" + b.bone + "' is listed twice";
    } else if (has_role[static_cast<size_t>(b.joint)]) {
      problem = "joint '" + names_[static_cast<size_t>(b.joint)] + "' has two humanoid roles";
    }
    if (!problem.empty()) {
      if (error) *error = problem;
      return false;
    }
    has_role[static_cast<size_t>(b.joint)] = 1;
  }
  humanoid_ = std::move(bones);
  return true;
}

int Skeleton::HumanoidJoint(std::string_view bone) const {
  for (const HumanoidBone& b : humanoid_)
    if (b.bone == bone) return b.joint;
  return -1;
}

int Skeleton::Find(std::string_view name) const {
  for (int i = 0; i < joint_count(); ++i)
    if (names_[i] == name) return i;
  return -1;
}

bool Skeleton::IsAncestorOrSelf(int ancestor, int joint) const {
  for (int j = joint; j >= 0; j = parents_[j])
    if (j == ancestor) return true;
  return false;
}

int Skeleton::Depth(int joint) const {
  int d = 0;
  for (int j = parents_[joint]; j >= 0; j = parents_[j]) ++d;
  return d;
}

}  // namespace ik
