// The full-body part of a frame's constraints (pins, moves and how the body helps) and the body rig
// it is solved on, cached per skeleton so that a frame's solve builds nothing.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "ik/body/full_body.h"

namespace app {

// Pins and moves given explicitly (--pin, --move, the window's body handles), with the options of
// the solve. Two-bone requests on a hand or foot take part as well (IkChainRequest::body_helps):
// see SolveBody in app/core/body_solve.h.
struct BodyRequest {
  std::vector<ik::BodyEffector> effectors;  // model (= world) space targets
  ik::FullBodyOptions options;
};

// The ik::BodyRig of a skeleton, rebuilt only when the skeleton differs from the last one's
// (joint count, parents or rest translations), so a frame's lookup allocates nothing.
class BodyRigCache {
 public:
  // The rig, or null when the skeleton has no arms or legs (the reason in *why when given).
  const ik::BodyRig* For(const ik::Skeleton& skeleton, const std::vector<bool>* is_bone,
                         std::string* why = nullptr);
  // The rig of the last For, null when none was built or the skeleton had no limbs.
  const ik::BodyRig* Last() const { return built_ && ok_ ? &rig_ : nullptr; }

 private:
  bool Same(const ik::Skeleton& skeleton) const;

  bool built_ = false;
  bool ok_ = false;
  std::string why_;
  std::vector<int> parents_;
  std::vector<glm::vec3> rest_translations_;
  ik::BodyRig rig_;
};

}  // namespace app
