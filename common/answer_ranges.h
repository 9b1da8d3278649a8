/* SPDX-License-Identifier: MIT */
/*
 * answer_ranges.h: the networks a DNS answer must never make reachable
 * (docs/spec.md 5.11). The compiler decides the list a blob carries (the
 * fixed ranges, the private ones unless `allow answers` names them, and
 * the IPv6 forms that embed an IPv4 range); the blob reader checks the
 * fixed ones are in it; the broker only looks an answer's address up in
 * it. Shared so that all three mean the same networks.
 */
#ifndef WARD_ANSWER_RANGES_H
#define WARD_ANSWER_RANGES_H

#include "policy.h"

#include <stdbool.h>
#include <stddef.h>

/* Never reachable through a name, whatever the policy says: unspecified
 * (0/8, ::/96 with ::1 and the IPv4-compatible forms), loopback
 * (127/8), link-local (169.254/16, where the metadata services live;
 * fe80::/10), multicast, reserved and broadcast (224/3, ff00::/8). */
extern const struct ward_net_prefix ward_answers_fixed[];
extern const size_t ward_answers_nfixed;

/* Refused unless the policy allows them by `allow answers`: 10/8,
 * 100.64/10 (carrier-grade NAT), 172.16/12, 192.168/16, fc00::/7. */
extern const struct ward_net_prefix ward_answers_private[];
extern const size_t ward_answers_nprivate;

/* The IPv6 forms that carry an IPv4 network v4 to the same hosts (the
 * IPv4-mapped ::ffff:0:0/96, NAT64's 64:ff9b::/96, 6to4's 2002::/16),
 * into out; how many (3). */
#define WARD_ANSWERS_EMBED 3
size_t ward_prefix_embed(const struct ward_net_prefix *v4,
			 struct ward_net_prefix out[WARD_ANSWERS_EMBED]);

/* Is p one of those IPv6 forms of an IPv4 network (inside ::ffff:0:0/96,
 * 64:ff9b::/96 or 2002::/16)? explain and diff leave them out: they
 * follow from the IPv4 networks. */
bool ward_prefix_is_embedded(const struct ward_net_prefix *p);

/* Is addr (family 4 or 6) inside p? */
bool ward_prefix_has(const struct ward_net_prefix *p, uint8_t family,
		     const uint8_t addr[16]);

/* Is inner wholly inside outer? */
bool ward_prefix_covers(const struct ward_net_prefix *outer,
			const struct ward_net_prefix *inner);

/* p less the holes, as networks into out (at most max of them): how
 * many it takes, which may be more than max. Networks nest or are
 * disjoint, so p is inside a hole, clear of all, or split to look again. */
size_t ward_prefix_subtract(const struct ward_net_prefix *p,
			    const struct ward_net_prefix *holes, size_t nholes,
			    struct ward_net_prefix *out, size_t max);

/* The private networks answers may lead to in this policy (what `allow
 * answers` opened): the private ranges less the refused ones. */
size_t ward_answers_opened(const struct ward_net *net,
			   struct ward_net_prefix *out, size_t max);

/* Is an answer's address inside one of the blob's refused ranges? */
bool ward_answer_refused(const struct ward_net *net, uint8_t family,
			 const uint8_t addr[16]);

#endif
