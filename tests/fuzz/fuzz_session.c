/* SPDX-License-Identifier: MIT */
/*
 * fuzz_session.c: libFuzzer target for the session protocol's parsers
 * (launcher/unprivileged/session_proto.c, docs/spec.md 7.2-7.6), the code
 * that reads what a caller or a compromised driver sends: the first byte
 * picks a frame (header and request), a driver line, base64, or the run
 * report's denials. Besides memory errors, the properties: a request's
 * code lies within its body; a line's fields lie within the line.
 *
 * fuzz-sources: session core
 */
#include "session_proto.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void request(const uint8_t *d, size_t n)
{
	struct ward_sreq rq;
	uint32_t len;

	if (n < 4 || ward_sframe_len(d, &len) || len > n - 4)
		return;
	if (!ward_sreq_parse(d + 4, len, &rq) && rq.type == WARD_SQ_EXEC &&
	    (rq.code < d + 4 || rq.code + rq.code_len > d + 4 + len))
		abort();
}

static void line(const uint8_t *d, size_t n)
{
	struct ward_dline dl;
	const char *s = (const char *)d;

	if (ward_dline_parse(s, n, &dl) < 0)
		return;
	for (int i = 0; i < WARD_DL_FIELDS; i++) {
		uint8_t *b;
		size_t blen;

		if (!dl.field[i])
			continue;
		if (dl.field[i] < s || dl.field[i] + dl.field_len[i] > s + n)
			abort();
		if (ward_b64_decode(dl.field[i], dl.field_len[i], &b, &blen) ==
		    0)
			free(b);
	}
}

static void denials(const uint8_t *d, size_t n)
{
	char *s = malloc(n + 1);
	const char *it = NULL, *obj, *first;
	size_t len, flen;

	if (!s)
		return;
	memcpy(s, d, n);
	s[n] = '\0';
	while (ward_sdenial_next(s, &it, &obj, &len, &first, &flen))
		if (obj < s || obj + len > s + n ||
		    (first && first + flen > s + n))
			abort();
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *b;
	size_t blen;

	if (!size)
		return 0;
	switch (data[0] % 4) {
	case 0:
		request(data + 1, size - 1);
		break;
	case 1:
		line(data + 1, size - 1);
		break;
	case 2:
		if (ward_b64_decode((const char *)data + 1, size - 1, &b,
				    &blen) == 0)
			free(b);
		break;
	default:
		denials(data + 1, size - 1);
	}
	return 0;
}
