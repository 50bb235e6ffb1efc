// Clip sampling tests: each interpolation mode, clamping, wrapping, and the rest pose kept for
// what a clip does not animate.
#include "assets/model/animation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <random>

namespace assets {
namespace {

constexpr float kPi = 3.14159265358979f;

glm::quat AxisAngle(float degrees, const glm::vec3& axis) {
  return glm::angleAxis(degrees * kPi / 180.0f, glm::normalize(axis));
}

// Angle in degrees between two rotations (sign of the quaternion ignored). From the relative
// rotation's vector part and w with atan2, which stays precise for tiny angles (acos of a dot
// product near 1 loses half the digits).
float AngleBetween(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = glm::inverse(a) * b;
  const float s = glm::length(glm::vec3(d.x, d.y, d.z));
  return 2.0f * std::atan2(s, std::abs(d.w)) * 180.0f / kPi;
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

TEST(CombineClips, LaterClipsWinPerJointPropertyAndShorterOnesHoldTheirLastKey) {
  Model model;
  model.skeleton = ThreeJoints();
  Clip walk;
  walk.name = "Walk";
  walk.duration = 1.0f;
  JointAnimation a;
  a.joint = 1;
  a.rotation.times = {0, 1};
  a.rotation.values = {glm::quat(1, 0, 0, 0), AxisAngle(90, {1, 0, 0})};
  a.translation = VectorTrack(Interpolation::kLinear, {0, 1}, {{0, 1, 0}, {0, 3, 0}});
  walk.channels.push_back(a);
  Clip wave;
  wave.name = "Wave";
  wave.duration = 2.0f;
  JointAnimation b;
  b.joint = 1;  // the same joint: its translation replaces Walk's, Walk's rotation stays
  b.translation = VectorTrack(Interpolation::kLinear, {0, 2}, {{5, 0, 0}, {7, 0, 0}});
  wave.channels.push_back(b);
  JointAnimation c;
  c.joint = 2;
  c.scale = VectorTrack(Interpolation::kLinear, {0, 2}, {{1, 1, 1}, {3, 3, 3}});
  wave.channels.push_back(c);
  model.clips = {walk, wave};

  const Clip both = CombineClips(model, {0, 1, 7});  // 7 is not a clip: ignored
  EXPECT_EQ(both.name, "Walk+Wave");
  EXPECT_FLOAT_EQ(both.duration, 2.0f);
  ik::Pose pose;
  SampleClip(model, both, 1.5f, &pose);
  // Walk ended at 1 s: its rotation holds its last key; Wave's tracks run on.
  EXPECT_NEAR(AngleBetween(pose.locals[1].rotation, AxisAngle(90, {1, 0, 0})), 0.0f, 0.05f);
  EXPECT_NEAR(pose.locals[1].translation.x, 6.5f, 1e-5f);
  EXPECT_NEAR(pose.locals[1].translation.y, 0.0f, 1e-5f);
  EXPECT_NEAR(pose.locals[2].scale.x, 2.5f, 1e-5f);
  EXPECT_EQ(pose.locals[0].rotation, model.skeleton.rest_locals()[0].rotation);

  // The other order: Walk's translation wins.
  SampleClip(model, CombineClips(model, {1, 0}), 0.5f, &pose);
  EXPECT_NEAR(pose.locals[1].translation.y, 2.0f, 1e-5f);
  EXPECT_NEAR(pose.locals[1].translation.x, 0.0f, 1e-5f);
  EXPECT_TRUE(CombineClips(model, {}).channels.empty());
}

TEST(CombineClips, TheNameOfThousandsOfClipsStaysShort) {
  Model model;
  model.skeleton = ThreeJoints();
  Clip walk;
  walk.name = "Walk";
  walk.duration = 1.0f;
  model.clips = {walk};
  const Clip all = CombineClips(model, std::vector<int>(4001, 0));
  EXPECT_LE(all.name.size(), 150u);
  EXPECT_EQ(all.name.rfind("Walk+Walk+", 0), 0u) << all.name;
  EXPECT_NE(all.name.find("+... (4001 clips)"), std::string::npos) << all.name;
  EXPECT_EQ(CombineClips(model, {0, 0}).name, "Walk+Walk");
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

// --- the fast sampler against a straightforward reference --------------------------------

// Textbook sampling in double precision: every track searched on its own, slerp from acos and
// sin, Hermite as glTF writes it, rest values copied first.
struct ReferenceSampler {
  static size_t Span(const std::vector<float>& times, double t, double* u, bool* single) {
    *single = true;
    *u = 0.0;
    if (times.size() <= 1 || !(t > static_cast<double>(times.front()))) return 0;
    if (t >= static_cast<double>(times.back())) return times.size() - 1;
    size_t k = 0;
    while (k + 1 < times.size() && static_cast<double>(times[k + 1]) <= t) ++k;
    const double dt = static_cast<double>(times[k + 1]) - static_cast<double>(times[k]);
    *u = (t - static_cast<double>(times[k])) / dt;
    *single = false;
    return k;
  }
  static glm::dvec3 D(const glm::vec3& v) { return glm::dvec3(v); }
  static glm::dquat D(const glm::quat& q) { return glm::dquat(q); }

  template <typename T, typename D>
  static D Hermite(const D& p0, const D& m0, const D& p1, const D& m1, double u, double dt) {
    const double u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * p0 + ((u3 - 2 * u2 + u) * dt) * m0 + (-2 * u3 + 3 * u2) * p1 +
           ((u3 - u2) * dt) * m1;
  }

  static glm::dvec3 Vector(const Track<glm::vec3>& track, double t, const glm::dvec3& rest) {
    const size_t per_key = track.interpolation == Interpolation::kCubicSpline ? 3 : 1;
    if (track.times.empty() || track.values.size() != track.times.size() * per_key) return rest;
    double u;
    bool single;
    const size_t k = Span(track.times, t, &u, &single);
    const auto& v = track.values;
    if (track.interpolation == Interpolation::kStep) return D(v[k]);
    if (track.interpolation == Interpolation::kLinear) {
      return single ? D(v[k]) : D(v[k]) * (1 - u) + D(v[k + 1]) * u;
    }
    if (single) return D(v[k * 3 + 1]);
    const double dt = static_cast<double>(track.times[k + 1]) - static_cast<double>(track.times[k]);
    return Hermite<glm::vec3>(D(v[k * 3 + 1]), D(v[k * 3 + 2]), D(v[k * 3 + 4]), D(v[k * 3 + 3]), u,
                              dt);
  }

  static glm::dquat Rotation(const Track<glm::quat>& track, double t, const glm::dquat& rest) {
    const size_t per_key = track.interpolation == Interpolation::kCubicSpline ? 3 : 1;
    if (track.times.empty() || track.values.size() != track.times.size() * per_key) return rest;
    double u;
    bool single;
    const size_t k = Span(track.times, t, &u, &single);
    const auto& v = track.values;
    if (track.interpolation == Interpolation::kCubicSpline) {
      if (single) return glm::normalize(D(v[k * 3 + 1]));
      const double dt =
          static_cast<double>(track.times[k + 1]) - static_cast<double>(track.times[k]);
      return glm::normalize(Hermite<glm::quat>(D(v[k * 3 + 1]), D(v[k * 3 + 2]), D(v[k * 3 + 4]),
                                               D(v[k * 3 + 3]), u, dt));
    }
    const glm::dquat a = glm::normalize(D(v[k]));
    if (track.interpolation == Interpolation::kStep || single) return a;
    glm::dquat b = glm::normalize(D(v[k + 1]));
    double c = glm::dot(a, b);
    if (c < 0) {
      b = -b;
      c = -c;
    }
    if (c > 1.0 - 1e-15) return a;
    const double theta = std::acos(std::min(c, 1.0));
    return glm::normalize(a * (std::sin((1 - u) * theta) / std::sin(theta)) +
                          b * (std::sin(u * theta) / std::sin(theta)));
  }
};

glm::quat RandomUnit(std::mt19937& random) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  return glm::normalize(glm::quat(n(random), n(random), n(random), n(random)));
}

// A random clip over `joints` joints: shared and private key times, every interpolation, keys
// close together and far apart, partial and full channels, a stray joint and a malformed track.
Clip RandomClip(std::mt19937& random, int joints) {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::normal_distribution<float> n(0.0f, 1.0f);
  Clip clip;
  clip.duration = 2.0f;
  std::vector<std::vector<float>> shared(3);
  for (auto& times : shared) {
    float t = 0.0f;
    const int keys = 2 + static_cast<int>(random() % 40);
    for (int k = 0; k < keys; ++k) {
      times.push_back(t);
      t += 0.01f + 0.1f * unit(random);
    }
  }
  auto times_for = [&]() {
    if (random() % 4 != 0) return shared[random() % 3];
    std::vector<float> own;
    float t = 0.3f * unit(random);
    for (int k = 0, n_keys = 1 + static_cast<int>(random() % 20); k < n_keys; ++k) {
      own.push_back(t);
      t += 0.2f * unit(random) + 1e-3f;
    }
    return own;
  };
  auto mode = [&]() { return static_cast<Interpolation>(random() % 3); };
  for (int j = 0; j <= joints; ++j) {  // j == joints: a channel outside the skeleton
    if (random() % 5 == 0) continue;
    JointAnimation a;
    a.joint = j;
    for (Track<glm::vec3>* track : {&a.translation, &a.scale}) {
      if (random() % 3 == 0) continue;
      track->interpolation = mode();
      track->times = times_for();
      const size_t per_key = track->interpolation == Interpolation::kCubicSpline ? 3 : 1;
      for (size_t i = 0; i < track->times.size() * per_key; ++i)
        track->values.emplace_back(n(random), n(random), n(random));
    }
    if (random() % 4 != 0) {
      Track<glm::quat>& r = a.rotation;
      r.interpolation = mode();
      r.times = times_for();
      const size_t per_key = r.interpolation == Interpolation::kCubicSpline ? 3 : 1;
      // Keys a small step apart (the series slerp) or anywhere (the trigonometric one).
      const bool close = random() % 2 == 0;
      glm::quat q = RandomUnit(random);
      for (size_t i = 0; i < r.times.size() * per_key; ++i) {
        if (close) {
          q = glm::normalize(q * glm::angleAxis(0.6f * unit(random),
                                                glm::normalize(glm::vec3(n(random), n(random),
                                                                         n(random) + 0.01f))));
        } else {
          q = RandomUnit(random);
        }
        r.values.push_back(per_key == 3 && i % 3 != 1 ? q * (2.0f * unit(random)) : q);
      }
    }
    if (random() % 25 == 0 && !a.translation.values.empty()) a.translation.values.pop_back();
    clip.channels.push_back(a);
  }
  return clip;
}

float QuatDistance(const glm::quat& a, const glm::dquat& b) {
  // |a - b| for the nearer sign, from the components (a dot product near 1 would lose digits).
  const glm::dquat ad = ReferenceSampler::D(a);
  const glm::dquat near = glm::dot(ad, b) < 0.0 ? -b : b;
  const glm::dquat d = ad - near;
  return static_cast<float>(std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w));
}

TEST(SampleClip, MatchesAStraightforwardReferenceToOneMillionth) {
  std::mt19937 random(99);
  std::uniform_real_distribution<float> time(-0.5f, 2.5f);
  const int joints = 12;
  std::vector<ik::JointDesc> descs(joints);
  for (int j = 0; j < joints; ++j) {
    descs[j].name = "j" + std::to_string(j);
    descs[j].parent = j - 1;
    descs[j].rest.translation = glm::vec3(0.1f * j, 1.0f, 0.0f);
    descs[j].rest.rotation = RandomUnit(random);
    descs[j].rest.scale = glm::vec3(1.0f + 0.1f * j);
  }
  std::string error;
  const ik::Skeleton skeleton = *ik::Skeleton::Build(descs, &error);
  float worst_vector = 0.0f, worst_rotation = 0.0f;
  for (int trial = 0; trial < 300; ++trial) {
    Clip clip = RandomClip(random, joints);
    Clip prepared = clip;
    PrepareClip(&prepared);
    ASSERT_FALSE(prepared.sampling.empty());
    ik::Pose fast, plain;
    for (int s = 0; s < 20; ++s) {
      const float t = time(random);
      SampleClip(skeleton, prepared, t, &fast);
      SampleClip(skeleton, clip, t, &plain);
      ASSERT_EQ(fast.locals.size(), static_cast<size_t>(joints));
      const double clamped = std::clamp(static_cast<double>(t), 0.0, 2.0);
      for (int j = 0; j < joints; ++j) {
        // Reference: rest, then every channel of the joint in order.
        glm::dvec3 tr = glm::dvec3(skeleton.rest_locals()[j].translation);
        glm::dvec3 sc = glm::dvec3(skeleton.rest_locals()[j].scale);
        glm::dquat ro = ReferenceSampler::D(skeleton.rest_locals()[j].rotation);
        for (const JointAnimation& a : clip.channels) {
          if (a.joint != j) continue;
          tr = ReferenceSampler::Vector(a.translation, clamped, tr);
          sc = ReferenceSampler::Vector(a.scale, clamped, sc);
          ro = ReferenceSampler::Rotation(a.rotation, clamped, ro);
        }
        for (const ik::Pose* pose : {&fast, &plain}) {
          const ik::Transform& got = pose->locals[j];
          const float dt = static_cast<float>(glm::length(glm::dvec3(got.translation) - tr) /
                                              std::max(1.0, glm::length(tr)));
          const float ds = static_cast<float>(glm::length(glm::dvec3(got.scale) - sc) /
                                              std::max(1.0, glm::length(sc)));
          const float dr = QuatDistance(got.rotation, ro);
          worst_vector = std::max({worst_vector, dt, ds});
          worst_rotation = std::max(worst_rotation, dr);
          ASSERT_LT(dt, 1e-6f) << "trial " << trial << " joint " << j << " t " << t;
          ASSERT_LT(ds, 1e-6f) << "trial " << trial << " joint " << j << " t " << t;
          ASSERT_LT(dr, 1e-6f) << "trial " << trial << " joint " << j << " t " << t;
        }
      }
    }
  }
  RecordProperty("worst_vector_error", std::to_string(worst_vector));
  RecordProperty("worst_rotation_error", std::to_string(worst_rotation));
}

TEST(SampleClip, StalePlanIsIgnoredAfterTheClipChanges) {
  const ik::Skeleton skeleton = ThreeJoints();
  Clip clip;
  clip.duration = 1.0f;
  JointAnimation a;
  a.joint = 1;
  a.translation = VectorTrack(Interpolation::kLinear, {0, 1}, {{0, 0, 0}, {2, 0, 0}});
  a.rotation.times = {0, 1};
  a.rotation.values = {glm::quat(1, 0, 0, 0), AxisAngle(90, {1, 0, 0})};
  a.scale = VectorTrack(Interpolation::kLinear, {0, 1}, {{1, 1, 1}, {3, 3, 3}});
  clip.channels.push_back(a);
  PrepareClip(&clip);
  ik::Pose pose;
  SampleClip(skeleton, clip, 0.5f, &pose);
  EXPECT_NEAR(pose.locals[1].translation.x, 1.0f, 1e-6f);
  // Retarget the channel and drop its scale without preparing again: the sampler notices.
  clip.channels[0].joint = 2;
  clip.channels[0].scale = Track<glm::vec3>();
  clip.channels[0].translation.times = {0, 0.5f, 1};
  clip.channels[0].translation.values = {{0, 0, 0}, {4, 0, 0}, {0, 0, 0}};
  SampleClip(skeleton, clip, 0.5f, &pose);
  EXPECT_EQ(pose.locals[1].translation, skeleton.rest_locals()[1].translation);
  EXPECT_NEAR(pose.locals[2].translation.x, 4.0f, 1e-6f);
  EXPECT_EQ(pose.locals[2].scale, skeleton.rest_locals()[2].scale);
}

TEST(PrepareClip, NormalisesRotationValuesButNotTangentsAndIsIdempotent) {
  Clip clip;
  JointAnimation a;
  a.joint = 0;
  a.rotation.interpolation = Interpolation::kCubicSpline;
  a.rotation.times = {0, 1};
  a.rotation.values = {glm::quat(2, 0, 0, 0), glm::quat(0, 0, 0, 3), glm::quat(0, 5, 0, 0),
                       glm::quat(0, 0, 4, 0), glm::quat(0, 0, 0, 0), glm::quat(7, 0, 0, 0)};
  clip.channels.push_back(a);
  PrepareClip(&clip);
  const auto& v = clip.channels[0].rotation.values;
  EXPECT_EQ(v[0], glm::quat(2, 0, 0, 0));  // tangent
  EXPECT_EQ(v[1], glm::quat(0, 0, 0, 1));  // value, normalised
  EXPECT_EQ(v[4], glm::quat(0, 0, 0, 0));  // zero value left for the sampler to refuse
  const Clip once = clip;
  PrepareClip(&clip);
  for (size_t i = 0; i < v.size(); ++i)
    EXPECT_EQ(clip.channels[0].rotation.values[i], once.channels[0].rotation.values[i]);
}

TEST(SlerpShortest, SeriesAndTrigonometricBranchesAgreeWithTheTextbookFormula) {
  std::mt19937 random(5);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int i = 0; i < 20000; ++i) {
    const glm::quat a = RandomUnit(random);
    // Angles from 0 to 180 degrees between the keys, both branches and the boundary.
    const float angle = 3.14159265f * unit(random) * (i % 2 ? 1.0f : 0.1f);
    const glm::quat b = glm::normalize(
        a * glm::angleAxis(
                angle, glm::normalize(glm::vec3(unit(random) - 0.5f, unit(random) - 0.5f, 0.3f))));
    const float t = unit(random);
    Track<glm::quat> track;
    track.times = {0, 1};
    track.values = {a, b};
    const glm::dquat expected =
        ReferenceSampler::Rotation(track, static_cast<double>(t), glm::dquat(1, 0, 0, 0));
    ASSERT_LT(QuatDistance(SlerpShortest(a, b, t), expected), 1e-6f) << angle << " " << t;
  }
}

}  // namespace
}  // namespace assets
