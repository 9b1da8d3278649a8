/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the network allow-list's compiled form: the map contents
 * (compiler/codegen/net_bpf.c) against the rules they come from, the blob
 * section (writer and reader), socket() narrowing and /etc/hosts (net_apply.c),
 * and the launcher's pure functions (launcher/core/net.c). The programs
 * themselves run in the kernel in tests/net/run.sh.
 */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "blob_read.h"
#include "blob_write.h"
#include "driver.h"
#include "net.h"
#include "net_bpf.h"
#include "net_layout.h"
#include "pool.h"
#include "tests/lib/blob_corpus.h"
#include "tests/oracle/rules_eval.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

/* ------------------------------------------------------------ helpers */

static struct ward_net_rule rule(uint8_t proto, const char *net, uint16_t lo,
				 uint16_t hi)
{
	struct ward_net_rule r = {.proto = proto, .port_lo = lo, .port_hi = hi};
	char a[64];
	const char *slash = strchr(net, '/');

	snprintf(a, sizeof(a), "%.*s", (int)(slash - net), net);
	r.prefix = (uint8_t)atoi(slash + 1);
	if (inet_pton(AF_INET, a, r.addr) == 1)
		r.family = 4;
	else if (inet_pton(AF_INET6, a, r.addr) == 1)
		r.family = 6;
	else
		fail_msg("bad network %s", net);
	return r;
}

static struct ward_net_bpf build(struct ward_pool *pool,
				 const struct ward_net_rule *rules, uint32_t n)
{
	struct ward_net net = {
	    .mode = WARD_NET_ALLOWLIST, .rules = rules, .nrules = n};
	struct ward_net_bpf b;
	uint32_t bad;
	ward_err err = {0};

	if (ward_net_bpf_build(pool, &net, &b, &bad, &err) < 0)
		fail_msg("build: %s", err.msg);
	return b;
}

