// Input lists: directory walks, sorting, shards.
#include "app/core/check_inputs.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "app/core/args.h"
#include "assets/formats.h"

namespace app {

namespace {

namespace fs = std::filesystem;

// Walks `dir` for model files into *out; false when the walk could not start or stopped early.
bool WalkDirectory(const std::string& dir, std::vector<std::string>* out) {
  std::error_code error;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, error);
  if (error) return false;
  for (const fs::recursive_directory_iterator end; it != end; it.increment(error)) {
    if (error) return false;
    std::error_code status_error;
    if (!it->is_regular_file(status_error)) continue;  // follows a symlink to a file
    const fs::path& path = it->path();
    if (!assets::HasSupportedExtension(path.filename().string())) continue;
    out->push_back(path.string());  // the directory as given, joined with the path inside it
  }
  return !error;
}

}  // namespace

std::vector<std::string> CollectInputs(const std::vector<std::string>& arguments) {
  std::vector<std::string> files;
  for (const std::string& argument : arguments) {
    std::error_code error;
    if (fs::is_directory(argument, error)) {
      std::vector<std::string> found;
      if (WalkDirectory(argument, &found)) {
        files.insert(files.end(), found.begin(), found.end());
      } else {
        files.push_back(argument);  // reported as a file that does not load
      }
    } else {
      files.push_back(argument);
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

bool ParseShard(const std::string& text, const char* array_index, const char* array_variable,
                Shard* shard, std::string* error) {
  constexpr long kMaxShards = 1000000;
  const size_t slash = text.find('/');
  long index = 0, count = 0;
  if (slash == std::string::npos) {
    if (!ParseWholeNumber("--shard", text, 1, kMaxShards, &count, error)) {
      *error = "--shard '" + text + "': expected I/N (I from 0 to N-1) or N";
      return false;
    }
    if (!array_index) {
      *error = "--shard " + text +
               ": takes the shard's index from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX, and "
               "neither is set (or give --shard I/N)";
      return false;
    }
    const std::string variable = array_variable ? array_variable : "the array index";
    if (!ParseWholeNumber(variable, array_index, 0, count - 1, &index, error)) {
      *error = variable + "='" + array_index + "': expected a whole number from 0 to " +
               std::to_string(count - 1) + " for --shard " + text;
      return false;
    }
  } else {
    const std::string i_text = text.substr(0, slash), n_text = text.substr(slash + 1);
    if (!ParseWholeNumber("--shard", n_text, 1, kMaxShards, &count, error) ||
        !ParseWholeNumber("--shard", i_text, 0, count - 1, &index, error)) {
      *error = "--shard '" + text + "': expected I/N with N from 1 to 1000000 and I from 0 to N-1";
      return false;
    }
  }
  shard->index = static_cast<int>(index);
  shard->count = static_cast<int>(count);
  return true;
}

ArrayIndex ArrayIndexFromEnvironment() {
  for (const char* variable : {"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}) {
    if (const char* value = std::getenv(variable)) return {variable, value};
  }
  return {};
}

std::vector<std::string> ShardOf(const std::vector<std::string>& sorted, const Shard& shard) {
  const size_t n = sorted.size();
  const size_t begin = n * static_cast<size_t>(shard.index) / static_cast<size_t>(shard.count);
  const size_t end = n * static_cast<size_t>(shard.index + 1) / static_cast<size_t>(shard.count);
  return std::vector<std::string>(sorted.begin() + static_cast<std::ptrdiff_t>(begin),
                                  sorted.begin() + static_cast<std::ptrdiff_t>(end));
}

}  // namespace app
