/* SPDX-License-Identifier: MIT */
/*
 * test_http_proxy.c: ward --upstream-proxy (launcher/unprivileged/
 * http_proxy.c, docs/spec.md 5.11): the proxy's address read strictly, and
 * its reply to CONNECT: a good head read at every split (its length exact:
 * the tunnel's bytes after it are not its), each way of not being one
 * refused, and the bounds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "http_proxy.h"
#include "net.h"
#include "policy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

static enum ward_proxy_reply reply(const char *m, size_t *head,
				   unsigned *status)
{
	return ward_proxy_reply((const uint8_t *)m, strlen(m), head, status);
}

static void good_heads(void **state)
{
	static const struct {
		const char *m;
		unsigned status;
	} ok[] = {
	    {"HTTP/1.1 200 Connection established\r\n\r\n", 200},
	    {"HTTP/1.0 200\r\n\r\n", 200},
	    {"HTTP/1.1 200 OK\r\nProxy-Agent: squid/6\r\nVia: 1.1 p\r\n\r\n",
	     200},
	    {"HTTP/1.1 204 \r\nX-Empty:\r\n\r\n", 204},
	    {"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", 403},
	    {"HTTP/1.1 407 Proxy Authentication Required\r\n"
	     "Proxy-Authenticate: Basic realm=\"x\"\r\n\r\n",
	     407},
	};
	size_t head;
	unsigned status;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		size_t n = strlen(ok[i].m);
		char m[512];

		/* the tunnel's first bytes right behind it */
		snprintf(m, sizeof(m), "%s\x16\x03\x01", ok[i].m);
		head = 0;
		if (reply(m, &head, &status) != WARD_PROXY_OK)
			fail_msg("refused: %s", ok[i].m);
		assert_int_equal(head, n);
		assert_int_equal(status, ok[i].status);
		/* every split short of the whole head asks for more */
		for (size_t k = 0; k < n; k++)
			if (ward_proxy_reply((const uint8_t *)ok[i].m, k, &head,
					     &status) != WARD_PROXY_MORE)
				fail_msg("%zu bytes of %s: not MORE", k,
					 ok[i].m);
	}
}

static void bad_heads(void **state)
{
	static const char *const bad[] = {
	    "HTTP/2 200\r\n\r\n",
	    "HTTP/1.2 200 OK\r\n\r\n",
	    "http/1.1 200 OK\r\n\r\n",
	    "HTTP/1.1  200 OK\r\n\r\n",
	    "HTTP/1.1 20 OK\r\n\r\n",
	    "HTTP/1.1 2000 OK\r\n\r\n",
	    "HTTP/1.1 099 Low\r\n\r\n",
	    "HTTP/1.1 200OK\r\n\r\n",
	    "HTTP/1.1 200 OK\n\n",
	    "HTTP/1.1 200 OK\r\n\n",
	    "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nName : space before the colon\r\n\r\n",
	    "HTTP/1.1 200 OK\r\n folded: line\r\n\r\n",
	    "HTTP/1.1 200 OK\r\n: no name\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nA: bare\rcr\r\n\r\n",
	    "HTTP/1.1 200 O\x01K\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nA: del\x7f\r\n\r\n",
	    "SSH-2.0-OpenSSH\r\n\r\n",
	};
	size_t head;
	unsigned status;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (reply(bad[i], &head, &status) != WARD_PROXY_INVALID)
			fail_msg("taken: %s", bad[i]);
	/* a NUL in a header is no printable byte */
	static const uint8_t nul[] = "HTTP/1.1 200 OK\r\nA: \0\r\n\r\n";
	assert_int_equal(ward_proxy_reply(nul, sizeof(nul) - 1, &head, &status),
			 WARD_PROXY_INVALID);
}

static void bounds(void **state)
{
	static uint8_t m[WARD_PROXY_REPLY_MAX + 64];
	size_t n = 0, head;
	unsigned status;

	(void)state;
	/* a head that does not end within the bound */
	n = (size_t)snprintf((char *)m, sizeof(m), "HTTP/1.1 200 OK\r\n");
	while (n + 8 < sizeof(m)) {
		memcpy(m + n, "A: b\r\n", 6);
		n += 6;
	}
	assert_int_equal(
	    ward_proxy_reply(m, WARD_PROXY_REPLY_MAX - 1, &head, &status),
	    WARD_PROXY_INVALID); /* too many header lines */
	/* one long header line: more until the bound, then refused */
	n = (size_t)snprintf((char *)m, sizeof(m), "HTTP/1.1 200 OK\r\nA: ");
	memset(m + n, 'x', sizeof(m) - n);
	assert_int_equal(
	    ward_proxy_reply(m, WARD_PROXY_REPLY_MAX - 1, &head, &status),
	    WARD_PROXY_MORE);
	assert_int_equal(ward_proxy_reply(m, sizeof(m), &head, &status),
			 WARD_PROXY_INVALID);
	/* 64 header lines are fine, 65 are not */
	n = (size_t)snprintf((char *)m, sizeof(m), "HTTP/1.1 200 OK\r\n");
	for (int i = 0; i < WARD_PROXY_HEADERS; i++) {
		memcpy(m + n, "A: b\r\n", 6);
		n += 6;
	}
	memcpy(m + n, "\r\n", 2);
	assert_int_equal(ward_proxy_reply(m, n + 2, &head, &status),
			 WARD_PROXY_OK);
	assert_int_equal(head, n + 2);
	memcpy(m + n, "A: b\r\n\r\n", 8);
	assert_int_equal(ward_proxy_reply(m, n + 8, &head, &status),
			 WARD_PROXY_INVALID);
}

