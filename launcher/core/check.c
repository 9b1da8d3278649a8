/* SPDX-License-Identifier: MIT */
/*
 * check.c: refuse, before any process exists, what cannot be enforced.
 */
#include "check.h"
#include "landlock.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>

/* Does the program return SECCOMP_RET_USER_NOTIF anywhere, and with data
 * bits (*answer: more than a kill, policy.h)? Its returns are constants
 * (BPF_RET | BPF_K; libseccomp and wardc emit no other). */
static bool returns_notify(const struct ward_seccomp *sc, bool *ret_a,
			   bool *answer)
{
	bool notify = false;

	*ret_a = *answer = false;
	for (uint32_t i = 0; i < sc->ninsns; i++) {
		const struct sock_filter *f = &sc->insns[i];

		if (BPF_CLASS(f->code) != BPF_RET)
			continue;
		if (BPF_RVAL(f->code) != BPF_K)
			*ret_a = true;
		else if ((f->k & SECCOMP_RET_ACTION_FULL) ==
			 SECCOMP_RET_USER_NOTIF) {
			notify = true;
			*answer = *answer || (f->k & SECCOMP_RET_DATA);
		}
	}
	return notify;
}

/* The notifications are the compiler's decision, recorded in the
 * requirements: the program and the bits must agree. A program that
 * notifies without the bit would be run without a listener, and its kill
 * rules would become ENOSYS; one whose notifications ask for more than a
 * kill (a recorded refusal, the socket broker) without the answer bit was
 * not made for this broker: refused. */
static int check_notify(const struct ward_policy *p, ward_err *err)
{
	bool ret_a, answer,
	    notify = returns_notify(&p->seccomp, &ret_a, &answer);
	bool want = p->requirements & WARD_REQ_SECCOMP_NOTIFY;
	bool want_answer = p->requirements & WARD_REQ_SECCOMP_ANSWER;

	if (answer != want_answer)
		return ward_fail(err, 0,
				 "the seccomp program's notifications %s "
				 "(requirement seccomp-answer): recompile it "
				 "with wardc",
				 answer
				     ? "ask the broker for more than kills, "
				       "which the blob does not declare"
				     : "are kills only, but the blob declares "
				       "more");
	if (ret_a)
		return ward_fail(err, 0,
				 "the seccomp program returns a computed "
				 "action (ret A), which the launcher cannot "
				 "check");
	if (notify && !want)
		return ward_fail(err, 0,
				 "the seccomp program asks for a user-space "
				 "listener (SECCOMP_RET_USER_NOTIF) that the "
				 "blob does not declare (requirement "
				 "seccomp-notify): recompile it with wardc");
	if (want && !notify)
		return ward_fail(err, 0,
				 "the blob declares seccomp notifications "
				 "that its program never returns");
	return 0;
}

int ward_check_policy(const struct ward_policy *p, ward_err *err)
{
	if (ward_landlock_check(&p->landlock, err) < 0)
		return -1;
	if (p->arch != ward_native_arch() ||
	    p->seccomp.arch != ward_native_arch())
		return ward_fail(err, 0,
				 "the policy is compiled for another "
				 "architecture");
	if (p->seccomp.ninsns == 0)
		return ward_fail(err, 0, "the policy has no seccomp program");
	if (check_notify(p, err) < 0)
		return -1;
	if (p->nmounts == 0 || p->mounts[0].kind != WARD_MNT_TMPFS ||
	    strcmp(p->mounts[0].dst, "/"))
		return ward_fail(err, 0, "the first mount is not the root");
	/* Capabilities this kernel does not know cannot be granted; say so
	 * rather than drop them quietly. cap_max_bits() reads the kernel's
	 * cap_last_cap once. */
	if (p->identity.caps_keep >> cap_max_bits())
		return ward_fail(err, 0,
				 "the policy keeps capability %d, unknown to "
				 "this kernel (last is %d)",
				 63 - __builtin_clzll(p->identity.caps_keep),
				 (int)cap_max_bits() - 1);
	return 0;
}

static const struct ward_slot_arg *find_slot(const struct ward_cli *cli,
					     const char *name)
{
	for (size_t i = 0; i < cli->nslots; i++)
		if (!strcmp(cli->slots[i].name, name))
			return &cli->slots[i];
	return NULL;
}

static bool declared(const struct ward_policy *p, const char *name)
{
	for (uint32_t i = 0; i < p->nmounts; i++)
		if (p->mounts[i].kind == WARD_MNT_SLOT &&
		    !strcmp(p->mounts[i].src, name))
			return true;
	return false;
}

int ward_check_slots(const struct ward_policy *p, const struct ward_cli *cli,
		     struct ward_slot_src *slots, ward_err *err)
{
	for (size_t i = 0; i < cli->nslots; i++)
		if (!declared(p, cli->slots[i].name))
			return ward_fail(err, 0,
					 "--slot %s: the policy declares no "
					 "slot of that name",
					 cli->slots[i].name);
	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		const struct ward_slot_arg *a;
		struct stat st;

		slots[i] = (struct ward_slot_src){0};
		if (m->kind != WARD_MNT_SLOT)
			continue;
		a = find_slot(cli, m->src);
		if (!a)
			return ward_fail(err, 0,
					 "the policy's slot %s (at %s) needs "
					 "--slot %s=HOSTPATH",
					 m->src, m->dst, m->src);
		/* Not followed: a slot directory written by an earlier run
		 * could hold a symlink that points elsewhere on the host. */
		if (lstat(a->path, &st) < 0)
			return ward_fail(err, errno, "--slot %s=%s", a->name,
					 a->path);
		if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
			return ward_fail(err, 0,
					 "--slot %s=%s: not a directory or "
					 "a regular file%s",
					 a->name, a->path,
					 S_ISLNK(st.st_mode)
					     ? " (a symlink is not followed)"
					     : "");
		/* A read-write directory slot is a tmpfs of the slot's size;
		 * a read-write file stays a bind, bounded by `filesize`
		 * alone: without one it would be unbounded host disk. */
		if (S_ISREG(st.st_mode) && (m->flags & WARD_MNT_F_RW) &&
		    !ward_limit_is_set(&p->limits, WARD_LIM_FILESIZE))
			return ward_fail(err, 0,
					 "--slot %s=%s: a read-write slot that "
					 "is a file can grow without bound on "
					 "the host's disk: the policy needs a "
					 "`filesize` limit, or give a "
					 "directory",
					 a->name, a->path);
		slots[i] = (struct ward_slot_src){a->path, st.st_dev, st.st_ino,
						  S_ISDIR(st.st_mode)};
	}
	return 0;
}
