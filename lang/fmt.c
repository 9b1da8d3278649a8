/* SPDX-License-Identifier: MIT */
/*
 * fmt.c: the canonical layout of a policy file.
 *
 * The tree is printed back in the order it was written. Literals keep their
 * spelling (text), conditions their parentheses, so the output parses to the
 * same tree. Comments are woven back in by position: a comment on its own
 * line is printed before the statement that follows it, a comment after
 * code on the same line after that code. A comment inside a statement that
 * is printed on one line (a condition written over several lines) moves
 * above the statement. Group members are filled up to 80 columns, or keep
 * the author's lines when comments sit among them.
 */
#include "fmt.h"

#include <errno.h>
#include <string.h>

#define INDENT 4
#define WIDTH  80

struct fmt {
	const struct ward_file *f;
	FILE *out;
	size_t next;	    /* the next comment to print */
	uint32_t last_line; /* source line of what was printed last */
	bool fresh;	    /* nothing printed yet at this level */
	size_t col;	    /* output column, for the group fill */
};

static void put(struct fmt *m, const char *s)
{
	const char *nl;

	fputs(s, m->out);
	nl = strrchr(s, '\n');
	m->col = nl ? strlen(nl + 1) : m->col + strlen(s);
}

static void indent(struct fmt *m, int depth)
{
	for (int i = 0; i < depth * INDENT; i++)
		fputc(' ', m->out);
	m->col = (size_t)(depth * INDENT);
}

static void newline(struct fmt *m)
{
	fputc('\n', m->out);
	m->col = 0;
}

/* ---------------------------------------------------------- comments */

static bool before(struct ward_loc a, uint32_t line, uint32_t col)
{
	return a.line < line || (a.line == line && a.col < col);
}

static const struct ward_comment *peek(const struct fmt *m)
{
	return m->next < m->f->ncomments ? &m->f->comments[m->next] : NULL;
}

/* One blank line where the author left at least one, except first thing
 * in a file or a block. */
static void blank_before(struct fmt *m, uint32_t line)
{
	if (!m->fresh && m->last_line && line > m->last_line + 1)
		newline(m);
	m->fresh = false;
}

static void own_line(struct fmt *m, const struct ward_comment *c, int depth)
{
	indent(m, depth);
	put(m, c->text);
	newline(m);
	m->last_line = c->loc.end_line;
	m->next++;
}

/* The comments on their own lines before (line, col), at depth. */
static void comments_before(struct fmt *m, uint32_t line, uint32_t col,
			    int depth)
{
	const struct ward_comment *c;
	while ((c = peek(m)) && before(c->loc, line, col)) {
		blank_before(m, c->loc.line);
		own_line(m, c, depth);
	}
}

/* A comment after code that ends at `end` and before the code that follows
 * it on that line (`next`, if on the same line): printed after what was
 * just written. */
static void trailing(struct fmt *m, struct ward_loc end,
		     const struct ward_loc *next)
{
	const struct ward_comment *c = peek(m);
	if (!c || !c->trailing || c->loc.line != end.end_line ||
	    c->loc.col <= end.end_col)
		return;
	if (next && next->line == c->loc.line && next->col < c->loc.col)
		return;
	put(m, " ");
	put(m, c->text);
	m->next++;
}

/* Before a statement printed on one line: the comments written before it,
 * and those inside it, which have no place in one line. */
static void comments_for(struct fmt *m, const struct ward_stmt *s, int depth)
{
	const struct ward_comment *c;

	comments_before(m, s->loc.line, s->loc.col, depth);
	while ((c = peek(m)) && c->loc.line < s->loc.end_line) {
		blank_before(m, c->loc.line);
		own_line(m, c, depth);
	}
	blank_before(m, s->loc.line);
}

/* ------------------------------------------------------------ values */

/* A literal as written; a string written over several lines goes on over
 * continuation lines, one level deeper. */
