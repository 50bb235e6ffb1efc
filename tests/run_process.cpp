// fork/exec runner with captured output and a timeout; see run_process.h.
#include "tests/run_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/test_paths.h"

extern char** environ;

namespace testproc {

std::string ChildConfigDir() { return testpaths::TempDir() + "/config"; }

std::vector<std::string> ChildEnvironment(const std::vector<std::string>& extra) {
  const auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
  std::vector<std::string> given = extra;
  const auto is_given = [&](const std::string& name) {
    return std::any_of(given.begin(), given.end(),
                       [&](const std::string& e) { return name_of(e) == name; });
  };
  if (!is_given("XDG_CONFIG_HOME")) given.push_back("XDG_CONFIG_HOME=" + ChildConfigDir());
  std::vector<std::string> result;
  for (char** e = environ; *e; ++e)
    if (!is_given(name_of(*e))) result.emplace_back(*e);
  result.insert(result.end(), given.begin(), given.end());
  return result;
}

Result Run(const std::vector<std::string>& argv, double timeout_seconds,
           const std::vector<std::string>& env) {
  Result result;
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) return result;
  const std::vector<std::string> env_strings = ChildEnvironment(env);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]);
    close(err_pipe[0]);
    std::vector<char*> args, envp;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const std::string& e : env_strings) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buffer[65536];
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      result.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    if (poll(fds, 2, static_cast<int>(std::min<long long>(left, 1000))) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      } else {
        (i == 0 ? result.out : result.err).append(buffer, static_cast<size_t>(n));
      }
    }
  }
  for (auto& fd : fds)
    if (fd.fd >= 0) close(fd.fd);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) {
    result.exited = true;
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

Result Skelview(const std::vector<std::string>& args, double timeout_seconds,
                const std::vector<std::string>& env) {
  std::vector<std::string> argv = {testpaths::SkelviewBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, timeout_seconds, env);
}

int Spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  const std::vector<std::string> env_strings = ChildEnvironment(env);
  std::vector<char*> args, envp;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string& e : env_strings) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_RDWR);
    dup2(null, 1);
    dup2(null, 2);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  return pid;
}

namespace {

// Parent pid and state of process `pid` from /proc/<pid>/stat; false when it does not exist.
bool ReadStat(int pid, int* parent, char* state) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return false;
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ')'.
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream rest(text.substr(close + 1));
  rest >> *state >> *parent;
  return static_cast<bool>(rest);
}

}  // namespace

std::vector<int> WaitForChildren(int pid, double timeout_seconds) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  std::vector<int> children;
  while (children.empty() && std::chrono::steady_clock::now() < deadline) {
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      int parent = 0;
      char state = 0;
      if (ReadStat(std::stoi(name), &parent, &state) && parent == pid && state != 'Z') {
        children.push_back(std::stoi(name));
      }
    }
    if (children.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return children;
}

bool WaitUntilGone(int pid, double timeout_seconds) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  while (true) {
    int parent = 0;
    char state = 0;
    if (!ReadStat(pid, &parent, &state) || state == 'Z' || state == 'X') return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace testproc
