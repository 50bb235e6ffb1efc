// The input list of `skelview check` and batch `render`: files given and directories walked for
// the formats skelview reads, sorted; and the deterministic shard of it one process of a job
// array takes (GNU parallel, a Slurm array, a Kubernetes indexed Job).
#pragma once

#include <string>
#include <vector>

namespace app {

// Expands FILE|DIR arguments into one sorted list without repeats. A directory is walked
// recursively (symlinked directories are not entered, so a loop cannot recur) for regular files
// (or symlinks to them) whose extension the importer reads (assets::HasSupportedExtension), each
// named as the directory given joined with its path inside it ("models" + "a/b.glb" is
// "models/a/b.glb"). Anything else is kept as given, whatever its extension: a missing or
// unreadable file, or a directory that cannot be walked, then fails to load and is reported as a
// `load` finding rather than dropped. Sorted by byte value, so every process of an array that
// gets the same arguments sees the same list.
std::vector<std::string> CollectInputs(const std::vector<std::string>& arguments);

// Which part of the sorted input list a process takes: `index` of `count` (0 <= index < count).
struct Shard {
  int index = 0;
  int count = 1;
};

// --shard I/N (I from 0 to N-1), or --shard N with I from $SLURM_ARRAY_TASK_ID, else
// $JOB_COMPLETION_INDEX (`array_index` is that variable's value, null when neither is set).
// N is from 1 to 1,000,000. False with one line naming --shard (or the variable) and what is
// expected.
bool ParseShard(const std::string& text, const char* array_index, const char* array_variable,
                Shard* shard, std::string* error);

// The environment variable --shard N takes I from, and its value: SLURM_ARRAY_TASK_ID when set,
// else JOB_COMPLETION_INDEX; {nullptr, nullptr} when neither is set.
struct ArrayIndex {
  const char* variable = nullptr;
  const char* value = nullptr;
};
ArrayIndex ArrayIndexFromEnvironment();

// The shard's part of `sorted`: the contiguous block [index·n/count, (index+1)·n/count), so the
// parts cover the list exactly once and, concatenated in index order, are the list itself.
std::vector<std::string> ShardOf(const std::vector<std::string>& sorted, const Shard& shard);

}  // namespace app
