// The import worker process and its supervisor.
#include "app/core/import_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "app/core/import_server.h"
#include "app/core/sandbox.h"
#include "assets/files/model_io.h"
#include "assets/files/text.h"
#include "assets/importer.h"

namespace app {

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;  // ASan reserves terabytes of address space
#else
constexpr bool kAddressSanitizer = false;
#endif

std::string SelfExecutable() {
  char buffer[4096];
  const ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0) return {};
  return std::string(buffer, static_cast<size_t>(n));
}

const char* SignalName(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGKILL:
      return "SIGKILL";
    default:
      return "a signal";
  }
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Blocking reads of exact sizes from a pipe: small reads through a 64 KiB buffer, large ones
// straight into the destination (the model's arrays).
class PipeReader {
 public:
  explicit PipeReader(int fd) : fd_(fd), buffer_(size_t{1} << 16) {}

  bool Read(void* out, size_t size) {
    auto* dst = static_cast<char*>(out);
    const size_t buffered = std::min(size, end_ - begin_);
    std::memcpy(dst, buffer_.data() + begin_, buffered);
    begin_ += buffered;
    dst += buffered;
    size -= buffered;
    if (size >= buffer_.size()) return ReadFully(dst, size);
    while (size > 0) {
      const ssize_t n = ReadSome(buffer_.data(), buffer_.size());
      if (n <= 0) return false;
      begin_ = 0;
      end_ = static_cast<size_t>(n);
      const size_t take = std::min(size, end_);
      std::memcpy(dst, buffer_.data(), take);
      begin_ = take;
      dst += take;
      size -= take;
    }
    return true;
  }

 private:
  ssize_t ReadSome(char* out, size_t size) {
    while (true) {
      const ssize_t n = read(fd_, out, size);
      if (n < 0 && errno == EINTR) continue;
      return n;
    }
  }
  bool ReadFully(char* out, size_t size) {
    while (size > 0) {
      const ssize_t n = ReadSome(out, size);
      if (n <= 0) return false;
      out += n;
      size -= static_cast<size_t>(n);
    }
    return true;
  }

  int fd_;
  std::vector<char> buffer_;
  size_t begin_ = 0, end_ = 0;
};

// Tries to write `path` (and to create `path`.d), open a network socket, start a process and
// signal the parent; one word each: "denied (reason)" or "ALLOWED".
std::string ProbeSandbox(const std::string& path) {
  auto outcome = [](bool allowed, int error) {
    return allowed ? std::string("ALLOWED") : "denied (" + std::string(std::strerror(error)) + ")";
  };
  std::string report;
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  report += "write " + outcome(fd >= 0, errno);
  if (fd >= 0) close(fd);
  report += ", mkdir " + outcome(mkdir((path + ".d").c_str(), 0755) == 0, errno);
  fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  report += ", socket " + outcome(fd >= 0, errno);
  if (fd >= 0) close(fd);
  const pid_t child = fork();
  if (child == 0) _exit(0);
  report += ", fork " + outcome(child > 0, errno);
  if (child > 0) waitpid(child, nullptr, 0);
  char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
  execv(argv[0], argv);  // returns only when refused
  report += ", exec " + outcome(false, errno);
  report += ", signal " + outcome(kill(getppid(), 0) == 0, errno);
  return report;
}

}  // namespace

size_t DefaultImportMemoryLimit(size_t file_bytes) {
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  const double physical = pages > 0 && page_size > 0 ? double(pages) * double(page_size) : 8e9;
  const double wanted = double(size_t(2) << 30) + 64.0 * double(file_bytes);
  return static_cast<size_t>(std::min(wanted, physical * 0.75));
}

ImportProcess::~ImportProcess() {
  if (state_ == State::kRunning) Cancel();
  CloseAll();
}

void ImportProcess::CloseAll() {
  // The reader owns the model pipe; it ends once the worker is gone (end of stream).
  if (reader_.joinable()) reader_.join();
  if (out_fd_ >= 0) close(out_fd_);
  if (err_fd_ >= 0) close(err_fd_);
  out_fd_ = err_fd_ = -1;
}

