// Clip sampling tests: each interpolation mode, clamping, wrapping, and the rest pose kept for
// what a clip does not animate.
#include "assets/animation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <random>

namespace assets {
namespace {

constexpr float kPi = 3.14159265358979f;

glm::quat AxisAngle(float degrees, const glm::vec3& axis) {
  return glm::angleAxis(degrees * kPi / 180.0f, glm::normalize(axis));
}

// Angle in degrees between two rotations (sign of the quaternion ignored).
float AngleBetween(const glm::quat& a, const glm::quat& b) {
  const float d = std::min(1.0f, std::abs(glm::dot(a, b)));
  return 2.0f * std::acos(d) * 180.0f / kPi;
}

Track<glm::vec3> VectorTrack(Interpolation mode, std::vector<float> times,
                             std::vector<glm::vec3> values) {
  Track<glm::vec3> t;
  t.interpolation = mode;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

TEST(WrapTime, LoopingWrapsNegativeTimesFromTheEnd) {
  EXPECT_FLOAT_EQ(WrapTime(-0.25f, 1.0f, true), 0.75f);
  EXPECT_FLOAT_EQ(WrapTime(2.5f, 1.0f, true), 0.5f);
  EXPECT_FLOAT_EQ(WrapTime(-3.5f, 2.0f, true), 0.5f);
  EXPECT_FLOAT_EQ(WrapTime(1.0f, 1.0f, true), 0.0f);
}

TEST(WrapTime, NotLoopingClampsToTheClip) {
  EXPECT_FLOAT_EQ(WrapTime(-0.25f, 1.0f, false), 0.0f);
  EXPECT_FLOAT_EQ(WrapTime(7.0f, 1.5f, false), 1.5f);
  EXPECT_FLOAT_EQ(WrapTime(0.4f, 1.5f, false), 0.4f);
}

TEST(WrapTime, DegenerateInputGivesZero) {
  EXPECT_EQ(WrapTime(NAN, 1.0f, true), 0.0f);
  EXPECT_EQ(WrapTime(INFINITY, 1.0f, false), 0.0f);
  EXPECT_EQ(WrapTime(0.5f, 0.0f, true), 0.0f);
  EXPECT_EQ(WrapTime(0.5f, -1.0f, false), 0.0f);
  EXPECT_EQ(WrapTime(0.5f, NAN, true), 0.0f);
}

TEST(WrapTime, LoopedResultAlwaysInsideTheClip) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> time(-1000.0f, 1000.0f), length(0.01f, 10.0f);
  for (int i = 0; i < 10000; ++i) {
    const float d = length(random);
    const float t = WrapTime(time(random), d, true);
    ASSERT_GE(t, 0.0f);
    ASSERT_LT(t, d);
  }
}

TEST(SampleTrack, StepHoldsEachKeyUntilTheNext) {
  const auto track =
      VectorTrack(Interpolation::kStep, {0, 1, 2}, {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}});
  EXPECT_EQ(SampleTrack(track, 0.99f, {}), glm::vec3(0, 0, 0));
  EXPECT_EQ(SampleTrack(track, 1.0f, {}), glm::vec3(1, 0, 0));
  EXPECT_EQ(SampleTrack(track, 1.7f, {}), glm::vec3(1, 0, 0));
}

TEST(SampleTrack, LinearInterpolatesBetweenKeys) {
  const auto track = VectorTrack(Interpolation::kLinear, {0, 2}, {{0, 0, 0}, {4, -2, 8}});
  const glm::vec3 v = SampleTrack(track, 0.5f, {});
  EXPECT_NEAR(v.x, 1.0f, 1e-6f);
  EXPECT_NEAR(v.y, -0.5f, 1e-6f);
  EXPECT_NEAR(v.z, 2.0f, 1e-6f);
}

TEST(SampleTrack, TimesOutsideTheKeysClampToTheEnds) {
  const auto track = VectorTrack(Interpolation::kLinear, {1, 2}, {{1, 1, 1}, {2, 2, 2}});
  EXPECT_EQ(SampleTrack(track, -5.0f, {}), glm::vec3(1));
  EXPECT_EQ(SampleTrack(track, 0.5f, {}), glm::vec3(1));
  EXPECT_EQ(SampleTrack(track, 9.0f, {}), glm::vec3(2));
  EXPECT_EQ(SampleTrack(track, NAN, {}), glm::vec3(1));
}

TEST(SampleTrack, MalformedTracksGiveTheFallback) {
  const glm::vec3 fallback(7, 8, 9);
  EXPECT_EQ(SampleTrack(Track<glm::vec3>{}, 0.5f, fallback), fallback);
  EXPECT_EQ(SampleTrack(VectorTrack(Interpolation::kLinear, {0, 1}, {{1, 1, 1}}), 0.5f, fallback),
            fallback);
  EXPECT_EQ(SampleTrack(VectorTrack(Interpolation::kCubicSpline, {0, 1}, {{1, 1, 1}, {2, 2, 2}}),
                        0.5f, fallback),
            fallback);
}

TEST(SampleTrack, SlerpFollowsTheGreatArcAtConstantSpeed) {
  Track<glm::quat> track;
  track.times = {0, 1};
  track.values = {glm::quat(1, 0, 0, 0), AxisAngle(120, {0, 1, 0})};
  for (float t : {0.25f, 0.5f, 0.75f}) {
    const glm::quat q = SampleTrack(track, t, glm::quat(1, 0, 0, 0));
    EXPECT_NEAR(AngleBetween(q, AxisAngle(120 * t, {0, 1, 0})), 0.0f, 0.05f) << t;
    EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
  }
}

TEST(SampleTrack, SlerpTakesTheShortestPath) {
  // The second key is stored in the opposite hemisphere (-q is the same rotation as q).
  Track<glm::quat> track;
  track.times = {0, 1};
  track.values = {glm::quat(1, 0, 0, 0), -AxisAngle(90, {1, 0, 0})};
  const glm::quat q = SampleTrack(track, 0.5f, glm::quat(1, 0, 0, 0));
  EXPECT_NEAR(AngleBetween(q, AxisAngle(45, {1, 0, 0})), 0.0f, 0.05f);
}

TEST(SampleTrack, InterpolatedRotationsAreUnitLength) {
  std::mt19937 random(11);
  std::normal_distribution<float> n(0.0f, 1.0f);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int i = 0; i < 1000; ++i) {
    Track<glm::quat> track;
    track.interpolation = i % 2 ? Interpolation::kLinear : Interpolation::kCubicSpline;
    track.times = {0, 1};
    const int count = track.interpolation == Interpolation::kLinear ? 2 : 6;
    for (int k = 0; k < count; ++k) {
      track.values.push_back(glm::quat(n(random), n(random), n(random), n(random)));
      if (track.interpolation == Interpolation::kLinear)
        track.values.back() = glm::normalize(track.values.back());
    }
    const glm::quat q = SampleTrack(track, u(random), glm::quat(1, 0, 0, 0));
    ASSERT_NEAR(glm::length(q), 1.0f, 1e-5f);
  }
}

