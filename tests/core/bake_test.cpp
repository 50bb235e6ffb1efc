// Baking the IK into a clip and exporting the edited pose or the baked clip.
#include "app/core/bake.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <glm/gtc/quaternion.hpp>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/core/pose_input.h"
#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "tests/support/builtin.h"
#include "tests/test_paths.h"

namespace {

using testsupport::Builtin;

// The built-in character's rig facts, found once (as the viewer does per load).
const app::Character& BuiltinCharacter() {
  static const app::Character character(Builtin());
  return character;
}

// The built-in character with its feet lifted 5 cm on the walk.
app::EditState LiftedFeet() {
  app::EditState edit;
  edit.chains = app::DefaultChains(BuiltinCharacter());
  for (app::ChainSettings& c : edit.chains) {
    if (c.label.find("Leg") != std::string::npos) c.offset = {0.0f, 0.05f, 0.0f};
  }
  return edit;
}

TEST(Bake, FrameRateIsTheMostCommonKeySpacing) {
  assets::Clip clip;
  clip.channels.resize(1);
  clip.channels[0].rotation.times = {0.0f, 1.0f / 24, 2.0f / 24, 3.0f / 24, 0.5f};
  EXPECT_FLOAT_EQ(app::EstimateFrameRate(clip), 24.0f);
  EXPECT_FLOAT_EQ(app::EstimateFrameRate(assets::Clip{}), 30.0f);
}

TEST(Bake, BakedClipGivesBackTheEvaluatedPosesAtItsFrames) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  ASSERT_GE(walk, 0);
  const app::EditState edit = LiftedFeet();
  assets::Model baked = model;
  baked.clips = {app::BakeClip(BuiltinCharacter(), walk, 30.0f, edit)};
  EXPECT_EQ(baked.clips[0].name, model.clips[walk].name + " (IK)");
  const app::Character baked_character(baked);
  app::EditedFrame frame;
  app::PoseState evaluated, replayed;
  for (int f : {0, 7, 30}) {
    const float t = std::min(float(f) / 30.0f, model.clips[walk].duration);
    app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{walk, t}, edit, &frame, &evaluated);
    app::EvaluatePose(baked_character, app::ClipTime{0, t}, app::ConstraintRequests{}, &replayed);
    for (int j = 0; j < model.skeleton.joint_count(); ++j) {
      const glm::vec3 a(evaluated.models[j][3]), b(replayed.models[j][3]);
      ASSERT_LT(glm::length(a - b), 1e-4f) << model.skeleton.name(j) << " at frame " << f;
    }
  }
}

TEST(Bake, ExportWritesThePoseAsRestPoseOrTheBakedClip) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  const app::EditState edit = LiftedFeet();
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{walk, 0.25f}, edit, &frame, &state);
  const std::string dir = testpaths::TempDir();
  std::string error;

  const std::string posed = dir + "/posed.glb";
  ASSERT_TRUE(app::ExportEdited(BuiltinCharacter(), state.pose, walk, edit, false, posed, &error))
      << error;
  assets::LoadResult pose_back = assets::LoadModel(posed);
  ASSERT_TRUE(pose_back.ok()) << pose_back.error;
  const int foot = model.skeleton.Find("LeftFoot");
  const glm::vec3 rest_foot(pose_back.model->skeleton.rest_models()[foot][3]);
  EXPECT_LT(glm::length(rest_foot - glm::vec3(state.models[foot][3])), 1e-4f);

  const std::string baked = dir + "/baked.glb";
  ASSERT_TRUE(app::ExportEdited(BuiltinCharacter(), state.pose, walk, edit, true, baked, &error))
      << error;
  assets::LoadResult bake_back = assets::LoadModel(baked);
  ASSERT_TRUE(bake_back.ok()) << bake_back.error;
  // The baked clip in the played one's place; the other clips kept as they were.
  ASSERT_EQ(bake_back.model->clips.size(), model.clips.size());
  for (size_t c = 0; c < model.clips.size(); ++c) {
    const std::string expected = model.clips[c].name + (static_cast<int>(c) == walk ? " (IK)" : "");
    EXPECT_EQ(bake_back.model->clips[c].name, expected);
  }
  ASSERT_GT(model.clips.size(), 1u) << "the built-in character should have several clips";

  // Without a clip there is nothing to bake: the pose is written, as the pose above without
  // clips (they would open on their first frame instead of the pose).
  const std::string no_clip = dir + "/no-clip.glb";
  ASSERT_TRUE(app::ExportEdited(BuiltinCharacter(), state.pose, -1, edit, true, no_clip, &error))
      << error;
  assets::LoadResult no_clip_back = assets::LoadModel(no_clip);
  ASSERT_TRUE(no_clip_back.ok()) << no_clip_back.error;
  EXPECT_TRUE(no_clip_back.model->clips.empty());
  EXPECT_TRUE(pose_back.model->clips.empty());
}