void ImportProcess::ReadModel(uint64_t max_bytes) {
  // On the reader thread: the size, then the model read straight into its arrays.
  PipeReader pipe(out_fd_);
  uint64_t size = 0;
  std::string error;
  assets::Model model;
  if (!pipe.Read(&size, sizeof(size))) {
    error = "the import worker sent no model";
  } else if (size > max_bytes) {
    error = "the import worker announced " + std::to_string(size) + " bytes of model, more than " +
            std::to_string(max_bytes);
  } else if (!assets::DeserializeModelFrom(
                 [&pipe](void* data, size_t bytes) { return pipe.Read(data, bytes); }, size, &model,
                 &error)) {
    error = "the import worker sent an unreadable model: " + error;
  } else {
    // Anything after the model is a fault of the worker too.
    char extra = 0;
    if (pipe.Read(&extra, 1)) error = "the import worker sent bytes after the model";
  }
  if (error.empty()) {
    model_ = std::move(model);
  } else {
    model_error_ = error;
    // Drain what the worker still sends, so that it is not left blocked on a full pipe.
    char sink[1 << 16];
    for (ssize_t n; (n = read(out_fd_, sink, sizeof(sink))) != 0;) {
      if (n < 0 && errno != EINTR) break;
    }
  }
  {
    std::lock_guard<std::mutex> lock(reader_mutex_);
    reader_done_.store(true);
  }
  reader_finished_.notify_all();
}

void ImportProcess::Fail(const std::string& message) {
  state_ = State::kFailed;
  error_ = message;
  CloseAll();
}

bool ImportProcess::Start(const std::string& path, const ImportLimits& limits) {
  if (state_ == State::kRunning) Cancel();
  CloseAll();
  state_ = State::kIdle;
  err_.clear();
  model_error_.clear();
  reader_done_.store(false);
  progress_ = 0.0f;
  model_ = assets::Model();
  error_.clear();
  path_ = path;
  const std::string exe =
      limits.worker_executable.empty() ? SelfExecutable() : limits.worker_executable;
  int out_pipe[2], err_pipe[2];
  if (exe.empty() || pipe2(out_pipe, O_CLOEXEC) != 0) {
    Fail(assets::ShownPath(path) + ": cannot start the import worker: " + std::strerror(errno));
    return false;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    Fail(assets::ShownPath(path) + ": cannot start the import worker: " + std::strerror(errno));
    return false;
  }
  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
  // The file comes after "--": a name starting with '-' is still a file, never an option.
  std::vector<std::string> args = {exe, "import-worker"};
  if (limits.allow_outside_files) args.push_back("--allow-outside-files");
  if (limits.raw_units) args.push_back("--raw-units");
  if (!limits.texture_pixels) args.push_back("--no-texture-pixels");
  args.insert(args.end(), {"--", path});
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  struct stat file_stat {};
  const size_t file_bytes = stat(path.c_str(), &file_stat) == 0 ? size_t(file_stat.st_size) : 0;
  const size_t memory_limit =
      limits.memory_bytes > 0 ? limits.memory_bytes : DefaultImportMemoryLimit(file_bytes);
  rlimit memory{memory_limit, memory_limit};
  const pid_t parent = getpid();
  // With a server the worker is forked there (no start-up of the program per file); never 0.
  server_ = limits.server;
  std::string server_error;
  const pid_t pid = server_ ? server_->Spawn(path, limits.allow_outside_files, limits.raw_units,
                                             limits.texture_pixels, memory_limit, out_pipe[1],
                                             err_pipe[1], &server_error)
                            : fork();
  if (pid < 0) {
    const std::string why =
        server_ ? server_error
                : std::string("cannot start the import worker: ") + std::strerror(errno);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    server_ = nullptr;
    Fail(assets::ShownPath(path) + ": " + why);
    return false;
  }
  if (pid == 0) {
    // Die with skelview. The parent may already be gone by the time the request is made (then
    // the signal never comes): check it after.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    // The worker holds nothing but its pipes: no terminal to write to, no descriptor of
    // skelview's (a window system's socket) that its sandbox would not see.
    const int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0) dup2(null, STDIN_FILENO);
#ifdef SYS_close_range
    syscall(SYS_close_range, 3u, ~0u, 0u);
#endif
    if (!kAddressSanitizer) setrlimit(RLIMIT_AS, &memory);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  pid_ = pid;
  out_fd_ = out_pipe[0];
  err_fd_ = err_pipe[0];
  fcntl(err_fd_, F_SETFL, O_NONBLOCK);
  // The model can be no larger than what the worker was allowed to allocate.
  reader_ = std::thread(&ImportProcess::ReadModel, this, uint64_t{memory_limit});
  timeout_seconds_ = limits.timeout_seconds;
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(limits.timeout_seconds));
  state_ = State::kRunning;
  return true;
}

