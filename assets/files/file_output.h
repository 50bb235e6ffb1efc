// Writing output files so that a failed write never leaves a half-written or clobbered file: the
// bytes go to a temporary file beside the target, which is renamed over it only once complete.
// Also the check that an output does not overwrite a file the input model is made of.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "assets/model/model.h"

namespace assets {

// One file of an output: where it goes and its complete contents (not owned; must stay valid for
// the call).
struct OutputFile {
  std::string path;
  const void* data = nullptr;
  size_t size = 0;
};

// Writes `size` bytes to `path` so that `path` holds either its previous contents or all of the
// new ones:
//  - a regular file (or a path that does not exist yet) is written to a temporary file in the same
//    folder (".<name>.tmp-XXXXXX"), checked write by write, flushed to disk, given the old file's
//    permissions (new files: 0666 less the umask) and renamed over `path`; a symlink is followed
//    and the file it points to is replaced;
//  - an existing target that is a character device (/dev/null, /dev/full) and the standard
//    streams (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/.../fd/N, or any name of the file
//    standard output or error is) are never renamed over: they are opened and written directly,
//    every write checked (the /proc and /dev/fd forms in append mode, so that `-o /dev/stdout >>
//    log` appends);
//  - a FIFO, a socket or a block device that is not a standard stream is refused (OutputProblem):
//    a FIFO nobody reads would block forever;
//  - the temporary file is removed on every failure. It is written unnamed (O_TMPFILE) and named
//    only just before its rename, so a writer killed on the way leaves nothing; where the file
//    system cannot, it is named and locked (flock) while written, and an unlocked one of our
//    naming (left by a writer that died) is removed by the next write beside the same target.
// Fails (false, "<path>: cannot write: <reason>" in *error) when the folder does not exist or is
// not writable, `path` is a directory or a file this user may not write (a rename would replace
// it regardless), or any write, flush or close fails (ENOSPC, EFBIG, EIO...).
// A file-size limit (ulimit -f) raises SIGXFSZ, which kills the process unless it is ignored:
// programs ignore it (signal(SIGXFSZ, SIG_IGN)) so the limit reports EFBIG here instead.
bool WriteFileAtomically(const std::string& path, const void* data, size_t size,
                         std::string* error);

// Why `path` cannot be an output (OutputProblem): "" when it is a regular file, a character
// device, a standard stream, or does not exist; otherwise "it is a FIFO (named pipe); outputs
// are ..." (likewise for a socket or a block device). Never blocks. For outputs not written
// through WriteFilesAtomically (the viewer's --trace).
std::string OutputProblem(const std::string& path);

// The same for files that belong together (a .gltf and its .bin): every regular file is first
// written to its temporary file, then the direct targets are written, and only when all of that
// succeeded are the temporary files renamed into place, in the order given (so list the file that
// refers to the others last). On failure before the renames no target is touched.
bool WriteFilesAtomically(const std::vector<OutputFile>& files, std::string* error);

// True when `a` and `b` are the same file: the same device and inode when both exist, else the
// same absolute path once the symlinks of its existing part are resolved.
bool SameFile(const std::string& a, const std::string& b);

// The files `model` was read from: Model::source_files, plus Model::source itself (always, so the
// check below holds even where the import did not list its files); none for the built-in
// character.
std::vector<std::string> ModelInputFiles(const Model& model);

// Checks that writing `outputs` (the main output first, then files written beside it) leaves every
// input file of `model` alone (SameFile). False with a reason in *reason when one would be
// overwritten, e.g. "that is the input model m.glb; refusing to overwrite it" or "writing it also
// writes CesiumMan0.bin, a file the input model CesiumMan.gltf reads; refusing to overwrite it".
// The reason does not name the output: callers put it (or the option) in front.
bool CheckOutputsSpareInputs(const Model& model, const std::vector<std::string>& outputs,
                             std::string* reason);

}  // namespace assets
