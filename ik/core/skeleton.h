// Skeleton: the immutable joint hierarchy of a rig. Joints are stored parents before children, so
// one forward loop turns local transforms into model-space matrices.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ik/core/transform.h"

namespace ik {

// One joint as given to Skeleton::Build.
struct JointDesc {
  std::string name;
  int parent = -1;                        // index of an earlier joint, or -1 for a root
  Transform rest;                         // rest (bind-time) local transform relative to the parent
  std::optional<glm::mat4> inverse_bind;  // S⁻¹: model space -> joint space at bind time.
                                          // When absent, the inverse of the rest model matrix.
};

// A joint's declared humanoid role, as an avatar format's humanoid bone map gives it (VRM's
// `humanoid.humanBones`): the role by its VRM name ("hips", "leftUpperLeg", "rightHand", ...).
struct HumanoidBone {
  std::string bone;
  int joint = -1;
  bool operator==(const HumanoidBone& o) const { return bone == o.bone && joint == o.joint; }
};

class Skeleton {
 public:
  Skeleton() = default;

  // Builds a skeleton. Fails (nullopt, reason in *error) when a parent index is not an earlier
  // joint, a rest transform or inverse bind matrix is not finite, or there are more than
  // kMaxJoints joints. Names may repeat; Find returns the first.
  static std::optional<Skeleton> Build(std::vector<JointDesc> joints, std::string* error);

  static constexpr int kMaxJoints = 65535;

  int joint_count() const { return static_cast<int>(parents_.size()); }
  bool empty() const { return parents_.empty(); }
  const std::string& name(int joint) const { return names_[joint]; }
  const std::vector<std::string>& names() const { return names_; }
  int parent(int joint) const { return parents_[joint]; }
  const std::vector<int>& parents() const { return parents_; }
  const std::vector<Transform>& rest_locals() const { return rest_locals_; }
  // Model-space matrices of the rest pose.
  const std::vector<glm::mat4>& rest_models() const { return rest_models_; }
  // S⁻¹ per joint (model space -> joint space at bind time).
  const std::vector<glm::mat4>& inverse_binds() const { return inverse_binds_; }
  // Children of a joint, in index order.
  const std::vector<int>& children(int joint) const { return children_[joint]; }
  // One past the last joint of the subtree rooted at `joint` when joints are in depth-first
  // order; see subtree_contiguous().
  int subtree_end(int joint) const { return subtree_end_[joint]; }
  // True when every subtree occupies a contiguous index range [joint, subtree_end(joint)).
  bool subtree_contiguous() const { return subtree_contiguous_; }
  // The joints in depth-first order (parents before children, each subtree contiguous: the
  // subtree of `joint` is depth_first()[p, p + subtree_size(joint)) with p =
  // depth_first_position(joint)). The identity order when subtree_contiguous().
  const std::vector<int>& depth_first() const { return depth_first_; }
  int depth_first_position(int joint) const { return depth_first_position_[joint]; }
  int subtree_size(int joint) const { return subtree_end_[joint] - joint; }

  // The rig's declared humanoid bones (a VRM avatar's humanoid map), in the file's order; empty
  // for rigs that declare none. Limb detection takes its arms and legs from them first.
  const std::vector<HumanoidBone>& humanoid() const { return humanoid_; }
  // Sets the humanoid map. False, with the reason and the map left as it was, when a joint is not
  // one of this skeleton's, a role is empty or listed twice, or a joint has two roles.
  bool SetHumanoid(std::vector<HumanoidBone> bones, std::string* error);
  // The joint declared for a humanoid role, or -1.
  int HumanoidJoint(std::string_view bone) const;

  // Index of the first joint with this exact name, or -1.
  int Find(std::string_view name) const;
  // True when `ancestor` is `joint` or one of its ancestors.
  bool IsAncestorOrSelf(int ancestor, int joint) const;
  // Number of joints between the root and `joint` (0 for a root).
  int Depth(int joint) const;

 private:
  std::vector<std::string> names_;
  std::vector<int> parents_;
  std::vector<Transform> rest_locals_;
  std::vector<glm::mat4> rest_models_;
  std::vector<glm::mat4> inverse_binds_;
  std::vector<std::vector<int>> children_;
  std::vector<int> subtree_end_;
  std::vector<int> depth_first_;
  std::vector<int> depth_first_position_;
  bool subtree_contiguous_ = true;
  std::vector<HumanoidBone> humanoid_;
};

// A pose: one local transform per joint of a skeleton.
struct Pose {
  std::vector<Transform> locals;

  static Pose Rest(const Skeleton& skeleton) { return Pose{skeleton.rest_locals()}; }
};

}  // namespace ik
