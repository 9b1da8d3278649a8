/* SPDX-License-Identifier: MIT */
/*
 * net_rules.c: the network mode's rules in the rule table (net_rules.h).
 */
#include "net_rules.h"

#include "rules_meaning.h"
#include "util.h"

#include <errno.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* For headers that predate them. */
#ifndef IPV6_2292PKTOPTIONS
#define IPV6_2292PKTOPTIONS 6
#endif
#ifndef IPV6_2292RTHDR
#define IPV6_2292RTHDR 5
#endif
#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif

/* socket(domain, type, protocol): the type's flags are not its kind. */
#define TYPE_MASK (0xffffffffull & ~(uint64_t)(SOCK_NONBLOCK | SOCK_CLOEXEC))
/* An `int` argument as the kernel reads it: its low 32 bits. */
#define INT_MASK 0xffffffffull

#define CONJ_MAX   16 /* comparisons in one conjunction */
#define NARROW_MAX 64 /* conjunctions of one refusal, after the exclusions */

static struct ward_loc noloc(void)
{
	return (struct ward_loc){.file = WARD_NO_FILE};
}

/* ------------------------------------------------------------ the table */

/* The index of syscall name's entry, inserted (no fallback, no
 * conditions: it gets the default) when it has none; -1 if the target has
 * no such syscall. Moves the table: entries taken before are stale. */
static int slot(struct ward_net_rules_ctx *x, const char *name)
{
	struct ward_rules *rules = &x->p->rules;
	struct ward_provenance *w = x->where;
	int nr = seccomp_syscall_resolve_name_arch(x->scmp_arch, name);
	uint32_t at = 0, n = rules->nsyscalls;
	struct ward_syscall_rule *sys;
	struct ward_loc *fbl, *cl;

	if (nr < 0)
		return -1;
	while (at < n && rules->syscalls[at].nr < nr)
		at++;
	if (at < n && rules->syscalls[at].nr == nr)
		return (int)at;
	sys = ward_pool_array(x->pool, n + 1, sizeof(*sys));
	fbl = ward_pool_array(x->pool, n + 1, sizeof(*fbl));
	cl = ward_pool_array(x->pool, n + 1, sizeof(*cl));
	for (uint32_t i = 0, o = 0; o < n + 1; o++) {
		if (o == at) {
			sys[o] =
			    (struct ward_syscall_rule){.nr = nr, .name = name};
			fbl[o] = noloc();
			cl[o] = w->net;
			continue;
		}
		sys[o] = rules->syscalls[i];
		fbl[o] = w->syscall_fallback ? w->syscall_fallback[i] : noloc();
		cl[o] = w->syscall_cond ? w->syscall_cond[i] : noloc();
		i++;
	}
	rules->syscalls = sys;
	rules->nsyscalls = n + 1;
	w->syscall_fallback = fbl;
	w->syscall_cond = cl;
	return (int)at;
}

/* Syscall name's entry, or NULL (it gets the default). */
static const struct ward_syscall_rule *find(const struct ward_net_rules_ctx *x,
					    const char *name)
{
	const struct ward_rules *r = &x->p->rules;
	int nr = seccomp_syscall_resolve_name_arch(x->scmp_arch, name);

	for (uint32_t i = 0; nr >= 0 && i < r->nsyscalls; i++)
		if (r->syscalls[i].nr == nr)
			return &r->syscalls[i];
	return NULL;
}

/* Entry at, writable: its conditions copied into the pool, with room for
 * extra more (so that they can be changed or added to). */
static struct ward_syscall_rule *writable(struct ward_net_rules_ctx *x, int at,
					  uint32_t extra)
{
	struct ward_syscall_rule *sc =
	    (struct ward_syscall_rule *)&x->p->rules.syscalls[at];
	struct ward_cond_rule *conds =
	    ward_pool_array(x->pool, sc->nconds + extra + 1, sizeof(*conds));

	if (sc->nconds)
		memcpy(conds, sc->conds, sc->nconds * sizeof(*conds));
	sc->conds = conds;
	return sc;
}

