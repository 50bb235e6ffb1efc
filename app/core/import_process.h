// Importing a model file in a child process, so that a file which crashes the importer library
// (or makes it allocate without bound, or hang) cannot take skelview down: the child is skelview
// itself run as `skelview import-worker [--allow-outside-files] -- FILE` (the file after "--", so
// that any name works, "-x.glb" and "--help" too), which loads the file and streams the Model back
// through a pipe (its size, then assets/files/model_io.h's bytes) while reporting progress on
// another. skelview reads the model on a thread of its own straight into the Model's arrays, so
// neither side ever holds a second, serialised copy of a large model. The worker dies with
// skelview: it is killed (SIGKILL) when the thread that started it ends, which for skelview is the
// main thread, so a skelview killed by any signal does not leave it running.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "assets/model/model.h"

namespace app {

class ImportServer;

struct ImportLimits {
  double timeout_seconds = 300.0;  // the worker is stopped after this long
  // Address-space limit of the worker (not applied under AddressSanitizer); 0 picks one from the
  // file's size: 2 GiB + 64 bytes per byte of file, at most 3/4 of the machine's memory — room
  // for any real model, but not for a 32-byte file that claims a billion vertices.
  size_t memory_bytes = 0;
  // The skelview executable to run as the worker; "" for this process's own executable.
  std::string worker_executable;
  // Passed on to the worker's LoadOptions (--allow-outside-files): may the model read buffers
  // and images outside its folder.
  bool allow_outside_files = false;
  // Passed on to the worker's LoadOptions (--raw-units): keep the file's own units and axes.
  bool raw_units = false;
  // Passed on to the worker's LoadOptions (--no-texture-pixels when false): textures checked, not
  // decoded.
  bool texture_pixels = true;
  // When set, the worker is forked by this server (app/core/import_server.h) instead of started
  // as a new process of worker_executable: for commands that import many files. Not owned; one
  // import at a time per server.
  ImportServer* server = nullptr;
};

// The address-space limit ImportLimits{}.memory_bytes = 0 stands for, for a file of this size.
size_t DefaultImportMemoryLimit(size_t file_bytes);

class ImportProcess {
 public:
  enum class State { kIdle, kRunning, kDone, kFailed };

  ImportProcess() = default;
  ~ImportProcess();  // kills a running worker
  ImportProcess(const ImportProcess&) = delete;
  ImportProcess& operator=(const ImportProcess&) = delete;

  // Starts importing `path` in a worker. False (and kFailed with the reason) when no process can
  // be started. The worker is bound to the calling thread's life (PR_SET_PDEATHSIG): call this
  // from a thread that outlives the import, such as the main thread.
  bool Start(const std::string& path, const ImportLimits& limits = {});
  // Reads what the worker has sent so far without blocking (or waiting up to `wait_ms`) and
  // updates the state. Returns the state.
  State Poll(int wait_ms = 0);
  // Stops a running import; the state becomes kFailed with "<path>: cancelled".
  void Cancel();

  State state() const { return state_; }
  const std::string& path() const { return path_; }
  float progress() const { return progress_; }  // 0..1, from the worker
  // kDone: the model (moved out by TakeModel). kFailed: one line naming the file and the reason.
  assets::Model TakeModel() { return std::move(model_); }
  const std::string& error() const { return error_; }

 private:
  void Finish(int status);
  void Fail(const std::string& message);
  void CloseAll();
  void ReadModel(uint64_t max_bytes);  // the reader thread
  int WaitWorker();                    // waits for the worker to end; its wait status
  void KillWorker();                   // kills the worker and waits for it

  ImportServer* server_ = nullptr;  // the server that forked the worker, if one did

  State state_ = State::kIdle;
  std::string path_;
  pid_t pid_ = -1;
  int out_fd_ = -1;  // the serialized model, read by reader_ straight into model_
  int err_fd_ = -1;  // progress lines and the worker's error message
  std::thread reader_;
  std::atomic<bool> reader_done_{false};
  std::mutex reader_mutex_;  // with reader_finished_: Poll waits for the reader without sleeping
  std::condition_variable reader_finished_;
  std::string model_error_;  // the reader's reason when the model did not come through
  std::string err_;
  float progress_ = 0.0f;
  assets::Model model_;
  std::string error_;
  std::chrono::steady_clock::time_point deadline_;
  double timeout_seconds_ = 0.0;
};

// Imports `path` in a worker and waits for it: the command line's loader. False with the reason
// (naming the file) when the file is bad, the importer crashed or ran out of time or memory.
bool ImportIsolated(const std::string& path, assets::Model* model, std::string* error,
                    const ImportLimits& limits = {});

// The worker side (`skelview import-worker [--allow-outside-files] [--raw-units]
// [--no-texture-pixels] -- FILE`): loads FILE in this
// process, writes progress lines to stderr and the serialized model to stdout. Returns the exit
// code (0, or 2 with the error on stderr). SKELVIEW_TEST_WORKER_CRASH=1 makes it crash and
// SKELVIEW_TEST_WORKER_HANG=1 makes it wait forever before loading (fault injection for tests).
int RunImportWorker(const std::string& path, bool allow_outside_files, bool raw_units,
                    bool texture_pixels = true);

}  // namespace app
