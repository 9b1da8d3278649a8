/* SPDX-License-Identifier: MIT */
/*
 * export_sniff.h: what a file is, from its bytes (docs/spec.md part 6): the
 * exporter's content types. A name says what a file claims to be; only its
 * bytes say what it is, and both must agree.
 */
#ifndef WARD_EXPORT_SNIFF_H
#define WARD_EXPORT_SNIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How many leading bytes the detection looks at. */
#define WARD_SNIFF_HEAD 512

/*
 * Text, checked as the bytes stream by: valid UTF-8 (sequences may be split
 * between chunks), no NUL, no control character but \t \n \f \r (no ESC:
 * a terminal escape in a CSV is an attack on whoever cats it), no C1
 * control (U+0080..U+009F, which some terminals obey too).
 */
struct ward_text_check {
	bool bad;	/* not text */
	uint8_t need;	/* continuation bytes still expected */
	uint8_t lo, hi; /* bounds of the next continuation byte */
	uint32_t cp;	/* the code point being decoded */
};

void ward_text_init(struct ward_text_check *t);
void ward_text_feed(struct ward_text_check *t, const uint8_t *p, size_t n);
/* At the end of the file: text, and no sequence left unfinished. */
bool ward_text_done(const struct ward_text_check *t);

/* The content type of a file (a WARD_EXPORT_T_* bit) from its first bytes
 * (head, n <= WARD_SNIFF_HEAD, fewer for a short file) and whether the
 * whole file is text; 0 when it is none of the known types. Magic numbers
 * win over text; text that is an SVG or HTML document is that, not
 * `text`. */
uint32_t ward_sniff(const uint8_t *head, size_t n, bool is_text);

/* The types a file name's extension claims (a set of WARD_EXPORT_T_*
 * bits), or 0 when the extension claims nothing (none, or unknown):
 * "chart.png" claims png, "data.csv" text. */
uint32_t ward_name_claims(const char *name);

#endif
