/* SPDX-License-Identifier: MIT */
/*
 * ast.c: building the tree while parsing, the checks the grammar cannot
 * express, and comparing two trees by meaning.
 */
#include "parse.h"

#include "load.h"

#include <string.h>

/* ------------------------------------------------------------ building */

struct ward_stmt *ward_new_stmt(struct ward_parser *p, enum ward_stmt_kind kind,
				struct ward_loc loc, struct ward_loc kw)
{
	struct ward_stmt *s = ward_arena_alloc(p->arena, sizeof(*s));
	if (s) {
		s->kind = kind;
		s->loc = loc;
		s->kw_loc = kw;
	}
	return s;
}

struct ward_value *ward_name_value(struct ward_parser *p, const char *name,
				   struct ward_loc loc)
{
	struct ward_value *v = ward_arena_alloc(p->arena, sizeof(*v));
	if (v) {
		v->kind = WARD_V_NAME;
		v->loc = loc;
		v->text = v->str = name;
		v->len = strlen(name);
		v->addr.prefix = -1;
	}
	return v;
}

bool ward_push_name(struct ward_parser *p, struct ward_list *v,
		    const char *name, struct ward_loc loc)
{
	struct ward_name_at *n = ward_arena_alloc(p->arena, sizeof(*n));
	if (!n)
		return false;
	n->name = name;
	n->loc = loc;
	return ward_list_push(p->arena, v, n) == 0;
}

bool ward_set_names(struct ward_parser *p, struct ward_list *v,
		    const char ***names, struct ward_loc **locs, size_t *n)
{
	const char **nv = ward_arena_alloc(p->arena, v->n * sizeof(*nv));
	struct ward_loc *lv = ward_arena_alloc(p->arena, v->n * sizeof(*lv));
	if (!nv || !lv)
		return false;
	for (size_t i = 0; i < v->n; i++) {
		const struct ward_name_at *at = v->items[i];
		nv[i] = at->name;
		lv[i] = at->loc;
	}
	*names = nv;
	*locs = lv;
	*n = v->n;
	return true;
}

bool ward_set_body(struct ward_parser *p, struct ward_stmt *s,
		   struct ward_list *v)
{
	(void)p;
	s->body = (struct ward_stmt **)v->items;
	s->nbody = v->n;
	return true;
}

bool ward_add_stmt(struct ward_parser *p, struct ward_stmt *s)
{
	if (!s) { /* a statement lost to a syntax error */
		p->seen_stmt = true;
		return true;
	}
	if (s->kind == WARD_S_VERSION && p->seen_stmt) {
		ward_parse_error(p, s->loc,
				 "the version pin must be the first statement "
				 "of the file");
	} else if (s->kind != WARD_S_VERSION && !p->seen_stmt) {
		ward_parse_error(p, s->kw_loc,
				 "a policy file must begin with `ward 1;`");
		ward_diag_help(p->diags,
			       "add `ward 1;` as the first line: it names the "
			       "version of the language the file is written "
			       "in");
	}
	p->seen_stmt = true;
	return ward_list_push(p->arena, &p->stmts, s) == 0;
}

struct ward_value *ward_or_value(struct ward_parser *p, struct ward_list *terms,
				 struct ward_loc loc)
{
	struct ward_value *v;
	size_t len = 0;
	char *text;
	char *at;

	if (terms->n == 1)
		return terms->items[0];
	v = ward_arena_alloc(p->arena, sizeof(*v));
	if (!v)
		return NULL;
	v->kind = WARD_V_OR;
	v->loc = loc;
	v->addr.prefix = -1;
	v->items = (struct ward_value **)terms->items;
	v->nitems = terms->n;
	/* the spelling: the terms' spellings joined by " | " */
	for (size_t i = 0; i < v->nitems; i++)
		len += strlen(v->items[i]->text) + 3;
	text = ward_arena_alloc(p->arena, len + 1);
	if (!text)
		return NULL;
	at = text;
	for (size_t i = 0; i < v->nitems; i++) {
		size_t n = strlen(v->items[i]->text);
		if (i) {
			memcpy(at, " | ", 3);
			at += 3;
		}
		memcpy(at, v->items[i]->text, n);
		at += n;
	}
	*at = '\0';
	v->text = text;
	return v;
}

struct ward_value *ward_concat_strings(struct ward_parser *p,
				       struct ward_list *parts,
				       struct ward_loc loc)
{
	struct ward_value *v;
	char *str;
	char *text;
	size_t len = 0, tlen = 0;
	char *s_at, *t_at;