static void value(struct fmt *m, const struct ward_value *v, int depth)
{
	const char *t = v->text;
	for (const char *nl; (nl = strchr(t, '\n')); t = nl + 1) {
		fwrite(t, 1, (size_t)(nl - t), m->out);
		newline(m);
		indent(m, depth + 1);
	}
	put(m, t);
}

static void names(struct fmt *m, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			put(m, ", ");
		put(m, v[i]);
	}
}

static const char *const relops[] = {"==", "!=", "<", "<=", ">", ">="};

static void cond(struct fmt *m, const struct ward_cond *c, int depth)
{
	if (c->parenthesised)
		put(m, "(");
	switch (c->kind) {
	case WARD_C_CMP:
		if (c->mask_parenthesised)
			put(m, "(");
		put(m, c->arg);
		if (c->mask) {
			put(m, " & ");
			value(m, c->mask, depth);
		}
		if (c->mask_parenthesised)
			put(m, ")");
		put(m, " ");
		put(m, relops[c->op]);
		put(m, " ");
		value(m, c->value, depth);
		break;
	case WARD_C_AND:
	case WARD_C_OR:
		cond(m, c->lhs, depth);
		put(m, c->kind == WARD_C_AND ? " && " : " || ");
		cond(m, c->rhs, depth);
		break;
	}
	if (c->parenthesised)
		put(m, ")");
}

static void action(struct fmt *m, const struct ward_action_ast *a, int depth)
{
	static const char *const words[] = {"allow", "log", "errno", "trap",
					    "kill"};
	put(m, words[a->word]);
	if (a->word == WARD_A_ERRNO) {
		put(m, " ");
		value(m, a->errno_value, depth);
	}
	if (a->logged)
		put(m, " log");
}

static void target(struct fmt *m, const struct ward_target *t)
{
	put(m, t->name);
	if (t->has_parens) {
		put(m, "(");
		names(m, t->params, t->nparams);
		put(m, ")");
	}
}

static void opts(struct fmt *m, unsigned o)
{
	static const struct {
		unsigned bit;
		const char *word;
	} all[] = {{WARD_OPT_RO, "ro"},
		   {WARD_OPT_RW, "rw"},
		   {WARD_OPT_EXEC, "exec"},
		   {WARD_OPT_NOEXEC, "noexec"},
		   {WARD_OPT_OPTIONAL, "optional"}};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (o & all[i].bit) {
			put(m, " ");
			put(m, all[i].word);
		}
}

static void mode(struct fmt *m, const struct ward_value *v, int depth)
{
	if (v) {
		put(m, " mode ");
		value(m, v, depth);
	}
}

/* -------------------------------------------------------- statements */

