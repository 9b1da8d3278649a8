/* SPDX-License-Identifier: MIT */
/*
 * http_host.h: the Host of the first plain HTTP request a sandbox's
 * program sends on port 80 of a name rule (docs/spec.md 5.11), for the
 * relay (relay.h), read strictly: a request line "METHOD SP /target SP
 * HTTP/1.x" (origin form only: an absolute URL or CONNECT names another
 * server), header lines, exactly one Host of a name of letters, digits,
 * '-' and '.' (an optional ":port" of digits), all within
 * WARD_TLS_HELLO_MAX bytes.
 */
#ifndef WARD_HTTP_HOST_H
#define WARD_HTTP_HOST_H

#include "tls_hello.h"

/* As ward_tls_hello: WARD_HELLO_SNI with the Host in name, MORE,
 * NO_SNI (no Host) or INVALID. */
enum ward_hello ward_http_host(const uint8_t *m, size_t len, char *name);

#endif