static bool allows(const struct ward_net_bpf *b, const char *addr,
		   uint8_t proto, uint16_t port)
{
	uint8_t a[16] = {0};

	if (inet_pton(AF_INET, addr, a) == 1)
		return ward_net_bpf_allows(b, 4, a, proto, port);
	assert_int_equal(inet_pton(AF_INET6, addr, a), 1);
	return ward_net_bpf_allows(b, 6, a, proto, port);
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* ------------------------------------------------------------ maps */

/* Overlapping networks: the longer prefix's value holds the shorter's
 * ranges too, since a trie lookup finds only the longest match. */
static void trie_contents(void **state)
{
	struct ward_pool *pool = ward_pool_new();
	const struct ward_net_rule r[] = {
	    rule(IPPROTO_TCP, "10.0.0.0/8", 443, 443),
	    rule(IPPROTO_TCP, "10.1.0.0/16", 80, 80),
	    rule(IPPROTO_UDP, "10.1.0.0/16", 53, 53),
	};
	struct ward_net_bpf b = build(pool, r, 3);

	(void)state;
	assert_int_equal(b.nmaps, 3);
	const struct ward_net_map *m4 = &b.maps[0], *m6 = &b.maps[1],
				  *md = &b.maps[2];
	assert_int_equal(m4->role, WARD_NET_MAP_ALLOW4);
	assert_int_equal(m4->nentries, 2);
	assert_int_equal(m4->max_entries, 2);
	assert_int_equal(m4->key_size, 8);
	size_t rec = 8 + WARD_NET_VALUE_SIZE;
	const uint8_t k8[8] = {8, 0, 0, 0, 10, 0, 0, 0},
		      k16[8] = {16, 0, 0, 0, 10, 1, 0, 0};
	assert_memory_equal(m4->entries, k8, 8);
	assert_memory_equal(m4->entries + rec, k16, 8);
	const uint8_t *v8 = m4->entries + 8, *v16 = m4->entries + rec + 8;
	assert_int_equal(le16(v8), 443);
	assert_int_equal(le16(v8 + 2), 443);
	assert_int_equal(le16(v8 + 4), 1); /* unused: 1-0 */
	assert_int_equal(le16(v8 + 6), 0);
	assert_int_equal(le16(v8 + WARD_NET_UDP_BASE), 1);
	assert_int_equal(le16(v16), 80);
	assert_int_equal(le16(v16 + 4), 443);
	assert_int_equal(le16(v16 + 8), 1);
	assert_int_equal(le16(v16 + WARD_NET_UDP_BASE), 53);
	assert_int_equal(le16(v16 + WARD_NET_UDP_BASE + 2), 53);
	assert_int_equal(m6->nentries, 0);
	assert_int_equal(m6->max_entries, 1);
	assert_int_equal(md->role, WARD_NET_MAP_DENIED);
	assert_int_equal(md->nentries, 1);
	assert_int_equal(md->max_entries, WARD_NET_DENIED_MAX);
	static const uint8_t zero[32];
	assert_memory_equal(md->entries, zero, 32);

	assert_true(allows(&b, "10.1.2.3", IPPROTO_TCP, 443));
	assert_true(allows(&b, "10.1.2.3", IPPROTO_TCP, 80));
	assert_false(allows(&b, "10.2.2.3", IPPROTO_TCP, 80));
	assert_false(allows(&b, "10.1.2.3", IPPROTO_UDP, 443));
	assert_true(allows(&b, "10.1.2.3", IPPROTO_UDP, 53));
	assert_false(allows(&b, "11.0.0.1", IPPROTO_TCP, 443));
	assert_false(allows(&b, "10.1.2.3", IPPROTO_ICMP, 0));
	ward_pool_free(pool);
}

/* Ranges that touch or overlap take one slot. */
static void ranges_merge(void **state)
{
	struct ward_pool *pool = ward_pool_new();
	const struct ward_net_rule r[] = {
	    rule(IPPROTO_TCP, "192.0.2.1/32", 80, 80),
	    rule(IPPROTO_TCP, "192.0.2.1/32", 81, 90),
	    rule(IPPROTO_TCP, "192.0.2.1/32", 85, 91),
	    rule(IPPROTO_TCP, "192.0.2.1/32", 93, 93),
	};
	struct ward_net_bpf b = build(pool, r, 4);
	const uint8_t *v = b.maps[0].entries + 8;

	(void)state;
	assert_int_equal(le16(v), 80);
	assert_int_equal(le16(v + 2), 91);
	assert_int_equal(le16(v + 4), 93);
	assert_int_equal(le16(v + 6), 93);
	assert_int_equal(le16(v + 8), 1);
	assert_false(allows(&b, "192.0.2.1", IPPROTO_TCP, 92));
	assert_true(allows(&b, "192.0.2.1", IPPROTO_TCP, 91));
	ward_pool_free(pool);
}

/* An IPv6 rule covering IPv4-mapped addresses reaches IPv4 too; IPv4 rules
 * are reached from IPv6 sockets through mapped addresses. */
static void mapped(void **state)
{
	struct ward_pool *pool = ward_pool_new();
	const struct ward_net_rule r[] = {
	    rule(IPPROTO_TCP, "198.51.100.7/32", 22, 22),
	    rule(IPPROTO_TCP, "::ffff:192.0.2.0/120", 443, 443),
	    rule(IPPROTO_UDP, "2001:db8::/32", 53, 53),
	};
	struct ward_net_bpf b = build(pool, r, 3);

	(void)state;
	assert_int_equal(b.maps[0].nentries, 2); /* 192.0.2.0/24, 198.51... */
	assert_true(allows(&b, "192.0.2.9", IPPROTO_TCP, 443));
	assert_true(allows(&b, "::ffff:192.0.2.9", IPPROTO_TCP, 443));
	assert_true(allows(&b, "::ffff:198.51.100.7", IPPROTO_TCP, 22));
	assert_false(allows(&b, "::ffff:198.51.100.8", IPPROTO_TCP, 22));
	assert_false(allows(&b, "192.0.3.9", IPPROTO_TCP, 443));
	assert_true(allows(&b, "2001:db8:1::5", IPPROTO_UDP, 53));
	assert_false(allows(&b, "2001:db9::5", IPPROTO_UDP, 53));

	/* All of IPv6 is all of IPv4 too. */
	const struct ward_net_rule all[] = {rule(IPPROTO_TCP, "::/0", 1, 1)};
	struct ward_net_bpf w = build(pool, all, 1);
	assert_int_equal(w.maps[0].nentries, 1);
	assert_int_equal(w.maps[0].entries[0], 0); /* prefix 0 */
	assert_true(allows(&w, "203.0.113.1", IPPROTO_TCP, 1));
	ward_pool_free(pool);
}

/* The naive meaning of an allow-list: some rule of the protocol whose
 * network holds the address (a mapped IPv6 address being its IPv4 one,
 * an IPv6 rule over mapped space holding IPv4 addresses) and the port. */
static bool in_net(const uint8_t *a, const uint8_t *net, unsigned prefix)
{
	for (unsigned b = 0; b < prefix; b++)
		if ((a[b / 8] ^ net[b / 8]) & (0x80 >> (b % 8)))
			return false;
	return true;
}

static bool naive(const struct ward_net_rule *r, uint32_t n, uint8_t family,
		  const uint8_t *addr, uint8_t proto, uint16_t port)
{
	static const uint8_t mp[16] = {[10] = 0xff, [11] = 0xff};
	uint8_t v6[16];

	if (family == 6 && !memcmp(addr, mp, 12))
		return naive(r, n, 4, addr + 12, proto, port);
	if (family == 4) { /* as a mapped address, for IPv6 rules */
		memcpy(v6, mp, 12);
		memcpy(v6 + 12, addr, 4);
	}
	for (uint32_t i = 0; i < n; i++) {
		if (r[i].proto != proto || port < r[i].port_lo ||
		    port > r[i].port_hi)
			continue;
		if (r[i].family == family &&
		    in_net(addr, r[i].addr, r[i].prefix))
			return true;
		if (family == 4 && r[i].family == 6 &&
		    in_net(v6, r[i].addr, r[i].prefix))
			return true;
	}
	return false;
}

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

static void random_against_naive(void **state)
{
	uint64_t seed = 42;
	static const uint8_t plens4[] = {0, 8, 12, 16, 24, 30, 32};
	static const uint8_t plens6[] = {0, 16, 64, 96, 104, 120, 128};

	(void)state;
	for (int iter = 0; iter < 400; iter++) {
		struct ward_pool *pool = ward_pool_new();
		struct ward_net_rule r[12];
		uint32_t n = 1 + rnd(&seed) % 12;
		for (uint32_t i = 0; i < n; i++) {
			memset(&r[i], 0, sizeof(r[i]));
			r[i].proto = rnd(&seed) % 2 ? IPPROTO_TCP : IPPROTO_UDP;
			r[i].family = rnd(&seed) % 3 ? 4 : 6;
			if (r[i].family == 4) {
				r[i].prefix = plens4[rnd(&seed) % 7];
				r[i].addr[0] = 10;
				r[i].addr[1] = (uint8_t)(rnd(&seed) % 3);
				r[i].addr[2] = (uint8_t)(rnd(&seed) % 3);
				r[i].addr[3] = (uint8_t)(rnd(&seed) % 4);
			} else {
				r[i].prefix = plens6[rnd(&seed) % 7];
				r[i].addr[10] = r[i].addr[11] =
				    rnd(&seed) % 2 ? 0xff : 0;
				r[i].addr[12] = 10;
				r[i].addr[13] = (uint8_t)(rnd(&seed) % 3);
				r[i].addr[15] = (uint8_t)(rnd(&seed) % 4);
			}
			unsigned bits = r[i].family == 4 ? 32 : 128;
			for (unsigned b = r[i].prefix; b < bits; b++)
				r[i].addr[b / 8] &=
				    (uint8_t) ~(0x80 >> (b % 8));
			r[i].port_lo = (uint16_t)(1 + rnd(&seed) % 40);
			r[i].port_hi =
			    (uint16_t)(r[i].port_lo + rnd(&seed) % 10);
		}
		struct ward_net_bpf b = build(pool, r, n);
		for (int q = 0; q < 300; q++) {
			uint8_t a[16] = {0}, fam = rnd(&seed) % 3 ? 4 : 6;
			uint8_t proto =
			    rnd(&seed) % 2 ? IPPROTO_TCP : IPPROTO_UDP;
			uint16_t port = (uint16_t)(rnd(&seed) % 52);
			if (fam == 4) {
				a[0] = rnd(&seed) % 8 ? 10 : 11;
				a[1] = (uint8_t)(rnd(&seed) % 3);
				a[2] = (uint8_t)(rnd(&seed) % 3);
				a[3] = (uint8_t)(rnd(&seed) % 4);
			} else {
				a[10] = a[11] = rnd(&seed) % 2 ? 0xff : 0;
				a[12] = 10;
				a[13] = (uint8_t)(rnd(&seed) % 3);
				a[15] = (uint8_t)(rnd(&seed) % 4);
			}
			bool want = naive(r, n, fam, a, proto, port);
			bool got = ward_net_bpf_allows(&b, fam, a, proto, port);
			if (want != got)
				fail_msg("iteration %d query %d: want %d got "
					 "%d",
					 iter, q, want, got);
		}
		ward_pool_free(pool);
	}
}

static void too_many_ranges(void **state)
{
	struct ward_pool *pool = ward_pool_new();
	struct ward_net_rule r[18];
	struct ward_net net = {.mode = WARD_NET_ALLOWLIST, .rules = r};
	struct ward_net_bpf b;
	ward_err err = {0};
	uint32_t bad = 99;

	(void)state;
	r[0] = rule(IPPROTO_UDP, "10.0.0.0/8", 1, 1);
	for (int i = 1; i < 18; i++)
		r[i] = rule(IPPROTO_TCP, "10.0.0.1/32", (uint16_t)(10 * i),
			    (uint16_t)(10 * i));
	net.nrules = 17; /* 16 TCP ranges: fits */
	assert_int_equal(ward_net_bpf_build(pool, &net, &b, &bad, &err), 0);
	net.nrules = 18;
	assert_int_equal(ward_net_bpf_build(pool, &net, &b, &bad, &err), -1);
	assert_int_equal(bad, 1);
	assert_non_null(strstr(err.msg, "tcp to a network here needs 17 "
					"separate port ranges"));
	ward_pool_free(pool);
}

/* The programs' frame: in attach order, every map load relocated. */
static void programs_shape(void **state)
{
	struct ward_pool *pool = ward_pool_new();
	const struct ward_net_rule r[] = {
	    rule(IPPROTO_TCP, "10.0.0.0/8", 443, 443)};
	struct ward_net_bpf b = build(pool, r, 1);
	static const uint32_t order[] = {
	    BPF_CGROUP_INET_INGRESS,	 BPF_CGROUP_INET_EGRESS,
	    BPF_CGROUP_INET_SOCK_CREATE, BPF_CGROUP_INET4_BIND,
	    BPF_CGROUP_INET6_BIND,	 BPF_CGROUP_INET4_CONNECT,
	    BPF_CGROUP_INET6_CONNECT,	 BPF_CGROUP_UDP4_SENDMSG,
	    BPF_CGROUP_UDP6_SENDMSG};
	uint32_t loads = 0;

	(void)state;
	assert_int_equal(b.nprogs, 9);
	for (uint32_t i = 0; i < b.nprogs; i++) {
		const struct ward_net_prog *p = &b.progs[i];
		assert_int_equal(p->attach_type, order[i]);
		assert_non_null(ward_net_prog_name(p->type, p->attach_type));
		assert_int_equal(p->insns[p->ninsns - 1].code,
				 BPF_JMP | BPF_EXIT);
		for (uint32_t k = 0; k < p->ninsns; k++)
			if (p->insns[k].code == (BPF_LD | BPF_IMM | BPF_DW))
				loads++, k++;
	}
	assert_int_equal(b.nrelocs, loads);
	for (uint32_t i = 0; i < b.nrelocs; i++) {
		const struct ward_net_reloc *rl = &b.relocs[i];
		assert_true(rl->map < 3);
		assert_int_equal(b.progs[rl->prog].insns[rl->insn].regs >> 4,
				 BPF_PSEUDO_MAP_FD);
	}
	ward_pool_free(pool);
}

/* ------------------------------------------------------------ blob */

struct netpol {
	struct ward_pool *pool;
	struct ward_policy p;
	struct ward_net_rule rules[2];
	/* Writable copies of the section, for the broken variants. */
	struct ward_net_map maps[3];
	struct ward_net_prog progs[9];
	struct ward_net_reloc relocs[128];
	uint8_t entries[3][4 * (20 + WARD_NET_VALUE_SIZE)];
	struct ward_bpf_insn insns[9][1024];
};

static struct netpol *netpol(void)
{
	struct netpol *n = calloc(1, sizeof(*n));
	ward_err err = {0};
	uint32_t bad;

	assert_non_null(n);
	n->pool = ward_pool_new();
	n->p = *ward_test_policy_minimal();
	n->rules[0] = rule(IPPROTO_TCP, "10.0.0.0/8", 443, 443);
	n->rules[1] = rule(IPPROTO_TCP, "10.1.0.0/16", 80, 80);
	n->p.net = (struct ward_net){
	    .mode = WARD_NET_ALLOWLIST, .rules = n->rules, .nrules = 2};
	n->p.requirements |= WARD_REQ_NET_BPF;
	struct ward_net_bpf b;
	assert_int_equal(ward_net_bpf_build(n->pool, &n->p.net, &b, &bad, &err),
			 0);
	memcpy(n->maps, b.maps, sizeof(n->maps));
	for (int i = 0; i < 3; i++) {
		size_t len = (size_t)b.maps[i].nentries *
			     (b.maps[i].key_size + b.maps[i].value_size);
		assert_true(len <= sizeof(n->entries[i]));
		memcpy(n->entries[i], b.maps[i].entries, len);
		n->maps[i].entries = n->entries[i];
	}
	memcpy(n->progs, b.progs, sizeof(n->progs));
	for (int i = 0; i < 9; i++) {
		memcpy(n->insns[i], b.progs[i].insns,
		       b.progs[i].ninsns * sizeof(struct ward_bpf_insn));
		n->progs[i].insns = n->insns[i];
	}
	assert_true(b.nrelocs <= 128);
	memcpy(n->relocs, b.relocs, b.nrelocs * sizeof(*b.relocs));
	n->p.net.bpf = (struct ward_net_bpf){n->maps, 3,	 n->progs,
					     9,	      n->relocs, b.nrelocs};
	return n;
}

static void netpol_free(struct netpol *n)
{
	ward_pool_free(n->pool);
	free(n);
}

static void blob_round_trip(void **state)
{
	struct netpol *n = netpol();
	uint8_t *buf, *again;
	size_t len, len2;
	struct ward_blob b;
	ward_err err = {0};

	(void)state;
	assert_int_equal(ward_blob_write(&n->p, &buf, &len, &err), 0);
	assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), 0);
	const struct ward_net_bpf *x = &b.policy.net.bpf, *y = &n->p.net.bpf;
	assert_int_equal(x->nmaps, 3);
	assert_int_equal(x->nprogs, 9);
	assert_int_equal(x->nrelocs, y->nrelocs);
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(x->maps[i].nentries, y->maps[i].nentries);
		assert_memory_equal(
		    x->maps[i].entries, y->maps[i].entries,
		    x->maps[i].nentries *
			(x->maps[i].key_size + x->maps[i].value_size));
	}
	for (uint32_t i = 0; i < 9; i++) {
		assert_int_equal(x->progs[i].ninsns, y->progs[i].ninsns);
		assert_memory_equal(x->progs[i].insns, y->progs[i].insns,
				    x->progs[i].ninsns *
					sizeof(struct ward_bpf_insn));
	}
	assert_memory_equal(x->relocs, y->relocs,
			    x->nrelocs * sizeof(*x->relocs));
	/* Canonical: what was read writes back to the same bytes. */
	assert_int_equal(ward_blob_write(&b.policy, &again, &len2, &err), 0);
	assert_int_equal(len, len2);
	assert_memory_equal(buf, again, len);
	free(again);
	ward_blob_release(&b);
	free(buf);
	netpol_free(n);
}

