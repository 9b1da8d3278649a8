/* SPDX-License-Identifier: MIT */
/* source.c: the text of every file of one compilation, and its lines. */
#include "source.h"

#include <stdlib.h>
#include <string.h>

struct source_file {
	char *name;
	char *text; /* len bytes and a NUL */
	size_t len;
	uint32_t parent;
	struct ward_loc via;
	/* Offsets of the line starts, built on the first line lookup (most
	 * files are never shown in a diagnostic). */
	size_t *line_starts;
	size_t nlines;
};

struct ward_sources {
	struct source_file *files;
	size_t n, cap;
};

struct ward_sources *ward_sources_new(void)
{
	return calloc(1, sizeof(struct ward_sources));
}

void ward_sources_free(struct ward_sources *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->files[i].name);
		free(s->files[i].text);
		free(s->files[i].line_starts);
	}
	free(s->files);
	free(s);
}

uint32_t ward_sources_add(struct ward_sources *s, const char *name, char *text,
			  size_t len, uint32_t parent, struct ward_loc via)
{
	char *owned;
	char *copy;

	if (s->n >= UINT32_MAX - 1 || len == SIZE_MAX)
		goto fail;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct source_file *files =
		    realloc(s->files, cap * sizeof(*files));
		if (!files)
			goto fail;
		s->files = files;
		s->cap = cap;
	}
	owned = realloc(text, len + 1);
	if (!owned)
		goto fail;
	text = owned;
	text[len] = '\0';
	copy = strdup(name);
	if (!copy)
		goto fail;
	s->files[s->n] = (struct source_file){
	    .name = copy,
	    .text = text,
	    .len = len,
	    .parent = parent,
	    .via = via,
	};
	return (uint32_t)s->n++;
fail:
	/* The text was handed over: it is ours to drop. */
	free(text);
	return WARD_NO_FILE;
}

size_t ward_sources_count(const struct ward_sources *s)
{
	return s->n;
}

static const struct source_file *get(const struct ward_sources *s,
				     uint32_t file)
{
	return file < s->n ? &s->files[file] : NULL;
}

const char *ward_sources_name(const struct ward_sources *s, uint32_t file)
{
	const struct source_file *f = get(s, file);
	return f ? f->name : NULL;
}

const char *ward_sources_text(const struct ward_sources *s, uint32_t file,
			      size_t *len)
{
	const struct source_file *f = get(s, file);
	if (len)
		*len = f ? f->len : 0;
	return f ? f->text : NULL;
}

uint32_t ward_sources_parent(const struct ward_sources *s, uint32_t file,
			     struct ward_loc *via)
{
	const struct source_file *f = get(s, file);
	if (!f)
		return WARD_NO_FILE;
	if (via)
		*via = f->via;
	return f->parent;
}

static int index_lines(struct source_file *f)
{
	size_t n = 1;
	size_t *starts;
	size_t i = 0;

	for (const char *p = f->text, *end = f->text + f->len;
	     (p = memchr(p, '\n', (size_t)(end - p))); p++)
		n++;
	starts = malloc(n * sizeof(*starts));
	if (!starts)
		return -1;
	starts[i++] = 0;
	for (size_t off = 0; off < f->len; off++)
		if (f->text[off] == '\n')
			starts[i++] = off + 1;
	f->line_starts = starts;
	f->nlines = n;
	return 0;
}

const char *ward_sources_line(const struct ward_sources *s, uint32_t file,
			      uint32_t line, size_t *len)
{
	/* The line index is a cache: building it does not change what the
	 * source manager holds, so it is allowed through a const pointer. */
	struct source_file *f = (struct source_file *)get(s, file);
	size_t start;
	size_t end;

	if (!f || line == 0)
		return NULL;
	if (!f->line_starts && index_lines(f) < 0)
		return NULL;
	if (line > f->nlines)
		return NULL;
	start = f->line_starts[line - 1];
	end = line < f->nlines ? f->line_starts[line] - 1 : f->len;
	if (end > start && f->text[end - 1] == '\r')
		end--;
	if (len)
		*len = end - start;
	return f->text + start;
}
