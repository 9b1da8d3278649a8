/* SPDX-License-Identifier: MIT */
/*
 * policy_diff.h: what one compiled policy allows that another does not, and
 * the reverse, section by section (`wardc diff`, docs/spec.md 1.8). Every
 * field of struct ward_policy that the launcher applies is compared; only
 * the meta section (name, compiler version, source digest) is not, so that
 * two sources that compile to the same policy are equal.
 */
#ifndef WARD_POLICY_DIFF_H
#define WARD_POLICY_DIFF_H

#include "policy.h"
#include "pool.h"

#include <stddef.h>

struct ward_change {
	const char *section; /* "identity", "environment", "mounts", ... */
	char sign;	     /* '+' B allows more, '-' less, '~' neither */
	const char *what;
	const char *a, *b; /* NULL when absent on that side */
};

/* Append to *changes (struct ward_change, in the pool) every difference of
 * b from a; returns how many were added. */
size_t ward_policy_diff(struct ward_pool *pool, const struct ward_policy *a,
			const struct ward_policy *b, struct ward_vec *changes);

#endif
