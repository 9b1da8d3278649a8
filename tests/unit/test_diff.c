/* SPDX-License-Identifier: MIT */
/*
 * test_diff.c: `wardc diff` sees every widening (issue 17). A property
 * test: each stdlib profile is compiled and read back, then every field of
 * its struct ward_policy is mutated in turn, one at a time, and the
 * comparison (policy_diff.c) must report the mutant different from the
 * original, both ways round, in the section the field belongs to.
 *
 * The fields are enumerated, not sampled: the limits by their index up to
 * WARD_LIM_COUNT, the requirement and flag bits one by one, and every
 * entry of the mount table, the environment, the rule table, the export
 * rules and the network's lists and BPF. A field added to one of the
 * structures changes its size, which test_fields_known checks: it fails
 * until the field is compared in policy_diff.c and mutated here.
 *
 * Not compared, on purpose: the meta section (name, compiler version,
 * source digest: two sources that compile to the same policy are equal)
 * and a syscall rule's name (the number is what the rule is about; the
 * name is how it is printed).
 */
#include "blob.h"
#include "blob_read.h"
#include "describe.h"
#include "policy_diff.h"
#include "tests/lib/compiled.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const char *const profiles[] = {
    "stdlib-policies/python.ward", "stdlib-policies/agent-net.ward",
    "stdlib-policies/cc.ward",	   "stdlib-policies/node.ward",
    "stdlib-policies/shell.ward",  "stdlib-policies/strict.ward",
    "tests/net/names.ward", /* allow rules by name (issue 22) */
};

/* One run of mutations over one profile. */
struct run {
	struct ward_pool *pool;
	const char *profile;
	const struct ward_policy *base;
	struct ward_policy m; /* the mutant, reset before each mutation */
	unsigned count;	      /* mutations checked */
};

/* A copy of n bytes at p in room for `room` (>= n), zeroed past n. */
static void *dup_mem(struct run *r, const void *p, size_t n, size_t room)
{
	void *q = ward_pool_alloc(r->pool, room ? room : 1);
	memset(q, 0, room ? room : 1);
	if (n)
		memcpy(q, p, n);
	return q;
}

#define DUP(r, ptr, n)                                                         \
	dup_mem((r), (ptr), (size_t)(n) * sizeof(*(ptr)),                      \
		(size_t)(n) * sizeof(*(ptr)))
/* the same with room for one more */
#define DUP1(r, ptr, n)                                                        \
	dup_mem((r), (ptr), (size_t)(n) * sizeof(*(ptr)),                      \
		(size_t)((n) + 1) * sizeof(*(ptr)))

static void reset(struct run *r)
{
	r->m = *r->base;
}

/* The mutant must differ from the base, both ways, in `section`. */
static void expect(struct run *r, const char *section, const char *what, ...)
    __attribute__((format(printf, 3, 4)));
static void expect(struct run *r, const char *section, const char *what, ...)
{
	char label[256];
	va_list ap;

	va_start(ap, what);
	vsnprintf(label, sizeof(label), what, ap);
	va_end(ap);
	for (int side = 0; side < 2; side++) {
		struct ward_vec v = {0};
		const struct ward_change *c;
		bool in_section = false;
		size_t n = side ? ward_policy_diff(r->pool, &r->m, r->base, &v)
				: ward_policy_diff(r->pool, r->base, &r->m, &v);

		if (!n)
			fail_msg("%s: %s: diff %s reports no change",
				 r->profile, label, side ? "B A" : "A B");
		c = v.items;
		for (size_t i = 0; i < n; i++)
			in_section |= !strcmp(c[i].section, section);
		if (!in_section)
			fail_msg("%s: %s: reported in `%s`, not `%s`",
				 r->profile, label, c[0].section, section);
	}
	r->count++;
	reset(r);
}

/* ------------------------------------------------------------ sections */

static void mutate_identity(struct run *r)
{
	struct ward_identity *id = &r->m.identity;

	id->uid++;
	expect(r, "identity", "uid");
	r->m.identity.gid++;
	expect(r, "identity", "gid");
	r->m.identity.hostname = "other";
	expect(r, "identity", "hostname");
	r->m.identity.workdir = "/elsewhere";
	expect(r, "identity", "workdir");
	for (int bit = 0; bit < 64; bit++) {
		r->m.identity.caps_keep ^= 1ull << bit;
		expect(r, "identity", "capability %d", bit);
	}
	r->m.requirements ^= WARD_REQ_HOST_GROUPS;
	expect(r, "identity", "groups keep");
}

