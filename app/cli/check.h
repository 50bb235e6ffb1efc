// `skelview check`: rig checks over many files in one process, each file imported by a worker of
// its own (forked by an import server per job, app/core/import_server.h), findings reported as
// text, JSON lines, SARIF 2.1.0 or JUnit XML. Sharding (--shard) lets GNU parallel, a Slurm job
// array or a Kubernetes indexed Job split one list of files between processes.
#pragma once

#include <string>
#include <vector>

namespace app {

struct CheckArgs {
  std::vector<std::string> inputs;  // FILE|DIR...
  std::string format = "text";      // text, jsonl, sarif, junit
  std::string output;               // -o; "" for standard output
  std::string shard;                // --shard I/N or N; "" for the whole list
  std::string config;               // --config FILE; "" for the defaults
  std::string jobs;                 // --jobs J; "" for one per CPU this process may use
  bool list_rules = false;
  bool allow_outside_files = false;
  bool raw_units = false;
};

// Exit codes: 0 no finding of error severity; 1 such findings (a file that does not load is one,
// `load`), or an output that cannot be written; 2 misuse (a bad option value, an unreadable or
// invalid config, no input), with one line on stderr.
// Text and JSON lines on standard output are written per file as soon as it and every file before
// it in the sorted list are done (so the output is the same whatever --jobs); -o writes the whole
// report to a temporary file renamed over OUT at the end.
int RunCheck(const CheckArgs& args);

}  // namespace app
