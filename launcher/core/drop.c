/* SPDX-License-Identifier: MIT */
/*
 * drop.c: see drop.h.
 */
#include "drop.h"

#include <errno.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What a process that reads, hashes, copies and removes files, and writes
 * to descriptors it was given, needs: no socket, no exec, no mount, no
 * ptrace, no kill, no namespace, no change of ids. Anything else fails
 * with EPERM (not a kill: a refusal is an error the code reports). */
static const int allowed[] = {
    SYS_read,
    SYS_write,
    SYS_readv,
    SYS_writev,
    SYS_pread64,
    SYS_pwrite64,
    SYS_close,
    SYS_lseek,
    SYS_fstat,
    SYS_newfstatat,
    SYS_statx,
    SYS_fstatfs,
    SYS_openat,
    SYS_openat2,
    SYS_getdents64,
    SYS_mkdirat,
    SYS_unlinkat,
    SYS_renameat2,
    SYS_readlinkat,
    SYS_fchmod,
    SYS_fchmodat,
    SYS_utimensat, /* a copy keeps the modification time (treecopy.h) */
    SYS_faccessat,
    SYS_faccessat2,
    SYS_fsync,
    SYS_fdatasync,
    SYS_ftruncate,
    SYS_flock,
    SYS_recvmsg,
    SYS_symlinkat,
    SYS_statfs,
    SYS_fcntl,
    SYS_dup,
    SYS_dup3,
    SYS_mmap,
    SYS_munmap,
    SYS_mremap,
    SYS_mprotect,
    SYS_madvise,
    SYS_brk,
    SYS_ppoll,
    SYS_rt_sigaction,
    SYS_rt_sigprocmask,
    SYS_rt_sigreturn,
    SYS_sigaltstack,
    SYS_futex,
    SYS_sched_yield,
    SYS_restart_syscall,
    SYS_clock_gettime,
    SYS_clock_nanosleep,
    SYS_getrandom,
    SYS_getpid,
    SYS_getppid,
    SYS_gettid,
    SYS_getuid,
    SYS_geteuid,
    SYS_getgid,
    SYS_getegid,
    SYS_exit,
    SYS_exit_group,
#ifdef SYS_poll /* x86_64; aarch64 has only ppoll */
    SYS_poll,
    SYS_chmod,
    SYS_dup2,
    SYS_renameat,
    SYS_stat,
    SYS_lstat,
    SYS_open,
    SYS_access,
#endif
};

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "ward: no seccomp architecture for this machine"
#endif

#define NALLOWED ARRAY_LEN(allowed)
#define NINSNS	 (NALLOWED + 8)

static int install_filter(ward_err *err)
{
	struct sock_filter f[NINSNS];
	struct sock_fprog prog = {.filter = f};
	size_t n = 0;

	f[n++] = (struct sock_filter)BPF_STMT(
	    BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					      NATIVE_ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					      SECCOMP_RET_KILL_PROCESS);
	f[n++] = (struct sock_filter)BPF_STMT(
	    BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
	/* The x32 ABI shares the architecture value (Kafel's lesson). */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
					      0x40000000u, 0, 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					      SECCOMP_RET_KILL_PROCESS);
#endif
	for (size_t i = 0; i < NALLOWED; i++)
		/* A match jumps to the allow at the end. */
		f[n++] = (struct sock_filter)BPF_JUMP(
		    BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)allowed[i],
		    (uint8_t)(NALLOWED - i), 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					      SECCOMP_RET_ERRNO | EPERM);
	f[n++] =
	    (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return ward_fail(err, errno, "seccomp: the courier's filter");
	return 0;
}

/* Root mode: the sandbox's host ids, and nothing else. */
static int become(const struct ward_drop *d, ward_err *err)
{
	cap_t none;

	if (setgroups(0, NULL) < 0)
		return ward_fail(err, errno, "setgroups");
	if (setresgid(d->gid, d->gid, d->gid) < 0)
		return ward_fail(err, errno, "setresgid %u", (unsigned)d->gid);
	/* Bounding and ambient go first: they need CAP_SETPCAP, which the
	 * uid change below takes away with every other capability. */
	for (int c = 0; c <= CAP_LAST_CAP; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
			return ward_fail(err, errno, "drop capability %d", c);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return ward_fail(err, errno, "clear the ambient capabilities");
	if (setresuid(d->uid, d->uid, d->uid) < 0)
		return ward_fail(err, errno, "setresuid %u", (unsigned)d->uid);
	/* Checked, not assumed: nothing may be left in any set. */
	none = cap_init();
	if (!none)
		return ward_fail(err, errno, "cap_init");
	if (cap_set_proc(none) < 0) {
		cap_free(none);
		return ward_fail(err, errno, "clear the capabilities");
	}
	cap_free(none);
	if (setresuid(0, 0, 0) == 0)
		return ward_fail(err, 0, "the uid change can be undone");
	return 0;
}

int ward_drop_privileges(const struct ward_drop *d, ward_err *err)
{
	if (d->change_ids && become(d, err) < 0)
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return ward_fail(err, errno, "prctl PR_SET_NO_NEW_PRIVS");
	/* After the id change, which would reset both. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return ward_fail(err, errno, "prctl PR_SET_DUMPABLE");
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		return ward_fail(err, errno, "prctl PR_SET_PDEATHSIG");
	if (getppid() != d->parent)
		_exit(1); /* the supervisor is already gone */
	return install_filter(err);
}
