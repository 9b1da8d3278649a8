/* SPDX-License-Identifier: MIT */
/*
 * utf8.c: the well-formed UTF-8 sequences of RFC 3629, table 3.7 of the
 * Unicode standard (utf8.h).
 */
#include "utf8.h"

size_t ward_utf8_len(const uint8_t *s, size_t n)
{
	uint8_t c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0; /* a continuation byte, or C0, C1, F5..FF */
	/* The second byte's range excludes overlong forms (E0, F0),
	 * surrogates (ED) and what lies above U+10FFFF (F4). */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}
