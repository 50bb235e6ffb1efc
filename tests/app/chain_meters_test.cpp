// The two-bone chain's live meters in the IK chains panel, headless: the flip-risk bar and knee
// jump are shown for an open leg chain, and the soft curve is drawn only while soft IK is on.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "app/core/chain_results.h"
#include "app/window/panels/chain_parts.h"
#include "app/window/panels/panels.h"
#include "assets/builtin/builtin_character.h"
#include "tests/app/headless_ui.h"

namespace {

using headless::AnyRowHas;
using headless::HeadlessUi;
using headless::TextRows;

struct Scene {
  assets::Model model = assets::MakeBuiltinCharacter();
  app::Character character{model};
  app::SceneExtent extent = app::MeasureModel(model);
  app::EditState edit;
  app::EditedFrame frame;
  app::PoseState state;
  std::vector<app::KneeJump> jumps;
  Scene() {
    edit.chains = app::DefaultChains(character);
    Evaluate();
  }
  void Evaluate() {
    app::EvaluateEditedFrame(character, app::ClipTime{}, edit, &frame, &state);
    app::UpdateKneeJumps(frame, state, true, &jumps);
  }
  app::FrameInput Input() const {
    app::FrameInput in{model, character, extent, frame, state};
    in.knee_jumps = &jumps;
    return in;
  }
};

// Opens chain 0 (a leg) and reports whether its soft curve can be hovered.
bool SoftCurveShown(Scene* scene) {
  HeadlessUi ui;
  app::Selection selection;
  app::Requests requests;
  const auto draw = [&] {
    app::DrawChainsPanel(scene->Input(), 0.0f, &scene->edit, &selection, &requests);
  };
  ui.Frame(draw);
  const ImGuiID chain_node = HeadlessUi::ItemId("panel", {0}, "##chain");
  EXPECT_TRUE(ui.Hover("panel", chain_node, draw));
  ui.Click(draw);
  const std::vector<std::string> rows = TextRows("panel");
  EXPECT_TRUE(AnyRowHas(rows, "deg from the line")) << "no flip-risk bar";
  EXPECT_TRUE(AnyRowHas(rows, "knee jump")) << "no knee jump";
  return ui.Hover("panel", ImHashStr("##soft curve", 0, chain_node), draw);
}

TEST(ChainMeters, SoftCurveOnlyWhileSoftIkIsOn) {
  Scene scene;
  ASSERT_EQ(scene.edit.chains[0].kind, app::ConstraintKind::kTwoBone);
  EXPECT_FALSE(SoftCurveShown(&scene));
  scene.edit.chains[0].soft = 0.2f;
  scene.Evaluate();
  EXPECT_TRUE(SoftCurveShown(&scene));
}

TEST(ChainMeters, LengthsOfGltfAndVrmFilesAreInMetres) {
  assets::Model model;
  for (const char* source : {"<built-in>", "a.glb", "b.GLTF", "avatar.vrm", "C.VRM"}) {
    model.source = source;
    EXPECT_STREQ(app::LengthUnits(model), "m") << source;
  }
  for (const char* source : {"a.fbx", "b.dae", "vrm"}) {
    model.source = source;
    EXPECT_STREQ(app::LengthUnits(model), "units") << source;
  }
}

}  // namespace
