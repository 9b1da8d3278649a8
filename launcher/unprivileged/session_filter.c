/* SPDX-License-Identifier: MIT */
/*
 * session_filter.c: the session server's own seccomp allow-list (see
 * session.h: ward_session_srv_filter).
 */
#include "session.h"

#include "util.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* What S does once it has dropped (docs/spec.md 7.1): it polls the
 * descriptors it was given (the listening socket, the driver's pipes, the
 * broker's and the courier's socket, P's), accepts connections, reads and
 * writes them, receives the run report's descriptor from P (SCM_RIGHTS)
 * and reads it, and keeps time. Not in the list: opening a file by name
 * (openat: S is given every descriptor it needs), a socket of its own,
 * connect, bind, exec, fork, kill, ptrace, mount, any change of ids or
 * of namespaces. */
const int ward_session_srv_syscalls[] = {
    SYS_read,
    SYS_write,
    SYS_readv,
    SYS_writev,
    SYS_close,
    SYS_lseek,
    SYS_fstat,
    SYS_newfstatat,
    SYS_fcntl,
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
    SYS_futex,
    SYS_restart_syscall,
    SYS_clock_gettime,
    SYS_clock_nanosleep,
    SYS_getrandom,
    SYS_getpid,
    SYS_gettid,
    SYS_getppid,
    SYS_accept4,
    SYS_recvfrom,
    SYS_sendto,
    SYS_recvmsg,
    SYS_sendmsg,
    SYS_shutdown,
    SYS_exit,
    SYS_exit_group,
    /* the sanitizers' runtime (make SAN=1), as in every list of ward's
     * (syscalls_base.h): an alternate signal stack, its own ids, a yield */
    SYS_sigaltstack,
    SYS_sched_yield,
    SYS_getuid,
    SYS_geteuid,
    SYS_getgid,
    SYS_getegid,
#ifdef SYS_poll /* x86_64; aarch64 has only ppoll */
    SYS_poll,
#endif
};
const size_t ward_session_srv_nsyscalls = ARRAY_LEN(ward_session_srv_syscalls);

#define STMT(c, k) ((struct sock_filter)BPF_STMT((c), (k)))
#define JEQ(k, jt, jf)                                                         \
	((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (jt),    \
				      (jf)))
#define RET(k) STMT(BPF_RET | BPF_K, (k))

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "the session server's filter knows x86_64 and aarch64"
#endif

int ward_session_srv_filter(void)
{
	struct sock_filter f[ARRAY_LEN(ward_session_srv_syscalls) + 8];
	struct sock_fprog prog = {.filter = f};
	size_t n = 0, nallow = ward_session_srv_nsyscalls;

	/* The time zone, read now: formatting a time later would open
	 * /etc/localtime, which the filter refuses. */
	tzset();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	f[n++] =
	    STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = JEQ(NATIVE_ARCH, 1, 0);
	f[n++] = RET(SECCOMP_RET_KILL_PROCESS);
	f[n++] =
	    STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
	/* The x32 ABI shares the architecture value. */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
					      0x40000000u, 0, 1);
	f[n++] = RET(SECCOMP_RET_KILL_PROCESS);
#endif
	for (size_t i = 0; i < nallow; i++)
		/* A match jumps to the allow at the end. */
		f[n++] = JEQ((uint32_t)ward_session_srv_syscalls[i],
			     (uint8_t)(nallow - i), 0);
	/* A refusal, not a kill: S reports a failed call as an error and
	 * goes on serving or ends the session with a reason. */
	f[n++] = RET(SECCOMP_RET_ERRNO | EPERM);
	f[n++] = RET(SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}