/* The text of a statement that fits on one line, without its `;`. */
static void line_body(struct fmt *m, const struct ward_stmt *s, int depth)
{
	switch (s->kind) {
	case WARD_S_VERSION:
		put(m, "ward ");
		value(m, s->value, depth);
		break;
	case WARD_S_POLICY:
		put(m, "policy ");
		put(m, s->name);
		break;
	case WARD_S_USE:
		put(m, "use ");
		put(m, s->name);
		break;
	case WARD_S_INCLUDE:
		put(m, "include ");
		value(m, s->value, depth);
		break;
	case WARD_S_CONST:
		put(m, "const ");
		put(m, s->name);
		put(m, " = ");
		value(m, s->value, depth);
		break;
	case WARD_S_NET_NONE:
		put(m, "net none");
		break;
	case WARD_S_ID_USER:
		put(m, "user ");
		value(m, s->value, depth);
		break;
	case WARD_S_ID_GROUP:
		put(m, "group ");
		value(m, s->value, depth);
		break;
	case WARD_S_ID_HOSTNAME:
		put(m, "hostname ");
		value(m, s->value, depth);
		break;
	case WARD_S_ID_WORKDIR:
		put(m, "workdir ");
		value(m, s->value, depth);
		break;
	case WARD_S_ID_GROUPS:
		put(m, "groups ");
		value(m, s->value, depth);
		break;
	case WARD_S_ID_CAPS:
		put(m, "capabilities ");
		if (s->caps_none)
			put(m, "none");
		else
			names(m, s->names, s->nnames);
		break;
	case WARD_S_ENV_SET:
		put(m, s->name);
		put(m, " = ");
		value(m, s->value, depth);
		break;
	case WARD_S_ENV_INHERIT:
		put(m, "inherit ");
		names(m, s->names, s->nnames);
		break;
	case WARD_S_FS_BIND:
		put(m, "bind ");
		value(m, s->src, depth);
		if (s->path != s->src) {
			put(m, " at ");
			value(m, s->path, depth);
		}
		opts(m, s->opts);
		break;
	case WARD_S_FS_TMPFS:
		put(m, "tmpfs ");
		value(m, s->path, depth);
		put(m, " size ");
		value(m, s->size, depth);
		mode(m, s->mode, depth);
		opts(m, s->opts);
		break;
	case WARD_S_FS_PROC:
	case WARD_S_FS_DEV:
		put(m, s->kind == WARD_S_FS_PROC ? "proc" : "dev");
		if (s->path) {
			put(m, " ");
			value(m, s->path, depth);
		}
		break;
	case WARD_S_FS_FILE:
		put(m, "file ");
		value(m, s->path, depth);
		put(m, " ");
		value(m, s->value, depth);
		mode(m, s->mode, depth);
		break;
	case WARD_S_FS_SYMLINK:
		put(m, "symlink ");
		value(m, s->path, depth);
		put(m, " -> ");
		value(m, s->src, depth);
		break;
	case WARD_S_FS_SLOT:
		put(m, "slot ");
		put(m, s->name);
		put(m, " at ");
		value(m, s->path, depth);
		opts(m, s->opts);
		if (s->size) {
			put(m, " size ");
			value(m, s->size, depth);
		}
		break;
	case WARD_S_FS_DIR:
		put(m, "dir ");
		value(m, s->path, depth);
		mode(m, s->mode, depth);
		break;
	case WARD_S_FS_MEMFD:
		put(m, "memfd");
		opts(m, s->opts);
		break;
	case WARD_S_FS_LANDLOCK:
		put(m, "landlock ");
		put(m, s->name);
		break;
	case WARD_S_NET_HOST:
		put(m, "host ");
		put(m, s->name);
		put(m, " = ");
		for (size_t i = 0; i < s->nvalues; i++) {
			if (i)
				put(m, ", ");
			value(m, s->values[i], depth);
		}
		break;
	case WARD_S_NET_ANSWERS:
		put(m, "allow answers ");
		for (size_t i = 0; i < s->nvalues; i++) {
			if (i)
				put(m, ", ");
			value(m, s->values[i], depth);
		}
		break;
	case WARD_S_NET_ALLOW:
		put(m, "allow ");
		put(m, s->proto);
		put(m, s->by_name ? " name " : " ");
		value(m, s->dest, depth);
		put(m, " port ");
		for (size_t i = 0; i < s->nports; i++) {
			if (i)
				put(m, ", ");
			value(m, s->ports[i].lo, depth);
			if (s->ports[i].hi) {
				put(m, "-");
				value(m, s->ports[i].hi, depth);
			}
		}
		break;
	case WARD_S_LIMIT:
		put(m, s->name);
		put(m, " ");
		value(m, s->value, depth);
		break;
	case WARD_S_EXPORT_ITEM:
		put(m, s->name);
		put(m, " ");
		for (size_t i = 0; i < s->nvalues; i++) {
			if (i)
				put(m, ", ");
			value(m, s->values[i], depth);
		}
		break;
	case WARD_S_RULE:
		action(m, s->action, depth);
		put(m, " ");
		for (size_t i = 0; i < s->ntargets; i++) {
			if (i)
				put(m, ", ");
			target(m, s->targets[i]);
		}
		if (s->cond) {
			put(m, " if ");
			cond(m, s->cond, depth);
		}
		break;
	default: /* sections and groups are printed by block() */
		break;
	}
}

