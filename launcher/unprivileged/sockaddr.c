/* SPDX-License-Identifier: MIT */
/*
 * sockaddr.c: see sockaddr.h.
 */
#include "sockaddr.h"

#include "notif.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

void ward_addr_decode(struct ward_addr *a)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0,    0,
					   0, 0, 0, 0, 0xff, 0xff};
	sa_family_t fam;

	a->family = 0;
	a->port = 0;
	memset(a->addr, 0, sizeof(a->addr));
	a->sa_family = -1;
	if (a->len < sizeof(sa_family_t))
		return;
	memcpy(&fam, &a->raw, sizeof(fam));
	a->sa_family = fam;
	/* The lengths the kernel's inet connects require. */
	if (fam == AF_INET && a->len >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const void *)&a->raw;

		a->family = 4;
		memcpy(a->addr, &in->sin_addr, 4);
		a->port = ntohs(in->sin_port);
	} else if (fam == AF_INET6 && a->len >= 24 /* SIN6_LEN_RFC2133 */) {
		const struct sockaddr_in6 *in6 = (const void *)&a->raw;

		a->port = ntohs(in6->sin6_port);
		if (!memcmp(&in6->sin6_addr, mapped, sizeof(mapped))) {
			a->family = 4;
			memcpy(a->addr, (const uint8_t *)&in6->sin6_addr + 12,
			       4);
		} else {
			a->family = 6;
			memcpy(a->addr, &in6->sin6_addr, 16);
		}
	}
}

int ward_addr_copy(pid_t tid, uint64_t ptr, uint64_t len, struct ward_addr *a)
{
	memset(a, 0, sizeof(*a));
	/* The kernel's move_addr_to_kernel(): a socklen_t, at most a
	 * struct sockaddr_storage. */
	if ((uint32_t)len > sizeof(a->raw))
		return EINVAL;
	a->len = (socklen_t)(uint32_t)len;
	if (ward_task_read(tid, ptr, &a->raw, a->len) < 0)
		return errno == ESRCH ? ESRCH : EFAULT;
	ward_addr_decode(a);
	return 0;
}

bool ward_addr_local(const struct ward_addr *a)
{
	static const uint8_t zero[16], one6[16] = {[15] = 1};

	if (a->family == 4)
		return a->addr[0] == 127 || !memcmp(a->addr, zero, 4);
	if (a->family == 6)
		return !memcmp(a->addr, zero, 16) || !memcmp(a->addr, one6, 16);
	return false;
}

/* addr within the rule's network: its first prefix bits are the rule's. */
static bool in_prefix(const uint8_t *net, const uint8_t *addr, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;

	if (memcmp(net, addr, whole))
		return false;
	if (!rest)
		return true;
	return ((net[whole] ^ addr[whole]) & (uint8_t)(0xff << (8 - rest))) ==
	       0;
}

static bool rule_matches(const struct ward_net_rule *r, uint8_t family,
			 const uint8_t *addr, uint16_t port, uint8_t proto)
{
	return r->proto == proto && r->family == family && port >= r->port_lo &&
	       port <= r->port_hi && in_prefix(r->addr, addr, r->prefix);
}

bool ward_addr_allowed(const struct ward_net *net, const struct ward_addr *a,
		       uint8_t proto)
{
	uint8_t as6[16] = {[10] = 0xff, [11] = 0xff};

	if (net->mode != WARD_NET_ALLOWLIST || !a->family || !a->port)
		return false;
	if (a->family == 4)
		memcpy(as6 + 12, a->addr, 4);
	for (uint32_t i = 0; i < net->nrules; i++) {
		const struct ward_net_rule *r = &net->rules[i];

		if (a->family == 4 &&
		    (rule_matches(r, 4, a->addr, a->port, proto) ||
		     rule_matches(r, 6, as6, a->port, proto)))
			return true;
		if (a->family == 6 &&
		    rule_matches(r, 6, a->addr, a->port, proto))
			return true;
	}
	return false;
}
