/* SPDX-License-Identifier: MIT */
/*
 * suggest.c: "did you mean": the closest candidate by edit distance.
 *
 * The distance is Damerau-Levenshtein (optimal string alignment: insert,
 * delete, substitute, swap two neighbours) with case ignored, so that
 * `af_unix` finds `AF_UNIX`. A candidate is offered when it is within
 * max(1, len/3) edits of the word; ties go to the one that is closest when
 * case counts, then to the first in the list.
 */
#include "diag.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORD 256

static bool same(char a, char b, bool fold)
{
	return a == b ||
	       (fold && tolower((unsigned char)a) == tolower((unsigned char)b));
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;
	return m < c ? m : c;
}

/* The distance, or UINT32_MAX when it exceeds limit. Three rows of the
 * dynamic programming table are enough for the swap case. */
static unsigned distance(const char *a, size_t na, const char *b, size_t nb,
			 unsigned limit, bool fold)
{
	unsigned rows[3][MAX_WORD + 1];
	unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= nb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= na; i++) {
		unsigned row_min;
		unsigned *t;

		cur[0] = (unsigned)i;
		row_min = cur[0];
		for (size_t j = 1; j <= nb; j++) {
			unsigned c =
			    min3(prev[j] + 1, cur[j - 1] + 1,
				 prev[j - 1] + !same(a[i - 1], b[j - 1], fold));
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2], fold) &&
			    same(a[i - 2], b[j - 1], fold) &&
			    prev2[j - 2] + 1 < c)
				c = prev2[j - 2] + 1;
			cur[j] = c;
			if (c < row_min)
				row_min = c;
		}
		if (row_min > limit)
			return UINT32_MAX;
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[nb] <= limit ? prev[nb] : UINT32_MAX;
}

const char *ward_suggest(const char *word, const char *const *candidates,
			 size_t n)
{
	size_t len = strlen(word);
	unsigned limit;
	const char *best = NULL;
	unsigned best_d = UINT32_MAX, best_exact = UINT32_MAX;

	if (len == 0 || len > MAX_WORD)
		return NULL;
	limit = len / 3 < 1 ? 1 : (unsigned)(len / 3);
	for (size_t i = 0; i < n; i++) {
		const char *c = candidates[i];
		size_t clen;
		unsigned d;
		unsigned exact;

		if (!c)
			continue;
		clen = strlen(c);
		if (clen > MAX_WORD ||
		    (clen > len ? clen - len : len - clen) > limit)
			continue;
		d = distance(word, len, c, clen, limit, true);
		if (d == UINT32_MAX)
			continue;
		exact =
		    distance(word, len, c, clen, (unsigned)(len + clen), false);
		if (d < best_d || (d == best_d && exact < best_exact)) {
			best = c;
			best_d = d;
			best_exact = exact;
		}
	}
	return best;
}
