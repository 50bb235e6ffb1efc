// The Animation section's onion-skin and trail rows, headless: the checkboxes and what they set,
// the trail following the selection, and idle frames that allocate nothing.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <string>

#include "app/scene/anim_overlays.h"
#include "app/window/panels/panels.h"
#include "assets/builtin/builtin_character.h"
#include "tests/app/headless_ui.h"
#include "tests/support/allocations.h"

namespace {

using headless::HeadlessUi;

// The characters a window drew, in the order drawn (spaces, which draw nothing, left out): the
// text of a tooltip whose wrapped lines lie too close together for headless::TextRows.
std::string GlyphsInOrder(const char* window_name) {
  const ImGuiWindow* window = ImGui::FindWindowByName(window_name);
  if (!window) return "";
  const ImDrawList& list = *window->DrawList;
  const ImFont* font = ImGui::GetFont();
  std::string text;
  for (int v = 0; v + 2 < list.VtxBuffer.Size; ++v) {
    const ImDrawVert& a = list.VtxBuffer[v];
    const ImDrawVert& c = list.VtxBuffer[v + 2];
    for (const ImFontGlyph& glyph : font->Glyphs) {
      if (glyph.U0 == a.uv.x && glyph.V0 == a.uv.y && glyph.U1 == c.uv.x && glyph.V1 == c.uv.y) {
        text += static_cast<char>(glyph.Codepoint);
        v += 3;  // the glyph's other vertices
        break;
      }
    }
  }
  return text;
}

struct Fixture {
  assets::Model model = assets::MakeBuiltinCharacter();
  app::Playback playback;
  app::DisplaySettings display;
  int selected = -1;
  HeadlessUi ui;
  HeadlessUi::Draw draw = [this] {
    app::DrawAnimationPanel(model, -1, &playback, &display, selected);
  };
  Fixture() {
    playback.clip = model.FindClip("Walk");
    ui.MouseAway();
    ui.Frame(draw);
  }
  bool ClickCheckbox(const char* label) {
    if (!ui.Hover("panel", HeadlessUi::ItemId("panel", {}, label), draw)) return false;
    ui.Click(draw);
    ui.MouseAway();
    ui.Frame(draw);
    return true;
  }
};

TEST(AnimationPanel, OnionSkinsTurnOnWithTheirLastCountAndOff) {
  Fixture f;
  EXPECT_EQ(f.display.scene.onion_count, 0);
  ASSERT_TRUE(f.ClickCheckbox("Onion skins"));
  EXPECT_EQ(f.display.scene.onion_count, 2);  // the first time: two on each side
  // Dragging the count slider right adds ghosts.
  ASSERT_TRUE(f.ui.Hover("panel", HeadlessUi::ItemId("panel", {}, "Ghosts"), f.draw));
  f.ui.DragRight(120.0f, f.draw);
  const int count = f.display.scene.onion_count;
  EXPECT_GT(count, 2);
  EXPECT_LE(count, app::kMaxOnionCount);
  f.ui.MouseAway();
  f.ui.Frame(f.draw);
  ASSERT_TRUE(f.ClickCheckbox("Onion skins"));
  EXPECT_EQ(f.display.scene.onion_count, 0);
  ASSERT_TRUE(f.ClickCheckbox("Onion skins"));
  EXPECT_EQ(f.display.scene.onion_count, count);  // as it was left
}

TEST(AnimationPanel, TheTrailTakesTheSelectedJointAndFollowsTheSelection) {
  Fixture f;
  const int foot = f.model.skeleton.Find("LeftFoot");
  const int hand = f.model.skeleton.Find("RightHand");
  // Nothing selected: the checkbox cannot be ticked.
  EXPECT_FALSE(f.ClickCheckbox("Trail of the selected joint") && f.display.scene.trail_joint >= 0);
  EXPECT_EQ(f.display.scene.trail_joint, -1);
  f.selected = foot;
  f.ui.Frame(f.draw);
  ASSERT_TRUE(f.ClickCheckbox("Trail of the selected joint"));
  EXPECT_EQ(f.display.scene.trail_joint, foot);
  f.selected = hand;
  f.ui.Frame(f.draw);
  EXPECT_EQ(f.display.scene.trail_joint, hand);
  ASSERT_TRUE(f.ClickCheckbox("Trail of the selected joint"));
  EXPECT_EQ(f.display.scene.trail_joint, -1);
}

TEST(AnimationPanel, ClearingTheSelectionEndsTheTrailAndItsLabel) {
  Fixture f;
  const int hand = f.model.skeleton.Find("RightHand");
  f.selected = hand;
  f.ui.Frame(f.draw);
  ASSERT_TRUE(f.ClickCheckbox("Trail of the selected joint"));
  ASSERT_EQ(f.display.scene.trail_joint, hand);
  f.ui.Frame(f.draw);
  EXPECT_TRUE(headless::AnyRowHas(headless::TextRows("panel"), "RightHand"));
  // Nothing selected (a click on empty space, or another file opened): no trail, no name.
  f.selected = -1;
  f.ui.Frame(f.draw);
  f.ui.Frame(f.draw);
  EXPECT_EQ(f.display.scene.trail_joint, -1);
  EXPECT_FALSE(headless::AnyRowHas(headless::TextRows("panel"), "RightHand"));
}

TEST(AnimationPanel, TheOnionAndTrailTooltipsNameTheColoursTheyAreDrawnIn) {
  // The names the tooltips use are the hues of the colours: magenta (red and blue over green)
  // for the past, cyan (green and blue over red) for the future.
  const glm::vec4 past = app::kGhostPastColor, future = app::kGhostFutureColor;
  EXPECT_STREQ(app::kGhostPastColorName, "magenta");
  EXPECT_GT(std::min(past.r, past.b), past.g + 0.2f);
  EXPECT_STREQ(app::kGhostFutureColorName, "cyan");
  EXPECT_GT(std::min(future.g, future.b), future.r + 0.2f);
  Fixture f;
  f.selected = f.model.skeleton.Find("LeftFoot");
  for (const char* label : {"Onion skins", "Trail of the selected joint"}) {
    ASSERT_TRUE(f.ui.Hover("panel", HeadlessUi::ItemId("panel", {}, label), f.draw));
    ImGui::GetIO().DeltaTime = 0.25f;  // the mouse rests: the tooltip shows
    for (int i = 0; i < 3; ++i) f.ui.Frame(f.draw);
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    const ImGuiWindow* tooltip = ImGui::FindWindowByName("##Tooltip_00");
    ASSERT_TRUE(tooltip != nullptr && tooltip->Active) << label;
    const std::string tip = GlyphsInOrder("##Tooltip_00");
    EXPECT_NE(tip.find("(magenta)"), std::string::npos) << label << ": " << tip;
    EXPECT_NE(tip.find("(cyan)"), std::string::npos) << label << ": " << tip;
    EXPECT_EQ(tip.find("(red)"), std::string::npos) << label << ": " << tip;
    EXPECT_EQ(tip.find("green"), std::string::npos) << label << ": " << tip;
    f.ui.MouseAway();
    f.ui.Frame(f.draw);
  }
}

TEST(AnimationPanel, IdleFramesWithOnionAndTrailOnAllocateNothing) {
  Fixture f;
  f.display.scene.onion_count = 4;
  f.display.scene.onion_step = 2;
  f.selected = f.model.skeleton.Find("LeftFoot");
  f.display.scene.trail_joint = f.selected;
  for (int i = 0; i < 5; ++i) f.ui.Frame(f.draw);  // ImGui's buffers grown
  EXPECT_EQ(testsupport::AllocationsIn([&] {
              for (int i = 0; i < 10; ++i) f.ui.Frame(f.draw);
            }),
            0);
}

}  // namespace
