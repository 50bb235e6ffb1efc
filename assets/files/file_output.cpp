// Atomic, checked file output (temporary file + rename) and the output-versus-input check.
#include "assets/files/file_output.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace assets {

namespace fs = std::filesystem;

namespace {

// How one output gets to its target.
struct Plan {
  std::string path;     // as given, for messages
  std::string target;   // where the bytes end up (symlinks of a regular target resolved)
  bool direct = false;  // written in place (devices, FIFOs, standard streams)
  bool append = false;  // direct, in append mode (/dev/stdout and friends)
  bool existed = false;
  struct stat old {};  // the replaced file, when it existed
  std::string temp;    // the temporary file, while it exists
  int temp_fd = -1;    // open (and locked) until the temporary file is renamed or removed
  const void* data = nullptr;
  size_t size = 0;
};

std::string Reason(const std::string& path, const std::string& why) {
  return path + ": cannot write: " + why;
}

// /dev/stdout, /dev/stderr, /dev/fd/N and /proc/<pid>/fd/N: links to whatever a file descriptor
// holds (often a pipe); replacing what they point to would replace the caller's redirection.
bool IsStreamAlias(const std::string& path) {
  std::error_code ec;
  const std::string absolute = fs::absolute(path, ec).lexically_normal().string();
  if (ec) return false;
  return absolute == "/dev/stdout" || absolute == "/dev/stderr" || absolute == "/dev/stdin" ||
         absolute.rfind("/dev/fd/", 0) == 0 || absolute.rfind("/proc/", 0) == 0;
}

// True when `st` is the file standard output or standard error is (a pipe, a terminal, a file):
// writing there is what the caller asked for, whatever kind of file it is.
bool IsStandardStream(const struct stat& st) {
  for (int fd : {STDOUT_FILENO, STDERR_FILENO}) {
    struct stat stream {};
    if (fstat(fd, &stream) == 0 && stream.st_dev == st.st_dev && stream.st_ino == st.st_ino) {
      return true;
    }
  }
  return false;
}

// Why a file of this kind cannot be an output, or "". A FIFO blocks until someone reads it
// (forever, if no one does), a socket cannot be opened, a block device is a disk: only regular
// files and character devices are outputs, and the standard streams whatever they are.
std::string KindProblem(const std::string& path, const struct stat& st) {
  if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) || S_ISDIR(st.st_mode)) return "";
  if (IsStreamAlias(path) || IsStandardStream(st)) return "";
  const char* kind = S_ISFIFO(st.st_mode)   ? "a FIFO (named pipe)"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                     : S_ISBLK(st.st_mode)  ? "a block device"
                                            : "not a regular file";
  return std::string("it is ") + kind +
         "; outputs are regular files, character devices such as /dev/null, or the standard "
         "streams";
}

mode_t CurrentUmask() {
  // Linux reports the umask in /proc/self/status; reading it avoids umask()'s set-and-restore,
  // which would race with other threads creating files.
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  return 022;
}

