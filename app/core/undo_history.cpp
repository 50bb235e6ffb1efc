// Undo and redo of EditState snapshots.
#include "app/core/undo_history.h"

#include <utility>

namespace app {

void UndoHistory::Record(const EditState& before, const EditState& after) {
  if (before == after) return;
  undo_.push_back(before);
  if (undo_.size() > limit_) undo_.erase(undo_.begin());
  redo_.clear();
}

bool UndoHistory::Undo(EditState* current) {
  if (undo_.empty()) return false;
  redo_.push_back(*current);
  *current = std::move(undo_.back());
  undo_.pop_back();
  return true;
}

bool UndoHistory::Redo(EditState* current) {
  if (redo_.empty()) return false;
  undo_.push_back(*current);
  *current = std::move(redo_.back());
  redo_.pop_back();
  return true;
}

void UndoHistory::Clear() {
  undo_.clear();
  redo_.clear();
}

}  // namespace app
