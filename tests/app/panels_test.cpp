// The viewer's panels without a window: Dear ImGui runs headless (no backend, no GL), the mouse is
// moved to a widget found by its ID and clicked or dragged, and the test reads what the panel
// edited and which requests it returned for the loop.
#include "app/window/panels/panels.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>
#include <functional>
#include <initializer_list>

#include "assets/builtin_character.h"

namespace {

using app::RequestKind;

// A Dear ImGui context of its own, 1000 × 900, fonts built, no .ini file. With `side_panel`
// what is drawn goes into a window at the left, like the viewer's side panel; without, it makes
// windows of its own (the menu bar, dialogs).
class HeadlessUi {
 public:
  using Draw = std::function<void()>;

  explicit HeadlessUi(bool side_panel = true)
      : context_(ImGui::CreateContext()), side_panel_(side_panel) {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1000.0f, 900.0f);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  }
  ~HeadlessUi() { ImGui::DestroyContext(context_); }
  HeadlessUi(const HeadlessUi&) = delete;
  HeadlessUi& operator=(const HeadlessUi&) = delete;

  // One frame of `draw` (in the window "panel" with a side panel).
  void Frame(const Draw& draw) {
    ImGui::NewFrame();
    if (side_panel_) {
      ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
      ImGui::SetNextWindowSize(ImVec2(400.0f, 880.0f));
      ImGui::Begin("panel");
    }
    draw();
    if (side_panel_) ImGui::End();
    ImGui::Render();
  }

  // The ID of the widget `label` in window `window`, under PushID(n) for each n of `path`.
  static ImGuiID ItemId(const char* window, std::initializer_list<int> path, const char* label) {
    ImGuiWindow* w = ImGui::FindWindowByName(window);
    if (!w) return 0;
    ImGuiID seed = w->IDStack.back();
    for (int n : path) seed = ImHashData(&n, sizeof(n), seed);
    return ImHashStr(label, 0, seed);
  }

  // Moves the mouse over window `window` until widget `id` is hovered; false when it never is.
  bool Hover(const char* window, ImGuiID id, const Draw& draw) {
    const ImGuiWindow* w = ImGui::FindWindowByName(window);
    if (!w) return false;
    const ImVec2 min = w->Pos, max = ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y);
    for (float y = min.y + 2.0f; y < max.y; y += 3.0f) {
      for (float x = min.x + 2.0f; x < max.x; x += 5.0f) {
        ImGui::GetIO().MousePos = ImVec2(x, y);
        Frame(draw);
        if (ImGui::GetHoveredID() == id) return true;
      }
    }
    return false;
  }

  // Press and release where the mouse is, a frame each, then a frame to settle.
  void Click(const Draw& draw) {
    ImGui::GetIO().MouseDown[0] = true;
    Frame(draw);
    ImGui::GetIO().MouseDown[0] = false;
    Frame(draw);
    Frame(draw);
  }

  // Press, move `dx` pixels right in steps, release.
  void DragRight(float dx, const Draw& draw) {
    ImGuiIO& io = ImGui::GetIO();
    io.MouseDown[0] = true;
    Frame(draw);
    for (int step = 0; step < 6; ++step) {
      io.MousePos.x += dx / 6.0f;
      Frame(draw);
    }
    io.MouseDown[0] = false;
    Frame(draw);
    Frame(draw);
  }

  void MouseAway() { ImGui::GetIO().MousePos = ImVec2(990.0f, 890.0f); }

 private:
  ImGuiContext* context_;
  bool side_panel_;
};

// The built-in character with its detected limbs, evaluated at rest.
struct Scene {
  assets::Model model = assets::MakeBuiltinCharacter();
  app::SceneExtent extent = app::MeasureModel(model);
  app::EditState edit;
  app::EditedFrame frame;
  app::PoseState state;
  Scene() {
    edit.chains = app::DefaultChains(model);
    app::EvaluateEditedFrame(model, app::ClipTime{}, edit, &frame, &state);
  }
  app::FrameInput Input() const { return app::FrameInput{model, extent, frame, state}; }
};

