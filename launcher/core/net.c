/* SPDX-License-Identifier: MIT */
/*
 * net.c: load the compiled allow-list's programs into the kernel, on the
 * broker's cgroup (their second layer, docs/spec.md 5.6), read their
 * denial counters back (net.h).
 *
 * Nothing here decides anything: the maps get the blob's entries (and,
 * with ward --upstream-proxy, the host's proxy as one more destination,
 * merged as the compiler merges: ward_net_setup_also), the programs the
 * blob's instructions with the map descriptors written where the
 * relocations say, and every program is attached at its own attach point
 * without flags. Without BPF_F_ALLOW_OVERRIDE or BPF_F_ALLOW_MULTI,
 * no cgroup below the broker's can attach a program of its own; nothing of
 * the sandbox's can detach them (it has no capability, is in another
 * cgroup, and seccomp refuses bpf()). BPF_PROG_ATTACH rather than a bpf
 * link: the programs stay
 * attached until the cgroup goes away, even if the supervisor dies first;
 * the teardown does not detach them either (net.h).
 */
#include "net.h"

#include "answer_ranges.h"
#include "net_layout.h"
#include "port_slots.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/syscall.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static uint64_t ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

void ward_net_state_init(struct ward_net_state *st)
{
	memset(st, 0, sizeof(*st));
	st->cgroup_fd = st->denied_fd = -1;
	for (size_t i = 0; i < ARRAY_LEN(st->map_fd); i++)
		st->map_fd[i] = -1;
	for (size_t i = 0; i < ARRAY_LEN(st->prog_fd); i++)
		st->prog_fd[i] = -1;
}

int ward_net_check_host(const struct ward_net *net, uint32_t requirements,
			enum ward_mode mode, ward_err *err)
{
	if (net->mode != WARD_NET_ALLOWLIST)
		return 0;
	/* An allow-list of an older wardc shared the host's namespace and
	 * counted on the programs alone. */
	if (!(requirements & WARD_REQ_NET_BROKER) || net->bpf.nprogs == 0)
		return ward_fail(
		    err, 0,
		    "the policy has a network allow-list for an older "
		    "launcher (no socket broker, or no eBPF programs): compile "
		    "it again with this version of wardc");
	if ((requirements & WARD_REQ_NET_BPF) && mode != WARD_MODE_ROOT)
		return ward_fail(
		    err, 0,
		    "the policy's network allow-list needs the cgroup eBPF "
		    "programs beside the socket broker: it has UDP rules (a "
		    "UDP socket of the host's can be aimed anywhere with "
		    "sendmsg(2), whose address seccomp cannot read) or allows "
		    "io_uring (whose operations do not pass through seccomp); "
		    "those programs need CAP_BPF and CAP_NET_ADMIN in the "
		    "initial user namespace: run ward as root, or allow TCP "
		    "only and refuse @io-uring (rootless mode never falls "
		    "back to less)");
	return 0;
}

int ward_net_check_proxy(const struct ward_net *net, const char *proxy,
			 ward_err *err)
{
	/* 198.18.0.0/15, and its IPv4-mapped form ::ffff:198.18.0.0/111 */
	static const struct ward_net_prefix synth[2] = {
	    {4, 15, {198, 18}},
	    {6, 111, {[10] = 0xff, 0xff, 198, 18}},
	};

	if (!proxy || !net->nnames)
		return 0;
	for (uint32_t i = 0; i < net->nrules; i++) {
		const struct ward_net_rule *r = &net->rules[i];
		const struct ward_net_prefix *s = &synth[r->family == 6];
		struct ward_net_prefix rp = {r->family, r->prefix, {0}};

		memcpy(rp.addr, r->addr, sizeof(rp.addr));
		/* (networks nest or are disjoint) */
		if (ward_prefix_covers(&rp, s) || ward_prefix_covers(s, &rp))
			return ward_fail(
			    err, 0,
			    "--upstream-proxy %s: the DNS stub then answers "
			    "names with addresses of 198.18.0.0/15, and a "
			    "literal rule of the policy reaches into that "
			    "network: drop the rule, or run without the proxy",
			    proxy);
	}
	return 0;
}

/* ------------------------------------------------------------ setup */

