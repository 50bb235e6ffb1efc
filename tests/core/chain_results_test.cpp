// What each chain's solver did this frame, as the panel, the handles and the trace read it.
#include "app/core/chain_results.h"

#include <gtest/gtest.h>

#include <string>

#include "assets/builtin_character.h"

namespace {

const assets::Model& Builtin() {
  static const assets::Model model = assets::MakeBuiltinCharacter();
  return model;
}

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

}  // namespace