// A model of `joints` joints in a chain whose one clip turns them all, with keys at 0, 1/240,
// 2/240, 3/240, 4/240 and `last_time` seconds: a few close keys, then one far away.
assets::Model UnevenClip(float last_time, int joints = 20) {
  std::vector<ik::JointDesc> descs(static_cast<size_t>(joints));
  for (int j = 0; j < joints; ++j) {
    descs[j].name = "j" + std::to_string(j);
    descs[j].parent = j - 1;
    descs[j].rest.translation = {0.0f, j == 0 ? 0.0f : 0.1f, 0.0f};
  }
  std::string error;
  assets::Model model;
  model.source = "uneven";
  model.skeleton = *ik::Skeleton::Build(descs, &error);
  model.is_bone.assign(static_cast<size_t>(joints), true);
  assets::Clip clip;
  clip.name = "long";
  clip.duration = last_time;
  for (int j = 0; j < joints; ++j) {
    assets::JointAnimation channel;
    channel.joint = j;
    channel.rotation.times = {0.0f, 1 / 240.0f, 2 / 240.0f, 3 / 240.0f, 4 / 240.0f, last_time};
    for (size_t k = 0; k < channel.rotation.times.size(); ++k) {
      channel.rotation.values.push_back(
          glm::angleAxis(k % 2 == 0 ? 0.0f : 0.1f, glm::vec3(0.0f, 0.0f, 1.0f)));
    }
    clip.channels.push_back(channel);
  }
  assets::PrepareClip(&clip);
  model.clips.push_back(clip);
  return model;
}

TEST(Bake, AFewCloseKeysDoNotSetTheRateOfAClipHoursLong) {
  const assets::Model model = UnevenClip(3600.0f);
  // The keys' most common spacing says 240 fps; 864,000 frames for 6 keys is not the clip's rate.
  EXPECT_FLOAT_EQ(app::EstimateFrameRate(model.clips[0]), 1.0f);
  app::BakePlan plan;
  std::string error;
  ASSERT_TRUE(app::PlanBake(app::Character(model), 0, &plan, &error)) << error;
  EXPECT_FLOAT_EQ(plan.fps, 1.0f);
  EXPECT_EQ(plan.frames, 3600);
  EXPECT_NE(plan.note.find("few keys over its 3600 s: baked at 1 fps"), std::string::npos)
      << plan.note;
  // A clip keyed evenly keeps its rate, however long: 24 fps over 10 s.
  assets::Clip even;
  even.duration = 10.0f;
  even.channels.resize(1);
  for (int k = 0; k <= 240; ++k) {
    even.channels[0].rotation.times.push_back(float(k) / 24.0f);
    even.channels[0].rotation.values.push_back(glm::quat(1, 0, 0, 0));
  }
  EXPECT_FLOAT_EQ(app::EstimateFrameRate(even), 24.0f);
}

