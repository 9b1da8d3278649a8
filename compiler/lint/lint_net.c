/* SPDX-License-Identifier: MIT */
/*
 * lint_net.c: the rules about the egress allow-list (W3xx).
 *
 * Each rule of the compiled allow-list is a network (address, prefix) with
 * a protocol and a port range. An IPv6 rule that covers IPv4-mapped
 * addresses (::ffff:0:0/96) also reaches the IPv4 network it maps, through
 * dual-stack sockets: the checks look at that IPv4 view too.
 */
#include "describe.h"
#include "lint_internal.h"

#include <netinet/in.h>
#include <string.h>

struct net {
	uint8_t family; /* 4 or 6 */
	uint8_t prefix;
	uint8_t addr[16];
};

struct named_net {
	const char *text;
	struct net n;
};

static const struct named_net private_nets[] = {
    {"10.0.0.0/8", {4, 8, {10}}},
    {"172.16.0.0/12", {4, 12, {172, 16}}},
    {"192.168.0.0/16", {4, 16, {192, 168}}},
    {"100.64.0.0/10", {4, 10, {100, 64}}},
    {"169.254.0.0/16", {4, 16, {169, 254}}},
    {"fc00::/7", {6, 7, {0xfc}}},
    {"fe80::/10", {6, 10, {0xfe, 0x80}}},
};

static const struct named_net metadata[] = {
    {"169.254.169.254", {4, 32, {169, 254, 169, 254}}},
    {"169.254.170.2", {4, 32, {169, 254, 170, 2}}},
    {"100.100.100.200", {4, 32, {100, 100, 100, 200}}},
    {"fd00:ec2::254",
     {6,
      128,
      {0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54}}},
};

/* The first n bits of a and b agree. */
static bool same_bits(const uint8_t *a, const uint8_t *b, unsigned n)
{
	unsigned bytes = n / 8, rest = n % 8;
	uint8_t mask;

	if (memcmp(a, b, bytes) != 0)
		return false;
	if (rest == 0)
		return true;
	mask = (uint8_t)(0xff << (8 - rest));
	return (a[bytes] & mask) == (b[bytes] & mask);
}

static bool overlap(const struct net *a, const struct net *b)
{
	unsigned n;

	if (a->family != b->family)
		return false;
	n = a->prefix < b->prefix ? a->prefix : b->prefix;
	return same_bits(a->addr, b->addr, n);
}

/* a lies inside b */
static bool inside(const struct net *a, const struct net *b)
{
	return a->family == b->family && a->prefix >= b->prefix &&
	       same_bits(a->addr, b->addr, b->prefix);
}

/* The network of rule r and, for IPv6 covering mapped addresses, its IPv4
 * view. Returns how many (1 or 2). */
static size_t views(const struct ward_net_rule *r, struct net out[2])
{
	static const uint8_t mapped[16] = {0, 0, 0,    0,    0, 0, 0, 0,
					   0, 0, 0xff, 0xff, 0, 0, 0, 0};
	memset(out, 0, 2 * sizeof(*out));
	out[0].family = r->family;
	out[0].prefix = r->prefix;
	memcpy(out[0].addr, r->addr, 16);
	if (r->family != 6)
		return 1;
	if (r->prefix >= 96 && same_bits(r->addr, mapped, 96)) {
		out[1].family = 4;
		out[1].prefix = (uint8_t)(r->prefix - 96);
		memcpy(out[1].addr, r->addr + 12, 4);
		return 2;
	}
	if (r->prefix < 96 && same_bits(r->addr, mapped, r->prefix)) {
		out[1].family = 4; /* every IPv4 address */
		return 2;
	}
	return 1;
}

static struct ward_loc rule_loc(const struct lint_ctx *c, uint32_t i)
{
	return c->w->net_rules ? c->w->net_rules[i]
			       : (struct ward_loc){.file = WARD_NO_FILE};
}

static bool world(const struct ward_net_rule *r)
{
	struct net v[2];
	size_t n = views(r, v);
	for (size_t i = 0; i < n; i++)
		if (v[i].prefix == 0)
			return true;
	return false;
}

/* The first metadata address rule r reaches, or NULL. */
static const char *metadata_hit(const struct ward_net_rule *r)
{
	struct net v[2];
	size_t n = views(r, v);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(metadata) / sizeof(metadata[0]);
		     k++)
			if (inside(&metadata[k].n, &v[i]))
				return metadata[k].text;
	return NULL;
}

