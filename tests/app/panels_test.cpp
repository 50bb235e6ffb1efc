// The viewer's panels without a window: Dear ImGui runs headless (no backend, no GL), the mouse is
// moved to a widget found by its ID and clicked or dragged, and the test reads what the panel
// edited and which requests it returned for the loop.
#include "app/window/panels/panels.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>

#include "app/core/chain_results.h"
#include "assets/builtin/builtin_character.h"
#include "tests/app/headless_ui.h"

namespace {

using app::RequestKind;
using headless::AnyRowHas;
using headless::Glyph;
using headless::GlyphsOf;
using headless::HeadlessUi;
using headless::TextOnRow;
using headless::TextProblems;
using headless::TextRows;

// Opens chain `i`'s node in the IK chains panel (window "panel") with a click; the node's id, or 0
// when it could not be hovered.
ImGuiID OpenChain(HeadlessUi& ui, int i, const HeadlessUi::Draw& draw) {
  const ImGuiID node = HeadlessUi::ItemId("panel", {i}, "##chain");
  if (!ui.Hover("panel", node, draw)) return 0;
  ui.Click(draw);
  return node;
}

// Opens the first chain's "Limb joints" node; its id, or 0 when it could not be hovered.
ImGuiID OpenLimbJoints(HeadlessUi& ui, const HeadlessUi::Draw& draw) {
  const ImGuiID chain_node = OpenChain(ui, 0, draw);
  if (chain_node == 0) return 0;
  const ImGuiID limb_node = ImHashStr("Limb joints", 0, chain_node);
  if (!ui.Hover("panel", limb_node, draw)) return 0;
  ui.Click(draw);
  return limb_node;
}

// The built-in character with its detected limbs, evaluated at rest.
struct Scene {
  assets::Model model = assets::MakeBuiltinCharacter();
  app::Character character{model};
  app::SceneExtent extent = app::MeasureModel(model);
  app::EditState edit;
  app::EditedFrame frame;
  app::PoseState state;
  Scene() {
    edit.chains = app::DefaultChains(character);
    app::EvaluateEditedFrame(character, app::ClipTime{}, edit, &frame, &state);
  }
  app::FrameInput Input() const { return app::FrameInput{model, character, extent, frame, state}; }
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
      app::DrawAnimationPanel(scene.model, -1, &playback);
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
  const ImGuiID chain_node = OpenChain(ui, 0, draw);
  ASSERT_NE(chain_node, 0u);
  ASSERT_TRUE(ui.Hover("panel", ImHashStr("Remove", 0, chain_node), draw));
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(scene.edit.chains.size(), 5u);
  EXPECT_EQ(scene.edit.chains[0].label, "RightLeg");
  EXPECT_EQ(selection.active_chain, -1);
  EXPECT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kEdited});
}

TEST(Panels, ALimbsJointsTakeTheSelectedJointFromTheJointTree) {
  Scene scene;
  HeadlessUi ui;
  app::Selection selection;
  app::Requests requests;
  const auto draw = [&] {
    app::DrawChainsPanel(scene.Input(), 0.0f, &scene.edit, &selection, &requests);
  };
  ui.Frame(draw);
  const ImGuiID limb_node = OpenLimbJoints(ui, draw);
  ASSERT_NE(limb_node, 0u);
  // The limb's three joints are listed, with how the limb was found.
  EXPECT_TRUE(AnyRowHas(TextRows("panel"), "LeftUpLeg"));
  EXPECT_TRUE(AnyRowHas(TextRows("panel"), "found by name"));
  const ImGuiID use_end = ImHashStr("Use selected", 0, ImHashStr("end", 0, limb_node));
  // A joint selected in the joint tree: Use selected asks the loop to make it the limb's end.
  selection.selected_joint = scene.model.skeleton.Find("LeftToeBase");
  ASSERT_TRUE(ui.Hover("panel", use_end, draw));
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].kind, RequestKind::kSetLimbJoint);
  EXPECT_EQ(requests[0].text, "end");
  EXPECT_EQ(requests[0].index, 0);
  EXPECT_EQ(scene.edit.chains[0].chain.end, scene.model.skeleton.Find("LeftFoot"));  // the loop's
  // Nothing selected: the same button, disabled, asks nothing.
  selection.selected_joint = -1;
  requests.clear();
  ui.Click(draw);
  EXPECT_TRUE(requests.empty());
}

