// ModelFiles: resolves a model's references one path component at a time against the model's
// real folder (following symlinks by hand, so that nothing outside the folder is ever looked at
// unless allowed), and opens only regular files, with O_NONBLOCK so that a FIFO cannot block.
#include "assets/files/model_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <utility>

namespace assets {
namespace fs = std::filesystem;
namespace {

// As the kernel's limit on symlinks followed while resolving one path.
constexpr int kMaxSymlinks = 40;

std::string KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "a special file";
}

std::string NotRegular(mode_t mode) { return "is " + KindOf(mode) + ", not a regular file"; }

// The names of a path's components, without the root, "." and empty ones ("a//b/").
std::vector<std::string> Components(const fs::path& path) {
  std::vector<std::string> out;
  for (const fs::path& part : path.relative_path()) {
    const std::string s = part.string();
    if (s.empty() || s == ".") continue;
    out.push_back(s);
  }
  return out;
}

std::string Join(const std::vector<std::string>& components) {
  std::string out;
  for (const std::string& c : components) out += "/" + c;
  return out.empty() ? "/" : out;
}

std::string RealPathOr(const std::string& path) {
  char* real = realpath(path.c_str(), nullptr);
  if (!real) return fs::absolute(fs::path(path)).lexically_normal().string();
  std::string out = real;
  std::free(real);
  return out;
}

std::string WorkingDirectory() {
  std::string buffer(PATH_MAX, '\0');
  if (!getcwd(buffer.data(), buffer.size())) return "/";
  buffer.resize(std::strlen(buffer.c_str()));
  return buffer;
}

// Opens `path` without blocking and checks that what was opened is a regular file (it may have
// changed since it was looked at). On success *fd and *size are set; otherwise *error holds
// errno (or 0 with *mode set for a non-regular file).
FileStatus OpenChecked(const std::string& path, int extra_flags, int* fd, uint64_t* size,
                       int* error, mode_t* mode) {
  *error = 0;
  const int f = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | extra_flags);
  if (f < 0) {
    *error = errno;
    return errno == ENOENT || errno == ENOTDIR ? FileStatus::kMissing : FileStatus::kUnreadable;
  }
  struct stat st {};
  if (fstat(f, &st) != 0) {
    *error = errno;
    close(f);
    return FileStatus::kUnreadable;
  }
  *mode = st.st_mode;
  if (!S_ISREG(st.st_mode)) {
    close(f);
    return FileStatus::kNotRegular;
  }
  // Regular files ignore O_NONBLOCK; clear it anyway so that reads are plain blocking reads.
  const int flags = fcntl(f, F_GETFL);
  if (flags >= 0) fcntl(f, F_SETFL, flags & ~O_NONBLOCK);
  *fd = f;
  *size = static_cast<uint64_t>(st.st_size);
  return FileStatus::kOk;
}

// The reason for a failed OpenChecked or stat, as a short phrase.
std::string Reason(FileStatus status, int error, mode_t mode) {
  switch (status) {
    case FileStatus::kMissing:
      return "file not found";
    case FileStatus::kNotRegular:
      return NotRegular(mode);
    case FileStatus::kOutside:
      return kOutsideFolderReason;
    default:
      return error ? std::strerror(error) : "cannot be read";
  }
}

// stat(2) of `path`, following symlinks, as a status: kOk for a regular file.
FileStatus StatRegular(const std::string& path, std::string* reason) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    const int error = errno;
    const FileStatus status =
        error == ENOENT || error == ENOTDIR ? FileStatus::kMissing : FileStatus::kUnreadable;
    *reason = Reason(status, error, 0);
    return status;
  }
  if (!S_ISREG(st.st_mode)) {
    *reason = NotRegular(st.st_mode);
    return FileStatus::kNotRegular;
  }
  return FileStatus::kOk;
}

}  // namespace

// --- InputFile ------------------------------------------------------------------------------

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(other.fd_), size_(other.size_), real_path_(std::move(other.real_path_)) {
  other.fd_ = -1;
  other.size_ = 0;
}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = other.fd_;
    size_ = other.size_;
    real_path_ = std::move(other.real_path_);
    other.fd_ = -1;
    other.size_ = 0;
  }
  return *this;
}

InputFile::~InputFile() { Close(); }

void InputFile::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

bool InputFile::ReadAt(uint64_t offset, void* out, size_t length) const {
  if (fd_ < 0) return false;
  auto* bytes = static_cast<char*>(out);
  while (length > 0) {
    if (offset > static_cast<uint64_t>(INT64_MAX)) return false;
    const size_t chunk = std::min<size_t>(length, size_t{1} << 30);
    const ssize_t n = pread(fd_, bytes, chunk, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = 0;
      return false;
    }
    bytes += n;
    offset += static_cast<uint64_t>(n);
    length -= static_cast<size_t>(n);
  }
  return true;
}

// --- ModelFiles -----------------------------------------------------------------------------