	if (parts->n == 1)
		return parts->items[0];
	v = ward_arena_alloc(p->arena, sizeof(*v));
	if (!v)
		return NULL;
	v->kind = WARD_V_STRING;
	v->loc = loc;
	v->addr.prefix = -1;
	for (size_t i = 0; i < parts->n; i++) {
		const struct ward_value *s = parts->items[i];
		len += s->len;
		tlen += strlen(s->text) + 1;
	}
	str = ward_arena_alloc(p->arena, len + 1);
	text = ward_arena_alloc(p->arena, tlen);
	if (!str || !text)
		return NULL;
	/* The spelling keeps the parts, separated by a newline where the
	 * author broke the line and by a space otherwise: `wardc fmt` lays
	 * them out again from it. */
	s_at = str;
	t_at = text;
	for (size_t i = 0; i < parts->n; i++) {
		const struct ward_value *s = parts->items[i];
		size_t n;

		if (i) {
			const struct ward_value *prev = parts->items[i - 1];
			*t_at++ =
			    s->loc.line != prev->loc.end_line ? '\n' : ' ';
		}
		memcpy(s_at, s->str, s->len);
		s_at += s->len;
		n = strlen(s->text);
		memcpy(t_at, s->text, n);
		t_at += n;
	}
	*s_at = '\0';
	*t_at = '\0';
	v->str = str;
	v->len = len;
	v->text = text;
	return v;
}

struct ward_cond *ward_new_cond(struct ward_parser *p, enum ward_cond_kind kind,
				struct ward_loc loc)
{
	struct ward_cond *c = ward_arena_alloc(p->arena, sizeof(*c));
	if (c) {
		c->kind = kind;
		c->loc = loc;
	}
	return c;
}

struct ward_cond *ward_join_cond(struct ward_parser *p,
				 enum ward_cond_kind kind,
				 struct ward_cond *lhs, struct ward_cond *rhs,
				 struct ward_loc loc)
{
	struct ward_cond *c = ward_new_cond(p, kind, loc);
	if (c) {
		c->lhs = lhs;
		c->rhs = rhs;
	}
	return c;
}

/* ------------------------------------------------------------ checks */

void ward_check_version(struct ward_parser *p, struct ward_value *v)
{
	if (v->u == 1)
		return;
	ward_parse_error(p, v->loc,
			 "unsupported language version `%s`: this compiler "
			 "understands version 1 only",
			 v->text);
	ward_diag_help(p->diags, "write `ward 1;`");
}

static bool leading_zero(const char *text)
{
	return text[0] == '0' && text[1] >= '0' && text[1] <= '9';
}

void ward_check_decimal_int(struct ward_parser *p, struct ward_value *v)
{
	const char *digits;

	if (!leading_zero(v->text))
		return;
	digits = v->text;
	while (digits[0] == '0' && digits[1])
		digits++;
	ward_parse_error(p, v->loc,
			 "a decimal number may not begin with 0 (C would read "
			 "`%s` as octal)",
			 v->text);
	ward_diag_help(p->diags, "write `0o%s` for an octal number or `%s`",
		       digits, digits);
}

/* After `mode`, digits written without a base prefix are octal. */
void ward_read_mode(struct ward_parser *p, struct ward_value *v)
{
	const char *t = v->text;
	uint64_t u = 0;

	if (t[0] == '0' && t[1] && strchr("xXoObB", t[1]))
		return; /* an explicit base */
	for (; *t; t++) {
		if (*t == '_')
			continue;
		if (*t > '7') {
			ward_parse_error(p, v->loc,
					 "a mode is written in octal: `%c` is "
					 "not an octal digit",
					 *t);
			return;
		}
		if (u >> 61) {
			ward_parse_error(p, v->loc, "mode `%s` is too large",
					 v->text);
			return;
		}
		u = u * 8 + (uint64_t)(*t - '0');
	}
	v->u = u;
}

static const char *opt_name(unsigned opt)
{
	switch (opt) {
	case WARD_OPT_RO:
		return "ro";
	case WARD_OPT_RW:
		return "rw";
	case WARD_OPT_EXEC:
		return "exec";
	case WARD_OPT_NOEXEC:
		return "noexec";
	default:
		return "optional";
	}
}