TEST(Panels, AUserPickedLimbSaysSoAndOffersTheWayBack) {
  Scene scene;
  const ik::Skeleton& skeleton = scene.model.skeleton;
  scene.character = app::Character(
      scene.model,
      {{"LeftLeg",
        {skeleton.Find("LeftUpLeg"), skeleton.Find("LeftLeg"), skeleton.Find("LeftToeBase")}}});
  scene.edit.chains = app::DefaultChains(scene.character);
  HeadlessUi ui;
  app::Selection selection;
  app::Requests requests;
  const auto draw = [&] {
    app::DrawChainsPanel(scene.Input(), 0.0f, &scene.edit, &selection, &requests);
  };
  ui.Frame(draw);
  const ImGuiID limb_node = OpenLimbJoints(ui, draw);
  ASSERT_NE(limb_node, 0u);
  EXPECT_TRUE(AnyRowHas(TextRows("panel"), "LeftToeBase"));
  EXPECT_TRUE(AnyRowHas(TextRows("panel"), "found by user"));
  ASSERT_TRUE(ui.Hover("panel", ImHashStr("As detected", 0, limb_node), draw));
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].kind, RequestKind::kForgetLimbPick);
  EXPECT_EQ(requests[0].index, 0);
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
  const ImGuiID chain_node = OpenChain(ui, 2, draw);
  ASSERT_NE(chain_node, 0u);
  ASSERT_TRUE(ui.Hover("panel", ImHashStr("Reset target (Alt+G)", 0, chain_node), draw));
  requests.clear();
  ui.Click(draw);
  ASSERT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kResetTarget});
  EXPECT_EQ(requests[0].index, 2);
  EXPECT_EQ(scene.edit, before);  // the loop does the resetting
}

// The built-in character with its left knee bent by 50° about a slanted axis (an animation's bend
// would do the same), its leg chain on with the target where the foot is, the knee selected.
struct BentKnee {
  Scene scene;
  int knee = scene.model.skeleton.Find("LeftLeg");
  app::Selection selection;
  app::JointSearch search;
  app::Requests requests;
  BentKnee() {
    const glm::quat rest = scene.model.skeleton.rest_locals()[knee].rotation;
    scene.edit.joint_rotations[knee] =
        rest * glm::angleAxis(glm::radians(50.0f), glm::normalize(glm::vec3(1.0f, 0.0f, 0.4f)));
    Evaluate();
    selection.selected_joint = knee;
  }
  void Evaluate() {
    app::EvaluateEditedFrame(scene.character, app::ClipTime{}, scene.edit, &scene.frame,
                             &scene.state);
  }
  void Draw() { app::DrawJointsPanel(scene.Input(), &scene.edit, &selection, &search, &requests); }
  // Chooses `type` (1 "hinge", 2 "cone") in the Limit combo, as a user does.
  bool ChooseLimit(HeadlessUi* ui, int type, const char* name) {
    const auto draw = [&] {
      Draw();
      Evaluate();
    };
    if (!ui->Hover("panel", HeadlessUi::ItemId("panel", {}, "Limit"), draw)) {
      ADD_FAILURE() << "no Limit combo";
      return false;
    }
    ui->Click(draw);
    // The combo's items are under PushID(their index).
    if (!ui->Hover("##Combo_00", HeadlessUi::ItemId("##Combo_00", {type}, name), draw)) {
      ADD_FAILURE() << "no item " << name;
      return false;
    }
    ui->Click(draw);
    return true;
  }
  std::vector<glm::vec3> WorldPositions() const {
    std::vector<glm::vec3> positions;
    for (const glm::mat4& m : scene.state.models) positions.push_back(glm::vec3(m[3]));
    return positions;
  }
};

float LargestMove(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  float largest = 0.0f;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    largest = std::max(largest, glm::length(a[i] - b[i]));
  }
  return largest;
}

TEST(JointLimitChoice, AHingeHoldsTheCurrentPoseSoNothingMoves) {
  BentKnee bent;
  HeadlessUi ui;
  const std::vector<glm::vec3> before = bent.WorldPositions();
  ui.Frame([&] { bent.Draw(); });
  ASSERT_TRUE(bent.ChooseLimit(&ui, 1, "hinge"));
  const ik::JointLimit* limit = bent.scene.edit.limits.Find(bent.knee);
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(limit->type, ik::JointLimit::Type::kHinge);
  bent.Evaluate();
  EXPECT_LT(LargestMove(before, bent.WorldPositions()), 1e-4f);
  for (const app::Request& r : bent.requests) EXPECT_NE(r.kind, RequestKind::kMessage) << r.text;
}