static void mutate_requirements(struct run *r)
{
	for (int bit = 0; bit < 32; bit++) {
		if (1u << bit == WARD_REQ_HOST_GROUPS)
			continue;
		r->m.requirements ^= 1u << bit;
		expect(r, "policy", "requirement bit %d", bit);
	}
}

static void mutate_env(struct run *r)
{
	const struct ward_policy *b = r->base;
	struct ward_env_var *e;

	for (uint32_t i = 0; i < b->nenv; i++) {
		e = DUP(r, b->env, b->nenv);
		r->m.env = e;
		e[i].value = e[i].value ? NULL : "value";
		expect(r, "environment", "env %s inherited", b->env[i].name);
		e = DUP(r, b->env, b->nenv);
		r->m.env = e;
		e[i].value = "other value";
		expect(r, "environment", "env %s value", b->env[i].name);
		e = DUP(r, b->env, b->nenv);
		r->m.env = e;
		e[i].name = "OTHER_NAME";
		expect(r, "environment", "env %s name", b->env[i].name);
		e = DUP(r, b->env, b->nenv);
		r->m.env = e;
		e[i] = e[b->nenv - 1];
		r->m.nenv--;
		expect(r, "environment", "env %s removed", b->env[i].name);
	}
	e = DUP1(r, b->env, b->nenv);
	e[b->nenv] = (struct ward_env_var){"ADDED", "1"};
	r->m.env = e;
	r->m.nenv++;
	expect(r, "environment", "env added");
}

static void mutate_mounts(struct run *r)
{
	const struct ward_policy *b = r->base;
	static const uint8_t other_data[] = "other content";

	for (uint32_t i = 0; i < b->nmounts; i++) {
		const struct ward_mount *o = &b->mounts[i];
		struct ward_mount *m;
		uint32_t k = o->kind;
		bool flagged = k == WARD_MNT_BIND || k == WARD_MNT_SLOT ||
			       (k == WARD_MNT_TMPFS && strcmp(o->dst, "/"));

#define MOUNT() (m = DUP(r, b->mounts, b->nmounts), r->m.mounts = m, &m[i])
		MOUNT()->kind = k == WARD_MNT_DIR ? WARD_MNT_TMPFS : k + 1;
		expect(r, "mounts", "%s: kind", o->dst);
		for (uint32_t bit = 1; flagged && bit <= WARD_MNT_F_OPTIONAL;
		     bit <<= 1) {
			MOUNT()->flags ^= bit;
			expect(r, "mounts", "%s: flag %#x", o->dst, bit);
		}
		if (k == WARD_MNT_BIND || k == WARD_MNT_SLOT ||
		    k == WARD_MNT_SYMLINK) {
			MOUNT()->src = "/other/source";
			expect(r, "mounts", "%s: source", o->dst);
		}
		MOUNT()->dst = "/other/destination";
		expect(r, "mounts", "%s: destination", o->dst);
		if (k == WARD_MNT_TMPFS ||
		    (k == WARD_MNT_SLOT && (o->flags & WARD_MNT_F_RW))) {
			MOUNT()->size += 4096;
			expect(r, "mounts", "%s: size", o->dst);
		}
		if (k == WARD_MNT_TMPFS || k == WARD_MNT_FILE ||
		    k == WARD_MNT_DIR) {
			MOUNT()->mode ^= 02;
			expect(r, "mounts", "%s: mode", o->dst);
		}
		if (k == WARD_MNT_FILE) {
			m = MOUNT();
			m->data = other_data;
			m->data_len = o->data_len == sizeof(other_data)
					  ? sizeof(other_data) - 1
					  : sizeof(other_data);
			expect(r, "mounts", "%s: content and length", o->dst);
			if (o->data_len) {
				uint8_t *d = DUP(r, o->data, o->data_len);
				d[o->data_len - 1] ^= 1;
				MOUNT()->data = d;
				expect(r, "mounts", "%s: content", o->dst);
			}
		}
		m = DUP(r, b->mounts, b->nmounts);
		memmove(&m[i], &m[i + 1], (b->nmounts - i - 1) * sizeof(*m));
		r->m.mounts = m;
		r->m.nmounts--;
		expect(r, "mounts", "%s: removed", o->dst);
		if (i + 1 < b->nmounts) {
			struct ward_mount t;
			m = DUP(r, b->mounts, b->nmounts);
			t = m[i], m[i] = m[i + 1], m[i + 1] = t;
			r->m.mounts = m;
			expect(r, "mounts", "%s: order", o->dst);
		}
#undef MOUNT
	}
	struct ward_mount *m = DUP1(r, b->mounts, b->nmounts);
	m[b->nmounts] = (struct ward_mount){
	    .kind = WARD_MNT_DIR, .dst = "/added", .mode = 0755};
	r->m.mounts = m;
	r->m.nmounts++;
	expect(r, "mounts", "mount added");
	r->m.exec ^= WARD_EXEC_MEMFD;
	expect(r, "mounts", "memfd exec");
}

