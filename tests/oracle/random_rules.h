/* SPDX-License-Identifier: MIT */
/*
 * random_rules.h: random rule tables for the differential seccomp test, and
 * the tools to work with them: deep copy, free, print, and shrink a failing
 * table to a minimal one.
 *
 * The tables made here own every array (malloc'd); the syscall names are
 * not owned (they point to static strings or to the source table's).
 */
#ifndef WARD_RANDOM_RULES_H
#define WARD_RANDOM_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "policy.h"

/* A small deterministic generator (splitmix64). */
uint64_t rr_next(uint64_t *state);
/* Uniform in 0..n-1 (n > 0). */
uint32_t rr_below(uint64_t *state, uint32_t n);

struct rr_params {
	const int32_t *pool; /* syscall numbers to draw from */
	uint32_t npool;
	uint32_t max_syscalls; /* 1..max_syscalls syscalls with rules */
	uint32_t max_conds;    /* 0..max_conds conditional rules each */
	uint32_t max_cmps;     /* 1..max_cmps comparisons each */
};

/*
 * A random table: random syscalls of the pool (sorted, distinct), random
 * actions (errno numbers from a small set), random fallbacks, conjunctions
 * of random comparisons on arguments 0..2 mostly, with values and masks
 * drawn from small sets so that conditions overlap often. Returns -1 on
 * out of memory.
 */
int rr_generate(uint64_t *state, const struct rr_params *p,
		struct ward_rules *out);

int rr_clone(const struct ward_rules *src, struct ward_rules *dst);
void rr_free(struct ward_rules *r);

/* One rule a line, e.g. "  nr 3 (close): errno 38 if a0 == 0x1 && ...". */
void rr_print(FILE *out, const struct ward_rules *r);

/*
 * Shrink *r while fails(r, ctx) stays true: drop syscalls, rules,
 * comparisons and fallbacks, and simplify values, masks and actions, until
 * no single step keeps it failing. *r is replaced by the smallest table
 * found (it must fail on entry). Returns -1 on out of memory.
 */
int rr_shrink(struct ward_rules *r,
	      bool (*fails)(const struct ward_rules *r, void *ctx), void *ctx);

#endif
