// The files one import reads: the model file, then what it refers to (glTF buffers and images,
// other formats' .mtl, texture and side files). A model is untrusted input, so every reference
// goes through ModelFiles: only regular files, only inside the model's folder unless allowed,
// opened without blocking, each remembered for Model::source_files. Internal to assets/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace assets {

enum class FileStatus {
  kOk,
  kMissing,     // no such file (inside the folder, or anywhere when outside files are allowed)
  kOutside,     // outside the model's folder: refused before anything outside it was looked at
  kNotRegular,  // a directory, FIFO, socket or device
  kUnreadable,  // permission denied, too many symlinks, I/O error
};

// A regular file open for reading, read at explicit offsets (pread), so that several readers of
// one file need no shared position. Move-only; closes the file when destroyed.
class InputFile {
 public:
  InputFile() = default;
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  bool is_open() const { return fd_ >= 0; }
  uint64_t size() const { return size_; }  // bytes, as when opened
  // Absolute, symlinks resolved.
  const std::string& real_path() const { return real_path_; }
  // Reads exactly `length` bytes from `offset` into `out`; false on a read error or when the file
  // ends before (it may have shrunk since it was opened).
  bool ReadAt(uint64_t offset, void* out, size_t length) const;

 private:
  friend class ModelFiles;
  friend FileStatus OpenRegularFile(const std::string& path, InputFile* out, std::string* reason);
  void Close();
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string real_path_;
};

// Why a reference was refused, for a message after "cannot read ... 'URI': ". The same text for
// a present and a missing file outside the folder.
inline constexpr const char* kOutsideFolderReason =
    "outside the model's folder; --allow-outside-files reads it";

class ModelFiles {
 public:
  // `model_path` as the user gave it (relative to the working directory, or absolute). The
  // model's folder is its directory, symlinks resolved. With `allow_outside_files` references may
  // lead anywhere; non-regular files are refused either way.
  ModelFiles(const std::string& model_path, bool allow_outside_files);

  // Opens the model file itself (a symlink to it is followed: the user named it). Fails with
  // kMissing ("file not found"), kNotRegular ("is a directory, not a model file" / "is a FIFO,
  // not a regular file"...) or kUnreadable (the system's reason).
  FileStatus OpenModel(InputFile* out, std::string* reason);

  // Opens a reference read from the model: a path relative to the model's folder or absolute,
  // already percent-decoded. Refused (kOutside) when, with every symlink followed, it leads
  // outside the folder — decided component by component without looking at anything outside
  // it, so the answer says nothing about files there; kNotRegular, kMissing, kUnreadable as
  // above. *reason gets a short phrase for the user.
  FileStatus OpenReference(const std::string& reference, InputFile* out, std::string* reason);

  // What OpenReference would answer, with the file's size and real path, without opening the
  // file or recording it (for checks of declared sizes: a file only measured is not read).
  FileStatus SizeOfReference(const std::string& reference, uint64_t* size, std::string* real_path,
                             std::string* reason);

  // As OpenReference for a path a library asks for (relative to the working directory, or
  // absolute), e.g. Assimp's reads of side files; the model file itself is opened as OpenModel.
  FileStatus OpenPath(const std::string& path, InputFile* out, std::string* reason);
  // What OpenPath would answer, without opening (for a library's "does it exist?").
  FileStatus CheckPath(const std::string& path, std::string* reason);

  // True when `path` (as a library gives it) names the model file itself.
  bool IsModelPath(const std::string& path) const;

  // Every file opened for reading so far, the model file first: absolute, symlinks resolved, no
  // duplicates.
  const std::vector<std::string>& files_read() const { return files_read_; }
  // Their sizes added up (for budgets that scale with the data a model really has).
  uint64_t bytes_read() const { return bytes_read_; }
  bool allow_outside_files() const { return allow_outside_; }

 private:
  // Resolves `reference` to a real path: relative ones from the folder, absolute ones from "/".
  FileStatus Resolve(const std::filesystem::path& reference, bool from_folder,
                     std::filesystem::path* real, std::string* reason) const;
  FileStatus OpenResolved(const std::filesystem::path& real, InputFile* out, std::string* reason);
  // A path as a library gives it, as a reference: relative to the folder when it starts with the
  // model's directory as given.
  FileStatus ResolvePath(const std::string& path, std::filesystem::path* real,
                         std::string* reason) const;
  void Remember(const InputFile& file);

  std::string model_path_;
  std::filesystem::path model_lexical_;    // model_path_ lexically normal
  std::filesystem::path given_directory_;  // its directory as given, lexically normal
  std::vector<std::string> folder_;        // the folder's real path, component by component
  bool allow_outside_ = false;
  std::vector<std::string> files_read_;
  uint64_t bytes_read_ = 0;
};

// Opens any path as a regular file without blocking (for files skelview itself wrote, e.g. the
// exporter's repair pass): kMissing, kNotRegular, kUnreadable as ModelFiles::OpenModel.
FileStatus OpenRegularFile(const std::string& path, InputFile* out, std::string* reason);

}  // namespace assets
