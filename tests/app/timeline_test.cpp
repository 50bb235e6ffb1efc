// The timeline without a window (headless Dear ImGui): its buttons step and set the loop range,
// the scrub area moves the playhead onto the clip's frames and pauses while held, and its lanes
// draw one diamond per key of the selected joint, of each chain's IK weight and of each keyed
// target (a click selects a target's key, a drag asks to move it in time).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/window/panels/panels.h"
#include "assets/builtin/builtin_character.h"
#include "tests/app/headless_ui.h"

namespace {

using headless::HeadlessUi;

// The colours the timeline draws rotation keys and the active chain's weight keys in.
constexpr ImU32 kRotationKey = IM_COL32(120, 210, 120, 255);
constexpr ImU32 kWeightKey = IM_COL32(240, 210, 80, 255);
constexpr ImU32 kTargetKey = IM_COL32(255, 140, 60, 255);
constexpr ImU32 kSelectedKey = IM_COL32(255, 250, 205, 255);

// The built-in character with one more clip: 1 s at 24 fps, the hips rotated at every frame.
struct TimelineScene {
  assets::Model model = assets::MakeBuiltinCharacter();
  app::Character character{model};
  app::EditState edit;
  app::Playback playback;
  app::TimelineView view;
  app::PanelLayout layout;
  int hips = model.skeleton.Find("Hips");
  int clip = -1;

