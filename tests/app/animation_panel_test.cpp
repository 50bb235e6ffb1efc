// The Animation section's onion-skin and trail rows, headless: the checkboxes and what they set,
// the trail following the selection, and idle frames that allocate nothing.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "app/window/heap_count.h"
#include "app/window/panels/panels.h"
#include "assets/builtin_character.h"
#include "tests/app/headless_ui.h"

namespace {

using headless::HeadlessUi;

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
  f.selected = -1;  // selection cleared: the trail stays where it was
  f.ui.Frame(f.draw);
  EXPECT_EQ(f.display.scene.trail_joint, hand);
  f.selected = hand;
  f.ui.Frame(f.draw);
  ASSERT_TRUE(f.ClickCheckbox("Trail of the selected joint"));
  EXPECT_EQ(f.display.scene.trail_joint, -1);
}

TEST(AnimationPanel, IdleFramesWithOnionAndTrailOnAllocateNothing) {
  Fixture f;
  f.display.scene.onion_count = 4;
  f.display.scene.onion_step = 2;
  f.selected = f.model.skeleton.Find("LeftFoot");
  f.display.scene.trail_joint = f.selected;
  for (int i = 0; i < 5; ++i) f.ui.Frame(f.draw);  // ImGui's buffers grown
  const long before = app::HeapAllocations();
  for (int i = 0; i < 10; ++i) f.ui.Frame(f.draw);
  EXPECT_EQ(app::HeapAllocations() - before, 0);
}

}  // namespace
