/* SPDX-License-Identifier: MIT */
/*
 * lint_suppress.c: suppression comments.
 *
 *     # lint: allow W104 -- the cc profile compiles and runs code in /work
 *     tmpfs /work size 200M exec;
 *
 * A comment whose text starts with `lint:` is a directive: `allow`, one or
 * more rule ids separated by commas, `--` and the reason. It applies to the
 * statement it trails (on the statement's line; any line of a statement
 * that is not a section) or to the statement right below the block of
 * comment lines it belongs to. A finding is suppressed by a directive that
 * names its rule and applies to the innermost statement holding the
 * finding's location. A directive without a reason suppresses nothing and
 * is reported (W901); one that suppresses nothing is reported in the file
 * given to lint (W902: in a used file it may serve another policy); one
 * that cannot be read is reported (W903).
 */
#include "lint_internal.h"

#include "source.h"

#include <string.h>

#define MAX_IDS 16

struct directive {
	const struct ward_file *file;
	const struct ward_comment *cm;
	const struct lint_rule *rules[MAX_IDS];
	struct ward_loc id_locs[MAX_IDS];
	bool used[MAX_IDS];
	size_t nrules;
	const char *reason; /* NULL: none written */
	bool bad;	    /* reported as W903: applies to nothing */
};

bool lint_is_section(enum ward_stmt_kind kind)
{
	switch (kind) {
	case WARD_S_IDENTITY:
	case WARD_S_ENV:
	case WARD_S_FS:
	case WARD_S_NET:
	case WARD_S_LIMITS:
	case WARD_S_SYSCALLS:
	case WARD_S_EXPORT:
		return true;
	default:
		return false;
	}
}

/* ---------------------------------------------------------- statements */

static bool before(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2)
{
	return l1 < l2 || (l1 == l2 && c1 <= c2);
}

static bool holds(struct ward_loc span, struct ward_loc at)
{
	return before(span.line, span.col, at.line, at.col) &&
	       before(at.line, at.col, span.end_line, span.end_col);
}

static const struct ward_stmt *innermost_in(struct ward_stmt *const *stmts,
					    size_t n, struct ward_loc at)
{
	for (size_t i = 0; i < n; i++) {
		const struct ward_stmt *st = stmts[i];
		const struct ward_stmt *in;

		if (!st || !holds(st->loc, at))
			continue;
		in = innermost_in(st->body, st->nbody, at);
		return in ? in : st;
	}
	return NULL;
}

static const struct ward_file *file_of(const struct ward_unit *unit,
				       uint32_t file)
{
	for (size_t i = 0; i < unit->nfiles; i++)
		if (unit->files[i]->file == file)
			return unit->files[i];
	return NULL;
}

const struct ward_stmt *lint_innermost(const struct ward_unit *unit,
				       struct ward_loc loc)
{
	const struct ward_file *f = file_of(unit, loc.file);
	return f ? innermost_in(f->stmts, f->nstmts, loc) : NULL;
}

/* ---------------------------------------------------------- parsing */

static struct ward_loc sub_loc(const struct ward_comment *cm, size_t from,
			       size_t len)
{
	struct ward_loc l = cm->loc;
	l.col = cm->loc.col + (uint32_t)from;
	l.end_line = l.line;
	l.end_col = l.col + (uint32_t)(len ? len - 1 : 0);
	return l;
}

static void bad(struct lint_ctx *c, struct directive *d, struct ward_loc at,
		const char *subject, const char *msg, const char *help)
{
	struct lint_finding *f =
	    lint_add(c, lint_rule_find(LINT_ID_BAD), at, subject, "%s", msg);
	if (help)
		f->help = help;
	d->bad = true;
}

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* Returns false when the comment is not a directive at all. */
static bool parse_directive(struct lint_ctx *c, struct directive *d)
{
	const char *t = d->cm->text;
	size_t i = 1; /* past '#' */
	size_t kw;
	size_t ntokens = 0;

	while (is_space(t[i]))
		i++;
	if (strncmp(t + i, "lint", 4) != 0)
		return false;
	kw = i;
	i += 4;
	if (t[i] != ':') {
		/* "# lint allow W104": a directive missing its colon */
		size_t k = i;
		while (is_space(t[k]))
			k++;
		if (k == i || strncmp(t + k, "allow", 5) != 0)
			return false;
		bad(c, d, sub_loc(d->cm, kw, 4), "colon",
		    "this lint comment lacks the colon after `lint`",
		    "write `# lint: allow WNNN -- reason`");
		return true;
	}
	i++;
	while (is_space(t[i]))
		i++;
	if (strncmp(t + i, "allow", 5) != 0 ||
	    !(is_space(t[i + 5]) || t[i + 5] == 0)) {
		bad(c, d, d->cm->loc, "allow",
		    "a lint comment must say `allow` after `lint:`",
		    "write `# lint: allow WNNN -- reason`");
		return true;
	}
	i += 5;
	for (;;) {
		size_t from;
		size_t len;
		char tok[64];
		bool shaped;
		struct ward_loc at;
		const char *subject;
		const struct lint_rule *r;

		while (is_space(t[i]) || t[i] == ',')
			i++;
		if (t[i] == 0 || (t[i] == '-' && t[i + 1] == '-'))
			break;
		from = i;
		while (t[i] && !is_space(t[i]) && t[i] != ',')
			i++;
		len = i - from;
		ntokens++;
		snprintf(tok, sizeof(tok), "%.*s", (int)len, t + from);
		shaped = len == 4 && tok[0] == 'W' && tok[1] >= '0' &&
			 tok[1] <= '9' && tok[2] >= '0' && tok[2] <= '9' &&
			 tok[3] >= '0' && tok[3] <= '9';
		at = sub_loc(d->cm, from, len);
		subject = ward_pool_strdup(c->pool, tok);
		if (!shaped) {
			bad(c, d, at, subject,
			    ward_pool_printf(
				c->pool,
				"`%s` is not a rule id: the reason "
				"goes after `--`",
				tok),
			    "write `# lint: allow WNNN -- reason`");
			return true;
		}
		r = lint_rule_find(tok);
		if (!r) {
			bad(c, d, at, subject,
			    ward_pool_printf(c->pool, "no lint rule is `%s`",
					     tok),
			    "`wardc lint --list-rules` lists them");
			continue;
		}
		if (!r->run) {
			bad(c, d, at, subject,
			    ward_pool_printf(
				c->pool,
				"`%s` is about suppression "
				"comments and cannot be suppressed",
				tok),
			    "fix the comment it points at instead");
			continue;
		}
		if (d->nrules < MAX_IDS) {
			d->id_locs[d->nrules] = at;
			d->rules[d->nrules++] = r;
		}
	}
	if (ntokens == 0) {
		bad(c, d, d->cm->loc, "empty",
		    "this lint comment names no rule",
		    "write `# lint: allow WNNN -- reason`");
		return true;
	}
	if (t[i] == '-') {
		size_t end;

		i += 2;
		while (is_space(t[i]))
			i++;
		end = strlen(t);
		while (end > i && is_space(t[end - 1]))
			end--;
		if (end > i)
			d->reason = ward_pool_printf(c->pool, "%.*s",
						     (int)(end - i), t + i);
	}
	return true;
}

