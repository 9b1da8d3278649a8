/* SPDX-License-Identifier: MIT */
/*
 * source.h: the source manager. It owns the text of every file read in one
 * compilation, numbers them, remembers how each was reached (the `use` or
 * `include` statement in its parent) and maps a location back to its line
 * for diagnostics.
 */
#ifndef WARD_SOURCE_H
#define WARD_SOURCE_H

#include "ast.h"

#include <stddef.h>
#include <stdint.h>

struct ward_sources;

#define WARD_NO_FILE UINT32_MAX

struct ward_sources *ward_sources_new(void);
void ward_sources_free(struct ward_sources *s);

/* Take ownership of text (len bytes, need not be NUL-terminated; a NUL is
 * kept after it) and return the new file's index. name is what diagnostics
 * print; parent/via are the file and statement that used it (WARD_NO_FILE
 * for the main file). */
uint32_t ward_sources_add(struct ward_sources *s, const char *name, char *text,
			  size_t len, uint32_t parent, struct ward_loc via);

size_t ward_sources_count(const struct ward_sources *s);
const char *ward_sources_name(const struct ward_sources *s, uint32_t file);
const char *ward_sources_text(const struct ward_sources *s, uint32_t file,
			      size_t *len);
uint32_t ward_sources_parent(const struct ward_sources *s, uint32_t file,
			     struct ward_loc *via);
/* The text of line `line` (1-based) without its newline; NULL if none. */
const char *ward_sources_line(const struct ward_sources *s, uint32_t file,
			      uint32_t line, size_t *len);

#endif
