// The --trace events scripts follow: their fields, in order, from plain view state.
#include "app/core/trace_events.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "assets/builtin/builtin_character.h"
#include "tests/support/builtin.h"

namespace {

using testsupport::Builtin;

// The built-in character's rig facts, found once (as the viewer does per load).
const app::Character& BuiltinCharacter() {
  static const app::Character character(Builtin());
  return character;
}

std::vector<std::string> Keys(const app::Json& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.push_back(it.key());
  return keys;
}

struct Fixture {
  app::EditState edit;
  app::EditedFrame frame;
  app::PoseState state;
  app::Playback playback;
};

Fixture Evaluated() {
  const assets::Model& model = Builtin();
  Fixture f;
  f.edit.chains = app::DefaultChains(BuiltinCharacter());
  f.edit.chains.resize(4);  // the limbs (the body handles have tests of their own)
  f.edit.chains[0].offset = {0.0f, 0.05f, 0.0f};
  f.playback.clip = model.FindClip("Walk");
  f.playback.time = 0.25f;
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{f.playback.clip, f.playback.time},
                           f.edit, &f.frame, &f.state);
  return f;
}

TEST(TraceEvents, ReadyListsEveryChainWithItsHandleAndWhereTheModelIs) {
  const Fixture f = Evaluated();
  const std::vector<glm::vec2> handles = {{10, 20}, {30, 40}, {50, 60}, {70, 80}};
  const app::ModelOnScreen model_px{{400, 300}, {350, 100}, {450, 500}};
  const app::Json ready =
      app::ReadyEvent({900, 700}, Builtin(), f.edit, f.frame, handles, model_px, f.playback);
  EXPECT_EQ(Keys(ready),
            (std::vector<std::string>{"event", "window", "model", "chains", "model_px", "anim"}));
  EXPECT_EQ(ready["window"], app::Json::array({900, 700}));
  ASSERT_EQ(ready["chains"].size(), 4u);
  EXPECT_EQ(ready["chains"][0]["end"], "LeftFoot");
  EXPECT_EQ(ready["chains"][0]["handle_px"], app::Json::array({10.0, 20.0}));
  const glm::vec3 foot(f.frame.unsolved_models[Builtin().skeleton.Find("LeftFoot")][3]);
  EXPECT_NEAR(ready["chains"][0]["target"][1].get<double>(), double(foot.y) + 0.05, 1e-5);
  EXPECT_EQ(ready["model_px"]["box"], app::Json::array({350.0, 100.0, 450.0, 500.0}));
  EXPECT_EQ(ready["anim"]["time"], 0.25);
  // No bounds, no clip: neither field.
  app::Playback rest;
  const app::Json bare =
      app::ReadyEvent({900, 700}, Builtin(), f.edit, f.frame, handles, std::nullopt, rest);
  EXPECT_FALSE(bare.contains("model_px"));
  EXPECT_FALSE(bare.contains("anim"));
}

TEST(TraceEvents, DragEndOfATwoBoneChainCarriesTheSolveAndTheFrameTimes) {
  const Fixture f = Evaluated();
  app::DragEnd drag;
  drag.chain = 0;
  drag.part = "center";
  drag.handle_px = {123.0f, 456.0f};
  drag.drag_frames.Add(10.0);
  drag.drag_frames.Add(20.0);
  drag.idle_frame_ms = 12.5;
  const app::Json event = app::DragEndEvent(Builtin(), f.edit, f.frame, f.state, drag, f.playback);
  EXPECT_EQ(Keys(event),
            (std::vector<std::string>{"event", "end", "label", "part", "target", "effector", "kind",
                                      "reached", "status", "case", "error", "mid_before",
                                      "mid_after", "frames", "frame_ms", "idle_frame_ms", "options",
                                      "handle_px", "anim"}));
  EXPECT_EQ(event["event"], "drag_end");
  EXPECT_EQ(event["kind"], "two_bone");
  EXPECT_EQ(event["reached"], true);
  EXPECT_EQ(event["frames"], 2);
  EXPECT_EQ(event["frame_ms"], 15.0);
  EXPECT_EQ(event["idle_frame_ms"], 12.5);
  EXPECT_EQ(event["options"]["mode"], "follow");
  EXPECT_FALSE(event["options"].contains("pole"));
  // The effector is where the solve put the foot: on the target.
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(event["effector"][k].get<double>(), event["target"][k].get<double>(), 1e-4);
  }
}

