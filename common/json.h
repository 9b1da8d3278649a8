/* SPDX-License-Identifier: MIT */
/*
 * json.h: the one JSON string writer of ward and wardc, and so their one
 * policy for bytes that are not UTF-8. The run report, the export
 * manifests, the file diff and the workspace record (ward), the
 * diagnostics, explain, diff, lint and SARIF (wardc) all write strings
 * here.
 *
 * A string is written so that the output is always valid UTF-8 and valid
 * JSON, whatever the bytes: valid UTF-8 as it is, with JSON's escapes (\"
 * \\ \n \t, \u00XX for the other control characters and DEL); every byte
 * of an invalid sequence as \udcXX, U+DC80 + the byte: the
 * "surrogateescape" of PEP 383. Python gives the exact bytes back with
 * s.encode("utf-8", "surrogateescape"); other readers see U+FFFD. A file
 * name is bytes, not text (a sandboxed program or a careless tool can
 * make any), so that a report names it exactly and still parses.
 */
#ifndef WARD_JSON_H
#define WARD_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* The n bytes at s as a JSON string. */
void ward_json_bytes(FILE *f, const uint8_t *s, size_t n);

/* A NUL-terminated string as a JSON string; NULL as null. */
void ward_json_str(FILE *f, const char *s);

/* RFC 3339, UTC, milliseconds: "2025-11-29T11:40:01.123Z" (the form of
 * every time in the report and the records). */
void ward_rfc3339(const struct timespec *ts, char *buf, size_t len);

/* A time as a JSON string in that form; a zero time (never happened) as
 * null. */
void ward_json_time(FILE *f, const struct timespec *ts);

/* v as a JSON number, or null when it is not known (!have). */
void ward_json_u64_or_null(FILE *f, bool have, uint64_t v);

#endif