TEST(JointLimitChoice, AConeHoldsTheCurrentPoseSoNothingMoves) {
  BentKnee bent;
  bent.scene.edit.chains.clear();  // a cone bounds aims and FABRIK: an aim of the shin obeys it
  app::ChainSettings aim;
  std::string error;
  ASSERT_TRUE(app::MakeAim(bent.scene.model, bent.knee, &aim, &error)) << error;
  bent.scene.edit.chains.push_back(aim);
  bent.Evaluate();
  app::ResetChainTarget(
      &bent.scene.edit.chains[0],
      app::ChainInfo(bent.scene.model.skeleton, bent.scene.edit, bent.scene.frame, 0).effector);
  bent.Evaluate();
  HeadlessUi ui;
  const std::vector<glm::vec3> before = bent.WorldPositions();
  ui.Frame([&] { bent.Draw(); });
  ASSERT_TRUE(bent.ChooseLimit(&ui, 2, "cone"));
  bent.Evaluate();
  EXPECT_LT(LargestMove(before, bent.WorldPositions()), 1e-4f);
  for (const app::Request& r : bent.requests) EXPECT_NE(r.kind, RequestKind::kMessage) << r.text;
}

// The Joints panel's Euler fields follow a bone turned a full turn and more (R in the view) without
// a jump: each frame shows the triple nearest the one shown before.
TEST(JointsPanel, EulerFieldsNeverJumpWhileTheBoneTurns) {
  BentKnee bent;
  bent.scene.edit.joint_rotations.clear();
  HeadlessUi ui;
  const glm::vec3 axis = glm::normalize(glm::vec3(1.0f, 0.2f, 0.3f));
  glm::vec3 previous(0.0f);
  for (int d = 0; d <= 400; d += 2) {
    bent.scene.edit.joint_offsets[bent.knee] = glm::angleAxis(glm::radians(float(d)), axis);
    bent.Evaluate();
    ui.Frame([&] { bent.Draw(); });
    ASSERT_EQ(bent.selection.euler_joint, bent.knee);
    const glm::vec3 shown = bent.selection.euler_shown;
    if (d > 0) {
      EXPECT_LT(glm::length(shown - previous), 6.0f) << "at " << d << " deg";
    }
    // The fields are the joint's rotation.
    const glm::quat q = bent.scene.frame.unsolved_pose.locals[size_t(bent.knee)].rotation;
    EXPECT_NEAR(std::abs(glm::dot(glm::quat(glm::radians(shown)), q)), 1.0f, 1e-4f) << d;
    previous = shown;
  }
}

TEST(JointLimitChoice, NarrowingTheHingeBelowThePoseSaysSoOnRelease) {
  BentKnee bent;
  HeadlessUi ui;
  const auto draw = [&] {
    bent.Draw();
    bent.Evaluate();
  };
  ui.Frame(draw);
  ASSERT_TRUE(bent.ChooseLimit(&ui, 1, "hinge"));
  // The range's upper end dragged down to 0°: the 50° bend is outside.
  const ImGuiID angles = HeadlessUi::ItemId("panel", {}, "Angles");
  ASSERT_TRUE(ui.Hover("panel", ImHashStr("##max", 0, angles), draw));
  bent.requests.clear();
  ui.DragRight(-400.0f, [&] { bent.Draw(); });  // the pose of the moment, before a re-solve
  EXPECT_LE(bent.scene.edit.limits.Find(bent.knee)->max_angle, 0.0f);
  const auto message =
      std::find_if(bent.requests.begin(), bent.requests.end(),
                   [](const app::Request& r) { return r.kind == RequestKind::kMessage; });
  ASSERT_NE(message, bent.requests.end());
  EXPECT_NE(message->text.find("LeftLeg: the current pose is outside the new hinge limit"),
            std::string::npos)
      << message->text;
}

TEST(FootLockPanel, AMeshGroundHasBrowseAndAReadInProgressShowsWithCancel) {
  HeadlessUi ui;
  app::FeetView feet;
  feet.kind = 3;  // Mesh file
  feet.mesh_path = "/data/ground.glb";
  app::Requests requests;
  const auto draw = [&] { app::DrawFootLockPanel(&feet, &requests); };
  ui.Frame(draw);
  EXPECT_GE(feet.kind_px.x, 0.0f);  // on screen, for the trace
  EXPECT_GE(feet.browse_px.x, 0.0f);
  EXPECT_LT(feet.mesh_item_px.x, 0.0f);  // the kind's popup is closed
  EXPECT_FALSE(AnyRowHas(TextRows("panel"), "loading"));
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, "Browse..."), draw));
  requests.clear();
  ui.Click(draw);
  EXPECT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kBrowseGround});

  feet.ground_loading = "/data/ground.glb";  // being read: said, and it can be stopped
  ui.Frame(draw);
  EXPECT_TRUE(AnyRowHas(TextRows("panel"), "loading ground.glb ..."));
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, "Cancel##ground"), draw));
  requests.clear();
  ui.Click(draw);
  EXPECT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kCancelGround});
}

