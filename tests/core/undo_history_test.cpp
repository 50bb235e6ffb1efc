// Undo and redo of the user's edits: one step per completed edit, whether it was a drag, a held
// slider or a click, and never a step for an edit that was cancelled or changed nothing.
#include "app/core/undo_history.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

namespace {

TEST(UndoHistory, UndoRedoRestoreEachCompletedEdit) {
  app::UndoHistory history;
  app::EditState state;
  state.chains.resize(1);
  const app::EditState original = state;
  // Edit 1: a drag.
  app::EditState before = state;
  state.chains[0].offset = {0, 0.1f, 0};
  history.Record(before, state);
  const app::EditState after_drag = state;
  // Edit 2: a joint rotation.
  before = state;
  state.joint_rotations[3] = glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  history.Record(before, state);
  // An edit that changed nothing makes no step.
  history.Record(state, state);
  EXPECT_EQ(history.undo_count(), 2u);

  ASSERT_TRUE(history.Undo(&state));
  EXPECT_EQ(state, after_drag);
  ASSERT_TRUE(history.Undo(&state));
  EXPECT_EQ(state, original);
  EXPECT_FALSE(history.Undo(&state));
  ASSERT_TRUE(history.Redo(&state));
  EXPECT_EQ(state, after_drag);
  // A new edit after undo drops the redo list.
  before = state;
  state.chains[0].enabled = false;
  history.Record(before, state);
  EXPECT_EQ(history.redo_count(), 0u);
  EXPECT_FALSE(history.Redo(&state));
}

app::EditState TwoChains() {
  app::EditState state;
  state.chains.resize(2);
  return state;
}

TEST(EditRecorder, AHeldSliderIsOneStepBackToBeforeItWasGrabbed) {
  app::EditState edit = TwoChains();
  app::EditRecorder recorder;
  recorder.Reset(edit);
  const app::EditState original = edit;
  // A slider jumps to the clicked value on the frame it is grabbed, before the grab is reported.
  edit.chains[0].soft = 0.2f;
  recorder.Begin();
  edit.chains[0].soft = 0.3f;
  edit.chains[0].soft = 0.35f;
  recorder.End(edit);
  EXPECT_FALSE(recorder.running());
  EXPECT_EQ(recorder.committed(), edit);
  EXPECT_EQ(recorder.undo_count(), 1u);
  const app::EditState released = edit;
  ASSERT_TRUE(recorder.Undo(&edit));
  EXPECT_EQ(edit, original);
  ASSERT_TRUE(recorder.Redo(&edit));
  EXPECT_EQ(edit, released);
}

TEST(EditRecorder, EachClickIsOneStepAndAClickDuringADragJoinsTheDrag) {
  app::EditState edit = TwoChains();
  app::EditRecorder recorder;
  recorder.Reset(edit);
  edit.chains[0].enabled = false;
  recorder.Changed(edit);
  edit.chains[1].hinge = true;
  recorder.Changed(edit);
  EXPECT_EQ(recorder.undo_count(), 2u);
  recorder.Begin();
  edit.chains[0].offset = {0.0f, 0.1f, 0.0f};
  edit.chains[1].enabled = false;
  recorder.Changed(edit);  // part of the running drag
  EXPECT_EQ(recorder.undo_count(), 2u);
  recorder.End(edit);
  EXPECT_EQ(recorder.undo_count(), 3u);
  ASSERT_TRUE(recorder.Undo(&edit));
  EXPECT_TRUE(edit.chains[1].enabled);
  EXPECT_EQ(edit.chains[0].offset, glm::vec3(0.0f));
  EXPECT_TRUE(edit.chains[1].hinge);
}

TEST(EditRecorder, CancelPutsBackTheStateBeforeTheEditAndRecordsNothing) {
  app::EditState edit = TwoChains();
  app::EditRecorder recorder;
  recorder.Reset(edit);
  const app::EditState original = edit;
  EXPECT_FALSE(recorder.Cancel(&edit));  // nothing running
  recorder.Begin();
  edit.chains[0].pinned = {1.0f, 2.0f, 3.0f};
  ASSERT_TRUE(recorder.Cancel(&edit));
  EXPECT_EQ(edit, original);
  EXPECT_FALSE(recorder.running());
  recorder.End(edit);  // a release after Escape: nothing to record
  EXPECT_EQ(recorder.undo_count(), 0u);
}

TEST(EditRecorder, EditsThatChangeNothingMakeNoStep) {
  app::EditState edit = TwoChains();
  app::EditRecorder recorder;
  recorder.Reset(edit);
  recorder.Changed(edit);
  recorder.Begin();
  recorder.End(edit);
  EXPECT_EQ(recorder.undo_count(), 0u);
  EXPECT_FALSE(recorder.Undo(&edit));
}

TEST(EditRecorder, UndoneStateIsWhereTheNextEditStartsAndANewEditDropsRedo) {
  app::EditState edit = TwoChains();
  app::EditRecorder recorder;
  recorder.Reset(edit);
  edit.chains[0].weight = 0.5f;
  recorder.Changed(edit);
  ASSERT_TRUE(recorder.Undo(&edit));
  EXPECT_EQ(recorder.committed(), edit);
  EXPECT_EQ(recorder.redo_count(), 1u);
  edit.chains[1].weight = 0.25f;
  recorder.Changed(edit);
  EXPECT_EQ(recorder.redo_count(), 0u);
  ASSERT_TRUE(recorder.Undo(&edit));
  EXPECT_EQ(edit.chains[0].weight, 1.0f);
  EXPECT_EQ(edit.chains[1].weight, 1.0f);
}

TEST(EditRecorder, ResetStartsOverWithAnEmptyHistory) {
  app::EditState edit = TwoChains();
  app::EditRecorder recorder;
  recorder.Reset(edit);
  edit.chains[0].enabled = false;
  recorder.Changed(edit);
  recorder.Begin();
  app::EditState other;
  recorder.Reset(other);
  EXPECT_FALSE(recorder.running());
  EXPECT_EQ(recorder.undo_count(), 0u);
  EXPECT_EQ(recorder.committed(), other);
}

}  // namespace
