/* SPDX-License-Identifier: MIT */
/*
 * lint.c: the engine of `wardc lint`. It runs the rules of the catalogue
 * (lint_rules.c) on a checked policy, applies the suppression comments
 * (lint_suppress.c), gives every finding a fingerprint that survives edits
 * elsewhere in the file, orders the findings and computes the exposure
 * score.
 */
#include "lint_internal.h"

#include "sha256.h"
#include "source.h"
#include "syscalls.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------ helpers for the rules */

struct lint_finding *lint_add(struct lint_ctx *c, const struct lint_rule *r,
			      struct ward_loc loc, const char *subject,
			      const char *fmt, ...)
{
	va_list ap;
	int n;
	char *msg;
	struct lint_finding *f;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = ward_pool_alloc(c->pool, (size_t)(n > 0 ? n : 0) + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
	va_end(ap);

	f = ward_pool_alloc(c->pool, sizeof(*f));
	f->rule = r;
	f->loc = loc;
	f->message = msg;
	f->subject = subject ? subject : "";
	f->suppressed_at.file = WARD_NO_FILE;
	*(struct lint_finding **)ward_vec_push(c->pool, &c->findings,
					       sizeof(f)) = f;
	return f;
}

struct ward_loc lint_missing_loc(const struct lint_ctx *c,
				 enum ward_stmt_kind section)
{
	const struct ward_file *m = c->unit->main;
	for (size_t i = 0; m && i < m->nstmts; i++)
		if (m->stmts[i]->kind == section)
			return m->stmts[i]->kw_loc;
	return c->w->policy;
}

struct ward_loc lint_mount_loc(const struct lint_ctx *c, uint32_t i)
{
	return c->w->mounts ? c->w->mounts[i]
			    : (struct ward_loc){.file = WARD_NO_FILE};
}

static void each_in(struct lint_ctx *c, const struct lint_rule *r,
		    enum ward_stmt_kind kind, struct ward_stmt *const *stmts,
		    size_t n,
		    void (*fn)(struct lint_ctx *, const struct lint_rule *,
			       const struct ward_stmt *))
{
	for (size_t i = 0; i < n; i++) {
		if (!stmts[i])
			continue;
		if (stmts[i]->kind == kind)
			fn(c, r, stmts[i]);
		each_in(c, r, kind, stmts[i]->body, stmts[i]->nbody, fn);
	}
}

void lint_each_stmt(struct lint_ctx *c, const struct lint_rule *r,
		    enum ward_stmt_kind kind,
		    void (*fn)(struct lint_ctx *c, const struct lint_rule *r,
			       const struct ward_stmt *st))
{
	for (size_t i = 0; i < c->unit->nfiles; i++)
		each_in(c, r, kind, c->unit->files[i]->stmts,
			c->unit->files[i]->nstmts, fn);
}

const char *lint_name_list(struct ward_pool *pool, const char *const *names,
			   size_t n)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 8;
	s = ward_pool_alloc(pool, len);
	p = s;
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			p = stpcpy(p, i + 1 == n ? " and " : ", ");
		p += sprintf(p, "`%s`", names[i]);
	}
	*p = 0;
	return s;
}

/* ------------------------------------------------------------- paths */

const char *lint_display_path(struct ward_pool *pool, const char *name)
{
	size_t n;
	char real[PATH_MAX], cwd[PATH_MAX];

	if (!name)
		return "";
	if (!realpath(name, real) || !getcwd(cwd, sizeof(cwd))) {
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		return ward_pool_strdup(pool, name);
	}
	n = strlen(cwd);
	if (strcmp(cwd, "/") == 0)
		return ward_pool_strdup(pool, real + 1);
	if (strncmp(real, cwd, n) == 0 && real[n] == '/')
		return ward_pool_strdup(pool, real + n + 1);
	return ward_pool_strdup(pool, real);
}

/* ------------------------------------------------------- fingerprints */

/* The text of loc's span with comments dropped and blanks folded, so that
 * the fingerprint survives reformatting and edited comments. */