static int create_map(const struct ward_net_map *m, uint32_t more,
		      ward_err *err)
{
	union bpf_attr a;
	const char *name = ward_net_map_name(m->role);
	long fd;

	memset(&a, 0, sizeof(a));
	a.map_type = m->type;
	a.key_size = m->key_size;
	a.value_size = m->value_size;
	a.max_entries = m->max_entries + more;
	a.map_flags = m->flags;
	snprintf(a.map_name, sizeof(a.map_name), "ward_%s", name);
	fd = sys_bpf(BPF_MAP_CREATE, &a);
	if (fd < 0)
		return ward_fail(err, errno,
				 "bpf: create the %s map (%u entries)%s", name,
				 m->max_entries,
				 errno == EPERM ? " (needs CAP_BPF in the "
						  "initial user namespace)"
						: "");
	return (int)fd;
}

/* ------------------------------------------------------------ also */

/* The --upstream-proxy's entry (net.h), made from the blob's trie as the
 * compiler makes an entry (5.4): the longest entry holding the address
 * answers a lookup, so the new one starts from that entry's ports. */
struct also_entry {
	uint8_t key[WARD_NET_KEY6_SIZE];
	uint8_t value[WARD_NET_VALUE_SIZE];
	bool replaces; /* an entry of exactly that key is in the blob */
};

/* The blob's entry whose network holds addr with the longest prefix (the
 * one a lookup of addr answers with), or NULL; its prefix in *pl. */
static const uint8_t *holding(const struct ward_net_map *m,
			      const struct ward_net_also *x, uint32_t *pl)
{
	size_t rec = (size_t)m->key_size + m->value_size;
	const uint8_t *best = NULL;

	*pl = 0;
	for (uint32_t i = 0; i < m->nentries; i++) {
		const uint8_t *key = m->entries + i * rec;
		struct ward_net_prefix n = {x->family, 0, {0}};
		uint32_t p = ward_le32(key);

		n.prefix = (uint8_t)p;
		memcpy(n.addr, key + 4, m->key_size - 4u);
		if ((!best || p > *pl) &&
		    ward_prefix_has(&n, x->family, x->addr)) {
			best = key;
			*pl = p;
		}
	}
	return best;
}

/* The proxy's port into the TCP slots of value, merged as the compiler
 * merges a rule's (port_slots.h). */
static int add_port(uint8_t *value, uint16_t port, ward_err *err)
{
	struct ward_port_range r[WARD_NET_PORT_SLOTS + 1];
	size_t n = ward_ports_read(value, r);

	r[n++] = (struct ward_port_range){port, port};
	n = ward_ports_merge(r, n);
	if (n > WARD_NET_PORT_SLOTS)
		return ward_fail(err, 0,
				 "--upstream-proxy: its address has %u TCP "
				 "port ranges in the allow-list already",
				 WARD_NET_PORT_SLOTS);
	ward_ports_write(value, r, n);
	return 0;
}

static int also_entry(const struct ward_net_map *m,
		      const struct ward_net_also *x, struct also_entry *e,
		      ward_err *err)
{
	size_t alen = x->family == 4 ? 4 : 16;
	uint32_t bits = (uint32_t)alen * 8, pl;
	const uint8_t *from;

	if (m->key_size != 4 + alen || m->value_size != WARD_NET_VALUE_SIZE)
		return ward_fail(err, 0, "bpf: the %s map's layout",
				 ward_net_map_name(m->role));
	memset(e, 0, sizeof(*e));
	memcpy(e->key, &bits, 4);
	memcpy(e->key + 4, x->addr, alen);
	from = holding(m, x, &pl);
	e->replaces = from && pl == bits;
	if (from) {
		memcpy(e->value, from + m->key_size, WARD_NET_VALUE_SIZE);
	} else {
		ward_ports_write(e->value, NULL, 0);
		ward_ports_write(e->value + WARD_NET_UDP_BASE, NULL, 0);
	}
	return add_port(e->value, x->port, err);
}

void ward_net_also_of(const struct sockaddr_storage *sa,
		      struct ward_net_also *x)
{
	memset(x, 0, sizeof(*x));
	if (sa->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)sa;
		bool mapped = IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr);

		x->family = mapped ? 4 : 6;
		memcpy(x->addr, s6->sin6_addr.s6_addr + (mapped ? 12 : 0),
		       mapped ? 4 : 16);
		x->port = ntohs(s6->sin6_port);
	} else {
		const struct sockaddr_in *s4 = (const void *)sa;

		x->family = 4;
		memcpy(x->addr, &s4->sin_addr, 4);
		x->port = ntohs(s4->sin_port);
	}
}