static void mutate_landlock(struct run *r)
{
	const struct ward_landlock *b = &r->base->landlock;
	struct ward_landlock_rule *rl;

	assert_int_equal(b->mode, WARD_LANDLOCK_PREFER); /* the default */
	assert_true(b->nrules > 1);
	r->m.landlock.mode = WARD_LANDLOCK_REQUIRE;
	expect(r, "landlock", "mode require");
	r->m.landlock.mode = WARD_LANDLOCK_OFF;
	expect(r, "landlock", "mode off");
	r->m.landlock.abi++;
	expect(r, "landlock", "abi");
	for (uint64_t bit = 1; bit <= WARD_LL_FS_IOCTL_DEV; bit <<= 1) {
		r->m.landlock.handled_fs ^= bit;
		expect(r, "landlock", "handled %#llx", (unsigned long long)bit);
	}
	for (uint64_t bit = 1; bit <= WARD_LL_SCOPE_SIGNAL; bit <<= 1) {
		r->m.landlock.scoped ^= bit;
		expect(r, "landlock", "scoped %#llx", (unsigned long long)bit);
	}
	for (uint32_t i = 0; i < b->nrules; i++) {
#define RULE()                                                                 \
	(rl = DUP(r, b->rules, b->nrules), r->m.landlock.rules = rl, &rl[i])
		for (uint64_t bit = 1; bit <= WARD_LL_FS_IOCTL_DEV; bit <<= 1) {
			RULE()->access ^= bit;
			expect(r, "landlock", "%s: access %#llx",
			       b->rules[i].path, (unsigned long long)bit);
		}
		RULE()->flags ^= WARD_LL_R_OPTIONAL;
		expect(r, "landlock", "%s: optional", b->rules[i].path);
		RULE()->path = "/other/path";
		expect(r, "landlock", "%s: path", b->rules[i].path);
#undef RULE
		rl = DUP(r, b->rules, b->nrules);
		memmove(&rl[i], &rl[i + 1], (b->nrules - i - 1) * sizeof(*rl));
		r->m.landlock.rules = rl;
		r->m.landlock.nrules--;
		expect(r, "landlock", "%s: removed", b->rules[i].path);
	}
	rl = DUP1(r, b->rules, b->nrules);
	rl[b->nrules] = (struct ward_landlock_rule){
	    .access = WARD_LL_FS_READ_FILE, .path = "/added"};
	r->m.landlock.rules = rl;
	r->m.landlock.nrules++;
	expect(r, "landlock", "rule added");
}

static void mutate_limits(struct run *r)
{
	for (int k = 0; k < WARD_LIM_COUNT; k++) {
		struct ward_limits *l = &r->m.limits;
		uint64_t v = 0;

		if (ward_limit_is_set(l, (enum ward_limit)k)) {
			l->value[k] ^= 1; /* the modes are 0 or 1 */
			expect(r, "limits", "limit %d: value", k);
			r->m.limits.set &= ~(1ull << k);
			/* unset, a limit with a default takes the default */
			if (!ward_limit_default((enum ward_limit)k, &v) ||
			    v != r->base->limits.value[k])
				expect(r, "limits", "limit %d: unset", k);
			else
				reset(r);
		} else {
			ward_limit_default((enum ward_limit)k, &v);
			l->set |= 1ull << k;
			l->value[k] = v ^ 1;
			expect(r, "limits", "limit %d: set", k);
		}
	}
}

