// Transform: T·R·S matrices against glm's own construction, decomposition round trips, the affine
// inverse, and finiteness checks.
#include "ik/core/transform.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>
#include <random>

#include "tests/ik/ik_test_util.h"

namespace {

using iktest::RandomRotation;
using iktest::RandomUnit;
using iktest::Uniform;

float MaxDifference(const glm::mat4& a, const glm::mat4& b) {
  float worst = 0.0f;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(a[c][r] - b[c][r]));
  return worst;
}

ik::Transform RandomTransform(std::mt19937& rng, bool mirror) {
  ik::Transform t;
  t.translation = RandomUnit(rng) * Uniform(rng, 0.0f, 5.0f);
  t.rotation = RandomRotation(rng);
  t.scale = glm::vec3(Uniform(rng, 0.2f, 3.0f), Uniform(rng, 0.2f, 3.0f), Uniform(rng, 0.2f, 3.0f));
  if (mirror) t.scale.x = -t.scale.x;
  return t;
}

TEST(Transform, DefaultIsTheIdentity) {
  const ik::Transform t;
  EXPECT_EQ(t.ToMatrix(), glm::mat4(1.0f));
  EXPECT_EQ(t.rotation, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
}

TEST(Transform, ToMatrixIsTranslateRotateScaleAsGlmBuildsIt) {
  std::mt19937 rng(1);
  for (int i = 0; i < 10000; ++i) {
    const ik::Transform t = RandomTransform(rng, i % 2 == 1);
    const glm::mat4 expected = glm::translate(glm::mat4(1.0f), t.translation) *
                               glm::mat4_cast(t.rotation) * glm::scale(glm::mat4(1.0f), t.scale);
    ASSERT_LE(MaxDifference(t.ToMatrix(), expected), 1e-5f) << i;
  }
}

TEST(Transform, RotationMatrixMatchesGlmAndIsOrthonormal) {
  std::mt19937 rng(2);
  for (int i = 0; i < 10000; ++i) {
    const glm::quat q = RandomRotation(rng);
    const glm::mat3 r = ik::RotationMatrix(q);
    const glm::mat3 g = glm::mat3_cast(q);
    const glm::mat3 rtr = glm::transpose(r) * r;
    for (int c = 0; c < 3; ++c) {
      for (int row = 0; row < 3; ++row) {
        ASSERT_NEAR(r[c][row], g[c][row], 1e-6f);
        ASSERT_NEAR(rtr[c][row], c == row ? 1.0f : 0.0f, 1e-5f);
      }
    }
    ASSERT_NEAR(glm::determinant(r), 1.0f, 1e-5f);
  }
}

TEST(Transform, FromMatrixRoundTripsIncludingMirrors) {
  std::mt19937 rng(3);
  for (int i = 0; i < 10000; ++i) {
    const ik::Transform t = RandomTransform(rng, i % 3 == 0);
    ik::Transform back;
    ASSERT_TRUE(ik::Transform::FromMatrix(t.ToMatrix(), &back));
    // The decomposition may differ (a mirror can sit on any axis) but must rebuild the matrix.
    ASSERT_LE(MaxDifference(back.ToMatrix(), t.ToMatrix()), 1e-4f) << i;
    ASSERT_NEAR(glm::length(back.rotation), 1.0f, 1e-5f);
    ASSERT_LE(glm::length(back.translation - t.translation), 1e-5f);
    if (i % 3 != 0) {  // no mirror: the same scale and rotation (up to sign)
      ASSERT_LE(glm::length(back.scale - t.scale), 1e-4f) << i;
      ASSERT_GE(std::abs(glm::dot(back.rotation, t.rotation)), 1.0f - 1e-5f) << i;
    }
  }
}

TEST(Transform, FromMatrixRejectsSingularAndNonFiniteAndLeavesTheOutputAlone) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ik::Transform out;
  out.translation = glm::vec3(7.0f);
  glm::mat4 singular(1.0f);
  singular[1] = glm::vec4(0.0f);
  EXPECT_FALSE(ik::Transform::FromMatrix(singular, &out));
  glm::mat4 bad(1.0f);
  bad[2][1] = nan;
  EXPECT_FALSE(ik::Transform::FromMatrix(bad, &out));
  EXPECT_EQ(out.translation, glm::vec3(7.0f));
}

TEST(Transform, IsFiniteCatchesNaNAndInfinityAnywhere) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  ik::Transform t;
  EXPECT_TRUE(t.IsFinite());
  t.scale.z = inf;
  EXPECT_FALSE(t.IsFinite());
  t = {};
  t.rotation.w = nan;
  EXPECT_FALSE(t.IsFinite());
  EXPECT_FALSE(ik::IsFinite(glm::vec3(0, -inf, 0)));
  glm::mat4 m(1.0f);
  m[3][3] = nan;
  EXPECT_FALSE(ik::IsFinite(m));
  EXPECT_TRUE(ik::IsFinite(glm::mat4(2.0f)));
}

}  // namespace
