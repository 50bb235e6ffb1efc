// What each chain's solver did this frame, as the panel, the handles and the trace read it.
#include "app/core/chain_results.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "assets/builtin/builtin_character.h"
#include "tests/support/builtin.h"
#include "tests/support/edits.h"

namespace {

using testsupport::Builtin;

// The built-in character's rig facts, found once (as the viewer does per load).
const app::Character& BuiltinCharacter() {
  static const app::Character character(Builtin());
  return character;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// The four limbs, the second one off, plus an aim of the head and a FABRIK spine.
app::EditState Edit() {
  const assets::Model& model = Builtin();
  app::EditState edit;
  edit.chains = app::DefaultChains(BuiltinCharacter());
  edit.chains[1].enabled = false;
  std::string error;
  app::ChainSettings aim, fabrik;
  const int head = model.skeleton.Find("Head");
  EXPECT_TRUE(app::MakeAim(model, head, &aim, &error)) << error;
  EXPECT_TRUE(app::MakeFabrik(model, model.skeleton.Find("Spine"), head, &fabrik, &error)) << error;
  edit.chains.push_back(aim);
  edit.chains.push_back(fabrik);
  return edit;
}

TEST(ChainResults, EachKindReportsItsOwnResultAndDisabledChainsAreOff) {
  app::EditState edit = Edit();
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{}, edit, &frame, &state);
  // A two-bone chain whose target is its effector: reached, status starting with its case.
  const ik::TwoBoneIkResult* result = app::TwoBoneResultOf(frame, state, 0);
  ASSERT_NE(result, nullptr);
  EXPECT_TRUE(result->reached);
  EXPECT_TRUE(app::ChainReached(frame, state, 0));
  EXPECT_TRUE(StartsWith(app::ChainStatus(frame, state, 0), ik::CaseName(result->solve_case)));
  // The disabled chain.
  EXPECT_EQ(app::TwoBoneResultOf(frame, state, 1), nullptr);
  EXPECT_FALSE(app::ChainReached(frame, state, 1));
  EXPECT_EQ(app::ChainStatus(frame, state, 1), "off");
  // The aim and the FABRIK chain have no two-bone result but a status of their own.
  EXPECT_EQ(app::TwoBoneResultOf(frame, state, 6), nullptr);
  EXPECT_NE(app::ChainStatus(frame, state, 6).find("deg"), std::string::npos);
  EXPECT_EQ(app::TwoBoneResultOf(frame, state, 7), nullptr);
  EXPECT_NE(app::ChainStatus(frame, state, 7).find(" it "), std::string::npos);
  // A body handle not moved: free, and the body solve did not run.
  EXPECT_EQ(edit.chains[4].kind, app::ConstraintKind::kBody);
  EXPECT_EQ(app::ChainStatus(frame, state, 4).rfind("free", 0), 0u);
  EXPECT_TRUE(app::ChainReached(frame, state, 4));  // it is where its target is
  EXPECT_FALSE(state.body_ran);
  // Out of range.
  EXPECT_EQ(app::ChainStatus(frame, state, 8), "off");
  EXPECT_FALSE(app::ChainReached(frame, state, -1));
}

TEST(ChainResults, AnUnreachableTargetIsNotReached) {
  const assets::Model& model = Builtin();
  app::EditState edit = Edit();
  edit.chains[0].offset = {0.0f, 5.0f, 0.0f};  // far above the hip
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{}, edit, &frame, &state);
  EXPECT_FALSE(app::ChainReached(frame, state, 0));
  const glm::vec3 target = app::ChainTargetNow(model.skeleton, edit, frame, 0);
  const glm::vec3 effector = app::ChainInfo(model.skeleton, edit, frame, 0).effector;
  EXPECT_NEAR(glm::length(target - effector), 5.0f, 1e-4f);
}

std::string Words(const app::ChainOutcome& outcome) {
  char text[192];
  app::ChainWords(outcome, "m", text, sizeof(text));
  return text;
}

std::string Terms(const app::ChainOutcome& outcome) {
  char text[192];
  app::ChainStatus(outcome, text, sizeof(text));
  return text;
}

