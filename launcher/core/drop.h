/* SPDX-License-Identifier: MIT */
/*
 * drop.h: make the current process (a fork of the supervisor) unable to
 * do anything privileged, for good, before it reads a byte the sandbox
 * wrote.
 *
 * Used for the courier and the broker (launcher/unprivileged) and for the
 * children that empty a dead run's workspace. The steps, in order:
 *
 *   root mode   no supplementary groups, then setresgid and setresuid to
 *               the sandbox's host ids: the kernel clears every capability
 *               set on that change (no SECBIT_KEEP_CAPS), and the
 *               bounding and ambient sets are emptied as well
 *   both modes  no_new_privs; not dumpable (no ptrace, no /proc/PID/mem
 *               for other processes of the same uid); the parent-death
 *               signal, then the check that the parent is still the one
 *               that forked us; a seccomp allow-list of its own
 *
 * Rootless, the ids are already the caller's, the only ones the sandbox's
 * files can have.
 */
#ifndef WARD_DROP_H
#define WARD_DROP_H

#include "allowlist.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ward_drop {
	bool change_ids; /* root mode: become uid:gid */
	uid_t uid;
	gid_t gid;
	pid_t parent; /* die with it (PR_SET_PDEATHSIG) */
	/* The supplementary groups are gone already (a process that joined
	 * a user namespace whose setgroups is denied cleared them before). */
	bool groups_cleared;
	/* The seccomp allow-list: NULL for the courier's (reading, writing,
	 * files beneath a descriptor); the broker gives its own. */
	const int *allow;
	size_t nallow;
	const struct ward_allow_arg *args; /* (allowlist.h) */
	size_t nargs;
};

/* Returns 0, or -1 with err filled; the caller must then _exit(). */
int ward_drop_privileges(const struct ward_drop *d, ward_err *err);

#endif