TEST(TraceEvents, DragEndOfAnAimHasNoTwoBoneFields) {
  Fixture f = Evaluated();
  const assets::Model& model = Builtin();
  app::ChainSettings aim;
  std::string error;
  ASSERT_TRUE(app::MakeAim(model, model.skeleton.Find("Head"), &aim, &error));
  aim.use_pole = true;  // only two-bone chains solve with a pole, but the option is reported
  f.edit.chains.push_back(aim);
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{}, f.edit, &f.frame, &f.state);
  app::DragEnd drag;
  drag.chain = 4;
  const app::Json event = app::DragEndEvent(model, f.edit, f.frame, f.state, drag, {});
  EXPECT_EQ(event["kind"], "aim");
  EXPECT_FALSE(event.contains("case"));
  EXPECT_FALSE(event.contains("anim"));
  EXPECT_TRUE(event["options"].contains("pole"));
}

TEST(TraceEvents, TargetsAndFileEventsNameWhatHappened) {
  const Fixture f = Evaluated();
  const app::Json undo = app::TargetsEvent("undo", Builtin(), f.edit, f.frame);
  EXPECT_EQ(undo["event"], "undo");
  EXPECT_EQ(undo["chains"].size(), 4u);
  EXPECT_EQ(Keys(undo["chains"][0]), (std::vector<std::string>{"end", "target"}));
  EXPECT_EQ(undo["morphs"], app::Json::array());

  // Hand-set blend-shape weights are named by mesh and target.
  assets::Model morphed = Builtin();
  morphed.meshes[0].targets.resize(2);
  morphed.meshes[0].targets[1].name = "smile";
  app::EditState edit = f.edit;
  edit.morph_weights[{0, 1}] = 0.25f;
  const app::Json redo = app::TargetsEvent("redo", morphed, edit, f.frame);
  ASSERT_EQ(redo["morphs"].size(), 1u);
  EXPECT_EQ(redo["morphs"][0], (app::Json{{"mesh", 0},
                                          {"mesh_name", morphed.meshes[0].name},
                                          {"target", 1},
                                          {"target_name", "smile"},
                                          {"weight", 0.25}}));

  EXPECT_FALSE(app::ExportEvent("a.glb", false, true, "").contains("error"));
  EXPECT_EQ(app::ExportEvent("a.glb", true, false, "a.glb: cannot write")["error"],
            "a.glb: cannot write");
  const app::Json failed = app::LoadFailedEvent("bad.glb", "bad.glb: not glTF", "<built-in>");
  EXPECT_EQ(Keys(failed), (std::vector<std::string>{"event", "path", "error", "model"}));
  const app::Json done = app::LoadDoneEvent(Builtin(), 4);
  EXPECT_EQ(done["joints"], 22);
  EXPECT_EQ(done["chains"], 4);
  app::FrameTimes idle, drag;
  idle.Add(4.0);
  const app::Json exit = app::ExitEvent(7, idle, drag);
  EXPECT_EQ(exit["frames"], 7);
  EXPECT_EQ(exit["idle_frame_ms"], 4.0);
  EXPECT_EQ(exit["drag_frame_ms"], 0.0);
}

TEST(TraceEvents, CameraSaysWhoMovedItAndWhereItLooks) {
  const app::Json camera =
      app::CameraEvent("zoom", 30.0f, 15.0f, 4.5f, glm::vec3(0.0f, 1.0f, 2.0f), true);
  EXPECT_EQ(Keys(camera), (std::vector<std::string>{"event", "by", "yaw", "pitch", "distance",
                                                    "target", "ortho"}));
  EXPECT_EQ(camera["ortho"], true);
  EXPECT_EQ(camera["event"], "camera");
  EXPECT_EQ(camera["by"], "zoom");
  EXPECT_EQ(camera["yaw"], 30.0);
  EXPECT_EQ(camera["distance"], 4.5);
  EXPECT_EQ(camera["target"][2], 2.0);
}

}  // namespace
