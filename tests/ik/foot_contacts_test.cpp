// Foot contacts on sampled paths: hysteresis, skate, in-place travel.
#include "ik/body/foot_contacts.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

constexpr float kFps = 30.0f;
constexpr float kLeg = 0.9f;

// A foot stepping forward 0.6 m every second: planted for 0.6 s (sliding `slide` metres forward
// while planted, with `jitter` metres of vertical noise), then swinging 0.1 m high.
void Steps(int seconds, float slide, float jitter, std::vector<glm::vec3>* path,
           std::vector<float>* heights) {
  const int frames = seconds * static_cast<int>(kFps);
  for (int f = 0; f <= frames; ++f) {
    const float t = float(f) / kFps;
    const float cycle = t - std::floor(t);
    const float step = std::floor(t);
    glm::vec3 p(0.1f, 0.09f, 0.6f * step);
    if (cycle < 0.6f) {
      p.z += slide * cycle / 0.6f;
      p.y += jitter * ((f % 2) ? 1.0f : -1.0f);
    } else {
      const float u = (cycle - 0.6f) / 0.4f;
      p.z += slide + (0.6f - slide) * (0.5f - 0.5f * std::cos(3.14159265f * u));
      p.y += 0.1f * std::sin(3.14159265f * u);
    }
    path->push_back(p);
    heights->push_back(p.y);
  }
}

TEST(FootContacts, OneContactPerStep) {
  std::vector<glm::vec3> path;
  std::vector<float> heights;
  Steps(3, 0.0f, 0.0f, &path, &heights);
  const std::vector<ik::FootContact> contacts = ik::FindFootContacts(path, heights, kFps, kLeg);
  ASSERT_EQ(contacts.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(float(contacts[k].first) / kFps, float(k), 0.05f) << k;
    EXPECT_NEAR(float(contacts[k].last) / kFps, float(k) + 0.6f, 0.1f) << k;
    EXPECT_LT(contacts[k].skate, 1e-4f);
    EXPECT_NEAR(contacts[k].height, 0.09f, 1e-4f);
  }
}

TEST(FootContacts, NoiseWhilePlantedDoesNotSplitAStep) {
  std::vector<glm::vec3> path;
  std::vector<float> heights;
  Steps(2, 0.0f, 0.004f, &path, &heights);  // 4 mm up and down every frame
  EXPECT_EQ(ik::FindFootContacts(path, heights, kFps, kLeg).size(), 2u);
}

TEST(FootContacts, SkateIsTheSlideWhilePlanted) {
  std::vector<glm::vec3> path;
  std::vector<float> heights;
  Steps(2, 0.025f, 0.0f, &path, &heights);  // 25 mm of slide per step
  const std::vector<ik::FootContact> contacts = ik::FindFootContacts(path, heights, kFps, kLeg);
  ASSERT_EQ(contacts.size(), 2u);
  for (const ik::FootContact& c : contacts) EXPECT_NEAR(c.skate, 0.025f, 0.003f);
}

TEST(FootContacts, BadInputGivesNoContacts) {
  std::vector<glm::vec3> path(10, glm::vec3(0.0f));
  std::vector<float> heights(10, 0.0f);
  EXPECT_TRUE(ik::FindFootContacts(path, std::vector<float>(3, 0.0f), kFps, kLeg).empty());
  EXPECT_TRUE(ik::FindFootContacts(path, heights, 0.0f, kLeg).empty());
  EXPECT_TRUE(ik::FindFootContacts(path, heights, kFps, -1.0f).empty());
  heights[4] = std::nanf("");
  EXPECT_TRUE(ik::FindFootContacts(path, heights, kFps, kLeg).empty());
  EXPECT_EQ(ik::ContactSkate(path, 5, 20), 0.0f);
}

TEST(FootContacts, StandingStillIsOneContact) {
  std::vector<glm::vec3> path(31, glm::vec3(0.0f, 0.09f, 0.0f));
  std::vector<float> heights(31, 0.09f);
  const std::vector<ik::FootContact> contacts = ik::FindFootContacts(path, heights, kFps, kLeg);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].first, 0);
  EXPECT_EQ(contacts[0].last, 30);
}

TEST(FootContacts, InPlaceClipTravelsAtThePlantedFeetsSpeed) {
  // A treadmill: the body stays, the planted foot slides back at 0.6 m/s.
  std::vector<glm::vec3> world, root;
  std::vector<float> heights;
  Steps(2, 0.0f, 0.0f, &world, &heights);
  for (size_t f = 0; f < world.size(); ++f) {
    world[f].z -= 0.6f * float(f) / kFps;
    root.push_back(glm::vec3(0.0f, 0.9f, 0.0f));
  }
  const glm::vec3 travel = ik::TravelVelocity({world}, {heights}, root, kFps, kLeg);
  EXPECT_NEAR(travel.z, 0.6f, 0.01f);
  EXPECT_NEAR(travel.x, 0.0f, 1e-4f);
  // Relative to the travel the steps are found again.
  std::vector<glm::vec3> relative = world;
  for (size_t f = 0; f < world.size(); ++f) relative[f] += travel * (float(f) / kFps);
  EXPECT_EQ(ik::FindFootContacts(relative, heights, kFps, kLeg).size(), 2u);
}

TEST(FootContacts, ClipWithRootMotionIsMeasuredInTheWorld) {
  std::vector<glm::vec3> world, root;
  std::vector<float> heights;
  Steps(2, 0.0f, 0.0f, &world, &heights);
  for (size_t f = 0; f < world.size(); ++f) root.push_back(glm::vec3(0.0f, 0.9f, 0.6f * f / kFps));
  EXPECT_EQ(ik::TravelVelocity({world}, {heights}, root, kFps, kLeg), glm::vec3(0.0f));
}

}  // namespace
