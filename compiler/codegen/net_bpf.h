/* SPDX-License-Identifier: MIT */
/*
 * net_bpf.h: an egress allow-list compiled for the kernel: the eBPF
 * programs that the launcher attaches to the run's cgroup, and the contents
 * of the maps they read (common/net_layout.h, docs/spec.md part 5).
 *
 * The programs are the same for every policy; the allow-list is data:
 * one LPM trie per address family whose value, for every network a rule
 * names, lists the port ranges allowed there per protocol (the union over
 * every rule whose network contains it, so that the longest-prefix match
 * is the only lookup). An IPv4-mapped IPv6 destination (::ffff:a.b.c.d) is
 * the IPv4 destination it maps: IPv6 rules that cover mapped addresses are
 * entered in the IPv4 trie too.
 */
#ifndef WARD_NET_BPF_H
#define WARD_NET_BPF_H

#include "policy.h"
#include "pool.h"
#include "util.h"

/*
 * Fill out (allocated in pool) for an allow-list net (mode ALLOWLIST, rules
 * sorted and unique as sema_net leaves them). Fails when a network would
 * need more port ranges per protocol than a map value holds
 * (WARD_NET_PORT_SLOTS): *bad_rule is then the index of a rule involved.
 */
int ward_net_bpf_build(struct ward_pool *pool, const struct ward_net *net,
		       struct ward_net_bpf *out, uint32_t *bad_rule,
		       ward_err *err);

/* Does the compiled trie of family (4 or 6) allow proto to addr:port? An
 * evaluator of the map contents, for tests and explain: the programs give
 * the same answer (a mapped IPv6 address is looked up as IPv4). */
bool ward_net_bpf_allows(const struct ward_net_bpf *b, uint8_t family,
			 const uint8_t addr[16], uint8_t proto, uint16_t port);

#endif
