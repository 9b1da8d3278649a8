/* SPDX-License-Identifier: MIT */
/*
 * diag.h: diagnostics for policy authors.
 *
 *     python.ward:12:11: error: unknown syscall `sokcet`
 *        12 |     allow sokcet if domain == AF_UNIX;
 *           |           ^~~~~~
 *           = help: did you mean `socket`?
 *
 * A diagnostic is opened with ward_diag(); ward_diag_help() and
 * ward_diag_note() attach to the one most recently opened; it is printed when
 * the next one opens or at ward_diags_flush(). Text and JSON (one object per
 * line, notes nested) are the two output formats.
 */
#ifndef WARD_DIAG_H
#define WARD_DIAG_H

#include "ast.h"
#include "source.h"

#include <stdbool.h>
#include <stdio.h>

enum ward_severity { WARD_SEV_NOTE, WARD_SEV_WARNING, WARD_SEV_ERROR };
enum ward_diag_format { WARD_DIAG_TEXT, WARD_DIAG_JSON };
enum ward_color { WARD_COLOR_AUTO, WARD_COLOR_ALWAYS, WARD_COLOR_NEVER };

struct ward_diags;

struct ward_diags *ward_diags_new(const struct ward_sources *src, FILE *out,
				  enum ward_diag_format format,
				  enum ward_color color, bool werror);
void ward_diags_free(struct ward_diags *d);

/* Open a diagnostic at loc (a loc with file == WARD_NO_FILE has no place). */
void ward_diag(struct ward_diags *d, enum ward_severity sev,
	       struct ward_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "= help: ..." under the current diagnostic. */
void ward_diag_help(struct ward_diags *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A note at another place, attached to the current diagnostic. */
void ward_diag_note(struct ward_diags *d, struct ward_loc loc, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
void ward_diags_flush(struct ward_diags *d);

/* Counts so far (warnings count as errors under -Werror). */
unsigned ward_diags_errors(const struct ward_diags *d);
unsigned ward_diags_warnings(const struct ward_diags *d);

/* The closest candidate to word by edit distance, or NULL if none is close
 * enough to be a likely slip. */
const char *ward_suggest(const char *word, const char *const *candidates,
			 size_t n);

#endif
