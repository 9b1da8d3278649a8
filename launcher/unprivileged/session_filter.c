/* SPDX-License-Identifier: MIT */
/*
 * session_filter.c: the session server's own seccomp allow-list (see
 * session.h: ward_session_srv_filter).
 */
#include "session.h"

#include "allowlist.h"
#include "util.h"

#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>

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

int ward_session_srv_filter(void)
{
	ward_err err;

	/* The time zone, read now: formatting a time later would open
	 * /etc/localtime, which the filter refuses. */
	tzset();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	/* Anything else fails with EPERM, not a kill: S reports a failed
	 * call as an error and goes on serving or ends the session with a
	 * reason. */
	return ward_allowlist_install(ward_session_srv_syscalls,
				      ward_session_srv_nsyscalls, NULL, 0,
				      &err);
}
