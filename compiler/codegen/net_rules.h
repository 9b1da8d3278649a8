/* SPDX-License-Identifier: MIT */
/*
 * net_rules.h: what the network mode adds to the rule table (docs/spec.md
 * 5.3), for net_apply.c.
 *
 * Every rule added here can only take permissions away, or route a call
 * the policy allows through the launcher's socket broker; none allows what
 * the policy refuses:
 *
 *   socket()     narrowed to AF_UNIX and to IPv4/IPv6 TCP and UDP (the
 *                sandbox's own namespace: loopback only), refused with
 *                EAFNOSUPPORT otherwise; every refusal of socket(), the
 *                policy's own included, is recorded as a network attempt
 *   connect()    what the policy allows goes through the broker (with an
 *                allow-list, or when the policy allows IP sockets: then a
 *                connect elsewhere than the sandbox's loopback is recorded)
 *   sendto()     with an address, the same
 *   allow-list   also refused, and recorded: MSG_FASTOPEN on sendto,
 *                sendmsg, sendmmsg (a connect the broker would not see);
 *                the IP options and IPv6 routing headers that would send a
 *                brokered connection's packets elsewhere; and a policy that
 *                allows io_uring is an error (its operations do not pass
 *                through the seccomp program, hence not the broker)
 */
#ifndef WARD_NET_RULES_H
#define WARD_NET_RULES_H

#include "diag.h"
#include "pool.h"
#include "sema.h"

struct ward_net_rules_ctx {
	struct ward_pool *pool;
	struct ward_policy *p;
	struct ward_provenance *where;
	struct ward_diags *d;
	uint32_t scmp_arch; /* SCMP_ARCH_* of p->arch */
};

/* socket() narrowed; its refusals recorded. */
void ward_net_narrow_socket(struct ward_net_rules_ctx *x);

/* connect() and sendto() through the broker, and, with an allow-list, the
 * refusals that keep a brokered socket where the broker connected it. */
void ward_net_broker_rules(struct ward_net_rules_ctx *x);

#endif