static void mutate_net(struct run *r)
{
	const struct ward_net *n = &r->base->net;
	struct ward_net_rule *rules;
	struct ward_net_host *hosts;
	struct ward_net_name *names;

	r->m.net.mode ^= 1;
	expect(r, "network", "mode");
	for (uint32_t i = 0; i < n->nrules; i++) {
#define RULE()                                                                 \
	(rules = DUP(r, n->rules, n->nrules), r->m.net.rules = rules, rules)
		RULE()[i].proto ^= 6 ^ 17; /* TCP <-> UDP */
		expect(r, "network", "rule %u: proto", i);
		RULE()[i].family ^= 4 ^ 6;
		expect(r, "network", "rule %u: family", i);
		RULE()[i].prefix ^= 1;
		expect(r, "network", "rule %u: prefix", i);
		for (int byte = 0; byte < 16; byte++) {
			RULE()[i].addr[byte] ^= 1;
			expect(r, "network", "rule %u: addr[%d]", i, byte);
		}
		RULE()[i].port_lo ^= 1;
		expect(r, "network", "rule %u: port_lo", i);
		RULE()[i].port_hi ^= 1;
		expect(r, "network", "rule %u: port_hi", i);
		RULE()[i] = n->rules[n->nrules - 1];
		r->m.net.nrules--;
		expect(r, "network", "rule %u: removed", i);
#undef RULE
	}
	rules = DUP1(r, n->rules, n->nrules);
	rules[n->nrules] = (struct ward_net_rule){.proto = 6,
						  .family = 4,
						  .prefix = 32,
						  .addr = {192, 0, 2, 1},
						  .port_lo = 443,
						  .port_hi = 443};
	r->m.net.rules = rules;
	r->m.net.nrules++;
	expect(r, "network", "rule added");
	for (uint32_t i = 0; i < n->nhosts; i++) {
#define HOST()                                                                 \
	(hosts = DUP(r, n->hosts, n->nhosts), r->m.net.hosts = hosts, hosts)
		HOST()[i].name = "other.example";
		expect(r, "network", "host %u: name", i);
		HOST()[i].family ^= 4 ^ 6;
		expect(r, "network", "host %u: family", i);
		for (int byte = 0; byte < 16; byte++) {
			HOST()[i].addr[byte] ^= 1;
			expect(r, "network", "host %u: addr[%d]", i, byte);
		}
		HOST()[i] = n->hosts[n->nhosts - 1];
		r->m.net.nhosts--;
		expect(r, "network", "host %u: removed", i);
#undef HOST
	}
	hosts = DUP1(r, n->hosts, n->nhosts);
	hosts[n->nhosts] = (struct ward_net_host){
	    .name = "added.example", .family = 4, .addr = {192, 0, 2, 2}};
	r->m.net.hosts = hosts;
	r->m.net.nhosts++;
	expect(r, "network", "host added");
	for (uint32_t i = 0; i < n->nnames; i++) {
#define NAME()                                                                 \
	(names = DUP(r, n->names, n->nnames), r->m.net.names = names, names)
		NAME()[i].name = "other.example";
		expect(r, "network", "name %u: name", i);
		NAME()[i].proto ^= 6 ^ 17;
		expect(r, "network", "name %u: proto", i);
		NAME()[i].flags ^= WARD_NET_NAME_WILDCARD;
		expect(r, "network", "name %u: flags", i);
		NAME()[i].port_lo ^= 1;
		expect(r, "network", "name %u: port_lo", i);
		NAME()[i].port_hi ^= 1;
		expect(r, "network", "name %u: port_hi", i);
		NAME()[i] = n->names[n->nnames - 1];
		r->m.net.nnames--;
		expect(r, "network", "name %u: removed", i);
#undef NAME
	}
	names = DUP1(r, n->names, n->nnames);
	names[n->nnames] = (struct ward_net_name){.name = "added.example",
						  .proto = 6,
						  .port_lo = 443,
						  .port_hi = 443};
	r->m.net.names = names;
	r->m.net.nnames++;
	expect(r, "network", "name added");
	for (uint32_t i = 0; i < n->nrefused; i++) {
		struct ward_net_prefix *rs;
#define REF() (rs = DUP(r, n->refused, n->nrefused), r->m.net.refused = rs, rs)
		REF()[i].family ^= 4 ^ 6;
		expect(r, "network", "refused %u: family", i);
		REF()[i].prefix ^= 1;
		expect(r, "network", "refused %u: prefix", i);
		for (int byte = 0; byte < 16; byte++) {
			REF()[i].addr[byte] ^= 1;
			expect(r, "network", "refused %u: addr[%d]", i, byte);
		}
		REF()[i] = n->refused[n->nrefused - 1];
		r->m.net.nrefused--;
		expect(r, "network", "refused %u: removed", i);
#undef REF
	}
}