static int fill_map(int fd, const struct ward_net_map *m,
		    const struct also_entry *also, ward_err *err)
{
	size_t rec = (size_t)m->key_size + m->value_size;
	union bpf_attr a;

	for (uint32_t i = 0; i < m->nentries; i++) {
		const uint8_t *e = m->entries + i * rec;

		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)fd;
		a.key = ptr(e);
		a.value = ptr(e + m->key_size);
		a.flags = BPF_NOEXIST;
		if (sys_bpf(BPF_MAP_UPDATE_ELEM, &a) < 0)
			return ward_fail(err, errno,
					 "bpf: fill the %s map (entry %u)",
					 ward_net_map_name(m->role), i);
	}
	if (also) {
		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)fd;
		a.key = ptr(also->key);
		a.value = ptr(also->value);
		a.flags = BPF_ANY; /* over the blob's, or a new one */
		if (sys_bpf(BPF_MAP_UPDATE_ELEM, &a) < 0)
			return ward_fail(
			    err, errno, "bpf: the upstream proxy in the %s map",
			    ward_net_map_name(m->role));
	}
	/* From here on only the programs write (the denial counters). */
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	if (sys_bpf(BPF_MAP_FREEZE, &a) < 0)
		return ward_fail(err, errno, "bpf: freeze the %s map",
				 ward_net_map_name(m->role));
	return 0;
}

/* The last line of a verifier log: the reason. */
static const char *log_reason(char *log)
{
	size_t n = strlen(log);
	char *p;

	while (n && log[n - 1] == '\n')
		log[--n] = '\0';
	p = strrchr(log, '\n');
	return p ? p + 1 : log;
}

static int load_prog(const struct ward_net_bpf *b, uint32_t i,
		     const int *map_fd, ward_err *err)
{
	const struct ward_net_prog *p = &b->progs[i];
	const char *name = ward_net_prog_name(p->type, p->attach_type);
	_cleanup_free_ struct bpf_insn *in = calloc(p->ninsns, sizeof(*in));
	_cleanup_free_ char *log = NULL;
	union bpf_attr a;
	long fd;

	if (!in)
		return ward_fail(err, ENOMEM, "bpf: the %s program", name);
	for (uint32_t k = 0; k < p->ninsns; k++)
		in[k] = (struct bpf_insn){
		    .code = p->insns[k].code,
		    .dst_reg = p->insns[k].regs & 0xf,
		    .src_reg = p->insns[k].regs >> 4,
		    .off = p->insns[k].off,
		    .imm = p->insns[k].imm,
		};
	for (uint32_t r = 0; r < b->nrelocs; r++)
		if (b->relocs[r].prog == i)
			in[b->relocs[r].insn].imm = map_fd[b->relocs[r].map];
	memset(&a, 0, sizeof(a));
	a.prog_type = p->type;
	a.expected_attach_type = p->attach_type;
	a.insns = ptr(in);
	a.insn_cnt = p->ninsns;
	a.license = ptr("MIT");
	snprintf(a.prog_name, sizeof(a.prog_name), "ward_%s", name);
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd >= 0)
		return (int)fd;
	if (errno == EPERM)
		return ward_fail(err, errno,
				 "bpf: load the %s program (needs CAP_BPF and "
				 "CAP_NET_ADMIN in the initial user namespace)",
				 name);
	/* Once more with the verifier's log, for its reason. */
	int code = errno;
	enum { LOG_SIZE = 64 * 1024 };
	if ((log = calloc(1, LOG_SIZE))) {
		a.log_level = 1;
		a.log_buf = ptr(log);
		a.log_size = LOG_SIZE;
		fd = sys_bpf(BPF_PROG_LOAD, &a);
		if (fd >= 0) /* cannot happen; do not keep it */
			close((int)fd);
	}
	return ward_fail(err, code,
			 "bpf: the kernel refuses the %s program%s%s", name,
			 log && log[0] ? ": " : "", log ? log_reason(log) : "");
}

