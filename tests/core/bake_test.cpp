// Baking the IK into a clip and exporting the edited pose or the baked clip.
#include "app/core/bake.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "assets/builtin_character.h"
#include "assets/importer.h"
#include "tests/test_paths.h"

namespace {

const assets::Model& Builtin() {
  static const assets::Model model = assets::MakeBuiltinCharacter();
  return model;
}

// The built-in character with its feet lifted 5 cm on the walk.
app::EditState LiftedFeet() {
  app::EditState edit;
  edit.chains = app::DefaultChains(Builtin());
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
  baked.clips = {app::BakeClip(model, walk, 30.0f, edit)};
  EXPECT_EQ(baked.clips[0].name, model.clips[walk].name + " (IK)");
  app::EditedFrame frame;
  app::PoseState evaluated, replayed;
  for (int f : {0, 7, 30}) {
    const float t = std::min(float(f) / 30.0f, model.clips[walk].duration);
    app::EvaluateEditedFrame(model, app::ClipTime{walk, t}, edit, &frame, &evaluated);
    app::EvaluatePose(baked, app::ClipTime{0, t}, std::vector<app::IkChainRequest>{}, &replayed);
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
  app::EvaluateEditedFrame(model, app::ClipTime{walk, 0.25f}, edit, &frame, &state);
  const std::string dir = testpaths::TempDir();
  std::string error;

  const std::string posed = dir + "/posed.glb";
  ASSERT_TRUE(app::ExportEdited(model, state.pose, walk, edit, false, posed, &error)) << error;
  assets::LoadResult pose_back = assets::LoadModel(posed);
  ASSERT_TRUE(pose_back.ok()) << pose_back.error;
  const int foot = model.skeleton.Find("LeftFoot");
  const glm::vec3 rest_foot(pose_back.model->skeleton.rest_models()[foot][3]);
  EXPECT_LT(glm::length(rest_foot - glm::vec3(state.models[foot][3])), 1e-4f);

  const std::string baked = dir + "/baked.glb";
  ASSERT_TRUE(app::ExportEdited(model, state.pose, walk, edit, true, baked, &error)) << error;
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
  ASSERT_TRUE(app::ExportEdited(model, state.pose, -1, edit, true, no_clip, &error)) << error;
  assets::LoadResult no_clip_back = assets::LoadModel(no_clip);
  ASSERT_TRUE(no_clip_back.ok()) << no_clip_back.error;
  EXPECT_TRUE(no_clip_back.model->clips.empty());
  EXPECT_TRUE(pose_back.model->clips.empty());
}

}  // namespace