static void broken(struct netpol *n, const char *msg)
{
	uint8_t *buf;
	size_t len;
	struct ward_blob b;
	ward_err err = {0};

	assert_int_equal(ward_blob_write_unchecked(&n->p, &buf, &len, &err), 0);
	assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), -1);
	if (!strstr(err.msg, msg))
		fail_msg("\"%s\" lacks \"%s\"", err.msg, msg);
	free(buf);
	netpol_free(n);
}

/* The first instruction of program p that loads a map, or of code c. */
static uint32_t find(struct netpol *n, int p, uint8_t code)
{
	for (uint32_t k = 0; k < n->progs[p].ninsns; k++)
		if (n->insns[p][k].code == code)
			return k;
	fail_msg("no opcode 0x%x", code);
	return 0;
}

static void reader_refuses(void **state)
{
	struct netpol *n;
	size_t rec = 8 + WARD_NET_VALUE_SIZE;

	(void)state;
	n = netpol();
	n->maps[0].role = 2;
	broken(n, "net-bpf) map 0: role 2, expected 1 (allow4)");
	n = netpol();
	n->maps[1].type = BPF_MAP_TYPE_HASH;
	broken(n, "are not those of the allow6 map");
	n = netpol();
	n->maps[0].max_entries = 100;
	broken(n, "2 entries in a map of 100");
	n = netpol();
	n->maps[2].max_entries = 5000;
	broken(n, "1 entries in a map of 5000");
	n = netpol();
	n->entries[0][5] = 7; /* 10.7.0.0/8 */
	broken(n, "map 0 entry 0: key has bits set past its /8 prefix");
	n = netpol();
	n->entries[0][0] = 33;
	broken(n, "prefix /33 is longer than 32");
	n = netpol();
	{
		uint8_t tmp[8 + WARD_NET_VALUE_SIZE];
		memcpy(tmp, n->entries[0], rec);
		memcpy(n->entries[0], n->entries[0] + rec, rec);
		memcpy(n->entries[0] + rec, tmp, rec);
	}
	broken(n, "keys are not in increasing order");
	n = netpol();
	n->entries[0][8] = 0; /* slot 0 of 10/8: 0-443 */
	n->entries[0][9] = 0;
	broken(n, "port slot 0 (0-443) is not a sorted, separate range");
	n = netpol();
	n->entries[0][rec + 8 + 4] = 0x50; /* slot 1 of 10.1/16: 80-443 */
	n->entries[0][rec + 8 + 5] = 0;
	broken(n, "port slot 1 (80-443) is not a sorted, separate range");
	n = netpol();
	n->entries[2][3] = 1;
	broken(n, "the overflow entry is not zero");
	n = netpol();
	n->progs[2].attach_type = BPF_CGROUP_INET_EGRESS;
	broken(n, "program 2: program type 9 cannot attach at 1");
	n = netpol();
	n->progs[4] = n->progs[3];
	broken(n, "program 4: attach type 8 is repeated or out of order");
	n = netpol();
	n->insns[0][1].code = BPF_ALU64 | BPF_DIV | BPF_X;
	broken(n, "program 0 instruction 1: opcode 0x3f is not allowed");
	n = netpol();
	n->insns[5][0].regs = 10; /* r10 = r1 */
	broken(n, "program 5 instruction 0: bad register r10 or r0");
	n = netpol();
	{
		uint32_t k = find(n, 5, BPF_JMP | BPF_JEQ | BPF_K);
		n->insns[5][k].off = 5000;
		broken(n, "is outside the program or inside an instruction");
	}
	n = netpol();
	{
		uint32_t k = find(n, 5, BPF_JMP | BPF_CALL);
		n->insns[5][k].imm = 6; /* trace_printk */
		broken(n, "call of helper 6 is not allowed");
	}
	n = netpol();
	n->insns[6][n->progs[6].ninsns - 1].code = BPF_ALU64 | BPF_MOV | BPF_K;
	broken(n, "the last instruction is not an exit");
	n = netpol();
	n->p.net.bpf.nrelocs--;
	broken(n, "loads a map without its relocation");
	n = netpol();
	n->relocs[0].map = 7;
	broken(n, "map 7 does not exist");
	n = netpol();
	n->relocs[0].insn++;
	broken(n, "loads a map without its relocation");
	n = netpol();
	n->p.net.bpf.nmaps = 2;
	broken(n, "2 maps and 9 programs, version 1 has 3 and 9");
	n = netpol();
	n->p.net.mode = WARD_NET_NONE;
	n->p.net.nrules = 0;
	n->p.requirements &= ~(uint32_t)WARD_REQ_NET_BPF;
	broken(n, "a net-bpf section in a `net none` policy");
}