static void mutate_net_bpf(struct run *r)
{
	const struct ward_net_bpf *b = &r->base->net.bpf;
	struct ward_net_map *maps;
	struct ward_net_prog *progs;
	struct ward_net_reloc *relocs;

	for (uint32_t i = 0; i < b->nmaps; i++) {
		const struct ward_net_map *o = &b->maps[i];
		size_t bytes =
		    (size_t)o->nentries * (o->key_size + o->value_size);
#define MAP() (maps = DUP(r, b->maps, b->nmaps), r->m.net.bpf.maps = maps, maps)
		MAP()[i].role ^= 1;
		expect(r, "network", "map %u: role", i);
		MAP()[i].type ^= 1;
		expect(r, "network", "map %u: type", i);
		MAP()[i].key_size ^= 1;
		expect(r, "network", "map %u: key_size", i);
		MAP()[i].value_size ^= 1;
		expect(r, "network", "map %u: value_size", i);
		MAP()[i].max_entries ^= 1;
		expect(r, "network", "map %u: max_entries", i);
		MAP()[i].flags ^= 1;
		expect(r, "network", "map %u: flags", i);
		MAP()[i].nentries ^= 1;
		expect(r, "network", "map %u: nentries", i);
		for (size_t k = 0; k < bytes; k++) {
			uint8_t *e = DUP(r, o->entries, bytes);
			e[k] ^= 1;
			MAP()[i].entries = e;
			expect(r, "network", "map %u: entry byte %zu", i, k);
		}
#undef MAP
	}
	for (uint32_t i = 0; i < b->nprogs; i++) {
		const struct ward_net_prog *o = &b->progs[i];
#define PROG()                                                                 \
	(progs = DUP(r, b->progs, b->nprogs), r->m.net.bpf.progs = progs, progs)
		PROG()[i].type ^= 1;
		expect(r, "network", "prog %u: type", i);
		PROG()[i].attach_type ^= 1;
		expect(r, "network", "prog %u: attach_type", i);
		PROG()[i].ninsns--;
		expect(r, "network", "prog %u: ninsns", i);
		for (uint32_t k = 0; k < o->ninsns; k += 7) {
			struct ward_bpf_insn *in = DUP(r, o->insns, o->ninsns);
			in[k].imm ^= 1 << (k % 31);
			in[(k + 1) % o->ninsns].code ^= 1;
			in[(k + 2) % o->ninsns].regs ^= 1;
			in[(k + 3) % o->ninsns].off ^= 1;
			PROG()[i].insns = in;
			expect(r, "network", "prog %u: insn %u", i, k);
		}
#undef PROG
	}
	for (uint32_t i = 0; i < b->nrelocs; i++) {
#define RELOC()                                                                \
	(relocs = DUP(r, b->relocs, b->nrelocs), r->m.net.bpf.relocs = relocs, \
	 relocs)
		RELOC()[i].prog ^= 1;
		expect(r, "network", "reloc %u: prog", i);
		RELOC()[i].map ^= 1;
		expect(r, "network", "reloc %u: map", i);
		RELOC()[i].insn ^= 1;
		expect(r, "network", "reloc %u: insn", i);
#undef RELOC
	}
	if (b->nrelocs) {
		r->m.net.bpf.nrelocs--;
		expect(r, "network", "reloc removed");
	}
}

