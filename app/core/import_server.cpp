// The import fork server and its client. Messages go over a SOCK_SEQPACKET socket pair (each
// send one message; the end closing reads as end of stream): the client sends a spawn request
// with the worker's two pipe ends attached (SCM_RIGHTS) or a kill request; the server answers a
// spawn with the worker's pid (or errno) and later with its wait status.
#include "app/core/import_server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "app/core/import_process.h"

extern char** environ;

namespace app {

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;  // ASan reserves terabytes of address space
#else
constexpr bool kAddressSanitizer = false;
#endif

constexpr uint32_t kSpawn = 1, kKill = 2;                                   // requests
constexpr uint32_t kStarted = 1, kEnded = 2, kFailed = 3;                   // answers
constexpr uint32_t kAllowOutside = 1, kRawUnits = 2, kNoTexturePixels = 4;  // spawn flags

struct Request {
  uint32_t type = 0;
  uint32_t flags = 0;
  uint64_t memory_bytes = 0;
  // The path follows in the same message.
};

struct Answer {
  uint32_t type = 0;
  int32_t value = 0;  // kStarted: pid; kEnded: wait status; kFailed: errno
};

constexpr size_t kMaxPath = 1 << 16;

bool SendAnswer(int fd, uint32_t type, int32_t value) {
  const Answer answer{type, value};
  while (true) {
    const ssize_t n = send(fd, &answer, sizeof(answer), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    return n == static_cast<ssize_t>(sizeof(answer));
  }
}

// Receives one answer; false at end of stream or on an error.
bool ReceiveAnswer(int fd, Answer* answer) {
  while (true) {
    const ssize_t n = recv(fd, answer, sizeof(*answer), 0);
    if (n < 0 && errno == EINTR) continue;
    return n == static_cast<ssize_t>(sizeof(*answer));
  }
}

// Receives one request with its attached descriptors; false at end of stream or on an error.
bool ReceiveRequest(int fd, Request* request, std::string* path, int fds[2]) {
  std::vector<char> buffer(sizeof(Request) + kMaxPath);
  iovec io{buffer.data(), buffer.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))];
  msghdr message{};
  message.msg_iov = &io;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof(control);
  ssize_t n;
  do {
    n = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  if (n < static_cast<ssize_t>(sizeof(Request))) return false;
  std::memcpy(request, buffer.data(), sizeof(Request));
  path->assign(buffer.data() + sizeof(Request), static_cast<size_t>(n) - sizeof(Request));
  fds[0] = fds[1] = -1;
  for (cmsghdr* c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
        c->cmsg_len == CMSG_LEN(2 * sizeof(int))) {
      std::memcpy(fds, CMSG_DATA(c), 2 * sizeof(int));
    }
  }
  return true;
}

// In the forked worker: becomes the import worker for `path`; never returns.
[[noreturn]] void BecomeWorker(pid_t server, const sigset_t& mask, int socket, int signals,
                               const Request& request, const std::string& path, const int fds[2]) {
  sigprocmask(SIG_SETMASK, &mask, nullptr);
  close(socket);
  close(signals);
  // Die with the server; it may be gone already (then the signal never comes).
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != server) _exit(127);
  if (dup2(fds[0], STDOUT_FILENO) < 0 || dup2(fds[1], STDERR_FILENO) < 0) _exit(127);
  close(fds[0]);
  close(fds[1]);
  if (!kAddressSanitizer && request.memory_bytes > 0) {
    const rlimit memory{request.memory_bytes, request.memory_bytes};
    setrlimit(RLIMIT_AS, &memory);
  }
  const int code =
      RunImportWorker(path, (request.flags & kAllowOutside) != 0, (request.flags & kRawUnits) != 0,
                      (request.flags & kNoTexturePixels) == 0);
  std::fflush(stderr);
  _exit(code);
}

}  // namespace

ImportServer::~ImportServer() { Stop(); }

void ImportServer::Stop() {
  if (socket_ >= 0) close(socket_);  // the server kills its worker and exits
  socket_ = -1;
  if (server_pid_ > 0) {
    // It exits at once on end of stream; SIGKILL only if it does not within a moment.
    for (int i = 0; i < 200; ++i) {
      if (waitpid(server_pid_, nullptr, WNOHANG) == server_pid_) {
        server_pid_ = -1;
        break;
      }
      usleep(1000);
    }
    if (server_pid_ > 0) {
      kill(server_pid_, SIGKILL);
      waitpid(server_pid_, nullptr, 0);
    }
  }
  server_pid_ = -1;
  worker_running_ = false;
}

