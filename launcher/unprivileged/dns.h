/* SPDX-License-Identifier: MIT */
/*
 * dns.h: the sandbox's DNS stub (docs/spec.md 5.11), served by the broker.
 *
 * The sandbox's resolv.conf names 127.0.0.53, where init bound a UDP
 * socket on the sandbox's own loopback and handed it to the broker. A
 * query for a name the policy allows (an exact name, or one a wildcard
 * covers) is asked again, A or AAAA only, of the host's resolver (the
 * first `nameserver` of /etc/resolv.conf in the namespace ward started
 * in), and the addresses of its answer are passed back and learned: for
 * their TTL (at least WARD_DNS_TTL_FLOOR, at most WARD_DNS_TTL_CEIL
 * seconds) a TCP connect to one of them, on a port a rule of that name
 * allows, is an allowed destination (ward_dns_learned). Any other name
 * gets NXDOMAIN; an address the answer names in loopback, link-local
 * (169.254.0.0/16, fe80::/10: the metadata services), unspecified or
 * multicast space is never passed back nor learned. Every query is
 * recorded (facts.h: struct ward_dns_record).
 */
#ifndef WARD_DNS_H
#define WARD_DNS_H

#include "sockaddr.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>

struct ward_broker;

#define WARD_DNS_TTL_FLOOR   5	  /* seconds: a TTL 0 still serves a connect */
#define WARD_DNS_TTL_CEIL    300  /* seconds: an address is asked again */
#define WARD_DNS_UPSTREAM_MS 2000 /* the host's resolver's time to answer */

/* The stub's socket is readable: answer what it holds. */
void ward_dns_serve(struct ward_broker *b);

/* Did an answer of this run give a->addr for a name whose rules allow TCP
 * to a->port, and is its time still running? */
bool ward_dns_learned(const struct ward_broker *b, const struct ward_addr *a,
		      const char **name);

/* The same, for the name asked (lower case, no trailing dot) only: is
 * name one whose answer gave a->addr, its rules allowing a->port? (The
 * relay's check of a TLS server name, relay.h.) */
bool ward_dns_learned_as(const struct ward_broker *b, const struct ward_addr *a,
			 const char *name);

#endif
