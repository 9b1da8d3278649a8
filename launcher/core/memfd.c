/* SPDX-License-Identifier: MIT */
/*
 * memfd.c: memfds are not executable in the sandbox unless its policy says
 * `memfd exec`.
 *
 * Why: the writable mounts are noexec, but a memfd is a file on no mount
 * of the sandbox's, and memfd_create + execveat(fd, "", AT_EMPTY_PATH) (or
 * execve of /proc/self/fd/N) runs whatever the sandbox wrote into it: a
 * binary it downloaded or built, with no file left behind (seen in issue
 * 15: `id` ran from a memfd while the same file in /tmp got EACCES).
 *
 * Linux 6.3 made this a setting of the pid namespace, vm.memfd_noexec: at
 * 2, memfd_create(MFD_EXEC) fails with EACCES and every other memfd is
 * sealed non-executable (MFD_NOEXEC_SEAL, since 6.6 also for callers that
 * pass neither flag). A namespace inherits its parent's value and cannot
 * go below it, and only a process with CAP_SYS_ADMIN in the namespace's
 * user namespace may write it: the sandbox's processes have none. init,
 * PID 1 of the new namespace, writes 2 through the host's /proc, checked
 * to be procfs (CVE-2019-16884). The file belongs to host root, and the
 * kernel checks the writer's effective uid against global root, so only
 * root mode can: rootless, and on kernels without the setting, the target
 * gets a small seccomp filter of the launcher's instead (the guard), which
 * does what the setting would: memfd_create with MFD_EXEC fails with
 * EACCES and, where the namespace's value is 0 (memfds executable unless
 * asked otherwise), so does one without MFD_NOEXEC_SEAL. On a kernel
 * before 6.3, which knows neither flag, that leaves no memfd at all: fail
 * closed.
 *
 * What this does not cover (docs/spec.md 3.4): mapping memory executable
 * (mmap or mprotect with PROT_EXEC of anonymous memory or of a memfd):
 * a JIT, or a program that loads an ELF image by hand, runs machine code it
 * wrote without execve. noexec mounts and memfd_noexec stop new program
 * images, not W^X.
 */
#include "memfd.h"

#include "check.h"
#include "hardening.h"
#include "policy.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008u
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010u
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the memfd guard reads the low half of a 64-bit argument"
#endif

/* The value of the setting in this pid namespace, -ENOENT without it. */
static int read_scope(const char *path, ward_err *err)
{
	_cleanup_close_ int fd = ward_open_procfs(path, O_RDONLY, err);
	char buf[16] = {0};

	if (fd < 0)
		return errno == ENOENT ? -ENOENT : -1;
	if (read(fd, buf, sizeof(buf) - 1) <= 0)
		return ward_fail(err, errno, "read %s", path);
	return atoi(buf);
}

/* Write 2; false if this process may not (rootless: EACCES). */
static int write_two(const char *path, ward_err *err)
{
	_cleanup_close_ int fd = ward_open_procfs(path, O_WRONLY, err);

	if (fd < 0) /* errno 0: open, but not on procfs */
		return errno ? 0 : -1;
	return write(fd, "2", 1) == 1;
}

int ward_memfd_noexec(const char *procsys, uint32_t policy_exec, ward_err *err)
{
	char path[256];
	int scope, wrote;

	snprintf(path, sizeof(path), "%s/vm/memfd_noexec", procsys);
	if (policy_exec & WARD_EXEC_MEMFD) {
		scope = read_scope(path, err);
		if (scope == -1)
			return -1;
		if (scope >= 2)
			return ward_fail(
			    err, 0,
			    "the policy allows executing memfds (`memfd "
			    "exec`), but this host's vm.memfd_noexec is %d, "
			    "which the sandbox inherits and cannot lower: "
			    "lower it on the host, or use a policy without "
			    "`memfd exec`",
			    scope);
		return WARD_MEMFD_GUARD_NONE;
	}
	wrote = write_two(path, err);
	if (wrote < 0)
		return -1;
	/* What the namespace has now: max(its own, its parent's). */
	scope = read_scope(path, err);
	if (scope == -1)
		return -1;
	if (scope >= 2)
		return WARD_MEMFD_GUARD_NONE;
	return scope == 1 ? WARD_MEMFD_GUARD_EXEC : WARD_MEMFD_GUARD_UNSEALED;
}

int ward_memfd_guard_install(enum ward_memfd_guard g, ward_err *err)
{
	/* memfd_create(name, flags) of the native arch only: other arches
	 * and the x32 numbers are the policy's program's business (it
	 * kills them). A BPF jump counts from the next instruction. */
	struct sock_filter f[] = {
	    /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			     offsetof(struct seccomp_data, arch)),
	    /* 1 */
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ward_native_arch(), 0, 5),
	    /* 2 */
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, nr)),
	    /* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_memfd_create, 0, 3),
	    /* 4 */
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[1])),
	    /* 5 */ BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MFD_EXEC, 2, 0),
	    /* 6: UNSEALED: sealed ones only; EXEC: everything else */
	    g == WARD_MEMFD_GUARD_UNSEALED
		? (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
					       MFD_NOEXEC_SEAL, 0, 1)
		: (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0),
	    /* 7 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    /* 8 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
	};
	struct sock_fprog prog = {.len = ARRAY_LEN(f), .filter = f};

	if (g == WARD_MEMFD_GUARD_NONE)
		return 0;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return ward_fail(err, errno,
				 "seccomp: install the memfd guard");
	return 0;
}
