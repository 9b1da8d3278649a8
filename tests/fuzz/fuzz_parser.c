/* SPDX-License-Identifier: MIT */
/*
 * fuzz_parser.c: libFuzzer target for the front end (scanner, parser,
 * diagnostics, formatter).
 *
 * fuzz-sources: lang core
 *
 * Besides memory errors, undefined behaviour and leaks, it checks the
 * formatter's promises on every input that parses cleanly: its output
 * parses cleanly too, means the same (ward_ast_equal), and formats to
 * itself.
 */
#include "diag.h"
#include "fmt.h"
#include "load.h"
#include "source.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct ward_loc nowhere = {WARD_NO_FILE, 0, 0, 0, 0};

/* The formatted text of f, or NULL. */
static char *format(const struct ward_file *f, const struct ward_sources *src,
		    size_t *len)
{
	char *out = NULL;
	FILE *mem = open_memstream(&out, len);
	if (!mem)
		return NULL;
	if (ward_fmt(f, src, mem) < 0)
		abort(); /* a memory stream does not fail */
	fclose(mem);
	return out;
}

static void check_fmt(struct ward_sources *src, struct ward_diags *diags,
		      const struct ward_file *f)
{
	size_t len;
	char *once = format(f, src, &len);
	if (!once)
		return;
	char *copy = malloc(len + 1);
	if (!copy) {
		free(once);
		return;
	}
	memcpy(copy, once, len + 1);
	uint32_t id =
	    ward_sources_add(src, "fmt.ward", copy, len, WARD_NO_FILE, nowhere);
	if (id == WARD_NO_FILE) {
		free(once);
		return;
	}
	struct ward_file *g = ward_parse(src, id, diags);
	if (!g)
		abort();
	if (g->nerrors != 0)
		abort(); /* fmt wrote something that does not parse */
	if (!ward_ast_equal(f, g))
		abort(); /* fmt changed the meaning */
	size_t len2;
	char *twice = format(g, src, &len2);
	if (twice && (len2 != len || memcmp(once, twice, len) != 0))
		abort(); /* fmt is not idempotent */
	free(twice);
	free(once);
	ward_file_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	if (!null || size > (1u << 20))
		return 0;
	struct ward_sources *src = ward_sources_new();
	/* both output formats, chosen by the input's length */
	struct ward_diags *diags = ward_diags_new(
	    src, null, size % 2 ? WARD_DIAG_JSON : WARD_DIAG_TEXT,
	    WARD_COLOR_ALWAYS, size % 3 == 0);
	char *text = malloc(size ? size : 1);
	if (!src || !diags || !text) {
		free(text);
		ward_diags_free(diags);
		ward_sources_free(src);
		return 0;
	}
	if (size)
		memcpy(text, data, size);
	uint32_t id = ward_sources_add(src, "fuzz.ward", text, size,
				       WARD_NO_FILE, nowhere);
	struct ward_file *f =
	    id == WARD_NO_FILE ? NULL : ward_parse(src, id, diags);
	ward_diags_flush(diags);
	if (f && f->nerrors == 0)
		check_fmt(src, diags, f);
	ward_file_free(f);
	ward_diags_free(diags);
	ward_sources_free(src);
	return 0;
}
