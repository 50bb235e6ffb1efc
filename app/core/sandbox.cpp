// seccomp-bpf and Landlock for the import worker, by prctl and raw system calls (no library).
#include "app/core/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace app {

namespace {

// --- Landlock (declared here: Debian 12's headers stop at ABI 2) ---

struct LandlockRulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;  // ABI 4
  uint64_t scoped;              // ABI 6
};

constexpr uint64_t kFsExecute = 1ull << 0, kFsWriteFile = 1ull << 1, kFsRemoveDir = 1ull << 4,
                   kFsRemoveFile = 1ull << 5, kFsMakeChar = 1ull << 6, kFsMakeDir = 1ull << 7,
                   kFsMakeReg = 1ull << 8, kFsMakeSock = 1ull << 9, kFsMakeFifo = 1ull << 10,
                   kFsMakeBlock = 1ull << 11, kFsMakeSym = 1ull << 12, kFsRefer = 1ull << 13,
                   kFsTruncate = 1ull << 14;
constexpr uint64_t kNetBindTcp = 1ull << 0, kNetConnectTcp = 1ull << 1;
constexpr uint64_t kScopeAbstractUnixSocket = 1ull << 0, kScopeSignal = 1ull << 1;
constexpr uint32_t kCreateRulesetVersion = 1u << 0;

// Landlock with every write-like right handled and none granted; the ABI version, or 0.
int EnterLandlock() {
#if defined(__NR_landlock_create_ruleset) && defined(__NR_landlock_restrict_self)
  const long abi = syscall(__NR_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  if (abi < 1) return 0;
  LandlockRulesetAttr attr{};
  attr.handled_access_fs = kFsExecute | kFsWriteFile | kFsRemoveDir | kFsRemoveFile | kFsMakeChar |
                           kFsMakeDir | kFsMakeReg | kFsMakeSock | kFsMakeFifo | kFsMakeBlock |
                           kFsMakeSym;
  size_t size = sizeof(uint64_t);
  if (abi >= 2) attr.handled_access_fs |= kFsRefer;
  if (abi >= 3) attr.handled_access_fs |= kFsTruncate;
  if (abi >= 4) {
    attr.handled_access_net = kNetBindTcp | kNetConnectTcp;
    size = 2 * sizeof(uint64_t);
  }
  if (abi >= 6) {
    attr.scoped = kScopeAbstractUnixSocket | kScopeSignal;
    size = sizeof(attr);
  }
  const long ruleset = syscall(__NR_landlock_create_ruleset, &attr, size, 0u);
  if (ruleset < 0) return 0;
  const long restricted = syscall(__NR_landlock_restrict_self, static_cast<int>(ruleset), 0u);
  close(static_cast<int>(ruleset));
  return restricted == 0 ? static_cast<int>(abi) : 0;
#else
  return 0;
#endif
}

// --- seccomp ---

class Filter {
 public:
  void Add(sock_filter instruction) { program_.push_back(instruction); }
  void Statement(uint16_t code, uint32_t k) { Add(BPF_STMT(code, k)); }
  void Jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) { Add(BPF_JUMP(code, k, jt, jf)); }
  void LoadNumber() { Statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)); }
  // The low 32 bits of argument `i` (little-endian).
  void LoadArgument(int i) {
    Statement(BPF_LD | BPF_W | BPF_ABS,
              static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * static_cast<size_t>(i)));
  }
  static uint32_t Fail(int error) {
    return SECCOMP_RET_ERRNO | (static_cast<uint32_t>(error) & SECCOMP_RET_DATA);
  }
  // System call `nr` fails with `error`.
  void Deny(long nr, int error) {
    Jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 1);
    Statement(BPF_RET | BPF_K, Fail(error));
  }
  // System call `nr` fails with `error` when testing argument `arg` against `value` with `test`
  // (BPF_JSET: any bit set; BPF_JEQ: equal) comes out `deny_when`; otherwise it is allowed.
  void DenyByArgument(long nr, int arg, uint16_t test, uint32_t value, bool deny_when, int error) {
    Jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 4);
    LoadArgument(arg);
    Jump(static_cast<uint16_t>(BPF_JMP | test | BPF_K), value, deny_when ? 0 : 1,
         deny_when ? 1 : 0);
    Statement(BPF_RET | BPF_K, Fail(error));
    Statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  }
  // System call `nr` fails with `error` when argument `arg` has any bit of `mask` set.
  void DenyWithFlags(long nr, int arg, uint32_t mask, int error) {
    DenyByArgument(nr, arg, BPF_JSET, mask, true, error);
  }
  // System call `nr` fails with `error` unless argument `arg` has a bit of `mask` set.
  void DenyWithoutFlags(long nr, int arg, uint32_t mask, int error) {
    DenyByArgument(nr, arg, BPF_JSET, mask, false, error);
  }
  // System call `nr` fails with `error` unless argument `arg` equals `value`.
  void DenyUnlessEqual(long nr, int arg, uint32_t value, int error) {
    DenyByArgument(nr, arg, BPF_JEQ, value, false, error);
  }
  bool Install() {
    sock_fprog program{static_cast<unsigned short>(program_.size()), program_.data()};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
  }

 private:
  std::vector<sock_filter> program_;
};

