// Flip-risk meter, knee jump and soft curve of a two-bone chain: angles of poles against the
// start→target line, the knee's jump across frames, and the soft curve against the solver.
#include "app/core/flip_risk.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "app/core/chain_results.h"
#include "assets/builtin/builtin_character.h"

namespace app {
namespace {

// A straight chain start (0,0,0) → knee (0,-1,0.1) → end (0,-2,0), bent slightly forward, with
// the target straight below.
ik::TwoBoneIkResult Solve(const glm::vec3& target, const std::optional<glm::vec3>& pole,
                          float soft = 0.0f) {
  ik::TwoBoneIkOptions options;
  options.pole_model = pole;
  options.soft = soft;
  const glm::mat4 start(1.0f);
  const glm::mat4 mid = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -1.0f, 0.1f));
  const glm::mat4 end = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -2.0f, 0.0f));
  return ik::SolveTwoBoneIk(start, mid, end, target, options);
}

TEST(FlipRisk, PolePerpendicularToTheTargetLineIsNinetyDegrees) {
  const ik::TwoBoneIkResult r = Solve(glm::vec3(0.0f, -1.5f, 0.0f), glm::vec3(0.0f, 0.0f, 2.0f));
  const FlipRisk risk = MeasureFlipRisk(r, glm::vec3(0.0f, 0.0f, 2.0f));
  ASSERT_TRUE(risk.valid);
  EXPECT_TRUE(risk.from_pole);
  EXPECT_NEAR(risk.angle_degrees, 90.0f, 1e-3f);
  EXPECT_EQ(risk.level, FlipLevel::kSafe);
}

TEST(FlipRisk, PoleOnTheTargetLineIsNearZeroAndDangerous) {
  const glm::vec3 target(0.0f, -1.5f, 0.0f);
  // Just off the line beyond the target, and behind the start: both nearly collinear.
  for (const glm::vec3& pole : {glm::vec3(0.0f, -3.0f, 0.01f), glm::vec3(0.001f, 2.0f, 0.0f)}) {
    const FlipRisk risk = MeasureFlipRisk(Solve(target, pole), pole);
    ASSERT_TRUE(risk.valid);
    EXPECT_LT(risk.angle_degrees, 0.5f);
    EXPECT_GE(risk.angle_degrees, 0.0f);
    EXPECT_EQ(risk.level, FlipLevel::kDanger);
  }
  // 10° off the line: a caution.
  const float a = glm::radians(10.0f);
  const glm::vec3 pole(0.0f, -std::cos(a), std::sin(a));
  const FlipRisk risk = MeasureFlipRisk(Solve(target, pole), pole);
  EXPECT_NEAR(risk.angle_degrees, 10.0f, 1e-3f);
  EXPECT_EQ(risk.level, FlipLevel::kCaution);
}

TEST(FlipRisk, WithoutAPoleTheKneeBeforeTheSolveIsTheReference) {
  const ik::TwoBoneIkResult r = Solve(glm::vec3(0.0f, -1.5f, 0.0f), std::nullopt);
  const FlipRisk risk = MeasureFlipRisk(r, std::nullopt);
  ASSERT_TRUE(risk.valid);
  EXPECT_FALSE(risk.from_pole);
  // The knee (0,-1,0.1) against the line along -y.
  EXPECT_NEAR(risk.angle_degrees, glm::degrees(std::atan2(0.1f, 1.0f)), 1e-3f);
}

TEST(FlipRisk, TargetOnTheStartIsNotMeasured) {
  ik::TwoBoneIkResult r;
  r.a = r.target = glm::vec3(1.0f, 2.0f, 3.0f);
  r.b_before = glm::vec3(1.0f, 1.0f, 3.0f);
  const FlipRisk risk = MeasureFlipRisk(r, std::nullopt);
  EXPECT_FALSE(risk.valid);
  EXPECT_EQ(risk.angle_degrees, 90.0f);
}

