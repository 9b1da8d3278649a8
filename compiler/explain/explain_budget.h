/* SPDX-License-Identifier: MIT */
/*
 * explain_budget.h: the part of `wardc explain` that computes what a policy
 * implies at worst (the first seed's budget): the wall time a caller that
 * retries waits, T = (1 + N) x T_run + T_queue, and the bytes each export
 * rule lets out, min(files x per-file, total). Also the export rules
 * themselves. docs/spec.md part 6 says how each figure is made.
 */
#ifndef WARD_EXPLAIN_BUDGET_H
#define WARD_EXPLAIN_BUDGET_H

#include "doc.h"
#include "policy.h"
#include "pool.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define WARD_BUDGET_RETRIES	3     /* the seed: a first run and 3 more */
#define WARD_BUDGET_QUEUE_MS	WARD_QUEUE_TIMEOUT_MS /* the launcher's */
#define WARD_BUDGET_RETRIES_MAX 1000

struct ward_budget {
	uint64_t retries;  /* N: runs after the first */
	uint64_t queue_ms; /* T_queue: waiting for a slot and starting */
	bool bounded;	   /* the policy has a `wall` limit */
	uint64_t run_ms;   /* T_run: wall + grace */
	uint64_t worst_ms; /* T; valid when bounded */
};

/* --retries N and --queue DURATION (NULL: the defaults). Returns 0, or -1
 * with a message in why. */
int ward_budget_options(const char *retries, const char *queue,
			struct ward_budget *b, char *why, size_t whylen);

/* Fill the policy's figures into b (after ward_budget_options). */
void ward_budget_compute(const struct ward_policy *p, struct ward_budget *b);

/* What one export rule lets out at most: min(files x per-file, total). */
uint64_t ward_export_bound(const struct ward_export_rule *e);

/* "text, png" */
const char *ward_export_types_str(struct ward_pool *pool, uint32_t types);

void ward_budget_text(FILE *out, struct ward_pool *pool,
		      const struct ward_policy *p, const struct ward_budget *b);
/* "export" (a list) and "budget" (a map) into the explain document. */
void ward_budget_doc(struct doc *d, struct ward_pool *pool,
		     const struct ward_policy *p, const struct ward_budget *b);

#endif