TEST(FootLockPanel, ChoosingMeshFileInTheKindBoxShowsItsItemForTheTrace) {
  HeadlessUi ui;
  app::FeetView feet;
  app::Requests requests;
  const auto draw = [&] { app::DrawFootLockPanel(&feet, &requests); };
  ui.Frame(draw);
  ASSERT_TRUE(ui.Hover("panel", HeadlessUi::ItemId("panel", {}, "Ground##kind"), draw));
  ui.Click(draw);
  ASSERT_GE(feet.mesh_item_px.x, 0.0f);  // the popup is open: where its "Mesh file" item is
  ImGui::GetIO().MousePos = ImVec2(feet.mesh_item_px.x, feet.mesh_item_px.y);
  ui.Frame(draw);
  ui.Click(draw);
  EXPECT_EQ(feet.kind, 3);
  EXPECT_GE(feet.browse_px.x, 0.0f);  // its path and Browse... shown
  EXPECT_TRUE(requests.empty());      // no path yet: nothing to load
}

// The side panel with everything open: every section, every chain (one unreachable, one with
// weight keys, a FABRIK chain added and a root marked), a rotated joint selected.
struct FullSidePanel {
  Scene scene;
  app::DisplaySettings display;
  app::Playback playback;
  app::Selection selection;
  app::JointSearch search;
  app::PanelLayout layout;
  app::Requests requests;

  FullSidePanel() {
    const ik::Skeleton& skeleton = scene.model.skeleton;
    app::ChainSettings fabrik;
    std::string error;
    EXPECT_TRUE(app::MakeFabrik(scene.model, skeleton.Find("Spine"), skeleton.Find("Head"), &fabrik,
                                &error))
        << error;
    scene.edit.chains.push_back(fabrik);
    app::ChainSettings aim;
    EXPECT_TRUE(app::MakeAim(scene.model, skeleton.Find("Neck"), &aim, &error)) << error;
    aim.use_up = true;
    scene.edit.chains.push_back(aim);
    scene.edit.chains[0].mode = app::TargetMode::kPinned;
    scene.edit.chains[0].offset = glm::vec3(0.0f, -50.0f, 0.0f);  // far out of reach
    scene.edit.chains[1].weight_keys = {{0.0f, 0.0f}, {0.5f, 1.0f}};
    const int selected = skeleton.Find("LeftForeArm");
    scene.edit.joint_rotations[selected] = glm::quat(glm::radians(glm::vec3(-123.4f, 56.7f, 8.9f)));
    scene.edit.limits.Set(selected,
                          ik::JointLimit::Hinge(glm::vec3(1.0f, 0.0f, 0.0f), -1.0f, 1.0f));
    app::EvaluateEditedFrame(scene.character, app::ClipTime{}, scene.edit, &scene.frame,
                             &scene.state);
    playback.clip = 0;
    selection.selected_joint = selected;
    selection.fabrik_root = skeleton.Find("Spine");
    layout.menu_height = 19.0f;
  }
  void Draw() {
    app::DrawSidePanel(scene.Input(), {&display, &playback, &scene.edit, &selection, &search},
                       &layout, &requests);
    app::DrawStatusLine(scene.model, app::FrameStats{}, false);
  }
  // Opens every section and chain of the panel (their tree nodes' stored state).
  void OpenEverything(bool two_bone = true) {
    ImGuiWindow* panel = ImGui::FindWindowByName(app::kSidePanelName);
    ASSERT_NE(panel, nullptr);
    ImGuiStorage& storage = panel->StateStorage;
    storage.SetInt(HeadlessUi::ItemId(app::kSidePanelName, {}, "Ground and ladder"), 1);
    for (int i = 0; i < static_cast<int>(scene.edit.chains.size()); ++i) {
      if (!two_bone && scene.edit.chains[i].kind == app::ConstraintKind::kTwoBone) continue;
      storage.SetInt(HeadlessUi::ItemId(app::kSidePanelName, {i}, "##chain"), 1);
    }
  }
};