static void span_text(const struct ward_sources *src, struct ward_loc loc,
		      struct ward_sha256 *h)
{
	bool blank = false, any = false;
	for (uint32_t ln = loc.line; ln <= loc.end_line; ln++) {
		size_t len;
		const char *s = ward_sources_line(src, loc.file, ln, &len);
		size_t from;
		size_t to;
		bool in_str = false;

		if (!s)
			break;
		from = ln == loc.line && loc.col ? loc.col - 1 : 0;
		to =
		    ln == loc.end_line && loc.end_col < len ? loc.end_col : len;
		for (size_t i = from; i < to; i++) {
			char ch = s[i];
			if (!in_str && ch == '#')
				break;
			if (in_str && ch == '\\' && i + 1 < to) {
				ward_sha256_update(h, s + i, 2);
				i++;
				continue;
			}
			if (ch == '"')
				in_str = !in_str;
			if (!in_str && (ch == ' ' || ch == '\t')) {
				blank = true;
				continue;
			}
			if (blank && any)
				ward_sha256_update(h, " ", 1);
			blank = false;
			any = true;
			ward_sha256_update(h, &ch, 1);
		}
		blank = true;
	}
}

static void fingerprint(struct lint_ctx *c, struct lint_finding *f)
{
	struct ward_sha256 h;
	uint8_t d[WARD_SHA256_LEN];
	char *hex;

	ward_sha256_init(&h);
	ward_sha256_update(&h, f->rule->id, strlen(f->rule->id) + 1);
	if (lint_has_place(f->loc)) {
		const char *path = lint_display_path(
		    c->pool, ward_sources_name(c->src, f->loc.file));
		const struct ward_stmt *st;
		struct ward_loc span;

		ward_sha256_update(&h, path, strlen(path) + 1);
		/* a comment's finding: the line holding the comment */
		st = f->rule->run ? lint_innermost(c->unit, f->loc) : NULL;
		span = st ? st->loc : f->loc;
		if (!f->rule->run) {
			span.col = 1;
			span.end_line = span.line;
			span.end_col = UINT32_MAX;
		}
		/* a section stands for its header only: its body changes
		 * with every edit of what it holds */
		if (st && lint_is_section(st->kind)) {
			span.end_line = span.line;
			span.end_col = UINT32_MAX;
		}
		span_text(c->src, span, &h);
	}
	ward_sha256_update(&h, "", 1);
	ward_sha256_update(&h, f->subject, strlen(f->subject));
	ward_sha256_final(&h, d);
	hex = ward_pool_alloc(c->pool, 2 * 16 + 1);
	ward_hex(d, 16, hex);
	f->fingerprint = hex;
}

/* -------------------------------------------------------------- order */

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_finding(const void *pa, const void *pb)
{
	const struct lint_finding *a = pa, *b = pb;
	int c;
	/* no place first, then by file in load order, line, column */
	if ((c = cmp_u32(a->loc.file + 1, b->loc.file + 1)))
		return c;
	if ((c = cmp_u32(a->loc.line, b->loc.line)))
		return c;
	if ((c = cmp_u32(a->loc.col, b->loc.col)))
		return c;
	if ((c = strcmp(a->rule->id, b->rule->id)))
		return c;
	return strcmp(a->message, b->message);
}

/* -------------------------------------------------------------- score */

unsigned lint_score_tenths(unsigned cost, unsigned total)
{
	if (total == 0)
		return 0;
	if (cost > total)
		cost = total;
	/* 100 * cost / total, rounded half up, in integers */
	return (unsigned)((200ull * cost + total) / (2ull * total));
}

const char *lint_level(unsigned tenths)
{
	if (tenths < 10)
		return "OK";
	if (tenths < 30)
		return "MEDIUM";
	if (tenths < 60)
		return "EXPOSED";
	return "UNSAFE";
}

/* The first rule of check (its place in the table names it). */
static bool first_of_check(size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (strcmp(lint_rules[k].check, lint_rules[i].check) == 0)
			return false;
	return true;
}

static int cmp_cost(const void *pa, const void *pb)
{
	const struct lint_cost *a = pa, *b = pb;
	if (a->weight != b->weight)
		return a->weight < b->weight ? 1 : -1;
	return strcmp(a->rule->id, b->rule->id);
}

bool lint_rule_applies(const struct lint_rule *r, uint32_t arch)
{
	if (!arch || !r->syscalls)
		return true;
	for (const char *const *n = r->syscalls; *n; n++)
		if (ward_sys_nr(arch, *n) >= 0)
			return true;
	return false;
}

