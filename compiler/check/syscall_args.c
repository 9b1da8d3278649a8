/* SPDX-License-Identifier: MIT */
/*
 * syscall_args.c: the built-in argument names of common syscalls (spec
 * appendix A; syscall_args.h), so that a condition reads `socket if domain
 * == AF_UNIX` and explain prints "arg0 (domain)".
 *
 * Names are those of the man pages' prototypes (section 2) for the raw
 * syscall, which is what a seccomp filter sees: rt_sigaction has its
 * sigsetsize, waitid its rusage, signalfd4 its sizemask. A syscall that
 * exists on one target only (open, stat, arch_prctl on x86_64) is listed all
 * the same; the checker decides what a missing syscall means.
 */
#include "syscall_args.h"

#include <string.h>

#include "policy.h"

#define MAX_ARGS 6

struct syscall_args {
	const char *name;
	const char *args[MAX_ARGS]; /* unused slots are NULL */
};

/* Sorted by name (strcmp order): looked up by binary search. */
static const struct syscall_args table[] = {
    {"accept", {"sockfd", "addr", "addrlen"}},
    {"accept4", {"sockfd", "addr", "addrlen", "flags"}},
    {"access", {"pathname", "mode"}},
    {"alarm", {"seconds"}},
    {"arch_prctl", {"code", "addr"}},
    {"bind", {"sockfd", "addr", "addrlen"}},
    {"bpf", {"cmd", "attr", "size"}},
    {"brk", {"addr"}},
    {"chdir", {"path"}},
    {"chmod", {"pathname", "mode"}},
    {"chown", {"pathname", "owner", "group"}},
    {"chroot", {"path"}},
    {"clock_getres", {"clockid", "res"}},
    {"clock_gettime", {"clockid", "tp"}},
    {"clock_nanosleep", {"clockid", "flags", "request", "remain"}},
    {"clock_settime", {"clockid", "tp"}},
    /* x86_64's order; aarch64's is in aarch64_orders below */
    {"clone", {"flags", "stack", "parent_tid", "child_tid", "tls"}},
    {"clone3", {"cl_args", "size"}},
    {"close", {"fd"}},
    {"close_range", {"first", "last", "flags"}},
    {"connect", {"sockfd", "addr", "addrlen"}},
    {"copy_file_range",
     {"fd_in", "off_in", "fd_out", "off_out", "len", "flags"}},
    {"creat", {"pathname", "mode"}},
    {"dup", {"oldfd"}},
    {"dup2", {"oldfd", "newfd"}},
    {"dup3", {"oldfd", "newfd", "flags"}},
    {"epoll_create", {"size"}},
    {"epoll_create1", {"flags"}},
    {"epoll_ctl", {"epfd", "op", "fd", "event"}},
    {"epoll_pwait",
     {"epfd", "events", "maxevents", "timeout", "sigmask", "sigsetsize"}},
    {"epoll_wait", {"epfd", "events", "maxevents", "timeout"}},
    {"eventfd", {"initval"}},
    {"eventfd2", {"initval", "flags"}},
    {"execve", {"pathname", "argv", "envp"}},
    {"execveat", {"dirfd", "pathname", "argv", "envp", "flags"}},
    {"exit", {"status"}},
    {"exit_group", {"status"}},
    {"faccessat", {"dirfd", "pathname", "mode"}},
    {"faccessat2", {"dirfd", "pathname", "mode", "flags"}},
    {"fadvise64", {"fd", "offset", "len", "advice"}},
    {"fallocate", {"fd", "mode", "offset", "len"}},
    {"fchdir", {"fd"}},
    {"fchmod", {"fd", "mode"}},
    {"fchmodat", {"dirfd", "pathname", "mode"}},
    {"fchown", {"fd", "owner", "group"}},
    {"fchownat", {"dirfd", "pathname", "owner", "group", "flags"}},
    {"fcntl", {"fd", "cmd", "arg"}},
    {"flock", {"fd", "operation"}},
    {"fstat", {"fd", "statbuf"}},
    {"ftruncate", {"fd", "length"}},
    {"futex", {"uaddr", "futex_op", "val", "timeout", "uaddr2", "val3"}},
    {"getcwd", {"buf", "size"}},
    {"getdents64", {"fd", "dirp", "count"}},
    {"getpeername", {"sockfd", "addr", "addrlen"}},
    {"getpgid", {"pid"}},
    {"getpriority", {"which", "who"}},
    {"getrandom", {"buf", "buflen", "flags"}},
    {"getrlimit", {"resource", "rlim"}},
    {"getsockname", {"sockfd", "addr", "addrlen"}},
    {"getsockopt", {"sockfd", "level", "optname", "optval", "optlen"}},
    {"inotify_add_watch", {"fd", "pathname", "mask"}},
    {"inotify_init1", {"flags"}},
    {"ioctl", {"fd", "request", "arg"}},
    {"kill", {"pid", "sig"}},
    {"lchown", {"pathname", "owner", "group"}},
    {"link", {"oldpath", "newpath"}},
    {"linkat", {"olddirfd", "oldpath", "newdirfd", "newpath", "flags"}},
    {"listen", {"sockfd", "backlog"}},
    {"lseek", {"fd", "offset", "whence"}},
    {"lstat", {"pathname", "statbuf"}},
    {"madvise", {"addr", "length", "advice"}},
    {"membarrier", {"cmd", "flags", "cpu_id"}},
    {"memfd_create", {"name", "flags"}},
    {"mkdir", {"pathname", "mode"}},
    {"mkdirat", {"dirfd", "pathname", "mode"}},
    {"mknod", {"pathname", "mode", "dev"}},
    {"mknodat", {"dirfd", "pathname", "mode", "dev"}},
    {"mlock", {"addr", "len"}},
    {"mlock2", {"addr", "len", "flags"}},
    {"mlockall", {"flags"}},
    {"mmap", {"addr", "length", "prot", "flags", "fd", "offset"}},
    {"mount", {"source", "target", "filesystemtype", "mountflags", "data"}},
    {"mprotect", {"addr", "len", "prot"}},
    {"mremap", {"old_address", "old_size", "new_size", "flags", "new_address"}},
    {"msync", {"addr", "length", "flags"}},
    {"munlock", {"addr", "len"}},
    {"munmap", {"addr", "length"}},
    {"nanosleep", {"req", "rem"}},
    {"newfstatat", {"dirfd", "pathname", "statbuf", "flags"}},
    {"open", {"pathname", "flags", "mode"}},
    {"openat", {"dirfd", "pathname", "flags", "mode"}},
    {"openat2", {"dirfd", "pathname", "how", "size"}},
    {"perf_event_open", {"attr", "pid", "cpu", "group_fd", "flags"}},
    {"personality", {"persona"}},
    {"pidfd_getfd", {"pidfd", "targetfd", "flags"}},
    {"pidfd_open", {"pid", "flags"}},
    {"pidfd_send_signal", {"pidfd", "sig", "info", "flags"}},
    {"pipe", {"pipefd"}},
    {"pipe2", {"pipefd", "flags"}},
    {"poll", {"fds", "nfds", "timeout"}},
    {"ppoll", {"fds", "nfds", "tmo_p", "sigmask", "sigsetsize"}},
    /* man 2 prctl names the others arg2..arg5, but in a policy argN is
     * always position N: the man page's arg2 is arg1 there. */
    {"prctl", {"option"}},
    {"pread64", {"fd", "buf", "count", "offset"}},
    {"prlimit64", {"pid", "resource", "new_limit", "old_limit"}},
    {"process_vm_readv",
     {"pid", "local_iov", "liovcnt", "remote_iov", "riovcnt", "flags"}},
    {"process_vm_writev",
     {"pid", "local_iov", "liovcnt", "remote_iov", "riovcnt", "flags"}},
    {"ptrace", {"request", "pid", "addr", "data"}},
    {"pwrite64", {"fd", "buf", "count", "offset"}},
    {"read", {"fd", "buf", "count"}},
    {"readlink", {"pathname", "buf", "bufsiz"}},
    {"readlinkat", {"dirfd", "pathname", "buf", "bufsiz"}},
    {"readv", {"fd", "iov", "iovcnt"}},
    {"recvfrom", {"sockfd", "buf", "len", "flags", "src_addr", "addrlen"}},
    {"recvmmsg", {"sockfd", "msgvec", "vlen", "flags", "timeout"}},
    {"recvmsg", {"sockfd", "msg", "flags"}},
    {"rename", {"oldpath", "newpath"}},
    {"renameat", {"olddirfd", "oldpath", "newdirfd", "newpath"}},
    {"renameat2", {"olddirfd", "oldpath", "newdirfd", "newpath", "flags"}},
    {"rmdir", {"pathname"}},
    {"rseq", {"rseq", "rseq_len", "flags", "sig"}},
    {"rt_sigaction", {"signum", "act", "oldact", "sigsetsize"}},
    {"rt_sigprocmask", {"how", "set", "oldset", "sigsetsize"}},
    {"rt_sigqueueinfo", {"tgid", "sig", "info"}},
    {"rt_tgsigqueueinfo", {"tgid", "tid", "sig", "info"}},
    {"sched_getaffinity", {"pid", "cpusetsize", "mask"}},
    {"sched_setaffinity", {"pid", "cpusetsize", "mask"}},
    {"sched_setscheduler", {"pid", "policy", "param"}},
    {"seccomp", {"operation", "flags", "args"}},
    {"sendfile", {"out_fd", "in_fd", "offset", "count"}},
    {"sendmmsg", {"sockfd", "msgvec", "vlen", "flags"}},
    {"sendmsg", {"sockfd", "msg", "flags"}},
    {"sendto", {"sockfd", "buf", "len", "flags", "dest_addr", "addrlen"}},
    {"set_robust_list", {"head", "len"}},
    {"set_tid_address", {"tidptr"}},
    {"setfsgid", {"fsgid"}},
    {"setfsuid", {"fsuid"}},
    {"setgid", {"gid"}},
    {"setgroups", {"size", "list"}},
    {"setitimer", {"which", "new_value", "old_value"}},
    {"setns", {"fd", "nstype"}},
    {"setpgid", {"pid", "pgid"}},
    {"setpriority", {"which", "who", "prio"}},
    {"setregid", {"rgid", "egid"}},
    {"setresgid", {"rgid", "egid", "sgid"}},
    {"setresuid", {"ruid", "euid", "suid"}},
    {"setreuid", {"ruid", "euid"}},
    {"setrlimit", {"resource", "rlim"}},
    {"setsockopt", {"sockfd", "level", "optname", "optval", "optlen"}},
    {"setuid", {"uid"}},
    {"shutdown", {"sockfd", "how"}},
    {"sigaltstack", {"ss", "old_ss"}},
    {"signalfd4", {"fd", "mask", "sizemask", "flags"}},
    {"socket", {"domain", "type", "protocol"}},
    {"socketpair", {"domain", "type", "protocol", "sv"}},
    {"splice", {"fd_in", "off_in", "fd_out", "off_out", "len", "flags"}},
    {"stat", {"pathname", "statbuf"}},
    {"statx", {"dirfd", "pathname", "flags", "mask", "statxbuf"}},
    {"symlink", {"target", "linkpath"}},
    {"symlinkat", {"target", "newdirfd", "linkpath"}},
    {"tgkill", {"tgid", "tid", "sig"}},
    {"timerfd_create", {"clockid", "flags"}},
    {"timerfd_settime", {"fd", "flags", "new_value", "old_value"}},
    {"tkill", {"tid", "sig"}},
    {"truncate", {"path", "length"}},
    {"umask", {"mask"}},
    {"umount2", {"target", "flags"}},
    {"unlink", {"pathname"}},
    {"unlinkat", {"dirfd", "pathname", "flags"}},
    {"unshare", {"flags"}},
    {"userfaultfd", {"flags"}},
    {"utimensat", {"dirfd", "pathname", "times", "flags"}},
    {"wait4", {"pid", "wstatus", "options", "rusage"}},
    {"waitid", {"idtype", "id", "infop", "options", "rusage"}},
    {"write", {"fd", "buf", "count"}},
    {"writev", {"fd", "iov", "iovcnt"}},
};

