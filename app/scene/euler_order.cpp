// Euler angles in any of the six rotation orders, through the X-Y-Z ones: relabelling the axes so
// that the order becomes X, Y, Z is a rotation for the cyclic orders and a reflection for the
// others, which turns each angle's sign.
#include "app/scene/euler_order.h"

#include "app/scene/bone_rotate.h"

namespace app {

namespace {

constexpr int kAxes[kEulerOrderCount][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                            {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
constexpr const char* kNames[kEulerOrderCount] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};

int Index(EulerOrder order) { return static_cast<int>(order); }

// +1 for the cyclic orders (a rotation of the axes), -1 for the others (a reflection).
float Handedness(EulerOrder order) {
  const int i = Index(order);
  return i == 0 || i == 3 || i == 4 ? 1.0f : -1.0f;
}

// `q` with its axes relabelled so that the order's k-th axis is axis k: the same turn, read as
// an X-Y-Z one (angles negated for a reflection).
glm::quat Relabelled(const glm::quat& q, EulerOrder order) {
  const float s = Handedness(order);
  const int* axes = kAxes[Index(order)];
  const glm::vec3 v(q.x, q.y, q.z);
  return glm::quat(q.w, s * v[axes[0]], s * v[axes[1]], s * v[axes[2]]);
}

}  // namespace

const char* EulerOrderName(EulerOrder order) { return kNames[Index(order)]; }

bool EulerOrderFromName(const std::string& name, EulerOrder* order) {
  for (int i = 0; i < kEulerOrderCount; ++i) {
    if (name == kNames[i]) {
      *order = static_cast<EulerOrder>(i);
      return true;
    }
  }
  return false;
}

int EulerOrderAxis(EulerOrder order, int step) { return kAxes[Index(order)][step]; }

glm::quat QuatFromEulerDegrees(const glm::vec3& fields, EulerOrder order) {
  glm::quat q(1.0f, 0.0f, 0.0f, 0.0f);
  for (int k = 0; k < 3; ++k) {
    glm::vec3 axis(0.0f);
    axis[EulerOrderAxis(order, k)] = 1.0f;
    q = glm::angleAxis(glm::radians(fields[k]), axis) * q;  // the later turns after
  }
  return glm::normalize(q);
}

glm::vec3 ContinuousEulerDegrees(const glm::quat& q, const glm::vec3& previous, EulerOrder order) {
  const float s = Handedness(order);
  return s * ContinuousEulerDegrees(Relabelled(glm::normalize(q), order), s * previous);
}

glm::vec3 EulerDegreesInOrder(const glm::quat& q, EulerOrder order) {
  const float s = Handedness(order);
  return s * glm::degrees(glm::eulerAngles(Relabelled(glm::normalize(q), order)));
}

}  // namespace app
