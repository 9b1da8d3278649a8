/* SPDX-License-Identifier: MIT */
#include "random_rules.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The tables built here own their arrays; these views drop the const of
 * policy.h's read-only contract. */
#define MUT_SC(r)    ((struct ward_syscall_rule *)(r)->syscalls)
#define MUT_CONDS(s) ((struct ward_cond_rule *)(s)->conds)
#define MUT_CMPS(c)  ((struct ward_cmp *)(c)->cmps)

uint64_t rr_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t rr_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(rr_next(state) % n);
}

/* Values that make comparisons overlap and that sit on the 32-bit and
 * 64-bit edges libseccomp splits comparisons at. */
static const uint64_t values[] = {0,
				  1,
				  2,
				  3,
				  5,
				  0x10,
				  0xff,
				  0x100,
				  0x7fffffff,
				  0x80000000,
				  0xffffffff,
				  0x100000000,
				  0x100000001,
				  0x8000000000000000ull,
				  UINT64_MAX - 1,
				  UINT64_MAX};

static const uint64_t masks[] = {1,
				 2,
				 3,
				 0xf,
				 0xff,
				 0x100,
				 0xff00,
				 0x80000001,
				 0xffffffff,
				 0xffffffff00000000ull,
				 0x8000000000000001ull,
				 0x100000003ull,
				 UINT64_MAX,
				 0};

static const uint32_t errnos[] = {1, 13, 38, 4094};

static struct ward_action random_action(uint64_t *st)
{
	struct ward_action a = {rr_below(st, 5), 0, 0};
	if (a.kind == WARD_ACT_ERRNO)
		a.errno_nr = errnos[rr_below(st, ARRAY_LEN(errnos))];
	/* now and then through the broker: a recorded refusal, a brokered
	 * call (docs/spec.md 4.6) */
	if (a.kind == WARD_ACT_ERRNO && rr_below(st, 4) == 0)
		a.via = rr_below(st, 2) ? WARD_VIA_RECORD : WARD_VIA_RECORD_NET;
	if (a.kind == WARD_ACT_ALLOW && rr_below(st, 8) == 0)
		a.via = rr_below(st, 2) ? WARD_VIA_CONNECT : WARD_VIA_SENDTO;
	return a;
}

static struct ward_cmp random_cmp(uint64_t *st)
{
	struct ward_cmp c = {0};
	/* mostly the first three arguments, so that rules meet */
	c.arg =
	    (uint8_t)(rr_below(st, 8) < 7 ? rr_below(st, 3) : rr_below(st, 6));
	c.op = (uint8_t)rr_below(st, 8);
	if (c.op == WARD_CMP_MASKED_EQ || c.op == WARD_CMP_MASKED_NE) {
		c.mask = masks[rr_below(st, ARRAY_LEN(masks))];
		/* mostly a value inside the mask; sometimes not (constant) */
		if (rr_below(st, 8) == 0)
			c.value = values[rr_below(st, ARRAY_LEN(values))];
		else
			c.value = c.mask & rr_next(st) &
				  (rr_below(st, 2) ? UINT64_MAX : 0xff);
	} else {
		c.value = values[rr_below(st, ARRAY_LEN(values))];
		if (rr_below(st, 4) == 0) /* a neighbour of a common value */
			c.value += rr_below(st, 2) ? 1 : -1;
	}
	return c;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

int rr_generate(uint64_t *st, const struct rr_params *p, struct ward_rules *out)
{
	memset(out, 0, sizeof(*out));
	out->default_action = random_action(st);
	uint32_t want = 1 + rr_below(st, p->max_syscalls);
	int32_t *nrs = calloc(want, sizeof(*nrs));
	if (!nrs)
		return -1;
	uint32_t n = 0;
	for (uint32_t tries = 0; n < want && tries < want * 8; tries++) {
		int32_t nr = p->pool[rr_below(st, p->npool)];
		bool seen = false;
		for (uint32_t i = 0; i < n; i++)
			seen = seen || nrs[i] == nr;
		if (!seen)
			nrs[n++] = nr;
	}
	qsort(nrs, n, sizeof(*nrs), cmp_i32);

	struct ward_syscall_rule *sc = calloc(n, sizeof(*sc));
	if (!sc) {
		free(nrs);
		return -1;
	}
	out->syscalls = sc;
	out->nsyscalls = n;
	for (uint32_t i = 0; i < n; i++) {
		sc[i].nr = nrs[i];
		sc[i].name = "random";
		sc[i].has_fallback = rr_below(st, 2);
		if (sc[i].has_fallback)
			sc[i].fallback = random_action(st);
		uint32_t nc = rr_below(st, p->max_conds + 1);
		struct ward_cond_rule *conds =
		    calloc(nc ? nc : 1, sizeof(*conds));
		if (!conds)
			goto oom;
		sc[i].conds = conds;
		sc[i].nconds = nc;
		for (uint32_t j = 0; j < nc; j++) {
			uint32_t k = 1 + rr_below(st, p->max_cmps);
			struct ward_cmp *cmps = calloc(k, sizeof(*cmps));
			if (!cmps)
				goto oom;
			conds[j].cmps = cmps;
			conds[j].ncmps = k;
			conds[j].action = random_action(st);
			for (uint32_t m = 0; m < k; m++)
				cmps[m] = random_cmp(st);
		}
	}
	free(nrs);
	return 0;
oom:
	free(nrs);
	rr_free(out);
	return -1;
}

void rr_free(struct ward_rules *r)
{
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		const struct ward_syscall_rule *sc = &r->syscalls[i];
		for (uint32_t j = 0; j < sc->nconds; j++)
			free(MUT_CMPS(&sc->conds[j]));
		free(MUT_CONDS(sc));
	}
	free(MUT_SC(r));
	memset(r, 0, sizeof(*r));
}