  explicit TimelineScene(int keys = 25) {
    assets::Clip c;
    c.name = "24fps";
    c.duration = 1.0f;
    assets::JointAnimation channel;
    channel.joint = hips;
    for (int k = 0; k < keys; ++k) {
      channel.rotation.times.push_back(float(k) / float(keys - 1));
      channel.rotation.values.push_back(glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    }
    c.channels.push_back(channel);
    model.clips.push_back(c);
    clip = static_cast<int>(model.clips.size()) - 1;
    playback.clip = clip;
    edit.chains = app::DefaultChains(character);
  }
  void Draw(int selected_joint = -1, int active_chain = -1, app::Requests* out = nullptr) {
    app::DrawTimeline({model, character, edit, selected_joint, active_chain}, &playback, &view,
                      &layout, out);
  }
};

// How many diamonds of `color` the timeline drew (a diamond is one filled quad: 4 vertices).
int Diamonds(ImU32 color) {
  const ImGuiWindow* window = ImGui::FindWindowByName(app::kTimelineName);
  if (!window) return -1;
  int vertices = 0;
  for (const ImDrawVert& v : window->DrawList->VtxBuffer) vertices += v.col == color ? 1 : 0;
  return vertices / 4;
}

TEST(Timeline, FrameStepButtonsStepOneFrameOfTheClipsOwnRate) {
  TimelineScene scene;
  HeadlessUi ui(false);
  const auto draw = [&] { scene.Draw(); };
  ui.Frame(draw);
  ASSERT_TRUE(ui.Hover(app::kTimelineName, HeadlessUi::ItemId(app::kTimelineName, {}, ">"), draw));
  ui.Click(draw);
  EXPECT_FLOAT_EQ(scene.playback.time, 1.0f / 24.0f);
  ui.Click(draw);
  EXPECT_FLOAT_EQ(scene.playback.time, 2.0f / 24.0f);
  ASSERT_TRUE(ui.Hover(app::kTimelineName, HeadlessUi::ItemId(app::kTimelineName, {}, "<"), draw));
  ui.Click(draw);
  EXPECT_FLOAT_EQ(scene.playback.time, 1.0f / 24.0f);
}

TEST(Timeline, ScrubbingSnapsToFramesPausesWhileHeldAndResumes) {
  TimelineScene scene;
  scene.playback.playing = true;
  HeadlessUi ui(false);
  const auto draw = [&] { scene.Draw(); };
  ui.Frame(draw);
  ASSERT_TRUE(
      ui.Hover(app::kTimelineName, HeadlessUi::ItemId(app::kTimelineName, {}, "##scrub"), draw));
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos.x += 300.0f;  // into the track, right of the lane labels
  io.MouseDown[0] = true;
  ui.Frame(draw);
  EXPECT_FALSE(scene.playback.playing) << "playing stops while the playhead is held";
  const float held = scene.playback.time;
  EXPECT_GT(held, 0.0f);
  EXPECT_LT(held, 1.0f);
  EXPECT_NEAR(held * 24.0f, std::round(held * 24.0f), 1e-4f) << "on a frame: " << held;
  io.MousePos.x += 120.0f;
  ui.Frame(draw);
  EXPECT_GT(scene.playback.time, held) << "dragging right moves later";
  io.MousePos.x += 5000.0f;
  ui.Frame(draw);
  EXPECT_FLOAT_EQ(scene.playback.time, 1.0f) << "past the end: the last frame";
  io.MouseDown[0] = false;
  ui.Frame(draw);
  EXPECT_TRUE(scene.playback.playing) << "playing goes on after the scrub";
}

TEST(Timeline, StartAndEndHereSetTheLoopRangeThatPlayingStaysIn) {
  TimelineScene scene;
  HeadlessUi ui(false);
  const auto draw = [&] { scene.Draw(); };
  scene.playback.time = 0.25f;
  ui.Frame(draw);
  ASSERT_TRUE(
      ui.Hover(app::kTimelineName, HeadlessUi::ItemId(app::kTimelineName, {}, "Start here"), draw));
  ui.Click(draw);
  EXPECT_FLOAT_EQ(scene.playback.range_start, 0.25f);
  EXPECT_FLOAT_EQ(scene.playback.range_end, 1.0f);
  scene.playback.time = 0.75f;
  ASSERT_TRUE(
      ui.Hover(app::kTimelineName, HeadlessUi::ItemId(app::kTimelineName, {}, "End here"), draw));
  ui.Click(draw);
  EXPECT_FLOAT_EQ(scene.playback.range_end, 0.75f);
  // Playing loops inside [0.25, 0.75].
  scene.playback.playing = true;
  for (int i = 0; i < 40; ++i) {
    app::AdvancePlayback(scene.character, 0.07, &scene.playback);
    ASSERT_GE(scene.playback.time, 0.25f);
    ASSERT_LE(scene.playback.time, 0.75f);
  }
  ASSERT_TRUE(
      ui.Hover(app::kTimelineName, HeadlessUi::ItemId(app::kTimelineName, {}, "Whole clip"), draw));
  ui.Click(draw);
  float start = -1.0f, end = -1.0f;
  app::PlaybackRange(scene.playback, 1.0f, &start, &end);
  EXPECT_EQ(start, 0.0f);
  EXPECT_EQ(end, 1.0f);
}

TEST(Timeline, LanesDrawEveryKeyOfTheSelectedJointAndTheIkWeightKeys) {
  TimelineScene scene;
  scene.edit.chains[0].weight_keys = {{0.1f, 0.0f}, {0.5f, 1.0f}, {0.9f, 0.2f}};
  HeadlessUi ui(false);
  ui.MouseAway();
  ui.Frame([&] { scene.Draw(-1, 0); });
  EXPECT_EQ(Diamonds(kRotationKey), 0) << "no joint selected: no joint keys";
  EXPECT_EQ(Diamonds(kWeightKey), 3);
  EXPECT_TRUE(headless::AnyRowHas(headless::TextRows(app::kTimelineName), "Select a joint"));
  ui.Frame([&] { scene.Draw(scene.hips, 0); });
  EXPECT_EQ(Diamonds(kRotationKey), 25);
  EXPECT_EQ(Diamonds(kWeightKey), 3);
  const std::vector<std::string> rows = headless::TextRows(app::kTimelineName);
  EXPECT_TRUE(headless::AnyRowHas(rows, "Hips rotation"));
  EXPECT_TRUE(headless::AnyRowHas(rows, "IK weight"));
}

// The centres of the diamonds of `color` the timeline drew, left to right (each diamond's four
// corners are the next four vertices of that colour).
std::vector<ImVec2> DiamondCentres(ImU32 color) {
  std::vector<ImVec2> corners, centres;
  const ImGuiWindow* window = ImGui::FindWindowByName(app::kTimelineName);
  for (const ImDrawVert& v : window->DrawList->VtxBuffer) {
    if (v.col == color) corners.push_back(v.pos);
  }
  for (size_t i = 0; i + 3 < corners.size(); i += 4) {
    centres.push_back(
        ImVec2(0.25f * (corners[i].x + corners[i + 1].x + corners[i + 2].x + corners[i + 3].x),
               0.25f * (corners[i].y + corners[i + 1].y + corners[i + 2].y + corners[i + 3].y)));
  }
  std::sort(centres.begin(), centres.end(),
            [](const ImVec2& a, const ImVec2& b) { return a.x < b.x; });
  return centres;
}

TEST(Timeline, AKeyedTargetsKeysAreDiamondsThatAClickSelectsAndADragMovesInTime) {
  TimelineScene scene;
  scene.edit.chains[0].target_keys = {{0.25f, glm::vec3(0.0f)}, {0.75f, glm::vec3(0.1f)}};
  scene.edit.chains[0].pole_keys = {{0.5f, glm::vec3(1.0f)}};  // a pole key of its own time
  app::Requests requests;
  HeadlessUi ui(false);
  ui.MouseAway();
  const auto draw = [&] { scene.Draw(-1, 0, &requests); };
  ui.Frame(draw);
  ui.Frame(draw);  // the lanes are known from the frame before
  EXPECT_TRUE(headless::AnyRowHas(headless::TextRows(app::kTimelineName), "target"));
  const std::vector<ImVec2> keys = DiamondCentres(kTargetKey);
  ASSERT_EQ(keys.size(), 3u);
  EXPECT_EQ(Diamonds(kSelectedKey), 0);
  // Press on the first key and drag it right: it follows, and on release its move is asked.
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = keys[0];
  ui.Frame(draw);
  io.MouseDown[0] = true;
  ui.Frame(draw);
  EXPECT_EQ(scene.view.key_chain, 0);
  EXPECT_EQ(scene.view.key_time, 0.25f);
  EXPECT_EQ(scene.playback.time, 0.0f) << "a press on a key does not move the playhead";
  io.MousePos.x = 0.5f * (keys[1].x + keys[2].x);
  ui.Frame(draw);
  EXPECT_EQ(Diamonds(kSelectedKey), 1);
  EXPECT_GT(DiamondCentres(kSelectedKey)[0].x, keys[1].x) << "drawn where it is dragged";
  io.MouseDown[0] = false;
  ui.Frame(draw);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].kind, app::RequestKind::kMoveKey);
  EXPECT_EQ(requests[0].index, 0);
  EXPECT_EQ(requests[0].time, 0.25f);
  EXPECT_GT(requests[0].time_to, 0.5f);
  EXPECT_LT(requests[0].time_to, 0.75f);
  EXPECT_NEAR(requests[0].time_to * 24.0f, std::round(requests[0].time_to * 24.0f), 1e-4f);
  EXPECT_EQ(scene.view.key_time, requests[0].time_to) << "the selection goes with the key";
}

