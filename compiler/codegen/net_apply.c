/* SPDX-License-Identifier: MIT */
/*
 * net_apply.c: what the `net` section adds to the rest of the policy, once
 * the checker has laid every section out (net_apply.h, docs/spec.md part
 * 5.1):
 *
 *   - socket() narrowed in the rule table to the address families and
 *     socket types the network mode needs: conditional rules whose action
 *     is at least as strict as what the call would get otherwise, so that
 *     the net section only ever takes permissions away;
 *   - /etc/hosts, written from the pinned hosts;
 *   - the eBPF programs and map contents of an allow-list (net_bpf.c).
 */
#include "net_apply.h"

#include "net_bpf.h"
#include "rules_meaning.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* One application: the checked policy, where its parts came from, and
 * where to report. */
struct apply {
	struct ward_pool *pool;
	struct ward_policy *p;
	struct ward_provenance *where;
	struct ward_diags *d;
	uint32_t scmp_arch; /* SCMP_ARCH_* of p->arch */
};

static struct ward_loc noloc(void)
{
	return (struct ward_loc){.file = WARD_NO_FILE};
}

/* ------------------------------------------------------------ socket() */

/* socket(domain, type, protocol): the type's flags are not its kind. */
#define TYPE_MASK (0xffffffffull & ~(uint64_t)(SOCK_NONBLOCK | SOCK_CLOEXEC))

#define CONJ_MAX   16 /* comparisons in one narrowing conjunction */
#define NARROW_MAX 64 /* narrowing conjunctions, after the exclusions */

struct conj {
	struct ward_cmp c[CONJ_MAX];
	uint32_t n;
};

static void cmp(struct conj *j, uint8_t arg, uint8_t op, uint64_t mask,
		uint64_t value)
{
	j->c[j->n++] = (struct ward_cmp){arg, op, mask, value};
}

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

static void narrow_socket(struct apply *ap)
{
	struct ward_rules *rules = &ap->p->rules;
	int nr = seccomp_syscall_resolve_name_arch(ap->scmp_arch, "socket");
	struct conj refused[NARROW_MAX];
	uint32_t at = 0, n = rules->nsyscalls;
	bool found;
	struct ward_syscall_rule old;
	struct ward_action fb;
	struct ward_action deny;
	size_t nref;
	int kept;
	struct ward_cond_rule *conds;
	uint32_t nn;
	struct ward_syscall_rule *sys;
	struct ward_loc *fbl;
	struct ward_loc *cl;

	if (nr < 0)
		return;
	while (at < n && rules->syscalls[at].nr < nr)
		at++;
	found = at < n && rules->syscalls[at].nr == nr;
	old = found ? rules->syscalls[at]
		    : (struct ward_syscall_rule){.nr = nr, .name = "socket"};
	/* What a refused call would get without the net section; it keeps
	 * that when it is already a refusal, so that nothing gets weaker. */
	fb = old.has_fallback ? old.fallback : rules->default_action;
	deny = fb;
	if (fb.kind < WARD_ACT_ERRNO)
		deny = (struct ward_action){WARD_ACT_ERRNO, EAFNOSUPPORT};
	if (old.nconds == 0 && deny.kind == fb.kind &&
	    deny.errno_nr == fb.errno_nr)
		return; /* refused already */

	nref = refused_sockets(ap->p->net.mode == WARD_NET_ALLOWLIST &&
				   ap->p->net.nrules > 0,
			       refused);
	kept = exclude_refusals(&old, refused, nref);
	if (kept < 0) {
		ward_diag(ap->d, WARD_SEV_ERROR, ap->where->net,
			  "the socket() rules of this policy are too many to "
			  "combine with the net section's narrowing");
		ward_diag_help(ap->d, "write fewer conditional rules for "
				      "`socket`");
		return;
	}
	nref = (size_t)kept;
	conds = ward_pool_array(ap->pool, old.nconds + nref, sizeof(*conds));
	if (old.nconds)
		memcpy(conds, old.conds, old.nconds * sizeof(*conds));
	for (size_t i = 0; i < nref; i++) {
		struct ward_cmp *c =
		    ward_pool_array(ap->pool, refused[i].n, sizeof(*c));
		memcpy(c, refused[i].c, refused[i].n * sizeof(*c));
		qsort(c, refused[i].n, sizeof(*c), ward_cmp_qsort);
		conds[old.nconds + i] =
		    (struct ward_cond_rule){c, refused[i].n, deny};
	}
	old.conds = conds;
	old.nconds += (uint32_t)nref;

	/* The table, and its provenance, with socket in place. */
	nn = n + !found;
	sys = ward_pool_array(ap->pool, nn, sizeof(*sys));
	fbl = ward_pool_array(ap->pool, nn, sizeof(*fbl));
	cl = ward_pool_array(ap->pool, nn, sizeof(*cl));
	for (uint32_t i = 0, o = 0; o < nn; o++) {
		if (o == at) {
			sys[o] = old;
			fbl[o] = found && ap->where->syscall_fallback
				     ? ap->where->syscall_fallback[at]
				     : noloc();
			cl[o] = found && old.nconds > nref &&
					ap->where->syscall_cond
				    ? ap->where->syscall_cond[at]
				    : ap->where->net;
			i += found;
			continue;
		}
		sys[o] = rules->syscalls[i];
		fbl[o] = ap->where->syscall_fallback
			     ? ap->where->syscall_fallback[i]
			     : noloc();
		cl[o] = ap->where->syscall_cond ? ap->where->syscall_cond[i]
						: noloc();
		i++;
	}
	rules->syscalls = sys;
	rules->nsyscalls = nn;
	ap->where->syscall_fallback = fbl;
	ap->where->syscall_cond = cl;
}