TEST(KneeJump, MeasuresHowFarTheSolvedKneeMovedAndForgetsUnsolvedFrames) {
  KneeJump jump;
  ik::TwoBoneIkResult r;
  r.a = glm::vec3(0.0f);
  r.b_final = glm::vec3(0.0f, -1.0f, 0.0f);
  r.c_final = glm::vec3(0.0f, -2.0f, 0.0f);  // limb length 2
  UpdateKneeJump(&r, &jump);
  EXPECT_TRUE(jump.has_last);
  EXPECT_EQ(jump.jump, 0.0f);
  r.b_final = glm::vec3(0.3f, -1.0f, 0.4f);  // 0.5 away
  r.c_final = glm::vec3(0.0f, -2.0f, 0.0f);
  UpdateKneeJump(&r, &jump);
  EXPECT_NEAR(jump.jump, 0.5f, 1e-6f);
  const float limb = glm::length(r.b_final) + glm::length(r.c_final - r.b_final);
  EXPECT_NEAR(jump.jump_fraction, 0.5f / limb, 1e-6f);
  UpdateKneeJump(nullptr, &jump);
  EXPECT_FALSE(jump.has_last);
  UpdateKneeJump(&r, &jump);
  EXPECT_EQ(jump.jump, 0.0f);
}

TEST(KneeJump, AFlipAcrossTheLineIsAJumpOfTheKnee) {
  // A pole crossing the target line from +z to -z swings the knee to the other side.
  const glm::vec3 target(0.0f, -1.5f, 0.0f);
  KneeJump jump;
  ik::TwoBoneIkResult r = Solve(target, glm::vec3(0.0f, -0.75f, 0.01f));
  UpdateKneeJump(&r, &jump);
  r = Solve(target, glm::vec3(0.0f, -0.75f, -0.01f));
  UpdateKneeJump(&r, &jump);
  // Both bones sqrt(1.01) long: the knee sits sqrt(1.01 - 0.75²) off the line on either side.
  EXPECT_NEAR(jump.jump, 2.0f * std::sqrt(1.01f - 0.75f * 0.75f), 1e-3f);
  EXPECT_GT(jump.jump_fraction, kKneeJumpWarnFraction);
}

TEST(KneeJump, UpdateKneeJumpsFollowsTheEditsChains) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const Character character(model);
  EditState edit;
  edit.chains = DefaultChains(character);
  EditedFrame frame;
  PoseState state;
  EvaluateEditedFrame(character, ClipTime{}, edit, &frame, &state);
  std::vector<KneeJump> jumps;
  UpdateKneeJumps(frame, state, true, &jumps);
  ASSERT_EQ(jumps.size(), edit.chains.size());
  int solved = 0;
  for (size_t i = 0; i < jumps.size(); ++i) {
    const bool two_bone = TwoBoneResultOf(frame, state, static_cast<int>(i)) != nullptr;
    EXPECT_EQ(jumps[i].has_last, two_bone) << i;
    solved += two_bone ? 1 : 0;
  }
  EXPECT_GE(solved, 4);
  UpdateKneeJumps(frame, state, true, &jumps);  // the same pose again: nothing moved
  for (const KneeJump& j : jumps) EXPECT_EQ(j.jump, 0.0f);
}

TEST(KneeJump, AScrubStartsAfreshWhereAFrameOfPlaybackMeasures) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const Character character(model);
  ASSERT_FALSE(model.clips.empty());
  EditState edit;
  edit.chains = DefaultChains(character);
  EditedFrame frame;
  PoseState state;
  const float half = 0.5f * model.clips[0].duration;
  std::vector<KneeJump> played, scrubbed;
  EvaluateEditedFrame(character, ClipTime{0, 0.0f}, edit, &frame, &state);
  UpdateKneeJumps(frame, state, true, &played);
  UpdateKneeJumps(frame, state, true, &scrubbed);
  EvaluateEditedFrame(character, ClipTime{0, half}, edit, &frame, &state);
  UpdateKneeJumps(frame, state, true, &played);
  UpdateKneeJumps(frame, state, false, &scrubbed);
  float most_played = 0.0f;
  for (size_t i = 0; i < played.size(); ++i) {
    most_played = std::max(most_played, played[i].jump);
    EXPECT_EQ(scrubbed[i].jump, 0.0f) << i;
    EXPECT_EQ(scrubbed[i].has_last, played[i].has_last) << i;  // measured from here on
  }
  EXPECT_GT(most_played, 0.01f);  // half a walk cycle apart, the knees did move
}

