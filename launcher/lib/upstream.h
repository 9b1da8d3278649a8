/* SPDX-License-Identifier: MIT */
/*
 * upstream.h: what the broker asks outside the sandbox, set up by the
 * supervisor as root before the broker is made (it inherits both): the
 * upstream proxy of ward --upstream-proxy (docs/spec.md 5.11), parsed from
 * the command line, and the socket to the host's resolver, from
 * /etc/resolv.conf. Here, in the privileged core, because root runs it;
 * the proxy's replies are the broker's to read (http_proxy.h).
 */
#ifndef WARD_UPSTREAM_H
#define WARD_UPSTREAM_H

#include "util.h"

#include <stdbool.h>
#include <sys/socket.h>

#define WARD_PROXY_TEXT_MAX 64 /* "[v6]:port" and its NUL */

/* The proxy, from `ADDR:PORT` (a dotted IPv4 address, or `[IPv6]`; a
 * port of 1 to 65535, decimal, no sign or leading zero): set once, before
 * the broker is made (it inherits it). 0, or -1 with err (a usage error). */
int ward_proxy_set(const char *hostport, ward_err *err);

/* Is one set? Its address, and "ADDR:PORT" as given (normalised) for the
 * report; NULL when none. */
bool ward_proxy_on(void);
const struct sockaddr_storage *ward_proxy_addr(socklen_t *len);
const char *ward_proxy_text(void);

/* A UDP socket connected to the host's resolver, made before the broker
 * drops anything (and, root mode, before it enters the cgroup the
 * programs are attached to: its queries are the broker's, not the
 * sandbox's). The descriptor, or -1 with err. */
int ward_dns_upstream_open(ward_err *err);

#endif
