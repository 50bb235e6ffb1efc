// Undo and redo of EditState snapshots, and where their steps begin and end.
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

void EditRecorder::Reset(const EditState& state) {
  history_.Clear();
  committed_ = state;
  running_ = false;
}

void EditRecorder::Commit(const EditState& current) {
  history_.Record(committed_, current);
  committed_ = current;
}

void EditRecorder::End(const EditState& current) {
  if (!running_) return;
  running_ = false;
  Commit(current);
}

void EditRecorder::Changed(const EditState& current) {
  if (!running_) Commit(current);
}

bool EditRecorder::Cancel(EditState* current) {
  if (!running_) return false;
  running_ = false;
  *current = committed_;
  return true;
}

bool EditRecorder::Undo(EditState* current) {
  if (!history_.Undo(current)) return false;
  committed_ = *current;
  return true;
}

bool EditRecorder::Redo(EditState* current) {
  if (!history_.Redo(current)) return false;
  committed_ = *current;
  return true;
}

}  // namespace app
