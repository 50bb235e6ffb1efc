// A fork server for import workers, for commands that import many files (`check`, `render DIR`):
// one process, `skelview import-server`, started once, forks a fresh worker per file (running
// RunImportWorker, as a worker started by ImportProcess does), so each file still gets a process
// of its own — a crash, a runaway allocation or a hang takes only that file — without paying for
// starting the program (exec, dynamic linking, library set-up) per file. The server is single
// threaded (fork is safe there), does nothing but fork and report, and dies with the thread that
// started it (PR_SET_PDEATHSIG) or when that side closes its end; its workers die with it.
//
// One worker at a time per server: Spawn, then Wait (or Kill, then Wait). Use one server per
// thread for parallel imports. ImportLimits::server hands it to ImportProcess.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

namespace app {

class ImportServer {
 public:
  ImportServer() = default;
  ~ImportServer();  // stops the server (and a worker still running)
  ImportServer(const ImportServer&) = delete;
  ImportServer& operator=(const ImportServer&) = delete;

  // Starts `executable import-server` ("" for this program). Bound to the calling thread's life.
  // False with the reason in *error.
  bool Start(const std::string& executable, std::string* error);
  bool running() const { return socket_ >= 0; }

  // Forks a worker for `path` with the given load options and address-space limit (bytes; not
  // applied under AddressSanitizer), its standard output and error going to `out_fd` and
  // `err_fd` (the caller keeps and closes its own copies). The worker's pid, or -1 with the reason
  // in *error (the server gone, fork failed).
  pid_t Spawn(const std::string& path, bool allow_outside_files, bool raw_units,
              bool texture_pixels, size_t memory_bytes, int out_fd, int err_fd, std::string* error);
  // Waits until the worker has ended and gives its wait status (as waitpid's). False when the
  // server is gone; *status then reads as killed by SIGKILL.
  bool Wait(int* status);
  // Kills the running worker (SIGKILL); Wait then reports it.
  void Kill();

 private:
  void Stop();

  int socket_ = -1;
  pid_t server_pid_ = -1;
  bool worker_running_ = false;
};

// The server side (`skelview import-server`, its socket on standard input): returns when the
// other side closes it. Returns the exit code.
int RunImportServer();

}  // namespace app
