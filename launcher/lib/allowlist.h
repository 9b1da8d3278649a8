/* SPDX-License-Identifier: MIT */
/*
 * allowlist.h: the seccomp allow-list of one of ward's own processes, the
 * one builder every such list goes through: the courier's, the broker's
 * and the holder's (core/drop.c), the session server's
 * (unprivileged/session_filter.c).
 *
 * The program: another architecture, or the x32 ABI (which shares
 * x86_64's architecture value: Kafel's lesson), kills the process; a call
 * of the list is allowed (one with argument checks only with one of its
 * values); anything else fails with EPERM, a refusal the code reports as
 * an error, not a kill. The caller sets no_new_privs first.
 */
#ifndef WARD_ALLOWLIST_H
#define WARD_ALLOWLIST_H

#include "util.h"

#include <stddef.h>
#include <stdint.h>

/* A call of the list that must have one of these values as its argument
 * arg (its low 32 bits, as the kernel reads an int), or fail with EPERM:
 * ioctl's request, socket's family. */
struct ward_allow_arg {
	int nr;
	unsigned arg; /* 0..5 */
	const uint32_t *values;
	size_t nvalues;
};

/* The AUDIT_ARCH_* value of the machine ward was built for (0: another):
 * the one a blob must be compiled for, and the one these programs let
 * through. */
uint32_t ward_native_arch(void);

/* Build and install the program. 0, or -1 with err. */
int ward_allowlist_install(const int *allow, size_t nallow,
			   const struct ward_allow_arg *args, size_t nargs,
			   ward_err *err);

#endif