/* What a call gets when no conditional rule matches it. */
static struct ward_action fallback(const struct ward_net_rules_ctx *x,
				   const struct ward_syscall_rule *sc)
{
	return sc && sc->has_fallback ? sc->fallback
				      : x->p->rules.default_action;
}

/* Does a rule of sc (NULL: the default) allow some call? */
static bool allows_some(const struct ward_net_rules_ctx *x,
			const struct ward_syscall_rule *sc)
{
	bool any = fallback(x, sc).kind <= WARD_ACT_LOG;

	for (uint32_t i = 0; sc && i < sc->nconds; i++)
		any = any || sc->conds[i].action.kind <= WARD_ACT_LOG;
	return any;
}

/* ------------------------------------------------------------ conjunctions */

struct conj {
	struct ward_cmp c[CONJ_MAX];
	uint32_t n;
};

static void cmp(struct conj *j, uint8_t arg, uint8_t op, uint64_t mask,
		uint64_t value)
{
	j->c[j->n++] = (struct ward_cmp){arg, op, mask, value};
}

/* The comparison that holds exactly when c does not. */
static struct ward_cmp negate(struct ward_cmp c)
{
	c.op = ward_cmp_negate(c.op);
	return c;
}

/* A conjunction that no call can satisfy: x == a && x == b (a != b), or
 * x == a && x != a. Dropping them keeps the rule table small. */
static bool unsatisfiable(const struct conj *j)
{
	for (uint32_t i = 0; i < j->n; i++)
		for (uint32_t k = 0; k < j->n; k++) {
			const struct ward_cmp *a = &j->c[i], *b = &j->c[k];
			if (i == k || a->arg != b->arg || a->op != WARD_CMP_EQ)
				continue;
			if (b->op == WARD_CMP_EQ && a->value != b->value)
				return true;
			if (b->op == WARD_CMP_NE && a->value == b->value)
				return true;
		}
	return false;
}

/*
 * Take out of the refused conjunctions every call that a conditional rule
 * of the policy already refuses (errno, trap, kill): R := R && !C for each
 * such C, in disjunctive form. The policy's own refusal then decides those
 * calls with its own action (it is not overruled by a lower errno of the
 * net section: spec 1.7.6 breaks errno ties by number), and the net section
 * narrows only what the policy would allow. Returns the new count, or -1
 * when the expansion outgrows NARROW_MAX.
 */
static int exclude_refusals(const struct ward_syscall_rule *old,
			    struct conj *ref, size_t nref)
{
	for (uint32_t r = 0; r < old->nconds; r++) {
		const struct ward_cond_rule *cr = &old->conds[r];
		struct conj next[NARROW_MAX];
		size_t n = 0;

		if (cr->action.kind < WARD_ACT_ERRNO)
			continue;
		for (size_t i = 0; i < nref; i++)
			for (uint32_t k = 0; k < cr->ncmps; k++) {
				struct conj j;

				if (ref[i].n >= CONJ_MAX || n >= NARROW_MAX)
					return -1;
				j = ref[i];
				j.c[j.n++] = negate(cr->cmps[k]);
				if (!unsatisfiable(&j))
					next[n++] = j;
			}
		/* (next[0..n) are set above: n counts the writes) */
		// cppcheck-suppress uninitvar
		memcpy(ref, next, n * sizeof(*ref));
		nref = n;
	}
	return (int)nref;
}

/* Can a call match both j and the conditional rule c? (No, where an
 * argument would have to equal two values, or equal and differ from one;
 * otherwise it answers yes.) */
static bool may_meet(const struct conj *j, const struct ward_cond_rule *c)
{
	struct conj both = *j;

	if (j->n + c->ncmps > CONJ_MAX)
		return true;
	memcpy(both.c + both.n, c->cmps, c->ncmps * sizeof(*c->cmps));
	both.n += c->ncmps;
	return !unsatisfiable(&both);
}

/* Keep the conjunctions that an allowing conditional rule of sc may also
 * match: where none does, the fallback refuses those calls already. */
static size_t only_over_allows(const struct ward_syscall_rule *sc,
			       struct conj *cj, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		bool meets = false;

		for (uint32_t r = 0; r < sc->nconds && !meets; r++)
			meets = sc->conds[r].action.kind <= WARD_ACT_LOG &&
				may_meet(&cj[i], &sc->conds[r]);
		if (meets)
			cj[o++] = cj[i];
	}
	return o;
}