ImportProcess::State ImportProcess::Poll(int wait_ms) {
  if (state_ != State::kRunning) return state_;
  if (err_fd_ >= 0) {
    pollfd p{err_fd_, POLLIN, 0};
    if (poll(&p, 1, wait_ms) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
      char buffer[4096];
      while (true) {
        const ssize_t n = read(err_fd_, buffer, sizeof(buffer));
        if (n > 0) {
          err_.append(buffer, static_cast<size_t>(n));
          continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
          close(err_fd_);
          err_fd_ = -1;
        }
        break;
      }
    }
  } else if (wait_ms > 0 && !reader_done_.load()) {
    std::unique_lock<std::mutex> lock(reader_mutex_);
    reader_finished_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                              [this] { return reader_done_.load(); });
  }
  // Progress lines: "progress 0.42".
  size_t line_start = 0;
  for (size_t nl; (nl = err_.find('\n', line_start)) != std::string::npos; line_start = nl + 1) {
    if (err_.compare(line_start, 9, "progress ") == 0) {
      const float p = std::strtof(err_.c_str() + line_start + 9, nullptr);
      if (std::isfinite(p)) progress_ = std::max(progress_, std::min(p, 1.0f));
    }
  }
  if (err_fd_ < 0 && reader_done_.load()) {
    Finish(WaitWorker());
  } else if (std::chrono::steady_clock::now() > deadline_) {
    KillWorker();
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%.0f", timeout_seconds_);
    Fail("the importer took longer than " + std::string(seconds) + " s on " +
         assets::ShownPath(path_) + "; stopped it");
  }
  return state_;
}

void ImportProcess::Finish(int status) {
  CloseAll();
  // The worker's last "error ..." line, if any.
  std::string message;
  size_t line_start = 0;
  while (line_start < err_.size()) {
    size_t nl = err_.find('\n', line_start);
    if (nl == std::string::npos) nl = err_.size();
    if (err_.compare(line_start, 6, "error ") == 0) {
      message = err_.substr(line_start + 6, nl - line_start - 6);
    }
    line_start = nl + 1;
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const bool out_of_memory = sig == SIGKILL || err_.find("std::bad_alloc") != std::string::npos;
    Fail(out_of_memory ? "the importer ran out of memory on " + assets::ShownPath(path_)
                       : "the importer crashed on " + assets::ShownPath(path_) + " (" +
                             SignalName(sig) + ")");
    return;
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code != 0) {
    if (!message.empty()) {
      Fail(message);
    } else if (err_.find("bad_alloc") != std::string::npos) {
      Fail("the importer ran out of memory on " + assets::ShownPath(path_));
    } else {
      Fail("the importer crashed on " + assets::ShownPath(path_) + " (exit code " +
           std::to_string(code) + ")");
    }
    return;
  }
  if (!model_error_.empty()) {
    Fail(assets::ShownPath(path_) + ": " + model_error_);
    return;
  }
  // The worker's own warnings ("warning ..." lines: it ran without its sandbox) join the model's.
  for (size_t at = 0; at < err_.size();) {
    size_t nl = err_.find('\n', at);
    if (nl == std::string::npos) nl = err_.size();
    if (err_.compare(at, 8, "warning ") == 0) {
      model_.warnings.push_back(assets::ValidUtf8(err_.substr(at + 8, nl - at - 8)));
    }
    at = nl + 1;
  }
  progress_ = 1.0f;
  state_ = State::kDone;
}

