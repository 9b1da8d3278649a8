/* SPDX-License-Identifier: MIT */
/*
 * explain_hardening.h: the part of `wardc explain` that says what the
 * launcher applies besides the policy's own entries, as this policy sets
 * it: the timers and init's backstop, what init hides of the host, and
 * (later parts of docs/spec.md part 3) the kernel's per-user counters.
 */
#ifndef WARD_EXPLAIN_HARDENING_H
#define WARD_EXPLAIN_HARDENING_H

#include "doc.h"
#include "policy.h"
#include "pool.h"

#include <stdio.h>

void ward_hardening_text(FILE *out, struct ward_pool *pool,
			 const struct ward_policy *p);
/* "sandbox" (a map) into the explain document. */
void ward_hardening_doc(struct doc *d, struct ward_pool *pool,
			const struct ward_policy *p);

#endif