/* ---------------------------------------------------------- matching */

static bool own_line_comment(const struct ward_file *f, uint32_t line)
{
	for (size_t i = 0; i < f->ncomments; i++)
		if (f->comments[i].loc.line == line && !f->comments[i].trailing)
			return true;
	return false;
}

/* Does directive d stand by the statement st (or, without one, by the
 * line of at)? */
static bool applies(const struct directive *d, const struct ward_stmt *st,
		    struct ward_loc at)
{
	uint32_t first = st ? st->loc.line : at.line;
	uint32_t last = st ? st->loc.end_line : at.line;
	uint32_t line = d->cm->loc.line;
	if (d->cm->trailing)
		return line == first || (!(st && lint_is_section(st->kind)) &&
					 line >= first && line <= last);
	if (line >= first)
		return false;
	for (uint32_t l = line + 1; l < first; l++)
		if (!own_line_comment(d->file, l))
			return false;
	return true;
}

static void match(struct lint_ctx *c, struct directive *ds, size_t nds,
		  struct lint_finding *f)
{
	const struct ward_stmt *st;

	if (!lint_has_place(f->loc) || !f->rule->run)
		return;
	st = lint_innermost(c->unit, f->loc);
	for (size_t i = 0; i < nds; i++) {
		struct directive *d = &ds[i];
		if (d->bad || !d->reason || d->file->file != f->loc.file ||
		    !applies(d, st, f->loc))
			continue;
		for (size_t k = 0; k < d->nrules; k++) {
			if (d->rules[k] != f->rule)
				continue;
			d->used[k] = true;
			f->suppressed = true;
			f->justification = d->reason;
			f->suppressed_at = d->cm->loc;
			return;
		}
	}
}

void lint_apply_suppressions(struct lint_ctx *c)
{
	struct ward_vec ds = {0};
	struct directive *dirs;
	struct lint_finding **fs;
	size_t n;
	const struct lint_rule *no_reason;
	const struct lint_rule *unused;

	for (size_t i = 0; i < c->unit->nfiles; i++) {
		const struct ward_file *f = c->unit->files[i];
		for (size_t k = 0; k < f->ncomments; k++) {
			struct directive *d =
			    ward_vec_push(c->pool, &ds, sizeof(*d));
			memset(d, 0, sizeof(*d));
			d->file = f;
			d->cm = &f->comments[k];
			if (!parse_directive(c, d))
				ds.n--;
		}
	}
	dirs = ds.items;
	/* the rules' findings only: the W9xx ones added above stay */
	fs = c->findings.items;
	n = c->findings.n;
	for (size_t i = 0; i < n; i++)
		match(c, dirs, ds.n, fs[i]);

	no_reason = lint_rule_find(LINT_ID_NO_REASON);
	unused = lint_rule_find(LINT_ID_UNUSED);
	for (size_t i = 0; i < ds.n; i++) {
		if (dirs[i].bad || dirs[i].nrules == 0)
			continue;
		if (!dirs[i].reason) {
			lint_add(
			    c, no_reason, dirs[i].cm->loc, dirs[i].rules[0]->id,
			    "this suppression of %s gives no reason, so it "
			    "suppresses nothing",
			    dirs[i].rules[0]->id);
			continue;
		}
		if (dirs[i].file != c->unit->main)
			continue;
		for (size_t k = 0; k < dirs[i].nrules; k++)
			if (!dirs[i].used[k])
				lint_add(c, unused, dirs[i].id_locs[k],
					 dirs[i].rules[k]->id,
					 "nothing here triggers %s: this "
					 "suppression is unused",
					 dirs[i].rules[k]->id);
	}
}