/* Several compiled rules come from one statement (ports, addresses of a
 * host): report a subject once per statement. */
static bool reported(const struct lint_ctx *c, const struct lint_rule *r,
		     struct ward_loc loc, const char *subject)
{
	struct lint_finding **f = c->findings.items;
	for (size_t i = 0; i < c->findings.n; i++)
		if (f[i]->rule == r && f[i]->loc.file == loc.file &&
		    f[i]->loc.line == loc.line && f[i]->loc.col == loc.col &&
		    strcmp(f[i]->subject, subject) == 0)
			return true;
	return false;
}

static const char *network_text(struct lint_ctx *c,
				const struct ward_net_rule *r)
{
	return ward_pool_printf(c->pool, "%s/%u",
				describe_addr(c->pool, r->family, r->addr),
				r->prefix);
}

static const char *proto(const struct ward_net_rule *r)
{
	return r->proto == IPPROTO_UDP ? "udp" : "tcp";
}

#define EACH_RULE(c, i, r)                                                     \
	for (uint32_t i = 0;                                                   \
	     (c)->p->net.mode == WARD_NET_ALLOWLIST && i < (c)->p->net.nrules; \
	     i++)                                                              \
		for (const struct ward_net_rule *r = &(c)->p->net.rules[i]; r; \
		     r = NULL)

void lint_net_world(struct lint_ctx *c, const struct lint_rule *lr)
{
	EACH_RULE(c, i, r)
	{
		const char *net;
		struct ward_loc loc;

		if (!world(r))
			continue;
		net = network_text(c, r);
		loc = rule_loc(c, i);
		if (reported(c, lr, loc, net))
			continue;
		lint_add(c, lr, loc, net,
			 "%s to %s is allowed: that is every %s address, the "
			 "host's private networks and the metadata service "
			 "included",
			 proto(r), net,
			 r->family == 4 || r->prefix ? "IPv4" : "IPv6");
	}
}

void lint_net_wide(struct lint_ctx *c, const struct lint_rule *lr)
{
	EACH_RULE(c, i, r)
	{
		unsigned limit;
		struct net v[2];
		bool private = false;
		const char *net;
		struct ward_loc loc;

		if (world(r))
			continue;
		limit = r->family == 4 ? 16 : 32;
		if (r->prefix >= limit)
			continue;
		views(r, v);
		for (size_t k = 0;
		     k < sizeof(private_nets) / sizeof(private_nets[0]); k++)
		private |= inside(&v[0], &private_nets[k].n);
		if (private)
			continue; /* W303 says it better */
		net = network_text(c, r);
		loc = rule_loc(c, i);
		if (reported(c, lr, loc, net))
			continue;
		lint_add(c, lr, loc, net,
			 "%s to %s is allowed: a network of 2^%u addresses",
			 proto(r), net,
			 (r->family == 4 ? 32u : 128u) - r->prefix);
	}
}

void lint_net_private(struct lint_ctx *c, const struct lint_rule *lr)
{
	EACH_RULE(c, i, r)
	{
		struct net v[2];
		size_t nv;
		const char *hits[8];
		size_t nhits = 0;
		const char *net;
		struct ward_loc loc;

		if (world(r) || metadata_hit(r))
			continue; /* W301, W304 */
		nv = views(r, v);
		for (size_t k = 0;
		     k < sizeof(private_nets) / sizeof(private_nets[0]); k++)
			for (size_t j = 0; j < nv; j++)
				if (overlap(&v[j], &private_nets[k].n) &&
				    nhits < 8) {
					hits[nhits++] = private_nets[k].text;
					break;
				}
		if (!nhits)
			continue;
		net = network_text(c, r);
		loc = rule_loc(c, i);
		if (reported(c, lr, loc, net))
			continue;
		lint_add(c, lr, loc, net, "%s to %s is allowed: it reaches %s",
			 proto(r), net, lint_name_list(c->pool, hits, nhits));
	}
}

void lint_net_metadata(struct lint_ctx *c, const struct lint_rule *lr)
{
	EACH_RULE(c, i, r)
	{
		const char *md = metadata_hit(r);
		const char *net;
		struct ward_loc loc;

		if (!md || world(r))
			continue;
		net = network_text(c, r);
		loc = rule_loc(c, i);
		if (reported(c, lr, loc, net))
			continue;
		lint_add(c, lr, loc, net,
			 "%s to %s is allowed: it reaches the cloud metadata "
			 "address %s",
			 proto(r), net, md);
	}
}