#define TABLE_LEN (sizeof table / sizeof table[0])

/* Where aarch64's raw order differs from x86_64's. clone: aarch64, like most
 * targets (the kernel's CLONE_BACKWARDS), passes tls before child_tid. */
static const struct syscall_args aarch64_orders[] = {
    {"clone", {"flags", "stack", "parent_tid", "tls", "child_tid"}},
};

static const struct syscall_args *find(const char *syscall)
{
	size_t lo = 0, hi = TABLE_LEN;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(syscall, table[mid].name);

		if (c == 0)
			return &table[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const char *const *ward_syscall_arg_names(const char *syscall, uint32_t arch,
					  size_t *n)
{
	const struct syscall_args *e = find(syscall);
	size_t k = 0;

	*n = 0;
	if (!e)
		return NULL;
	if (arch == WARD_ARCH_AARCH64)
		for (size_t i = 0;
		     i < sizeof aarch64_orders / sizeof aarch64_orders[0]; i++)
			if (strcmp(aarch64_orders[i].name, syscall) == 0)
				e = &aarch64_orders[i];
	while (k < MAX_ARGS && e->args[k])
		k++;
	*n = k;
	return e->args;
}

int ward_syscall_arg_index(const char *syscall, const char *argname,
			   uint32_t arch)
{
	size_t n;
	const char *const *args = ward_syscall_arg_names(syscall, arch, &n);

	for (size_t i = 0; args && i < n; i++)
		if (strcmp(args[i], argname) == 0)
			return (int)i;
	return -1;
}

size_t ward_syscall_args_count(void)
{
	return TABLE_LEN;
}

const char *ward_syscall_args_syscall(size_t i)
{
	return i < TABLE_LEN ? table[i].name : NULL;
}
