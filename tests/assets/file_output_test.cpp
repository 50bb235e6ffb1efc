// Atomic file output: a target holds its old bytes or all the new ones, never a part; devices and
// symlinks are handled as such, FIFOs refused; temporary files never stay, not even after a
// kill -9; and outputs that would
// overwrite a model's input files are recognised.
#include "assets/files/file_output.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/test_paths.h"

namespace assets {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string Fresh(const std::string& name) {
  const std::string dir = testpaths::TempDir() + "/" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void Put(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

bool Write(const std::string& path, const std::string& bytes, std::string* error) {
  return WriteFileAtomically(path, bytes.data(), bytes.size(), error);
}

std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Lowers this process's file-size limit (ulimit -f) for the lifetime of the object, with SIGXFSZ
// ignored as skelview ignores it, so that writes past the limit fail with EFBIG.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = old_;
    limit.rlim_cur = bytes;
    EXPECT_EQ(setrlimit(RLIMIT_FSIZE, &limit), 0);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit old_{};
  void (*old_handler_)(int) = nullptr;
};

TEST(WriteFileAtomically, NewFileGetsTheBytesAndTheUmasksPermissions) {
  const std::string dir = Fresh("new");
  const mode_t old_mask = umask(027);
  std::string error;
  const bool ok = Write(dir + "/a.txt", "hello", &error);
  umask(old_mask);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(Read(dir + "/a.txt"), "hello");
  struct stat st {};
  ASSERT_EQ(stat((dir + "/a.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_EQ(Names(dir), std::vector<std::string>{"a.txt"});
}

TEST(WriteFileAtomically, ReplacedFileKeepsItsPermissions) {
  const std::string dir = Fresh("replace");
  const std::string path = dir + "/a.txt";
  Put(path, "old contents, longer than the new ones");
  ASSERT_EQ(chmod(path.c_str(), 0604), 0);
  std::string error;
  ASSERT_TRUE(Write(path, "new", &error)) << error;
  EXPECT_EQ(Read(path), "new");
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0604u);
  EXPECT_EQ(Names(dir), std::vector<std::string>{"a.txt"});
}

TEST(WriteFileAtomically, WriteCutShortByTheFileSizeLimitKeepsTheOldFile) {
  const std::string dir = Fresh("efbig");
  const std::string path = dir + "/image.png";
  Put(path, "the previous, complete file");
  const std::string big(64 * 1024, 'x');
  std::string error;
  bool ok = true;
  {
    FileSizeLimit limit(4096);
    ok = Write(path, big, &error);
  }
  EXPECT_FALSE(ok);
  EXPECT_THAT(error, HasSubstr(path));
  EXPECT_THAT(error, HasSubstr("File too large"));
  EXPECT_EQ(Read(path), "the previous, complete file");
  EXPECT_EQ(Names(dir), std::vector<std::string>{"image.png"});  // no temporary left
}

TEST(WriteFileAtomically, ReadOnlyFileIsNotReplacedBehindItsOwnersBack) {
  // As an unprivileged user (root may write anything): a read-only file in a folder that user
  // may write to stays as it is.
  const std::string dir = Fresh("readonly");
  const std::string path = dir + "/locked.png";
  Put(path, "read-only contents");
  ASSERT_EQ(chmod(path.c_str(), 0444), 0);
  ASSERT_EQ(chmod(dir.c_str(), 0777), 0);
  ASSERT_EQ(chmod(testpaths::TempDir().c_str(), 0755), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
    std::string error;
    const bool written = Write(path, "replaced", &error);
    const bool named = error.find(path) != std::string::npos &&
                       error.find("Permission denied") != std::string::npos;
    _exit(written ? 1 : named ? 0 : 2);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: replaced, 2: wrong message, 3: cannot drop root";
  EXPECT_EQ(Read(path), "read-only contents");
  EXPECT_EQ(Names(dir), std::vector<std::string>{"locked.png"});
}

TEST(WriteFileAtomically, DevicesAreWrittenInPlaceAndNeverReplaced) {
  std::string error;
  EXPECT_FALSE(Write("/dev/full", "bytes", &error));
  EXPECT_THAT(error, HasSubstr("/dev/full"));
  EXPECT_THAT(error, HasSubstr("No space left on device"));
  EXPECT_TRUE(Write("/dev/null", "bytes", &error)) << error;
  for (const char* device : {"/dev/full", "/dev/null"}) {
    struct stat st {};
    ASSERT_EQ(lstat(device, &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << device << " is no longer a device";
  }
}

TEST(WriteFileAtomically, FifoIsRefusedWithoutWaitingForAReader) {
  const std::string dir = Fresh("fifo");
  const std::string path = dir + "/pipe";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  // Nobody reads it: writing would block forever. It is refused at once and left as it is.
  std::string error;
  EXPECT_FALSE(Write(path, "through the pipe", &error));
  EXPECT_THAT(error, HasSubstr(path + ": cannot write: it is a FIFO (named pipe)"));
  EXPECT_EQ(OutputProblem(path).substr(0, 25), "it is a FIFO (named pipe)");
  struct stat st {};
  ASSERT_EQ(lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(Names(dir), std::vector<std::string>{"pipe"});
  // Regular files, devices and paths that do not exist yet are outputs.
  EXPECT_EQ(OutputProblem(dir + "/new.glb"), "");
  EXPECT_EQ(OutputProblem("/dev/null"), "");
}

TEST(WriteFileAtomically, AFifoThatIsStandardOutputIsWritten) {
  const std::string dir = Fresh("stdout-fifo");
  const std::string path = dir + "/pipe";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  // A reader, and a writer whose standard output is the FIFO writing to it by its name, as
  // `skelview render -o pipe > pipe` would: two processes, so that nothing runs beside a fork.
  const pid_t reader = fork();
  if (reader == 0) {
    const std::string received = Read(path);
    Put(dir + "/received", received);
    _exit(0);
  }
  const pid_t writer = fork();
  if (writer == 0) {
    const int fd = open(path.c_str(), O_WRONLY);
    if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) _exit(3);
    close(fd);
    std::string error;
    _exit(Write(path, "to the caller's pipe", &error) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(writer, &status, 0), writer);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ASSERT_EQ(waitpid(reader, nullptr, 0), reader);
  EXPECT_EQ(Read(dir + "/received"), "to the caller's pipe");
}

TEST(WriteFileAtomically, TemporaryFilesOfAWriterThatDiedAreRemovedByTheNextWrite) {
  const std::string dir = Fresh("stale");
  const std::string path = dir + "/out.glb";
  Put(path, "old");
  // What a writer killed between naming its file and renaming it leaves (kill -9), and a file
  // of another name that only looks alike.
  Put(dir + "/.out.glb.tmp-AbC123", "half");
  Put(dir + "/.out.glb.tmp-Zz9", "not ours: another length");
  Put(dir + "/.other.glb.tmp-AbC123", "another target's");
  std::string error;
  ASSERT_TRUE(Write(path, "new", &error)) << error;
  EXPECT_EQ(Read(path), "new");
  EXPECT_EQ(Names(dir),
            (std::vector<std::string>{".other.glb.tmp-AbC123", ".out.glb.tmp-Zz9", "out.glb"}));
}

TEST(WriteFileAtomically, TheTemporaryFileOfALiveWriterIsLeftAlone) {
  const std::string dir = Fresh("live");
  const std::string path = dir + "/out.glb";
  const std::string live = dir + "/.out.glb.tmp-Live01";
  Put(live, "being written");
  // A live writer holds its temporary file locked.
  const int fd = open(live.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX), 0);
  std::string error;
  ASSERT_TRUE(Write(path, "new", &error)) << error;
  EXPECT_EQ(Read(live), "being written");
  close(fd);
  ASSERT_TRUE(Write(path, "newer", &error)) << error;
  EXPECT_EQ(Names(dir), std::vector<std::string>{"out.glb"});
}

TEST(WriteFileAtomically, AWriterKilledAtAnyPointLeavesTheOldFileAndNoLitter) {
  const std::string dir = Fresh("killed");
  const std::string path = dir + "/out.bin";
  const std::string old_bytes(1 << 20, 'o');
  Put(path, old_bytes);
  const std::string new_bytes(16 << 20, 'n');
  for (int attempt = 0; attempt < 20; ++attempt) {
    const pid_t child = fork();
    if (child == 0) {
      std::string error;
      for (;;) Write(path, new_bytes, &error);  // until killed
    }
    std::this_thread::sleep_for(std::chrono::microseconds(2000 + 3100 * attempt));
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    const std::string now = Read(path);
    ASSERT_TRUE(now == old_bytes || now == new_bytes) << "attempt " << attempt << ": a torn file";
  }
  std::string error;
  ASSERT_TRUE(Write(path, "final", &error)) << error;
  EXPECT_EQ(Names(dir), std::vector<std::string>{"out.bin"});
}

TEST(WriteFileAtomically, SymlinkIsFollowedAndKept) {
  const std::string dir = Fresh("symlink");
  fs::create_directories(dir + "/real");
  Put(dir + "/real/file.txt", "old");
  fs::create_symlink("real/file.txt", dir + "/link.txt");
  std::string error;
  ASSERT_TRUE(Write(dir + "/link.txt", "new", &error)) << error;
  EXPECT_TRUE(fs::is_symlink(dir + "/link.txt"));
  EXPECT_EQ(Read(dir + "/real/file.txt"), "new");
  EXPECT_EQ(Names(dir + "/real"), std::vector<std::string>{"file.txt"});
}

TEST(WriteFileAtomically, MissingFolderAndDirectoryTargetAreErrorsNamingThePath) {
  const std::string dir = Fresh("errors");
  std::string error;
  EXPECT_FALSE(Write(dir + "/no/such/folder/x.png", "x", &error));
  EXPECT_THAT(error, HasSubstr(dir + "/no/such/folder/x.png"));
  EXPECT_THAT(error, HasSubstr("does not exist"));
  EXPECT_FALSE(Write(dir, "x", &error));
  EXPECT_THAT(error, HasSubstr("directory"));
  EXPECT_FALSE(Write("", "x", &error));
  EXPECT_TRUE(fs::is_directory(dir));
}

TEST(WriteFilesAtomically, NoTargetChangesWhenOneFileCannotBeWritten) {
  const std::string dir = Fresh("group");
  Put(dir + "/model.bin", "old buffer");
  Put(dir + "/model.gltf", "old json");
  const std::string bin = "new buffer", gltf = "new json";
  std::string error;
  // The second file's folder is missing: the first, already complete, must not be renamed in.
  EXPECT_FALSE(WriteFilesAtomically({{dir + "/model.bin", bin.data(), bin.size()},
                                     {dir + "/missing/model.gltf", gltf.data(), gltf.size()}},
                                    &error));
  EXPECT_EQ(Read(dir + "/model.bin"), "old buffer");
  EXPECT_EQ(Names(dir), (std::vector<std::string>{"model.bin", "model.gltf"}));
  // A write cut short (file-size limit) of the second file: same.
  const std::string big(64 * 1024, 'j');
  {
    FileSizeLimit limit(4096);
    EXPECT_FALSE(WriteFilesAtomically({{dir + "/model.bin", bin.data(), bin.size()},
                                       {dir + "/model.gltf", big.data(), big.size()}},
                                      &error));
  }
  EXPECT_EQ(Read(dir + "/model.bin"), "old buffer");
  EXPECT_EQ(Read(dir + "/model.gltf"), "old json");
  EXPECT_EQ(Names(dir), (std::vector<std::string>{"model.bin", "model.gltf"}));
  // And both when all is well.
  ASSERT_TRUE(WriteFilesAtomically({{dir + "/model.bin", bin.data(), bin.size()},
                                    {dir + "/model.gltf", gltf.data(), gltf.size()}},
                                   &error))
      << error;
  EXPECT_EQ(Read(dir + "/model.bin"), bin);
  EXPECT_EQ(Read(dir + "/model.gltf"), gltf);
}

TEST(SameFile, SeesThroughSymlinksHardLinksAndDotDot) {
  const std::string dir = Fresh("same");
  fs::create_directories(dir + "/sub");
  Put(dir + "/a.glb", "a");
  Put(dir + "/b.glb", "b");
  fs::create_symlink("a.glb", dir + "/link.glb");
  fs::create_hard_link(dir + "/a.glb", dir + "/hard.glb");
  fs::create_directory_symlink(dir + "/sub", dir + "/sublink");
  EXPECT_TRUE(SameFile(dir + "/a.glb", dir + "/link.glb"));
  EXPECT_TRUE(SameFile(dir + "/a.glb", dir + "/hard.glb"));
  EXPECT_TRUE(SameFile(dir + "/a.glb", dir + "/sub/../a.glb"));
  EXPECT_FALSE(SameFile(dir + "/a.glb", dir + "/b.glb"));
  // Files that do not exist (yet): the same once the folder's symlinks are resolved.
  EXPECT_TRUE(SameFile(dir + "/sublink/new.png", dir + "/sub/new.png"));
  EXPECT_FALSE(SameFile(dir + "/sublink/new.png", dir + "/sub/other.png"));
}

// A model as the importer describes it once it lists the files it read.
Model ModelReading(const std::string& dir) {
  Model model;
  model.source = dir + "/CesiumMan.gltf";
  model.source_files = {fs::canonical(dir + "/CesiumMan.gltf").string(),
                        fs::canonical(dir + "/CesiumMan0.bin").string(),
                        fs::canonical(dir + "/CesiumMan.jpg").string()};
  return model;
}

TEST(CheckOutputsSpareInputs, RefusesTheModelAndEveryFileItReads) {
  const std::string dir = Fresh("inputs");
  for (const char* name : {"CesiumMan.gltf", "CesiumMan0.bin", "CesiumMan.jpg"}) {
    Put(dir + "/" + name, name);
  }
  fs::create_symlink("CesiumMan.jpg", dir + "/picture.jpg");
  const Model model = ModelReading(dir);
  std::string reason;
  EXPECT_FALSE(CheckOutputsSpareInputs(model, {dir + "/CesiumMan.gltf"}, &reason));
  EXPECT_THAT(reason, HasSubstr("input model"));
  EXPECT_THAT(reason, HasSubstr("refusing to overwrite"));
  // The sidecar of CesiumMan0.gltf is the model's own buffer.
  EXPECT_FALSE(
      CheckOutputsSpareInputs(model, {dir + "/CesiumMan0.gltf", dir + "/CesiumMan0.bin"}, &reason));
  EXPECT_THAT(reason, HasSubstr("CesiumMan0.bin"));
  EXPECT_THAT(reason, HasSubstr("reads"));
  // Its texture, through a symlink.
  EXPECT_FALSE(CheckOutputsSpareInputs(model, {dir + "/picture.jpg"}, &reason));
  EXPECT_THAT(reason, HasSubstr("CesiumMan.jpg"));
  EXPECT_TRUE(CheckOutputsSpareInputs(model, {dir + "/out.gltf", dir + "/out.bin"}, &reason))
      << reason;
}

TEST(CheckOutputsSpareInputs, TheModelFileCountsEvenWhenTheImportListedNothing) {
  const std::string dir = Fresh("source-only");
  Put(dir + "/m.glb", "m");
  fs::create_symlink("m.glb", dir + "/alias.png");
  Model model;
  model.source = dir + "/m.glb";
  std::string reason;
  EXPECT_FALSE(CheckOutputsSpareInputs(model, {dir + "/m.glb"}, &reason));
  EXPECT_FALSE(CheckOutputsSpareInputs(model, {dir + "/alias.png"}, &reason));
  EXPECT_THAT(reason, HasSubstr("input model " + dir + "/m.glb"));
  EXPECT_TRUE(CheckOutputsSpareInputs(model, {dir + "/other.glb"}, &reason));
  // The built-in character has no files.
  Model builtin;
  builtin.source = "<built-in>";
  EXPECT_TRUE(ModelInputFiles(builtin).empty());
  EXPECT_TRUE(CheckOutputsSpareInputs(builtin, {dir + "/m.glb"}, &reason));
}

}  // namespace
}  // namespace assets