/* Another action than a: each kind, errno and disposition in turn. */
static void other_actions(struct ward_action a, struct ward_action out[8],
			  int *n)
{
	*n = 0;
	for (uint32_t k = WARD_ACT_ALLOW; k <= WARD_ACT_KILL; k++)
		if (k != a.kind)
			out[(*n)++] = (struct ward_action){
			    .kind = k, .errno_nr = k == WARD_ACT_ERRNO ? 1 : 0};
	if (a.kind == WARD_ACT_ERRNO) {
		struct ward_action e = a;
		e.errno_nr = a.errno_nr == 1 ? 2 : 1;
		out[(*n)++] = e;
		e = a;
		e.via =
		    a.via == WARD_VIA_RECORD ? WARD_VIA_NONE : WARD_VIA_RECORD;
		out[(*n)++] = e;
		e.via = a.via == WARD_VIA_RECORD_NET ? WARD_VIA_NONE
						     : WARD_VIA_RECORD_NET;
		out[(*n)++] = e;
	}
	if (a.kind == WARD_ACT_ALLOW) {
		struct ward_action e = a;
		/* through the broker or not (which of its two ways follows
		 * from the syscall) */
		e.via = a.via ? WARD_VIA_NONE : WARD_VIA_CONNECT;
		out[(*n)++] = e;
	}
}

static bool same_action(struct ward_action a, struct ward_action b)
{
	return a.kind == b.kind && a.via == b.via &&
	       (a.kind != WARD_ACT_ERRNO || a.errno_nr == b.errno_nr);
}

static void mutate_rule(struct run *r, uint32_t i)
{
	const struct ward_rules *rs = &r->base->rules;
	const struct ward_syscall_rule *o = &rs->syscalls[i];
	struct ward_syscall_rule *s;
	struct ward_action alt[8];
	int nalt;

#define SYS()                                                                  \
	(s = DUP(r, rs->syscalls, rs->nsyscalls), r->m.rules.syscalls = s,     \
	 &s[i])
	/* the rule moved to a syscall that has none (a rule that says what
	 * the default says is no rule) */
	if (o->nconds || (o->has_fallback &&
			  !same_action(o->fallback, rs->default_action))) {
		SYS()->nr = 100000;
		expect(r, "syscalls", "%s: number", o->name);
	}
	if (o->has_fallback && !same_action(o->fallback, rs->default_action)) {
		SYS()->has_fallback = false;
		expect(r, "syscalls", "%s: no fallback", o->name);
	}
	other_actions(o->has_fallback ? o->fallback : rs->default_action, alt,
		      &nalt);
	for (int k = 0; k < nalt; k++) {
		s = SYS();
		s->has_fallback = true;
		s->fallback = alt[k];
		expect(r, "syscalls", "%s: fallback %d", o->name, k);
	}
	for (uint32_t c = 0; c < o->nconds; c++) {
		const struct ward_cond_rule *oc = &o->conds[c];
		struct ward_cond_rule *cs;
		struct ward_cmp *cmps;
#define COND() (cs = DUP(r, o->conds, o->nconds), SYS()->conds = cs, &cs[c])
		other_actions(oc->action, alt, &nalt);
		for (int k = 0; k < nalt; k++) {
			COND()->action = alt[k];
			expect(r, "syscalls", "%s: cond %u action %d", o->name,
			       c, k);
		}
		for (uint32_t x = 0; x < oc->ncmps; x++) {
			const struct ward_cmp *ox = &oc->cmps[x];
#define CMP()                                                                  \
	(cmps = DUP(r, oc->cmps, oc->ncmps), COND()->cmps = cmps, &cmps[x])
			CMP()->arg = (uint8_t)((ox->arg + 1) % 6);
			expect(r, "syscalls", "%s: cond %u cmp %u arg", o->name,
			       c, x);
			CMP()->op = (uint8_t)(ox->op ^ 1);
			expect(r, "syscalls", "%s: cond %u cmp %u op", o->name,
			       c, x);
			CMP()->value ^= 1ull << 62;
			expect(r, "syscalls", "%s: cond %u cmp %u value",
			       o->name, c, x);
			if (ox->op == WARD_CMP_MASKED_EQ ||
			    ox->op == WARD_CMP_MASKED_NE) {
				CMP()->mask ^= 1ull << 61;
				expect(r, "syscalls", "%s: cond %u cmp %u mask",
				       o->name, c, x);
			}
#undef CMP
		}
		if (oc->ncmps > 1) {
			COND()->ncmps--;
			expect(r, "syscalls", "%s: cond %u: a comparison less",
			       o->name, c);
		}
#undef COND
	}
	if (o->nconds) {
		SYS()->nconds--;
		expect(r, "syscalls", "%s: last condition removed", o->name);
	}
#undef SYS
}

