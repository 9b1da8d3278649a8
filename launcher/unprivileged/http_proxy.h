/* SPDX-License-Identifier: MIT */
/*
 * http_proxy.h: the reply of the upstream proxy of ward --upstream-proxy
 * (docs/spec.md 5.11; its address is upstream.h's) to the relay's
 * `CONNECT name:port`, read strictly and bounded: a status line "HTTP/1.0|1.1 SP 3DIGIT [SP
 * reason]" and header lines "name: value" (token names, printable values,
 * no folding), each ended by CRLF, then an empty line, all within
 * WARD_PROXY_REPLY_MAX bytes and WARD_PROXY_HEADERS lines. Only a 2xx
 * opens the tunnel; anything else ends the connection, on the record.
 */
#ifndef WARD_HTTP_PROXY_H
#define WARD_HTTP_PROXY_H

#include "upstream.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define WARD_PROXY_REPLY_MAX 4096  /* the reply's head, at most */
#define WARD_PROXY_HEADERS   64	   /* its header lines, at most */
#define WARD_PROXY_MS	     10000 /* connect, request and reply, at most */

enum ward_proxy_reply {
	WARD_PROXY_MORE,    /* no empty line yet, and room for one */
	WARD_PROXY_OK,	    /* a whole head: *head and *status set */
	WARD_PROXY_INVALID, /* not an HTTP reply head, or too long */
};

/* Read the reply head in m[0..len): on WARD_PROXY_OK, *head is its length
 * (the tunnel's bytes start after it) and *status its status code. */
enum ward_proxy_reply ward_proxy_reply(const uint8_t *m, size_t len,
				       size_t *head, unsigned *status);

#endif
