/* SPDX-License-Identifier: MIT */
/*
 * sema_net.c: the `net` section: `net none`, or pinned hosts and an egress
 * allow-list expanded to (protocol, network, port range) rules.
 */
#include "answer_ranges.h"
#include "dnsname.h"
#include "sema_internal.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NET_RULES 4096
#define MAX_NET_NAMES 1024

static bool valid_host_name(const char *h)
{
	size_t len = strlen(h);
	if (len == 0 || len > 253)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = h[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		      c == '_'))
			return false;
	}
	return true;
}

static unsigned addr_bits(uint8_t family)
{
	return family == 4 ? 32 : 128;
}

/* Are the bits of addr past prefix all zero? */
static bool host_bits_clear(const uint8_t *addr, unsigned bits, unsigned prefix)
{
	for (unsigned b = prefix; b < bits; b++)
		if (addr[b / 8] & (0x80 >> (b % 8)))
			return false;
	return true;
}

static void format_addr(const struct ward_net_rule *r, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];
	inet_ntop(r->family == 4 ? AF_INET : AF_INET6, r->addr, a, sizeof(a));
	snprintf(buf, len, "%s/%u", a, r->prefix);
}

static void check_hosts(struct sema *s, struct ward_vec *hosts)
{
	const struct ward_stmt **items = s->net_items.items;
	for (size_t i = 0; i < s->net_items.n; i++) {
		const struct ward_stmt *st = items[i];
		struct sym_host *h;
		struct sym_host *first;

		if (st->kind != WARD_S_NET_HOST)
			continue;
		if (!valid_host_name(st->name)) {
			ward_diag(s->d, WARD_SEV_ERROR, st->name_loc,
				  "`%s` is not a valid host name", st->name);
			continue;
		}
		h = ward_pool_alloc(s->pool, sizeof(*h));
		h->stmt = st;
		first = ward_symtab_put(&s->hosts, st->name, h);
		if (first) {
			ward_diag(s->d, WARD_SEV_ERROR, st->name_loc,
				  "host `%s` is pinned twice", st->name);
			ward_diag_note(s->d, first->stmt->name_loc,
				       "first pinned here");
			continue;
		}
		for (size_t k = 0; k < st->nvalues; k++) {
			struct tval a;
			struct ward_net_host *out;

			if (!sema_addr(s, st->values[k], "a host pin", &a))
				continue;
			if (a.prefix >= 0 &&
			    (unsigned)a.prefix != addr_bits(a.family)) {
				ward_diag(s->d, WARD_SEV_ERROR,
					  st->values[k]->loc,
					  "a host is pinned to addresses, not "
					  "networks");
				continue;
			}
			out = ward_vec_push(s->pool, hosts, sizeof(*out));
			out->name = st->name;
			out->family = a.family;
			memcpy(out->addr, a.bytes, 16);
		}
	}
}

struct dest {
	uint8_t family, prefix, addr[16];
};

/* The networks an allow rule names: one address or network, or every
 * address of a pinned host. */
static size_t rule_dests(struct sema *s, const struct ward_stmt *st,
			 const struct ward_vec *hosts, struct dest *out,
			 size_t max)
{
	const struct ward_value *v = st->dest;
	size_t n = 0;
	struct tval a;
	unsigned bits;
	unsigned prefix;

	if (v->kind == WARD_V_NAME) {
		struct sym_host *h = ward_symtab_get(&s->hosts, v->str);
		const struct ward_net_host *hs;

		if (!h) {
			const char *hit;

			ward_diag(s->d, WARD_SEV_ERROR, v->loc,
				  "`%s` is not a pinned host", v->str);
			hit = ward_suggest(v->str, s->hosts.order,
					   s->hosts.norder);
			if (hit)
				ward_diag_help(s->d, "did you mean `%s`?", hit);
			else
				ward_diag_help(s->d,
					       "pin it first: `host %s = "
					       "ADDRESS;` (ward does not "
					       "resolve names)",
					       v->str);
			return 0;
		}
		hs = hosts->items;
		for (size_t i = 0; i < hosts->n && n < max; i++) {
			if (strcmp(hs[i].name, v->str) != 0)
				continue;
			out[n].family = hs[i].family;
			out[n].prefix = (uint8_t)addr_bits(hs[i].family);
			memcpy(out[n].addr, hs[i].addr, 16);
			n++;
		}
		return n;
	}
	if (!sema_addr(s, v, "an allow rule's destination", &a))
		return 0;
	bits = addr_bits(a.family);
	prefix = a.prefix < 0 ? bits : (unsigned)a.prefix;
	if (!host_bits_clear(a.bytes, bits, prefix)) {
		uint8_t net[16];
		char buf[INET6_ADDRSTRLEN];

		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "`%s` has bits set past its prefix length", v->text);
		memcpy(net, a.bytes, 16);
		for (unsigned b = prefix; b < bits; b++)
			net[b / 8] &= (uint8_t) ~(0x80 >> (b % 8));
		inet_ntop(a.family == 4 ? AF_INET : AF_INET6, net, buf,
			  sizeof(buf));
		ward_diag_help(s->d, "did you mean `%s/%u`?", buf, prefix);
		return 0;
	}
	out[0].family = a.family;
	out[0].prefix = (uint8_t)prefix;
	memcpy(out[0].addr, a.bytes, 16);
	return 1;
}

