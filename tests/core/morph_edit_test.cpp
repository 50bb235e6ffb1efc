// Blend-shape weights set by hand in the editor (EditState::morph_weights): they replace the
// clip's or default weight in the evaluated frame, and they are undoable like every other edit.
#include <gtest/gtest.h>

#include "app/core/bake.h"
#include "app/core/chain_edit.h"
#include "app/core/undo_history.h"
#include "assets/builtin/builtin_character.h"

namespace app {
namespace {

// The built-in character with two targets on its first mesh, defaults 0.72 and 0.28, and a clip
// keying the second from 0 to 1 over the walk's duration.
assets::Model CharacterWithTargets() {
  assets::Model model = assets::MakeBuiltinCharacter();
  assets::Mesh& mesh = model.meshes[0];
  for (const char* name : {"Smile", "Blink"}) {
    assets::MorphTarget target;
    target.name = name;
    target.positions.assign(mesh.positions.size(), glm::vec3(0.0f, 0.01f, 0.0f));
    mesh.targets.push_back(target);
  }
  mesh.target_weights = {0.72f, 0.28f};
  assets::MorphAnimation channel;
  channel.mesh = 0;
  channel.width = 2;
  channel.times = {0.0f, model.clips[0].duration};
  channel.values = {0.72f, 0.0f, 0.72f, 1.0f};
  model.clips[0].morph_channels.push_back(channel);
  return model;
}

TEST(MorphEdit, HandSetWeightsReplaceTheClipsInTheFrame) {
  const assets::Model model = CharacterWithTargets();
  const Character character(model);
  EditState edit;
  EditedFrame frame;
  PoseState state;
  const ClipTime half{0, 0.5f * model.clips[0].duration};
  EvaluateEditedFrame(character, half, edit, &frame, &state);
  ASSERT_EQ(state.morph_weights.size(), model.meshes.size());
  EXPECT_NEAR(state.morph_weights[0][1], 0.5f, 1e-5f);  // the clip's key, half way
  edit.morph_weights[{0, 1}] = 0.1f;
  EvaluateEditedFrame(character, half, edit, &frame, &state);
  EXPECT_FLOAT_EQ(state.morph_weights[0][1], 0.1f);
  EXPECT_FLOAT_EQ(state.morph_weights[0][0], 0.72f);
  EvaluateEditedFrame(character, ClipTime{}, edit, &frame,
                      &state);  // rest: defaults, then the edit
  EXPECT_FLOAT_EQ(state.morph_weights[0][0], 0.72f);
  EXPECT_FLOAT_EQ(state.morph_weights[0][1], 0.1f);
}

TEST(MorphEdit, HandSetWeightsAreUndoable) {
  EditState edit;
  EditRecorder recorder;
  recorder.Reset(edit);
  recorder.Begin();
  edit.morph_weights[{0, 1}] = 0.3f;
  recorder.End(edit);
  EXPECT_EQ(recorder.undo_count(), 1u);
  ASSERT_TRUE(recorder.Undo(&edit));
  EXPECT_TRUE(edit.morph_weights.empty());
  ASSERT_TRUE(recorder.Redo(&edit));
  EXPECT_FLOAT_EQ(edit.morph_weights.at({0, 1}), 0.3f);
}

TEST(MorphEdit, ModelsWithoutTargetsGetNoWeights) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const Character character(model);
  EditState edit;
  EditedFrame frame;
  PoseState state;
  EvaluateEditedFrame(character, ClipTime{0, 0.3f}, edit, &frame, &state);
  EXPECT_TRUE(state.morph_weights.empty());
}

}  // namespace
TEST(MorphEdit, ABakedClipKeepsTheClipsBlendShapeKeys) {
  const assets::Model model = CharacterWithTargets();
  const Character character(model);
  const assets::Clip baked = BakeClip(character, 0, 30.0f, EditState());
  ASSERT_EQ(baked.morph_channels.size(), 1u);
  EXPECT_EQ(baked.morph_channels[0].values, model.clips[0].morph_channels[0].values);
  EXPECT_EQ(baked.morph_channels[0].times, model.clips[0].morph_channels[0].times);
}

}  // namespace app
