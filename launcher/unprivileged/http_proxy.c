/* SPDX-License-Identifier: MIT */
/*
 * http_proxy.c: the upstream proxy's address and its reply (http_proxy.h).
 */
#include "http_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

static struct {
	bool on;
	struct sockaddr_storage sa;
	socklen_t len;
	char text[WARD_PROXY_TEXT_MAX];
} proxy;

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

static int bad(ward_err *err, const char *hostport, const char *why)
{
	return ward_fail(err, 0,
			 "--upstream-proxy `%s`: %s (ADDR:PORT: a dotted IPv4 "
			 "address or [IPv6], and a port of 1 to 65535)",
			 hostport, why);
}

int ward_proxy_set(const char *hostport, ward_err *err)
{
	char host[INET6_ADDRSTRLEN + 1];
	const char *colon, *p;
	unsigned long port = 0;
	size_t hl;
	bool v6 = hostport[0] == '[';

	if (v6) {
		const char *end = strchr(hostport, ']');

		if (!end || end[1] != ':')
			return bad(err, hostport, "no `]:` after the address");
		hl = (size_t)(end - hostport - 1);
		colon = end + 1;
		p = hostport + 1;
	} else {
		colon = strrchr(hostport, ':');
		if (!colon)
			return bad(err, hostport, "no port");
		hl = (size_t)(colon - hostport);
		p = hostport;
	}
	if (hl == 0 || hl >= sizeof(host))
		return bad(err, hostport, "not an address");
	memcpy(host, p, hl);
	host[hl] = '\0';
	if (!colon[1] || colon[1] == '0' || strlen(colon + 1) > 5)
		return bad(err, hostport, "not a port");
	for (const char *c = colon + 1; *c; c++) {
		if (*c < '0' || *c > '9')
			return bad(err, hostport, "not a port");
		port = port * 10 + (unsigned long)(*c - '0');
	}
	if (port == 0 || port > 65535)
		return bad(err, hostport, "not a port");
	memset(&proxy.sa, 0, sizeof(proxy.sa));
	if (v6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&proxy.sa;

		if (inet_pton(AF_INET6, host, &s6->sin6_addr) != 1)
			return bad(err, hostport, "not an IPv6 address");
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		proxy.len = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&proxy.sa;

		if (inet_pton(AF_INET, host, &s4->sin_addr) != 1)
			return bad(err, hostport,
				   "not an address (a host name would need "
				   "the host's DNS: give its address)");
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		proxy.len = sizeof(*s4);
	}
	inet_ntop(
	    proxy.sa.ss_family,
	    v6 ? (const void *)&((struct sockaddr_in6 *)&proxy.sa)->sin6_addr
	       : (const void *)&((struct sockaddr_in *)&proxy.sa)->sin_addr,
	    host, sizeof(host));
	snprintf(proxy.text, sizeof(proxy.text), v6 ? "[%s]:%lu" : "%s:%lu",
		 host, port);
	proxy.on = true;
	return 0;
}

bool ward_proxy_on(void)
{
	return proxy.on;
}

const struct sockaddr_storage *ward_proxy_addr(socklen_t *len)
{
	*len = proxy.len;
	return proxy.on ? &proxy.sa : NULL;
}

const char *ward_proxy_text(void)
{
	return proxy.on ? proxy.text : NULL;
}
