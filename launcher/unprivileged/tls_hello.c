/* SPDX-License-Identifier: MIT */
/*
 * tls_hello.c: the server name of a ClientHello (tls_hello.h). Every read
 * is checked against the end of its container before it is made.
 */
#include "tls_hello.h"

#include <stdbool.h>
#include <string.h>

#define EXT_SNI 0x0000
#define EXT_ECH 0xfe0d

struct cur {
	const uint8_t *p;
	size_t n; /* bytes left */
};

static bool take(struct cur *c, size_t k, struct cur *out)
{
	if (c->n < k)
		return false;
	if (out)
		*out = (struct cur){c->p, k};
	c->p += k;
	c->n -= k;
	return true;
}

static bool num(struct cur *c, size_t k, size_t *v)
{
	struct cur b;

	if (!take(c, k, &b))
		return false;
	*v = 0;
	for (size_t i = 0; i < k; i++)
		*v = (*v << 8) | b.p[i];
	return true;
}

/* A vector: its length in k bytes, then that many bytes. */
static bool vec(struct cur *c, size_t k, struct cur *out)
{
	size_t len;

	return num(c, k, &len) && take(c, len, out);
}

static enum ward_hello host_name(struct cur c, char *name)
{
	struct cur list, host;
	size_t type, len;

	if (!vec(&c, 2, &list) || c.n != 0 || !num(&list, 1, &type) ||
	    type != 0 || !vec(&list, 2, &host) || list.n != 0)
		return WARD_HELLO_INVALID;
	len = host.n;
	if (len && host.p[len - 1] == '.')
		len--;
	if (len == 0 || len > 253)
		return WARD_HELLO_INVALID;
	for (size_t i = 0; i < len; i++) {
		char ch = (char)host.p[i];

		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		      ch == '-' || ch == '.'))
			return WARD_HELLO_INVALID;
		name[i] = ch;
	}
	name[len] = '\0';
	return WARD_HELLO_SNI;
}

static enum ward_hello extensions(struct cur exts, char *name)
{
	/* No type twice (a second server name would be read by one side
	 * and not the other); more than 64 extensions is not a real
	 * ClientHello. */
	uint16_t seen[64];
	size_t nseen = 0;
	enum ward_hello r = WARD_HELLO_NO_SNI;

	while (exts.n) {
		struct cur body;
		size_t type;

		if (!num(&exts, 2, &type) || !vec(&exts, 2, &body) ||
		    nseen == 64)
			return WARD_HELLO_INVALID;
		for (size_t i = 0; i < nseen; i++)
			if (seen[i] == type)
				return WARD_HELLO_INVALID;
		seen[nseen++] = (uint16_t)type;
		if (type == EXT_ECH)
			return WARD_HELLO_ECH;
		if (type == EXT_SNI &&
		    (r = host_name(body, name)) != WARD_HELLO_SNI)
			return r;
	}
	return r;
}

enum ward_hello ward_tls_hello(const uint8_t *m, size_t len, char *name)
{
	struct cur c = {m, len}, rec, hs, body, skip;
	size_t type, major, minor, rlen, hlen, v;

	/* The record's header first: the bytes it says must all come. */
	if (len < 5)
		return len >= 1 && m[0] != 22 ? WARD_HELLO_INVALID
					      : WARD_HELLO_MORE;
	num(&c, 1, &type);
	num(&c, 1, &major);
	num(&c, 1, &minor);
	num(&c, 2, &rlen);
	if (type != 22 || major != 3 || minor > 4 || rlen < 4 || rlen > 16384)
		return WARD_HELLO_INVALID;
	if (c.n < rlen)
		return WARD_HELLO_MORE;
	take(&c, rlen, &rec); /* what follows it is relayed unread */
	if (!num(&rec, 1, &type) || type != 1 || !num(&rec, 3, &hlen) ||
	    hlen != rec.n || !take(&rec, hlen, &hs))
		return WARD_HELLO_INVALID; /* fragmented, or not a hello */
	/* version, random, session id, cipher suites, compression. */
	if (!num(&hs, 2, &v) || (v >> 8) != 3 || !take(&hs, 32, NULL) ||
	    !vec(&hs, 1, &skip) || skip.n > 32 || !vec(&hs, 2, &skip) ||
	    skip.n < 2 || skip.n % 2 || !vec(&hs, 1, &skip) || skip.n < 1)
		return WARD_HELLO_INVALID;
	if (hs.n == 0)
		return WARD_HELLO_NO_SNI; /* no extensions at all */
	if (!vec(&hs, 2, &body) || hs.n != 0)
		return WARD_HELLO_INVALID;
	return extensions(body, name);
}
