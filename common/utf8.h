/* SPDX-License-Identifier: MIT */
/*
 * utf8.h: what counts as UTF-8, once for ward and wardc: the lexer's check
 * of a source file, the diagnostics' rendering of a source line, and the
 * JSON writer (json.h) all decide with this function, so that a byte is
 * never text to one of them and not to another.
 */
#ifndef WARD_UTF8_H
#define WARD_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length of the well-formed UTF-8 sequence at s (n > 0 bytes left):
 * 1 for an ASCII byte, 2 to 4 for a character (no overlong form, no
 * surrogate, nothing above U+10FFFF, as RFC 3629 has it), 0 when s does
 * not start one. */
size_t ward_utf8_len(const uint8_t *s, size_t n);

#endif