// Scrolls the side panel from top to bottom, a frame at each step, and returns the text problems
// met on the way (TextProblems) and whether it had to scroll.
std::string ScrollThroughSidePanel(HeadlessUi* ui, FullSidePanel* panel, bool* scrolled) {
  const auto draw = [&] { panel->Draw(); };
  std::string problems;
  ImGuiWindow* window = ImGui::FindWindowByName(app::kSidePanelName);
  *scrolled = window->ScrollMax.y > 0.0f;
  for (float y = 0.0f;; y += window->InnerRect.GetHeight() * 0.5f) {
    window->Scroll.y = std::min(y, window->ScrollMax.y);
    ui->Frame(draw);
    ui->Frame(draw);
    problems += TextProblems(app::kSidePanelName);
    if (y >= window->ScrollMax.y) break;
  }
  return problems;
}

TEST(SidePanel, FitsAboveTheStatusLineAndScrollsWithNoTextCutOrOverlapping) {
  for (const ImVec2 display : {ImVec2(1000.0f, 620.0f), ImVec2(1280.0f, 800.0f)}) {
    SCOPED_TRACE(std::to_string(int(display.x)) + "x" + std::to_string(int(display.y)));
    HeadlessUi ui(/*side_panel=*/false, display);
    FullSidePanel panel;
    const auto draw = [&] { panel.Draw(); };
    ui.MouseAway();
    ui.Frame(draw);
    panel.OpenEverything();
    ui.Frame(draw);
    ui.Frame(draw);
    const ImGuiWindow* window = ImGui::FindWindowByName(app::kSidePanelName);
    ASSERT_NE(window, nullptr);
    // Between the menu bar and the status line.
    EXPECT_GE(window->Pos.y, panel.layout.menu_height);
    EXPECT_LE(window->Pos.y + window->Size.y, display.y - app::StatusLineHeight());
    EXPECT_GT(panel.layout.panel_right, window->Pos.x);
    bool scrolled = false;
    EXPECT_EQ(ScrollThroughSidePanel(&ui, &panel, &scrolled), "");
    EXPECT_TRUE(scrolled);  // everything open is taller than either window
    EXPECT_TRUE(panel.requests.empty());
  }
}

TEST(SidePanel, EveryControlHasATooltipAfterTheMouseRestsOnIt) {
  HeadlessUi ui(/*side_panel=*/false, ImVec2(1280.0f, 800.0f));
  FullSidePanel panel;
  const auto draw = [&] { panel.Draw(); };
  ui.MouseAway();
  ui.Frame(draw);
  // Every section and every chain open but the two-bone ones (their options are drawn by
  // chain_two_bone.cpp).
  panel.OpenEverything(/*two_bone=*/false);
  ui.Frame(draw);
  ImGuiWindow* window = ImGui::FindWindowByName(app::kSidePanelName);
  ImGuiContext& g = *ImGui::GetCurrentContext();
  // Every item under the mouse on a grid over the panel's content, scrolled top to bottom: where
  // it was first met (scroll, mouse).
  struct Found {
    float scroll;
    ImVec2 mouse;
  };
  std::map<ImGuiID, Found> items;
  for (float scroll = 0.0f;; scroll += window->InnerRect.GetHeight() * 0.5f) {
    window->Scroll.y = std::min(scroll, window->ScrollMax.y);
    ui.Frame(draw);
    const ImRect inner = window->InnerClipRect;
    for (float y = inner.Min.y + 1.0f; y < inner.Max.y - 1.0f; y += 6.0f) {
      for (float x = inner.Min.x + 1.0f; x < inner.Max.x - 1.0f; x += 8.0f) {
        ImGui::GetIO().MousePos = ImVec2(x, y);
        ui.Frame(draw);
        if (g.HoveredId != 0 && g.HoveredWindow != nullptr &&
            g.HoveredId != ImGui::GetWindowScrollbarID(g.HoveredWindow, ImGuiAxis_Y)) {
          items.emplace(g.HoveredId, Found{window->Scroll.y, ImVec2(x, y)});
        }
      }
    }
    if (scroll >= window->ScrollMax.y) break;
  }
  EXPECT_GT(items.size(), 60u);  // the grid found the panel's controls
  int without = 0;
  for (const auto& [id, found] : items) {
    window->Scroll.y = found.scroll;
    ImGui::GetIO().MousePos = found.mouse;
    ui.Frame(draw);                    // scrolled there
    ImGui::GetIO().DeltaTime = 0.25f;  // resting
    for (int frame = 0; frame < 3; ++frame) ui.Frame(draw);
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    const ImGuiWindow* tooltip = ImGui::FindWindowByName("##Tooltip_00");
    if (g.HoveredId == id && (tooltip == nullptr || !tooltip->Active)) {
      ADD_FAILURE() << "no tooltip on the control at (" << found.mouse.x << ", " << found.mouse.y
                    << ") scrolled " << found.scroll << ", on the row \""
                    << TextOnRow(app::kSidePanelName, found.mouse.y) << "\"";
      ++without;
    }
  }
  EXPECT_EQ(without, 0);
}

