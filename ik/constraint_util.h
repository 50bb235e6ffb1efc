// Forwarding header for the FABRIK files (ik/fabrik*.cpp), the full-body files (ik/full_body*.cpp)
// and ik/joint_limits.cpp, which still include this path and use the helpers' old names in
// ik::internal. The helpers live in ik/rotation.h (one set for all of ik/) and
// ik/internal/constraint_util.h; delete this file once they include those directly.
#pragma once

#include "ik/internal/constraint_util.h"
#include "ik/rotation.h"

namespace ik {
namespace internal {

using ik::AngleBetweenDirections;
using ik::AngleBetweenRotations;
using ik::AxisAngle;
using ik::kPi;
using ik::kTwoPi;
using ik::RotationAngle;
using ik::ScaleRotation;
using ik::WrapAngle;
inline glm::quat IdentityQuat() { return IdentityRotation(); }
inline glm::quat Normalize(const glm::quat& q) { return NormalizeOrIdentity(q); }

}  // namespace internal
}  // namespace ik
