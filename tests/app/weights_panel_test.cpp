// The Weights panel headless: its counts, its Frame buttons (one request each, none when the
// count is 0), its toggles, the selected joint's name, and idle frames that allocate nothing.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "app/window/panels/panels.h"
#include "assets/builtin/builtin_character.h"
#include "tests/app/headless_ui.h"
#include "tests/support/allocations.h"

namespace {

using app::RequestKind;
using headless::AnyRowHas;
using headless::HeadlessUi;
using headless::TextRows;

struct Scene {
  assets::Model model = assets::MakeBuiltinCharacter();
  app::Character character{model};
  app::SceneExtent extent = app::MeasureModel(model);
  app::EditedFrame frame;
  app::PoseState state;
  assets::WeightProblems problems;
  Scene() {
    app::EvaluateEditedFrame(character, app::ClipTime{}, app::EditState{}, &frame, &state);
    problems = assets::CheckWeights(model);
    problems.totals = {0, 7, 0};  // as if the file had 7 vertices not summing to 1
  }
  app::FrameInput Input() const {
    app::FrameInput in{model, character, extent, frame, state};
    in.weight_problems = &problems;
    return in;
  }
};

TEST(WeightsPanel, ShowsEachProblemCountAndTheSelectedJoint) {
  Scene scene;
  HeadlessUi ui;
  app::DisplaySettings display;
  app::Selection selection;
  selection.selected_joint = scene.model.skeleton.Find("LeftForeArm");
  app::Requests requests;
  ui.MouseAway();
  for (int i = 0; i < 2; ++i) {
    ui.Frame([&] { app::DrawWeightsPanel(scene.Input(), selection, &display, &requests); });
  }
  const std::vector<std::string> rows = TextRows("panel");
  EXPECT_TRUE(AnyRowHas(rows, "of LeftForeArm"));
  EXPECT_TRUE(AnyRowHas(rows, "Unweighted: 0"));
  EXPECT_TRUE(AnyRowHas(rows, "Weights not summing to 1: 7"));
  EXPECT_TRUE(AnyRowHas(rows, "More than 8 influences: 0"));
  EXPECT_TRUE(requests.empty());
}

TEST(WeightsPanel, FrameAsksForThatKindAndADisabledFrameAsksNothing) {
  Scene scene;
  HeadlessUi ui;
  app::DisplaySettings display;
  app::Selection selection;
  app::Requests requests;
  const auto draw = [&] { app::DrawWeightsPanel(scene.Input(), selection, &display, &requests); };
  ui.Frame(draw);
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {1}, "Frame"), draw));
  ui.Click(draw);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].kind, RequestKind::kFrameVertices);
  EXPECT_EQ(requests[0].index, static_cast<int>(assets::WeightProblem::kNotNormalized));
  requests.clear();
  // Unweighted has no vertices: its button is disabled (hovering it still works, clicking not).
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {0}, "Frame"), draw));
  ui.Click(draw);
  EXPECT_TRUE(requests.empty());
}

TEST(WeightsPanel, TogglesTurnTheViewsOn) {
  Scene scene;
  HeadlessUi ui;
  app::DisplaySettings display;
  app::Selection selection;
  app::Requests requests;
  const auto draw = [&] { app::DrawWeightsPanel(scene.Input(), selection, &display, &requests); };
  ui.Frame(draw);
  for (const char* label : {"Heat map", "Influences", "Problems"}) {
    ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, label), draw)) << label;
    ui.Click(draw);
  }
  EXPECT_TRUE(display.show_weights);
  EXPECT_TRUE(display.scene.influences);
  EXPECT_TRUE(display.scene.weight_problems);
  EXPECT_TRUE(AnyRowHas(TextRows("panel"), "8+"));  // the influence colour key is shown
}

TEST(WeightsPanel, IdleFramesAllocateNothing) {
  Scene scene;
  HeadlessUi ui;
  app::DisplaySettings display;
  display.scene.influences = true;
  app::Selection selection;
  selection.selected_joint = 1;
  app::Requests requests;
  requests.reserve(4);
  // A std::function made once: converting the lambda each frame would allocate in the test.
  const HeadlessUi::Draw draw = [&] {
    app::DrawWeightsPanel(scene.Input(), selection, &display, &requests);
  };
  ui.MouseAway();
  for (int i = 0; i < 3; ++i) ui.Frame(draw);
  EXPECT_EQ(testsupport::AllocationsIn([&] {
              for (int i = 0; i < 5; ++i) ui.Frame(draw);
            }),
            0);
}

}  // namespace
