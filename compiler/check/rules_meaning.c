/* SPDX-License-Identifier: MIT */
/*
 * rules_meaning.c: the comparison order, negation, strictness and names of
 * a rule table's parts (rules_meaning.h).
 */
#include "rules_meaning.h"

#include "consts.h"
#include "util.h"

int ward_cmp_order(const struct ward_cmp *a, const struct ward_cmp *b)
{
	if (a->arg != b->arg)
		return a->arg - b->arg;
	if (a->op != b->op)
		return a->op - b->op;
	if (a->mask != b->mask)
		return a->mask < b->mask ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return 0;
}

int ward_cmp_qsort(const void *a, const void *b)
{
	return ward_cmp_order(a, b);
}

uint8_t ward_cmp_negate(uint8_t op)
{
	static const uint8_t neg[] = {
	    [WARD_CMP_EQ] = WARD_CMP_NE,
	    [WARD_CMP_NE] = WARD_CMP_EQ,
	    [WARD_CMP_LT] = WARD_CMP_GE,
	    [WARD_CMP_LE] = WARD_CMP_GT,
	    [WARD_CMP_GT] = WARD_CMP_LE,
	    [WARD_CMP_GE] = WARD_CMP_LT,
	    [WARD_CMP_MASKED_EQ] = WARD_CMP_MASKED_NE,
	    [WARD_CMP_MASKED_NE] = WARD_CMP_MASKED_EQ,
	};
	/* Operators are checked where a table is read (blob_read.c) or
	 * made (the checker): an unknown one is left as it is. */
	return op < ARRAY_LEN(neg) ? neg[op] : op;
}

bool ward_cmp_holds(const struct ward_cmp *c, uint64_t v)
{
	switch (c->op) {
	case WARD_CMP_EQ:
		return v == c->value;
	case WARD_CMP_NE:
		return v != c->value;
	case WARD_CMP_LT:
		return v < c->value;
	case WARD_CMP_LE:
		return v <= c->value;
	case WARD_CMP_GT:
		return v > c->value;
	case WARD_CMP_GE:
		return v >= c->value;
	case WARD_CMP_MASKED_EQ:
		return (v & c->mask) == c->value;
	case WARD_CMP_MASKED_NE:
		return (v & c->mask) != c->value;
	}
	return false;
}

int ward_action_cmp(const struct ward_action *a, const struct ward_action *b)
{
	if (a->kind != b->kind)
		return a->kind > b->kind ? 1 : -1;
	if (a->kind == WARD_ACT_ERRNO && a->errno_nr != b->errno_nr)
		return a->errno_nr < b->errno_nr ? 1 : -1;
	/* The same refusal recorded, or a call made through the broker, is
	 * the stricter: it keeps the evidence or the check. */
	if (a->via != b->via)
		return a->via > b->via ? 1 : -1;
	return 0;
}

const char *ward_action_name(struct ward_pool *pool, struct ward_action a)
{
	const char *name, *via;

	switch (a.kind) {
	case WARD_ACT_ALLOW:
		if (a.via == WARD_VIA_OBSERVE) {
			/* A recording blob's (docs/spec.md 4.9). */
			char args[32] = "";
			size_t n = 0;

			for (int i = 0; i < 6; i++)
				if (a.errno_nr & (1u << i))
					n += (size_t)snprintf(
					    args + n, sizeof(args) - n,
					    "%sarg%d", n ? ", " : " with ", i);
			return ward_pool_printf(pool, "allow, recorded%s",
						args);
		}
		return a.via == WARD_VIA_CONNECT || a.via == WARD_VIA_SENDTO
			   ? "allow (through the socket broker)"
			   : "allow";
	case WARD_ACT_LOG:
		return "log";
	case WARD_ACT_TRAP:
		return "trap";
	case WARD_ACT_KILL:
		return "kill";
	case WARD_ACT_ERRNO:
		name = ward_errno_name((int)a.errno_nr);
		via = a.via == WARD_VIA_RECORD	     ? " log"
		      : a.via == WARD_VIA_RECORD_NET ? " log (network)"
						     : "";
		return name ? ward_pool_printf(pool, "errno %s%s", name, via)
			    : ward_pool_printf(pool, "errno %u%s", a.errno_nr,
					       via);
	}
	return "?";
}