/* ------------------------------------------------------------ sema */

struct compiled {
	struct ward_session s;
	char *diags;
	size_t dlen;
	FILE *mem;
	int rc;
};

static struct compiled *compile_d(const char *text, const char **defines,
				  size_t ndefines)
{
	struct compiled *c = calloc(1, sizeof(*c));
	char path[] = "/tmp/ward-test-net-XXXXXX.ward";
	const char *inc[] = {"stdlib-policies"};
	int fd = mkstemps(path, 5);

	assert_non_null(c);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	c->mem = open_memstream(&c->diags, &c->dlen);
	struct ward_opts o = {.incdirs = inc,
			      .nincdirs = 1,
			      .arch = WARD_ARCH_X86_64,
			      .format = WARD_DIAG_TEXT,
			      .color = WARD_COLOR_NEVER,
			      .diag_out = c->mem,
			      .defines = defines,
			      .ndefines = ndefines};
	c->rc = ward_session_open(&c->s, path, &o);
	fflush(c->mem);
	unlink(path);
	return c;
}

static struct compiled *compile(const char *text)
{
	return compile_d(text, NULL, 0);
}

static void compiled_free(struct compiled *c)
{
	ward_session_close(&c->s);
	fclose(c->mem);
	free(c->diags);
	free(c);
}

#define HEAD                                                                   \
	"ward 1;\npolicy t;\nuse base/core;\n"                                 \
	"fs { tmpfs /tmp size 1M; }\n"
#define ALLOWLIST "net { host h = 10.0.0.1; allow tcp h port 443; }\n"

