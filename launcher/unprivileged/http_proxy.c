/* SPDX-License-Identifier: MIT */
/*
 * http_proxy.c: the upstream proxy's reply (http_proxy.h).
 */
#include "http_proxy.h"

#include <string.h>

static bool tchar(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || strchr("!#$%&'*+-.^_`|~", c);
}

/* A line of m[at..len) ended by CRLF: its length without the CRLF, or -1
 * when it has no end yet, -2 when a CR or LF stands alone in it. */
static long line(const uint8_t *m, size_t len, size_t at)
{
	for (size_t i = at; i < len; i++) {
		if (m[i] == '\n')
			return -2;
		if (m[i] != '\r')
			continue;
		if (i + 1 == len)
			return -1;
		return m[i + 1] == '\n' ? (long)(i - at) : -2;
	}
	return -1;
}

enum ward_proxy_reply ward_proxy_reply(const uint8_t *m, size_t len,
				       size_t *head, unsigned *status)
{
	size_t at = 0;
	long n;
	unsigned code = 0;

	if (len > WARD_PROXY_REPLY_MAX)
		len = WARD_PROXY_REPLY_MAX;
	/* The status line: "HTTP/1.1 200" then, optionally, SP reason. */
	n = line(m, len, 0);
	if (n == -2)
		return WARD_PROXY_INVALID;
	if (n == -1)
		return len < WARD_PROXY_REPLY_MAX ? WARD_PROXY_MORE
						  : WARD_PROXY_INVALID;
	if (n < 12 || memcmp(m, "HTTP/1.", 7) != 0 ||
	    (m[7] != '0' && m[7] != '1') || m[8] != ' ')
		return WARD_PROXY_INVALID;
	for (int i = 9; i < 12; i++) {
		if (m[i] < '0' || m[i] > '9')
			return WARD_PROXY_INVALID;
		code = code * 10 + (unsigned)(m[i] - '0');
	}
	if (code < 100 || (n > 12 && m[12] != ' '))
		return WARD_PROXY_INVALID;
	for (long i = 13; i < n; i++)
		if ((m[i] < 0x20 && m[i] != '\t') || m[i] == 0x7f)
			return WARD_PROXY_INVALID;
	at = (size_t)n + 2;
	/* Header lines, then the empty one. */
	for (int h = 0;; h++) {
		size_t colon;

		n = line(m, len, at);
		if (n == -2)
			return WARD_PROXY_INVALID;
		if (n == -1)
			return len < WARD_PROXY_REPLY_MAX ? WARD_PROXY_MORE
							  : WARD_PROXY_INVALID;
		if (n == 0)
			break;
		if (h == WARD_PROXY_HEADERS)
			return WARD_PROXY_INVALID;
		/* a name of token characters, then ':' (no space before
		 * it, no folded line) */
		for (colon = at; colon < at + (size_t)n && tchar(m[colon]);
		     colon++)
			;
		if (colon == at || colon == at + (size_t)n || m[colon] != ':')
			return WARD_PROXY_INVALID;
		for (size_t i = colon + 1; i < at + (size_t)n; i++)
			if ((m[i] < 0x20 && m[i] != '\t') || m[i] == 0x7f)
				return WARD_PROXY_INVALID;
		at += (size_t)n + 2;
	}
	*head = at + 2;
	*status = code;
	return WARD_PROXY_OK;
}