unsigned ward_add_opt(struct ward_parser *p, unsigned opts, unsigned opt,
		      struct ward_loc loc)
{
	if (opts & opt)
		ward_parse_error(p, loc, "mount option `%s` is written twice",
				 opt_name(opt));
	return opts | opt;
}

/* ------------------------------------------------------------ freeing */

void ward_file_free(struct ward_file *f)
{
	if (f)
		ward_arena_free(f->arena); /* f itself lives in it */
}

/* ------------------------------------------------------------ equality */

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

static bool value_eq(const struct ward_value *a, const struct ward_value *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case WARD_V_INT:
	case WARD_V_SIZE:
	case WARD_V_DURATION:
	case WARD_V_DECIMAL:
		return a->u == b->u;
	case WARD_V_STRING:
		return a->len == b->len &&
		       (a->len == 0 || memcmp(a->str, b->str, a->len) == 0);
	case WARD_V_PATH:
	case WARD_V_NAME:
		return str_eq(a->str, b->str);
	case WARD_V_ADDR:
		return a->addr.family == b->addr.family &&
		       a->addr.prefix == b->addr.prefix &&
		       memcmp(a->addr.bytes, b->addr.bytes,
			      sizeof(a->addr.bytes)) == 0;
	case WARD_V_OR:
		if (a->nitems != b->nitems)
			return false;
		for (size_t i = 0; i < a->nitems; i++)
			if (!value_eq(a->items[i], b->items[i]))
				return false;
		return true;
	}
	return false;
}

static bool cond_eq(const struct ward_cond *a, const struct ward_cond *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind)
		return false;
	if (a->kind == WARD_C_CMP)
		return str_eq(a->arg, b->arg) && a->op == b->op &&
		       value_eq(a->mask, b->mask) &&
		       value_eq(a->value, b->value);
	return cond_eq(a->lhs, b->lhs) && cond_eq(a->rhs, b->rhs);
}

static bool names_eq(const char *const *a, size_t na, const char *const *b,
		     size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!str_eq(a[i], b[i]))
			return false;
	return true;
}

static bool target_eq(const struct ward_target *a, const struct ward_target *b)
{
	return str_eq(a->name, b->name) && a->is_group == b->is_group &&
	       a->has_parens == b->has_parens &&
	       names_eq(a->params, a->nparams, b->params, b->nparams);
}

static bool action_eq(const struct ward_action_ast *a,
		      const struct ward_action_ast *b)
{
	if (!a || !b)
		return a == b;
	return a->word == b->word && value_eq(a->errno_value, b->errno_value);
}

static bool stmts_eq(struct ward_stmt *const *a, size_t na,
		     struct ward_stmt *const *b, size_t nb);

static bool stmt_eq(const struct ward_stmt *a, const struct ward_stmt *b)
{
	if (a->kind != b->kind || !str_eq(a->name, b->name) ||
	    !value_eq(a->value, b->value) || !value_eq(a->src, b->src) ||
	    !value_eq(a->path, b->path) || !value_eq(a->size, b->size) ||
	    !value_eq(a->mode, b->mode) || a->opts != b->opts ||
	    a->caps_none != b->caps_none ||
	    !names_eq(a->names, a->nnames, b->names, b->nnames) ||
	    a->nvalues != b->nvalues || !str_eq(a->proto, b->proto) ||
	    !value_eq(a->dest, b->dest) || a->nports != b->nports ||
	    !action_eq(a->action, b->action) || a->ntargets != b->ntargets ||
	    !cond_eq(a->cond, b->cond))
		return false;
	for (size_t i = 0; i < a->nvalues; i++)
		if (!value_eq(a->values[i], b->values[i]))
			return false;
	for (size_t i = 0; i < a->nports; i++)
		if (!value_eq(a->ports[i].lo, b->ports[i].lo) ||
		    !value_eq(a->ports[i].hi, b->ports[i].hi))
			return false;
	for (size_t i = 0; i < a->ntargets; i++)
		if (!target_eq(a->targets[i], b->targets[i]))
			return false;
	return stmts_eq(a->body, a->nbody, b->body, b->nbody);
}

static bool stmts_eq(struct ward_stmt *const *a, size_t na,
		     struct ward_stmt *const *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!stmt_eq(a[i], b[i]))
			return false;
	return true;
}

bool ward_ast_equal(const struct ward_file *a, const struct ward_file *b)
{
	if (!a || !b)
		return a == b;
	return stmts_eq(a->stmts, a->nstmts, b->stmts, b->nstmts);
}
