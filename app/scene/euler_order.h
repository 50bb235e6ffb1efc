// Euler angles in a chosen rotation order, as Blender's rotation modes: "XYZ" turns about X first,
// then Y, then Z (q = qz·qy·qx); the Joints panel shows its three fields in the order chosen.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>

namespace app {

enum class EulerOrder { kXYZ, kXZY, kYXZ, kYZX, kZXY, kZYX };
inline constexpr int kEulerOrderCount = 6;

// "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX".
const char* EulerOrderName(EulerOrder order);
// The order named `name` (as EulerOrderName writes it); false when there is none.
bool EulerOrderFromName(const std::string& name, EulerOrder* order);
// The axis (0 X, 1 Y, 2 Z) turned about `step`-th (0 first).
int EulerOrderAxis(EulerOrder order, int step);

// The rotation of three angles in degrees, field k about axis EulerOrderAxis(order, k), the first
// field's turn applied first.
glm::quat QuatFromEulerDegrees(const glm::vec3& fields, EulerOrder order);

// The angles (degrees, in the fields' order) of `q` nearest to `previous` (as the fields showed
// them): each angle moved by whole turns and of the two triples of the rotation the nearer one,
// at gimbal lock the first field kept; so the fields never jump while a joint turns smoothly
// (ContinuousEulerDegrees, for every order).
glm::vec3 ContinuousEulerDegrees(const glm::quat& q, const glm::vec3& previous, EulerOrder order);
// The angles of `q` in `order` with nothing shown before (the principal triple).
glm::vec3 EulerDegreesInOrder(const glm::quat& q, EulerOrder order);

}  // namespace app
