// The frame pipeline allocates nothing once its buffers have grown, whatever the edit holds (joint
// limits, a hinge limit on a knee, blend-shape weights set by hand, the body, FABRIK, an aim), and
// neither do the chain outcomes the panel formats: idle and playing frames of the viewer stay off
// the heap. Counted with the viewer's allocation counter (app/window/heap_count.h).
#include <gtest/gtest.h>

#include "app/core/chain_results.h"
#include "app/window/heap_count.h"
#include "assets/builtin_character.h"
#include "ik/joint_limits.h"

namespace {

// Pointers stored here escape, so the compiler may not drop the work behind them.
const void* volatile g_sink = nullptr;

TEST(FrameAllocation, AWarmFrameOfEveryKindOfEditAllocatesNothing) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const app::Character character(model);
  const ik::Skeleton& skeleton = model.skeleton;
  app::EditState edit;
  edit.chains = app::DefaultChains(character);
  edit.chains[0].offset = glm::vec3(0.0f, 0.05f, 0.02f);  // the left foot lifted
  edit.chains[4].offset = glm::vec3(0.0f, -0.04f, 0.0f);  // the hips handle dragged: the body
  app::ChainSettings aim, fabrik;
  std::string error;
  ASSERT_TRUE(app::MakeAim(model, skeleton.Find("Head"), &aim, &error)) << error;
  ASSERT_TRUE(
      app::MakeFabrik(model, skeleton.Find("Spine"), skeleton.Find("Neck"), &fabrik, &error))
      << error;
  aim.offset = glm::vec3(0.2f, 0.0f, 0.3f);
  fabrik.offset = glm::vec3(0.02f, 0.0f, 0.02f);
  edit.chains.push_back(aim);
  edit.chains.push_back(fabrik);
  // A hinge limit on the left knee (the two-bone chain takes it as its hinge) and a cone.
  const ik::TwoBoneChain& leg = edit.chains[0].chain;
  edit.limits.Set(leg.mid,
                  *ik::HingeLimitFromTwoBone(skeleton, leg, app::ChainOptions(edit.chains[0])));
  edit.limits.Set(skeleton.Find("Spine1"),
                  ik::JointLimit::Cone(glm::vec3(0.0f, 1.0f, 0.0f), 0.5f, -0.3f, 0.3f));
  edit.morph_weights[{0, 0}] = 0.5f;  // a hand-set weight (the model has no targets: ignored)

  app::EditedFrame frame;
  app::PoseState state;
  const int walk = model.FindClip("Walk");
  ASSERT_GE(walk, 0);
  auto frame_at = [&](float t) {
    app::EvaluateEditedFrame(character, app::ClipTime{walk, t}, edit, &frame, &state);
    char words[192], terms[192];
    for (int i = 0; i < static_cast<int>(edit.chains.size()); ++i) {
      const app::ChainOutcome outcome = app::ChainOutcomeOf(frame, state, i);
      app::ChainWords(outcome, "m", words, sizeof(words));
      app::ChainStatus(outcome, terms, sizeof(terms));
      g_sink = words;
      g_sink = terms;
    }
    g_sink = state.models.data();
  };
  for (int f = 0; f < 3; ++f) frame_at(0.1f * float(f));  // the buffers grow
  ASSERT_TRUE(state.body_ran);
  ASSERT_EQ(state.fabrik.size(), 1u);
  ASSERT_EQ(state.aim.size(), 1u);
  ASSERT_TRUE(frame.requests.ik[0].options.hinge);
  const long before = app::HeapAllocations();
  for (int f = 0; f < 60; ++f) frame_at(float(f) / 60.0f);  // playing
  for (int f = 0; f < 10; ++f) frame_at(0.5f);              // idle
  EXPECT_EQ(app::HeapAllocations() - before, 0);
}

}  // namespace