static void stmt(struct fmt *m, const struct ward_stmt *s, int depth,
		 const struct ward_loc *next);

static bool is_block(const struct ward_stmt *s)
{
	switch (s->kind) {
	case WARD_S_IDENTITY:
	case WARD_S_ENV:
	case WARD_S_FS:
	case WARD_S_NET:
	case WARD_S_LIMITS:
	case WARD_S_SYSCALLS:
	case WARD_S_EXPORT:
	case WARD_S_GROUP:
		return true;
	default:
		return false;
	}
}

static const char *block_word(const struct ward_stmt *s)
{
	switch (s->kind) {
	case WARD_S_IDENTITY:
		return "identity";
	case WARD_S_ENV:
		return "env";
	case WARD_S_FS:
		return "fs";
	case WARD_S_NET:
		return "net";
	case WARD_S_LIMITS:
		return "limits";
	case WARD_S_SYSCALLS:
		return "syscalls";
	case WARD_S_EXPORT:
		return "export";
	default:
		return "group";
	}
}

/* Is there a comment between (line, col) and the end of s? */
static bool comment_inside(const struct fmt *m, const struct ward_stmt *s)
{
	const struct ward_comment *c = peek(m);
	return c && before(c->loc, s->loc.end_line, s->loc.end_col);
}

/* Group members in the author's lines, with the comments among them. */
static void members_as_written(struct fmt *m, const struct ward_stmt *s,
			       int depth)
{
	struct ward_loc line = {0};
	for (size_t i = 0; i < s->ntargets; i++) {
		const struct ward_target *t = s->targets[i];
		if (i == 0 || t->loc.line != line.end_line) {
			if (i) {
				put(m, ",");
				trailing(m, line, &t->loc);
				newline(m);
			}
			comments_before(m, t->loc.line, t->loc.col, depth + 1);
			indent(m, depth + 1);
		} else
			put(m, ", ");
		target(m, t);
		line = t->loc;
		m->last_line = t->loc.end_line;
		m->fresh = false;
	}
	if (s->ntargets) {
		struct ward_loc close = s->loc;
		close.line = close.end_line;
		close.col = close.end_col;
		trailing(m, line, &close);
		newline(m);
	}
}

/* Group members filled up to WIDTH columns. */
static void members_filled(struct fmt *m, const struct ward_stmt *s, int depth)
{
	indent(m, depth + 1);
	for (size_t i = 0; i < s->ntargets; i++) {
		const struct ward_target *t = s->targets[i];
		size_t len = strlen(t->name) + (i + 1 < s->ntargets ? 1 : 0);
		if (i && m->col + 1 + len > WIDTH) {
			newline(m);
			indent(m, depth + 1);
		} else if (i)
			put(m, " ");
		target(m, t);
		if (i + 1 < s->ntargets)
			put(m, ",");
	}
	newline(m);
}

/* A group on one line, if it fits. */
static bool group_on_one_line(struct fmt *m, const struct ward_stmt *s,
			      int depth)
{
	size_t len = (size_t)(depth * INDENT) + strlen("group  {  }") +
		     strlen(s->name) +
		     (s->opts & WARD_OPT_LOG ? strlen(" log") : 0);
	for (size_t i = 0; i < s->ntargets; i++) {
		const struct ward_target *t = s->targets[i];
		len += strlen(t->name) + (i ? 2 : 0);
		if (t->has_parens)
			return false;
	}
	if (len > WIDTH || s->ntargets == 0)
		return false;
	put(m, "group ");
	put(m, s->name);
	if (s->opts & WARD_OPT_LOG)
		put(m, " log");
	put(m, " { ");
	for (size_t i = 0; i < s->ntargets; i++) {
		if (i)
			put(m, ", ");
		target(m, s->targets[i]);
	}
	put(m, " }");
	return true;
}

