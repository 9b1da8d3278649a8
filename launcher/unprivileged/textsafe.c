/* SPDX-License-Identifier: MIT */
/*
 * textsafe.c: see textsafe.h.
 */
#include "textsafe.h"

#include "utf8.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define WORK_MAX (256 * 1024)

static bool bidi_control(uint32_t cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

static uint32_t decode(const uint8_t *s, size_t len)
{
	static const uint8_t lead_mask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
	uint32_t cp = s[0] & lead_mask[len];

	for (size_t i = 1; i < len; i++)
		cp = (cp << 6) | (s[i] & 0x3f);
	return cp;
}

/* Whether s (n bytes, the end of what was read) is the start of a
 * character that the next read may finish. */
static bool unfinished(const uint8_t *s, size_t n)
{
	size_t want = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;

	if (s[0] < 0xc2 || s[0] > 0xf4 || n >= want)
		return false;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return false;
	return true;
}

size_t ward_text_escape(struct ward_textsafe *t, const uint8_t *in, size_t n,
			uint8_t *out, int last)
{
	static uint8_t work[WORK_MAX + 4];
	size_t len = t->ncarry, o = 0;

	if (n > WORK_MAX)
		n = WORK_MAX; /* the caller never reads more */
	memcpy(work, t->carry, t->ncarry);
	if (n)
		memcpy(work + len, in, n);
	len += n;
	t->ncarry = 0;
	for (size_t i = 0; i < len;) {
		size_t k = ward_utf8_len(work + i, len - i);
		uint8_t c = work[i];

		if (k == 0 && !last && unfinished(work + i, len - i)) {
			memcpy(t->carry, work + i, len - i);
			t->ncarry = len - i;
			break;
		}
		if (k == 1 &&
		    ((c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n')) {
			out[o++] = c;
		} else if (k <= 1) {
			o += (size_t)sprintf((char *)out + o, "\\x%02x", c);
			t->escaped++;
			k = 1;
		} else {
			uint32_t cp = decode(work + i, k);

			if (cp < 0xa0 || bidi_control(cp)) {
				o += (size_t)sprintf((char *)out + o, "\\u{%x}",
						     cp);
				t->escaped += k;
			} else {
				memcpy(out + o, work + i, k);
				o += k;
			}
		}
		i += k;
	}
	return o;
}
