/* SPDX-License-Identifier: MIT */
/*
 * drop.c: see drop.h.
 */
#include "drop.h"

#include "syscalls_base.h"

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What a process that reads, hashes, copies and removes files, and writes
 * to descriptors it was given, needs: no socket, no exec, no mount, no
 * ptrace, no kill, no namespace, no change of ids. Anything else fails
 * with EPERM (not a kill: a refusal is an error the code reports). */
static const int allowed[] = {
    WARD_SYSCALLS_BASE,
    SYS_pread64,
    SYS_pwrite64,
    SYS_fstatfs,
    SYS_getdents64,
    SYS_mkdirat,
    SYS_unlinkat,
    SYS_renameat2,
    SYS_readlinkat,
    SYS_fchmod,
    SYS_fchmodat,
    SYS_utimensat, /* a copy keeps the modification time
		      (launcher/unprivileged/treecopy.h) */
    SYS_faccessat,
    SYS_faccessat2,
    SYS_fsync,
    SYS_fdatasync,
    SYS_ftruncate,
    SYS_flock,
    SYS_recvmsg, /* init's writable mounts, by SCM_RIGHTS (slotfs.c) */
    SYS_symlinkat,
    SYS_statfs,
    SYS_uname,	/* the kernel, in the report (report.c, put_run) */
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

#define NALLOWED ARRAY_LEN(allowed)

static int install_filter(const struct ward_drop *d, ward_err *err)
{
	return d->allow ? ward_allowlist_install(d->allow, d->nallow, d->args,
						 d->nargs, err)
			: ward_allowlist_install(allowed, NALLOWED, d->args,
						 d->nargs, err);
}

/* Root mode: the sandbox's host ids, and nothing else. */
static int become(const struct ward_drop *d, ward_err *err)
{
	cap_t none;

	if (!d->groups_cleared && setgroups(0, NULL) < 0)
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
	/* (uid 0 of a user namespace of the sandbox's is not root) */
	if (d->uid != 0 && setresuid(0, 0, 0) == 0)
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
	return install_filter(d, err);
}
