/* SPDX-License-Identifier: MIT */
/*
 * fe_test.h: parse a text in memory and keep what the front end said, for
 * the front end's unit tests (test_lexer, test_parser, test_fmt, ...).
 */
#ifndef WARD_FE_TEST_H
#define WARD_FE_TEST_H

#include "diag.h"
#include "load.h"
#include "source.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka needs these before it */
#include <setjmp.h>

#include <cmocka.h>

struct parsed {
	struct ward_sources *src;
	struct ward_diags *diags;
	struct ward_file *file;
	char *out; /* everything the diagnostics printed */
	size_t outlen;
	FILE *mem;
};

/* Parse len bytes as the file "t.ward"; diagnostics in text form. */
static inline struct parsed *parse_bytes(const char *text, size_t len,
					 enum ward_diag_format format)
{
	struct parsed *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	p->mem = open_memstream(&p->out, &p->outlen);
	assert_non_null(p->mem);
	p->src = ward_sources_new();
	assert_non_null(p->src);
	p->diags =
	    ward_diags_new(p->src, p->mem, format, WARD_COLOR_NEVER, false);
	assert_non_null(p->diags);
	char *copy = malloc(len ? len : 1);
	assert_non_null(copy);
	memcpy(copy, text, len);
	uint32_t id =
	    ward_sources_add(p->src, "t.ward", copy, len, WARD_NO_FILE,
			     (struct ward_loc){WARD_NO_FILE, 0, 0, 0, 0});
	assert_int_not_equal(id, WARD_NO_FILE);
	p->file = ward_parse(p->src, id, p->diags);
	assert_non_null(p->file);
	ward_diags_flush(p->diags);
	fflush(p->mem);
	return p;
}

static inline struct parsed *parse_text(const char *text)
{
	return parse_bytes(text, strlen(text), WARD_DIAG_TEXT);
}

static inline void parsed_free(struct parsed *p)
{
	if (!p)
		return;
	ward_file_free(p->file);
	ward_diags_free(p->diags);
	ward_sources_free(p->src);
	fclose(p->mem);
	free(p->out);
	free(p);
}

/* The parse of a text that must be clean. */
static inline struct parsed *parse_ok(const char *text)
{
	struct parsed *p = parse_text(text);
	if (p->file->nerrors)
		print_error("unexpected diagnostics:\n%s", p->out);
	assert_int_equal(p->file->nerrors, 0);
	assert_string_equal(p->out ? p->out : "", "");
	return p;
}

/* The only diagnostic line of a text with one error, first line only
 * ("t.ward:2:11: error: ..."). */
static inline char *first_line(const struct parsed *p)
{
	static char line[1024];
	const char *s = p->out ? p->out : "";
	size_t n = strcspn(s, "\n");
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memcpy(line, s, n);
	line[n] = '\0';
	return line;
}

/* The top-level statement number i (the version pin is 0). */
static inline const struct ward_stmt *stmt_at(const struct parsed *p, size_t i)
{
	assert_true(i < p->file->nstmts);
	return p->file->stmts[i];
}

/* The value of `const NAME = ...;` in a parsed file. */
static inline const struct ward_value *const_value(const struct parsed *p,
						   const char *name)
{
	for (size_t i = 0; i < p->file->nstmts; i++) {
		const struct ward_stmt *s = p->file->stmts[i];
		if (s->kind == WARD_S_CONST && strcmp(s->name, name) == 0)
			return s->value;
	}
	fail_msg("no constant %s", name);
	return NULL;
}

static inline void assert_loc(struct ward_loc loc, uint32_t line, uint32_t col,
			      uint32_t end_line, uint32_t end_col)
{
	assert_int_equal(loc.line, line);
	assert_int_equal(loc.col, col);
	assert_int_equal(loc.end_line, end_line);
	assert_int_equal(loc.end_col, end_col);
}

#endif