/* ------------------------------------------------------------ /etc/hosts */

static void hosts_file(struct apply *ap)
{
	struct ward_policy *p = ap->p;
	const struct ward_net *n = &p->net;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	uint8_t *data;
	struct ward_mount *m;
	struct ward_loc *w;

	/* (An entry in its way is the checker's error: sema_net.c.) */
	if (n->mode != WARD_NET_ALLOWLIST || n->nhosts == 0)
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		abort(); /* the compiler's pool aborts on OOM too */
	fputs("127.0.0.1 localhost\n"
	      "::1 localhost ip6-localhost ip6-loopback\n",
	      f);
	if (p->identity.hostname && p->identity.hostname[0])
		fprintf(f, "127.0.1.1 %s\n", p->identity.hostname);
	for (uint32_t i = 0; i < n->nhosts; i++) {
		char a[INET6_ADDRSTRLEN];
		inet_ntop(n->hosts[i].family == 4 ? AF_INET : AF_INET6,
			  n->hosts[i].addr, a, sizeof(a));
		fprintf(f, "%s %s\n", a, n->hosts[i].name);
	}
	fclose(f);
	data = ward_pool_alloc(ap->pool, len + 1);
	memcpy(data, buf, len);
	free(buf);

	/* Last: its parents, if any, come before it. */
	m = ward_pool_array(ap->pool, p->nmounts + 1, sizeof(*m));
	w = ward_pool_array(ap->pool, p->nmounts + 1, sizeof(*w));
	memcpy(m, p->mounts, p->nmounts * sizeof(*m));
	memcpy(w, ap->where->mounts, p->nmounts * sizeof(*w));
	m[0].size += (len + 4095) & ~4095ull; /* it lives on the root */
	m[p->nmounts] = (struct ward_mount){
	    .kind = WARD_MNT_FILE,
	    .dst = WARD_HOSTS_PATH,
	    .mode = 0444,
	    .data = data,
	    .data_len = len,
	};
	w[p->nmounts] = ap->where->net;
	p->mounts = m;
	ap->where->mounts = w;
	p->nmounts++;
}

/* ------------------------------------------------------------ programs */

static void programs(struct apply *ap)
{
	struct ward_net *n = &ap->p->net;
	uint32_t bad_rule = 0;
	ward_err err = {0};

	if (n->mode != WARD_NET_ALLOWLIST)
		return;
	if (ward_net_bpf_build(ap->pool, n, &n->bpf, &bad_rule, &err) < 0) {
		struct ward_loc loc =
		    ap->where->net_rules && bad_rule < n->nrules
			? ap->where->net_rules[bad_rule]
			: ap->where->net;
		ward_diag(ap->d, WARD_SEV_ERROR, loc, "%s", err.msg);
		ward_diag_help(ap->d, "merge the ports into ranges (`port "
				      "8000-8100`)");
	}
}

int ward_net_apply(struct ward_checked *c, struct ward_diags *d)
{
	struct apply ap = {
	    .pool = c->pool,
	    .p = &c->policy,
	    .where = &c->where,
	    .d = d,
	    .scmp_arch = c->policy.arch == WARD_ARCH_AARCH64 ? SCMP_ARCH_AARCH64
							     : SCMP_ARCH_X86_64,
	};
	unsigned errors = ward_diags_errors(d);

	narrow_socket(&ap);
	hosts_file(&ap);
	programs(&ap);
	return ward_diags_errors(d) > errors ? -1 : 0;
}