TEST(SampleTrack, CubicSplineScalesTangentsByTheKeyInterval) {
  // One interval of 2 s: p0 = 0 with out-tangent 1, p1 = 0 with in-tangent 0.
  const auto track = VectorTrack(Interpolation::kCubicSpline, {1, 3},
                                 {{9, 9, 9},
                                  {0, 0, 0},
                                  {1, 0, 0},  // key 0: in, value, out
                                  {0, 0, 0},
                                  {0, 0, 0},
                                  {9, 9, 9}});  // key 1: in, value, out
  // Hermite at u = 0.5: (u^3 - 2u^2 + u) * dt * m0 = 0.125 * 2 * 1.
  EXPECT_NEAR(SampleTrack(track, 2.0f, {}).x, 0.25f, 1e-6f);
  // The ends hit the values, not the tangents.
  EXPECT_EQ(SampleTrack(track, 1.0f, {}), glm::vec3(0));
  EXPECT_EQ(SampleTrack(track, 3.0f, {}), glm::vec3(0));
  EXPECT_EQ(SampleTrack(track, 0.0f, {}), glm::vec3(0));
}

TEST(SampleTrack, CubicSplineWithZeroTangentsIsSmoothstep) {
  const auto track =
      VectorTrack(Interpolation::kCubicSpline, {0, 1},
                  {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 2, 3}, {0, 0, 0}});
  const float u = 0.3f;
  const float s = 3 * u * u - 2 * u * u * u;
  const glm::vec3 v = SampleTrack(track, u, {});
  EXPECT_NEAR(v.x, s, 1e-6f);
  EXPECT_NEAR(v.z, 3 * s, 1e-6f);
}

ik::Skeleton ThreeJoints() {
  std::vector<ik::JointDesc> joints(3);
  joints[0].name = "root";
  joints[1].name = "a";
  joints[1].parent = 0;
  joints[1].rest.translation = {0, 1, 0};
  joints[1].rest.rotation = AxisAngle(30, {0, 0, 1});
  joints[2].name = "b";
  joints[2].parent = 1;
  joints[2].rest.translation = {0, 2, 0};
  joints[2].rest.scale = {2, 2, 2};
  std::string error;
  return *ik::Skeleton::Build(joints, &error);
}

TEST(SampleClip, UnanimatedJointsAndPropertiesKeepTheirRestValues) {
  const ik::Skeleton skeleton = ThreeJoints();
  Clip clip;
  clip.duration = 1.0f;
  JointAnimation a;
  a.joint = 1;
  a.rotation.times = {0, 1};
  a.rotation.values = {glm::quat(1, 0, 0, 0), AxisAngle(90, {1, 0, 0})};
  clip.channels.push_back(a);
  ik::Pose pose;
  pose.locals.assign(7, ik::Transform());  // wrong size and content: SampleClip resets it
  SampleClip(skeleton, clip, 0.5f, &pose);
  ASSERT_EQ(pose.locals.size(), 3u);
  EXPECT_EQ(pose.locals[0].rotation, skeleton.rest_locals()[0].rotation);
  EXPECT_EQ(pose.locals[2].scale, glm::vec3(2));
  EXPECT_EQ(pose.locals[1].translation, glm::vec3(0, 1, 0));  // only rotation is animated
  EXPECT_NEAR(AngleBetween(pose.locals[1].rotation, AxisAngle(45, {1, 0, 0})), 0.0f, 0.05f);
}

TEST(SampleClip, TimeIsClampedToTheClipAndBadChannelsIgnored) {
  const ik::Skeleton skeleton = ThreeJoints();
  Clip clip;
  clip.duration = 1.0f;
  JointAnimation a;
  a.joint = 2;
  a.translation = VectorTrack(Interpolation::kLinear, {0, 2}, {{0, 0, 0}, {2, 0, 0}});
  clip.channels.push_back(a);
  JointAnimation stray;
  stray.joint = 99;  // not in the skeleton
  stray.translation = a.translation;
  clip.channels.push_back(stray);
  ik::Pose pose;
  SampleClip(skeleton, clip, 5.0f, &pose);  // clamped to the clip's duration, 1 s
  EXPECT_NEAR(pose.locals[2].translation.x, 1.0f, 1e-6f);
  SampleClip(skeleton, clip, -3.0f, &pose);
  EXPECT_NEAR(pose.locals[2].translation.x, 0.0f, 1e-6f);
}

}  // namespace
}  // namespace assets
