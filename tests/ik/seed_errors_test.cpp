// Each formula the seed (seeds/two-bone-ik.txt) prints wrongly, pinned: the printed version is
// shown to fail and ours to be right. See "Known traps" in DESIGN.md.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <random>

#include "ik/core/rotation.h"
#include "ik/core/transform.h"
#include "ik/two_bone/two_bone_ik.h"
#include "tests/ik/ik_test_util.h"

namespace {

using iktest::RandomRotation;
using iktest::RandomUnit;
using iktest::Uniform;

// The seed's scale matrix as printed: s on the diagonal and a last column of ones.
glm::mat4 SeedScaleMatrix(const glm::vec3& s) {
  glm::mat4 m(1.0f);
  m[0][0] = s.x;
  m[1][1] = s.y;
  m[2][2] = s.z;
  m[3] = glm::vec4(1.0f, 1.0f, 1.0f, 1.0f);  // column 4 = (1, 1, 1, 1)
  return m;
}

// The seed's rotation matrix as printed, with entry (3,2) = 2(q_y q_z - q_w q_x).
glm::mat3 SeedRotationMatrix(const glm::quat& q) {
  const float x = q.x, y = q.y, z = q.z, w = q.w;
  glm::mat3 r;  // r[column][row], rows and columns 0-based here
  r[0][0] = 1 - 2 * (y * y + z * z);
  r[1][0] = 2 * (x * y - w * z);
  r[2][0] = 2 * (x * z + w * y);
  r[0][1] = 2 * (x * y + w * z);
  r[1][1] = 1 - 2 * (x * x + z * z);
  r[2][1] = 2 * (y * z - w * x);
  r[0][2] = 2 * (x * z - w * y);
  r[1][2] = 2 * (y * z - w * x);  // printed; should be 2(yz + wx)
  r[2][2] = 1 - 2 * (x * x + y * y);
  return r;
}

// The seed's GetRotationBetween as printed (eps as a parameter to show the acos trap).
glm::quat SeedRotationBetween(const glm::vec3& u, const glm::vec3& v, float eps = 1e-3f) {
  glm::vec3 axis = glm::cross(u, v);
  const float len_axis = glm::length(axis);
  if (len_axis < eps) return glm::quat(0.0f, 0.0f, 0.0f, 1.0f);  // meant as the identity
  axis /= len_axis;
  const float angle = std::acos(glm::dot(u, v));
  return glm::angleAxis(angle, axis);
}

// The seed's knee radius for the reachable case: r = ℓ_ab sqrt(1 - cos²θ), no clamp.
float SeedKneeRadius(float len_ab, float len_bc, float len_at) {
  const float cos_theta =
      (len_bc * len_bc - len_ab * len_ab - len_at * len_at) / (-2 * len_ab * len_at);
  const float sin_theta = std::sqrt(1.0f - cos_theta * cos_theta);
  return len_ab * sin_theta;
}

TEST(SeedErrors, ScaleMatrixLastColumnMustBeZeroNotOne) {
  const ik::Transform t{glm::vec3(1.0f, 2.0f, 3.0f), glm::angleAxis(0.5f, glm::vec3(0, 1, 0)),
                        glm::vec3(2.0f, 1.0f, 0.5f)};
  const glm::vec4 origin(0.0f, 0.0f, 0.0f, 1.0f);
  // The seed's T·R·S moves the joint's own origin away from its translation.
  const glm::mat4 seed = glm::translate(glm::mat4(1.0f), t.translation) *
                         glm::mat4_cast(t.rotation) * SeedScaleMatrix(t.scale);
  EXPECT_GT(glm::length(glm::vec3(seed * origin) - t.translation), 0.5f);
  // Ours keeps it there, and scales only the axes.
  const glm::mat4 ours = t.ToMatrix();
  EXPECT_LE(glm::length(glm::vec3(ours * origin) - t.translation), 1e-6f);
  EXPECT_EQ(ours[0][3], 0.0f);
  EXPECT_EQ(ours[1][3], 0.0f);
  EXPECT_EQ(ours[2][3], 0.0f);
  EXPECT_NEAR(glm::length(glm::vec3(ours[0])), 2.0f, 1e-6f);
}

TEST(SeedErrors, RotationEntry32IsPlusWxNotMinus) {
  std::mt19937 rng(1);
  for (int i = 0; i < 100; ++i) {
    const glm::quat q = RandomRotation(rng);
    const glm::mat3 seed = SeedRotationMatrix(q);
    const glm::mat3 ours = ik::RotationMatrix(q);
    // (3,2) in the seed's 1-based notation is row 2, column 1 here.
    EXPECT_NEAR(ours[1][2], 2 * (q.y * q.z + q.w * q.x), 1e-6f);
    EXPECT_NEAR(ours[2][1], 2 * (q.y * q.z - q.w * q.x), 1e-6f);  // (2,3) keeps the minus
    // The printed matrix is not a rotation; ours is, and agrees with glm.
    const glm::mat3 seed_rtr = glm::transpose(seed) * seed;
    const glm::mat3 ours_rtr = glm::transpose(ours) * ours;
    float seed_error = 0.0f, ours_error = 0.0f;
    for (int c = 0; c < 3; ++c) {
      for (int r = 0; r < 3; ++r) {
        const float id = c == r ? 1.0f : 0.0f;
        seed_error = std::max(seed_error, std::abs(seed_rtr[c][r] - id));
        ours_error = std::max(ours_error, std::abs(ours_rtr[c][r] - id));
        EXPECT_NEAR(ours[c][r], glm::mat3_cast(q)[c][r], 1e-6f);
      }
    }
    if (std::abs(q.w * q.x) > 0.05f) {
      EXPECT_GT(seed_error, 0.01f);
    }
    EXPECT_LT(ours_error, 1e-5f);
  }
}

TEST(SeedErrors, GlmQuat0001IsAHalfTurnNotTheIdentity) {
  // glm's constructor takes w first: quat(0, 0, 0, 1) is w = 0, z = 1, 180° about z.
  const glm::quat printed(0.0f, 0.0f, 0.0f, 1.0f);
  EXPECT_EQ(printed.w, 0.0f);
  EXPECT_LE(glm::length(printed * glm::vec3(1, 0, 0) - glm::vec3(-1, 0, 0)), 1e-6f);
  // So the seed's "no rotation needed" answer for parallel vectors flips the bone...
  const glm::vec3 u(1.0f, 0.0f, 0.0f);
  EXPECT_GT(glm::length(SeedRotationBetween(u, u) * u - u), 1.0f);
  // ...while ours returns the identity (w = 1).
  EXPECT_EQ(ik::RotationBetween(u, u), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  EXPECT_EQ(ik::Transform{}.rotation, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
}

TEST(SeedErrors, AcosOfAnUnclampedDotIsNaN) {
  // Normalized float vectors can have a dot product just above 1.
  std::mt19937 rng(2);
  int found = 0;
  for (int i = 0; i < 100000 && found < 20; ++i) {
    const glm::vec3 u = glm::normalize(RandomUnit(rng) * Uniform(rng, 0.1f, 10.0f));
    const glm::vec3 v =
        glm::normalize(u + 1e-7f * ik::AnyPerpendicular(u) * Uniform(rng, 1.0f, 5.0f));
    if (!(glm::dot(u, v) > 1.0f)) continue;
    ++found;
    EXPECT_TRUE(std::isnan(std::acos(glm::dot(u, v))));
    // With a tighter epsilon than the printed 1e-3 the seed's function takes the acos: NaN.
    if (glm::length(glm::cross(u, v)) >= 1e-9f) {
      EXPECT_TRUE(std::isnan(SeedRotationBetween(u, v, 1e-9f).w));
    }
    // Ours never calls acos.
    const glm::quat q = ik::RotationBetween(u, v);
    EXPECT_TRUE(ik::IsFinite(q));
    EXPECT_LE(glm::length(ik::Rotate(q, u) - v), 1e-6f);
  }
  EXPECT_GT(found, 0);
}

TEST(SeedErrors, AntiparallelVectorsNeedAHalfTurnNotTheIdentity) {
  const glm::vec3 u(0.0f, 0.0f, 1.0f), v = -u;
  // The printed function sees |u × v| = 0 < eps and returns its "identity": u is not turned onto v.
  EXPECT_GT(glm::length(SeedRotationBetween(u, v) * u - v), 1.0f);
  // Even the correct identity would leave u where it is.
  EXPECT_GT(glm::length(glm::quat(1, 0, 0, 0) * u - v), 1.0f);
  // Ours turns 180° about a perpendicular axis.
  const glm::quat q = ik::RotationBetween(u, v);
  EXPECT_NEAR(q.w, 0.0f, 1e-6f);
  EXPECT_LE(glm::length(ik::Rotate(q, u) - v), 1e-6f);
  EXPECT_NEAR(glm::dot(glm::vec3(q.x, q.y, q.z), u), 0.0f, 1e-6f);
}

TEST(SeedErrors, SqrtOfOneMinusCosSquaredNeedsAClamp) {
  // At the reach limit (target exactly at ℓ_ab + ℓ_bc) cos θ rounds past 1 for some lengths.
  std::mt19937 rng(3);
  int nan_count = 0;
  for (int i = 0; i < 10000; ++i) {
    const float l_ab = Uniform(rng, 0.1f, 1.0f), l_bc = Uniform(rng, 0.1f, 1.0f);
    const float d = l_ab + l_bc;
    if (std::isnan(SeedKneeRadius(l_ab, l_bc, d))) ++nan_count;
    // Ours at the same distance: a finite, zero-radius circle and a straight chain.
    glm::mat4 start(1.0f), mid(1.0f), end(1.0f);
    mid[3] = glm::vec4(0.0f, -l_ab, 0.0f, 1.0f);
    end[3] = glm::vec4(0.0f, -l_ab, l_bc, 1.0f);
    const ik::TwoBoneIkResult r = ik::SolveTwoBoneIk(start, mid, end, glm::vec3(d, 0, 0));
    ASSERT_TRUE(std::isfinite(r.circle.radius)) << i;
    ASSERT_LE(r.circle.radius, 1e-3f * d) << i;
    ASSERT_TRUE(ik::IsFinite(r.b_final)) << i;
    ASSERT_NEAR(glm::length(r.b_final), l_ab, 1e-5f) << i;
  }
  EXPECT_GT(nan_count, 0);
}

}  // namespace