static bool port(struct sema *s, const struct ward_value *v, uint16_t *out)
{
	uint64_t p;
	if (!sema_int(s, v, "a port", &p) ||
	    !sema_range(s, v->loc, "the port", p, 1, 65535, NULL))
		return false;
	*out = (uint16_t)p;
	return true;
}

/* A rule's `P` or `P-Q`, checked. */
static bool port_range(struct sema *s, const struct ward_port_range *pr,
		       uint16_t *lo, uint16_t *hi)
{
	if (!port(s, pr->lo, lo))
		return false;
	*hi = *lo;
	if (pr->hi && !port(s, pr->hi, hi))
		return false;
	if (*hi < *lo) {
		ward_diag(s->d, WARD_SEV_ERROR, pr->loc,
			  "the port range %u-%u is empty", *lo, *hi);
		ward_diag_help(s->d, "write `%u-%u`", *hi, *lo);
		return false;
	}
	return true;
}

/* A rule and the allow statement it came from. */
struct located_rule {
	struct ward_net_rule r;
	struct ward_loc loc;
};

static int cmp_rule(const void *a, const void *b)
{
	const struct ward_net_rule *x = a, *y = b;
	int c;

	if (x->family != y->family)
		return x->family - y->family;
	if (x->proto != y->proto)
		return x->proto - y->proto;
	c = memcmp(x->addr, y->addr, 16);
	if (c)
		return c;
	if (x->prefix != y->prefix)
		return x->prefix - y->prefix;
	if (x->port_lo != y->port_lo)
		return x->port_lo - y->port_lo;
	return x->port_hi - y->port_hi;
}

static int cmp_host(const void *a, const void *b)
{
	const struct ward_net_host *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->family != y->family)
		return x->family - y->family;
	return memcmp(x->addr, y->addr, 16);
}

/* A name rule and the allow statement it came from. */
struct located_name {
	struct ward_net_name n;
	struct ward_loc loc;
};

static int cmp_name(const void *a, const void *b)
{
	const struct ward_net_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->proto != y->proto)
		return x->proto - y->proto;
	if (x->port_lo != y->port_lo)
		return x->port_lo - y->port_lo;
	return x->port_hi - y->port_hi;
}

/* The normal form of an allow rule's name (1.7.4), or NULL after an
 * error. A wildcard directly under a public suffix would allow a whole
 * registry's customers: refused, by the list (loaded once, on the first
 * wildcard; without it a wildcard cannot be checked and is refused). */
static const char *rule_name(struct sema *s, const struct ward_value *v,
			     struct ward_psl **psl, bool *psl_tried)
{
	char norm[WARD_DNSNAME_MAX + 1];
	const char *why, *help, *str = v->str;
	size_t len = v->len;

