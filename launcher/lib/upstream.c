/* SPDX-License-Identifier: MIT */
/*
 * upstream.c: see upstream.h.
 */
#include "upstream.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct {
	bool on;
	struct sockaddr_storage sa;
	socklen_t len;
	char text[WARD_PROXY_TEXT_MAX];
} proxy;

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

int ward_dns_upstream_open(ward_err *err)
{
	struct sockaddr_storage ss = {0};
	struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
	char line[256], ns[64] = "127.0.0.1"; /* glibc's default */
	FILE *f = fopen("/etc/resolv.conf", "re");
	int s;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " nameserver %63s", ns) == 1)
			break;
	if (f)
		fclose(f);
	if (inet_pton(AF_INET, ns, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(53);
	} else if (inet_pton(AF_INET6, ns, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(53);
	} else {
		return ward_fail(err, 0,
				 "the DNS stub: /etc/resolv.conf's nameserver "
				 "`%s` is not an address",
				 ns);
	}
	s = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		return ward_fail(err, errno, "the DNS stub: socket");
	if (connect(s, (struct sockaddr *)&ss,
		    ss.ss_family == AF_INET ? sizeof(*v4) : sizeof(*v6)) < 0) {
		int e = errno;

		close(s);
		return ward_fail(err, e, "the DNS stub: connect to %s", ns);
	}
	return s;
}