bool ImportServer::Start(const std::string& executable, std::string* error) {
  Stop();
  std::string exe = executable;
  if (exe.empty()) {
    char buffer[4096];
    const ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
    if (n > 0) exe.assign(buffer, static_cast<size_t>(n));
  }
  int pair[2];
  const int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (exe.empty() || null_fd < 0 ||
      socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
    *error = std::string("cannot start the import server: ") + std::strerror(errno);
    if (null_fd >= 0) close(null_fd);
    return false;
  }
  // Everything the child needs is made before fork: after it, only async-signal-safe calls.
  const char* argv[] = {exe.c_str(), "import-server", nullptr};
  // The server binds every symbol at start (LD_BIND_NOW), once, so that its forked workers do not
  // each resolve them again on first call.
  std::vector<std::string> environment = {"LD_BIND_NOW=1"};
  for (char** e = environ; e && *e; ++e) {
    if (std::strncmp(*e, "LD_BIND_NOW=", 12) != 0) environment.push_back(*e);
  }
  std::vector<char*> envp;
  for (std::string& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    *error = std::string("cannot start the import server: ") + std::strerror(errno);
    close(pair[0]);
    close(pair[1]);
    close(null_fd);
    return false;
  }
  if (pid == 0) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
    // The socket becomes standard input; nothing should be printed on standard output.
    if (dup2(pair[1], STDIN_FILENO) < 0 || dup2(null_fd, STDOUT_FILENO) < 0) _exit(127);
    execve(argv[0], const_cast<char* const*>(argv), envp.data());
    _exit(127);
  }
  close(pair[1]);
  close(null_fd);
  socket_ = pair[0];
  server_pid_ = pid;
  return true;
}

pid_t ImportServer::Spawn(const std::string& path, bool allow_outside_files, bool raw_units,
                          bool texture_pixels, size_t memory_bytes, int out_fd, int err_fd,
                          std::string* error) {
  if (socket_ < 0) {
    *error = "the import server is not running";
    return -1;
  }
  if (path.size() > kMaxPath) {
    *error = "the path is too long for the import server";
    return -1;
  }
  Request request;
  request.type = kSpawn;
  request.flags = (allow_outside_files ? kAllowOutside : 0u) | (raw_units ? kRawUnits : 0u) |
                  (texture_pixels ? 0u : kNoTexturePixels);
  request.memory_bytes = memory_bytes;
  std::vector<char> body(sizeof(Request) + path.size());
  std::memcpy(body.data(), &request, sizeof(Request));
  std::memcpy(body.data() + sizeof(Request), path.data(), path.size());
  iovec io{body.data(), body.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
  msghdr message{};
  message.msg_iov = &io;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof(control);
  cmsghdr* c = CMSG_FIRSTHDR(&message);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(2 * sizeof(int));
  const int fds[2] = {out_fd, err_fd};
  std::memcpy(CMSG_DATA(c), fds, sizeof(fds));
  ssize_t sent;
  do {
    sent = sendmsg(socket_, &message, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  Answer answer;
  if (sent != static_cast<ssize_t>(body.size()) || !ReceiveAnswer(socket_, &answer)) {
    *error = "the import server stopped";
    Stop();
    return -1;
  }
  if (answer.type != kStarted) {
    *error = std::string("cannot start the import worker: ") +
             std::strerror(answer.type == kFailed ? answer.value : EPROTO);
    return -1;
  }
  worker_running_ = true;
  return static_cast<pid_t>(answer.value);
}

bool ImportServer::Wait(int* status) {
  if (status) *status = SIGKILL;  // a wait status that reads as killed by SIGKILL
  if (!worker_running_) return socket_ >= 0;
  worker_running_ = false;
  Answer answer;
  while (socket_ >= 0 && ReceiveAnswer(socket_, &answer)) {
    if (answer.type == kEnded) {
      if (status) *status = answer.value;
      return true;
    }
  }
  Stop();
  return false;
}

void ImportServer::Kill() {
  if (socket_ < 0 || !worker_running_) return;
  Request request;
  request.type = kKill;
  while (send(socket_, &request, sizeof(request), MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

int RunImportServer() {
  const int socket = STDIN_FILENO;
  sigset_t child_signal, old_mask;
  sigemptyset(&child_signal);
  sigaddset(&child_signal, SIGCHLD);
  if (sigprocmask(SIG_BLOCK, &child_signal, &old_mask) != 0) return 1;
  const int signals = signalfd(-1, &child_signal, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signals < 0) return 1;
  const pid_t self = getpid();
  pid_t worker = -1;
  auto reap = [&](bool block) {
    if (worker <= 0) return;
    int status = 0;
    const pid_t done = waitpid(worker, &status, block ? 0 : WNOHANG);
    if (done != worker) return;
    worker = -1;
    SendAnswer(socket, kEnded, status);
  };
  while (true) {
    pollfd fds[2] = {{socket, POLLIN, 0}, {signals, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents & POLLIN) {
      signalfd_siginfo info;
      while (read(signals, &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info))) {
      }
      reap(false);
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    Request request;
    std::string path;
    int pipe_ends[2];
    if (!ReceiveRequest(socket, &request, &path, pipe_ends)) break;  // the client is gone
    if (request.type == kKill) {
      if (worker > 0) {
        kill(worker, SIGKILL);
        reap(true);
      }
      continue;
    }
    if (request.type != kSpawn || pipe_ends[0] < 0 || pipe_ends[1] < 0 || worker > 0) {
      for (int fd : pipe_ends) {
        if (fd >= 0) close(fd);
      }
      SendAnswer(socket, kFailed, EPROTO);
      continue;
    }
    std::fflush(nullptr);  // nothing buffered may be written twice by the worker
    const pid_t pid = fork();
    if (pid == 0) BecomeWorker(self, old_mask, socket, signals, request, path, pipe_ends);
    const int fork_errno = errno;
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    if (pid < 0) {
      SendAnswer(socket, kFailed, fork_errno);
      continue;
    }
    worker = pid;
    SendAnswer(socket, kStarted, pid);
  }
  if (worker > 0) {
    kill(worker, SIGKILL);
    waitpid(worker, nullptr, 0);
  }
  return 0;
}

}  // namespace app