/* Append conjunctions to an entry's conditional rules, with action a. */
static void add_conds(struct ward_net_rules_ctx *x, int at,
		      const struct conj *cj, size_t n, struct ward_action a)
{
	struct ward_syscall_rule *sc = writable(x, at, (uint32_t)n);
	struct ward_cond_rule *conds = (struct ward_cond_rule *)sc->conds;

	if (!n)
		return;
	if (!sc->nconds && x->where->syscall_cond)
		x->where->syscall_cond[at] = x->where->net;
	for (size_t i = 0; i < n; i++) {
		struct ward_cmp *c =
		    ward_pool_array(x->pool, cj[i].n, sizeof(*c));

		memcpy(c, cj[i].c, cj[i].n * sizeof(*c));
		qsort(c, cj[i].n, sizeof(*c), ward_cmp_qsort);
		conds[sc->nconds++] = (struct ward_cond_rule){c, cj[i].n, a};
	}
}

/* A refusal, recorded as a network attempt. */
static void record_net(struct ward_action *a)
{
	if (a->kind == WARD_ACT_ERRNO && a->via == WARD_VIA_NONE)
		a->via = WARD_VIA_RECORD_NET;
}

/*
 * Refuse the calls of syscall name that match one of the conjunctions,
 * unless the policy refuses them already (then its own action stands).
 * A call the policy would allow gets the fallback's refusal when the
 * fallback refuses, else errno e; either is recorded as a network attempt.
 */
static void refuse(struct ward_net_rules_ctx *x, const char *name,
		   struct conj *cj, size_t n, uint32_t e)
{
	const struct ward_syscall_rule *sc = find(x, name);
	struct ward_action fb, deny;
	int kept, at;

	if (!allows_some(x, sc))
		return; /* refused whole already */
	at = slot(x, name);
	if (at < 0)
		return;
	sc = &x->p->rules.syscalls[at];
	fb = fallback(x, sc);
	deny = fb.kind >= WARD_ACT_ERRNO
		   ? fb
		   : (struct ward_action){WARD_ACT_ERRNO, e, WARD_VIA_NONE};
	record_net(&deny);
	kept = exclude_refusals(sc, cj, n);
	if (kept < 0) {
		ward_diag(x->d, WARD_SEV_ERROR, x->where->net,
			  "the %s() rules of this policy are too many to "
			  "combine with the net section's",
			  name);
		ward_diag_help(x->d, "write fewer conditional rules for `%s`",
			       name);
		return;
	}
	/* With the fallback's own refusal, only the calls an allowing rule
	 * would take need a rule of their own. */
	if (deny.kind == fb.kind && deny.errno_nr == fb.errno_nr)
		kept = (int)only_over_allows(sc, cj, (size_t)kept);
	add_conds(x, at, cj, (size_t)kept, deny);
}

/* ------------------------------------------------------------ socket() */

/* The calls the network mode refuses, as conjunctions: with an allow-list,
 * anything but AF_UNIX, and IPv4/IPv6 TCP streams and UDP datagrams;
 * otherwise anything but AF_UNIX. */
static size_t refused_sockets(bool inet, struct conj *out)
{
	static const struct {
		uint64_t type, proto;
	} kinds[] = {{SOCK_STREAM, IPPROTO_TCP}, {SOCK_DGRAM, IPPROTO_UDP}};
	static const uint64_t fams[] = {AF_INET, AF_INET6};
	size_t n = 0;

	memset(out, 0, 7 * sizeof(*out)); /* at most 7 conjunctions */
	cmp(&out[n], 0, WARD_CMP_NE, 0, AF_UNIX);
	if (!inet)
		return 1;
	cmp(&out[n], 0, WARD_CMP_NE, 0, AF_INET);
	cmp(&out[n++], 0, WARD_CMP_NE, 0, AF_INET6);
	for (size_t f = 0; f < ARRAY_LEN(fams); f++) {
		struct conj *j = &out[n++];
		cmp(j, 0, WARD_CMP_EQ, 0, fams[f]);
		for (size_t k = 0; k < ARRAY_LEN(kinds); k++)
			cmp(j, 1, WARD_CMP_MASKED_NE, TYPE_MASK, kinds[k].type);
		for (size_t k = 0; k < ARRAY_LEN(kinds); k++) {
			j = &out[n++];
			cmp(j, 0, WARD_CMP_EQ, 0, fams[f]);
			cmp(j, 1, WARD_CMP_MASKED_EQ, TYPE_MASK, kinds[k].type);
			cmp(j, 2, WARD_CMP_NE, 0, 0);
			cmp(j, 2, WARD_CMP_NE, 0, kinds[k].proto);
		}
	}
	return n;
}