int rr_clone(const struct ward_rules *src, struct ward_rules *dst)
{
	*dst = *src;
	dst->syscalls = NULL;
	dst->nsyscalls = 0;
	struct ward_syscall_rule *sc =
	    calloc(src->nsyscalls ? src->nsyscalls : 1, sizeof(*sc));
	if (!sc)
		return -1;
	dst->syscalls = sc;
	for (uint32_t i = 0; i < src->nsyscalls; i++) {
		const struct ward_syscall_rule *s = &src->syscalls[i];
		sc[i] = *s;
		sc[i].conds = NULL;
		sc[i].nconds = 0;
		dst->nsyscalls = i + 1;
		struct ward_cond_rule *conds =
		    calloc(s->nconds ? s->nconds : 1, sizeof(*conds));
		if (!conds)
			goto oom;
		sc[i].conds = conds;
		for (uint32_t j = 0; j < s->nconds; j++) {
			conds[j] = s->conds[j];
			conds[j].cmps = NULL;
			conds[j].ncmps = 0;
			sc[i].nconds = j + 1;
			uint32_t k = s->conds[j].ncmps;
			struct ward_cmp *cmps =
			    calloc(k ? k : 1, sizeof(*cmps));
			if (!cmps)
				goto oom;
			memcpy(cmps, s->conds[j].cmps, k * sizeof(*cmps));
			conds[j].cmps = cmps;
			conds[j].ncmps = k;
		}
	}
	return 0;
oom:
	rr_free(dst);
	return -1;
}

static void print_action(FILE *out, const struct ward_action *a)
{
	static const char *const names[] = {"allow", "log", "errno", "trap",
					    "kill"};
	if (a->kind == WARD_ACT_ERRNO)
		fprintf(out, "errno %u", a->errno_nr);
	else if (a->kind < ARRAY_LEN(names))
		fprintf(out, "%s", names[a->kind]);
	else
		fprintf(out, "action#%u", a->kind);
}

void rr_print(FILE *out, const struct ward_rules *r)
{
	static const char *const ops[] = {
	    "==", "!=", "<", "<=", ">", ">=", "==", "!="};
	fprintf(out, "  default ");
	print_action(out, &r->default_action);
	fprintf(out, "\n");
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		const struct ward_syscall_rule *sc = &r->syscalls[i];
		if (sc->has_fallback) {
			fprintf(out, "  nr %d (%s): ", sc->nr,
				sc->name ? sc->name : "?");
			print_action(out, &sc->fallback);
			fprintf(out, "\n");
		}
		for (uint32_t j = 0; j < sc->nconds; j++) {
			const struct ward_cond_rule *c = &sc->conds[j];
			fprintf(out, "  nr %d (%s): ", sc->nr,
				sc->name ? sc->name : "?");
			print_action(out, &c->action);
			fprintf(out, " if");
			for (uint32_t k = 0; k < c->ncmps; k++) {
				const struct ward_cmp *m = &c->cmps[k];
				fprintf(out, "%s a%u", k ? " &&" : "", m->arg);
				if (m->op >= WARD_CMP_MASKED_EQ)
					fprintf(out, " & 0x%llx",
						(unsigned long long)m->mask);
				fprintf(out, " %s 0x%llx",
					m->op < ARRAY_LEN(ops) ? ops[m->op]
							       : "?",
					(unsigned long long)m->value);
			}
			if (c->ncmps == 0)
				fprintf(out, " true");
			fprintf(out, "\n");
		}
		if (!sc->has_fallback && sc->nconds == 0)
			fprintf(out, "  nr %d (%s): no rule\n", sc->nr,
				sc->name ? sc->name : "?");
	}
}

/* ------------------------------------------------------------ shrinking */

/*
 * The candidate steps, numbered; step() applies step number k to a copy
 * and says whether there was such a step. Removal steps come first: they
 * shrink the most.
 */
