// Atomic, checked file output (temporary file + rename) and the output-versus-input check.
#include "assets/file_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
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

// Writes the plan's bytes to a new temporary file beside its target; plan->temp names it on
// success (and is empty after a failure, the file removed).
bool WriteTemporary(Plan* plan, std::string* error) {
  const fs::path target(plan->target);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // A name of at most 255 bytes whatever the target's length.
  std::string name = "." + target.filename().string().substr(0, 200) + ".tmp-XXXXXX";
  std::string temp = (folder / name).string();
  const int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    *error = Reason(plan->path,
                    e == ENOENT ? std::string("the folder ") + folder.string() + " does not exist"
                                : std::string("cannot create a file in ") + folder.string() + ": " +
                                      std::strerror(e));
    return false;
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
  if (close(fd) != 0 && ok) {
    ok = false;
    error_number = errno;
  }
  if (!ok) {
    unlink(temp.c_str());
    *error = Reason(plan->path, std::strerror(error_number));
    return false;
  }
  plan->temp = temp;
  return true;
}

void RemoveTemporaries(std::vector<Plan>* plans) {
  for (Plan& plan : *plans) {
    if (!plan.temp.empty()) unlink(plan.temp.c_str());
    plan.temp.clear();
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
