/* SPDX-License-Identifier: MIT */
/*
 * memfd.h: no execution of memfds unless the policy allows it (`memfd
 * exec`, WARD_EXEC_MEMFD; docs/spec.md 3.4 step 4).
 */
#ifndef WARD_MEMFD_H
#define WARD_MEMFD_H

#include "util.h"

#include <stdint.h>

/* What the target adds to its seccomp filters when the kernel's own
 * setting could not be made (rootless, or a kernel before 6.3). */
enum ward_memfd_guard {
	WARD_MEMFD_GUARD_NONE = 0, /* the kernel refuses (or the policy
				      allows) executable memfds */
	WARD_MEMFD_GUARD_EXEC,	   /* refuse memfd_create(MFD_EXEC) */
	WARD_MEMFD_GUARD_UNSEALED  /* ... and any without MFD_NOEXEC_SEAL */
};

/* In init, in its new pid namespace, before it changes its credentials
 * (the sysctl is writable by host root only). procsys: the host's
 * "/proc/sys". Returns the guard the target needs, or -1 (with err) when
 * the policy allows executable memfds and the host forbids them. */
int ward_memfd_noexec(const char *procsys, uint32_t policy_exec, ward_err *err);

/* In the target, before the policy's program: the guard's filter. */
int ward_memfd_guard_install(enum ward_memfd_guard g, ward_err *err);

#endif
