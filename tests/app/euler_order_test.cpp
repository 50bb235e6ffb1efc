// The Joints panel's Euler fields in a chosen rotation order (Blender's modes): the order's names,
// the rotation the fields give (the first field's turn applied first), the angles read back in
// every order, and the fields never jumping while a joint turns, in every order.
#include "app/scene/euler_order.h"

#include <gtest/gtest.h>

namespace {

using app::EulerOrder;

constexpr EulerOrder kOrders[] = {EulerOrder::kXYZ, EulerOrder::kXZY, EulerOrder::kYXZ,
                                  EulerOrder::kYZX, EulerOrder::kZXY, EulerOrder::kZYX};

glm::quat Turn(float degrees, int axis) {
  glm::vec3 unit(0.0f);
  unit[axis] = 1.0f;
  return glm::angleAxis(glm::radians(degrees), unit);
}

void ExpectSameRotation(const glm::quat& a, const glm::quat& b, float eps = 1e-4f) {
  EXPECT_NEAR(std::abs(glm::dot(a, b)), 1.0f, eps);
}

TEST(EulerOrder, NamesReadBackAndUnknownOnesAreRefused) {
  for (const EulerOrder order : kOrders) {
    EulerOrder back = EulerOrder::kXYZ;
    ASSERT_TRUE(app::EulerOrderFromName(app::EulerOrderName(order), &back));
    EXPECT_EQ(back, order);
  }
  EulerOrder untouched = EulerOrder::kZYX;
  EXPECT_FALSE(app::EulerOrderFromName("XYX", &untouched));
  EXPECT_FALSE(app::EulerOrderFromName("xyz", &untouched));
  EXPECT_EQ(untouched, EulerOrder::kZYX);
  EXPECT_STREQ(app::EulerOrderName(EulerOrder::kZXY), "ZXY");
}

TEST(EulerOrder, TheFieldsTurnAboutTheirAxesFirstFieldFirst) {
  const glm::vec3 fields(20.0f, -35.0f, 50.0f);
  for (const EulerOrder order : kOrders) {
    SCOPED_TRACE(app::EulerOrderName(order));
    const int a = app::EulerOrderAxis(order, 0), b = app::EulerOrderAxis(order, 1),
              c = app::EulerOrderAxis(order, 2);
    EXPECT_EQ(a + b + c, 3);
    EXPECT_TRUE(a != b && b != c && a != c);
    ExpectSameRotation(app::QuatFromEulerDegrees(fields, order),
                       Turn(fields[2], c) * Turn(fields[1], b) * Turn(fields[0], a));
  }
  // XYZ is glm's (and Blender's) X-Y-Z: q = qz·qy·qx.
  ExpectSameRotation(app::QuatFromEulerDegrees(fields, EulerOrder::kXYZ),
                     glm::quat(glm::radians(fields)));
}

TEST(EulerOrder, AnglesReadInEveryOrderGiveTheRotationBack) {
  const glm::quat q = glm::normalize(Turn(33.0f, 0) * Turn(-71.0f, 1) * Turn(125.0f, 2));
  for (const EulerOrder order : kOrders) {
    SCOPED_TRACE(app::EulerOrderName(order));
    const glm::vec3 fields = app::EulerDegreesInOrder(q, order);
    ExpectSameRotation(app::QuatFromEulerDegrees(fields, order), q);
    // Typed fields read back as typed (within half a turn, away from gimbal lock).
    const glm::vec3 typed(40.0f, 25.0f, -110.0f);
    const glm::vec3 back = app::EulerDegreesInOrder(app::QuatFromEulerDegrees(typed, order), order);
    EXPECT_LT(glm::length(back - typed), 1e-3f) << back.x << " " << back.y << " " << back.z;
  }
}

TEST(EulerOrder, FieldsNeverJumpWhileAJointTurnsInAnyOrder) {
  for (const EulerOrder order : kOrders) {
    SCOPED_TRACE(app::EulerOrderName(order));
    for (int axis = 0; axis < 3; ++axis) {
      glm::vec3 shown(0.0f);
      for (int d = 1; d <= 400; ++d) {
        const glm::quat q = Turn(float(d), axis);
        const glm::vec3 next = app::ContinuousEulerDegrees(q, shown, order);
        EXPECT_LT(glm::length(next - shown), 2.0f) << "axis " << axis << " at " << d << " deg";
        ExpectSameRotation(app::QuatFromEulerDegrees(next, order), q);
        shown = next;
      }
      // The field of that axis went the whole way.
      for (int k = 0; k < 3; ++k) {
        if (app::EulerOrderAxis(order, k) == axis) {
          EXPECT_NEAR(shown[k], 400.0f, 0.05f);
        }
      }
    }
    // What was typed beyond half a turn stays as typed.
    const glm::vec3 typed(200.0f, -20.0f, 370.0f);
    const glm::vec3 kept =
        app::ContinuousEulerDegrees(app::QuatFromEulerDegrees(typed, order), typed, order);
    EXPECT_LT(glm::length(kept - typed), 0.05f);
  }
}

}  // namespace