TEST(SidePanel, AtItsNarrowestNoTextIsCutOrOverlaps) {
  HeadlessUi ui(/*side_panel=*/false, ImVec2(1000.0f, 620.0f));
  FullSidePanel panel;
  const auto draw = [&] { panel.Draw(); };
  ui.MouseAway();
  ui.Frame(draw);
  panel.OpenEverything();
  ImGui::FindWindowByName(app::kSidePanelName)->SizeFull.x = 100.0f;  // as if dragged narrower
  ui.Frame(draw);
  ui.Frame(draw);
  EXPECT_EQ(ImGui::FindWindowByName(app::kSidePanelName)->Size.x, 320.0f);
  bool scrolled = false;
  EXPECT_EQ(ScrollThroughSidePanel(&ui, &panel, &scrolled), "");
}

TEST(UiScale, FollowsTheDisplaysDpiInQuarterSteps) {
  EXPECT_EQ(app::AutomaticUiScale(96.0f), 1.0f);
  EXPECT_EQ(app::AutomaticUiScale(144.0f), 1.5f);
  EXPECT_EQ(app::AutomaticUiScale(192.0f), 2.0f);
  EXPECT_EQ(app::AutomaticUiScale(120.0f), 1.25f);
  EXPECT_EQ(app::AutomaticUiScale(72.0f), 1.0f) << "never smaller than 1";
  EXPECT_EQ(app::AutomaticUiScale(1000.0f), 3.0f);
  EXPECT_EQ(app::AutomaticUiScale(0.0f), 1.0f) << "unknown DPI";
  EXPECT_EQ(app::AutomaticUiScale(NAN), 1.0f);
}

TEST(SidePanel, AtTwiceTheScaleTheFontIsMadeAtTwiceTheSizeAndNoTextIsCutOrOverlaps) {
  HeadlessUi ui(/*side_panel=*/false, ImVec2(2000.0f, 1240.0f));
  app::ConfigureUi(2.0f, /*light=*/false);
  EXPECT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 26.0f) << "rasterised at 2x, not stretched";
  EXPECT_EQ(ImGui::GetIO().FontGlobalScale, 1.0f);
  FullSidePanel panel;
  const auto draw = [&] { panel.Draw(); };
  ui.MouseAway();
  ui.Frame(draw);
  EXPECT_EQ(app::UiScaleOfFont(), 2.0f);
  panel.OpenEverything();
  ui.Frame(draw);
  ui.Frame(draw);
  EXPECT_EQ(ImGui::FindWindowByName(app::kSidePanelName)->Size.x, 720.0f) << "default width x2";
  bool scrolled = false;
  EXPECT_EQ(ScrollThroughSidePanel(&ui, &panel, &scrolled), "");
}

TEST(SidePanel, StandsAgainstTheWindowsLeftEdge) {
  HeadlessUi ui(/*side_panel=*/false, ImVec2(1000.0f, 620.0f));
  FullSidePanel panel;
  ui.MouseAway();
  ui.Frame([&] { panel.Draw(); });
  const ImGuiWindow* window = ImGui::FindWindowByName(app::kSidePanelName);
  ASSERT_NE(window, nullptr);
  EXPECT_EQ(window->Pos.x, 0.0f) << "no strip of the view left of the panel";
  EXPECT_EQ(panel.layout.panel_right, window->Size.x);
}

TEST(Menus, MenusAndTheHelpOverlayAreOpaqueInBothThemes) {
  for (bool light : {false, true}) {
    HeadlessUi ui(/*side_panel=*/false, ImVec2(1280.0f, 800.0f));
    app::ConfigureUi(1.0f, light);
    EXPECT_EQ(ImGui::GetStyle().Colors[ImGuiCol_PopupBg].w, 1.0f);
    app::DisplaySettings display;
    app::UiOptions ui_options;
    app::PanelLayout layout;
    app::Requests requests;
    bool help = true;
    app::MessageLog log;
    const std::vector<std::string> recent;
    const std::string current;
    const app::MenuBarInput in{recent, current, 0, 0};
    const auto draw = [&] {
      app::DrawMenuBar(in, {&display, &ui_options, &help, &log}, &layout, &requests);
      app::DrawHelpOverlay(&help);
    };
    ui.MouseAway();
    ui.Frame(draw);
    ui.Frame(draw);
    // The first thing a window draws is its background: fully opaque.
    const ImGuiWindow* overlay = ImGui::FindWindowByName(app::kHelpWindowName);
    ASSERT_TRUE(overlay != nullptr && !overlay->DrawList->VtxBuffer.empty());
    EXPECT_EQ(overlay->DrawList->VtxBuffer[0].col >> IM_COL32_A_SHIFT, 255u) << "light " << light;
    help = false;
    const ImGuiID menubar = HeadlessUi::ItemId("##MainMenuBar", {}, "##menubar");
    ASSERT_TRUE(ui.Hover("##MainMenuBar", ImHashStr("File", 0, menubar), draw));
    ui.Click(draw);
    const ImGuiWindow* menu = ImGui::FindWindowByName("##Menu_00");
    ASSERT_TRUE(menu != nullptr && menu->Active && !menu->DrawList->VtxBuffer.empty());
    EXPECT_EQ(menu->DrawList->VtxBuffer[0].col >> IM_COL32_A_SHIFT, 255u) << "light " << light;
  }
}

