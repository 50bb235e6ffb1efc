// Runs a program the way a user's shell would, for end-to-end tests: captures stdout and stderr,
// enforces a timeout, and reports how it ended (exit code, signal, timeout).
#pragma once

#include <string>
#include <vector>

namespace testproc {

struct Result {
  int exit_code = -1;  // valid when exited
  bool exited = false;
  int signal = 0;  // non-zero when killed by a signal
  bool timed_out = false;
  std::string out;
  std::string err;
};

// The environment a child gets: this process's, with the `extra` entries ("NAME=value") replacing
// those of the same name, and XDG_CONFIG_HOME pointed at ChildConfigDir() unless `extra` sets it,
// so that a viewer run by a test keeps its recent files and settings out of the user's.
std::vector<std::string> ChildEnvironment(const std::vector<std::string>& extra);
// This test process's private config directory for its children (under testpaths::TempDir()).
std::string ChildConfigDir();

// Runs argv[0] (a path) with the given arguments in ChildEnvironment(env).
Result Run(const std::vector<std::string>& argv, double timeout_seconds = 60.0,
           const std::vector<std::string>& env = {});

// Runs the skelview binary of this build with the given arguments.
Result Skelview(const std::vector<std::string>& args, double timeout_seconds = 60.0,
                const std::vector<std::string>& env = {});

// Starts argv[0] without waiting for it, its output going to /dev/null; returns its pid (-1 when
// it cannot be started). The caller reaps it (waitpid).
int Spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});

// The pids of the processes whose parent is `pid` (from /proc), waiting up to `timeout_seconds`
// for there to be at least one.
std::vector<int> WaitForChildren(int pid, double timeout_seconds);

// Waits up to `timeout_seconds` for process `pid` (not a child of the caller) to be gone (or a
// zombie: dead, not yet reaped by its new parent); true when it is.
bool WaitUntilGone(int pid, double timeout_seconds);

}  // namespace testproc
