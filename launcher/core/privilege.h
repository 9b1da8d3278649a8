/* SPDX-License-Identifier: MIT */
/*
 * privilege.h: who ward runs as, decided once at start and never inferred
 * again, and the user namespace mapping that follows from it.
 *
 *   ROOTLESS  euid != 0: an unprivileged user namespace in which exactly
 *             one uid (the caller's) and one gid are mapped, setgroups
 *             denied. Host files the sandbox writes belong to the caller.
 *   ROOT      euid == 0: the same namespaces, but the sandbox user is
 *             mapped to an unprivileged host uid/gid (--host-uid/--host-gid,
 *             default 65534/65534), never to host root.
 */
#ifndef WARD_PRIVILEGE_H
#define WARD_PRIVILEGE_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum ward_mode { WARD_MODE_ROOTLESS = 0, WARD_MODE_ROOT = 1 };

#define WARD_DEFAULT_HOST_ID 65534u

/* Root mode's own block of host ids, one pair a run (DynamicUser-like):
 * 65,536 ids from 2097152000 (0x7d000000), above systemd's container
 * range (which ends at 1879048191) and below its foreign range (which
 * starts at 2147352576), below 2^31 (no signed-uid surprises), never
 * named in /etc/passwd. */
#define WARD_RUN_ID_FIRST 2097152000u
#define WARD_RUN_ID_COUNT 65536u
/* Where the runs hold their ids: byte k locked = id FIRST + k in use. */
#define WARD_RUN_ID_LOCK "/run/ward/run-ids"

struct ward_priv {
	enum ward_mode mode;
	uid_t caller_uid; /* real = effective = saved, checked */
	gid_t caller_gid;
	uid_t host_uid; /* the host ids the sandbox user is mapped to */
	gid_t host_gid;
	bool run_ids; /* root mode: a pair of ward's own, this run's alone */
};

/* Refuse a setuid/setgid/file-capability start (real, effective and saved
 * ids must agree; AT_SECURE must be clear), then fill *p. host_uid/host_gid:
 * the --host-uid/--host-gid values, or -1 when not given. */
int ward_priv_detect(struct ward_priv *p, int64_t host_uid, int64_t host_gid,
		     ward_err *err);

const char *ward_mode_name(enum ward_mode m);

/* Root mode without --host-uid/--host-gid: take a uid/gid pair of ward's
 * block that no other run holds, and hold it (a lock on its byte of the
 * file path) until *lock_fd is closed -- by the kernel too, if ward dies,
 * so a crash frees it. Per-user kernel counters and ownership of what a run leaves
 * are then never shared with another run or with a real host user. */
int ward_priv_run_ids(struct ward_priv *p, const char *path, int *lock_fd,
		      ward_err *err);

/* Rootless, the caller's supplementary groups follow the sandbox and
 * cannot be dropped there (setgroups is denied in an unprivileged user
 * namespace): refuse them, naming each, unless the policy accepts them. */
int ward_priv_check_groups(const struct ward_priv *p, bool accept,
			   ward_err *err);

/* Write setgroups "deny", uid_map and gid_map of process pid (a child in a
 * new user namespace): the sandbox's uid/gid -> the host ids of *p. */
int ward_priv_write_maps(const struct ward_priv *p, pid_t pid, uint32_t uid,
			 uint32_t gid, ward_err *err);

/* Why this host forbids unprivileged user namespaces, read from the
 * sysctls under procsys (normally "/proc/sys"): a sentence naming the
 * setting and how to change it, or "" when none of the known ones is set.
 * Returns buf. */
const char *ward_userns_explain(const char *procsys, char *buf, size_t len);

#endif