TEST(Bake, TheKeyCapLowersTheRateOrRefusesNamingTheClip) {
  // 20 joints for 100,000 s: 2e6 keys at 1 fps fit; a million seconds do not.
  assets::Model model = UnevenClip(1e5f);
  model.clips[0].channels[0].rotation.times.back() = 1e5f;
  app::BakePlan plan;
  std::string error;
  ASSERT_TRUE(app::PlanBake(app::Character(model), 0, &plan, &error)) << error;
  EXPECT_LE(double(plan.frames + 1) * 20.0, double(app::kMaxBakeKeys));
  const assets::Model million = UnevenClip(1e6f);
  EXPECT_FALSE(app::PlanBake(app::Character(million), 0, &plan, &error));
  EXPECT_EQ(error,
            "cannot bake clip 0 'long': it runs 1e+06 s, and even at 1 frame per second its 20 "
            "joints need 2e+07 keys, more than the 1e+07 skelview bakes");
  // A dense clip over the cap is baked at a lower rate that fits, with a note saying so: a
  // 200-joint character keyed at 120 fps for 10 minutes.
  assets::Model dense = UnevenClip(600.0f, 200);
  for (assets::JointAnimation& channel : dense.clips[0].channels) {
    channel.rotation.times.clear();
    channel.rotation.values.clear();
    for (int k = 0; k <= 72000; k += 1) {
      channel.rotation.times.push_back(float(k) / 120.0f);
      channel.rotation.values.push_back(glm::quat(1, 0, 0, 0));
    }
  }
  ASSERT_TRUE(app::PlanBake(app::Character(dense), 0, &plan, &error)) << error;
  EXPECT_LT(plan.fps, 120.0f);
  EXPECT_GE(plan.fps, 1.0f);
  EXPECT_LE(double(plan.frames + 1) * 200.0, double(app::kMaxBakeKeys));
  EXPECT_NE(plan.note.find("instead of 120 fps"), std::string::npos) << plan.note;
}