std::vector<RequestKind> Kinds(const app::Requests& requests) {
  std::vector<RequestKind> kinds;
  for (const app::Request& r : requests) kinds.push_back(r.kind);
  return kinds;
}

TEST(Panels, AnIdleFrameEditsNothingAndAsksNothing) {
  Scene scene;
  HeadlessUi ui;
  app::DisplaySettings display;
  app::Playback playback;
  app::Selection selection;
  app::JointSearch search;
  app::Requests requests;
  const app::EditState before = scene.edit;
  ui.MouseAway();
  for (int frame = 0; frame < 3; ++frame) {
    ui.Frame([&] {
      app::DrawModelPanel(scene.model, scene.edit.chains.size());
      app::DrawDisplayPanel(&display, &requests);
      app::DrawAnimationPanel(scene.model, &playback);
      app::DrawChainsPanel(scene.Input(), playback.time, &scene.edit, &selection, &requests);
      app::DrawContactsPanel(scene.extent.size, &scene.edit, &requests);
      app::DrawJointsPanel(scene.Input(), &scene.edit, &selection, &search, &requests);
    });
  }
  EXPECT_TRUE(requests.empty());
  EXPECT_EQ(scene.edit, before);
}

TEST(Panels, ClickingAChainsCheckboxTurnsItOffAsOneEdit) {
  Scene scene;
  HeadlessUi ui;
  app::Selection selection;
  app::Requests requests;
  const auto draw = [&] {
    app::DrawChainsPanel(scene.Input(), 0.0f, &scene.edit, &selection, &requests);
  };
  ui.Frame(draw);
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {1}, "##enabled"), draw));
  requests.clear();
  ui.Click(draw);
  EXPECT_TRUE(scene.edit.chains[0].enabled);
  EXPECT_FALSE(scene.edit.chains[1].enabled);
  EXPECT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kEdited});
}

TEST(Panels, DraggingTheGroundHeightIsOneEditFromGrabToRelease) {
  Scene scene;
  HeadlessUi ui;
  app::Requests requests;
  const auto draw = [&] { app::DrawContactsPanel(scene.extent.size, &scene.edit, &requests); };
  ui.Frame(draw);
  // The section starts closed.
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, "Ground and ladder"), draw));
  ui.Click(draw);
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, "Height"), draw));
  requests.clear();
  ui.DragRight(40.0f, draw);
  EXPECT_GT(scene.edit.contacts.ground.height, 0.0f);
  EXPECT_EQ(Kinds(requests),
            (std::vector<RequestKind>{RequestKind::kEditBegan, RequestKind::kEditEnded}));
}

TEST(Panels, RemovingAChainForgetsTheActiveOneAndIsOneEdit) {
  Scene scene;
  HeadlessUi ui;
  app::Selection selection;
  selection.active_chain = 2;
  app::Requests requests;
  const auto draw = [&] {
    app::DrawChainsPanel(scene.Input(), 0.0f, &scene.edit, &selection, &requests);
  };
  ui.Frame(draw);
  // Open the first chain, then press its Remove button.
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {0}, "##chain"), draw));
  ui.Click(draw);
  const ImGuiID chain_node = HeadlessUi::ItemId("panel", {0}, "##chain");
  ASSERT_TRUE(ui.Hover("panel", ImHashStr("Remove", 0, chain_node), draw));
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(scene.edit.chains.size(), 3u);
  EXPECT_EQ(scene.edit.chains[0].label, "RightLeg");
  EXPECT_EQ(selection.active_chain, -1);
  EXPECT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kEdited});
}