ModelFiles::ModelFiles(const std::string& model_path, bool allow_outside_files)
    : model_path_(model_path), allow_outside_(allow_outside_files) {
  model_lexical_ = fs::path(model_path).lexically_normal();
  given_directory_ = fs::path(model_path).parent_path().lexically_normal();
  const std::string directory = given_directory_.empty() ? "." : given_directory_.string();
  folder_ = Components(fs::path(RealPathOr(directory)));
}

bool ModelFiles::IsModelPath(const std::string& path) const {
  return fs::path(path).lexically_normal() == model_lexical_;
}

void ModelFiles::Remember(const InputFile& file) {
  if (std::find(files_read_.begin(), files_read_.end(), file.real_path()) != files_read_.end()) {
    return;
  }
  files_read_.push_back(file.real_path());
  bytes_read_ += file.size();
}

FileStatus ModelFiles::OpenModel(InputFile* out, std::string* reason) {
  struct stat st {};
  if (stat(model_path_.c_str(), &st) != 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR) {
      *reason = "file not found";
      return FileStatus::kMissing;
    }
    *reason = std::string("cannot open the file: ") + std::strerror(error);
    return FileStatus::kUnreadable;
  }
  if (S_ISDIR(st.st_mode)) {
    *reason = "is a directory, not a model file";
    return FileStatus::kNotRegular;
  }
  if (!S_ISREG(st.st_mode)) {
    *reason = NotRegular(st.st_mode);
    return FileStatus::kNotRegular;
  }
  int fd = -1, error = 0;
  uint64_t size = 0;
  mode_t mode = 0;
  const FileStatus status = OpenChecked(model_path_, 0, &fd, &size, &error, &mode);
  if (status != FileStatus::kOk) {
    *reason = status == FileStatus::kNotRegular
                  ? NotRegular(mode)
                  : std::string("cannot open the file: ") + std::strerror(error);
    return status;
  }
  InputFile file;
  file.fd_ = fd;
  file.size_ = size;
  file.real_path_ = RealPathOr(model_path_);
  Remember(file);
  *out = std::move(file);
  return FileStatus::kOk;
}

FileStatus ModelFiles::Resolve(const fs::path& reference, bool from_folder, fs::path* real,
                               std::string* reason) const {
  if (allow_outside_) {
    const fs::path path = reference.is_absolute() ? reference
                          : from_folder           ? fs::path(Join(folder_)) / reference
                                                  : reference;
    const FileStatus status = StatRegular(path.string(), reason);
    if (status == FileStatus::kOk) *real = RealPathOr(path.string());
    return status;
  }
  // The walk keeps `current` a real path (no symlinks in it) that is the folder, an ancestor of
  // it or inside it; a step that would leave those is refused before anything is looked up, so
  // what exists outside the folder never changes the answer.
  std::vector<std::string> current;
  if (!reference.is_absolute()) {
    current = from_folder ? folder_ : Components(fs::path(WorkingDirectory()));
  }
  std::deque<std::string> pending;
  for (const std::string& c : Components(reference)) pending.push_back(c);
  int symlinks = 0;
  auto within = [&](const std::vector<std::string>& path, bool* inside) {
    const size_t common = std::min(path.size(), folder_.size());
    if (!std::equal(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(common),
                    folder_.begin())) {
      return false;
    }
    *inside = path.size() > folder_.size();
    return true;
  };
  while (!pending.empty()) {
    const std::string c = pending.front();
    pending.pop_front();
    if (c.empty() || c == ".") continue;
    if (c == "..") {
      if (!current.empty()) current.pop_back();
      continue;
    }
    std::vector<std::string> next = current;
    next.push_back(c);
    bool inside = false;
    if (!within(next, &inside)) {
      *reason = kOutsideFolderReason;
      return FileStatus::kOutside;
    }
    if (!inside) {  // the folder or one of its ancestors: real directories, known already
      current = std::move(next);
      continue;
    }
    const std::string path = Join(next);
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) {
      const int error = errno;
      const FileStatus status =
          error == ENOENT || error == ENOTDIR ? FileStatus::kMissing : FileStatus::kUnreadable;
      *reason = Reason(status, error, 0);
      return status;
    }
    if (S_ISLNK(st.st_mode)) {
      if (++symlinks > kMaxSymlinks) {
        *reason = std::strerror(ELOOP);
        return FileStatus::kUnreadable;
      }
      std::string target(PATH_MAX, '\0');
      const ssize_t n = readlink(path.c_str(), target.data(), target.size());
      if (n < 0 || static_cast<size_t>(n) >= target.size()) {
        *reason = std::strerror(n < 0 ? errno : ENAMETOOLONG);
        return FileStatus::kUnreadable;
      }
      target.resize(static_cast<size_t>(n));
      const fs::path link(target);
      if (link.is_absolute()) current.clear();
      const std::vector<std::string> parts = Components(link);
      pending.insert(pending.begin(), parts.begin(), parts.end());
      continue;
    }
    const bool more = std::any_of(pending.begin(), pending.end(),
                                  [](const std::string& p) { return !p.empty() && p != "."; });
    if (S_ISDIR(st.st_mode)) {
      current = std::move(next);
      continue;
    }
    if (more) {  // "file.png/x": the kernel says ENOTDIR
      *reason = "file not found";
      return FileStatus::kMissing;
    }
    if (!S_ISREG(st.st_mode)) {
      *reason = NotRegular(st.st_mode);
      return FileStatus::kNotRegular;
    }
    *real = Join(next);
    return FileStatus::kOk;
  }
  // Ended on a directory: the folder itself or inside it, or an ancestor (outside).
  bool inside = false;
  if (!within(current, &inside) || current.size() < folder_.size()) {
    *reason = kOutsideFolderReason;
    return FileStatus::kOutside;
  }
  *reason = NotRegular(S_IFDIR);
  return FileStatus::kNotRegular;
}