void lint_score_compute(const struct lint_finding *f, size_t n, uint32_t arch,
			struct lint_score *out)
{
	struct lint_cost costs[64] = {{0}};
	size_t ncosts = 0;
	memset(out, 0, sizeof(*out));
	out->scored = true;
	for (size_t i = 0; i < lint_nrules; i++) {
		const char *check;
		unsigned most = 0;
		struct lint_cost fail;

		if (!first_of_check(i))
			continue;
		check = lint_rules[i].check;
		fail = (struct lint_cost){.check = check};
		for (size_t k = i; k < lint_nrules; k++) {
			const struct lint_rule *r = &lint_rules[k];
			bool failed = false, all_suppressed = true;

			if (strcmp(r->check, check) != 0 ||
			    !lint_rule_applies(r, arch))
				continue;
			if (r->weight > most)
				most = r->weight;
			for (size_t j = 0; j < n; j++) {
				if (f[j].rule != r)
					continue;
				failed = true;
				all_suppressed &= f[j].suppressed;
			}
			if (failed && r->weight > fail.weight) {
				fail.weight = r->weight;
				fail.rule = r;
				fail.suppressed = all_suppressed;
			}
		}
		out->total += most;
		if (fail.weight == 0)
			continue;
		out->cost += fail.weight;
		if (ncosts < sizeof(costs) / sizeof(costs[0]))
			costs[ncosts++] = fail;
	}
	qsort(costs, ncosts, sizeof(costs[0]), cmp_cost);
	out->ntop = ncosts < LINT_TOP_COSTS ? ncosts : LINT_TOP_COSTS;
	memcpy(out->top, costs, out->ntop * sizeof(costs[0]));
	out->tenths = lint_score_tenths(out->cost, LINT_SCORE_FULL);
	out->level = lint_level(out->tenths);
}

int lint_parse_threshold(const char *s, unsigned *tenths)
{
	unsigned whole = 0, frac = 0;
	size_t i = 0;
	if (!s || !(s[0] >= '0' && s[0] <= '9'))
		return -1;
	for (; s[i] >= '0' && s[i] <= '9'; i++) {
		whole = whole * 10 + (unsigned)(s[i] - '0');
		if (whole > 10)
			return -1;
	}
	if (s[i] == '.') {
		i++;
		if (!(s[i] >= '0' && s[i] <= '9'))
			return -1;
		frac = (unsigned)(s[i++] - '0');
		/* more decimals: only zeros (the score has one) */
		while (s[i] == '0')
			i++;
	}
	if (s[i] != 0 || whole * 10 + frac > 100)
		return -1;
	*tenths = whole * 10 + frac;
	return 0;
}

/* ------------------------------------------------------------ entry */

void lint_count(const struct lint_report *r, unsigned *errors,
		unsigned *warnings, unsigned *notes, unsigned *suppressed)
{
	unsigned e = 0, w = 0, n = 0, s = 0;
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct lint_finding *f = &r->findings[i];
		if (f->suppressed)
			s++;
		else if (f->rule->severity == WARD_SEV_ERROR)
			e++;
		else if (f->rule->severity == WARD_SEV_WARNING)
			w++;
		else
			n++;
	}
	if (errors)
		*errors = e;
	if (warnings)
		*warnings = w;
	if (notes)
		*notes = n;
	if (suppressed)
		*suppressed = s;
}

void ward_lint(const struct ward_session *s, const char *file,
	       struct lint_report *out)
{
	struct lint_ctx c;
	struct lint_finding **fp;

	memset(out, 0, sizeof(*out));
	out->pool = ward_pool_new();
	out->src = s->src;
	out->file = ward_pool_strdup(out->pool, file);
	c = (struct lint_ctx){
	    .pool = out->pool,
	    .unit = &s->unit,
	    .src = s->src,
	    .p = &s->checked.policy,
	    .w = &s->checked.where,
	    .is_policy = s->checked.is_policy,
	};
	if (c.is_policy && s->checked.policy.meta.policy_name)
		out->policy = ward_pool_strdup(
		    out->pool, s->checked.policy.meta.policy_name);

	for (size_t i = 0; i < lint_nrules; i++) {
		const struct lint_rule *r = &lint_rules[i];
		if (!r->run || (r->policy_only && !c.is_policy))
			continue;
		r->run(&c, r);
	}
	lint_apply_suppressions(&c);

	fp = c.findings.items;
	out->nfindings = c.findings.n;
	out->findings = ward_pool_array(out->pool, out->nfindings + 1,
					sizeof(*out->findings));
	for (size_t i = 0; i < out->nfindings; i++) {
		fingerprint(&c, fp[i]);
		out->findings[i] = *fp[i];
	}
	if (out->nfindings)
		qsort(out->findings, out->nfindings, sizeof(*out->findings),
		      cmp_finding);
	if (c.is_policy)
		lint_score_compute(out->findings, out->nfindings,
				   s->checked.policy.arch, &out->score);
}

void ward_lint_free(struct lint_report *r)
{
	ward_pool_free(r->pool);
	memset(r, 0, sizeof(*r));
}
