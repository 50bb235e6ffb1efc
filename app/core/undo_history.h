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

}  // namespace app
