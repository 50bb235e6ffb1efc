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

// Runs argv[0] (a path) with the given arguments and extra environment entries ("NAME=value").
Result Run(const std::vector<std::string>& argv, double timeout_seconds = 60.0,
           const std::vector<std::string>& env = {});

// Runs the skelview binary of this build with the given arguments.
Result Skelview(const std::vector<std::string>& args, double timeout_seconds = 60.0,
                const std::vector<std::string>& env = {});

}  // namespace testproc