TEST(ChainResults, AChainStraightAtRestAsksForAPoleAsAWarning) {
  const assets::Model model = testsupport::StraightLegModel();
  const app::Character character(model);
  app::EditState edit;
  app::ChainSettings leg;
  std::string error;
  ASSERT_TRUE(app::MakeChain(character, model.skeleton.Find("LeftFoot"), &leg, &error)) << error;
  EXPECT_FALSE(leg.hinge);  // no bend to take a hinge from
  leg.mode = app::TargetMode::kPinned;
  leg.pinned = glm::vec3(0.1f, 0.5f, 0.0f);  // up the leg's line: the knee's side is a guess
  edit.chains.push_back(leg);
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(character, app::ClipTime{}, edit, &frame, &state);
  const app::ChainOutcome outcome = app::ChainOutcomeOf(frame, state, 0);
  ASSERT_NE(outcome.two_bone, nullptr);
  EXPECT_EQ(outcome.two_bone->fallback, ik::TwoBoneFallback::kColinearChain);
  EXPECT_TRUE(outcome.reached);
  EXPECT_TRUE(outcome.straight_at_rest);
  EXPECT_EQ(outcome.state, app::ChainState::kStraightAtRest);
  EXPECT_EQ(outcome.tone, app::ChainTone::kWarning);
  EXPECT_EQ(Words(outcome), "straight at rest: set a pole");
  // The trace says the same in the solver's terms.
  EXPECT_EQ(Terms(outcome).rfind("reachable ", 0), 0u) << Terms(outcome);
  EXPECT_NE(Terms(outcome).find(" colinear_chain"), std::string::npos) << Terms(outcome);
  // With a pole the knee's side is known: no fallback, no warning.
  edit.chains[0].use_pole = true;
  edit.chains[0].pole = glm::vec3(0.1f, 0.5f, 1.0f);
  app::EvaluateEditedFrame(character, app::ClipTime{}, edit, &frame, &state);
  const app::ChainOutcome posed = app::ChainOutcomeOf(frame, state, 0);
  EXPECT_EQ(Words(posed), "reached");
  EXPECT_EQ(posed.state, app::ChainState::kReached);
  EXPECT_EQ(posed.tone, app::ChainTone::kGood);
}

// The panel's words and the trace's terms come from one outcome and say the same: the case and
// the distance, to the digits each shows.
TEST(ChainResults, PanelWordsAndTraceTermsAgree) {
  app::EditState edit = Edit();
  edit.chains[0].offset = {0.0f, 5.0f, 0.0f};  // out of reach above the hip
  edit.chains[2].offset = {0.0f, 0.002f, 0.0f};
  edit.chains[2].weight = 0.5f;  // half way: off by a millimetre
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{}, edit, &frame, &state);
  const app::ChainOutcome far = app::ChainOutcomeOf(frame, state, 0);
  ASSERT_NE(far.two_bone, nullptr);
  EXPECT_EQ(far.state, app::ChainState::kOutOfReach);
  EXPECT_EQ(far.tone, app::ChainTone::kBad);
  float words_error = 0.0f, terms_error = 0.0f;
  ASSERT_EQ(std::sscanf(Words(far).c_str(), "out of reach by %f m", &words_error), 1) << Words(far);
  ASSERT_EQ(std::sscanf(Terms(far).c_str(), "too_far %f", &terms_error), 1) << Terms(far);
  EXPECT_NEAR(words_error, far.two_bone->error, 5e-3f * far.two_bone->error);
  EXPECT_NEAR(terms_error, far.two_bone->error, 5e-2f * far.two_bone->error);
  const app::ChainOutcome half = app::ChainOutcomeOf(frame, state, 2);
  ASSERT_NE(half.two_bone, nullptr);
  EXPECT_FALSE(half.reached);
  EXPECT_EQ(half.state, app::ChainState::kOffTarget);
  ASSERT_EQ(std::sscanf(Words(half).c_str(), "%f m off", &words_error), 1) << Words(half);
  ASSERT_EQ(std::sscanf(Terms(half).c_str(), "reachable %f", &terms_error), 1) << Terms(half);
  EXPECT_NEAR(words_error, terms_error, 5e-2f * terms_error);
  // Off and free, the same in both.
  EXPECT_EQ(Words(app::ChainOutcomeOf(frame, state, 1)), "off");
  EXPECT_EQ(Terms(app::ChainOutcomeOf(frame, state, 1)), "off");
  EXPECT_EQ(app::ChainOutcomeOf(frame, state, 1).state, app::ChainState::kOff);
  EXPECT_EQ(app::ChainOutcomeOf(frame, state, 4).state, app::ChainState::kFree);
  EXPECT_EQ(Words(app::ChainOutcomeOf(frame, state, 4)), "free");
  EXPECT_EQ(Terms(app::ChainOutcomeOf(frame, state, 4)).rfind("free", 0), 0u);
  // Each state has one tone, whichever consumer shows it.
  EXPECT_EQ(app::ToneOf(app::ChainState::kReached), app::ChainTone::kGood);
  EXPECT_EQ(app::ToneOf(app::ChainState::kFree), app::ChainTone::kGood);
  EXPECT_EQ(app::ToneOf(app::ChainState::kStraightAtRest), app::ChainTone::kWarning);
  EXPECT_EQ(app::ToneOf(app::ChainState::kFellBack), app::ChainTone::kWarning);
  for (app::ChainState bad :
       {app::ChainState::kOff, app::ChainState::kOutOfReach, app::ChainState::kTooClose,
        app::ChainState::kOffTarget, app::ChainState::kNotSolved}) {
    EXPECT_EQ(app::ToneOf(bad), app::ChainTone::kBad);
  }
  // A buffer too small is cut, never overrun.
  char tiny[6];
  app::ChainWords(far, "m", tiny, sizeof(tiny));
  EXPECT_STREQ(tiny, "out o");
}

}  // namespace
