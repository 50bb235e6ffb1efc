// Undo and redo of the user's edits (EditState snapshots): one step per completed drag or panel
// edit. No window: the viewer tells it where edits begin and end.
#pragma once

#include <cstddef>
#include <vector>

#include "app/core/chain_edit.h"

namespace app {

// Undo/redo of EditState snapshots. The caller pushes the state as it was before each completed
// edit (one completed drag, one panel edit); Undo and Redo swap it with the current state.
class UndoHistory {
 public:
  explicit UndoHistory(size_t limit = 256) : limit_(limit) {}
  // Records `before` as the state to return to; clears the redo list. Ignored when `before`
  // equals `after` (an edit that changed nothing).
  void Record(const EditState& before, const EditState& after);
  bool Undo(EditState* current);
  bool Redo(EditState* current);
  void Clear();
  size_t undo_count() const { return undo_.size(); }
  size_t redo_count() const { return redo_.size(); }

 private:
  size_t limit_;
  std::vector<EditState> undo_, redo_;
};

// Where the viewer's undo steps begin and end. It keeps the state as of the last completed edit
// (what an undo returns to), so that nothing is copied on a frame where nothing was edited and
// none when an edit begins: a step is recorded only when an edit completes.
//   - a continuous edit (a handle drag, a slider held): Begin() when it starts, End() when it is
//     released; everything changed in between is one step;
//   - a discrete edit (a checkbox, a button): Changed() after it; one step, or part of the running
//     continuous edit when there is one;
//   - Cancel() puts the state back where the running edit began (Escape, a click with no drag).
// Invariant between frames: either an edit is running or the current state equals committed().
class EditRecorder {
 public:
  explicit EditRecorder(size_t limit = 256) : history_(limit) {}
  // Starts over from `state` with an empty history (a new model).
  void Reset(const EditState& state);
  void Begin() { running_ = true; }
  // Records one step from the state before Begin() to `current` (none when nothing changed).
  // Ignored when no edit is running.
  void End(const EditState& current);
  void Changed(const EditState& current);
  // Restores *current to the state before the running edit; false when none is running.
  bool Cancel(EditState* current);
  // Swap *current with the previous / next step; false when there is none.
  bool Undo(EditState* current);
  bool Redo(EditState* current);

  bool running() const { return running_; }
  const EditState& committed() const { return committed_; }
  size_t undo_count() const { return history_.undo_count(); }
  size_t redo_count() const { return history_.redo_count(); }

 private:
  void Commit(const EditState& current);

  UndoHistory history_;
  EditState committed_;
  bool running_ = false;
};

}  // namespace app