	/* A string constant's name: the constant must exist (a profile
	 * leaves it to the user, `wardc compile -D NAME=VALUE`) and hold
	 * a string, checked like a quoted one. */
	if (v->kind == WARD_V_NAME) {
		if (!ward_symtab_get(&s->consts, v->str)) {
			ward_diag(s->d, WARD_SEV_ERROR, v->loc,
				  "the domain name's constant `%s` is not "
				  "defined",
				  v->str);
			ward_diag_help(s->d,
				       "set it when compiling: `wardc "
				       "compile -D %s=index.example ...`, or "
				       "define it: `const %s = "
				       "\"index.example\";`",
				       v->str, v->str);
			return NULL;
		}
		if (!sema_string(s, v, "a name rule", &str, &len))
			return NULL;
	}
	if (memchr(str, '\0', len) ||
	    ward_dnsname_normalise(str, len, norm, &why, &help) < 0) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "the domain name `%s` %s", str,
			  memchr(str, '\0', len) ? "has a NUL byte" : why);
		if (help)
			ward_diag_help(s->d, "%s", help);
		return NULL;
	}
	if (norm[0] == '*') {
		if (!*psl_tried) {
			*psl = ward_psl_load(NULL);
			*psl_tried = true;
		}
		if (!*psl) {
			ward_diag(s->d, WARD_SEV_ERROR, v->loc,
				  "cannot check the wildcard `%s`: the "
				  "public suffix list cannot be read",
				  norm);
			ward_diag_help(s->d,
				       "install Debian's `publicsuffix` "
				       "package (%s)",
				       WARD_PSL_PATH);
			return NULL;
		}
		if (ward_psl_is_suffix(*psl, norm + 2)) {
			ward_diag(s->d, WARD_SEV_ERROR, v->loc,
				  "the wildcard `%s` is directly under the "
				  "public suffix `%s`: it allows every "
				  "domain registered there",
				  norm, norm + 2);
			ward_diag_help(s->d,
				       "name a domain of one organisation "
				       "below it: `index.example.%s`, or "
				       "`*.files.example.%s` for its file "
				       "hosts",
				       norm + 2, norm + 2);
			return NULL;
		}
	}
	return ward_pool_strdup(s->pool, norm);
}

/* The allow rules by name: normalised, sorted, duplicates warned about
 * (`Index.Example.` and `index.example` are one name). */
static void check_names(struct sema *s)
{
	struct ward_net *net = &s->out->net;
	const struct ward_stmt **items = s->net_items.items;
	struct ward_vec names = {0};
	struct ward_psl *psl = NULL;
	bool psl_tried = false;
	struct located_name *sorted;
	struct ward_net_name *kept;
	size_t o = 0;

	for (size_t i = 0; i < s->net_items.n; i++) {
		const struct ward_stmt *st = items[i];
		const char *name;

		if (st->kind != WARD_S_NET_ALLOW || !st->by_name)
			continue;
		if (!(name = rule_name(s, st->dest, &psl, &psl_tried)))
			continue;
		if (strcmp(st->proto, "tcp") != 0) {
			ward_diag(s->d, WARD_SEV_ERROR, st->kw_loc,
				  "UDP to a name is not supported: only TCP "
				  "connections follow the stub's answers");
			ward_diag_help(s->d, "allow the UDP service by its "
					     "address, or use TCP");
			continue;
		}
		for (size_t p = 0; p < st->nports; p++) {
			const struct ward_port_range *pr = &st->ports[p];
			struct located_name *ln;
			uint16_t lo, hi;

			if (!port_range(s, pr, &lo, &hi))
				continue;
			if (names.n >= MAX_NET_NAMES)
				break;
			ln = ward_vec_push(s->pool, &names, sizeof(*ln));
			ln->loc = st->kw_loc;
			ln->n.name = name;
			ln->n.proto = IPPROTO_TCP;
			ln->n.flags =
			    name[0] == '*' ? WARD_NET_NAME_WILDCARD : 0;
			ln->n.port_lo = lo;
			ln->n.port_hi = hi;
		}
	}
	ward_psl_free(psl);
	if (names.n >= MAX_NET_NAMES)
		ward_diag(s->d, WARD_SEV_ERROR, s->net_block->kw_loc,
			  "the allow-list names more than %d (name, port "
			  "range) pairs",
			  MAX_NET_NAMES);
	sorted = names.items;
	if (names.n)
		qsort(sorted, names.n, sizeof(*sorted), cmp_name);
	kept = ward_pool_array(s->pool, names.n + 1, sizeof(*kept));
	s->where->net_names =
	    ward_pool_array(s->pool, names.n + 1, sizeof(struct ward_loc));
	for (size_t i = 0; i < names.n; i++) {
		if (o && cmp_name(&kept[o - 1], &sorted[i].n) == 0) {
			ward_diag(s->d, WARD_SEV_WARNING, sorted[i].loc,
				  "tcp to `%s` port %s is allowed twice",
				  sorted[i].n.name,
				  ward_pool_printf(s->pool,
						   sorted[i].n.port_lo ==
							   sorted[i].n.port_hi
						       ? "%u"
						       : "%u-%u",
						   sorted[i].n.port_lo,
						   sorted[i].n.port_hi));
			continue;
		}
		s->where->net_names[o] = sorted[i].loc;
		kept[o++] = sorted[i].n;
	}
	net->names = kept;
	net->nnames = (uint32_t)o;
	if (o)
		s->out->requirements |= WARD_REQ_NET_NAMES;
}