bool WriteAllTo(int fd, const void* data, size_t size, int* error_number) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error_number = n < 0 ? errno : EIO;
      return false;
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool Prepare(const OutputFile& file, Plan* plan, std::string* error) {
  plan->path = file.path;
  plan->target = file.path;
  plan->data = file.data;
  plan->size = file.size;
  if (file.path.empty()) {
    *error = "cannot write a file with an empty name";
    return false;
  }
  struct stat st {};
  if (stat(file.path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      *error = Reason(file.path, "it is a directory");
      return false;
    }
    if (const std::string problem = KindProblem(file.path, st); !problem.empty()) {
      *error = Reason(file.path, problem);
      return false;
    }
    if (!S_ISREG(st.st_mode) || IsStreamAlias(file.path)) {
      plan->direct = true;
      plan->append = IsStreamAlias(file.path);
      return true;
    }
    plan->existed = true;
    plan->old = st;
    // The rename could replace a file this user may not write (a read-only file in a writable
    // folder); a plain write would be refused, so this one is too.
    if (access(file.path.c_str(), W_OK) != 0) {
      *error = Reason(file.path, std::strerror(errno));
      return false;
    }
    struct stat link {};
    if (lstat(file.path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      std::error_code ec;
      const fs::path resolved = fs::canonical(file.path, ec);
      if (ec) {
        *error = Reason(file.path, "cannot resolve the symbolic link: " + ec.message());
        return false;
      }
      plan->target = resolved.string();
    }
  } else if (IsStreamAlias(file.path)) {
    plan->direct = true;  // let open() say why it cannot
    plan->append = true;
  }
  return true;
}

bool WriteDirect(const Plan& plan, std::string* error) {
  const int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY | (plan.append ? O_APPEND : 0);
  const int fd = open(plan.path.c_str(), flags);
  if (fd < 0) {
    *error = Reason(plan.path, std::strerror(errno));
    return false;
  }
  int error_number = 0;
  bool ok = WriteAllTo(fd, plan.data, plan.size, &error_number);
  if (close(fd) != 0 && ok) {
    ok = false;
    error_number = errno;
  }
  if (!ok) *error = Reason(plan.path, std::strerror(error_number));
  return ok;
}

// Our temporary files beside `target`: ".<name>.tmp-XXXXXX" (the name cut to 200 bytes, so that
// the whole is at most 255 bytes whatever the target's length).
std::string TemporaryPrefix(const fs::path& target) {
  return "." + target.filename().string().substr(0, 200) + ".tmp-";
}

// Removes the temporary files of our naming for `target` that no writer holds: a writer keeps
// its temporary file locked (flock) from its creation to its rename, so an unlocked one was left
// by a writer that died (kill -9, a crash, a power cut) and is litter. Only regular files of
// this user are touched.
void RemoveStaleTemporaries(const fs::path& folder, const fs::path& target) {
  const std::string prefix = TemporaryPrefix(target);
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() != prefix.size() + 6 || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string path = it->path().string();
    struct stat before {};
    if (lstat(path.c_str(), &before) != 0 || !S_ISREG(before.st_mode) ||
        before.st_uid != geteuid()) {
      continue;
    }
    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) continue;
    struct stat opened {};
    if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &opened) == 0 &&
        opened.st_dev == before.st_dev && opened.st_ino == before.st_ino) {
      unlink(path.c_str());
    }
    close(fd);
  }
}

// An unnamed file in `folder` (O_TMPFILE), or -1 when the file system has none.
int OpenUnnamed(const fs::path& folder) {
#ifdef O_TMPFILE
  return open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#else
  static_cast<void>(folder);
  errno = EOPNOTSUPP;
  return -1;
#endif
}

// Gives the unnamed file `fd` a temporary name in `folder` (linkat through /proc/self/fd); false
// when it cannot (no /proc).
bool NameUnnamed(int fd, const fs::path& folder, const fs::path& target, std::string* temp) {
  static constexpr char kLetters[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const std::string from = "/proc/self/fd/" + std::to_string(fd);
  uint64_t state = static_cast<uint64_t>(getpid()) * 0x9E3779B97F4A7C15ull ^
                   static_cast<uint64_t>(reinterpret_cast<uintptr_t>(temp)) ^
                   static_cast<uint64_t>(time(nullptr));
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string suffix;
    for (int k = 0; k < 6; ++k) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      suffix.push_back(kLetters[(state >> 33) % (sizeof(kLetters) - 1)]);
    }
    const std::string name = (folder / (TemporaryPrefix(target) + suffix)).string();
    if (linkat(AT_FDCWD, from.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      *temp = name;
      return true;
    }
    if (errno != EEXIST) return false;
  }
  return false;
}

// Writes the plan's bytes to a new temporary file beside its target; plan->temp names it on
// success (and is empty after a failure, the file removed). The bytes go to an unnamed file
// (O_TMPFILE) that gets its name only once complete, just before the rename: a writer killed
// while writing leaves nothing behind. Where the file system has no unnamed files, a named one
// is written, locked while it exists; the next write beside the same target removes it if the
// writer died (RemoveStaleTemporaries).
bool WriteTemporary(Plan* plan, std::string* error) {
  const fs::path target(plan->target);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  RemoveStaleTemporaries(folder, target);
  std::string temp;
  int fd = OpenUnnamed(folder);
  const bool unnamed = fd >= 0;
  while (fd < 0) {
    temp = (folder / (TemporaryPrefix(target) + "XXXXXX")).string();
    fd = mkostemp(temp.data(), O_CLOEXEC);
    if (fd < 0) {
      const int e = errno;
      *error = Reason(plan->path,
                      e == ENOENT ? std::string("the folder ") + folder.string() + " does not exist"
                                  : std::string("cannot create a file in ") + folder.string() +
                                        ": " + std::strerror(e));
      return false;
    }
    // Locked from the start; if another writer's clean-up removed it before the lock, try again.
    struct stat st {};
    if (flock(fd, LOCK_EX) != 0 || fstat(fd, &st) != 0 || st.st_nlink == 0) {
      close(fd);
      fd = -1;
    }
  }
  int error_number = 0;
  bool ok = WriteAllTo(fd, plan->data, plan->size, &error_number);
  if (ok) {
    // The permissions the file would have had if written in place.
    const mode_t mode =
        plan->existed ? (plan->old.st_mode & 07777) : (0666 & ~CurrentUmask() & 0777);
    fchmod(fd, mode);
    if (plan->existed && (plan->old.st_uid != geteuid() || plan->old.st_gid != getegid())) {
      // Give the file back to its owner; only root may, and others keep it theirs (not an error).
      const int kept_ours = fchown(fd, plan->old.st_uid, plan->old.st_gid);
      static_cast<void>(kept_ours);
    }
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
      ok = false;
      error_number = errno;
    }
  }
  if (ok && unnamed) {
    // Named only now, locked until renamed.
    if (flock(fd, LOCK_EX) != 0 || !NameUnnamed(fd, folder, target, &temp)) {
      ok = false;
      error_number = errno ? errno : EIO;
    }
  }
  if (!ok) {
    if (!temp.empty()) unlink(temp.c_str());
    close(fd);
    *error = Reason(plan->path, std::strerror(error_number));
    return false;
  }
  plan->temp = temp;
  plan->temp_fd = fd;
  return true;
}

