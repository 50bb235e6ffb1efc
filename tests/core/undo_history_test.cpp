// Undo and redo of the user's edits: one step per completed edit.
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

}  // namespace