static void mutate_syscalls(struct run *r)
{
	const struct ward_rules *rs = &r->base->rules;
	struct ward_action alt[8];
	int nalt;

	other_actions(rs->default_action, alt, &nalt);
	for (int k = 0; k < nalt; k++) {
		r->m.rules.default_action = alt[k];
		expect(r, "syscalls", "default %d", k);
	}
	for (uint32_t i = 0; i < rs->nsyscalls; i++) {
		const struct ward_syscall_rule *o = &rs->syscalls[i];
		struct ward_syscall_rule *s;
		mutate_rule(r, i);
		/* a rule that says what the default says is no rule */
		if (o->nconds ||
		    (o->has_fallback &&
		     !same_action(o->fallback, rs->default_action))) {
			s = DUP(r, rs->syscalls, rs->nsyscalls);
			memmove(&s[i], &s[i + 1],
				(rs->nsyscalls - i - 1) * sizeof(*s));
			r->m.rules.syscalls = s;
			r->m.rules.nsyscalls--;
			expect(r, "syscalls", "%s: removed", o->name);
		}
	}
	/* the program the kernel runs, whatever the table says */
	struct sock_filter *in =
	    DUP(r, r->base->seccomp.insns, r->base->seccomp.ninsns);
	for (uint32_t k = 0; k < r->base->seccomp.ninsns; k += 5) {
		in = DUP(r, r->base->seccomp.insns, r->base->seccomp.ninsns);
		in[k].k ^= 1;
		in[(k + 1) % r->base->seccomp.ninsns].jt ^= 1;
		in[(k + 2) % r->base->seccomp.ninsns].jf ^= 1;
		in[(k + 3) % r->base->seccomp.ninsns].code ^= 1;
		r->m.seccomp.insns = in;
		expect(r, "syscalls", "program insn %u", k);
	}
	r->m.seccomp.ninsns--;
	expect(r, "syscalls", "program length");
	r->m.arch = r->m.arch == WARD_ARCH_X86_64 ? WARD_ARCH_AARCH64
						  : WARD_ARCH_X86_64;
	r->m.seccomp.arch = r->m.arch;
	expect(r, "policy", "arch");
}

static void mutate_exports(struct run *r)
{
	const struct ward_policy *b = r->base;
	struct ward_export_rule *x;

	for (uint32_t i = 0; i < b->nexports; i++) {
		const struct ward_export_rule *o = &b->exports[i];
		const char **names;
#define EXP() (x = DUP(r, b->exports, b->nexports), r->m.exports = x, &x[i])
		EXP()->slot = "other-slot";
		expect(r, "export", "%s: slot", o->slot);
		EXP()->max_files++;
		expect(r, "export", "%s: files", o->slot);
		for (uint32_t bit = 1; bit & WARD_EXPORT_T_ALL; bit <<= 1) {
			EXP()->types ^= bit;
			expect(r, "export", "%s: type %#x", o->slot, bit);
		}
		EXP()->per_file++;
		expect(r, "export", "%s: per-file", o->slot);
		EXP()->total = o->total ? o->total * 10 : 1;
		expect(r, "export", "%s: total", o->slot);
		if (o->total) {
			EXP()->total = 0;
			expect(r, "export", "%s: no total", o->slot);
		}
		EXP()->on_violation ^= 1;
		expect(r, "export", "%s: on-violation", o->slot);
		for (uint32_t k = 0; k < o->nnames; k++) {
			names = DUP(r, o->names, o->nnames);
			names[k] = "*.other";
			EXP()->names = names;
			expect(r, "export", "%s: name %u", o->slot, k);
		}
		names = DUP1(r, o->names, o->nnames);
		names[o->nnames] = "*.zip";
		x = EXP();
		x->names = names;
		x->nnames++;
		expect(r, "export", "%s: a name more", o->slot);
		if (o->nnames) {
			EXP()->nnames = 0;
			expect(r, "export", "%s: any name", o->slot);
		}
#undef EXP
	}
	if (b->nexports) {
		r->m.nexports--;
		expect(r, "export", "the last rule removed");
	}
	x = DUP1(r, b->exports, b->nexports);
	x[b->nexports] = (struct ward_export_rule){
	    .slot = "added", .max_files = 1, .types = 1, .per_file = 1};
	r->m.exports = x;
	r->m.nexports++;
	expect(r, "export", "a rule added");
}

