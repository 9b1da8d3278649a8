/* SPDX-License-Identifier: MIT */
/*
 * http_host.c: the Host of a request's head (http_host.h).
 */
#include "http_host.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>

static bool tchar(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* "METHOD /target HTTP/1.x": the line m[0..n). */
static bool request_line(const uint8_t *m, size_t n)
{
	size_t i = 0, t;

	while (i < n && tchar(m[i]))
		i++;
	if (i == 0 || i >= n || m[i] != ' ' ||
	    (i == 7 && !memcmp(m, "CONNECT", 7)))
		return false;
	t = ++i;
	while (i < n && m[i] > ' ' && m[i] < 0x7f)
		i++;
	if (i == t || m[t] != '/' || i >= n || m[i] != ' ')
		return false;
	i++;
	return n - i == 8 && !memcmp(m + i, "HTTP/1.", 7) &&
	       (m[i + 7] == '0' || m[i + 7] == '1');
}

/* A Host value v[0..n): its name, lower case, no trailing dot. */
static bool host_value(const uint8_t *v, size_t n, char *name)
{
	size_t len = 0;

	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	while (n && (v[0] == ' ' || v[0] == '\t'))
		v++, n--;
	for (size_t i = n; i-- > 0;)
		if (v[i] == ':') {
			for (size_t k = i + 1; k < n; k++)
				if (v[k] < '0' || v[k] > '9')
					return false;
			n = i;
			break;
		}
	if (n && v[n - 1] == '.')
		n--;
	if (n == 0 || n > 253)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = (char)v[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '.'))
			return false;
		name[len++] = c;
	}
	name[len] = '\0';
	return true;
}

enum ward_hello ward_http_host(const uint8_t *m, size_t len, char *name)
{
	size_t p = 0, hosts = 0;
	bool first = true;

	for (;;) {
		const uint8_t *eol = memchr(m + p, '\n', len - p);
		size_t n, colon;

		if (!eol)
			return len >= WARD_TLS_HELLO_MAX ? WARD_HELLO_INVALID
							 : WARD_HELLO_MORE;
		n = (size_t)(eol - (m + p));
		if (n == 0 || m[p + n - 1] != '\r')
			return WARD_HELLO_INVALID; /* CRLF only */
		n--;
		if (first) {
			if (!request_line(m + p, n))
				return WARD_HELLO_INVALID;
			first = false;
		} else if (n == 0) {
			return hosts == 1 ? WARD_HELLO_SNI
			       : hosts	  ? WARD_HELLO_INVALID
					  : WARD_HELLO_NO_SNI;
		} else {
			for (colon = 0; colon < n && tchar(m[p + colon]);
			     colon++)
				;
			if (colon == 0 || colon == n || m[p + colon] != ':')
				return WARD_HELLO_INVALID;
			if (colon == 4 &&
			    !strncasecmp((const char *)m + p, "host", 4)) {
				if (hosts++ ||
				    !host_value(m + p + 5, n - 5, name))
					return WARD_HELLO_INVALID;
			}
		}
		p += n + 2;
	}
}