void ImportProcess::Cancel() {
  if (state_ != State::kRunning) return;
  if (pid_ > 0) KillWorker();
  Fail(assets::ShownPath(path_) + ": cancelled");
}

int ImportProcess::WaitWorker() {
  int status = 0;
  if (server_) {
    server_->Wait(&status);
  } else {
    waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  server_ = nullptr;
  return status;
}

void ImportProcess::KillWorker() {
  if (server_) {
    server_->Kill();
  } else {
    kill(pid_, SIGKILL);
  }
  WaitWorker();
}

bool ImportIsolated(const std::string& path, assets::Model* model, std::string* error,
                    const ImportLimits& limits) {
  ImportProcess import;
  if (!import.Start(path, limits)) {
    *error = import.error();
    return false;
  }
  while (import.Poll(200) == ImportProcess::State::kRunning) {
  }
  if (import.state() != ImportProcess::State::kDone) {
    *error = import.error();
    return false;
  }
  *model = import.TakeModel();
  return true;
}

int RunImportWorker(const std::string& path, bool allow_outside_files, bool raw_units,
                    bool texture_pixels) {
  // Fault injection for the tests of the isolation itself.
  if (const char* crash = std::getenv("SKELVIEW_TEST_WORKER_CRASH"); crash && *crash == '1') {
    raise(SIGSEGV);
  }
  if (const char* hang = std::getenv("SKELVIEW_TEST_WORKER_HANG"); hang && *hang == '1') {
    std::fprintf(stderr, "progress 0.000\n");  // tells a test the worker is running
    std::fflush(stderr);
    while (true) pause();
  }
  // From here on the worker reads files and writes to its pipes, nothing else (sandbox.h).
  const SandboxStatus sandbox = EnterImportSandbox();
  if (!sandbox.seccomp) {
    std::fprintf(stderr, "warning the import worker runs without its sandbox (%s)\n",
                 sandbox.why_not.c_str());
  }
  if (const char* probe = std::getenv("SKELVIEW_TEST_WORKER_ESCAPE"); probe && *probe) {
    // Fault injection for the sandbox's tests: tries what a corrupted worker might, and says what
    // the system let it do.
    std::fprintf(stderr, "error sandbox probe: %s\n", ProbeSandbox(probe).c_str());
    return 2;
  }
  assets::LoadOptions options;
  options.allow_outside_files = allow_outside_files;
  options.raw_units = raw_units;
  options.texture_pixels = texture_pixels;
  float last = -1.0f;
  options.progress = [&last](float fraction) {
    if (fraction - last < 0.01f && fraction < 1.0f) return;  // at most ~100 lines
    last = fraction;
    std::fprintf(stderr, "progress %.3f\n", static_cast<double>(fraction));
    std::fflush(stderr);
  };
  assets::LoadResult result = assets::LoadModel(path, options);
  if (!result.ok()) {
    // One line whatever the file is called: the parent takes the last "error " line.
    std::fprintf(stderr, "error %s\n", assets::MessageLine(result.error).c_str());
    return 2;
  }
  // The size first, then the model streamed from its arrays: no second copy of it in memory.
  const uint64_t size = assets::SerializedModelSize(*result.model);
  const bool sent = WriteAll(STDOUT_FILENO, reinterpret_cast<const char*>(&size), sizeof(size)) &&
                    assets::SerializeModelTo(*result.model, [](const void* data, size_t bytes) {
                      return WriteAll(STDOUT_FILENO, static_cast<const char*>(data), bytes);
                    });
  if (!sent) {
    std::fprintf(stderr, "error %s: cannot send the model to skelview\n",
                 assets::ShownPath(path).c_str());
    return 2;
  }
  return 0;
}

}  // namespace app