// Closes a plan's temporary file (releasing its lock) after its rename or removal; a failed
// close of a file already flushed to disk changes nothing.
void CloseTemporary(Plan* plan) {
  if (plan->temp_fd >= 0) close(plan->temp_fd);
  plan->temp_fd = -1;
}

void RemoveTemporaries(std::vector<Plan>* plans) {
  for (Plan& plan : *plans) {
    if (!plan.temp.empty()) unlink(plan.temp.c_str());
    plan.temp.clear();
    CloseTemporary(&plan);
  }
}

// The absolute form of `path` with the symlinks of its longest existing prefix resolved.
std::string Resolved(const std::string& path) {
  std::error_code ec;
  fs::path resolved = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) resolved = fs::absolute(path, ec).lexically_normal();
  return resolved.string();
}

}  // namespace

std::string OutputProblem(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "";
  return KindProblem(path, st);
}

bool WriteFilesAtomically(const std::vector<OutputFile>& files, std::string* error) {
  std::vector<Plan> plans(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (!Prepare(files[i], &plans[i], error)) return false;
  }
  for (Plan& plan : plans) {
    if (plan.direct) continue;
    if (!WriteTemporary(&plan, error)) {
      RemoveTemporaries(&plans);
      return false;
    }
  }
  for (const Plan& plan : plans) {
    if (plan.direct && !WriteDirect(plan, error)) {
      RemoveTemporaries(&plans);
      return false;
    }
  }
  for (Plan& plan : plans) {
    if (plan.direct) continue;
    if (rename(plan.temp.c_str(), plan.target.c_str()) != 0) {
      *error = Reason(plan.path, std::strerror(errno));
      RemoveTemporaries(&plans);
      return false;
    }
    plan.temp.clear();
    CloseTemporary(&plan);
  }
  return true;
}

bool WriteFileAtomically(const std::string& path, const void* data, size_t size,
                         std::string* error) {
  return WriteFilesAtomically({OutputFile{path, data, size}}, error);
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0) {
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  }
  return Resolved(a) == Resolved(b);
}

std::vector<std::string> ModelInputFiles(const Model& model) {
  std::vector<std::string> files = model.source_files;
  const bool builtin = model.source_files.empty() && model.source == "<built-in>";
  if (!model.source.empty() && !builtin) files.insert(files.begin(), model.source);
  return files;
}

bool CheckOutputsSpareInputs(const Model& model, const std::vector<std::string>& outputs,
                             std::string* reason) {
  const std::vector<std::string> inputs = ModelInputFiles(model);
  if (inputs.empty()) return true;
  const std::string& model_file = inputs.front();
  for (size_t o = 0; o < outputs.size(); ++o) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!SameFile(outputs[o], inputs[i])) continue;
      const bool is_model = i == 0 || SameFile(inputs[i], model_file);
      std::string what = o == 0 ? "that is " : "writing it also writes " + outputs[o] + ", ";
      if (is_model) {
        what += o == 0 ? "the input model " + model_file : "which is the input model " + model_file;
      } else {
        what += (o == 0 ? inputs[i] + ", " : std::string()) + "a file the input model " +
                model_file + " reads";
      }
      *reason = what + "; refusing to overwrite it";
      return false;
    }
  }
  return true;
}

}  // namespace assets