static int attach(int cgroup_fd, int prog_fd, uint32_t type, const char *name,
		  ward_err *err)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)cgroup_fd;
	a.attach_bpf_fd = (uint32_t)prog_fd;
	a.attach_type = type;
	a.attach_flags = 0;
	if (sys_bpf(BPF_PROG_ATTACH, &a) < 0)
		return ward_fail(err, errno,
				 "bpf: attach the %s program to the run's "
				 "cgroup%s",
				 name,
				 errno == EPERM
				     ? " (a parent cgroup may hold a program "
				       "that allows no other below it)"
				     : "");
	return 0;
}

static int setup(const struct ward_net_bpf *b, int cgroup_fd,
		 const struct ward_net_also *x, struct ward_net_state *st,
		 ward_err *err)
{
	uint32_t role =
	    x && x->family == 6 ? WARD_NET_MAP_ALLOW6 : WARD_NET_MAP_ALLOW4;
	struct also_entry e;

	if (b->nmaps > ARRAY_LEN(st->map_fd) ||
	    b->nprogs > ARRAY_LEN(st->prog_fd))
		return ward_fail(err, 0, "bpf: %u maps and %u programs",
				 b->nmaps, b->nprogs);
	st->cgroup_fd = fcntl(cgroup_fd, F_DUPFD_CLOEXEC, 3);
	if (st->cgroup_fd < 0)
		return ward_fail(err, errno, "dup the cgroup descriptor");
	for (uint32_t i = 0; i < b->nmaps; i++) {
		bool here = x && b->maps[i].role == role;

		if (here && also_entry(&b->maps[i], x, &e, err) < 0)
			return -1;
		st->map_fd[i] =
		    create_map(&b->maps[i], here && !e.replaces, err);
		if (st->map_fd[i] < 0 || fill_map(st->map_fd[i], &b->maps[i],
						  here ? &e : NULL, err) < 0)
			return -1;
		if (b->maps[i].role == WARD_NET_MAP_DENIED)
			st->denied_fd = st->map_fd[i];
	}
	for (uint32_t i = 0; i < b->nprogs; i++) {
		st->prog_fd[i] = load_prog(b, i, st->map_fd, err);
		if (st->prog_fd[i] < 0)
			return -1;
	}
	for (uint32_t i = 0; i < b->nprogs; i++) {
		const struct ward_net_prog *p = &b->progs[i];

		if (attach(st->cgroup_fd, st->prog_fd[i], p->attach_type,
			   ward_net_prog_name(p->type, p->attach_type),
			   err) < 0)
			return -1;
		st->attach_type[i] = p->attach_type;
		st->attached[i] = true;
	}
	return 0;
}

int ward_net_setup(const struct ward_net *net, int cgroup_fd,
		   struct ward_net_state *st, ward_err *err)
{
	return ward_net_setup_also(net, cgroup_fd, NULL, st, err);
}

int ward_net_setup_also(const struct ward_net *net, int cgroup_fd,
			const struct ward_net_also *also,
			struct ward_net_state *st, ward_err *err)
{
	ward_net_state_init(st);
	if (net->mode != WARD_NET_ALLOWLIST)
		return 0;
	if (net->bpf.nprogs == 0)
		return ward_fail(err, 0,
				 "the network allow-list has no programs");
	if (cgroup_fd < 0)
		return ward_fail(
		    err, 0,
		    "the network allow-list needs a cgroup2 "
		    "directory for the run, to attach its programs "
		    "to (is cgroup2 mounted?)");
	if (setup(&net->bpf, cgroup_fd, also, st, err) < 0) {
		/* No run will use the cgroup: leave it as it was. */
		for (size_t i = 0; i < ARRAY_LEN(st->prog_fd); i++) {
			union bpf_attr a;
			if (!st->attached[i])
				continue;
			memset(&a, 0, sizeof(a));
			a.target_fd = (uint32_t)st->cgroup_fd;
			a.attach_bpf_fd = (uint32_t)st->prog_fd[i];
			a.attach_type = st->attach_type[i];
			sys_bpf(BPF_PROG_DETACH, &a);
		}
		ward_net_teardown(st);
		return -1;
	}
	return 0;
}

void ward_net_teardown(struct ward_net_state *st)
{
	/* The programs are not detached: they go with the cgroup when it is
	 * removed, and until then a process that outlived the run is still
	 * filtered. Closing our descriptors only drops our references. */
	for (size_t i = 0; i < ARRAY_LEN(st->prog_fd); i++) {
		if (st->prog_fd[i] >= 0)
			close(st->prog_fd[i]);
		st->prog_fd[i] = -1;
		st->attached[i] = false;
	}
	for (size_t i = 0; i < ARRAY_LEN(st->map_fd); i++) {
		if (st->map_fd[i] >= 0)
			close(st->map_fd[i]);
		st->map_fd[i] = -1;
	}
	if (st->cgroup_fd >= 0)
		close(st->cgroup_fd);
	st->cgroup_fd = st->denied_fd = -1;
}