static void raw_addr(struct lint_ctx *c, const struct lint_rule *r,
		     const struct ward_stmt *st)
{
	int full;

	if (!st->dest || st->dest->kind != WARD_V_ADDR)
		return;
	/* a network cannot be pinned: only single addresses */
	full = st->dest->addr.family == 4 ? 32 : 128;
	if (st->dest->addr.prefix >= 0 && st->dest->addr.prefix != full)
		return;
	lint_add(c, r, st->dest->loc, st->dest->text,
		 "`allow %s %s` names a raw address: a reviewer cannot tell "
		 "what it is",
		 st->proto, st->dest->text);
}

void lint_net_raw_addr(struct lint_ctx *c, const struct lint_rule *r)
{
	if (c->p->net.mode == WARD_NET_ALLOWLIST || !c->is_policy)
		lint_each_stmt(c, r, WARD_S_NET_ALLOW, raw_addr);
}

void lint_net_dns(struct lint_ctx *c, const struct lint_rule *lr)
{
	EACH_RULE(c, i, r)
	{
		const char *subject;
		struct ward_loc loc;
		const char *ports;

		if (r->port_lo > 53 || r->port_hi < 53)
			continue;
		subject = ward_pool_printf(c->pool, "%s %s", proto(r),
					   network_text(c, r));
		loc = rule_loc(c, i);
		if (reported(c, lr, loc, subject))
			continue;
		ports = r->port_lo == r->port_hi
			    ? "port 53"
			    : ward_pool_printf(c->pool, "ports %u-%u",
					       r->port_lo, r->port_hi);
		lint_add(c, lr, loc, subject,
			 "%s to %s %s is allowed: it includes DNS (port 53)",
			 proto(r), network_text(c, r), ports);
	}
}

void lint_net_ports(struct lint_ctx *c, const struct lint_rule *lr)
{
	EACH_RULE(c, i, r)
	{
		unsigned span = (unsigned)r->port_hi - r->port_lo + 1;
		const char *subject;
		struct ward_loc loc;

		if (span <= 1024)
			continue;
		subject = ward_pool_printf(c->pool, "%s %s %u-%u", proto(r),
					   network_text(c, r), r->port_lo,
					   r->port_hi);
		loc = rule_loc(c, i);
		if (reported(c, lr, loc, subject))
			continue;
		lint_add(c, lr, loc, subject,
			 "%s to %s is allowed on ports %u-%u: %u ports",
			 proto(r), network_text(c, r), r->port_lo, r->port_hi,
			 span);
	}
}

/* A wildcard name allows every name a domain's owner (or whoever controls
 * its DNS) makes below it: one finding per wildcard, port ranges of the
 * same name counted once. */
void lint_net_wildcard(struct lint_ctx *c, const struct lint_rule *lr)
{
	const struct ward_net *n = &c->p->net;

	for (uint32_t i = 0; n->mode == WARD_NET_ALLOWLIST && i < n->nnames;
	     i++) {
		const struct ward_net_name *nm = &n->names[i];
		struct ward_loc loc =
		    c->w->net_names ? c->w->net_names[i]
				    : (struct ward_loc){.file = WARD_NO_FILE};

		if (!(nm->flags & WARD_NET_NAME_WILDCARD) ||
		    (i && !strcmp(n->names[i - 1].name, nm->name)))
			continue;
		lint_add(c, lr, loc, nm->name,
			 "`%s` allows every name below `%s`, whatever "
			 "addresses their DNS gives",
			 nm->name, nm->name + 2);
	}
}

/* `allow answers NET;`: one finding per network it names (5.11). */
static void answers_net(struct lint_ctx *c, const struct lint_rule *r,
			const struct ward_stmt *st)
{
	for (size_t i = 0; i < st->nvalues; i++) {
		const struct ward_value *v = st->values[i];

		if (v->kind != WARD_V_ADDR)
			continue;
		lint_add(c, r, v->loc, v->text,
			 "an answer for an allowed name may lead into the "
			 "private network %s",
			 v->text);
	}
}

void lint_net_answers(struct lint_ctx *c, const struct lint_rule *r)
{
	if (c->p->net.mode == WARD_NET_ALLOWLIST && c->p->net.nnames)
		lint_each_stmt(c, r, WARD_S_NET_ANSWERS, answers_net);
}
