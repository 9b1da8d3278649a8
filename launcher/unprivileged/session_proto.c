/* SPDX-License-Identifier: MIT */
/*
 * session_proto.c: see session_proto.h. Everything here reads bytes that a
 * caller or a compromised driver chose: every length is checked before it
 * is used, nothing is trusted to be terminated.
 */
#include "session_proto.h"

#include <sodium/utils.h>
#include <stdlib.h>
#include <string.h>

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

const char *ward_sframe_len(const uint8_t hdr[4], uint32_t *len)
{
	*len = be32(hdr);
	if (*len == 0)
		return "malformed";
	if (*len > WARD_SESSION_FRAME_MAX)
		return "frame_too_large";
	return NULL;
}

const char *ward_sreq_parse(const uint8_t *body, size_t len,
			    struct ward_sreq *rq)
{
	memset(rq, 0, sizeof(*rq));
	if (len < 1)
		return "malformed";
	rq->type = body[0];
	switch (rq->type) {
	case WARD_SQ_EXEC:
		if (len < 9)
			return "malformed";
		rq->wall_ms = be32(body + 1);
		rq->max_output = be32(body + 5);
		rq->code = body + 9;
		rq->code_len = len - 9;
		if (rq->code_len > WARD_SESSION_CODE_MAX)
			return "too_large";
		return NULL;
	case WARD_SQ_INTERRUPT:
		if (len != 5)
			return "malformed";
		rq->cell = be32(body + 1);
		return NULL;
	case WARD_SQ_STOP:
	case WARD_SQ_STATUS:
		return len == 1 ? NULL : "malformed";
	default:
		return "unknown_type";
	}
}

char *ward_b64_encode(const uint8_t *p, size_t n)
{
	size_t sz =
	    sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL);
	char *s = malloc(sz);

	if (s)
		sodium_bin2base64(s, sz, p, n, sodium_base64_VARIANT_ORIGINAL);
	return s;
}

int ward_b64_decode(const char *s, size_t n, uint8_t **out, size_t *outlen)
{
	size_t cap = n / 4 * 3 + 1;
	const char *end = NULL;
	uint8_t *b = malloc(cap);

	*out = NULL;
	*outlen = 0;
	if (!b)
		return -1;
	if (n % 4 ||
	    sodium_base642bin(b, cap, s, n, NULL, outlen, &end,
			      sodium_base64_VARIANT_ORIGINAL) < 0 ||
	    end != s + n) {
		free(b);
		return -1;
	}
	b[*outlen] = '\0';
	*out = b;
	return 0;
}

/* The next space-separated word of [*p, end): its start and length; -1 if
 * there is none. */
static int word(const char **p, const char *end, const char **w, size_t *n)
{
	const char *s = *p;

	if (s >= end)
		return -1;
	if (*s == ' ')
		s++;
	*w = s;
	while (s < end && *s != ' ')
		s++;
	*n = (size_t)(s - *w);
	*p = s;
	return *n ? 0 : -1;
}

static int number(const char *w, size_t n, uint64_t *v)
{
	*v = 0;
	if (n == 0 || n > 19)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(w[i] - '0');
	}
	return 0;
}

static bool b64_alphabet(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = w[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '+' || c == '/' ||
		      c == '='))
			return false;
	}
	return n % 4 == 0;
}

static bool is(const char *w, size_t n, const char *lit)
{
	return n == strlen(lit) && !memcmp(w, lit, n);
}

int ward_dline_parse(const char *line, size_t len, struct ward_dline *d)
{
	const char *p = line, *end = line + len, *w;
	size_t n, nfields;

	memset(d, 0, sizeof(*d));
	if (word(&p, end, &w, &n) < 0)
		return -1;
	if (is(w, n, "ready"))
		d->kind = WARD_DL_READY;
	else if (is(w, n, "out"))
		d->kind = WARD_DL_OUT;
	else if (is(w, n, "err"))
		d->kind = WARD_DL_ERR;
	else if (is(w, n, "done"))
		d->kind = WARD_DL_DONE;
	else if (is(w, n, "figure"))
		d->kind = WARD_DL_FIGURE;
	else
		return -1;
	if (d->kind == WARD_DL_READY)
		return p == end ? 0 : -1;
	if (word(&p, end, &w, &n) < 0 || number(w, n, &d->cell) < 0)
		return -1;
	nfields = 1;
	if (d->kind == WARD_DL_DONE) {
		uint64_t v;

		if (word(&p, end, &w, &n) < 0 ||
		    !(is(w, n, "ok") || is(w, n, "error") ||
		      is(w, n, "interrupted")))
			return -1;
		memcpy(d->status, w, n);
		if (word(&p, end, &w, &n) < 0 || number(w, n, &v) < 0)
			return -1;
		d->cpu_us = v;
		if (word(&p, end, &w, &n) < 0 || number(w, n, &v) < 0)
			return -1;
		d->maxrss_kib = v;
		nfields = WARD_DL_FIELDS;
	}
	for (size_t i = 0; i < nfields; i++) {
		/* base64 of nothing is "", which the driver spells "-". */
		if (word(&p, end, &w, &n) < 0)
			return -1;
		if (is(w, n, "-"))
			n = 0;
		else if (!b64_alphabet(w, n))
			return -1;
		d->field[i] = w;
		d->field_len[i] = n;
	}
	return p == end ? 0 : -1;
}

int ward_sdenial_next(const char *report, const char **it, const char **obj,
		      size_t *len, const char **first, size_t *first_len)
{
	static const char head[] = "\"denials\": {\"seccomp\": [";
	static const char key[] = "\"first\": \"";
	const char *p = *it, *e, *f;

	if (!p) {
		p = strstr(report, head);
		if (!p)
			return 0;
		p += strlen(head);
	}
	while (*p == ',' || *p == ' ')
		p++;
	/* An object of the array holds no brace: its strings are names,
	 * numbers in hex and times. */
	if (*p != '{' || !(e = strchr(p, '}')))
		return 0;
	*obj = p;
	*len = (size_t)(e - p) + 1;
	*first = NULL;
	*first_len = 0;
	f = memmem(p, *len, key, strlen(key));
	if (f) {
		const char *q;

		f += strlen(key);
		q = memchr(f, '"', (size_t)(e - f));
		if (q) {
			*first = f;
			*first_len = (size_t)(q - f);
		}
	}
	*it = e + 1;
	return 1;
}

bool ward_stime_within(const char *t, size_t n, const char *from,
		       const char *to)
{
	size_t lf = strlen(from), lt = strlen(to);

	if (n != lf || n != lt)
		return false;
	return memcmp(t, from, n) >= 0 && memcmp(t, to, n) <= 0;
}
