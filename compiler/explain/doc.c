/* SPDX-License-Identifier: MIT */
/*
 * doc.c: the document tree of wardc's reports (doc.h) and its two
 * printers. A report is built once and printed as JSON (by hand: strings
 * through the one JSON escaper, common/json.h) or as YAML (through
 * libyaml's emitter, which quotes what needs it), so that the two forms
 * cannot say different things.
 */
#include "doc.h"

#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <yaml.h>

static struct doc *node(struct ward_pool *p, enum doc_kind kind)
{
	struct doc *d = ward_pool_alloc(p, sizeof(*d));
	d->kind = kind;
	return d;
}

struct doc *doc_map(struct ward_pool *p)
{
	return node(p, DOC_MAP);
}

struct doc *doc_list(struct ward_pool *p)
{
	return node(p, DOC_LIST);
}

struct doc *doc_str(struct ward_pool *p, const char *s)
{
	struct doc *d = node(p, s ? DOC_STR : DOC_NULL);
	d->s = s;
	return d;
}

struct doc *doc_uint(struct ward_pool *p, uint64_t u)
{
	struct doc *d = node(p, DOC_UINT);
	d->u = u;
	return d;
}

struct doc *doc_int(struct ward_pool *p, int64_t i)
{
	struct doc *d = node(p, DOC_INT);
	d->i = i;
	return d;
}

struct doc *doc_bool(struct ward_pool *p, bool b)
{
	struct doc *d = node(p, DOC_BOOL);
	d->b = b;
	return d;
}

struct doc *doc_fixed(struct ward_pool *p, uint64_t units, unsigned decimals)
{
	struct doc *d = node(p, DOC_FIXED);
	d->u = units;
	d->i = decimals > 18 ? 18 : decimals;
	return d;
}

/* "12" with 1 decimal: "1.2" */
static void fixed_text(const struct doc *d, char *buf, size_t len)
{
	uint64_t scale = 1;
	for (int64_t k = 0; k < d->i; k++)
		scale *= 10;
	if (d->i == 0)
		snprintf(buf, len, "%" PRIu64, d->u);
	else
		snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64, d->u / scale,
			 (int)d->i, d->u % scale);
}

struct doc *doc_add(struct doc *parent, const char *key, struct doc *child)
{
	child->key = key;
	if (parent->last)
		parent->last->next = child;
	else
		parent->first = child;
	parent->last = child;
	return child;
}

void doc_set_str(struct ward_pool *p, struct doc *m, const char *key,
		 const char *s)
{
	doc_add(m, key, doc_str(p, s));
}

void doc_set_uint(struct ward_pool *p, struct doc *m, const char *key,
		  uint64_t u)
{
	doc_add(m, key, doc_uint(p, u));
}

void doc_set_bool(struct ward_pool *p, struct doc *m, const char *key, bool b)
{
	doc_add(m, key, doc_bool(p, b));
}

/* ------------------------------------------------------------------ JSON */

static void json(const struct doc *d, FILE *out, int depth)
{
	bool map;

	switch (d->kind) {
	case DOC_NULL:
		fputs("null", out);
		return;
	case DOC_BOOL:
		fputs(d->b ? "true" : "false", out);
		return;
	case DOC_INT:
		fprintf(out, "%" PRId64, d->i);
		return;
	case DOC_UINT:
		fprintf(out, "%" PRIu64, d->u);
		return;
	case DOC_STR:
		ward_json_str(out, d->s);
		return;
	case DOC_FIXED: {
		char buf[48];
		fixed_text(d, buf, sizeof(buf));
		fputs(buf, out);
		return;
	}
	case DOC_LIST:
	case DOC_MAP:
		break;
	}
	map = d->kind == DOC_MAP;
	if (!d->first) {
		fputs(map ? "{}" : "[]", out);
		return;
	}
	fputc(map ? '{' : '[', out);
	for (const struct doc *c = d->first; c; c = c->next) {
		fprintf(out, "\n%*s", 2 * (depth + 1), "");
		if (map) {
			ward_json_str(out, c->key);
			fputs(": ", out);
		}
		json(c, out, depth + 1);
		if (c->next)
			fputc(',', out);
	}
	fprintf(out, "\n%*s%c", 2 * depth, "", map ? '}' : ']');
}

int doc_print_json(const struct doc *d, FILE *out)
{
	json(d, out, 0);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------ YAML */

static int yaml_write(void *data, unsigned char *buf, size_t size)
{
	return fwrite(buf, 1, size, data) == size;
}

static int scalar(yaml_emitter_t *e, const char *s, bool plain_ok)
{
	yaml_event_t ev;
	/* quoted_implicit must be set: with no tag and both implicit flags
	 * clear, libyaml refuses the event ("neither tag nor implicit flags
	 * are specified") and the whole document is lost */
	yaml_scalar_event_initialize(
	    &ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), plain_ok, 1,
	    plain_ok ? YAML_ANY_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	return yaml_emitter_emit(e, &ev);
}

static int yaml(yaml_emitter_t *e, const struct doc *d)
{
	char buf[48];
	yaml_event_t ev;
	switch (d->kind) {
	case DOC_NULL:
		return scalar(e, "null", true);
	case DOC_BOOL:
		return scalar(e, d->b ? "true" : "false", true);
	case DOC_INT:
		snprintf(buf, sizeof(buf), "%" PRId64, d->i);
		return scalar(e, buf, true);
	case DOC_UINT:
		snprintf(buf, sizeof(buf), "%" PRIu64, d->u);
		return scalar(e, buf, true);
	case DOC_FIXED:
		fixed_text(d, buf, sizeof(buf));
		return scalar(e, buf, true);
	case DOC_STR:
		/* Quoted, so that "0755", "no" or "1.0" stay strings. */
		return scalar(e, d->s, false);
	case DOC_LIST:
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
						     YAML_ANY_SEQUENCE_STYLE);
		if (!yaml_emitter_emit(e, &ev))
			return 0;
		for (const struct doc *c = d->first; c; c = c->next)
			if (!yaml(e, c))
				return 0;
		yaml_sequence_end_event_initialize(&ev);
		return yaml_emitter_emit(e, &ev);
	case DOC_MAP:
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
						    YAML_ANY_MAPPING_STYLE);
		if (!yaml_emitter_emit(e, &ev))
			return 0;
		for (const struct doc *c = d->first; c; c = c->next)
			if (!scalar(e, c->key, true) || !yaml(e, c))
				return 0;
		yaml_mapping_end_event_initialize(&ev);
		return yaml_emitter_emit(e, &ev);
	}
	return 0;
}

int doc_print_yaml(const struct doc *d, FILE *out)
{
	yaml_emitter_t e;
	yaml_event_t ev;
	int ok = 1;

	if (!yaml_emitter_initialize(&e))
		return -1;
	yaml_emitter_set_output(&e, yaml_write, out);
	yaml_emitter_set_unicode(&e, 1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = ok && yaml_emitter_emit(&e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
	ok = ok && yaml_emitter_emit(&e, &ev);
	ok = ok && yaml(&e, d);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(&e, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&e, &ev);
	ok = ok && yaml_emitter_flush(&e);
	yaml_emitter_delete(&e);
	if (!ok) {
		errno = EIO;
		return -1;
	}
	return 0;
}
