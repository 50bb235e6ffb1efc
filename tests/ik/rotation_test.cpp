// Trig-free rotations: RotationBetween maps `from` onto `to` minimally at every angle (including
// next to and at 180°), RotationAbout keeps its axis fixed, and the small helpers.
#include "ik/core/rotation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "tests/ik/ik_test_util.h"

namespace {

using iktest::RandomUnit;
using iktest::Uniform;

float AngleBetween(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

TEST(RotationBetween, MapsFromOntoToMinimallyForRandomPairs) {
  std::mt19937 rng(1);
  for (int i = 0; i < 100000; ++i) {
    const glm::vec3 f = RandomUnit(rng) * Uniform(rng, 0.01f, 100.0f);
    const glm::vec3 t = RandomUnit(rng) * Uniform(rng, 0.01f, 100.0f);
    const glm::quat q = ik::RotationBetween(f, t);
    ASSERT_NEAR(glm::length(q), 1.0f, 1e-6f);
    ASSERT_GE(q.w, 0.0f);
    const glm::vec3 mapped = ik::Rotate(q, glm::normalize(f));
    ASSERT_LE(glm::length(mapped - glm::normalize(t)), 1e-6f) << i;
    // Minimal: the angle turned equals the angle between them, about an axis perpendicular to
    // both.
    const float angle = 2.0f * std::atan2(glm::length(glm::vec3(q.x, q.y, q.z)), q.w);
    ASSERT_NEAR(angle, AngleBetween(f, t), 1e-5f) << i;
    const glm::vec3 axis(q.x, q.y, q.z);
    if (glm::length(axis) > 1e-3f) {
      ASSERT_LE(std::abs(glm::dot(glm::normalize(axis), glm::normalize(f))), 1e-4f);
      ASSERT_LE(std::abs(glm::dot(glm::normalize(axis), glm::normalize(t))), 1e-4f);
    }
  }
}

TEST(RotationBetween, StaysExactNextTo180Degrees) {
  // The direct formula (|f||t| + f·t, f × t) loses the angle here: r + d cancels.
  std::mt19937 rng(2);
  for (int i = 0; i < 20000; ++i) {
    const glm::vec3 f = RandomUnit(rng);
    const float off = std::pow(10.0f, Uniform(rng, -4.5f, -1.0f));
    const glm::vec3 t = glm::normalize(-f + off * ik::AnyPerpendicular(f));
    const glm::quat q = ik::RotationBetween(f * 0.7f, t * 3.0f);
    ASSERT_LE(glm::length(ik::Rotate(q, f) - t), 1e-6f) << "offset " << off;
    // The naive formula for comparison: clearly worse somewhere in this range.
  }
  const glm::vec3 f(0.6f, 0.8f, 0.0f);
  const glm::vec3 t = glm::normalize(-f + 1e-4f * glm::vec3(0.0f, 0.0f, 1.0f));
  const glm::vec3 c = glm::cross(f, t);
  const glm::quat naive = glm::normalize(glm::quat(1.0f + glm::dot(f, t), c.x, c.y, c.z));
  const glm::quat ours = ik::RotationBetween(f, t);
  EXPECT_GT(glm::length(ik::Rotate(naive, f) - t), 10.0f * glm::length(ik::Rotate(ours, f) - t));
}

TEST(RotationBetween, ExactlyOppositeTurnsHalfWayAroundTheHint) {
  const glm::vec3 f(0.0f, -1.0f, 0.0f);
  ik::RotationFallback fallback;
  const glm::quat q = ik::RotationBetween(f, -f, glm::vec3(1.0f, 0.3f, 0.0f), &fallback);
  EXPECT_EQ(fallback, ik::RotationFallback::kAntiparallel);
  EXPECT_NEAR(q.w, 0.0f, 1e-6f);
  // The hint made perpendicular to f: the x axis.
  EXPECT_NEAR(std::abs(q.x), 1.0f, 1e-6f);
  EXPECT_LE(glm::length(ik::Rotate(q, f) + f), 1e-6f);
}

TEST(RotationBetween, OppositeWithoutAUsableHintTurnsAboutSomePerpendicular) {
  std::mt19937 rng(3);
  for (int i = 0; i < 1000; ++i) {
    const glm::vec3 f = RandomUnit(rng);
    for (const glm::vec3& hint : {glm::vec3(0.0f), f, -2.0f * f}) {
      ik::RotationFallback fallback;
      const glm::quat q = ik::RotationBetween(f, -f, hint, &fallback);
      ASSERT_EQ(fallback, ik::RotationFallback::kAntiparallel);
      ASSERT_TRUE(ik::IsFinite(q));
      ASSERT_LE(glm::length(ik::Rotate(q, f) + f), 1e-6f);
      ASSERT_NEAR(q.w, 0.0f, 1e-6f);
    }
  }
}

TEST(RotationBetween, ZeroOrNonFiniteVectorsGiveTheIdentity) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const auto& pair :
       std::vector<std::pair<glm::vec3, glm::vec3>>{{glm::vec3(0.0f), glm::vec3(1, 0, 0)},
                                                    {glm::vec3(1, 0, 0), glm::vec3(0.0f)},
                                                    {glm::vec3(nan, 0, 0), glm::vec3(1, 0, 0)},
                                                    {glm::vec3(1, 0, 0), glm::vec3(0, inf, 0)}}) {
    ik::RotationFallback fallback;
    const glm::quat q = ik::RotationBetween(pair.first, pair.second, glm::vec3(0.0f), &fallback);
    EXPECT_EQ(fallback, ik::RotationFallback::kZeroVector);
    EXPECT_EQ(q, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  }
}

TEST(RotationBetween, HandlesTinyAndHugeMagnitudes) {
  const glm::vec3 f(1e-12f, 2e-12f, 0.0f), t(0.0f, 3e12f, 1e12f);
  const glm::quat q = ik::RotationBetween(f, t);
  EXPECT_LE(glm::length(ik::Rotate(q, glm::normalize(f)) - glm::normalize(t)), 1e-6f);
}

// Only directions matter, whatever the magnitudes: denormals, the largest floats, and mixes of
// both, at ordinary angles and next to 180°.
TEST(RotationBetween, EveryFiniteMagnitudeHasADirection) {
  const float denormal = 1e-40f, tiny = 1e-30f, huge = 3e38f;
  std::mt19937 rng(7);
  for (float from_scale : {denormal, tiny, 1.0f, 1e20f, huge}) {
    for (float to_scale : {denormal, tiny, 1.0f, 1e20f, huge}) {
      for (int i = 0; i < 50; ++i) {
        const glm::vec3 f_dir = RandomUnit(rng);
        const glm::vec3 t_dir = i % 5 == 0
                                    ? glm::normalize(-f_dir + 1e-6f * ik::AnyPerpendicular(f_dir))
                                    : RandomUnit(rng);
        ik::RotationFallback fallback;
        const glm::quat q =
            ik::RotationBetween(f_dir * from_scale, t_dir * to_scale, glm::vec3(0.0f), &fallback);
        ASSERT_NE(fallback, ik::RotationFallback::kZeroVector) << from_scale << " " << to_scale;
        ASSERT_NEAR(glm::length(q), 1.0f, 1e-6f);
        // Denormals carry fewer bits: their direction is only that precise.
        const float tol = from_scale == denormal || to_scale == denormal ? 1e-4f : 2e-6f;
        ASSERT_LE(glm::length(ik::Rotate(q, f_dir) - t_dir), tol)
            << from_scale << " " << to_scale << " " << i;
      }
    }
  }
}

TEST(RotationAbout, EveryFiniteMagnitudeHasADirection) {
  const glm::vec3 axis(0.0f, 0.0f, 1.0f);
  for (float scale : {1e-40f, 1e-30f, 1.0f, 1e20f, 3e38f}) {
    const glm::quat q = ik::RotationAbout(axis, glm::vec3(1, 0, 0) * scale, glm::vec3(0, 1, 0));
    EXPECT_LE(glm::length(ik::Rotate(q, glm::vec3(1, 0, 0)) - glm::vec3(0, 1, 0)), 1e-6f) << scale;
  }
}

TEST(RotationHelpers, AnglesAndNormalizationWorkAtEveryMagnitude) {
  for (float scale : {1e-40f, 1e-30f, 1.0f, 1e20f, 3e38f}) {
    EXPECT_NEAR(ik::AngleBetweenDirections(glm::vec3(scale, 0, 0), glm::vec3(0, scale, scale)),
                0.5f * ik::kPi, 1e-6f)
        << scale;
    const glm::quat q = ik::NormalizeOrIdentity(glm::quat(scale, scale, 0.0f, 0.0f));
    EXPECT_NEAR(q.w, std::sqrt(0.5f), 1e-6f) << scale;
    EXPECT_NEAR(q.x, std::sqrt(0.5f), 1e-6f) << scale;
    const glm::vec3 p = ik::AnyPerpendicular(glm::vec3(scale, 0.5f * scale, 0.0f));
    EXPECT_NEAR(glm::length(p), 1.0f, 1e-6f) << scale;
    EXPECT_NEAR(glm::dot(p, glm::normalize(glm::vec3(1, 0.5f, 0))), 0.0f, 1e-6f) << scale;
  }
  EXPECT_EQ(ik::AngleBetweenDirections(glm::vec3(0.0f), glm::vec3(1, 0, 0)), 0.0f);
}

TEST(RotationBetween, EqualVectorsGiveTheExactIdentity) {
  const glm::vec3 f(0.3f, -0.2f, 0.9f);
  EXPECT_EQ(ik::RotationBetween(f, 2.0f * f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
}

TEST(RotationAbout, TurnsOnlyAboutTheAxisOntoTheProjection) {
  std::mt19937 rng(4);
  for (int i = 0; i < 20000; ++i) {
    const glm::vec3 axis = RandomUnit(rng);
    const glm::vec3 f = RandomUnit(rng), t = RandomUnit(rng) * 2.0f;
    const glm::quat q = ik::RotationAbout(axis, f, t);
    ASSERT_NEAR(glm::length(q), 1.0f, 1e-6f);
    ASSERT_LE(glm::length(ik::Rotate(q, axis) - axis), 1e-6f);  // the axis stays put
    const glm::vec3 f_perp = f - glm::dot(f, axis) * axis;
    const glm::vec3 t_perp = t - glm::dot(t, axis) * axis;
    if (glm::length(f_perp) < 0.05f || glm::length(t_perp) < 0.05f) continue;
    ASSERT_LE(glm::length(glm::normalize(ik::Rotate(q, f_perp)) - glm::normalize(t_perp)), 1e-5f)
        << i;
  }
  // Opposite projections: exactly half a turn about the axis.
  const glm::quat half =
      ik::RotationAbout(glm::vec3(0, 0, 1), glm::vec3(1, 0, 5), glm::vec3(-2, 0, -1));
  EXPECT_NEAR(half.w, 0.0f, 1e-6f);
  EXPECT_NEAR(std::abs(half.z), 1.0f, 1e-6f);
  // A vector along the axis has no projection: identity.
  EXPECT_EQ(ik::RotationAbout(glm::vec3(0, 0, 1), glm::vec3(0, 0, 2), glm::vec3(1, 0, 0)),
            glm::quat(1, 0, 0, 0));
}

TEST(RotationHelpers, RotateMatchesGlm) {
  std::mt19937 rng(5);
  for (int i = 0; i < 1000; ++i) {
    const glm::quat q = iktest::RandomRotation(rng);
    const glm::vec3 v = RandomUnit(rng) * 3.0f;
    EXPECT_LE(glm::length(ik::Rotate(q, v) - q * v), 1e-5f);
  }
}

TEST(RotationHelpers, AnyPerpendicularIsUnitAndPerpendicular) {
  std::mt19937 rng(6);
  for (int i = 0; i < 1000; ++i) {
    const glm::vec3 v = RandomUnit(rng) * Uniform(rng, 1e-6f, 1e6f);
    const glm::vec3 p = ik::AnyPerpendicular(v);
    EXPECT_NEAR(glm::length(p), 1.0f, 1e-6f);
    EXPECT_LE(std::abs(glm::dot(p, glm::normalize(v))), 1e-6f);
  }
  EXPECT_EQ(ik::AnyPerpendicular(glm::vec3(0.0f)), glm::vec3(1, 0, 0));
}

TEST(RotationHelpers, NlerpTakesTheShortArcAndNormalizes) {
  const glm::quat a(1, 0, 0, 0);
  const glm::quat b = glm::angleAxis(1.0f, glm::vec3(0, 1, 0));
  EXPECT_LE(glm::length(glm::vec4(ik::Nlerp(a, -b, 1.0f).x, 0, 0, 0) - glm::vec4(b.x, 0, 0, 0)),
            1e-6f);
  const glm::quat mid = ik::Nlerp(a, -b, 0.5f);
  EXPECT_NEAR(glm::length(mid), 1.0f, 1e-6f);
  EXPECT_NEAR(2.0f * std::acos(std::abs(mid.w)), 0.5f, 1e-5f);
  EXPECT_EQ(ik::NormalizeOrIdentity(glm::quat(0, 0, 0, 0)), glm::quat(1, 0, 0, 0));
}

}  // namespace
