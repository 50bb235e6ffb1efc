// `skelview check`: the input list, the jobs that import and check files, and the report.
#include "app/cli/check.h"

#include <sched.h>
#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "app/cli/commands.h"
#include "app/core/check_inputs.h"
#include "app/core/check_report.h"
#include "app/core/import_server.h"
#include "app/core/pose_input.h"
#include "app/core/rig_checks.h"
#include "assets/files/file_output.h"

namespace app {

namespace {

int Misuse(const std::string& message) {
  std::cerr << "skelview: " << message << "\n";
  return kExitBadInput;
}

// The CPUs this process may run on (a Slurm or container CPU set counts), at least 1.
int AvailableCpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

bool ReadWholeFile(const std::string& path, std::string* text, std::string* error) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    *error = "--config " + path + ": cannot read it (" +
             (errno == ENOENT ? std::string("no such file") : std::string("not a regular file")) +
             ")";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in && !in.eof()) {
    *error = "--config " + path + ": cannot read it";
    return false;
  }
  *text = bytes.str();
  return true;
}

std::string RuleListing(const RuleConfig& config) {
  std::string out;
  const std::vector<RuleInfo>& rules = Rules();
  for (size_t i = 0; i < rules.size(); ++i) {
    char line[64];
    std::snprintf(line, sizeof(line), "%-29s %-8s ", rules[i].id, SeverityName(config.severity[i]));
    out += line + std::string(rules[i].description) + "\n";
  }
  return out;
}

// The report of one file: loaded in a worker (forked by `server` when it runs), then checked.
FileReport CheckFile(const std::string& path, const CheckArgs& args, const RuleConfig& config,
                     ImportServer* server) {
  FileReport report;
  report.file = path;
  assets::Model model;
  std::string error;
  if (path.empty()) {  // LoadModelOrBuiltin would make the built-in character
    report.findings = LoadFailureFindings("'': the file name is empty", config);
    return report;
  }
  if (!LoadModelOrBuiltin(path, args.allow_outside_files, args.raw_units, &model, &error,
                          server && server->running() ? server : nullptr,
                          /*texture_pixels=*/false)) {
    report.findings = LoadFailureFindings(error, config);
    return report;
  }
  report.loaded = true;
  report.findings = CheckModel(model, config);
  return report;
}

// Reports filled by the jobs in any order and taken by the writer in list order.
class ReportQueue {
 public:
  explicit ReportQueue(size_t count) : reports_(count), done_(count, false) {}

  void Put(size_t index, FileReport report) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      reports_[index] = std::move(report);
      done_[index] = true;
    }
    ready_.notify_all();
  }
  FileReport Take(size_t index) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return done_[index]; });
    return std::move(reports_[index]);
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<FileReport> reports_;
  std::vector<bool> done_;
};

}  // namespace

int RunCheck(const CheckArgs& args) {
  CheckFormat format = CheckFormat::kText;
  if (!ParseCheckFormat(args.format, &format)) {
    return Misuse("--format '" + args.format + "': expected text, jsonl, sarif or junit");
  }
  RuleConfig config;
  if (!args.config.empty()) {
    std::string text, error;
    if (!ReadWholeFile(args.config, &text, &error) ||
        !ParseRuleConfig(text, args.config, &config, &error)) {
      return Misuse(error);
    }
  }
  if (args.list_rules) {
    std::string error;
    if (WriteStandardOutput(RuleListing(config), &error)) return kExitOk;
    std::cerr << "skelview: " << error << "\n";
    return kExitFailure;
  }
  int jobs = AvailableCpus();
  if (!args.jobs.empty()) {
    long value = 0;
    std::string error;
    if (!ParseWholeNumber("--jobs", args.jobs, 1, 1024, &value, &error)) return Misuse(error);
    jobs = static_cast<int>(value);
  }
  Shard shard;
  if (!args.shard.empty()) {
    const ArrayIndex array = ArrayIndexFromEnvironment();
    std::string error;
    if (!ParseShard(args.shard, array.value, array.variable, &shard, &error)) return Misuse(error);
  }
  if (args.inputs.empty()) return Misuse("check needs at least one FILE or DIR");
  if (!args.output.empty()) {
    const std::filesystem::path folder = std::filesystem::path(args.output).parent_path();
    std::error_code error;
    if (!folder.empty() && !std::filesystem::is_directory(folder, error)) {
      return Misuse("-o " + args.output + ": the folder " + folder.string() + " does not exist");
    }
  }
  const std::vector<std::string> files = ShardOf(CollectInputs(args.inputs), shard);
  for (const std::string& file : files) {
    if (!args.output.empty() && assets::SameFile(args.output, file)) {
      return Misuse("-o " + args.output + ": that is the input " + file +
                    "; refusing to overwrite it");
    }
  }

  // The jobs: each takes the next file, imports it through its own server's worker and checks
  // it. A job whose server cannot start imports through a new worker process per file.
  ReportQueue queue(files.size());
  std::atomic<size_t> next{0};
  const bool in_process = [] {
    const char* inprocess = std::getenv("SKELVIEW_IMPORT_INPROCESS");
    return inprocess && *inprocess == '1';
  }();
  auto job = [&] {
    ImportServer server;
    std::string ignored;
    if (!in_process) server.Start("", &ignored);
    for (size_t i; (i = next.fetch_add(1)) < files.size();) {
      queue.Put(i, CheckFile(files[i], args, config, &server));
    }
  };
  std::vector<std::thread> threads;
  const size_t thread_count =
      std::min(static_cast<size_t>(jobs), std::max<size_t>(files.size(), 1));
  for (size_t t = 0; t < thread_count; ++t) threads.emplace_back(job);

  // The writer: reports in list order, streamed to standard output for text and JSON lines.
  const bool streaming =
      args.output.empty() && (format == CheckFormat::kText || format == CheckFormat::kJsonl);
  std::vector<FileReport> reports;
  FindingCounts counts;
  std::string report_text, write_error;
  for (size_t i = 0; i < files.size(); ++i) {
    FileReport report = queue.Take(i);
    counts.Add(report);
    std::string part;
    if (format == CheckFormat::kText) part = TextLines(report);
    if (format == CheckFormat::kJsonl) part = JsonLine(report);
    if (streaming) {
      if (write_error.empty() && !part.empty()) WriteStandardOutput(part, &write_error);
    } else {
      report_text += part;
    }
    if (format == CheckFormat::kSarif || format == CheckFormat::kJunit) {
      reports.push_back(std::move(report));
    }
  }
  for (std::thread& thread : threads) thread.join();

  std::string tail;
  if (format == CheckFormat::kText) tail = TextSummary(counts);
  if (format == CheckFormat::kSarif) tail = SarifLog(reports, config);
  if (format == CheckFormat::kJunit) tail = JunitXml(reports);
  if (streaming) {
    if (write_error.empty()) WriteStandardOutput(tail, &write_error);
  } else {
    report_text += tail;
    if (args.output.empty()) {
      WriteStandardOutput(report_text, &write_error);
    } else {
      assets::WriteFileAtomically(args.output, report_text.data(), report_text.size(),
                                  &write_error);
    }
  }
  if (!write_error.empty()) {
    std::cerr << "skelview: " << write_error << "\n";
    return kExitFailure;
  }
  return counts.errors > 0 ? kExitFailure : kExitOk;
}

}  // namespace app