static bool remove_syscall(struct ward_rules *r, uint32_t i)
{
	if (i >= r->nsyscalls)
		return false;
	struct ward_syscall_rule *sc = MUT_SC(r);
	for (uint32_t j = 0; j < sc[i].nconds; j++)
		free(MUT_CMPS(&sc[i].conds[j]));
	free(MUT_CONDS(&sc[i]));
	memmove(&sc[i], &sc[i + 1], (r->nsyscalls - i - 1) * sizeof(*sc));
	r->nsyscalls--;
	return true;
}

static bool remove_cond(struct ward_syscall_rule *sc, uint32_t j)
{
	if (j >= sc->nconds)
		return false;
	struct ward_cond_rule *c = MUT_CONDS(sc);
	free(MUT_CMPS(&c[j]));
	memmove(&c[j], &c[j + 1], (sc->nconds - j - 1) * sizeof(*c));
	sc->nconds--;
	return true;
}

static bool remove_cmp(struct ward_cond_rule *c, uint32_t k)
{
	if (k >= c->ncmps || c->ncmps == 1)
		return false;
	struct ward_cmp *m = MUT_CMPS(c);
	memmove(&m[k], &m[k + 1], (c->ncmps - k - 1) * sizeof(*m));
	c->ncmps--;
	return true;
}

/* Simpler values for one comparison, by variant v. */
static bool simplify_cmp(struct ward_cmp *m, uint32_t v)
{
	struct ward_cmp old = *m;
	switch (v) {
	case 0:
		m->value = 0;
		break;
	case 1:
		if (m->value > 1)
			m->value = 1;
		break;
	case 2:
		m->value >>= 1;
		break;
	case 3:
		m->mask &= -m->mask; /* the lowest bit */
		m->value &= m->mask;
		break;
	case 4:
		m->mask >>= 1;
		m->value &= m->mask;
		break;
	case 5:
		m->arg = 0;
		break;
	default:
		if (m->op > WARD_CMP_EQ && m->op < WARD_CMP_MASKED_EQ)
			m->op = WARD_CMP_EQ;
		break;
	}
	return memcmp(&old, m, sizeof(old)) != 0;
}

/* Every step must make the table simpler by some measure, or shrinking
 * could go round in circles: actions only move to allow, or from
 * log/errno/trap to kill; values only go down. */
static bool simplify_action(struct ward_action *a, uint32_t v)
{
	if (a->kind == WARD_ACT_ALLOW || (v == 1 && a->kind == WARD_ACT_KILL))
		return false;
	*a =
	    (struct ward_action){v == 0 ? WARD_ACT_ALLOW : WARD_ACT_KILL, 0, 0};
	return true;
}

#define NSIMPLE 7

/* Apply candidate step k to r: *applied says whether it changed r. False
 * when k is past the last step. */
static bool step(struct ward_rules *r, uint32_t k, bool *applied)
{
	*applied = false;
	if (k < r->nsyscalls) {
		*applied = remove_syscall(r, k);
		return true;
	}
	k -= r->nsyscalls;
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		struct ward_syscall_rule *sc = &MUT_SC(r)[i];
		if (k < sc->nconds) {
			*applied = remove_cond(sc, k);
			return true;
		}
		k -= sc->nconds;
		if (k == 0) {
			*applied = sc->has_fallback;
			sc->has_fallback = false;
			return true;
		}
		k--;
		if (k < 2) {
			*applied = sc->has_fallback &&
				   simplify_action(&sc->fallback, k);
			return true;
		}
		k -= 2;
		for (uint32_t j = 0; j < sc->nconds; j++) {
			struct ward_cond_rule *c = &MUT_CONDS(sc)[j];
			if (k < 2) {
				*applied = simplify_action(&c->action, k);
				return true;
			}
			k -= 2;
			if (k < c->ncmps) {
				*applied = remove_cmp(c, k);
				return true;
			}
			k -= c->ncmps;
			if (k < c->ncmps * NSIMPLE) {
				*applied = simplify_cmp(
				    &MUT_CMPS(c)[k / NSIMPLE], k % NSIMPLE);
				return true;
			}
			k -= c->ncmps * NSIMPLE;
		}
	}
	if (k < 2) {
		*applied = simplify_action(&r->default_action, k);
		return true;
	}
	return false;
}

int rr_shrink(struct ward_rules *r,
	      bool (*fails)(const struct ward_rules *r, void *ctx), void *ctx)
{
	bool progress = true;
	while (progress) {
		progress = false;
		for (uint32_t k = 0;; k++) {
			struct ward_rules t;
			bool applied;
			if (rr_clone(r, &t) < 0)
				return -1;
			bool more = step(&t, k, &applied);
			if (more && applied && fails(&t, ctx)) {
				rr_free(r);
				*r = t;
				progress = true;
				break;
			}
			rr_free(&t);
			if (!more)
				break;
		}
	}
	return 0;
}
