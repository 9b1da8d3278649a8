/* SPDX-License-Identifier: MIT */
/*
 * export_values.c: the seccomp entries with comparison values below 2^63
 * (export.h, ward_xseccomp_int63), what both consumers can read:
 *   - the Security Profiles Operator's SeccompProfile schema (v1 and
 *     v1beta1) declares every value `format: int64` with `minimum: 0`, and
 *     the API server refuses 2^63 or more;
 *   - crun 1.8 reads config.json with yajl, which takes a number above
 *     2^63 - 1 for a double and refuses it for a uint64 ("Numerical result
 *     out of range").
 * So no comparison can test bit 63 of an argument. The regions of
 * export_seccomp.c test it wherever a range or a `!=` is cut into masks of
 * the high bits. Here:
 *   - "bit 63 set, the rest anything" (a mask of bit 63 alone) is the
 *     upper half, x > 2^63 - 1: exact;
 *   - a mask that holds bit 63 and wants it clear loses it: the entry then
 *     also holds the same values with bit 63 set (noted: such a call may
 *     be decided as its counterpart with the bit clear; int arguments
 *     never have it, and ward's own filter compares all 64 bits);
 *   - anything else that needs a value of 2^63 or more is refused.
 */
#include "export.h"

#include "describe.h"

#include <stdbool.h>
#include <string.h>

#define BIT63 (1ull << 63)

/* Add the names of e to the list s ("a, b"), each once. */
static const char *add_names(struct ward_pool *p, const char *s,
			     const struct ward_xentry *e)
{
	for (uint32_t k = 0; k < e->nnames; k++) {
		const char *n = e->names[k];
		size_t len = strlen(n);
		bool have = false;

		for (const char *at = s; at && (at = strstr(at, n)); at += len)
			if ((at == s || at[-1] == ' ') &&
			    (at[len] == ',' || !at[len]))
				have = true;
		if (!have)
			s = s ? ward_pool_printf(p, "%s, %s", s, n) : n;
	}
	return s;
}

int ward_xseccomp_int63(struct ward_pool *p, struct ward_xseccomp *x,
			struct ward_notes *notes, ward_err *err)
{
	const char *widened = NULL;

	for (size_t i = 0; i < x->nentries; i++) {
		struct ward_xentry *e = &x->entries[i];

		for (uint8_t k = 0; k < e->ncmps; k++) {
			struct ward_xcmp *c = &e->cmps[k];

			if (c->op == WARD_XOP_MASKED_EQ && c->value == BIT63 &&
			    c->value_two == BIT63) {
				*c = (struct ward_xcmp){c->arg, WARD_XOP_GT,
							BIT63 - 1, 0};
				continue;
			}
			if (c->op == WARD_XOP_MASKED_EQ && (c->value & BIT63) &&
			    !(c->value_two & BIT63)) {
				c->value &= ~BIT63;
				widened = add_names(p, widened, e);
				continue;
			}
			if (c->value >= BIT63 || c->value_two >= BIT63)
				return ward_fail(
				    err, 0,
				    "export: `%s` compares argument %u with "
				    "%s 0x%llx: the formats hold values below "
				    "2^63 (the operator's CRD, crun's JSON)",
				    e->nnames ? e->names[0] : "?", c->arg,
				    ward_xop_name(c->op),
				    (unsigned long long)(c->value >= BIT63
							     ? c->value
							     : c->value_two));
		}
	}
	if (widened)
		ward_note(notes,
			  "seccomp: comparison values are below 2^63 (what the "
			  "operator's CRD and crun's JSON reader take), so no "
			  "comparison tests bit 63 of an argument: for %s, a "
			  "call whose compared argument has bit 63 set may get "
			  "the action of the same call with it clear (ward's "
			  "filter compares all 64 bits)",
			  widened);
	return 0;
}
