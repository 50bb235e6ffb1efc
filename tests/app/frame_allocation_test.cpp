// The frame pipeline allocates nothing once its buffers have grown, whatever the edit holds (joint
// limits, a hinge limit on a knee, blend-shape weights set by hand, the body, FABRIK, an aim), and
// neither do the chain outcomes the panel formats: idle and playing frames of the viewer stay off
// the heap. Counted with the viewer's allocation counter (app/window/heap_count.h).
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "app/core/chain_results.h"
#include "app/core/foot_lock.h"
#include "app/core/ground.h"
#include "app/window/panels/panel_util.h"
#include "app/window/panels/panels.h"
#include "assets/builtin/builtin_character.h"
#include "ik/limits/joint_limits.h"
#include "tests/app/headless_ui.h"
#include "tests/support/allocations.h"
#include "tests/support/edits.h"

namespace {

// Pointers stored here escape, so the compiler may not drop the work behind them.
const void* volatile g_sink = nullptr;

TEST(FrameAllocation, AWarmFrameOfEveryKindOfEditAllocatesNothing) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const app::Character character(model);
  app::EditState edit = testsupport::EveryStageEdit(character);
  // A keyed target and pole (the right foot's): evaluated between keys every frame.
  edit.chains[1].target_keys = {{0.0f, glm::vec3(0.0f)},
                                {0.15f, glm::vec3(0.0f, 0.05f, 0.0f)},
                                {0.4f, glm::vec3(0.02f, 0.0f, 0.0f)}};
  edit.chains[1].use_pole = true;
  edit.chains[1].pole_keys = {{0.0f, glm::vec3(0.0f, 0.5f, 1.0f)}, {0.3f, glm::vec3(0, 0.6f, 1)}};
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
  EXPECT_EQ(testsupport::AllocationsIn([&] {
              for (int f = 0; f < 60; ++f) frame_at(float(f) / 60.0f);  // playing
              for (int f = 0; f < 10; ++f) frame_at(0.5f);              // idle
            }),
            0);
}

// Issue 30: the foot lock is a stage of the pipeline (applied after the un-solved pose's forward
// kinematics); a warm frame of a locked walk, playing or idle, allocates nothing either.
TEST(FrameAllocation, AWarmFrameWithTheFeetLockedAllocatesNothing) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const app::Character character(model);
  const int walk = model.FindClip("Walk");
  ASSERT_GE(walk, 0);
  app::ClipContacts contacts;
  std::string error;
  ASSERT_TRUE(app::FindClipContacts(character, walk, 30.0f, &contacts, &error)) << error;
  app::EditState edit;
  edit.chains = app::DefaultChains(character);
  app::FootLockOptions options;
  ASSERT_TRUE(app::ParseGroundSpec("ramp,degrees=8", &options.ground, &error)) << error;
  edit.foot_lock = app::PlanFootLock(character, contacts, options);
  app::EditedFrame frame, plain_frame;
  app::PoseState state, plain;
  auto frame_at = [&](float t) {
    app::EvaluateEditedFrame(character, app::ClipTime{walk, t}, edit, &frame, &state);
    g_sink = state.models.data();
  };
  for (int f = 0; f < 3; ++f) frame_at(0.1f * float(f));  // the buffers grow
  // The lock ran: on the ramp the feet are not where the plain walk puts them.
  app::EvaluateEditedFrame(character, app::ClipTime{walk, 0.2f}, app::EditState(), &plain_frame,
                           &plain);
  frame_at(0.2f);
  const int foot = contacts.source.legs[0].chain.end;
  EXPECT_GT(glm::distance(glm::vec3(state.models[size_t(foot)][3]),
                          glm::vec3(plain.models[size_t(foot)][3])),
            1e-3f);
  EXPECT_EQ(testsupport::AllocationsIn([&] {
              for (int f = 0; f < 60; ++f) frame_at(float(f) / 60.0f);  // playing
              for (int f = 0; f < 10; ++f) frame_at(0.5f);              // idle
            }),
            0);
}