TEST(SidePanel, TheLightThemeHasLightWindowsAndDarkText) {
  HeadlessUi ui(/*side_panel=*/false);
  app::ConfigureUi(1.0f, /*light=*/true);
  const ImVec4 window = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  const ImVec4 text = ImGui::GetStyle().Colors[ImGuiCol_Text];
  EXPECT_GT(window.x + window.y + window.z, 2.4f);
  EXPECT_LT(text.x + text.y + text.z, 0.6f);
  app::ConfigureUi(1.0f, /*light=*/false);
  EXPECT_LT(ImGui::GetStyle().Colors[ImGuiCol_WindowBg].x, 0.2f);
}

TEST(SidePanel, StartsAtTheWidthTheUserLeftIt) {
  HeadlessUi ui(/*side_panel=*/false, ImVec2(1280.0f, 800.0f));
  FullSidePanel panel;
  panel.layout.panel_start_width = 455.0f;  // from settings.json
  ui.MouseAway();
  ui.Frame([&] { panel.Draw(); });
  ui.Frame([&] { panel.Draw(); });
  EXPECT_EQ(panel.layout.panel_width, 455.0f);
}

TEST(HelpOverlay, ListsEveryShortcutAndItsCloseButtonClosesIt) {
  HeadlessUi ui(/*side_panel=*/false, ImVec2(1280.0f, 800.0f));
  bool open = true;
  const auto draw = [&] { app::DrawHelpOverlay(&open); };
  ui.MouseAway();
  ui.Frame(draw);
  ui.Frame(draw);  // sized to its table on the second frame
  const std::vector<std::string> rows = TextRows(app::kHelpWindowName);
  size_t count = 0;
  const app::Shortcut* shortcuts = app::Shortcuts(&count);
  ASSERT_GT(count, 15u);
  for (size_t i = 0; i < count; ++i) {
    EXPECT_TRUE(AnyRowHas(rows, shortcuts[i].keys)) << shortcuts[i].keys;
    EXPECT_TRUE(AnyRowHas(rows, shortcuts[i].action)) << shortcuts[i].action;
  }
  for (const char* key : {"F1", "Ctrl+Z", "Ctrl+O", "Ctrl+E", "Ctrl+L", "F12", "Space", "Escape"}) {
    EXPECT_TRUE(AnyRowHas(rows, key)) << key;
  }
  ImGuiWindow* window = ImGui::FindWindowByName(app::kHelpWindowName);
  ASSERT_NE(window, nullptr);
  EXPECT_LE(window->Size.y, 800.0f - 60.0f);  // on screen
  EXPECT_EQ(window->ScrollMax.y, 0.0f);       // every row at once, without scrolling
  ASSERT_TRUE(ui.Hover(app::kHelpWindowName, window->GetID("#CLOSE"), draw));
  ui.Click(draw);
  EXPECT_FALSE(open);
}

TEST(MessageLogWindow, CopyAllPutsEveryMessageWithItsTimeOnTheClipboard) {
  HeadlessUi ui(/*side_panel=*/false);
  app::MessageLog log;
  log.Add("opened a.glb", app::MessageLevel::kNote);
  log.Add("b.glb: not a glTF file", app::MessageLevel::kError);
  log.open = true;
  const auto draw = [&] { app::DrawMessageLog(&log); };
  ui.MouseAway();
  ui.Frame(draw);
  EXPECT_EQ(log.unseen(), 0);  // shown, so seen
  ASSERT_TRUE(ui.Hover(app::kMessageLogName,
                       HeadlessUi::ItemId(app::kMessageLogName, {}, "Copy all"), draw));
  ImGui::SetClipboardText("");
  ui.Click(draw);
  const std::string copied = ImGui::GetClipboardText();
  EXPECT_EQ(copied, log.Text());
  EXPECT_NE(copied.find(" error: b.glb: not a glTF file\n"), std::string::npos) << copied;
  EXPECT_NE(copied.find(log.entries()[0].clock + " opened a.glb"), std::string::npos) << copied;
}

