/* SPDX-License-Identifier: MIT */
/*
 * hardening.h: the process-wide steps of setting up the sandbox: identity,
 * capabilities, securebits, no_new_privs, descriptors, signals, rlimits,
 * loopback, seccomp. Each is one function; init.c calls them in order.
 */
#ifndef WARD_HARDENING_H
#define WARD_HARDENING_H

#include "facts.h"
#include "policy.h"
#include "util.h"

#include <stddef.h>

/* setresgid then setresuid to the sandbox ids (all three of each). */
int ward_set_identity(const struct ward_identity *id, ward_err *err);

/* Keep only the capabilities in keep, in every set: bounding reduced to
 * keep; inheritable and ambient = keep (so that they survive execve as a
 * non-root user); permitted and effective = keep. Securebits locked so that
 * uid 0 inside gains nothing on execve and nothing can be raised again. */
int ward_drop_caps(uint64_t keep, ward_err *err);

int ward_no_new_privs(ward_err *err);

/* Close every descriptor >= 3 except those in keep[0..n). */
int ward_close_fds_except(const int *keep, size_t n, ward_err *err);

/* Default disposition for every signal, empty signal mask. */
void ward_reset_signals(void);

/* The policy's rlimits (soft = hard), and the defaults of those that have
 * one (ward_limit_default: core, memlock, sigpending, msgqueue), each
 * default lowered to the caller's hard limit if that is below it. */
int ward_set_rlimits(const struct ward_limits *l, ward_err *err);

/* The limits of the current user namespace: no new namespace of any kind
 * below it (user.max_*_namespaces = 0), and the inotify and fanotify counts
 * of the policy or their defaults. Opened while procsys ("/proc/sys", the
 * host's) is visible, written later (after the mount table: fsmount and
 * open_tree count as mount namespaces); both need CAP_SYS_RESOURCE in the
 * namespace. apply closes the descriptors. */
struct ward_userns_limits {
	int fd[11];
	const char *name[11];
	uint64_t value[11];
	size_t n;
};
int ward_userns_limits_open(struct ward_userns_limits *u, const char *procsys,
			    const struct ward_limits *l, ward_err *err);
int ward_userns_limits_apply(struct ward_userns_limits *u, ward_err *err);

/* open(path, flags | O_CLOEXEC | O_NOFOLLOW), refused unless the file is
 * on procfs (CVE-2019-16884). -1 with err set and errno (and err->code)
 * the open's (ENOENT: no such file), or 0 for a file not on procfs. */
int ward_open_procfs(const char *path, int flags, ward_err *err);

/* Bring up "lo" in the current network namespace. */
int ward_loopback_up(ward_err *err);

/* A policy that allows names: the DNS stub's UDP socket, bound at
 * 127.0.0.53:53 on the sandbox's own loopback while init still has its
 * capabilities there, for the broker to serve (docs/spec.md 5.11). The
 * descriptor (close-on-exec), or -1. */
#define WARD_DNS_STUB_ADDR 0x7f000035u /* 127.0.0.53 */
int ward_dns_stub_socket(ward_err *err);

/* Forbid new user namespaces below the current one, by the kernel's own
 * count (user.max_user_namespaces = 0 in this namespace). procsys is the
 * directory of the sysctls ("/proc/sys"). */
int ward_forbid_userns(const char *procsys, ward_err *err);

/* Install the policy's program (no_new_privs must be set). listener: NULL,
 * or where the descriptor of a new user-notification listener goes (a
 * program that returns SECCOMP_RET_USER_NOTIF needs one). */
int ward_install_seccomp(const struct ward_seccomp *sc, int *listener,
			 ward_err *err);

/* The calling process's credentials, as the kernel has them: ids, groups,
 * every capability set, no_new_privs, securebits, dumpable. (seccomp is
 * the caller's to fill: after the filter, prctl itself may be refused.) */
void ward_measure_self(struct ward_measured *m);

#endif