void ward_net_narrow_socket(struct ward_net_rules_ctx *x)
{
	struct conj refused[NARROW_MAX];
	struct ward_syscall_rule *sc;
	int at;

	/* An allow-list of names only is an allow-list too: its programs
	 * need TCP sockets, and UDP ones for the stub (5.11). */
	refuse(
	    x, "socket", refused,
	    refused_sockets(x->p->net.mode == WARD_NET_ALLOWLIST &&
				(x->p->net.nrules > 0 || x->p->net.nnames > 0),
			    refused),
	    EAFNOSUPPORT);
	/* Every refusal of socket(), the policy's own as well, is a
	 * network attempt on the record (a `net none` run that tries
	 * AF_INET shows it). */
	sc = (struct ward_syscall_rule *)find(x, "socket");
	if (!sc && x->p->rules.default_action.kind != WARD_ACT_ERRNO)
		return;
	at = slot(x, "socket");
	if (at < 0)
		return;
	sc = writable(x, at, 0);
	for (uint32_t i = 0; i < sc->nconds; i++)
		record_net((struct ward_action *)&sc->conds[i].action);
	if (!sc->has_fallback &&
	    x->p->rules.default_action.kind == WARD_ACT_ERRNO) {
		sc->has_fallback = true;
		sc->fallback = x->p->rules.default_action;
		if (x->where->syscall_fallback)
			x->where->syscall_fallback[at] = x->where->net;
	}
	if (sc->has_fallback)
		record_net(&sc->fallback);
}

/* ------------------------------------------------------------ the broker */

/* An allowed call goes through the broker instead. */
static void via(struct ward_action *a, uint32_t how)
{
	if (a->kind <= WARD_ACT_LOG)
		*a = (struct ward_action){WARD_ACT_ALLOW, 0, how};
}

/* Every connect() the policy allows goes to the broker. */
static void broker_connect(struct ward_net_rules_ctx *x)
{
	struct ward_syscall_rule *sc;
	int at;

	if (!allows_some(x, find(x, "connect")))
		return;
	at = slot(x, "connect");
	if (at < 0)
		return;
	sc = writable(x, at, 0);
	for (uint32_t i = 0; i < sc->nconds; i++)
		via((struct ward_action *)&sc->conds[i].action,
		    WARD_VIA_CONNECT);
	if (!sc->has_fallback &&
	    x->p->rules.default_action.kind <= WARD_ACT_LOG) {
		sc->has_fallback = true;
		sc->fallback = x->p->rules.default_action;
		if (x->where->syscall_fallback)
			x->where->syscall_fallback[at] = x->where->net;
	}
	if (sc->has_fallback)
		via(&sc->fallback, WARD_VIA_CONNECT);
}

/* sendto(fd, buf, len, flags, addr, addrlen) with an address (addr != 0)
 * goes to the broker where the policy allows it: a conditional rule for
 * the fallback, and one beside each allowing conditional rule (the
 * stricter, so it decides where both match). */
