/* SPDX-License-Identifier: MIT */
/*
 * export_seccomp.c: the seccomp entries of a rule table, as OCI runtimes
 * and the Security Profiles Operator take them (export.h).
 *
 * Why regions. A runtime hands each entry to libseccomp, which does not
 * follow the language's rule (the strictest matching rule wins): an
 * unconditional rule silences every conditional rule of its syscall, of two
 * chains with a common start the shorter wins, and otherwise the order of
 * its decision tree decides. So the arguments of each syscall are cut into
 * disjoint regions and each region gets the action the language gives it;
 * which rule libseccomp prefers then never matters.
 *
 * A region is a box: one set of values per argument. Each set is a union
 * of disjoint pieces, each of which one libseccomp comparison can test
 * (a range with one bound, all values but one, a masked value). The
 * strictest rule takes its box first, the next rule what is left of its
 * own, and so on; the rest goes to the fallback. Only when the entries are
 * written is a box multiplied out, one entry per choice of a piece for
 * every argument, since libseccomp has no "or".
 */
#include "export.h"

#include "describe.h"
#include "rules_meaning.h"
#include "syscalls.h"

#include <errno.h>
#include <linux/filter.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Entries of one syscall, and pieces of one set, beyond which the export
 * gives up (the runtime's program could not load anyway: the kernel takes
 * 4096 instructions). */
#define MAX_ENTRIES 4096
#define MAX_PIECES  4096

/* How long libseccomp may take to build an exported profile. */
#define LIBSECCOMP_SECONDS 10

/* ------------------------------------------------------------- pieces */

/*
 * The values one argument may take in a region: a range [a, b], every
 * value but a, or the values whose bits under the mask a equal b (b has no
 * bit outside a). A mask of all ones is kept as a one-value range, a mask
 * of zero as the full range.
 */
enum { P_RANGE, P_NE, P_MASK };

struct piece {
	uint8_t kind;
	uint64_t a, b;
};

/* Disjoint pieces. The most one operation makes: the aligned blocks of a
 * range (126 at most) or a mask set less one value (64). */
#define PLIST_MAX 130

struct plist {
	unsigned n;
	struct piece v[PLIST_MAX];
};

static const struct piece ANY = {P_RANGE, 0, UINT64_MAX};

static bool is_any(const struct piece *p)
{
	return p->kind == P_RANGE && p->a == 0 && p->b == UINT64_MAX;
}

static void push(struct plist *l, struct piece p)
{
	if (p.kind == P_MASK && p.a == UINT64_MAX)
		p = (struct piece){P_RANGE, p.b, p.b};
	else if (p.kind == P_MASK && p.a == 0)
		p = ANY;
	if (l->n < PLIST_MAX) /* cannot overflow: see PLIST_MAX */
		l->v[l->n++] = p;
}

static void push_range(struct plist *l, uint64_t lo, uint64_t hi)
{
	if (lo <= hi)
		push(l, (struct piece){P_RANGE, lo, hi});
}

static void push_mask(struct plist *l, uint64_t mask, uint64_t value)
{
	push(l, (struct piece){P_MASK, mask, value & mask});
}

/* [lo, hi] as aligned blocks: each a run of 2^k values starting at a
 * multiple of 2^k, which a mask of the high bits tests. */
static void range_blocks(uint64_t lo, uint64_t hi, struct plist *l)
{
	for (;;) {
		unsigned k = lo ? (unsigned)__builtin_ctzll(lo) : 63;
		uint64_t last;

		while (k > 0 && hi - lo < (1ull << k) - 1)
			k--;
		last = (1ull << k) - 1; /* block size - 1 */
		push_mask(l, ~last, lo);
		if (hi - lo == last)
			return;
		lo += last + 1;
	}
}

/* {x : x & m == v} less the one value w it holds: x differs from w in a
 * bit outside m; split on the highest such bit. */
static void mask_minus_value(uint64_t m, uint64_t v, uint64_t w,
			     struct plist *l)
{
	uint64_t above = 0;
	for (int bit = 63; bit >= 0; bit--) {
		uint64_t b = 1ull << bit;
		if (m & b)
			continue;
		push_mask(l, m | above | b, v | (w & above) | (~w & b));
		above |= b;
	}
}

/* {x : x & m != v}, for v within m: split on the highest bit of m where x
 * differs from v. */
static void mask_ne(uint64_t m, uint64_t v, struct plist *l)
{
	uint64_t above = 0;
	for (int bit = 63; bit >= 0; bit--) {
		uint64_t b = 1ull << bit;
		if (!(m & b))
			continue;
		push_mask(l, above | b, (v & above) | (~v & b));
		above |= b;
	}
}