TEST(MessageLogWindow, CountsOneMessageInTheSingular) {
  HeadlessUi ui(/*side_panel=*/false);
  app::MessageLog log;
  log.open = true;
  const auto draw = [&] { app::DrawMessageLog(&log); };
  ui.MouseAway();
  log.Add("opened a.glb", app::MessageLevel::kNote);
  ui.Frame(draw);
  std::vector<std::string> rows = TextRows(app::kMessageLogName);
  EXPECT_TRUE(AnyRowHas(rows, "1 message;")) << ::testing::PrintToString(rows);
  EXPECT_FALSE(AnyRowHas(rows, "1 messages"));
  log.Add("undo", app::MessageLevel::kNote);
  ui.Frame(draw);
  rows = TextRows(app::kMessageLogName);
  EXPECT_TRUE(AnyRowHas(rows, "2 messages;")) << ::testing::PrintToString(rows);
}

TEST(MessageLogWindow, TheMenuBarBadgeCountsNewWarningsAndErrorsAndOpensTheLog) {
  HeadlessUi ui(/*side_panel=*/false);
  app::DisplaySettings display;
  app::UiOptions ui_options;
  app::PanelLayout layout;
  app::Requests requests;
  bool help = false;
  app::MessageLog log;
  const std::vector<std::string> recent;
  const std::string current;
  const app::MenuBarInput in{recent, current, 0, 0};
  const auto draw = [&] {
    app::DrawMenuBar(in, {&display, &ui_options, &help, &log}, &layout, &requests);
    app::DrawMessageLog(&log);
  };
  ui.MouseAway();
  ui.Frame(draw);
  EXPECT_FALSE(AnyRowHas(TextRows("##MainMenuBar"), "new"));
  log.Add("undo", app::MessageLevel::kNote);
  log.Add("a.glb: 3 vertices had no weights", app::MessageLevel::kWarning);
  log.Add("b.glb: not a glTF file", app::MessageLevel::kError);
  ui.Frame(draw);
  EXPECT_TRUE(AnyRowHas(TextRows("##MainMenuBar"), "Messages (2 new)"));
  const ImGuiID menubar = HeadlessUi::ItemId("##MainMenuBar", {}, "##menubar");
  ASSERT_TRUE(ui.Hover("##MainMenuBar", ImHashStr("###messages", 0, menubar), draw));
  ui.Click(draw);
  EXPECT_TRUE(log.open);
  EXPECT_EQ(log.unseen(), 0);
  EXPECT_FALSE(AnyRowHas(TextRows("##MainMenuBar"), "new"));
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

TEST(Panels, ABakeUnderWayShowsItsProgressAndCancelAsksTheLoopToStopIt) {
  HeadlessUi ui(/*side_panel=*/false);
  app::ExportDialog dialog;
  dialog.open = true;
  dialog.bake = true;
  dialog.busy = true;
  dialog.progress = 0.42f;
  app::Requests requests;
  const auto draw = [&] { app::DrawExportDialog(/*has_clip=*/true, &dialog, &requests); };
  ui.Frame(draw);
  ui.Frame(draw);
  EXPECT_TRUE(AnyRowHas(TextRows("Export glTF"), "Baking the clip with the IK"));
  // No Export button while it bakes: Cancel stops the bake (the loop does, nothing is written).
  EXPECT_FALSE(ui.Hover("Export glTF", HeadlessUi::ItemId("Export glTF", {}, "Export"), draw));
  ASSERT_TRUE(ui.Hover("Export glTF", HeadlessUi::ItemId("Export glTF", {}, "Cancel"), draw));
  requests.clear();
  ui.Click(draw);
  EXPECT_EQ(Kinds(requests), std::vector<RequestKind>{RequestKind::kCancelExport});
  EXPECT_TRUE(dialog.open);
}

TEST(Panels, EditMenuUndoIsARequest) {
  HeadlessUi ui(/*side_panel=*/false);
  app::DisplaySettings display;
  app::UiOptions ui_options;
  app::PanelLayout layout;
  app::Requests requests;
  const std::vector<std::string> recent;
  const std::string current;
  const app::MenuBarInput in{recent, current, /*undo_count=*/1, /*redo_count=*/0};
  bool help = false;
  app::MessageLog log;
  const auto draw = [&] {
    app::DrawMenuBar(in, {&display, &ui_options, &help, &log}, &layout, &requests);
  };
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