/* ------------------------------------------------ refused answers */

static int cmp_prefix(const void *a, const void *b)
{
	const struct ward_net_prefix *x = a, *y = b;

	if (x->family != y->family)
		return x->family - y->family;
	return memcmp(x->addr, y->addr, 16);
}

/* `allow answers NET, ...;`: the private networks an answer for an
 * allowed name may lead to. Only those: a fixed range (loopback, the
 * metadata address's link-local network, multicast) is never allowed,
 * and a public network needs no leave. */
static size_t check_answers(struct sema *s, struct ward_net_prefix *allowed,
			    size_t max)
{
	const struct ward_stmt **items = s->net_items.items;
	size_t n = 0;

	for (size_t i = 0; i < s->net_items.n; i++) {
		const struct ward_stmt *st = items[i];

		if (st->kind != WARD_S_NET_ANSWERS)
			continue;
		if (!s->out->net.nnames)
			ward_diag(s->d, WARD_SEV_WARNING, st->kw_loc,
				  "`allow answers` without a name rule has "
				  "nothing to allow");
		for (size_t k = 0; k < st->nvalues; k++) {
			const struct ward_value *v = st->values[k];
			struct ward_net_prefix p = {0};
			struct tval a;
			unsigned bits;
			bool inside = false, fixed = false, wider = false;

			if (!sema_addr(s, v, "an answers network", &a))
				continue;
			bits = addr_bits(a.family);
			p.family = a.family;
			p.prefix =
			    (uint8_t)(a.prefix < 0 ? bits : (unsigned)a.prefix);
			memcpy(p.addr, a.bytes, 16);
			if (!host_bits_clear(p.addr, bits, p.prefix)) {
				ward_diag(s->d, WARD_SEV_ERROR, v->loc,
					  "`%s` has bits set past its prefix "
					  "length",
					  v->text);
				continue;
			}
			for (size_t f = 0; f < ward_answers_nprivate; f++)
				inside =
				    inside || ward_prefix_covers(
						  &ward_answers_private[f], &p);
			for (size_t f = 0; f < ward_answers_nprivate; f++)
				wider =
				    wider || ward_prefix_covers(
						 &p, &ward_answers_private[f]);
			for (size_t f = 0; f < ward_answers_nfixed; f++)
				fixed = fixed ||
					ward_prefix_covers(
					    &ward_answers_fixed[f], &p) ||
					ward_prefix_covers(
					    &p, &ward_answers_fixed[f]);
			if (!inside) {
				ward_diag(s->d, WARD_SEV_ERROR, v->loc,
					  "`%s` is not inside a private "
					  "network: `allow answers` names "
					  "10.0.0.0/8, 100.64.0.0/10, "
					  "172.16.0.0/12, 192.168.0.0/16, "
					  "fc00::/7 or networks in them",
					  v->text);
				ward_diag_help(
				    s->d, "%s",
				    fixed   ? "loopback, link-local (the cloud "
					      "metadata address), multicast and "
					      "unspecified addresses never "
					      "become reachable through a name"
				    : wider ? "name one private network, or a "
					      "part of one, in each entry"
					    : "an answer naming a public "
					      "address is learned without it");
				continue;
			}
			if (n == max) {
				ward_diag(s->d, WARD_SEV_ERROR, v->loc,
					  "`allow answers` names more than %zu "
					  "networks",
					  max);
				return n;
			}
			allowed[n++] = p;
		}
	}
	return n;
}