/* x and y, both masks. */
static void meet_masks(const struct piece *x, const struct piece *y,
		       struct plist *out)
{
	if ((x->b ^ y->b) & x->a & y->a)
		return;
	push_mask(out, x->a | y->a, x->b | y->b);
}

/* The intersection of two pieces, as disjoint pieces. */
static void meet(const struct piece *x, const struct piece *y,
		 struct plist *out)
{
	if (x->kind > y->kind) {
		const struct piece *t = x;
		x = y;
		y = t;
	}
	if (is_any(x)) {
		push(out, *y);
		return;
	}
	if (x->kind == P_RANGE && y->kind == P_RANGE) {
		push_range(out, x->a > y->a ? x->a : y->a,
			   x->b < y->b ? x->b : y->b);
	} else if (x->kind == P_RANGE && y->kind == P_NE) {
		uint64_t w = y->a;
		if (w < x->a || w > x->b) {
			push(out, *x);
			return;
		}
		if (w > x->a)
			push_range(out, x->a, w - 1);
		if (w < x->b)
			push_range(out, w + 1, x->b);
	} else if (x->kind == P_RANGE && y->kind == P_MASK) {
		uint64_t lo = y->b, hi = y->b | ~y->a; /* the set's ends */
		struct plist blocks = {0};

		if (hi < x->a || lo > x->b)
			return;
		if (x->a <= lo && hi <= x->b) {
			push(out, *y);
			return;
		}
		range_blocks(x->a > lo ? x->a : lo, x->b < hi ? x->b : hi,
			     &blocks);
		for (unsigned i = 0; i < blocks.n; i++)
			if (blocks.v[i].kind == P_MASK)
				meet_masks(&blocks.v[i], y, out);
			else if ((blocks.v[i].a & y->a) == y->b)
				push(out, blocks.v[i]); /* one value */
	} else if (x->kind == P_NE && y->kind == P_NE) {
		uint64_t lo = x->a < y->a ? x->a : y->a;
		uint64_t hi = x->a < y->a ? y->a : x->a;
		if (lo == hi) {
			push(out, *x);
			return;
		}
		if (lo > 0)
			push_range(out, 0, lo - 1);
		if (hi - lo >= 2)
			push_range(out, lo + 1, hi - 1);
		if (hi < UINT64_MAX)
			push_range(out, hi + 1, UINT64_MAX);
	} else if (x->kind == P_NE && y->kind == P_MASK) {
		if ((x->a & y->a) != y->b)
			push(out, *y);
		else
			mask_minus_value(y->a, y->b, x->a, out);
	} else {
		meet_masks(x, y, out);
	}
}

/* The values of its argument for which c holds (or, negated, fails). */
static void cmp_pieces(const struct ward_cmp *c, bool negated, struct plist *l)
{
	uint64_t v = c->value, m = c->mask;
	switch (negated ? ward_cmp_negate(c->op) : c->op) {
	case WARD_CMP_EQ:
		push_range(l, v, v);
		break;
	case WARD_CMP_NE:
		push(l, (struct piece){P_NE, v, 0});
		break;
	case WARD_CMP_LT:
		if (v > 0)
			push_range(l, 0, v - 1);
		break;
	case WARD_CMP_LE:
		push_range(l, 0, v);
		break;
	case WARD_CMP_GT:
		if (v < UINT64_MAX)
			push_range(l, v + 1, UINT64_MAX);
		break;
	case WARD_CMP_GE:
		push_range(l, v, UINT64_MAX);
		break;
	case WARD_CMP_MASKED_EQ:
		if (!(v & ~m))
			push_mask(l, m, v);
		break;
	case WARD_CMP_MASKED_NE:
		if (v & ~m)
			push(l, ANY);
		else
			mask_ne(m, v, l);
		break;
	}
}

/* --------------------------------------------------------------- sets */

/* The values of one argument in a region: disjoint pieces, never empty
 * (an empty set empties its box, which is then dropped). */
struct pset {
	const struct piece *v;
	unsigned n;
};

static const struct pset ANY_SET = {&ANY, 1};

/* Two disjoint pieces whose union is one piece: adjacent ranges, masks
 * that differ in one bit of the mask, a value and "all but it". */
