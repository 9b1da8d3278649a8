/* SPDX-License-Identifier: MIT */
/*
 * landlock.h: the blob's Landlock rule set, applied by init to itself
 * (docs/spec.md 3.4), and the host check of `landlock require;`.
 */
#ifndef WARD_LANDLOCK_H
#define WARD_LANDLOCK_H

#include "policy.h"
#include "util.h"

/* The kernel's Landlock ABI (1..), or -errno: ENOSYS (not built in),
 * EOPNOTSUPP (built in, not enabled: the boot's lsm= list). */
int ward_landlock_abi(void);

/* The file rights a kernel of this ABI knows (the kernel documentation's
 * best-effort downgrade: the others are masked off the blob's). */
uint64_t ward_landlock_fs_known(int abi);

/* `landlock require;`: refuse a kernel whose ABI is below the blob's. */
int ward_landlock_check(const struct ward_landlock *ll, ward_err *err);

/* Apply ll to the calling process (no_new_privs set), with the rights and
 * scopes this kernel's ABI knows; *abi: the ABI applied, 0 with mode off,
 * -errno when prefer met a kernel without Landlock. */
int ward_landlock_apply(const struct ward_landlock *ll, int *abi,
			ward_err *err);

#endif