TEST(Timeline, ADenseTrackDrawsAtMostOneDiamondPerPixelColumn) {
  TimelineScene scene(20000);
  HeadlessUi ui(false);
  ui.MouseAway();
  ui.Frame([&] { scene.Draw(scene.hips); });
  const int diamonds = Diamonds(kRotationKey);
  EXPECT_GT(diamonds, 300);
  EXPECT_LE(diamonds, 1000) << "the window is 1000 pixels wide";
}

TEST(Timeline, RestPoseSaysHowToPlayAClip) {
  TimelineScene scene;
  scene.playback.clip = -1;
  HeadlessUi ui(false);
  ui.Frame([&] { scene.Draw(); });
  EXPECT_TRUE(headless::AnyRowHas(headless::TextRows(app::kTimelineName), "Rest pose"));
}

TEST(Timeline, LaneNamesAreShownWholeAndTooLongOnesKeepTheirEnd) {
  TimelineScene scene;
  scene.edit.chains[0].weight_keys = {{0.1f, 0.0f}, {0.9f, 1.0f}};
  scene.edit.chains[0].label = "mixamorig:LeftUpLeg (body)";
  HeadlessUi ui(false);
  ui.MouseAway();
  ui.Frame([&] { scene.Draw(scene.hips, 0); });
  std::vector<std::string> rows = headless::TextRows(app::kTimelineName);
  EXPECT_TRUE(headless::AnyRowHas(rows, "Hips rotation")) << ::testing::PrintToString(rows);
  EXPECT_TRUE(headless::AnyRowHas(rows, "IK weight mixamorig:LeftUpLeg (body)"))
      << ::testing::PrintToString(rows);
  // Longer than the label column may grow (two fifths of the track): "..." and the name's end.
  scene.edit.chains[0].label = std::string(120, 'x') + "LeftUpLeg";
  ui.Frame([&] { scene.Draw(scene.hips, 0); });
  rows = headless::TextRows(app::kTimelineName);
  EXPECT_TRUE(headless::AnyRowHas(rows, "...xxxx")) << ::testing::PrintToString(rows);
  EXPECT_TRUE(headless::AnyRowHas(rows, "xLeftUpLeg")) << ::testing::PrintToString(rows);
  EXPECT_FALSE(headless::AnyRowHas(rows, "IK weight xxx")) << ::testing::PrintToString(rows);
  EXPECT_TRUE(headless::AnyRowHas(rows, "Hips rotation"));
}