static bool merge_pair(const struct piece *x, const struct piece *y,
		       struct piece *out)
{
	if (x->kind > y->kind) {
		const struct piece *t = x;
		x = y;
		y = t;
	}
	if (x->kind == P_RANGE && y->kind == P_RANGE) {
		if (x->b != UINT64_MAX && x->b + 1 == y->a)
			*out = (struct piece){P_RANGE, x->a, y->b};
		else if (y->b != UINT64_MAX && y->b + 1 == x->a)
			*out = (struct piece){P_RANGE, y->a, x->b};
		else
			return false;
		return true;
	}
	if (x->kind == P_RANGE && y->kind == P_NE) {
		if (x->a != x->b || x->a != y->a)
			return false;
		*out = ANY;
		return true;
	}
	if (x->kind == P_MASK && y->kind == P_MASK && x->a == y->a) {
		uint64_t d = x->b ^ y->b;
		struct plist l = {0};

		if (!d || (d & (d - 1)) || !(d & x->a))
			return false;
		push_mask(&l, x->a & ~d, x->b & ~d);
		*out = l.v[0];
		return true;
	}
	return false;
}

/* Merge pieces until no pair merges. */
static void simplify(struct piece *v, unsigned *n)
{
	bool changed = true;
	while (changed && *n > 1) {
		changed = false;
		for (unsigned i = 0; i < *n; i++)
			for (unsigned j = i + 1; j < *n; j++) {
				struct piece m;
				if (!merge_pair(&v[i], &v[j], &m))
					continue;
				v[i] = m;
				v[j--] = v[--*n];
				changed = true;
			}
	}
}

/* *out = a cut to the pieces q; its pieces live in tmp. */
static int set_meet(struct ward_pool *tmp, const struct pset *a,
		    const struct plist *q, struct pset *out)
{
	struct ward_vec v = {0};
	unsigned n;

	for (unsigned i = 0; i < a->n; i++)
		for (unsigned j = 0; j < q->n; j++) {
			struct plist r = {0};
			meet(&a->v[i], &q->v[j], &r);
			if (v.n + r.n > MAX_PIECES)
				return -E2BIG;
			for (unsigned k = 0; k < r.n; k++)
				*(struct piece *)ward_vec_push(
				    tmp, &v, sizeof(struct piece)) = r.v[k];
		}
	n = (unsigned)v.n;
	simplify(v.items, &n);
	out->v = v.items;
	out->n = n;
	return 0;
}

/* -------------------------------------------------------------- boxes */

struct box {
	struct pset s[6];
};

struct boxes {
	struct box *v;
	size_t n, cap;
};

static void boxes_free(struct boxes *b)
{
	free(b->v);
	*b = (struct boxes){0};
}

static void boxes_freep(struct boxes *b)
{
	boxes_free(b);
}
#define _cleanup_boxes_ __attribute__((cleanup(boxes_freep)))

