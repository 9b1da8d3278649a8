/* SPDX-License-Identifier: MIT */
/*
 * syscalls_base.h: what every unprivileged process of ward's needs in its
 * own seccomp allow-list (launcher/core/drop.c): its memory, its signals,
 * futexes, time, randomness, its own ids, reading and writing and closing
 * the descriptors it has, the end. The courier and the broker each add
 * what their job needs, and nothing else.
 */
#ifndef WARD_SYSCALLS_BASE_H
#define WARD_SYSCALLS_BASE_H

#include <sys/syscall.h>

#define WARD_SYSCALLS_BASE                                                     \
	SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_close, SYS_lseek,      \
	    SYS_fstat, SYS_newfstatat, SYS_statx, SYS_openat, SYS_openat2,     \
	    SYS_fcntl, SYS_dup, SYS_dup3, SYS_mmap, SYS_munmap, SYS_mremap,    \
	    SYS_mprotect, SYS_madvise, SYS_brk, SYS_ppoll, SYS_rt_sigaction,   \
	    SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_sigaltstack, SYS_futex,  \
	    SYS_sched_yield, SYS_restart_syscall, SYS_clock_gettime,           \
	    SYS_clock_nanosleep, SYS_getrandom, SYS_getpid, SYS_getppid,       \
	    SYS_gettid, SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid,      \
	    SYS_exit, SYS_exit_group

#endif