/* The position of a block's closing `}`. */
static struct ward_loc close_of(const struct ward_stmt *s)
{
	struct ward_loc c = s->loc;
	c.line = c.end_line;
	c.col = c.end_col;
	return c;
}

static void block(struct fmt *m, const struct ward_stmt *s, int depth,
		  const struct ward_loc *next)
{
	bool inside = comment_inside(m, s);
	bool empty;
	struct ward_loc head, first;

	if (s->kind == WARD_S_GROUP && !inside &&
	    group_on_one_line(m, s, depth)) {
		trailing(m, s->loc, next);
		newline(m);
		m->last_line = s->loc.end_line;
		return;
	}
	put(m, block_word(s));
	if (s->kind == WARD_S_GROUP || s->kind == WARD_S_EXPORT) {
		put(m, " ");
		put(m, s->name);
	}
	if (s->kind == WARD_S_GROUP && (s->opts & WARD_OPT_LOG))
		put(m, " log");
	if (s->kind == WARD_S_SYSCALLS && s->action) {
		put(m, " default ");
		action(m, s->action, depth);
	}
	empty = s->kind == WARD_S_GROUP ? s->ntargets == 0 : s->nbody == 0;
	if (empty && !inside) {
		put(m, " { }");
		trailing(m, s->loc, next);
		newline(m);
		m->last_line = s->loc.end_line;
		return;
	}
	put(m, " {");
	/* a comment after the `{`, before the first item */
	head = s->kw_loc;
	first = close_of(s);
	if (s->kind == WARD_S_GROUP && s->ntargets)
		first = s->targets[0]->loc;
	else if (s->kind != WARD_S_GROUP && s->nbody)
		first = s->body[0]->loc;
	head.end_line = s->loc.line;
	trailing(m, head, &first);
	newline(m);
	m->last_line = s->loc.line;
	m->fresh = true;
	if (s->kind == WARD_S_GROUP) {
		if (inside)
			members_as_written(m, s, depth);
		else
			members_filled(m, s, depth);
	} else {
		struct ward_loc close = close_of(s);
		for (size_t i = 0; i < s->nbody; i++)
			stmt(m, s->body[i], depth + 1,
			     i + 1 < s->nbody ? &s->body[i + 1]->loc : &close);
	}
	/* what is left before the `}` */
	comments_before(m, s->loc.end_line, s->loc.end_col, depth + 1);
	indent(m, depth);
	put(m, "}");
	trailing(m, s->loc, next);
	newline(m);
	m->last_line = s->loc.end_line;
	m->fresh = false;
}

static void stmt(struct fmt *m, const struct ward_stmt *s, int depth,
		 const struct ward_loc *next)
{
	if (is_block(s)) {
		comments_before(m, s->loc.line, s->loc.col, depth);
		blank_before(m, s->loc.line);
		indent(m, depth);
		block(m, s, depth, next);
		return;
	}
	comments_for(m, s, depth);
	indent(m, depth);
	line_body(m, s, depth);
	put(m, ";");
	trailing(m, s->loc, next);
	newline(m);
	m->last_line = s->loc.end_line;
}

int ward_fmt(const struct ward_file *f, const struct ward_sources *src,
	     FILE *out)
{
	struct fmt m;

	(void)src;
	m = (struct fmt){.f = f, .out = out, .fresh = true};
	for (size_t i = 0; i < f->nstmts; i++)
		stmt(&m, f->stmts[i], 0,
		     i + 1 < f->nstmts ? &f->stmts[i + 1]->loc : NULL);
	/* comments after the last statement */
	comments_before(&m, UINT32_MAX, UINT32_MAX, 0);
	if (fflush(out) != 0 || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