/* ------------------------------------------------------------ denials */

static int cmp_denial(const void *x, const void *y)
{
	const struct ward_net_denial *a = x, *b = y;
	int c;

	if ((a->family == 0) != (b->family == 0))
		return a->family == 0 ? 1 : -1; /* overflow last */
	if (a->hook != b->hook)
		return a->hook - b->hook;
	if (a->family != b->family)
		return a->family - b->family;
	if ((c = memcmp(a->addr, b->addr, 16)))
		return c;
	if (a->port != b->port)
		return a->port - b->port;
	if (a->proto != b->proto)
		return a->proto - b->proto;
	return a->type - b->type;
}

int ward_net_denials(const struct ward_net_state *st,
		     struct ward_net_denial **out, size_t *n, ward_err *err)
{
	uint8_t key[WARD_NET_DENIED_KEY_SIZE], next[WARD_NET_DENIED_KEY_SIZE];
	_cleanup_free_ struct ward_net_denial *d = NULL;
	size_t cnt = 0, cap = 0;
	bool first = true;
	union bpf_attr a;

	*out = NULL;
	*n = 0;
	if (st->denied_fd < 0)
		return 0;
	for (;;) {
		uint64_t count;

		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)st->denied_fd;
		a.key = first ? 0 : ptr(key);
		a.next_key = ptr(next);
		if (sys_bpf(BPF_MAP_GET_NEXT_KEY, &a) < 0) {
			if (errno == ENOENT)
				break;
			return ward_fail(err, errno, "bpf: read the denials");
		}
		first = false;
		memcpy(key, next, sizeof(key));
		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)st->denied_fd;
		a.key = ptr(key);
		a.value = ptr(&count);
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a) < 0) {
			if (errno == ENOENT)
				continue;
			return ward_fail(err, errno, "bpf: read the denials");
		}
		if (count == 0)
			continue; /* the overflow entry, unused */
		if (cnt == cap) {
			size_t nc = cap ? 2 * cap : 16;
			struct ward_net_denial *nd =
			    reallocarray(d, nc, sizeof(*d));
			if (!nd)
				return ward_fail(err, ENOMEM,
						 "bpf: read the denials");
			d = nd;
			cap = nc;
		}
		struct ward_net_denial *r = &d[cnt++];
		memset(r, 0, sizeof(*r));
		memcpy(r->addr, key + WARD_NET_DK_ADDR, 16);
		memcpy(&r->port, key + WARD_NET_DK_PORT, 2);
		r->family = key[WARD_NET_DK_FAMILY];
		r->proto = key[WARD_NET_DK_PROTO];
		r->hook = key[WARD_NET_DK_HOOK];
		r->type = key[WARD_NET_DK_TYPE];
		r->count = count;
	}
	if (cnt)
		qsort(d, cnt, sizeof(*d), cmp_denial);
	*out = steal_pointer(&d);
	*n = cnt;
	return 0;
}

const char *ward_net_denial_str(const struct ward_net_denial *d, char *buf,
				size_t len)
{
	char a[INET6_ADDRSTRLEN] = "";
	const char *proto = d->proto == IPPROTO_TCP   ? "tcp"
			    : d->proto == IPPROTO_UDP ? "udp"
						      : NULL;

	if (d->family == 0) {
		snprintf(buf, len, "overflow");
		return buf;
	}
	if (d->hook == WARD_NET_HOOK_CREATE) {
		snprintf(buf, len, "create ipv%u protocol %u type %u",
			 d->family, d->proto, d->type);
		return buf;
	}
	inet_ntop(d->family == 4 ? AF_INET : AF_INET6, d->addr, a, sizeof(a));
	char p[16];
	if (!proto) {
		snprintf(p, sizeof(p), "proto-%u", d->proto);
		proto = p;
	}
	snprintf(buf, len, d->family == 4 ? "%s %s %s:%u" : "%s %s [%s]:%u",
		 ward_net_hook_name(d->hook), proto, a, d->port);
	return buf;
}
