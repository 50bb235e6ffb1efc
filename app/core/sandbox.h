// The import worker's sandbox: once it holds the model file's name, the worker (which runs Assimp
// on untrusted files, and Assimp 5.2.5 has memory errors of its own) may read files and write to
// the pipes it already has, nothing else. A corrupted heap there then cannot write or delete a
// file, start a program, reach the network or signal another process.
#pragma once

#include <string>

namespace app {

// What EnterImportSandbox could put in place.
struct SandboxStatus {
  bool seccomp = false;  // the system-call filter (every Linux since 3.5)
  int landlock_abi = 0;  // Landlock's ABI version when its file-system rules apply, else 0
  std::string why_not;   // when seccomp is missing: the reason
};

// Confines the calling process, for good (irreversible; its threads to come inherit it):
//  - no_new_privs, then Landlock where the kernel has it: no file may be written, truncated,
//    created, removed, renamed, linked or executed anywhere (reading is untouched), and from
//    ABI 4 no TCP bind or connect, from ABI 6 no signal to a process outside the sandbox;
//  - a seccomp filter, which needs nothing from the kernel's configuration beyond seccomp itself:
//    open/openat with a write, create, truncate or append flag fail with EACCES; execve, fork,
//    vfork, clone without CLONE_VM (a new process; threads are fine), clone3 (ENOSYS, so glibc
//    falls back to clone), ptrace, sockets, io_uring, signals to other processes, and every
//    call that changes a file's name, links, permissions, owner, size, times or attributes fail
//    with EPERM; anything not on the x86-64 system-call table kills the process.
// Returns what was applied; seccomp false (with why_not) only where the kernel refuses it.
SandboxStatus EnterImportSandbox();

}  // namespace app