TEST(KneeJump, OnlyOneFrameOfPlaybackIsContinuous) {
  const float step = 1.0f / 30.0f;
  EXPECT_TRUE(ContinuousClipTime({0, 0.5f}, {0, 0.5f + step}, step));
  EXPECT_TRUE(ContinuousClipTime({0, 0.5f}, {0, 0.5f - step}, -step));  // backwards
  EXPECT_TRUE(ContinuousClipTime({0, 0.5f}, {0, 0.5f}, 0.0f));          // paused, dragging
  EXPECT_TRUE(ContinuousClipTime({-1, 0.0f}, {-1, 0.0f}, 0.0f));        // the rest pose
  EXPECT_FALSE(ContinuousClipTime({0, 0.5f}, {0, 0.9f}, 0.0f));         // a scrub
  EXPECT_FALSE(ContinuousClipTime({0, 0.5f}, {0, 0.5f + 3.0f * step}, step));
  EXPECT_FALSE(ContinuousClipTime({0, 0.99f}, {0, 0.01f}, step));  // the loop's wrap
  EXPECT_FALSE(ContinuousClipTime({0, 0.5f}, {1, 0.5f}, 0.0f));    // another clip
}

TEST(SoftCurve, MatchesWhereTheSolverPutsTheEnd) {
  const float soft = 0.2f;
  for (const float distance : {0.5f, 1.5f, 1.7f, 1.9f, 2.0f, 2.3f}) {
    const glm::vec3 target(0.0f, -distance, 0.0f);
    const ik::TwoBoneIkResult r = Solve(target, std::nullopt, soft);
    const float reach = SoftenedReach(distance, r.reach_min, r.reach_max, soft);
    EXPECT_NEAR(glm::length(r.c_final - r.a), reach, 1e-4f) << distance;
    EXPECT_LE(reach, r.reach_max);
  }
  // Off, it is the identity held within the reach.
  EXPECT_FLOAT_EQ(SoftenedReach(1.7f, 0.0f, 2.0f, 0.0f), 1.7f);
  EXPECT_FLOAT_EQ(SoftenedReach(2.4f, 0.0f, 2.0f, 0.0f), 2.0f);
  // On, below the soft start nothing changes and beyond it the reach stays short of full.
  EXPECT_FLOAT_EQ(SoftenedReach(1.5f, 0.0f, 2.0f, 0.2f), 1.5f);
  EXPECT_LT(SoftenedReach(2.0f, 0.0f, 2.0f, 0.2f), 2.0f);
  EXPECT_GT(SoftenedReach(2.0f, 0.0f, 2.0f, 0.2f), SoftenedReach(1.8f, 0.0f, 2.0f, 0.2f));
}

TEST(FlipRisk, ChainPoleIsTheRequestsPole) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const Character character(model);
  EditState edit;
  edit.chains = DefaultChains(character);
  int chain = -1;
  for (size_t i = 0; i < edit.chains.size() && chain < 0; ++i) {
    if (edit.chains[i].kind == ConstraintKind::kTwoBone) chain = static_cast<int>(i);
  }
  ASSERT_GE(chain, 0);
  edit.chains[static_cast<size_t>(chain)].use_pole = true;
  edit.chains[static_cast<size_t>(chain)].pole = glm::vec3(0.3f, 1.0f, 0.5f);
  EditedFrame frame;
  PoseState state;
  EvaluateEditedFrame(character, ClipTime{}, edit, &frame, &state);
  const std::optional<glm::vec3> pole = ChainPole(frame, chain);
  ASSERT_TRUE(pole.has_value());
  EXPECT_NEAR(glm::length(*pole - glm::vec3(0.3f, 1.0f, 0.5f)), 0.0f, 1e-5f);
  EXPECT_FALSE(ChainPole(frame, -1).has_value());
  EXPECT_FALSE(ChainPole(frame, 1000).has_value());
}

}  // namespace
}  // namespace app