static int boxes_push(struct boxes *b, const struct box *x)
{
	if (b->n == MAX_ENTRIES)
		return -E2BIG;
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct box *v = realloc(b->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = *x;
	return 0;
}

static int boxes_copy(const struct boxes *in, struct boxes *out)
{
	for (size_t i = 0; i < in->n; i++) {
		int rc = boxes_push(out, &in->v[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* out += in, each box cut to where c holds (or fails, negated). */
static int and_cmp(struct ward_pool *tmp, const struct boxes *in,
		   const struct ward_cmp *c, bool negated, struct boxes *out)
{
	struct plist q = {0};
	cmp_pieces(c, negated, &q);
	for (size_t i = 0; i < in->n; i++) {
		struct box b = in->v[i];
		int rc = set_meet(tmp, &in->v[i].s[c->arg], &q, &b.s[c->arg]);
		if (rc == 0 && b.s[c->arg].n)
			rc = boxes_push(out, &b);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* *io = *io cut to where every comparison of c holds. */
static int and_conj(struct ward_pool *tmp, struct boxes *io,
		    const struct ward_cond_rule *c)
{
	for (uint32_t i = 0; i < c->ncmps; i++) {
		struct boxes next = {0};
		int rc = and_cmp(tmp, io, &c->cmps[i], false, &next);
		boxes_free(io);
		*io = next;
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* out = in less where every comparison of c holds: where the first fails,
 * or the first holds and the second fails, and so on (disjoint parts). */
static int minus_conj(struct ward_pool *tmp, const struct boxes *in,
		      const struct ward_cond_rule *c, struct boxes *out)
{
	_cleanup_boxes_ struct boxes acc = {0};
	int rc = boxes_copy(in, &acc);
	for (uint32_t i = 0; i < c->ncmps && acc.n && rc == 0; i++) {
		struct boxes next = {0};

		rc = and_cmp(tmp, &acc, &c->cmps[i], true, out);
		if (rc == 0)
			rc = and_cmp(tmp, &acc, &c->cmps[i], false, &next);
		boxes_free(&acc);
		acc = next;
	}
	return rc;
}

/* Field by field: a piece has padding after its kind, which memcmp would
 * compare too (uninitialised where a piece was built on the stack). */
static bool piece_equal(const struct piece *x, const struct piece *y)
{
	return x->kind == y->kind && x->a == y->a && x->b == y->b;
}

static bool set_equal(const struct pset *a, const struct pset *b)
{
	if (a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++) {
		bool found = false;
		for (unsigned j = 0; j < b->n && !found; j++)
			found = piece_equal(&a->v[i], &b->v[j]);
		if (!found)
			return false;
	}
	return true;
}

/* Two boxes that differ in one argument only are one box: the union of
 * the two (disjoint) sets there. The merged box never needs more entries
 * than the two did. */
static int merge_boxes(struct ward_pool *tmp, struct boxes *b)
{
	bool changed = true;
	while (changed) {
		changed = false;
		for (size_t i = 0; i < b->n; i++)
			for (size_t j = i + 1; j < b->n; j++) {
				int diff = -1, ndiff = 0;
				struct piece *v;
				unsigned n;
				const struct pset *x, *y;

				for (int k = 0; k < 6 && ndiff < 2; k++)
					if (!set_equal(&b->v[i].s[k],
						       &b->v[j].s[k])) {
						diff = k;
						ndiff++;
					}
				if (ndiff != 1)
					continue;
				x = &b->v[i].s[diff];
				y = &b->v[j].s[diff];
				if (x->n + y->n > MAX_PIECES)
					return -E2BIG;
				v = ward_pool_array(tmp, x->n + y->n,
						    sizeof(*v));
				memcpy(v, x->v, x->n * sizeof(*v));
				memcpy(v + x->n, y->v, y->n * sizeof(*v));
				n = x->n + y->n;
				simplify(v, &n);
				b->v[i].s[diff] = (struct pset){v, n};
				b->v[j--] = b->v[--b->n];
				changed = true;
			}
	}
	return 0;
}

static struct box all_values(void)
{
	struct box b;
	for (int i = 0; i < 6; i++)
		b.s[i] = ANY_SET;
	return b;
}

bool ward_conj_overlap(const struct ward_cmp *a, uint32_t na,
		       const struct ward_cmp *b, uint32_t nb)
{
	struct ward_pool *tmp = ward_pool_new();
	_cleanup_boxes_ struct boxes bx = {0};
	struct box all = all_values();
	const struct ward_cond_rule ca = {a, na, {0, 0, 0}},
				    cb = {b, nb, {0, 0, 0}};
	/* too many pieces to tell: say they may */
	bool overlap = boxes_push(&bx, &all) < 0 ||
		       and_conj(tmp, &bx, &ca) < 0 ||
		       and_conj(tmp, &bx, &cb) < 0 || bx.n > 0;
	ward_pool_free(tmp);
	return overlap;
}

/* ------------------------------------------------------------ entries */

struct builder {
	struct ward_pool *pool;
	struct ward_pool *tmp; /* one syscall's sets */
	bool one_arg;	       /* its conditions test one argument */
	uint32_t arch;
	struct ward_action base;
	struct ward_vec plain; /* struct ward_xentry, no comparisons */
	struct ward_vec cond;  /* struct ward_xentry, with comparisons */
};

static bool same_action(struct ward_action a, struct ward_action b)
{
	return ward_action_cmp(&a, &b) == 0;
}

static bool same_cmps(const struct ward_xentry *e, const struct ward_xcmp *c,
		      uint8_t n)
{
	if (e->ncmps != n)
		return false;
	for (uint8_t i = 0; i < n; i++)
		if (e->cmps[i].arg != c[i].arg || e->cmps[i].op != c[i].op ||
		    e->cmps[i].value != c[i].value ||
		    e->cmps[i].value_two != c[i].value_two)
			return false;
	return true;
}

static void add_name(struct ward_pool *p, struct ward_xentry *e,
		     const char *name)
{
	/* names grow by doubling inside the pool */
	if ((e->nnames & (e->nnames - 1)) == 0) {
		uint32_t cap = e->nnames ? 2 * e->nnames : 1;
		const char **v = ward_pool_array(p, cap, sizeof(*v));
		if (e->nnames)
			memcpy(v, e->names, e->nnames * sizeof(*v));
		e->names = v;
	}
	e->names[e->nnames++] = name;
}

/* Add name to the entry of (action, comparisons), made if new. */
static void add_entry(struct builder *b, const char *name, struct ward_action a,
		      const struct ward_xcmp *c, uint8_t n)
{
	struct ward_vec *v = n ? &b->cond : &b->plain;
	struct ward_xentry *items = v->items;
	struct ward_xentry *e;

	for (size_t i = 0; i < v->n; i++) {
		if (same_action(items[i].action, a) &&
		    same_cmps(&items[i], c, n)) {
			if (items[i].names[items[i].nnames - 1] != name)
				add_name(b->pool, &items[i], name);
			return;
		}
	}
	e = ward_vec_push(b->pool, v, sizeof(struct ward_xentry));
	memset(e, 0, sizeof(*e));
	e->action = a;
	e->ncmps = n;
	if (n)
		memcpy(e->cmps, c, n * sizeof(*c));
	add_name(b->pool, e, name);
}

static struct ward_xcmp xcmp_of(uint8_t arg, const struct piece *p)
{
	if (p->kind == P_NE)
		return (struct ward_xcmp){arg, WARD_XOP_NE, p->a, 0};
	if (p->kind == P_MASK)
		return (struct ward_xcmp){arg, WARD_XOP_MASKED_EQ, p->a, p->b};
	if (p->a == p->b)
		return (struct ward_xcmp){arg, WARD_XOP_EQ, p->a, 0};
	if (p->a == 0)
		return (struct ward_xcmp){arg, WARD_XOP_LE, p->b, 0};
	return (struct ward_xcmp){arg, WARD_XOP_GE, p->a, 0};
}

/* A piece one comparison can test: not a range with two bounds. */
static bool single(const struct piece *p)
{
	return p->kind != P_RANGE || p->a == p->b || p->a == 0 ||
	       p->b == UINT64_MAX;
}

/*
 * A set as pieces one comparison each can test, in the forms libseccomp
 * 2.5.4 compiles right. Where the syscall's conditions look at one
 * argument only, a range with one bound and != are kept (a range with two
 * bounds becomes its aligned blocks). Where they look at several, only ==
 * and masked == are used: given trees of rules on several arguments,
 * libseccomp 2.5.4 miscompiles <, <=, >, >= and != on 64-bit values (after
 * a failed test of the high word it tests the wrong argument), or loops
 * for ever building them (tests/unit/test_export.c finds both). Ranges
 * then become aligned blocks and x != v the 64 masks "x differs from v in
 * this bit, and agrees above it".
 */
static int lower(struct ward_pool *tmp, const struct pset *s, bool one_arg,
		 struct pset *out)
{
	struct ward_vec v = {0};
	for (unsigned i = 0; i < s->n; i++) {
		const struct piece *p = &s->v[i];
		struct plist l = {0};
		if (p->kind == P_NE && !(one_arg && p->a <= UINT32_MAX))
			mask_ne(UINT64_MAX, p->a, &l);
		else if (p->kind == P_RANGE && !is_any(p) &&
			 !(one_arg && single(p) && p->a <= UINT32_MAX &&
			   (p->a == 0 ? p->b <= UINT32_MAX : true)))
			range_blocks(p->a, p->b, &l);
		else
			push(&l, *p);
		if (v.n + l.n > MAX_ENTRIES)
			return -E2BIG;
		for (unsigned k = 0; k < l.n; k++)
			*(struct piece *)ward_vec_push(
			    tmp, &v, sizeof(struct piece)) = l.v[k];
	}
	out->v = v.items;
	out->n = (unsigned)v.n;
	return 0;
}

/* The entries of one box: one per choice of a piece of each argument. */
static int add_box(struct builder *b, const char *name, const struct box *x,
		   struct ward_action a, size_t *count)
{
	struct pset parts[6];
	uint64_t product = 1;
	unsigned idx[6] = {0};

	for (int i = 0; i < 6; i++) {
		int rc = lower(b->tmp, &x->s[i], b->one_arg, &parts[i]);
		if (rc < 0)
			return rc;
		product *= parts[i].n;
		if (*count + product > MAX_ENTRIES)
			return -E2BIG;
	}
	for (;;) {
		struct ward_xcmp c[6];
		uint8_t n = 0;
		int pos = 5;

		for (uint8_t i = 0; i < 6; i++)
			if (!is_any(&parts[i].v[idx[i]]))
				c[n++] = xcmp_of(i, &parts[i].v[idx[i]]);
		++*count;
		add_entry(b, name, a, c, n);
		while (pos >= 0 && ++idx[pos] == parts[pos].n)
			idx[pos--] = 0;
		if (pos < 0)
			return 0;
	}
}

static int add_boxes(struct builder *b, const char *name, const struct boxes *x,
		     struct ward_action a, size_t *count)
{
	if (same_action(a, b->base))
		return 0; /* the consumer's own answer */
	for (size_t i = 0; i < x->n; i++) {
		int rc = add_box(b, name, &x->v[i], a, count);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The regions of one syscall, strictest rule first (ward_action_cmp is
 * the order the code generator tests them in). */
static int syscall_entries(struct builder *b,
			   const struct ward_syscall_rule *sc, const char *name,
			   struct ward_action dflt)
{
	_cleanup_free_ uint32_t *order =
	    calloc(sc->nconds ? sc->nconds : 1, sizeof(*order));
	uint32_t n = 0;
	int arg = -1;

	if (!order)
		return -ENOMEM;
	for (uint32_t i = 0; i < sc->nconds; i++) {
		uint32_t j = n++;
		while (j > 0 &&
		       ward_action_cmp(&sc->conds[i].action,
				       &sc->conds[order[j - 1]].action) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}

	b->one_arg = true;
	for (uint32_t i = 0; i < sc->nconds; i++)
		for (uint32_t k = 0; k < sc->conds[i].ncmps; k++) {
			if (arg >= 0 && arg != sc->conds[i].cmps[k].arg)
				b->one_arg = false;
			arg = sc->conds[i].cmps[k].arg;
		}

	_cleanup_boxes_ struct boxes rest = {0};
	struct box all = all_values();
	size_t count = 0;
	int rc = boxes_push(&rest, &all);
	for (uint32_t i = 0; i < n && rc == 0 && rest.n; i++) {
		const struct ward_cond_rule *c = &sc->conds[order[i]];
		_cleanup_boxes_ struct boxes hit = {0}, left = {0};
		rc = boxes_copy(&rest, &hit);
		if (rc == 0)
			rc = and_conj(b->tmp, &hit, c);
		if (rc == 0)
			rc = minus_conj(b->tmp, &rest, c, &left);
		if (rc == 0)
			rc = merge_boxes(b->tmp, &left);
		if (rc == 0)
			rc = merge_boxes(b->tmp, &hit);
		if (rc == 0)
			rc = add_boxes(b, name, &hit, c->action, &count);
		boxes_free(&rest);
		rest = left;
		left = (struct boxes){0};
	}
	if (rc == 0)
		rc = add_boxes(b, name, &rest,
			       sc->has_fallback ? sc->fallback : dflt, &count);
	return rc;
}

static const char *syscall_name(uint32_t arch,
				const struct ward_syscall_rule *sc)
{
	return sc->name ? sc->name : ward_sys_name(arch, sc->nr);
}

static int cmp_plain(const void *x, const void *y)
{
	const struct ward_xentry *a = x, *b = y;
	return ward_action_cmp(&a->action, &b->action);
}

int ward_export_seccomp(struct ward_pool *p, const struct ward_rules *rules,
			uint32_t arch, struct ward_action base,
			struct ward_xseccomp *out, ward_err *err)
{
	struct builder b = {.pool = p, .arch = arch, .base = base};
	size_t n;

	for (uint32_t i = 0; i < rules->nsyscalls; i++) {
		const struct ward_syscall_rule *sc = &rules->syscalls[i];
		const char *name = syscall_name(arch, sc);
		int rc;

		if (!name)
			return ward_fail(err, 0,
					 "export: syscall number %d has no "
					 "name on %s",
					 sc->nr, describe_arch(arch));
		b.tmp = ward_pool_new();
		rc = syscall_entries(&b, sc, name, rules->default_action);
		ward_pool_free(b.tmp);
		if (rc == -E2BIG)
			return ward_fail(err, 0,
					 "export: the conditions of `%s` need "
					 "more than %d entries",
					 name, MAX_ENTRIES);
		if (rc < 0)
			return ward_fail(err, -rc, "export: %s", name);
	}
	/* The consumer's default is not the policy's: name every other
	 * syscall of the target (sorted rules: a merge by number). */
	if (!same_action(base, rules->default_action)) {
		uint32_t k = 0;
		for (int nr = 0; nr < 1024; nr++) {
			const char *sname;

			while (k < rules->nsyscalls &&
			       rules->syscalls[k].nr < nr)
				k++;
			if (k < rules->nsyscalls && rules->syscalls[k].nr == nr)
				continue;
			sname = ward_sys_name(arch, nr);
			if (!sname)
				continue;
			add_entry(&b, sname, rules->default_action, NULL, 0);
		}
	}

	n = b.plain.n + b.cond.n;
	out->base = base;
	out->nentries = n;
	out->entries = ward_pool_array(p, n ? n : 1, sizeof(*out->entries));
	if (b.plain.n)
		memcpy(out->entries, b.plain.items,
		       b.plain.n * sizeof(*out->entries));
	qsort(out->entries, b.plain.n, sizeof(*out->entries), cmp_plain);
	if (b.cond.n)
		memcpy(out->entries + b.plain.n, b.cond.items,
		       b.cond.n * sizeof(*out->entries));
	return 0;
}

/* ------------------------------------------------ as a runtime loads it */

static uint32_t scmp_action(struct ward_action a)
{
	switch (a.kind) {
	case WARD_ACT_ALLOW:
		return SCMP_ACT_ALLOW;
	case WARD_ACT_LOG:
		return SCMP_ACT_LOG;
	case WARD_ACT_ERRNO:
		return SCMP_ACT_ERRNO(a.errno_nr);
	case WARD_ACT_TRAP:
		return SCMP_ACT_TRAP;
	}
	return SCMP_ACT_KILL_PROCESS;
}

/* In a child: build x with libseccomp as crun does (entries whose action
 * is the default skipped, each name with the entry's comparisons, names
 * libseccomp does not know skipped) and write the program to fd. */
static void build_child(const struct ward_xseccomp *x, uint32_t arch, int fd)
{
	static const enum scmp_compare ops[] = {
	    [WARD_XOP_EQ] = SCMP_CMP_EQ,
	    [WARD_XOP_NE] = SCMP_CMP_NE,
	    [WARD_XOP_LT] = SCMP_CMP_LT,
	    [WARD_XOP_LE] = SCMP_CMP_LE,
	    [WARD_XOP_GT] = SCMP_CMP_GT,
	    [WARD_XOP_GE] = SCMP_CMP_GE,
	    [WARD_XOP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
	};
	uint32_t dflt = scmp_action(x->base);
	scmp_filter_ctx ctx = seccomp_init(dflt);
	if (!ctx)
		_exit(2);
	if (arch != seccomp_arch_native() &&
	    (seccomp_arch_add(ctx, arch) < 0 ||
	     seccomp_arch_remove(ctx, seccomp_arch_native()) < 0))
		_exit(2);
	for (size_t i = 0; i < x->nentries; i++) {
		const struct ward_xentry *e = &x->entries[i];
		uint32_t act = scmp_action(e->action);
		struct scmp_arg_cmp c[6];
		if (act == dflt)
			continue;
		for (uint8_t k = 0; k < e->ncmps; k++)
			c[k] = (struct scmp_arg_cmp){
			    e->cmps[k].arg, ops[e->cmps[k].op],
			    e->cmps[k].value, e->cmps[k].value_two};
		for (uint32_t k = 0; k < e->nnames; k++) {
			int nr = seccomp_syscall_resolve_name_arch(
			    SCMP_ARCH_NATIVE, e->names[k]);
			if (nr == __NR_SCMP_ERROR)
				continue;
			if (seccomp_rule_add_array(ctx, act, nr, e->ncmps, c) <
			    0)
				_exit(3);
		}
	}
	_exit(seccomp_export_bpf(ctx, fd) < 0 ? 4 : 0);
}

int ward_xseccomp_load_size(const struct ward_xseccomp *x, uint32_t arch,
			    uint32_t *ninsns, ward_err *err)
{
	_cleanup_close_ int fd = memfd_create("ward-export", MFD_CLOEXEC);
	pid_t pid;
	int status;
	struct stat st;

	if (fd < 0)
		return ward_fail(err, errno, "memfd_create");
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return ward_fail(err, errno, "fork");
	if (pid == 0) {
		alarm(LIBSECCOMP_SECONDS);
		build_child(x, arch, fd);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return ward_fail(err, errno, "waitpid");
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		return ward_fail(err, 0,
				 "export: libseccomp did not finish building "
				 "the profile in %d s (a known loop of "
				 "libseccomp 2.5 on some conditions): runtimes "
				 "would hang; simplify the conditions",
				 LIBSECCOMP_SECONDS);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return ward_fail(err, 0,
				 "export: libseccomp refused the profile "
				 "(status 0x%x)",
				 (unsigned)status);
	if (fstat(fd, &st) < 0)
		return ward_fail(err, errno, "fstat memfd");
	*ninsns = (uint32_t)((size_t)st.st_size / sizeof(struct sock_filter));
	return 0;
}

int ward_xseccomp_check(const struct ward_xseccomp *x, uint32_t arch,
			ward_err *err)
{
	uint32_t n = 0;
	if (ward_xseccomp_load_size(x, arch, &n, err) < 0)
		return -1;
	if (n > BPF_MAXINSNS)
		return ward_fail(err, 0,
				 "export: libseccomp makes %u instructions of "
				 "this profile, more than the kernel's %u: "
				 "runtimes could not load it; simplify the "
				 "conditions",
				 n, BPF_MAXINSNS);
	return 0;
}

void ward_xseccomp_runtime_notes(struct ward_pool *p,
				 const struct ward_xseccomp *x, uint32_t arch,
				 struct ward_notes *notes)
{
	const struct scmp_version *v = seccomp_version();
	const char *names = NULL;

	for (size_t i = 0; i < x->nentries; i++)
		for (uint32_t k = 0; k < x->entries[i].nnames; k++) {
			const char *n = x->entries[i].names[k];
			if (seccomp_syscall_resolve_name_arch(arch, n) >= 0)
				continue;
			names =
			    names ? ward_pool_printf(p, "%s, %s", names, n) : n;
		}
	if (names)
		ward_note(notes,
			  "seccomp: %s: libseccomp %u.%u.%u (this wardc's; "
			  "crun's and runc's on Debian 12) has no such names: "
			  "a runtime linked with it skips their entries, and "
			  "those calls get the default action",
			  names, v ? v->major : 0, v ? v->minor : 0,
			  v ? v->micro : 0);
}

/* ---------------------------------------------------------------- names */

const char *ward_xaction_name(struct ward_action a)
{
	switch (a.kind) {
	case WARD_ACT_ALLOW:
		return "SCMP_ACT_ALLOW";
	case WARD_ACT_LOG:
		return "SCMP_ACT_LOG";
	case WARD_ACT_ERRNO:
		return "SCMP_ACT_ERRNO";
	case WARD_ACT_TRAP:
		return "SCMP_ACT_TRAP";
	default:
		return "SCMP_ACT_KILL_PROCESS";
	}
}

const char *ward_xop_name(uint8_t op)
{
	static const char *const names[] = {
	    [WARD_XOP_EQ] = "SCMP_CMP_EQ",
	    [WARD_XOP_NE] = "SCMP_CMP_NE",
	    [WARD_XOP_LT] = "SCMP_CMP_LT",
	    [WARD_XOP_LE] = "SCMP_CMP_LE",
	    [WARD_XOP_GT] = "SCMP_CMP_GT",
	    [WARD_XOP_GE] = "SCMP_CMP_GE",
	    [WARD_XOP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
	};
	return op < ARRAY_LEN(names) ? names[op] : "?";
}

const char *ward_xarch_name(uint32_t arch)
{
	return arch == WARD_ARCH_AARCH64 ? "SCMP_ARCH_AARCH64"
					 : "SCMP_ARCH_X86_64";
}

struct doc *ward_xseccomp_doc(struct ward_pool *p,
			      const struct ward_xseccomp *x, uint32_t arch,
			      bool with_default_errno)
{
	struct doc *m = doc_map(p);
	struct doc *arches;
	struct doc *list;

	doc_set_str(p, m, "defaultAction", ward_xaction_name(x->base));
	if (with_default_errno && x->base.kind == WARD_ACT_ERRNO)
		doc_set_uint(p, m, "defaultErrnoRet", x->base.errno_nr);
	arches = doc_add(m, "architectures", doc_list(p));
	doc_add(arches, NULL, doc_str(p, ward_xarch_name(arch)));
	list = doc_add(m, "syscalls", doc_list(p));
	for (size_t i = 0; i < x->nentries; i++) {
		const struct ward_xentry *e = &x->entries[i];
		struct doc *d = doc_add(list, NULL, doc_map(p));
		struct doc *names = doc_add(d, "names", doc_list(p));
		struct doc *args;

		for (uint32_t k = 0; k < e->nnames; k++)
			doc_add(names, NULL, doc_str(p, e->names[k]));
		doc_set_str(p, d, "action", ward_xaction_name(e->action));
		if (e->action.kind == WARD_ACT_ERRNO)
			doc_set_uint(p, d, "errnoRet", e->action.errno_nr);
		if (!e->ncmps)
			continue;
		args = doc_add(d, "args", doc_list(p));
		for (uint8_t k = 0; k < e->ncmps; k++) {
			struct doc *a = doc_add(args, NULL, doc_map(p));
			doc_set_uint(p, a, "index", e->cmps[k].arg);
			doc_set_uint(p, a, "value", e->cmps[k].value);
			doc_set_uint(p, a, "valueTwo", e->cmps[k].value_two);
			doc_set_str(p, a, "op", ward_xop_name(e->cmps[k].op));
		}
	}
	return m;
}