bool EnterSeccomp(std::string* why_not) {
#if defined(__x86_64__)
  constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
  constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
  *why_not = "no system-call table known for this architecture";
  return false;
#endif
  Filter f;
  // Another architecture's calls (the 32-bit entry point) would bypass the table below.
  f.Statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  f.Jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0);
  f.Statement(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  f.LoadNumber();
#if defined(__x86_64__)
  // x32 calls (the same numbers with bit 30 set).
  f.Jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
  f.Statement(BPF_RET | BPF_K, Filter::Fail(EPERM));
#endif
  const uint32_t write_flags = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
#ifdef __NR_open
  f.DenyWithFlags(__NR_open, 1, write_flags, EACCES);
  f.LoadNumber();
#endif
  f.DenyWithFlags(__NR_openat, 2, write_flags, EACCES);
  f.LoadNumber();
  // New processes: threads share the address space (CLONE_VM), a new process does not.
  f.DenyWithoutFlags(__NR_clone, 0, CLONE_VM, EPERM);
  f.LoadNumber();
  // Signals only to this process (abort() and raise() send them to it).
  const uint32_t self = static_cast<uint32_t>(getpid());
  f.DenyUnlessEqual(__NR_kill, 0, self, EPERM);
  f.LoadNumber();
  f.DenyUnlessEqual(__NR_tgkill, 0, self, EPERM);
  f.LoadNumber();
  f.DenyUnlessEqual(__NR_tkill, 0, self, EPERM);
  f.LoadNumber();
  const long denied[] = {
      __NR_execve,
      __NR_execveat,
      __NR_ptrace,
      __NR_process_vm_writev,
      __NR_process_vm_readv,
      __NR_socket,
      __NR_socketpair,
      __NR_connect,
      __NR_bind,
      __NR_listen,
      __NR_accept,
      __NR_accept4,
      __NR_mkdirat,
      __NR_unlinkat,
      __NR_renameat,
      __NR_renameat2,
      __NR_linkat,
      __NR_symlinkat,
      __NR_mknodat,
      __NR_fchmod,
      __NR_fchmodat,
      __NR_fchown,
      __NR_fchownat,
      __NR_truncate,
      __NR_ftruncate,
      __NR_utimensat,
      __NR_setxattr,
      __NR_lsetxattr,
      __NR_fsetxattr,
      __NR_removexattr,
      __NR_lremovexattr,
      __NR_fremovexattr,
      __NR_mount,
      __NR_umount2,
      __NR_pivot_root,
      __NR_chroot,
      __NR_io_uring_setup,
      __NR_io_uring_enter,
      __NR_io_uring_register,
      __NR_bpf,
      __NR_perf_event_open,
      __NR_userfaultfd,
      __NR_keyctl,
      __NR_add_key,
      __NR_request_key,
      __NR_pidfd_send_signal,
      __NR_rt_sigqueueinfo,
      __NR_rt_tgsigqueueinfo,
      __NR_setns,
      __NR_unshare,
      __NR_open_by_handle_at,
      __NR_name_to_handle_at,
      __NR_init_module,
      __NR_finit_module,
      __NR_delete_module,
      __NR_kexec_load,
      __NR_reboot,
      __NR_swapon,
      __NR_swapoff,
      __NR_acct,
      __NR_quotactl,
      __NR_sethostname,
      __NR_setdomainname,
      __NR_settimeofday,
      __NR_clock_settime,
      __NR_adjtimex,
      __NR_fanotify_init,
#ifdef __NR_fork
      __NR_fork,
      __NR_vfork,
      __NR_creat,
      __NR_mkdir,
      __NR_rmdir,
      __NR_unlink,
      __NR_rename,
      __NR_link,
      __NR_symlink,
      __NR_mknod,
      __NR_chmod,
      __NR_chown,
      __NR_lchown,
      __NR_utime,
      __NR_utimes,
      __NR_futimesat,
#endif
  };
  for (long nr : denied) f.Deny(nr, nr == __NR_execve || nr == __NR_execveat ? EACCES : EPERM);
  // Calls whose arguments a filter cannot read (structures): glibc falls back to the older ones.
  f.Deny(__NR_clone3, ENOSYS);
#ifdef __NR_openat2
  f.Deny(__NR_openat2, ENOSYS);
#else
  f.Deny(437, ENOSYS);  // openat2
#endif
  f.Statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  if (!f.Install()) {
    *why_not = std::string("seccomp: ") + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace

SandboxStatus EnterImportSandbox() {
  SandboxStatus status;
  // Required by both, and by seccomp for an unprivileged process: no exec can gain rights.
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    status.why_not = std::string("no_new_privs: ") + std::strerror(errno);
    return status;
  }
  status.landlock_abi = EnterLandlock();
  status.seccomp = EnterSeccomp(&status.why_not);
  return status;
}

}  // namespace app
