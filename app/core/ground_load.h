// Reading a mesh ground (a .glb or .gltf whose triangles are the ground, app/core/ground.h) off
// the caller's thread, for the window: the file is imported by the sandboxed import worker
// (ImportProcess, as File ▸ Open imports models), so a hostile file can crash, hang or exhaust only
// the worker, never the viewer; the model it sends back is turned into the ground (its rest-pose
// triangles and their grid, GroundFromModel) on a thread of its own. Poll from the thread that
// started it; nothing blocks it but Cancel (and the destructor) while the grid is being built.
#pragma once

#include <atomic>
#include <string>
#include <thread>

#include "app/core/ground.h"
#include "app/core/import_process.h"

namespace app {

class GroundLoad {
 public:
  enum class State { kRunning, kDone, kFailed };

  GroundLoad() = default;
  ~GroundLoad();  // cancels
  GroundLoad(const GroundLoad&) = delete;
  GroundLoad& operator=(const GroundLoad&) = delete;

  // Starts reading the mesh ground `spec` (a file's path) with the worker's limits (the file is
  // read as ParseGroundSpec reads it: no files outside its folder, its units converted, textures
  // not decoded). The state is kFailed at once when no worker can be started.
  void Start(const std::string& spec, ImportLimits limits = {});
  // Without blocking: how far it is. kDone: TakeGround; kFailed: error().
  State Poll();
  // Stops it; the state becomes kFailed with "<file>: cancelled".
  void Cancel();

  State state() const { return state_; }
  const std::string& spec() const { return spec_; }
  Ground TakeGround() { return std::move(ground_); }
  // kFailed: one line naming the file and the reason.
  const std::string& error() const { return error_; }

 private:
  void Fail(const std::string& message);
  void JoinGather();

  State state_ = State::kFailed;
  std::string spec_;
  ImportProcess import_;
  std::thread gather_;  // GroundFromModel on the imported model
  std::atomic<bool> gathered_{false};
  bool gathering_ = false;
  Ground ground_;
  std::string gather_error_;
  std::string error_;
};

}  // namespace app