/* ---------------------------------------------------------------- tests */

static void test_every_field(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		struct ward_test_compiled c;
		char msg[600];
		struct run r = {.pool = ward_pool_new(),
				.profile = profiles[i]};
		struct ward_vec v = {0};

		if (ward_test_compile(profiles[i], &c, msg, sizeof(msg)) < 0)
			fail_msg("%s", msg);
		r.base = &c.blob.policy;
		reset(&r);
		assert_int_equal(ward_policy_diff(r.pool, r.base, &r.m, &v), 0);
		/* the meta section is not compared */
		r.m.meta.policy_name = "other";
		r.m.meta.compiler_version = "other";
		r.m.meta.source_digest[0] ^= 1;
		assert_int_equal(ward_policy_diff(r.pool, r.base, &r.m, &v), 0);
		reset(&r);
		mutate_identity(&r);
		mutate_requirements(&r);
		mutate_env(&r);
		mutate_mounts(&r);
		mutate_landlock(&r);
		mutate_limits(&r);
		mutate_net(&r);
		mutate_net_bpf(&r);
		mutate_exports(&r);
		mutate_syscalls(&r);
		print_message("%s: %u mutations, each reported\n", profiles[i],
			      r.count);
		assert_true(r.count > 200);
		ward_pool_free(r.pool);
		ward_test_compiled_release(&c);
	}
}

/* The sizes of the structures the mutations above walk (LP64). One that
 * changed has a field the comparison and this test may not know: compare
 * it in policy_diff.c, mutate it here, then update its size. */
static void test_fields_known(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		size_t size, known;
	} s[] = {
#define S(t, n) {#t, sizeof(struct t), n}
	    S(ward_policy, 584),       S(ward_meta, 48),
	    S(ward_identity, 32),      S(ward_env_var, 16),
	    S(ward_mount, 56),	       S(ward_limits, 8 + 8 * WARD_LIM_COUNT),
	    S(ward_net, 120),	       S(ward_net_rule, 24),
	    S(ward_net_host, 32),      S(ward_net_bpf, 48),
	    S(ward_net_name, 16),      S(ward_net_map, 40),
	    S(ward_net_prefix, 18),    S(ward_net_prog, 24),
	    S(ward_net_reloc, 8),      S(ward_bpf_insn, 8),
	    S(ward_seccomp, 24),       S(ward_rules, 32),
	    S(ward_syscall_rule, 48),  S(ward_cond_rule, 24),
	    S(ward_cmp, 24),	       S(ward_action, 12),
	    S(ward_export_rule, 56),   S(ward_landlock, 40),
	    S(ward_landlock_rule, 24),
#undef S
	};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i].size != s[i].known)
			fail_msg(
			    "struct %s is %zu bytes, not %zu: a new field? "
			    "compare it in policy_diff.c, mutate it in "
			    "test_diff.c",
			    s[i].name, s[i].size, s[i].known);
	/* the limits are walked by index; each must have a name to be
	 * reported by */
	for (int k = 0; k < WARD_LIM_COUNT; k++)
		assert_string_not_equal(describe_limit_name((enum ward_limit)k),
					"?");
	/* the bits walked: requirement bits all 32, mount flags up to
	 * OPTIONAL, export types up to T_ALL, exec MEMFD */
	assert_int_equal(WARD_MNT_F_OPTIONAL, 1u << 2);
	assert_int_equal(WARD_EXEC_MEMFD, 1u);
	assert_int_equal(WARD_ACT_KILL, 4);
	assert_int_equal(WARD_VIA_SENDTO, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fields_known),
	    cmocka_unit_test(test_every_field),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
