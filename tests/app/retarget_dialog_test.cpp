// File ▸ Import clip from…'s dialog (app/window/panels/retarget_dialog.h) in a headless Dear ImGui:
// Apply and Cancel ask the loop and edit nothing themselves; the buttons' places settle for the
// trace; the window is named as the trace and the e2e test expect.
#include "app/window/panels/retarget_dialog.h"

#include <gtest/gtest.h>

#include <string>

#include "app/core/character.h"
#include "app/core/retarget.h"
#include "tests/app/headless_ui.h"
#include "tests/support/builtin.h"

namespace {

using app::RequestKind;
using headless::HeadlessUi;

app::RetargetDialog BuiltinDialog(const app::Character& c) {
  app::RetargetMapping mapping;
  std::string error;
  EXPECT_TRUE(app::MapJoints(c, c, &mapping, &error)) << error;
  app::RetargetDialog d;
  d.open = true;
  d.source_path = "walker.glb";
  d.target_name = "hero.glb";
  d.map_path = "hero.glb.retarget-map.json";
  d.clips = {"Idle", "Walk"};
  d.clip = 1;
  d.table = app::BuildRetargetTable(c.skeleton(), mapping);
  return d;
}

TEST(RetargetDialog, ApplyAndCancelAskTheLoopAndLeaveTheTableAsItWas) {
  const app::Character c(testsupport::Builtin());
  app::RetargetDialog dialog = BuiltinDialog(c);
  const app::RetargetTable before = dialog.table;
  HeadlessUi ui(/*side_panel=*/false);
  app::Requests requests;
  const auto draw = [&] {
    app::DrawRetargetDialog(c.skeleton(), c.skeleton(), &dialog, &requests);
  };
  ui.MouseAway();
  for (int i = 0; i < 4; ++i) ui.Frame(draw);
  ASSERT_NE(ImGui::FindWindowByName(app::kRetargetDialogName), nullptr);
  EXPECT_GE(dialog.settled_frames, 2);  // the trace may give the buttons' places now
  EXPECT_TRUE(requests.empty());

  ImGui::GetIO().MousePos = ImVec2(dialog.apply_px.x, dialog.apply_px.y);
  ui.Frame(draw);
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].kind, RequestKind::kApplyRetarget);

  ImGui::GetIO().MousePos = ImVec2(dialog.cancel_px.x, dialog.cancel_px.y);
  ui.Frame(draw);
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].kind, RequestKind::kCancelRetarget);

  ASSERT_EQ(dialog.table.rows.size(), before.rows.size());
  for (size_t i = 0; i < before.rows.size(); ++i) {
    EXPECT_EQ(dialog.table.rows[i].target, before.rows[i].target);
    EXPECT_EQ(dialog.table.rows[i].by, before.rows[i].by);
  }
  EXPECT_EQ(dialog.clip, 1);
}

// The table's scrolling child window (its name starts with the dialog's and names "mapping").
ImGuiWindow* TableWindow() {
  for (ImGuiWindow* w : GImGui->Windows) {
    const std::string name = w->Name;
    if (name.rfind(app::kRetargetDialogName, 0) == 0 && name.find("mapping") != std::string::npos) {
      return w;
    }
  }
  return nullptr;
}

TEST(RetargetDialog, ChoosingNoneInARowsComboUnmapsItAsTheUsersEdit) {
  const app::Character c(testsupport::Builtin());
  app::RetargetDialog dialog = BuiltinDialog(c);
  ASSERT_GE(dialog.table.rows[0].target, 0);
  HeadlessUi ui(/*side_panel=*/false);
  app::Requests requests;
  const auto draw = [&] {
    app::DrawRetargetDialog(c.skeleton(), c.skeleton(), &dialog, &requests);
  };
  ui.MouseAway();
  for (int i = 0; i < 4; ++i) ui.Frame(draw);
  const ImGuiWindow* table = TableWindow();
  ASSERT_NE(table, nullptr);
  // The first row's combo: the first item below the header, right of the source joint's name,
  // that opens a popup when clicked.
  const float row_y = table->Pos.y + ImGui::GetFrameHeight() * 1.5f;
  bool opened = false;
  for (float x = table->Pos.x + table->Size.x * 0.45f; x < table->Pos.x + table->Size.x * 0.7f;
       x += 10.0f) {
    ImGui::GetIO().MousePos = ImVec2(x, row_y);
    ui.Frame(draw);
    if (ImGui::GetHoveredID() == 0) continue;
    ui.Click(draw);
    opened = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
    if (opened) break;
  }
  ASSERT_TRUE(opened);
  const char* popup = "##Combo_00";
  ASSERT_NE(ImGui::FindWindowByName(popup), nullptr);
  ASSERT_TRUE(ui.Hover(popup, HeadlessUi::ItemId(popup, {}, "(none)"), draw));
  ui.Click(draw);
  EXPECT_EQ(dialog.table.rows[0].target, -1);
  EXPECT_EQ(dialog.table.rows[0].by, "user");
  EXPECT_TRUE(requests.empty());  // an edit of the table, nothing for the loop yet
}

TEST(RetargetDialog, ApplyIsDisabledWithoutAClip) {
  const app::Character c(testsupport::Builtin());
  app::RetargetDialog dialog = BuiltinDialog(c);
  dialog.clips.clear();
  HeadlessUi ui(/*side_panel=*/false);
  app::Requests requests;
  const auto draw = [&] {
    app::DrawRetargetDialog(c.skeleton(), c.skeleton(), &dialog, &requests);
  };
  ui.MouseAway();
  for (int i = 0; i < 4; ++i) ui.Frame(draw);
  ImGui::GetIO().MousePos = ImVec2(dialog.apply_px.x, dialog.apply_px.y);
  ui.Frame(draw);
  ui.Click(draw);
  EXPECT_TRUE(requests.empty());
}

TEST(RetargetDialog, DrawsNothingWhileClosed) {
  const app::Character c(testsupport::Builtin());
  app::RetargetDialog dialog = BuiltinDialog(c);
  dialog.open = false;
  HeadlessUi ui(/*side_panel=*/false);
  app::Requests requests;
  ui.Frame([&] { app::DrawRetargetDialog(c.skeleton(), c.skeleton(), &dialog, &requests); });
  EXPECT_EQ(ImGui::FindWindowByName(app::kRetargetDialogName), nullptr);
  EXPECT_TRUE(requests.empty());
}

}  // namespace
