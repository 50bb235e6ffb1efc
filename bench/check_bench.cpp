// `skelview check` at scale, on the shared glTF files: one check process over all of them against
// one `skelview info` process per file (what a pipeline without check does), and the rig checks
// alone on a loaded model. Processes are timed on the wall clock (manual time); counters:
//   files_per_s         files done per second of wall time
//   cpu_ms_per_file     user + system time of the process and all its children, per file
//   files_per_cpu_s     files per second of one core's time (1000 / cpu_ms_per_file)
// Runs need the skelview binary of this build and the shared models (SKELVIEW_MODELS overrides).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "app/core/rig_checks.h"
#include "assets/importer.h"

extern char** environ;

namespace {

std::string SharedModels() {
  const char* env = std::getenv("SKELVIEW_MODELS");
  return env && *env ? env : SKELVIEW_SHARED_MODELS;
}

// Every .gltf and .glb under the shared models, sorted.
const std::vector<std::string>& GltfFiles() {
  static const std::vector<std::string> files = [] {
    std::vector<std::string> out;
    std::error_code error;
    for (auto it = std::filesystem::recursive_directory_iterator(SharedModels(), error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      const std::string ext = it->path().extension().string();
      if (ext == ".gltf" || ext == ".glb") out.push_back(it->path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }();
  return files;
}

double ChildrenCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// Runs skelview with `args`, its output discarded; false when it did not exit with 0 or 1.
bool RunSkelview(const std::vector<std::string>& args) {
  std::vector<std::string> all = {SKELVIEW_BINARY};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return false;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) <= 1;
}

// Times `run` (which processes `files` files) per iteration and sets the counters.
template <typename Run>
void TimeProcesses(benchmark::State& state, size_t files, Run run) {
  if (files == 0) {
    state.SkipWithError(("no glTF files under " + SharedModels()).c_str());
    return;
  }
  double cpu = 0.0, wall = 0.0;
  for (auto _ : state) {
    const double cpu_before = ChildrenCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    if (!run()) {
      state.SkipWithError("skelview failed");
      return;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(seconds);
    wall += seconds;
    cpu += ChildrenCpuSeconds() - cpu_before;
  }
  const double done = double(files) * double(state.iterations());
  state.counters["files"] = double(files);
  state.counters["files_per_s"] = done / wall;
  state.counters["cpu_ms_per_file"] = 1000.0 * cpu / done;
  state.counters["files_per_cpu_s"] = done / cpu;
}

// One `skelview check` process over every shared glTF file, with J jobs.
void BM_CheckOneProcess(benchmark::State& state) {
  const std::vector<std::string>& files = GltfFiles();
  std::vector<std::string> args = {"check", "--format", "jsonl", "--jobs",
                                   std::to_string(state.range(0))};
  args.insert(args.end(), files.begin(), files.end());
  TimeProcesses(state, files.size(), [&] { return RunSkelview(args); });
}
BENCHMARK(BM_CheckOneProcess)
    ->ArgName("jobs")
    ->Arg(1)
    ->Arg(2)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// One `skelview info` process per shared glTF file, one after the other.
void BM_InfoProcessPerFile(benchmark::State& state) {
  const std::vector<std::string>& files = GltfFiles();
  TimeProcesses(state, files.size(), [&] {
    for (const std::string& file : files) {
      if (!RunSkelview({"info", file})) return false;
    }
    return true;
  });
}
BENCHMARK(BM_InfoProcessPerFile)->UseManualTime()->Unit(benchmark::kMillisecond);

// The rig checks alone on each loaded shared glTF model (no import, no process).
void BM_CheckModelsInProcess(benchmark::State& state) {
  std::vector<assets::Model> models;
  for (const std::string& file : GltfFiles()) {
    assets::LoadResult result = assets::LoadModel(file);
    if (result.ok()) models.push_back(std::move(*result.model));
  }
  if (models.empty()) {
    state.SkipWithError(("no glTF files under " + SharedModels()).c_str());
    return;
  }
  const app::RuleConfig config;
  size_t findings = 0;
  for (auto _ : state) {
    for (const assets::Model& model : models) findings += app::CheckModel(model, config).size();
  }
  benchmark::DoNotOptimize(findings);
  state.counters["models_per_s"] = benchmark::Counter(
      double(models.size()) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CheckModelsInProcess)->Unit(benchmark::kMillisecond);

}  // namespace