/* The networks no answer's address is learned in (5.11): the fixed
 * ones, the private ones less what `allow answers` names, and the IPv6
 * forms of each IPv4 one. The launcher only looks addresses up in it. */
static void refused_ranges(struct sema *s)
{
	struct ward_net *net = &s->out->net;
	struct ward_net_prefix allowed[256];
	size_t nallowed = check_answers(s, allowed, ARRAY_LEN(allowed));
	struct ward_vec v = {0};
	struct ward_net_prefix *r;
	size_t n4;

	if (!net->nnames)
		return;
	for (size_t i = 0; i < ward_answers_nfixed; i++)
		*(struct ward_net_prefix *)ward_vec_push(
		    s->pool, &v, sizeof(struct ward_net_prefix)) =
		    ward_answers_fixed[i];
	for (size_t i = 0; i < ward_answers_nprivate; i++) {
		struct ward_net_prefix part[512];
		size_t np =
		    ward_prefix_subtract(&ward_answers_private[i], allowed,
					 nallowed, part, ARRAY_LEN(part));

		for (size_t k = 0; k < np && k < ARRAY_LEN(part); k++)
			*(struct ward_net_prefix *)ward_vec_push(
			    s->pool, &v, sizeof(struct ward_net_prefix)) =
			    part[k];
		if (np > ARRAY_LEN(part))
			ward_diag(s->d, WARD_SEV_ERROR, s->net_block->kw_loc,
				  "`allow answers` cuts the private networks "
				  "into more than %zu pieces",
				  ARRAY_LEN(part));
	}
	n4 = v.n;
	for (size_t i = 0; i < n4; i++) {
		struct ward_net_prefix e[WARD_ANSWERS_EMBED], *x;
		size_t ne;

		r = v.items;
		if (r[i].family != 4)
			continue;
		ne = ward_prefix_embed(&r[i], e);
		for (size_t k = 0; k < ne; k++) {
			x = ward_vec_push(s->pool, &v, sizeof(*x));
			*x = e[k];
		}
	}
	r = v.items;
	qsort(r, v.n, sizeof(*r), cmp_prefix);
	net->refused = r;
	net->nrefused = (uint32_t)v.n;
}

