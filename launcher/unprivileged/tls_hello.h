/* SPDX-License-Identifier: MIT */
/*
 * tls_hello.h: the server name of a TLS ClientHello (docs/spec.md 5.11),
 * read strictly from the first bytes a sandbox's program sends on a TLS
 * port of a name rule, for the relay (relay.h).
 *
 * Only what a ClientHello must be is accepted: one handshake record
 * (content type 22, version 3.x, at most 16384 bytes) holding the whole
 * ClientHello (a handshake fragmented over records is refused), every
 * length inside its container exactly, the extensions' list ending the
 * message, no extension twice, a server_name extension with exactly one
 * host_name of 1 to 253 bytes of letters, digits, '-' and '.'. An
 * encrypted ClientHello (extension 0xfe0d) is refused: its outer name is
 * not the one the program reaches.
 */
#ifndef WARD_TLS_HELLO_H
#define WARD_TLS_HELLO_H

#include <stddef.h>
#include <stdint.h>

#define WARD_TLS_HELLO_MAX (16384 + 5) /* one record and its header */

enum ward_hello {
	WARD_HELLO_MORE = 0,	/* not all of it yet */
	WARD_HELLO_SNI = 1,	/* read; the server name in name */
	WARD_HELLO_NO_SNI = 2,	/* a ClientHello without a server name */
	WARD_HELLO_ECH = 3,	/* an encrypted ClientHello */
	WARD_HELLO_INVALID = 4, /* not a ClientHello as above */
};

/* The first len bytes of the stream. name: lower case, no trailing dot,
 * at least 254 bytes. */
enum ward_hello ward_tls_hello(const uint8_t *m, size_t len, char *name);

#endif
