/* SPDX-License-Identifier: MIT */
/*
 * ast_canon.c: a canonical serialisation of a syntax tree: what the file
 * says, without its layout, comments or spellings, so that two files that
 * ward_ast_equal() calls equal serialise to the same bytes (it writes
 * exactly the fields ward_ast_equal compares). The blob's source digest is
 * taken over it, which is why `wardc fmt` never changes a blob.
 */
#include "ast_canon.h"
#include "ast.h"

#include <inttypes.h>
#include <string.h>

/* Every item is a tag byte and, for variable-length data, a length: no
 * two different trees can give the same stream. */
static void bytes(FILE *out, char tag, const char *s, size_t len)
{
	fprintf(out, "%c%zu:", tag, len);
	if (len)
		fwrite(s, 1, len, out);
}

static void str(FILE *out, const char *s)
{
	if (!s)
		fputc('~', out);
	else
		bytes(out, '"', s, strlen(s));
}

static void num(FILE *out, char tag, uint64_t u)
{
	fprintf(out, "%c%" PRIu64 ";", tag, u);
}

static void value(FILE *out, const struct ward_value *v)
{
	if (!v) {
		fputc('~', out);
		return;
	}
	num(out, 'v', (uint64_t)v->kind);
	switch (v->kind) {
	case WARD_V_INT:
	case WARD_V_SIZE:
	case WARD_V_DURATION:
	case WARD_V_DECIMAL:
		num(out, 'u', v->u);
		return;
	case WARD_V_STRING:
		bytes(out, 's', v->str, v->len);
		return;
	case WARD_V_PATH:
	case WARD_V_NAME:
		str(out, v->str);
		return;
	case WARD_V_ADDR:
		num(out, 'f', v->addr.family);
		num(out, 'p', (uint64_t)(int64_t)v->addr.prefix);
		bytes(out, 'a', (const char *)v->addr.bytes,
		      sizeof(v->addr.bytes));
		return;
	case WARD_V_OR:
		num(out, 'n', v->nitems);
		for (size_t i = 0; i < v->nitems; i++)
			value(out, v->items[i]);
		return;
	}
}

static void cond(FILE *out, const struct ward_cond *c)
{
	if (!c) {
		fputc('~', out);
		return;
	}
	num(out, 'c', (uint64_t)c->kind);
	if (c->kind == WARD_C_CMP) {
		str(out, c->arg);
		num(out, 'o', (uint64_t)c->op);
		value(out, c->mask);
		value(out, c->value);
		return;
	}
	cond(out, c->lhs);
	cond(out, c->rhs);
}

static void names(FILE *out, const char *const *n, size_t count)
{
	num(out, 'N', count);
	for (size_t i = 0; i < count; i++)
		str(out, n[i]);
}

static void stmts(FILE *out, struct ward_stmt *const *s, size_t n);

static void stmt(FILE *out, const struct ward_stmt *s)
{
	num(out, 'S', (uint64_t)s->kind);
	str(out, s->name);
	value(out, s->value);
	value(out, s->src);
	value(out, s->path);
	value(out, s->size);
	value(out, s->mode);
	num(out, 'O', s->opts);
	num(out, 'c', s->caps_none);
	names(out, s->names, s->nnames);
	num(out, 'V', s->nvalues);
	for (size_t i = 0; i < s->nvalues; i++)
		value(out, s->values[i]);
	str(out, s->proto);
	/* A name rule's constant differs from a host of that name; a
	 * quoted name is already told apart by its value's kind (and keeps
	 * the serialisation, and so the digests, it had). */
	if (s->by_name && s->dest && s->dest->kind != WARD_V_STRING)
		fputc('N', out);
	value(out, s->dest);
	num(out, 'P', s->nports);
	for (size_t i = 0; i < s->nports; i++) {
		value(out, s->ports[i].lo);
		value(out, s->ports[i].hi);
	}
	if (s->action) {
		num(out, 'A', (uint64_t)s->action->word);
		value(out, s->action->errno_value);
	} else {
		fputc('~', out);
	}
	num(out, 'T', s->ntargets);
	for (size_t i = 0; i < s->ntargets; i++) {
		const struct ward_target *t = s->targets[i];
		str(out, t->name);
		num(out, 'g', t->is_group);
		num(out, 'h', t->has_parens);
		names(out, t->params, t->nparams);
	}
	cond(out, s->cond);
	stmts(out, s->body, s->nbody);
}

static void stmts(FILE *out, struct ward_stmt *const *s, size_t n)
{
	num(out, 'B', n);
	for (size_t i = 0; i < n; i++)
		stmt(out, s[i]);
}

int ward_ast_canonical(const struct ward_file *f, FILE *out)
{
	stmts(out, f->stmts, f->nstmts);
	return ferror(out) ? -1 : 0;
}