void sema_net(struct sema *s)
{
	struct ward_net *net = &s->out->net;
	const struct ward_stmt **items;
	struct located_rule *sorted;
	struct ward_net_rule *kept;
	size_t o = 0;
	struct ward_net_host *h;
	struct ward_vec hosts = {0}, rules = {0};

	net->mode = WARD_NET_NONE;
	if (!s->net_block)
		return;
	net->mode = WARD_NET_ALLOWLIST;
	/* The socket broker enforces it; the cgroup programs are a second
	 * layer where they can be attached (docs/spec.md part 5), not a
	 * requirement of the host. */
	s->out->requirements |= WARD_REQ_NET_BROKER;

	check_hosts(s, &hosts);
	check_names(s);
	refused_ranges(s);

	items = s->net_items.items;
	for (size_t i = 0; i < s->net_items.n; i++) {
		const struct ward_stmt *st = items[i];
		uint8_t proto;
		struct dest dests[64];
		size_t nd;

		if (st->kind != WARD_S_NET_ALLOW || st->by_name)
			continue;
		proto =
		    strcmp(st->proto, "udp") == 0 ? IPPROTO_UDP : IPPROTO_TCP;
		nd = rule_dests(s, st, &hosts, dests, ARRAY_LEN(dests));
		for (size_t p = 0; p < st->nports; p++) {
			const struct ward_port_range *pr = &st->ports[p];
			uint16_t lo, hi;
			if (!port_range(s, pr, &lo, &hi))
				continue;
			for (size_t k = 0; k < nd; k++) {
				struct located_rule *lr;
				struct ward_net_rule *r;

				if (rules.n >= MAX_NET_RULES)
					break;
				lr =
				    ward_vec_push(s->pool, &rules, sizeof(*lr));
				lr->loc = st->kw_loc;
				r = &lr->r;
				r->proto = proto;
				r->family = dests[k].family;
				r->prefix = dests[k].prefix;
				memcpy(r->addr, dests[k].addr, 16);
				r->port_lo = lo;
				r->port_hi = hi;
			}
		}
	}
	if (rules.n >= MAX_NET_RULES)
		ward_diag(s->d, WARD_SEV_ERROR, s->net_block->kw_loc,
			  "the allow-list expands to more than %d rules",
			  MAX_NET_RULES);
	if (rules.n == 0 && net->nnames == 0 && ward_diags_errors(s->d) == 0) {
		ward_diag(s->d, WARD_SEV_WARNING, s->net_block->kw_loc,
			  "this allow-list allows nothing");
		ward_diag_help(s->d, "write `net none;` to give the sandbox "
				     "a network namespace of its own");
	}

	/* The allow-list is a set: sorted (cmp_rule sees the rule at the
	 * start of each located_rule), duplicates reported. */
	sorted = rules.items;
	if (rules.n)
		qsort(sorted, rules.n, sizeof(*sorted), cmp_rule);
	kept = ward_pool_array(s->pool, rules.n + 1, sizeof(*kept));
	s->where->net_rules =
	    ward_pool_array(s->pool, rules.n + 1, sizeof(struct ward_loc));
	for (size_t i = 0; i < rules.n; i++) {
		if (o && cmp_rule(&kept[o - 1], &sorted[i].r) == 0) {
			char a[64];
			format_addr(&sorted[i].r, a, sizeof(a));
			ward_diag(s->d, WARD_SEV_WARNING, sorted[i].loc,
				  "%s to %s port %u-%u is allowed twice",
				  sorted[i].r.proto == IPPROTO_UDP ? "udp"
								   : "tcp",
				  a, sorted[i].r.port_lo, sorted[i].r.port_hi);
			continue;
		}
		s->where->net_rules[o] = sorted[i].loc;
		kept[o++] = sorted[i].r;
	}
	h = hosts.items;
	if (hosts.n)
		qsort(h, hosts.n, sizeof(*h), cmp_host);
	net->rules = kept;
	net->nrules = (uint32_t)o;
	net->hosts = h;
	net->nhosts = (uint32_t)hosts.n;
}

/* An entry at path, or one at /etc that cannot hold a file there (a file,
 * a symlink, proc), is in the way of a file the net section makes. One
 * report is enough: its help names the fix. */
static void etc_file_conflict(struct sema *s, const char *path,
			      const char *same_msg, const char *above_msg,
			      const char *help)
{
	const struct ward_policy *p = s->out;

	for (uint32_t i = 1; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		bool same = !strcmp(m->dst, path);
		bool above =
		    !strcmp(m->dst, "/etc") &&
		    (m->kind == WARD_MNT_FILE || m->kind == WARD_MNT_SYMLINK ||
		     m->kind == WARD_MNT_PROC);
		if (!same && !above)
			continue;
		ward_diag(s->d, WARD_SEV_ERROR, s->where->mounts[i], "%s",
			  same ? same_msg : above_msg);
		ward_diag_note(s->d, s->where->net, "the net section is here");
		ward_diag_help(s->d, "%s", help);
		return;
	}
}

/*
 * A policy that pins hosts gets /etc/hosts from code generation
 * (compiler/codegen/net_apply.c), and one that allows names gets
 * /etc/resolv.conf (the broker's DNS stub, 5.11): an entry of its own
 * there is a conflict between the fs and net sections.
 */
void sema_net_hosts(struct sema *s)
{
	const struct ward_net *n = &s->out->net;

	if (n->mode != WARD_NET_ALLOWLIST)
		return;
	if (n->nhosts)
		etc_file_conflict(
		    s, WARD_HOSTS_PATH,
		    "`/etc/hosts` is made from the pinned hosts of the net "
		    "section",
		    "the pinned hosts go to `/etc/hosts`, which cannot lie "
		    "under this entry",
		    "remove this entry (a policy that pins hosts uses "
		    "`base/core`, not `base`)");
	if (n->nnames)
		etc_file_conflict(
		    s, WARD_RESOLV_PATH,
		    "`/etc/resolv.conf` names the DNS stub of the net "
		    "section's names",
		    "the net section's names need `/etc/resolv.conf`, which "
		    "cannot lie under this entry",
		    "remove this entry");
}
