/* SPDX-License-Identifier: MIT */
/*
 * test_tls_hello.c: the relay's reading of a ClientHello's server name
 * (launcher/unprivileged/tls_hello.c, docs/spec.md 5.11): a good one read
 * at every split, and each way of not being one refused; the same for a
 * plain HTTP request's Host (http_host.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "http_host.h"
#include "tls_hello.h"

#include <stdbool.h>
#include <string.h>

struct buf {
	uint8_t b[WARD_TLS_HELLO_MAX + 64];
	size_t n;
};

static void put(struct buf *m, const void *p, size_t n)
{
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static void put_n(struct buf *m, size_t v, size_t k)
{
	for (size_t i = k; i-- > 0;)
		m->b[m->n++] = (uint8_t)(v >> (8 * i));
}

/* An extension of type t with the server_name body for name (two
 * host_names if two). */
static void sni_ext(struct buf *m, const char *name, bool two)
{
	size_t l = strlen(name), one = 3 + l, list = two ? 2 * one : one;

	put_n(m, 0, 2);
	put_n(m, 2 + list, 2);
	put_n(m, list, 2);
	for (int i = 0; i < (two ? 2 : 1); i++) {
		put_n(m, 0, 1);
		put_n(m, l, 2);
		put(m, name, l);
	}
}

enum { PLAIN, ECH, DUP, TWO_NAMES };

/* A ClientHello record: name (NULL: no server_name), and a variant. */
static struct buf hello(const char *name, int how)
{
	struct buf e = {0}, h = {0}, m = {0};
	uint8_t random[32] = {0};

	put_n(&e, 0x000a, 2); /* supported_groups, 4 bytes */
	put_n(&e, 4, 2);
	put_n(&e, 2, 2);
	put_n(&e, 0x001d, 2);
	if (name)
		sni_ext(&e, name, how == TWO_NAMES);
	if (how == DUP)
		sni_ext(&e, "index.test", false);
	if (how == ECH) {
		put_n(&e, 0xfe0d, 2);
		put_n(&e, 1, 2);
		put_n(&e, 0, 1);
	}
	put_n(&h, 0x0303, 2);
	put(&h, random, 32);
	put_n(&h, 0, 1); /* session id */
	put_n(&h, 2, 2); /* one cipher suite */
	put_n(&h, 0x1301, 2);
	put_n(&h, 1, 1); /* one compression method */
	put_n(&h, 0, 1);
	put_n(&h, e.n, 2);
	put(&h, e.b, e.n);
	put_n(&m, 22, 1);
	put_n(&m, 0x0301, 2);
	put_n(&m, h.n + 4, 2);
	put_n(&m, 1, 1);
	put_n(&m, h.n, 3);
	put(&m, h.b, h.n);
	return m;
}

static void good_at_every_split(void **state)
{
	struct buf m = hello("Index.Test.", PLAIN);
	char name[256];

	(void)state;
	for (size_t i = 0; i < m.n; i++)
		assert_int_equal(ward_tls_hello(m.b, i, name), WARD_HELLO_MORE);
	assert_int_equal(ward_tls_hello(m.b, m.n, name), WARD_HELLO_SNI);
	assert_string_equal(name, "index.test");
	/* Bytes after the record (early data) are the stream's, unread. */
	m.b[m.n++] = 23;
	assert_int_equal(ward_tls_hello(m.b, m.n, name), WARD_HELLO_SNI);
}

static void expect(const char *name, int how, enum ward_hello want)
{
	struct buf m = hello(name, how);
	char got[256];

	assert_int_equal(ward_tls_hello(m.b, m.n, got), want);
}

static void refused(void **state)
{
	struct buf m;
	char name[256];

	(void)state;
	expect(NULL, PLAIN, WARD_HELLO_NO_SNI);
	expect("index.test", ECH, WARD_HELLO_ECH);
	expect("other.test", DUP, WARD_HELLO_INVALID);
	expect("index.test", TWO_NAMES, WARD_HELLO_INVALID);
	expect("in dex.test", PLAIN, WARD_HELLO_INVALID);
	expect("index.test\x01x", PLAIN, WARD_HELLO_INVALID);
	/* Not a handshake record; an HTTP request. */
	m = hello("index.test", PLAIN);
	m.b[0] = 23;
	assert_int_equal(ward_tls_hello(m.b, m.n, name), WARD_HELLO_INVALID);
	assert_int_equal(
	    ward_tls_hello((const uint8_t *)"GET / HTTP/1.1", 14, name),
	    WARD_HELLO_INVALID);
	/* A handshake length that is not the record's. */
	m = hello("index.test", PLAIN);
	m.b[8]++;
	assert_int_equal(ward_tls_hello(m.b, m.n, name), WARD_HELLO_INVALID);
	/* The extensions' length one more than there is. */
	m = hello("index.test", PLAIN);
	m.b[5 + 4 + 2 + 32 + 1 + 4 + 2 + 1]++;
	assert_int_equal(ward_tls_hello(m.b, m.n, name), WARD_HELLO_INVALID);
	/* A record longer than TLS allows. */
	m = hello("index.test", PLAIN);
	m.b[3] = 0x40;
	m.b[4] = 0x01;
	assert_int_equal(ward_tls_hello(m.b, 5, name), WARD_HELLO_INVALID);
}

static enum ward_hello http(const char *req, char *name)
{
	return ward_http_host((const uint8_t *)req, strlen(req), name);
}

static void http_host(void **state)
{
	static const char good[] = "GET /simple/ HTTP/1.1\r\nAccept: */*\r\n"
				   "HOST:  Index.Test.:80 \r\n\r\n";
	char name[256];

	(void)state;
	for (size_t i = 0; i < sizeof(good) - 1; i++)
		assert_int_equal(ward_http_host((const uint8_t *)good, i, name),
				 WARD_HELLO_MORE);
	assert_int_equal(http(good, name), WARD_HELLO_SNI);
	assert_string_equal(name, "index.test");
	assert_int_equal(http("GET / HTTP/1.1\r\nA: b\r\n\r\n", name),
			 WARD_HELLO_NO_SNI);
	assert_int_equal(
	    http("GET / HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\n\r\n",
		 name),
	    WARD_HELLO_INVALID);
	assert_int_equal(
	    http("GET http://other.test/ HTTP/1.1\r\nHost: index.test\r\n\r\n",
		 name),
	    WARD_HELLO_INVALID);
	assert_int_equal(http("CONNECT other.test:443 HTTP/1.1\r\nHost: "
			      "index.test\r\n\r\n",
			      name),
			 WARD_HELLO_INVALID);
	assert_int_equal(http("GET / HTTP/1.1\nHost: index.test\n\n", name),
			 WARD_HELLO_INVALID);
	assert_int_equal(
	    http("GET / HTTP/1.1\r\nHost: index.test:x\r\n\r\n", name),
	    WARD_HELLO_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(good_at_every_split),
	    cmocka_unit_test(refused),
	    cmocka_unit_test(http_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
