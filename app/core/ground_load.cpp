// A mesh ground read in the background: the import worker, then the triangles' grid on a thread.
#include "app/core/ground_load.h"

#include <utility>

#include "assets/files/text.h"

namespace app {

GroundLoad::~GroundLoad() { Cancel(); }

void GroundLoad::JoinGather() {
  if (gather_.joinable()) gather_.join();
  gathering_ = false;
}

void GroundLoad::Fail(const std::string& message) {
  state_ = State::kFailed;
  error_ = message;
  ground_ = Ground();
}

void GroundLoad::Start(const std::string& spec, ImportLimits limits) {
  Cancel();
  spec_ = spec;
  error_.clear();
  gather_error_.clear();
  ground_ = Ground();
  gathered_.store(false);
  limits.allow_outside_files = false;  // as ParseGroundSpec reads it
  limits.raw_units = false;
  limits.texture_pixels = false;  // only the triangles are used
  state_ = State::kRunning;
  if (!import_.Start(spec, limits)) Fail(import_.error());
}

GroundLoad::State GroundLoad::Poll() {
  if (state_ != State::kRunning) return state_;
  if (gathering_) {
    if (!gathered_.load()) return state_;
    JoinGather();
    if (gather_error_.empty()) {
      state_ = State::kDone;
    } else {
      Fail(assets::ShownPath(spec_) + ": " + gather_error_);
    }
    return state_;
  }
  const ImportProcess::State imported = import_.Poll(0);
  if (imported == ImportProcess::State::kRunning) return state_;
  if (imported != ImportProcess::State::kDone) {
    Fail(import_.error());  // names the file
    return state_;
  }
  // The model is turned into the ground away from the caller: a million triangles and their grid
  // take a while.
  gathering_ = true;
  gather_ = std::thread([this, model = import_.TakeModel()]() mutable {
    Ground ground;
    std::string why;
    if (GroundFromModel(model, spec_, &ground, &why)) {
      ground_ = std::move(ground);
    } else {
      gather_error_ = why.empty() ? std::string("unusable triangles") : why;
    }
    model = assets::Model();  // freed here, not on the caller's thread
    gathered_.store(true);
  });
  return state_;
}

void GroundLoad::Cancel() {
  if (state_ != State::kRunning) {
    JoinGather();
    return;
  }
  import_.Cancel();
  JoinGather();
  Fail(assets::ShownPath(spec_) + ": cancelled");
}

}  // namespace app