static void broker_sendto(struct ward_net_rules_ctx *x)
{
	const struct ward_action a = {WARD_ACT_ALLOW, 0, WARD_VIA_SENDTO};
	struct conj add[NARROW_MAX];
	const struct ward_syscall_rule *sc;
	size_t n = 0;
	int at;

	if (!allows_some(x, find(x, "sendto")))
		return;
	at = slot(x, "sendto");
	if (at < 0)
		return;
	sc = &x->p->rules.syscalls[at];
	memset(add, 0, sizeof(add));
	for (uint32_t i = 0; i < sc->nconds && n < NARROW_MAX; i++) {
		const struct ward_cond_rule *c = &sc->conds[i];

		if (c->action.kind > WARD_ACT_LOG || c->ncmps >= CONJ_MAX)
			continue;
		memcpy(add[n].c, c->cmps, c->ncmps * sizeof(*c->cmps));
		add[n].n = c->ncmps;
		cmp(&add[n++], 4, WARD_CMP_NE, 0, 0);
	}
	if (fallback(x, sc).kind <= WARD_ACT_LOG && n < NARROW_MAX)
		cmp(&add[n++], 4, WARD_CMP_NE, 0, 0);
	add_conds(x, at, add, n, a);
}

/*
 * What the broker alone cannot hold, so that the allow-list needs the
 * cgroup programs as well (WARD_REQ_NET_BPF: root mode on cgroup2; the
 * launcher refuses elsewhere): a UDP socket of the host's, once the broker
 * has given it to the sandbox, can be aimed anywhere with sendmsg(2),
 * whose address seccomp cannot read; io_uring's operations (connect,
 * sendmsg) do not pass through the seccomp program at all.
 */
static void needs_programs(struct ward_net_rules_ctx *x)
{
	bool udp = false;

	for (uint32_t i = 0; i < x->p->net.nrules; i++)
		udp = udp || x->p->net.rules[i].proto == IPPROTO_UDP;
	if (udp || (seccomp_syscall_resolve_name_arch(x->scmp_arch,
						      "io_uring_setup") >= 0 &&
		    allows_some(x, find(x, "io_uring_setup"))))
		x->p->requirements |= WARD_REQ_NET_BPF;
}

void ward_net_broker_rules(struct ward_net_rules_ctx *x)
{
	struct conj cj[4];

	/* Under `net none` no IP socket can be made: nothing to broker
	 * (the refused socket() calls are on the record). */
	if (x->p->net.mode != WARD_NET_ALLOWLIST)
		return;
	broker_connect(x);
	broker_sendto(x);
	/* What would move a brokered socket: a connect hidden in a send
	 * (TCP Fast Open, which also disconnects with AF_UNSPEC), source
	 * routes in IP options or an IPv6 routing header. The kernel reads
	 * these arguments as int: their low 32 bits are compared. */
	memset(cj, 0, sizeof(cj));
	cmp(&cj[0], 3, WARD_CMP_MASKED_NE, MSG_FASTOPEN, 0);
	refuse(x, "sendto", cj, 1, EOPNOTSUPP);
	memset(cj, 0, sizeof(cj));
	cmp(&cj[0], 2, WARD_CMP_MASKED_NE, MSG_FASTOPEN, 0);
	refuse(x, "sendmsg", cj, 1, EOPNOTSUPP);
	memset(cj, 0, sizeof(cj));
	cmp(&cj[0], 3, WARD_CMP_MASKED_NE, MSG_FASTOPEN, 0);
	refuse(x, "sendmmsg", cj, 1, EOPNOTSUPP);
	memset(cj, 0, sizeof(cj));
	cmp(&cj[0], 1, WARD_CMP_MASKED_EQ, INT_MASK, IPPROTO_IP);
	cmp(&cj[0], 2, WARD_CMP_MASKED_EQ, INT_MASK, IP_OPTIONS);
	cmp(&cj[1], 1, WARD_CMP_MASKED_EQ, INT_MASK, IPPROTO_IPV6);
	cmp(&cj[1], 2, WARD_CMP_MASKED_EQ, INT_MASK, IPV6_RTHDR);
	cmp(&cj[2], 1, WARD_CMP_MASKED_EQ, INT_MASK, IPPROTO_IPV6);
	cmp(&cj[2], 2, WARD_CMP_MASKED_EQ, INT_MASK, IPV6_2292RTHDR);
	cmp(&cj[3], 1, WARD_CMP_MASKED_EQ, INT_MASK, IPPROTO_IPV6);
	cmp(&cj[3], 2, WARD_CMP_MASKED_EQ, INT_MASK, IPV6_2292PKTOPTIONS);
	refuse(x, "setsockopt", cj, 4, ENOPROTOOPT);
	needs_programs(x);
}