TEST(Timeline, WithNothingLoadedItSaysSoRatherThanThatTheModelHasNoClips) {
  TimelineScene scene;
  scene.playback.clip = -1;
  HeadlessUi ui(false);
  const assets::Model nothing;
  const app::Character no_character(nothing);
  const app::EditState edit;
  ui.Frame([&] {
    app::DrawTimeline({nothing, no_character, edit, -1, -1}, &scene.playback, &scene.view,
                      &scene.layout);
  });
  std::vector<std::string> rows = headless::TextRows(app::kTimelineName);
  EXPECT_TRUE(headless::AnyRowHas(rows, "Nothing loaded")) << ::testing::PrintToString(rows);
  EXPECT_FALSE(headless::AnyRowHas(rows, "no clips"));
  // A model without clips still says that.
  assets::Model still = scene.model;
  still.clips.clear();
  const app::Character still_character(still);
  ui.Frame([&] {
    app::DrawTimeline({still, still_character, edit, -1, -1}, &scene.playback, &scene.view,
                      &scene.layout);
  });
  rows = headless::TextRows(app::kTimelineName);
  EXPECT_TRUE(headless::AnyRowHas(rows, "This model has no clips"));
}

TEST(Timeline, AtTwiceTheScaleTheRulersNumbersDoNotRunTogether) {
  TimelineScene scene;
  HeadlessUi ui(false, ImVec2(1000.0f, 620.0f));
  app::ConfigureUi(2.0f, /*light=*/false);
  scene.layout.panel_right = 640.0f;  // the side panel at 200 %: the timeline is narrow
  scene.playback.clip = scene.model.FindClip("Walk");  // 1 s at 30 fps
  ui.MouseAway();
  for (int frame = 0; frame < 2; ++frame) ui.Frame([&] { scene.Draw(); });
  EXPECT_EQ(headless::TextProblems(app::kTimelineName), "");
  // The ruler's numbers: the lowest row of glyphs. Digits one advance apart belong to one number;
  // between two numbers there is at least half a font height of space.
  std::vector<headless::Glyph> glyphs = headless::GlyphsOf(app::kTimelineName);
  ASSERT_FALSE(glyphs.empty());
  float lowest = -1e9f;
  for (const headless::Glyph& g : glyphs) lowest = std::max(lowest, g.min.y);
  std::vector<float> xs;
  for (const headless::Glyph& g : glyphs) {
    if (std::abs(g.min.y - lowest) < 2.0f) xs.push_back(g.min.x);
  }
  std::sort(xs.begin(), xs.end());
  const float advance = ImGui::GetFont()->FindGlyph('0')->AdvanceX;
  int numbers = 1;
  for (size_t i = 1; i < xs.size(); ++i) {
    const float apart = xs[i] - xs[i - 1];
    if (std::abs(apart - advance) < 1.0f) continue;  // the next digit of the same number
    ++numbers;
    EXPECT_GE(apart - advance, 0.5f * ImGui::GetFontSize())
        << "numbers at " << xs[i - 1] << ", " << xs[i] << " run together";
  }
  EXPECT_GE(numbers, 2);
}

TEST(Timeline, ControlsWrapInsteadOfRunningOffANarrowWindow) {
  for (float width : {1400.0f, 1000.0f, 760.0f}) {
    TimelineScene scene;
    scene.layout.panel_right = 368.0f;  // the side panel at its default width
    scene.edit.chains[0].weight_keys = {{0.1f, 0.0f}, {0.9f, 1.0f}};
    HeadlessUi ui(false, ImVec2(width, 620.0f));
    ui.MouseAway();
    for (int frame = 0; frame < 2; ++frame) ui.Frame([&] { scene.Draw(scene.hips, 0); });
    EXPECT_EQ(headless::TextProblems(app::kTimelineName), "") << "at " << width << " wide";
    const ImGuiWindow* window = ImGui::FindWindowByName(app::kTimelineName);
    ASSERT_NE(window, nullptr);
    EXPECT_NEAR(window->Pos.x + window->Size.x, width - 8.0f, 1.0f) << "reaches the right edge";
    EXPECT_GE(window->Pos.x, 368.0f) << "starts right of the side panel";
    EXPECT_LT(scene.layout.timeline_top, 620.0f - 100.0f);
  }
}

}  // namespace