static void addresses(void **state)
{
	static const char *const bad[] = {
	    "10.0.0.1",	       "10.0.0.1:",
	    "10.0.0.1:0",      "10.0.0.1:65536",
	    "10.0.0.1:+80",    "10.0.0.1:080",
	    "10.0.0.1:80x",    "proxy.example:3128",
	    ":3128",	       "[::1]",
	    "[::1]3128",       "[::1:3128",
	    "::1:3128",	       "[10.0.0.1]:3128",
	    "10.0.0.256:3128", "10.0.0.1:1234567",
	};
	socklen_t len;
	ward_err err = {0};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (ward_proxy_set(bad[i], &err) != -1)
			fail_msg("taken: %s", bad[i]);
	assert_false(ward_proxy_on());
	assert_null(ward_proxy_text());
	assert_non_null(strstr(err.msg, "--upstream-proxy `10.0.0.1:1234567`"));

	assert_int_equal(ward_proxy_set("[2001:DB8::1]:8080", &err), 0);
	assert_true(ward_proxy_on());
	assert_string_equal(ward_proxy_text(), "[2001:db8::1]:8080");
	const struct sockaddr_in6 *s6 =
	    (const struct sockaddr_in6 *)ward_proxy_addr(&len);
	assert_int_equal(s6->sin6_family, AF_INET6);
	assert_int_equal(ntohs(s6->sin6_port), 8080);
	assert_int_equal(len, sizeof(*s6));

	assert_int_equal(ward_proxy_set("192.0.2.7:3128", &err), 0);
	assert_string_equal(ward_proxy_text(), "192.0.2.7:3128");
	const struct sockaddr_in *s4 =
	    (const struct sockaddr_in *)ward_proxy_addr(&len);
	assert_int_equal(s4->sin_family, AF_INET);
	assert_int_equal(ntohs(s4->sin_port), 3128);
	assert_int_equal(s4->sin_addr.s_addr, htonl(0xc0000207));
}

/* Through the proxy the stub's own addresses are 198.18.0.0/15's: a
 * literal rule reaching into it, in either form, is refused. */
static void synthetic_network_kept_apart(void **state)
{
	struct ward_net_name name = {.name = "index.test"};
	struct ward_net_rule r = {.proto = 6, .family = 4, .prefix = 32};
	struct ward_net net = {
	    .rules = &r, .nrules = 1, .names = &name, .nnames = 1};
	static const struct {
		uint8_t family, prefix, addr[16];
		bool refused;
	} cases[] = {
	    {4, 32, {198, 18, 0, 5}, true},
	    {4, 32, {198, 19, 255, 254}, true},
	    {4, 8, {198}, true},	     /* holds it */
	    {4, 0, {0}, true},		     /* 0.0.0.0/0 */
	    {4, 32, {198, 20, 0, 1}, false}, /* just past it */
	    {4, 32, {198, 17, 255, 255}, false},
	    {4, 16, {203, 0, 113}, false},
	    {6, 128, {[10] = 0xff, 0xff, 198, 18, 0, 1}, true}, /* mapped */
	    {6, 0, {0}, true},					/* ::/0 */
	    {6, 32, {0x20, 0x01, 0x0d, 0xb8}, false},
	};
	ward_err err = {0};

	(void)state;
	assert_int_equal(ward_proxy_set("192.0.2.7:3128", &err), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r.family = cases[i].family;
		r.prefix = cases[i].prefix;
		memcpy(r.addr, cases[i].addr, 16);
		if ((ward_net_check_proxy(&net, ward_proxy_text(), &err) < 0) !=
		    cases[i].refused)
			fail_msg("case %zu", i);
	}
	r.family = 4;
	r.prefix = 32;
	memcpy(r.addr, (uint8_t[16]){198, 18, 0, 5}, 16);
	assert_int_equal(ward_net_check_proxy(&net, ward_proxy_text(), &err),
			 -1);
	assert_non_null(strstr(err.msg, "198.18.0.0/15"));
	/* without names the stub answers nothing: nothing to keep apart */
	net.nnames = 0;
	assert_int_equal(ward_net_check_proxy(&net, ward_proxy_text(), &err),
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(good_heads),
	    cmocka_unit_test(bad_heads),
	    cmocka_unit_test(bounds),
	    cmocka_unit_test(addresses),
	    cmocka_unit_test(synthetic_network_kept_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