FileStatus ModelFiles::OpenResolved(const fs::path& real, InputFile* out, std::string* reason) {
  int fd = -1, error = 0;
  uint64_t size = 0;
  mode_t mode = 0;
  // The real path has no symlinks: O_NOFOLLOW keeps one swapped in since from being followed.
  const FileStatus status = OpenChecked(real.string(), O_NOFOLLOW, &fd, &size, &error, &mode);
  if (status != FileStatus::kOk) {
    *reason = Reason(status, error, mode);
    return status;
  }
  InputFile file;
  file.fd_ = fd;
  file.size_ = size;
  file.real_path_ = real.string();
  Remember(file);
  *out = std::move(file);
  return FileStatus::kOk;
}

FileStatus ModelFiles::OpenReference(const std::string& reference, InputFile* out,
                                     std::string* reason) {
  if (reference.find('\0') != std::string::npos) {
    *reason = "file not found";
    return FileStatus::kMissing;
  }
  fs::path real;
  const FileStatus status = Resolve(fs::path(reference), /*from_folder=*/true, &real, reason);
  if (status != FileStatus::kOk) return status;
  return OpenResolved(real, out, reason);
}

FileStatus ModelFiles::SizeOfReference(const std::string& reference, uint64_t* size,
                                       std::string* real_path, std::string* reason) {
  if (reference.find('\0') != std::string::npos) {
    *reason = "file not found";
    return FileStatus::kMissing;
  }
  fs::path real;
  const FileStatus status = Resolve(fs::path(reference), /*from_folder=*/true, &real, reason);
  if (status != FileStatus::kOk) return status;
  // Resolve checked the kind already; the file may have changed since, so look again.
  struct stat st {};
  if (stat(real.c_str(), &st) != 0) {
    const int error = errno;
    const FileStatus missing =
        error == ENOENT || error == ENOTDIR ? FileStatus::kMissing : FileStatus::kUnreadable;
    *reason = Reason(missing, error, 0);
    return missing;
  }
  if (!S_ISREG(st.st_mode)) {
    *reason = NotRegular(st.st_mode);
    return FileStatus::kNotRegular;
  }
  *size = static_cast<uint64_t>(st.st_size);
  *real_path = real.string();
  return FileStatus::kOk;
}

FileStatus ModelFiles::ResolvePath(const std::string& path, fs::path* real,
                                   std::string* reason) const {
  if (path.find('\0') != std::string::npos) {
    *reason = "file not found";
    return FileStatus::kMissing;
  }
  // A library builds side-file paths from the model's directory as given (which may pass
  // through symlinks): what follows that directory is a reference from the folder.
  const fs::path normal = fs::path(path).lexically_normal();
  auto p = normal.begin();
  bool prefix = normal.is_absolute() == given_directory_.is_absolute();
  for (auto d = given_directory_.begin(); prefix && d != given_directory_.end(); ++d, ++p) {
    if (d->empty()) continue;
    prefix = p != normal.end() && *p == *d;
  }
  if (prefix) {
    fs::path rest;
    for (; p != normal.end(); ++p) rest /= *p;
    if (!rest.is_absolute()) return Resolve(rest, /*from_folder=*/true, real, reason);
  }
  return Resolve(normal, /*from_folder=*/false, real, reason);
}

FileStatus ModelFiles::OpenPath(const std::string& path, InputFile* out, std::string* reason) {
  if (IsModelPath(path)) return OpenModel(out, reason);
  fs::path real;
  const FileStatus status = ResolvePath(path, &real, reason);
  if (status != FileStatus::kOk) return status;
  return OpenResolved(real, out, reason);
}

FileStatus ModelFiles::CheckPath(const std::string& path, std::string* reason) {
  if (IsModelPath(path)) return StatRegular(model_path_, reason);
  fs::path real;
  return ResolvePath(path, &real, reason);
}

FileStatus OpenRegularFile(const std::string& path, InputFile* out, std::string* reason) {
  const FileStatus checked = StatRegular(path, reason);
  if (checked != FileStatus::kOk) return checked;
  int fd = -1, error = 0;
  uint64_t size = 0;
  mode_t mode = 0;
  const FileStatus status = OpenChecked(path, 0, &fd, &size, &error, &mode);
  if (status != FileStatus::kOk) {
    *reason = Reason(status, error, mode);
    return status;
  }
  InputFile file;
  file.fd_ = fd;
  file.size_ = size;
  file.real_path_ = RealPathOr(path);
  *out = std::move(file);
  return FileStatus::kOk;
}

}  // namespace assets