// The colours of the glyphs drawn in window `name` on the row through `y`, as last rendered.
std::vector<ImU32> GlyphColoursOnRow(const char* name, float y) {
  std::vector<ImU32> colours;
  const ImGuiWindow* window = ImGui::FindWindowByName(name);
  if (!window) return colours;
  const ImDrawList& list = *window->DrawList;
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  for (const ImDrawVert& v : list.VtxBuffer) {
    if ((v.uv.x == white.x && v.uv.y == white.y) || v.pos.y > y + 8.0f || v.pos.y < y - 8.0f) {
      continue;
    }
    colours.push_back(v.col);
  }
  return colours;
}

// Issue 28, item 8: a chain straight at rest, pinned up its own line (so that the solver falls
// back to guessing the knee's side every frame), says "straight at rest: set a pole" in the
// warning colour, and the viewer's idle frame — the pipeline, the handles' outcome and the
// Chains panel drawn — allocates nothing (its words used to be a std::string past the small-string
// size, one allocation per frame).
TEST(FrameAllocation, IdleFramesWithAChainStraightAtRestAllocateNothingAndWarn) {
  const assets::Model model = testsupport::StraightLegModel();
  const app::Character character(model);
  const app::SceneExtent extent = app::MeasureModel(model, &character.limbs());
  app::EditState edit;
  app::ChainSettings leg;
  std::string error;
  ASSERT_TRUE(app::MakeChain(character, model.skeleton.Find("LeftFoot"), &leg, &error)) << error;
  leg.mode = app::TargetMode::kPinned;
  leg.pinned = glm::vec3(0.1f, 0.5f, 0.0f);
  edit.chains.push_back(leg);
  app::EditedFrame frame;
  app::PoseState state;
  app::Selection selection;
  app::Requests requests;
  headless::HeadlessUi ui;
  ui.MouseAway();
  bool reached = false;
  const headless::HeadlessUi::Draw draw = [&] {
    app::DrawChainsPanel(app::FrameInput{model, character, extent, frame, state}, 0.0f, &edit,
                         &selection, &requests);
  };
  auto idle_frame = [&] {
    app::EvaluateEditedFrame(character, app::ClipTime{}, edit, &frame, &state);
    reached = app::ChainReached(frame, state, 0);  // the handle's colour
    ui.Frame(draw);
  };
  for (int f = 0; f < 5; ++f) idle_frame();  // the buffers (and ImGui's) grow
  const app::ChainOutcome outcome = app::ChainOutcomeOf(frame, state, 0);
  ASSERT_EQ(outcome.state, app::ChainState::kStraightAtRest);
  EXPECT_TRUE(reached);
  EXPECT_EQ(testsupport::AllocationsIn([&] {
              for (int f = 0; f < 30; ++f) idle_frame();
            }),
            0);
  EXPECT_TRUE(requests.empty());

  // The panel says so, every glyph of that row in the warning colour.
  const std::vector<std::string> rows = headless::TextRows("panel");
  float row_y = -1.0f;
  for (const headless::Glyph& glyph : headless::GlyphsOf("panel")) {
    if (headless::TextOnRow("panel", glyph.min.y + 4.0f).find("straight at rest: set a pole") !=
        std::string::npos) {
      row_y = glyph.min.y + 4.0f;
      break;
    }
  }
  ASSERT_GE(row_y, 0.0f) << "no row says it; rows: " << ::testing::PrintToString(rows);
  const ImU32 warning = ImGui::ColorConvertFloat4ToU32(app::ToneColor(app::Tone::kWarning));
  const ImU32 good = ImGui::ColorConvertFloat4ToU32(app::ToneColor(app::Tone::kGood));
  bool warned = false;
  for (ImU32 colour : GlyphColoursOnRow("panel", row_y)) {
    EXPECT_NE(colour, good);
    warned = warned || colour == warning;
  }
  EXPECT_TRUE(warned);
}

}  // namespace