/* What the compiled rule table returns for a call, and what the call
 * gets once the broker has answered (a recorded refusal is its errno). */
static uint32_t call_raw(struct compiled *c, int nr, const uint64_t args[6])
{
	return rules_eval(&c->s.checked.policy.rules, nr, args);
}

static uint32_t sock_raw(struct compiled *c, uint64_t d, uint64_t t, uint64_t p)
{
	const uint64_t args[6] = {d, t, p};

	return call_raw(c, SYS_socket, args);
}

static uint32_t sock(struct compiled *c, uint64_t d, uint64_t t, uint64_t p)
{
	return rules_eval_answer(sock_raw(c, d, t, p));
}

#define ALLOW	      SECCOMP_RET_ALLOW
#define EAFNO	      (SECCOMP_RET_ERRNO | EAFNOSUPPORT)
#define ERR(e)	      (SECCOMP_RET_ERRNO | (e))
#define KILL	      SECCOMP_RET_KILL_PROCESS /* the broker kills the sandbox */
#define NOTIF(via, e) (SECCOMP_RET_USER_NOTIF | (via) << 12 | (e))
#define STREAM_CLO    (SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK)

static void narrow_allowlist(void **state)
{
	struct compiled *c = compile(
	    HEAD ALLOWLIST "syscalls default errno ENOSYS { allow socket; }");

	(void)state;
	assert_int_equal(c->rc, 0);
	assert_int_equal(sock(c, AF_INET, SOCK_STREAM, 0), ALLOW);
	assert_int_equal(sock(c, AF_INET, STREAM_CLO, IPPROTO_TCP), ALLOW);
	assert_int_equal(sock(c, AF_INET6, SOCK_DGRAM, IPPROTO_UDP), ALLOW);
	assert_int_equal(sock(c, AF_UNIX, SOCK_SEQPACKET, 0), ALLOW);
	assert_int_equal(sock(c, AF_NETLINK, SOCK_RAW, 0), EAFNO);
	assert_int_equal(sock(c, AF_PACKET, SOCK_RAW, 768), EAFNO);
	assert_int_equal(sock(c, AF_INET, SOCK_RAW, IPPROTO_ICMP), EAFNO);
	assert_int_equal(sock(c, AF_INET, SOCK_DGRAM, IPPROTO_ICMP), EAFNO);
	assert_int_equal(sock(c, AF_INET6, SOCK_STREAM, IPPROTO_UDP), EAFNO);
	assert_int_equal(sock(c, AF_INET, SOCK_STREAM, 262), EAFNO); /* MPTCP */
	assert_int_equal(sock(c, AF_INET, SOCK_STREAM | 0x100, 0), EAFNO);
	assert_int_equal(sock(c, AF_INET | 1ull << 32, SOCK_STREAM, 0), EAFNO);
	/* every refusal is a network attempt on the record */
	assert_int_equal(sock_raw(c, AF_NETLINK, SOCK_RAW, 0),
			 NOTIF(WARD_VIA_RECORD_NET, EAFNOSUPPORT));
	compiled_free(c);
}

/* An allow-list of names only (no literal rule) is an allow-list: TCP
 * sockets for its connections, UDP ones for the stub (a first cut
 * narrowed it like `net none`, and pip could not resolve its index). */
