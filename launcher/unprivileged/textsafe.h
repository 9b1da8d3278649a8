/* SPDX-License-Identifier: MIT */
/*
 * textsafe.h: a stream made safe to display (docs/spec.md 4.5, `streams`).
 *
 * The seeds: output must be limited in how it is parsed, "or the attack
 * only moves on to the viewer". A terminal or a web log viewer acts on
 * escape sequences: OSC 52 writes the viewer's clipboard, OSC 0 its title,
 * CSI 2J clears the screen, a CR overwrites what a reviewer reads, a
 * right-to-left override reorders it. In text mode the courier passes
 * printable UTF-8, tab and newline as they are, and writes everything else
 * visibly:
 *
 *   a C0 control or DEL            \xNN   (ESC is \x1b: no sequence starts)
 *   a byte of invalid UTF-8        \xNN
 *   a C1 control (U+0080..U+009F)  \u{NN}   (CSI is U+009B)
 *   a bidirectional control        \u{NNNN} (U+061C, U+200E/F,
 *                                            U+202A..U+202E, U+2066..U+2069)
 *
 * A character split between two reads is held back (at most 3 bytes) and
 * finished with the next read, or escaped at the end of the stream.
 */
#ifndef WARD_TEXTSAFE_H
#define WARD_TEXTSAFE_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes one input byte becomes (\u{NNNN} of a 3-byte character
 * is 10 for 3 bytes; \xNN is 4 for 1). */
#define WARD_TEXT_GROWTH 4

struct ward_textsafe {
	uint8_t carry[4]; /* the start of a character cut by the read */
	size_t ncarry;
	uint64_t escaped; /* input bytes written in an escaped form */
};

/* Escape n bytes of in into out (room for WARD_TEXT_GROWTH * (n + 3)
 * bytes); returns the bytes written. last: the end of the stream (what is
 * held back is escaped now). */
size_t ward_text_escape(struct ward_textsafe *t, const uint8_t *in, size_t n,
			uint8_t *out, int last);

#endif