TEST(Bake, ProgressIsReportedAndCancelStopsTheBakeAndTheExport) {
  const assets::Model& model = Builtin();
  const app::Character& character = BuiltinCharacter();
  const int walk = model.FindClip("Walk");
  std::vector<float> seen;
  assets::Clip baked;
  ASSERT_TRUE(app::BakeClip(
      character, walk, 30.0f, LiftedFeet(),
      [&](float f) {
        seen.push_back(f);
        return true;
      },
      &baked));
  ASSERT_GE(seen.size(), 2u);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.back(), 1.0f);
  // Cancelled half-way: nothing comes out, nothing is written.
  int calls = 0;
  assets::Clip untouched;
  untouched.name = "untouched";
  EXPECT_FALSE(app::BakeClip(
      character, walk, 30.0f, LiftedFeet(), [&](float) { return ++calls < 5; }, &untouched));
  EXPECT_EQ(untouched.name, "untouched");
  const std::string path = testpaths::TempDir() + "/cancelled.glb";
  std::filesystem::remove(path);
  std::string error;
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(character, app::ClipTime{walk, 0.0f}, LiftedFeet(), &frame, &state);
  EXPECT_FALSE(app::ExportEdited(character, state.pose, walk, LiftedFeet(), true, path, &error,
                                 [](float f) { return f < 0.5f; }));
  EXPECT_NE(error.find("cancelled; nothing written"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(Bake, TheWindowsBakeRunsOnAThreadAndCanBeCancelled) {
  // Long enough to be caught running: 200 joints, 2,000 frames.
  auto model = std::make_unique<assets::Model>(UnevenClip(2000.0f, 200));
  auto character = std::make_unique<app::Character>(*model);
  const ik::Pose rest = ik::Pose::Rest(model->skeleton);
  const std::string dir = testpaths::TempDir() + "/bake_export";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  app::BakeExport job;
  job.Start(*character, rest, 0, app::EditState(), dir + "/cancelled.glb");
  job.Cancel();
  bool ok = true;
  std::string error;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!job.Finished(&ok, &error) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_FALSE(ok);
  EXPECT_NE(error.find("cancelled"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(dir + "/cancelled.glb"));
  // Left to finish, it writes the file and says so once.
  job.Start(*character, rest, 0, app::EditState(), dir + "/written.glb");
  // The job works on its own copies: the model may be unloaded while it bakes.
  character.reset();
  model.reset();
  while (!job.Finished(&ok, &error) && std::chrono::steady_clock::now() < deadline) {
    EXPECT_GE(job.progress(), 0.0f);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(ok) << error;
  EXPECT_FALSE(job.Finished(&ok, &error));
  EXPECT_TRUE(std::filesystem::exists(dir + "/written.glb"));
}

TEST(Bake, AChainPinnedFarAwayBakesFiniteKeys) {
  const assets::Model& model = Builtin();
  const app::Character& character = BuiltinCharacter();
  const int walk = model.FindClip("Walk");
  for (const bool body : {true, false}) {  // the full-body solve, and the two-bone solver alone
    app::EditState edit = LiftedFeet();
    for (app::ChainSettings& c : edit.chains) {
      c.mode = app::TargetMode::kPinned;
      c.pinned = glm::vec3(3e38f, -3e38f, 3e38f);
      c.body_helps = body;
    }
    const assets::Clip baked = app::BakeClip(character, walk, 30.0f, edit);
    for (const assets::JointAnimation& channel : baked.channels) {
      for (const glm::vec3& t : channel.translation.values) ASSERT_TRUE(ik::IsFinite(t)) << body;
      for (const glm::quat& q : channel.rotation.values) ASSERT_TRUE(ik::IsFinite(q)) << body;
    }
    // And each frame as evaluated, before the bake's own guard.
    app::EditedFrame frame;
    app::PoseState state;
    app::EvaluateEditedFrame(character, app::ClipTime{walk, 0.5f}, edit, &frame, &state);
    for (const ik::Transform& t : state.pose.locals) ASSERT_TRUE(t.IsFinite()) << body;
  }
}

TEST(Bake, TheBakedClipFollowsKeyedTargets) {
  // `--ik RightFoot@0=... --ik RightFoot@1=...`, as the command line makes it an edit.
  const app::Character& character = BuiltinCharacter();
  const int walk = Builtin().FindClip("Walk");
  app::PoseArgs args;
  args.ik = {"RightFoot@0=-0.1,0.2,0.1", "RightFoot@1=-0.1,0.4,0.15"};
  app::ConstraintRequests requests;
  std::string error;
  ASSERT_TRUE(app::ParseConstraints(args, character, &requests, &error)) << error;
  const app::EditState edit = app::EditForRequests(character, requests);
  ASSERT_EQ(edit.chains.size(), 1u);
  ASSERT_EQ(edit.chains[0].target_keys.size(), 2u);
  assets::Model baked = Builtin();
  baked.clips = {app::BakeClip(character, walk, 30.0f, edit)};
  const app::Character baked_character(baked);
  const int foot = Builtin().skeleton.Find("RightFoot");
  app::PoseState replayed;
  float last_y = 0.0f;
  for (int f = 0; f <= 30; f += 5) {
    const float t = float(f) / 30.0f;
    app::EvaluatePose(baked_character, app::ClipTime{0, t}, app::ConstraintRequests{}, &replayed);
    const glm::vec3 at(replayed.models[size_t(foot)][3]);
    const glm::vec3 want = app::KeyedValue(edit.chains[0].target_keys, t, {});
    EXPECT_LT(glm::length(at - want), 1e-3f) << "at t=" << t;
    EXPECT_GT(at.y, last_y - 1e-4f);  // rising from key to key
    last_y = at.y;
  }
  EXPECT_NEAR(last_y, 0.4f, 1e-3f);
}

}  // namespace