static void narrow_names_only(void **state)
{
	struct compiled *c =
	    compile(HEAD "net { allow tcp name \"index.example\" port 443; }\n"
			 "syscalls default errno ENOSYS { allow socket; }");

	(void)state;
	assert_int_equal(c->rc, 0);
	assert_int_equal(sock(c, AF_INET, STREAM_CLO, 0), ALLOW);
	assert_int_equal(sock(c, AF_INET6, SOCK_STREAM, IPPROTO_TCP), ALLOW);
	assert_int_equal(sock(c, AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ALLOW);
	assert_int_equal(sock(c, AF_NETLINK, SOCK_RAW, 0), EAFNO);
	assert_int_equal(sock(c, AF_INET, SOCK_RAW, IPPROTO_ICMP), EAFNO);
	compiled_free(c);
}

/* A name rule by a string constant set with -D (docs/spec.md 1.9): the
 * constant's value is the rule's name, normalised; the constants are in
 * the source digest (two indexes, two digests), and a rule by a constant
 * is not the rule for a host of that name. */
static void names_by_define(void **state)
{
	static const char src[] =
	    HEAD "net { allow tcp name idx port 443; }\n"
		 "syscalls default errno ENOSYS { allow socket; }";
	const char *a[] = {"idx=Index.Example."}, *b[] = {"idx=other.example"};
	struct compiled *ca = compile_d(src, a, 1), *cb = compile_d(src, b, 1);
	struct compiled *none = compile(src);
	struct compiled *host = compile(
	    HEAD "net { host idx = 10.0.0.1; allow tcp idx port 443; }\n"
		 "syscalls default errno ENOSYS { allow socket; }");
	const char *h[] = {"idx=x.example"};
	struct compiled *both = compile_d(
	    HEAD "net { host idx = 10.0.0.1; allow tcp idx port 443; }\n"
		 "syscalls default errno ENOSYS { allow socket; }",
	    h, 1);

	(void)state;
	assert_int_equal(ca->rc, 0);
	assert_int_equal(ca->s.checked.policy.net.nnames, 1);
	assert_string_equal(ca->s.checked.policy.net.names[0].name,
			    "index.example");
	assert_int_equal(cb->rc, 0);
	assert_string_equal(cb->s.checked.policy.net.names[0].name,
			    "other.example");
	assert_memory_not_equal(ca->s.checked.policy.meta.source_digest,
				cb->s.checked.policy.meta.source_digest, 32);
	/* not set: refused, with the way to set it */
	assert_int_not_equal(none->rc, 0);
	assert_non_null(strstr(none->diags, "constant `idx` is not defined"));
	assert_non_null(strstr(none->diags, "wardc compile -D idx="));
	/* a host rule of the same name, with or without the constant set,
	 * is a literal rule, and sources that differ only in `name` digest
	 * apart */
	assert_int_equal(host->rc, 0);
	assert_int_equal(host->s.checked.policy.net.nnames, 0);
	assert_int_equal(both->rc, 0);
	assert_int_equal(both->s.checked.policy.net.nnames, 0);
	assert_int_equal(both->s.checked.policy.net.nrules, 1);
	compiled_free(ca);
	compiled_free(cb);
	compiled_free(none);
	compiled_free(host);
	compiled_free(both);
}

static void narrow_net_none(void **state)
{
	struct compiled *c = compile(
	    HEAD "net none;\nsyscalls default errno ENOSYS { allow socket; "
		 "allow connect, sendto; }");
	const uint64_t addr[6] = {3, 0x1000, 5, 0, 0x2000, 16};

	(void)state;
	assert_int_equal(c->rc, 0);
	assert_int_equal(sock(c, AF_UNIX, SOCK_STREAM, 0), ALLOW);
	assert_int_equal(sock(c, AF_INET, SOCK_STREAM, 0), EAFNO);
	assert_int_equal(sock(c, AF_INET6, SOCK_DGRAM, 0), EAFNO);
	assert_int_equal(sock(c, AF_NETLINK, SOCK_RAW, 0), EAFNO);
	/* a refused socket() is a network attempt on the record */
	assert_int_equal(sock_raw(c, AF_INET, SOCK_STREAM, 0),
			 NOTIF(WARD_VIA_RECORD_NET, EAFNOSUPPORT));
	/* no IP socket, nothing to broker */
	assert_int_equal(call_raw(c, SYS_connect, addr), ALLOW);
	assert_int_equal(call_raw(c, SYS_sendto, addr), ALLOW);
	compiled_free(c);
}

/* With an allow-list: what would move a brokered socket is refused (and
 * recorded); what the broker cannot hold needs the cgroup programs. */
static void broker_rules_allowlist(void **state)
{
	struct compiled *c = compile(
	    HEAD ALLOWLIST "syscalls default errno ENOSYS { allow socket; "
			   "allow connect, sendto, sendmsg, sendmmsg, "
			   "setsockopt; }");
	const uint64_t tfo[6] = {3, 0x1000, 5, 0x20000000, 0x2000, 16};
	const uint64_t tfo_msg[6] = {3, 0x1000, 0x20000000};
	const uint64_t ipopt[6] = {3, 0, 4, 0x1000, 40};
	const uint64_t ipopt_hi[6] = {3, 1ull << 32, 4ull | 1ull << 40, 0x1000};
	const uint64_t rthdr[6] = {3, 41, 57, 0x1000, 40};
	const uint64_t nodelay[6] = {3, 6, 1, 0x1000, 4};

	(void)state;
	assert_int_equal(c->rc, 0);
	const uint64_t addr[6] = {3, 0x1000, 5, 0, 0x2000, 16};
	const uint64_t none[6] = {3, 0x1000, 5, 0, 0, 0};

	assert_int_equal(call_raw(c, SYS_connect, addr),
			 NOTIF(WARD_VIA_CONNECT, 0));
	assert_int_equal(call_raw(c, SYS_sendto, addr),
			 NOTIF(WARD_VIA_SENDTO, 0));
	assert_int_equal(call_raw(c, SYS_sendto, none), ALLOW);
	assert_int_equal(call_raw(c, SYS_sendto, tfo),
			 NOTIF(WARD_VIA_RECORD_NET, EOPNOTSUPP));
	assert_int_equal(call_raw(c, SYS_sendmsg, tfo_msg),
			 NOTIF(WARD_VIA_RECORD_NET, EOPNOTSUPP));
	assert_int_equal(call_raw(c, SYS_setsockopt, ipopt),
			 NOTIF(WARD_VIA_RECORD_NET, ENOPROTOOPT));
	/* the kernel reads level and optname as int */
	assert_int_equal(call_raw(c, SYS_setsockopt, ipopt_hi),
			 NOTIF(WARD_VIA_RECORD_NET, ENOPROTOOPT));
	assert_int_equal(call_raw(c, SYS_setsockopt, rthdr),
			 NOTIF(WARD_VIA_RECORD_NET, ENOPROTOOPT));
	assert_int_equal(call_raw(c, SYS_setsockopt, nodelay), ALLOW);
	assert_false(c->s.checked.policy.requirements & WARD_REQ_NET_BPF);
	compiled_free(c);

	/* io_uring, or UDP: the broker alone cannot hold them, the cgroup
	 * programs must be there too */
	c = compile(HEAD ALLOWLIST "syscalls default errno ENOSYS { "
				   "allow socket, io_uring_setup; }");
	assert_int_equal(c->rc, 0);
	assert_true(c->s.checked.policy.requirements & WARD_REQ_NET_BPF);
	compiled_free(c);
	c = compile(HEAD "net { host h = 10.0.0.1; allow udp h port 53; }\n"
			 "syscalls default errno ENOSYS { allow socket; }");
	assert_int_equal(c->rc, 0);
	assert_true(c->s.checked.policy.requirements & WARD_REQ_NET_BPF);
	compiled_free(c);
}

/* The net section never widens: the policy's own refusals stay. */
static void narrow_never_widens(void **state)
{
	struct compiled *c =
	    compile(HEAD ALLOWLIST "syscalls default errno ENOSYS {\n"
				   "allow socket if domain == AF_UNIX;\n"
				   "errno EPERM socket; }");

	(void)state;
	assert_int_equal(c->rc, 0);
	assert_int_equal(sock(c, AF_UNIX, SOCK_STREAM, 0), ALLOW);
	assert_int_equal(sock(c, AF_INET, SOCK_STREAM, 0), ERR(EPERM));
	assert_int_equal(sock(c, AF_NETLINK, SOCK_RAW, 0), ERR(EPERM));
	compiled_free(c);

	/* A conditional allow of netlink is overridden (strictest wins). */
	c = compile(HEAD ALLOWLIST "syscalls default errno ENOSYS {\n"
				   "allow socket if domain == AF_NETLINK;\n"
				   "allow socket if domain == AF_INET; }");
	assert_int_equal(c->rc, 0);
	assert_int_equal(sock(c, AF_NETLINK, SOCK_RAW, 0), ERR(ENOSYS));
	assert_int_equal(sock(c, AF_INET, SOCK_STREAM, 0), ALLOW);
	assert_int_equal(sock(c, AF_INET, SOCK_RAW, 1), ERR(ENOSYS));
	compiled_free(c);

	/* The policy's own conditional refusal keeps its errno: the net
	 * section's lower errno (ENOSYS, the default's) must not win the
	 * errno tie-break there; it still narrows the rest. */
	c = compile(HEAD "net none;\nsyscalls default errno ENOSYS {\n"
			 "allow socket if domain == AF_UNIX;\n"
			 "errno EAFNOSUPPORT socket if domain == AF_INET;\n"
			 "allow socket if domain == AF_INET6; }");
	assert_int_equal(c->rc, 0);
	assert_int_equal(sock(c, AF_UNIX, SOCK_STREAM, 0), ALLOW);
	assert_int_equal(sock(c, AF_INET, SOCK_STREAM, 0), EAFNO);
	assert_int_equal(sock(c, AF_INET6, SOCK_STREAM, 0), ERR(ENOSYS));
	assert_int_equal(sock(c, AF_NETLINK, SOCK_RAW, 0), ERR(ENOSYS));
	compiled_free(c);

	/* kill stays kill; an untouched entry stays untouched. */
	c = compile(HEAD ALLOWLIST "syscalls default errno ENOSYS {\n"
				   "kill socket; }");
	assert_int_equal(c->rc, 0);
	assert_int_equal(sock(c, AF_NETLINK, SOCK_RAW, 0), KILL);
	assert_int_equal(sock(c, AF_INET, SOCK_STREAM, 0), KILL);
	const struct ward_rules *r = &c->s.checked.policy.rules;
	for (uint32_t i = 0; i < r->nsyscalls; i++)
		if (r->syscalls[i].nr == SYS_socket)
			assert_int_equal(r->syscalls[i].nconds, 0);
	compiled_free(c);
}

/* A default of allow: socket gets an entry of its own, in order. */
static void narrow_default_allow(void **state)
{
	struct compiled *c =
	    compile(HEAD ALLOWLIST "syscalls default allow { errno EPERM "
				   "ptrace, io_uring_setup; kill reboot; }");
	const struct ward_rules *r;

	(void)state;
	assert_int_equal(c->rc, 0);
	assert_int_equal(sock(c, AF_PACKET, SOCK_RAW, 0), EAFNO);
	assert_int_equal(sock(c, AF_INET6, SOCK_STREAM, 0), ALLOW);
	r = &c->s.checked.policy.rules;
	/* ptrace io_uring_setup reboot; socket connect sendto sendmsg
	 * sendmmsg setsockopt */
	assert_int_equal(r->nsyscalls, 9);
	for (uint32_t i = 1; i < r->nsyscalls; i++)
		assert_true(r->syscalls[i - 1].nr < r->syscalls[i].nr);
	compiled_free(c);

	c = compile(HEAD ALLOWLIST "syscalls default kill { }");
	assert_int_equal(c->rc, 0);
	assert_int_equal(c->s.checked.policy.rules.nsyscalls, 0);
	compiled_free(c);
}

/* ------------------------------------------------------------ records */

/* The fallback of syscall nr in the compiled table, or the default. */
static struct ward_action fallback_of(struct compiled *c, int32_t nr)
{
	const struct ward_rules *r = &c->s.checked.policy.rules;

	for (uint32_t i = 0; i < r->nsyscalls; i++)
		if (r->syscalls[i].nr == nr && r->syscalls[i].has_fallback)
			return r->syscalls[i].fallback;
	return r->default_action;
}

/* Refusals to record: `errno E log`, a `log` default, and every errno
 * refusal (a rule's or the default's) of a call of a group marked `log`;
 * nothing else. */
static void records(void **state)
{
	struct compiled *c =
	    compile(HEAD "net none;\n"
			 "group @danger log { mount, umount2, reboot }\n"
			 "syscalls default errno ENOSYS {\n"
			 "allow read; allow reboot; errno EPERM mount;\n"
			 "errno EACCES log ptrace; errno EPERM getpid; }");
	struct ward_action a;

	(void)state;
	assert_int_equal(c->rc, 0);
	a = fallback_of(c, SYS_mount);
	assert_int_equal(a.kind, WARD_ACT_ERRNO);
	assert_int_equal(a.errno_nr, EPERM);
	assert_int_equal(a.via, WARD_VIA_RECORD);
	/* named nowhere: its default refusal is recorded */
	a = fallback_of(c, SYS_umount2);
	assert_int_equal(a.errno_nr, ENOSYS);
	assert_int_equal(a.via, WARD_VIA_RECORD);
	/* allowed stays allowed */
	assert_int_equal(fallback_of(c, SYS_reboot).kind, WARD_ACT_ALLOW);
	assert_int_equal(fallback_of(c, SYS_reboot).via, WARD_VIA_NONE);
	assert_int_equal(fallback_of(c, SYS_ptrace).via, WARD_VIA_RECORD);
	assert_int_equal(fallback_of(c, SYS_getpid).via, WARD_VIA_NONE);
	/* the default stays quiet (glibc probes) */
	assert_int_equal(c->s.checked.policy.rules.default_action.via,
			 WARD_VIA_NONE);
	compiled_free(c);

	c = compile(HEAD "net none;\nsyscalls default errno ENOSYS log { }");
	assert_int_equal(c->rc, 0);
	assert_int_equal(c->s.checked.policy.rules.default_action.via,
			 WARD_VIA_RECORD);
	compiled_free(c);

	c = compile(HEAD "net none;\nsyscalls default errno ENOSYS { "
			 "kill log reboot; }");
	assert_int_not_equal(c->rc, 0);
	compiled_free(c);
}

static const struct ward_mount *find_mount(struct compiled *c, const char *dst)
{
	const struct ward_policy *p = &c->s.checked.policy;

	for (uint32_t i = 0; i < p->nmounts; i++)
		if (!strcmp(p->mounts[i].dst, dst))
			return &p->mounts[i];
	return NULL;
}

static void hosts_file(void **state)
{
	struct compiled *c = compile(
	    HEAD "net { host b = 10.0.0.2; host a = 10.0.0.1, 2001:db8::1;\n"
		 "allow tcp a port 443; }\n"
		 "syscalls default errno ENOSYS { }");
	const struct ward_mount *m;

	(void)state;
	assert_int_equal(c->rc, 0);
	m = find_mount(c, "/etc/hosts");
	assert_non_null(m);
	assert_int_equal(m->kind, WARD_MNT_FILE);
	assert_int_equal(m->mode, 0444);
	static const char want[] = "127.0.0.1 localhost\n"
				   "::1 localhost ip6-localhost ip6-loopback\n"
				   "127.0.1.1 sandbox\n"
				   "10.0.0.1 a\n"
				   "2001:db8::1 a\n"
				   "10.0.0.2 b\n";
	assert_int_equal(m->data_len, strlen(want));
	assert_memory_equal(m->data, want, strlen(want));
	/* It is the last entry and lives on the root. */
	const struct ward_policy *p = &c->s.checked.policy;
	assert_ptr_equal(m, &p->mounts[p->nmounts - 1]);
	assert_int_equal(p->net.bpf.nprogs, 9);
	compiled_free(c);

	/* Without pinned hosts, nothing is generated. */
	c = compile(HEAD "net { allow tcp 10.0.0.1 port 443; }\n"
			 "syscalls default errno ENOSYS { }");
	assert_int_equal(c->rc, 0);
	assert_null(find_mount(c, "/etc/hosts"));
	compiled_free(c);
}

static void hosts_file_collides(void **state)
{
	struct compiled *c =
	    compile(HEAD "fs { file /etc/hosts \"1.2.3.4 x\\n\"; }\n" ALLOWLIST
			 "syscalls default errno ENOSYS { }");

	(void)state;
	assert_int_equal(c->rc, WARDC_POLICY_ERROR);
	if (!strstr(c->diags, "error: `/etc/hosts` is made from the pinned "
			      "hosts of the net section") ||
	    !strstr(c->diags, "note: the net section is here") ||
	    !strstr(c->diags, "help: remove this entry"))
		fail_msg("diagnostics: %s", c->diags);
	compiled_free(c);

	/* `use base` brings its own /etc/hosts: fine with `net none`. */
	c = compile("ward 1;\npolicy t;\nuse base;\nnet none;\n"
		    "syscalls default errno ENOSYS { }");
	assert_int_equal(c->rc, 0);
	assert_non_null(find_mount(c, "/etc/hosts"));
	compiled_free(c);
}

static void too_many_ranges_diag(void **state)
{
	char text[4096];
	size_t n = (size_t)snprintf(
	    text, sizeof(text), HEAD "net {\n allow udp 10.0.0.1 port 1;\n");

	(void)state;
	for (int i = 1; i <= 17; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      " allow tcp 10.0.0.1 port %d;\n", 10 * i);
	snprintf(text + n, sizeof(text) - n,
		 "}\nsyscalls default errno ENOSYS { }");
	struct compiled *c = compile(text);
	assert_int_equal(c->rc, WARDC_POLICY_ERROR);
	if (!strstr(c->diags, ":7:2: error: tcp to a network here needs 17 "
			      "separate port ranges"))
		fail_msg("diagnostics: %s", c->diags);
	compiled_free(c);
}

/* ------------------------------------------------------------ launcher */

static void denial_str(void **state)
{
	struct ward_net_denial d = {.family = 4,
				    .proto = IPPROTO_TCP,
				    .hook = WARD_NET_HOOK_CONNECT,
				    .port = 443,
				    .addr = {169, 254, 169, 254},
				    .count = 3};
	char buf[128];

	(void)state;
	assert_string_equal(ward_net_denial_str(&d, buf, sizeof(buf)),
			    "connect tcp 169.254.169.254:443");
	d.family = 6;
	d.proto = IPPROTO_UDP;
	d.hook = WARD_NET_HOOK_SENDMSG;
	memset(d.addr, 0, 16);
	d.addr[15] = 1;
	assert_string_equal(ward_net_denial_str(&d, buf, sizeof(buf)),
			    "sendmsg udp [::1]:443");
	d.hook = WARD_NET_HOOK_CREATE;
	d.proto = IPPROTO_ICMPV6;
	d.type = SOCK_DGRAM;
	assert_string_equal(ward_net_denial_str(&d, buf, sizeof(buf)),
			    "create ipv6 protocol 58 type 2");
	d.family = 0;
	assert_string_equal(ward_net_denial_str(&d, buf, sizeof(buf)),
			    "overflow");
}

static void check_host(void **state)
{
	struct ward_net net = {.mode = WARD_NET_NONE};
	struct ward_net_prog prog = {0};
	const uint32_t broker = WARD_REQ_NET_BROKER;
	ward_err err = {0};

	(void)state;
	assert_int_equal(ward_net_check_host(&net, 0, WARD_MODE_ROOTLESS, &err),
			 0);
	net.mode = WARD_NET_ALLOWLIST;
	/* an older wardc's: no broker, or no programs */
	assert_int_equal(
	    ward_net_check_host(&net, broker, WARD_MODE_ROOT, &err), -1);
	assert_non_null(strstr(err.msg, "compile it again"));
	net.bpf.progs = &prog;
	net.bpf.nprogs = 1;
	assert_int_equal(ward_net_check_host(&net, 0, WARD_MODE_ROOT, &err),
			 -1);
	assert_non_null(strstr(err.msg, "compile it again"));
	/* the broker alone: rootless too */
	assert_int_equal(
	    ward_net_check_host(&net, broker, WARD_MODE_ROOTLESS, &err), 0);
	/* what needs the programs beside it: root */
	assert_int_equal(ward_net_check_host(&net, broker | WARD_REQ_NET_BPF,
					     WARD_MODE_ROOTLESS, &err),
			 -1);
	assert_non_null(strstr(err.msg, "CAP_BPF and CAP_NET_ADMIN"));
	assert_int_equal(ward_net_check_host(&net, broker | WARD_REQ_NET_BPF,
					     WARD_MODE_ROOT, &err),
			 0);
}

static void setup_needs_cgroup(void **state)
{
	struct netpol *n = netpol();
	struct ward_net_state st;
	ward_err err = {0};

	(void)state;
	assert_int_equal(ward_net_setup(&n->p.net, -1, &st, &err), -1);
	assert_non_null(strstr(err.msg, "needs a cgroup2 directory for the "
					"run"));
	assert_int_equal(st.cgroup_fd, -1);
	netpol_free(n);
}

/* Nothing to read or close before a setup. */
static void state_init(void **state)
{
	struct ward_net_state st;
	struct ward_net_denial *d = (void *)1;
	size_t n = 7;
	ward_err err = {0};

	(void)state;
	ward_net_state_init(&st);
	assert_int_equal(st.cgroup_fd, -1);
	assert_int_equal(ward_net_denials(&st, &d, &n, &err), 0);
	assert_null(d);
	assert_int_equal(n, 0);
	ward_net_teardown(&st);
	ward_net_teardown(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(trie_contents),
	    cmocka_unit_test(ranges_merge),
	    cmocka_unit_test(mapped),
	    cmocka_unit_test(random_against_naive),
	    cmocka_unit_test(too_many_ranges),
	    cmocka_unit_test(programs_shape),
	    cmocka_unit_test(blob_round_trip),
	    cmocka_unit_test(reader_refuses),
	    cmocka_unit_test(narrow_allowlist),
	    cmocka_unit_test(narrow_names_only),
	    cmocka_unit_test(names_by_define),
	    cmocka_unit_test(narrow_net_none),
	    cmocka_unit_test(broker_rules_allowlist),
	    cmocka_unit_test(records),
	    cmocka_unit_test(narrow_never_widens),
	    cmocka_unit_test(narrow_default_allow),
	    cmocka_unit_test(hosts_file),
	    cmocka_unit_test(hosts_file_collides),
	    cmocka_unit_test(too_many_ranges_diag),
	    cmocka_unit_test(denial_str),
	    cmocka_unit_test(check_host),
	    cmocka_unit_test(setup_needs_cgroup),
	    cmocka_unit_test(state_init),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