TEST(Panels, ResetButtonsAskTheLoopLikeTheRKeyAndEditNothingThemselves) {
  Scene scene;
  scene.edit.chains[0].offset = glm::vec3(0.1f, 0.0f, 0.0f);  // a moved target to reset
  scene.edit.joint_rotations[3] = glm::quat(glm::vec3(0.3f, 0.0f, 0.0f));
  HeadlessUi ui;
  app::Selection selection;
  app::Requests requests;
  const auto draw = [&] {
    app::DrawChainsPanel(scene.Input(), 0.0f, &scene.edit, &selection, &requests);
  };
  ui.Frame(draw);
  const app::EditState before = scene.edit;
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, "Reset pose"), draw));
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kResetPose});
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, "Reset all targets"), draw));
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kResetAllTargets});
  // A chain's own reset button names the chain.
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {2}, "##chain"), draw));
  ui.Click(draw);
  const ImGuiID chain_node = HeadlessUi::ItemId("panel", {2}, "##chain");
  ASSERT_TRUE(ui.Hover("panel", ImHashStr("Reset target (R)", 0, chain_node), draw));
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kResetTarget});
  EXPECT_EQ(requests[0].index, 2);
  EXPECT_EQ(scene.edit, before);  // the loop does the resetting
}

TEST(Panels, FrameStepButtonsStepOneFrameOfTheClipsOwnRate) {
  Scene scene;
  assets::Clip clip;
  clip.name = "24fps";
  clip.duration = 1.0f;
  assets::JointAnimation channel;
  channel.joint = 0;
  for (int k = 0; k <= 24; ++k) {
    channel.rotation.times.push_back(float(k) / 24.0f);
    channel.rotation.values.push_back(glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  }
  clip.channels.push_back(channel);
  scene.model.clips = {clip};
  HeadlessUi ui;
  app::Playback playback;
  playback.clip = 0;
  const auto draw = [&] { app::DrawAnimationPanel(scene.model, &playback); };
  ui.Frame(draw);
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, ">"), draw));
  ui.Click(draw);
  EXPECT_FLOAT_EQ(playback.time, 1.0f / 24.0f);
  ui.Click(draw);
  EXPECT_FLOAT_EQ(playback.time, 2.0f / 24.0f);
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, "<"), draw));
  ui.Click(draw);
  EXPECT_FLOAT_EQ(playback.time, 1.0f / 24.0f);
}

TEST(Panels, ExportAsksTheLoopAndWritesNothingItself) {
  HeadlessUi ui(/*side_panel=*/false);
  app::ExportDialog dialog;
  dialog.open = true;
  app::Requests requests;
  const auto draw = [&] { app::DrawExportDialog(/*has_clip=*/true, &dialog, &requests); };
  ui.Frame(draw);
  ui.Frame(draw);  // the dialog fits its contents on its second frame
  ASSERT_TRUE(ui.Hover("Export glTF", HeadlessUi::ItemId("Export glTF", {}, "Export"), draw));
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kExport});
  EXPECT_EQ(requests[0].text, "skelview-export.glb");
  EXPECT_FALSE(requests[0].option);  // this pose, not the baked clip
  EXPECT_TRUE(dialog.open);          // the loop closes it once the file is written
  EXPECT_FALSE(std::filesystem::exists("skelview-export.glb"));
}

TEST(Panels, EditMenuUndoIsARequest) {
  HeadlessUi ui(/*side_panel=*/false);
  app::DisplaySettings display;
  app::ExportDialog dialog;
  app::PanelLayout layout;
  app::Requests requests;
  const std::vector<std::string> recent;
  const std::string current;
  const app::MenuBarInput in{recent, current, /*undo_count=*/1, /*redo_count=*/0};
  const auto draw = [&] { app::DrawMenuBar(in, &display, &dialog, &layout, &requests); };
  ui.Frame(draw);
  EXPECT_GT(layout.menu_height, 0.0f);
  // The menu bar's items are under the ID "##menubar" of its window.
  const ImGuiID menubar = HeadlessUi::ItemId("##MainMenuBar", {}, "##menubar");
  ASSERT_TRUE(ui.Hover("##MainMenuBar", ImHashStr("Edit", 0, menubar), draw));
  ui.Click(draw);
  ASSERT_TRUE(ui.Hover("##Menu_00", HeadlessUi::ItemId("##Menu_00", {}, "Undo"), draw));
  requests.clear();
  ui.Click(draw);
  EXPECT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kUndo});
}

}  // namespace
