/* SPDX-License-Identifier: MIT */
/*
 * explain_landlock.h: the Landlock layer in `wardc explain` and `diff`:
 * its mode, the ABI that enforces all of it, each rule's rights, and the
 * paths it cannot narrow below a wider rule above them.
 */
#ifndef WARD_EXPLAIN_LANDLOCK_H
#define WARD_EXPLAIN_LANDLOCK_H

#include "doc.h"
#include "policy.h"
#include "pool.h"

#include <stdio.h>

/* "off", "prefer", "require". */
const char *ward_landlock_mode_name(uint32_t mode);
/* "read write create remove ..." of WARD_LL_FS_* bits; "none" for 0. */
const char *ward_landlock_rights(struct ward_pool *pool, uint64_t access);

void ward_landlock_text(FILE *out, struct ward_pool *pool,
			const struct ward_policy *p);
/* "landlock" (a map) into the explain document. */
void ward_landlock_doc(struct doc *d, struct ward_pool *pool,
		       const struct ward_policy *p);

#endif
