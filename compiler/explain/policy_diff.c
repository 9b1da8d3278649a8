/* SPDX-License-Identifier: MIT */
/*
 * policy_diff.c: `wardc diff`'s comparison (policy_diff.h). Each section is
 * compared by what it means for the sandbox, and a change is marked `+`
 * (B allows more), `-` (B allows less) or `~` (different, neither wider
 * nor narrower). What is derived from the sections (the host
 * requirements, the seccomp program, the network's BPF) is compared too,
 * as a last line: a blob whose program does not follow from its rule table
 * (another compiler, an edited file) must not read as equal.
 * tests/unit/test_diff.c mutates every field in turn.
 */
#include "policy_diff.h"
#include "answer_ranges.h"

#include "blob.h"
#include "consts.h"
#include "describe.h"
#include "explain_landlock.h"
#include "rules_meaning.h"
#include "units.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

struct differ {
	struct ward_pool *pool;
	const struct ward_policy *a, *b;
	struct ward_vec *changes;
};

static void change(struct differ *d, const char *section, char sign,
		   const char *what, const char *a, const char *b)
{
	struct ward_change *c = ward_vec_push(d->pool, d->changes, sizeof(*c));
	*c = (struct ward_change){section, sign, what, a, b};
}

static int sign_of(int cmp_wider)
{
	return cmp_wider > 0 ? '+' : cmp_wider < 0 ? '-' : '~';
}

/* ------------------------------------------------------------- sections */

static void diff_identity(struct differ *d)
{
	const struct ward_identity *a = &d->a->identity, *b = &d->b->identity;
	struct ward_pool *p = d->pool;
	if (a->uid != b->uid)
		change(d, "identity", '~', "user",
		       ward_pool_printf(p, "%u", a->uid),
		       ward_pool_printf(p, "%u", b->uid));
	if (a->gid != b->gid)
		change(d, "identity", '~', "group",
		       ward_pool_printf(p, "%u", a->gid),
		       ward_pool_printf(p, "%u", b->gid));
	if (strcmp(a->hostname, b->hostname))
		change(d, "identity", '~', "hostname", a->hostname,
		       b->hostname);
	if (strcmp(a->workdir ? a->workdir : "", b->workdir ? b->workdir : ""))
		change(d, "identity", '~', "workdir", a->workdir, b->workdir);
	/* `groups keep`: the caller's supplementary groups may follow the
	 * sandbox, and with them what those groups may read */
	bool ga = d->a->requirements & WARD_REQ_HOST_GROUPS,
	     gb = d->b->requirements & WARD_REQ_HOST_GROUPS;
	if (ga != gb)
		change(d, "identity", gb ? '+' : '-', "groups",
		       ga ? "keep" : "refuse", gb ? "keep" : "refuse");
	for (int c = 0; c < 64; c++) {
		bool in_a = a->caps_keep >> c & 1, in_b = b->caps_keep >> c & 1;
		const char *name;

		if (in_a == in_b)
			continue;
		name = ward_cap_name(c);
		if (!name)
			name = ward_pool_printf(p, "capability %d", c);
		change(d, "identity", in_b ? '+' : '-', name,
		       in_a ? "kept" : NULL, in_b ? "kept" : NULL);
	}
}

static const char *env_text(const struct ward_env_var *v)
{
	return v->value ? v->value : "(inherited from the caller)";
}

static void diff_env(struct differ *d)
{
	const struct ward_policy *a = d->a, *b = d->b;
	for (uint32_t i = 0; i < a->nenv; i++) {
		const struct ward_env_var *va = &a->env[i], *vb = NULL;
		for (uint32_t k = 0; k < b->nenv; k++)
			if (!strcmp(b->env[k].name, va->name))
				vb = &b->env[k];
		if (!vb)
			change(d, "environment", '-', va->name, env_text(va),
			       NULL);
		else if (strcmp(env_text(va), env_text(vb)))
			change(d, "environment", '~', va->name, env_text(va),
			       env_text(vb));
	}
	for (uint32_t k = 0; k < b->nenv; k++) {
		bool in_a = false;
		for (uint32_t i = 0; i < a->nenv; i++)
			in_a |= !strcmp(a->env[i].name, b->env[k].name);
		if (!in_a)
			change(d, "environment", '+', b->env[k].name, NULL,
			       env_text(&b->env[k]));
	}
}

static const struct ward_mount *find_mount(const struct ward_policy *p,
					   const char *dst, uint32_t *index)
{
	for (uint32_t i = 0; i < p->nmounts; i++)
		if (!strcmp(p->mounts[i].dst, dst)) {
			*index = i;
			return &p->mounts[i];
		}
	return NULL;
}

/* Is B's mount wider than A's (+1), narrower (-1), or neither (0)? */
static int mount_wider(const struct ward_mount *a, const struct ward_mount *b)
{
	int w = 0;
	uint32_t gained = b->flags & ~a->flags, lost = a->flags & ~b->flags;
	if (gained & (WARD_MNT_F_RW | WARD_MNT_F_EXEC))
		w++;
	if (lost & (WARD_MNT_F_RW | WARD_MNT_F_EXEC))
		w--;
	if (a->kind == b->kind && a->kind == WARD_MNT_TMPFS &&
	    a->size != b->size)
		w += b->size > a->size ? 1 : -1;
	if (a->kind != b->kind || (a->src && b->src && strcmp(a->src, b->src)))
		return 0;
	return w > 0 ? 1 : w < 0 ? -1 : 0;
}

static bool same_mount(const struct ward_mount *a, const struct ward_mount *b)
{
	return a->kind == b->kind && a->flags == b->flags &&
	       a->size == b->size && a->mode == b->mode &&
	       !!a->src == !!b->src && (!a->src || !strcmp(a->src, b->src)) &&
	       a->data_len == b->data_len &&
	       (!a->data_len || !memcmp(a->data, b->data, a->data_len));
}

static void diff_mounts(struct differ *d)
{
	struct ward_pool *p = d->pool;
	size_t before = d->changes->n;
	bool order_same = d->a->nmounts == d->b->nmounts;
	for (uint32_t i = 0; i < d->a->nmounts; i++) {
		const struct ward_mount *ma = &d->a->mounts[i];
		uint32_t j;
		const struct ward_mount *mb = find_mount(d->b, ma->dst, &j);
		const char *ta, *tb;

		if (!mb) {
			change(d, "mounts", '-', ma->dst, describe_mount(p, ma),
			       NULL);
			order_same = false;
			continue;
		}
		order_same &= i == j;
		if (same_mount(ma, mb))
			continue;
		ta = describe_mount(p, ma);
		tb = describe_mount(p, mb);
		if (!strcmp(ta, tb)) /* only the content of a file */
			ta = "file content", tb = "other file content";
		change(d, "mounts", (char)sign_of(mount_wider(ma, mb)), ma->dst,
		       ta, tb);
	}
	for (uint32_t k = 0; k < d->b->nmounts; k++) {
		uint32_t j;
		if (!find_mount(d->a, d->b->mounts[k].dst, &j))
			change(d, "mounts", '+', d->b->mounts[k].dst, NULL,
			       describe_mount(p, &d->b->mounts[k]));
	}
	if (!order_same && d->changes->n == before)
		change(d, "mounts", '~', "order", "A's order", "B's order");
	bool xa = d->a->exec & WARD_EXEC_MEMFD,
	     xb = d->b->exec & WARD_EXEC_MEMFD;
	if (xa != xb)
		change(d, "mounts", xb ? '+' : '-', "memfd",
		       xa ? "exec" : "noexec", xb ? "exec" : "noexec");
}

/* Wider is less refused: b lacks bits of a's (+), has more (-), both. */
static char bits_sign(uint64_t a, uint64_t b)
{
	return (char)((a & ~b) && (b & ~a) ? '~' : (a & ~b) ? '+' : '-');
}

static const struct ward_landlock_rule *
find_ll_rule(const struct ward_landlock *ll, const char *path)
{
	for (uint32_t i = 0; i < ll->nrules; i++)
		if (!strcmp(ll->rules[i].path, path))
			return &ll->rules[i];
	return NULL;
}

/* The Landlock layer: its mode (off is the widest, require the
 * narrowest), ABI, handled rights, scopes, and each rule by path. */
static void diff_landlock(struct differ *d)
{
	struct ward_pool *p = d->pool;
	const struct ward_landlock *a = &d->a->landlock, *b = &d->b->landlock;
	const char *s = "landlock";

	if (a->mode != b->mode)
		change(d, s, b->mode < a->mode ? '+' : '-', "mode",
		       ward_landlock_mode_name(a->mode),
		       ward_landlock_mode_name(b->mode));
	if (a->mode == WARD_LANDLOCK_OFF || b->mode == WARD_LANDLOCK_OFF)
		return;
	if (a->abi != b->abi)
		change(d, s, '~', "abi", ward_pool_printf(p, "%u", a->abi),
		       ward_pool_printf(p, "%u", b->abi));
	if (a->handled_fs != b->handled_fs)
		change(d, s, bits_sign(a->handled_fs, b->handled_fs), "handled",
		       ward_landlock_rights(p, a->handled_fs),
		       ward_landlock_rights(p, b->handled_fs));
	if (a->scoped != b->scoped)
		change(
		    d, s, bits_sign(a->scoped, b->scoped), "scoped",
		    ward_pool_printf(p, "%#llx", (unsigned long long)a->scoped),
		    ward_pool_printf(p, "%#llx",
				     (unsigned long long)b->scoped));
	for (uint32_t i = 0; i < a->nrules; i++) {
		const struct ward_landlock_rule *ra = &a->rules[i],
						*rb = find_ll_rule(b, ra->path);

		if (!rb)
			change(d, s, '-', ra->path,
			       ward_landlock_rights(p, ra->access), NULL);
		else if (ra->access != rb->access)
			change(d, s, bits_sign(rb->access, ra->access),
			       ra->path, ward_landlock_rights(p, ra->access),
			       ward_landlock_rights(p, rb->access));
		else if (ra->flags != rb->flags)
			change(d, s, '~', ra->path,
			       ra->flags ? "if mounted" : "always",
			       rb->flags ? "if mounted" : "always");
	}
	for (uint32_t i = 0; i < b->nrules; i++)
		if (!find_ll_rule(a, b->rules[i].path))
			change(d, s, '+', b->rules[i].path, NULL,
			       ward_landlock_rights(p, b->rules[i].access));
}

static void diff_limits(struct differ *d)
{
	struct ward_pool *p = d->pool;
	const struct ward_limits *a = &d->a->limits, *b = &d->b->limits;
	for (int k = 0; k < WARD_LIM_COUNT; k++) {
		/* A limit with a default is compared by what applies. */
		uint64_t va = 0, vb = 0;
		bool sa = ward_limit_effective(a, k, &va),
		     sb = ward_limit_effective(b, k, &vb);
		const char *name;
		const char *ta;
		const char *tb;
		int wider;

		if (!sa && !sb)
			continue;
		name = describe_limit_name(k);
		ta = sa ? describe_limit_value(p, k, va) : "unlimited";
		tb = sb ? describe_limit_value(p, k, vb) : "unlimited";
		if (sa && sb && va == vb)
			continue;
		wider = !sb ? 1 : !sa ? -1 : vb > va ? 1 : -1;
		change(d, "limits", (char)sign_of(wider), name, ta, tb);
	}
}

/* Field by field: a rule has a padding byte before its ports. */
static bool same_rule(const struct ward_net_rule *x,
		      const struct ward_net_rule *y)
{
	return x->proto == y->proto && x->family == y->family &&
	       x->prefix == y->prefix && !memcmp(x->addr, y->addr, 16) &&
	       x->port_lo == y->port_lo && x->port_hi == y->port_hi;
}

static bool has_rule(const struct ward_net *n, const struct ward_net_rule *r)
{
	for (uint32_t i = 0; i < n->nrules; i++)
		if (same_rule(&n->rules[i], r))
			return true;
	return false;
}

static bool has_net_name(const struct ward_net *n,
			 const struct ward_net_name *x)
{
	for (uint32_t i = 0; i < n->nnames; i++)
		if (!strcmp(n->names[i].name, x->name) &&
		    n->names[i].proto == x->proto &&
		    n->names[i].flags == x->flags &&
		    n->names[i].port_lo == x->port_lo &&
		    n->names[i].port_hi == x->port_hi)
			return true;
	return false;
}

/* A name's addresses are the run's DNS answers: the diff can only say which
 * names, not which addresses, each side allows. */
static const char *name_text(struct ward_pool *p, const struct ward_net_name *n)
{
	return ward_pool_printf(p, "%s (addresses learned at run time)",
				describe_net_name(p, n));
}

static bool has_prefix(const struct ward_net_prefix *v, size_t n,
		       const struct ward_net_prefix *x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].family == x->family && v[i].prefix == x->prefix &&
		    !memcmp(v[i].addr, x->addr, 16))
			return true;
	return false;
}

static bool normal_form(const struct ward_net_prefix *p)
{
	unsigned bits = p->family == 4 ? 32 : 128;

	for (unsigned b = p->prefix; b < bits && b < 128; b++)
		if (p->addr[b / 8] & (0x80 >> (b % 8)))
			return false;
	for (unsigned k = 4; p->family == 4 && k < 16; k++)
		if (p->addr[k])
			return false;
	return p->family == 4 || p->family == 6;
}

/* Where `allow answers` may open (5.11): a private network or one of
 * the IPv6 forms of an IPv4 one. */
static size_t openable(struct ward_net_prefix *out)
{
	size_t n = 0;

	for (size_t i = 0; i < ward_answers_nprivate; i++) {
		out[n++] = ward_answers_private[i];
		if (ward_answers_private[i].family == 4)
			n += ward_prefix_embed(&ward_answers_private[i],
					       out + n);
	}
	return n;
}

/* The networks of cand (n of them) that net's refused ranges leave
 * open, into out (at most max). */
static size_t opened(const struct ward_net *net,
		     const struct ward_net_prefix *cand, size_t n,
		     struct ward_net_prefix *out, size_t max)
{
	size_t o = 0;

	for (size_t i = 0; net->nnames && i < n; i++)
		o += ward_prefix_subtract(&cand[i], net->refused, net->nrefused,
					  out + (o < max ? o : max),
					  max > o ? max - o : 0);
	return o > max ? max : o;
}

/* The answers' refused ranges (5.11), compared in two parts: the
 * private networks (and their IPv6 forms) each side opens by `allow
 * answers`, one opened being wider ('+'); and every other refused range
 * that one side has and the other not, one fewer being wider. */
static void diff_answers(struct differ *d, const struct ward_net *a,
			 const struct ward_net *b)
{
	struct ward_net_prefix cand[32], oa[128], ob[128];
	size_t nc = openable(cand);
	size_t na = opened(a, cand, nc, oa, 128);
	size_t nb = opened(b, cand, nc, ob, 128);

	for (int side = 0; side < 2; side++) {
		const struct ward_net_prefix *x = side ? ob : oa;
		const struct ward_net_prefix *y = side ? oa : ob;
		const struct ward_net *xn = side ? b : a, *yn = side ? a : b;
		size_t nx = side ? nb : na, ny = side ? na : nb;

		for (size_t i = 0; i < nx; i++) {
			const char *t;

			if (has_prefix(y, ny, &x[i]))
				continue;
			t = ward_pool_printf(
			    d->pool,
			    "%s/%u (a DNS answer may lead into this private "
			    "network)",
			    describe_addr(d->pool, x[i].family, x[i].addr),
			    x[i].prefix);
			change(d, "network", side ? '+' : '-', "allow answers",
			       side ? NULL : t, side ? t : NULL);
		}
		/* (without names on one side there is nothing to refuse
		 * there: the name rules' lines say it) */
		for (uint32_t i = 0; a->nnames && b->nnames && i < xn->nrefused;
		     i++) {
			const struct ward_net_prefix *r = &xn->refused[i];
			bool priv = false;
			const char *t;

			/* (a range with host bits set is no reader's, but
			 * shown as it is) */
			for (size_t k = 0; k < nc && normal_form(r); k++)
				priv = priv || ward_prefix_covers(&cand[k], r);
			if (priv || has_prefix(yn->refused, yn->nrefused, r))
				continue;
			t = ward_pool_printf(
			    d->pool,
			    "%s/%u (no answer's address there is learned)",
			    describe_addr(d->pool, r->family, r->addr),
			    r->prefix);
			change(d, "network", side ? '-' : '+',
			       "answers refused", side ? NULL : t,
			       side ? t : NULL);
		}
	}
}

static void diff_net(struct differ *d)
{
	struct ward_pool *p = d->pool;
	const struct ward_net *a = &d->a->net, *b = &d->b->net;
	if (a->mode != b->mode)
		change(d, "network", b->mode == WARD_NET_NONE ? '-' : '+',
		       "mode", a->mode == WARD_NET_NONE ? "none" : "allowlist",
		       b->mode == WARD_NET_NONE ? "none" : "allowlist");
	for (uint32_t i = 0; i < a->nrules; i++)
		if (!has_rule(b, &a->rules[i]))
			change(d, "network", '-', "allow",
			       describe_net_rule(p, &a->rules[i]), NULL);
	for (uint32_t i = 0; i < b->nrules; i++)
		if (!has_rule(a, &b->rules[i]))
			change(d, "network", '+', "allow", NULL,
			       describe_net_rule(p, &b->rules[i]));
	for (uint32_t i = 0; i < a->nnames; i++)
		if (!has_net_name(b, &a->names[i]))
			change(d, "network", '-', "allow",
			       name_text(p, &a->names[i]), NULL);
	for (uint32_t i = 0; i < b->nnames; i++)
		if (!has_net_name(a, &b->names[i]))
			change(d, "network", '+', "allow", NULL,
			       name_text(p, &b->names[i]));
	diff_answers(d, a, b);
	for (int side = 0; side < 2; side++) {
		const struct ward_net *x = side ? b : a, *y = side ? a : b;
		for (uint32_t i = 0; i < x->nhosts; i++) {
			bool found = false;
			const char *t;

			for (uint32_t k = 0; k < y->nhosts; k++)
				found |=
				    !strcmp(x->hosts[i].name,
					    y->hosts[k].name) &&
				    x->hosts[i].family == y->hosts[k].family &&
				    !memcmp(x->hosts[i].addr, y->hosts[k].addr,
					    16);
			if (found)
				continue;
			t = ward_pool_printf(p, "%s = %s", x->hosts[i].name,
					     describe_addr(p,
							   x->hosts[i].family,
							   x->hosts[i].addr));
			change(d, "network", '~', "host", side ? NULL : t,
			       side ? t : NULL);
		}
	}
}

static const struct ward_syscall_rule *find_sys(const struct ward_rules *r,
						int32_t nr)
{
	for (uint32_t i = 0; i < r->nsyscalls; i++)
		if (r->syscalls[i].nr == nr)
			return &r->syscalls[i];
	return NULL;
}

static void diff_syscall(struct differ *d, int32_t nr, const char *name)
{
	const struct ward_rules *ra = &d->a->rules, *rb = &d->b->rules;
	const struct ward_syscall_rule *sa = find_sys(ra, nr),
				       *sb = find_sys(rb, nr);
	struct ward_syscall_rule none = {.nr = nr, .name = name};
	const char *ta = describe_syscall(d->pool, d->a->arch, sa ? sa : &none,
					  ra->default_action);
	const char *tb = describe_syscall(d->pool, d->b->arch, sb ? sb : &none,
					  rb->default_action);
	int wider = 0;
	bool cond;

	if (!strcmp(ta, tb))
		return;
	cond = (sa && sa->nconds) || (sb && sb->nconds);
	if (!cond) {
		struct ward_action xa =
		    sa && sa->has_fallback ? sa->fallback : ra->default_action;
		struct ward_action xb =
		    sb && sb->has_fallback ? sb->fallback : rb->default_action;
		wider = xa.kind > xb.kind ? 1 : xa.kind < xb.kind ? -1 : 0;
	}
	change(d, "syscalls", (char)sign_of(wider), name, ta, tb);
}

static void diff_syscalls(struct differ *d)
{
	const struct ward_rules *ra = &d->a->rules, *rb = &d->b->rules;
	struct ward_pool *p = d->pool;
	const char *da = ward_action_name(p, ra->default_action),
		   *db = ward_action_name(p, rb->default_action);
	if (strcmp(da, db)) {
		int k =
		    (int)ra->default_action.kind - (int)rb->default_action.kind;
		change(d, "syscalls", (char)sign_of(k), "default", da, db);
	}
	for (uint32_t i = 0; i < ra->nsyscalls; i++)
		diff_syscall(d, ra->syscalls[i].nr, ra->syscalls[i].name);
	for (uint32_t i = 0; i < rb->nsyscalls; i++)
		if (!find_sys(ra, rb->syscalls[i].nr))
			diff_syscall(d, rb->syscalls[i].nr,
				     rb->syscalls[i].name);
}

/* What leaves through the exporter: a wider rule lets more of a run out,
 * past the boundary (docs/spec.md part 6). */
static const struct ward_export_rule *find_export(const struct ward_policy *p,
						  const char *slot)
{
	for (uint32_t i = 0; i < p->nexports; i++)
		if (!strcmp(p->exports[i].slot, slot))
			return &p->exports[i];
	return NULL;
}

static const char *export_text(struct ward_pool *p,
			       const struct ward_export_rule *r)
{
	return ward_pool_printf(p, "%u files of %s, %s in all", r->max_files,
				ward_size_str(p, r->per_file),
				r->total ? ward_size_str(p, r->total)
					 : "no total");
}

static bool has_name(const struct ward_export_rule *r, const char *glob)
{
	for (uint32_t i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i], glob))
			return true;
	return false;
}

/* A cap of B against A's: more is wider; a total of 0 is none at all. */
static void cap(struct differ *d, const char *what, uint64_t a, uint64_t b,
		bool zero_is_none)
{
	struct ward_pool *p = d->pool;
	if (a == b)
		return;
	uint64_t ea = zero_is_none && !a ? UINT64_MAX : a;
	uint64_t eb = zero_is_none && !b ? UINT64_MAX : b;
	change(d, "export", eb > ea ? '+' : '-', what,
	       a || !zero_is_none ? ward_size_str(p, a) : "none",
	       b || !zero_is_none ? ward_size_str(p, b) : "none");
}

static void diff_export_rule(struct differ *d, const struct ward_export_rule *a,
			     const struct ward_export_rule *b)
{
	struct ward_pool *p = d->pool;
	const char *slot = a->slot;

	if (a->max_files != b->max_files)
		change(d, "export", b->max_files > a->max_files ? '+' : '-',
		       ward_pool_printf(p, "%s: files", slot),
		       ward_pool_printf(p, "%u", a->max_files),
		       ward_pool_printf(p, "%u", b->max_files));
	cap(d, ward_pool_printf(p, "%s: per-file", slot), a->per_file,
	    b->per_file, false);
	cap(d, ward_pool_printf(p, "%s: total", slot), a->total, b->total,
	    true);
	for (uint32_t bit = 1; bit & WARD_EXPORT_T_ALL; bit <<= 1)
		if ((a->types ^ b->types) & bit)
			change(d, "export", b->types & bit ? '+' : '-',
			       ward_pool_printf(p, "%s: type %s", slot,
						ward_export_type_name(bit)),
			       a->types & bit ? "allowed" : NULL,
			       b->types & bit ? "allowed" : NULL);
	/* no `names` is any name */
	if (!a->nnames != !b->nnames)
		change(d, "export", !b->nnames ? '+' : '-',
		       ward_pool_printf(p, "%s: names", slot),
		       a->nnames ? "listed" : "any",
		       b->nnames ? "listed" : "any");
	else
		for (int side = 0; side < 2; side++) {
			const struct ward_export_rule *x = side ? b : a,
						      *y = side ? a : b;
			for (uint32_t i = 0; i < x->nnames; i++)
				if (!has_name(y, x->names[i]))
					change(d, "export", side ? '+' : '-',
					       ward_pool_printf(
						   p, "%s: name \"%s\"", slot,
						   x->names[i]),
					       side ? NULL : "allowed",
					       side ? "allowed" : NULL);
		}
	if (a->on_violation != b->on_violation)
		change(d, "export",
		       b->on_violation == WARD_EXPORT_SKIP ? '+' : '-',
		       ward_pool_printf(p, "%s: on-violation", slot),
		       a->on_violation == WARD_EXPORT_SKIP ? "skip" : "refuse",
		       b->on_violation == WARD_EXPORT_SKIP ? "skip" : "refuse");
}

static void diff_export(struct differ *d)
{
	struct ward_pool *p = d->pool;
	for (uint32_t i = 0; i < d->a->nexports; i++) {
		const struct ward_export_rule *ra = &d->a->exports[i],
					      *rb = find_export(d->b, ra->slot);
		if (rb)
			diff_export_rule(d, ra, rb);
		else
			change(d, "export", '-', ra->slot, export_text(p, ra),
			       NULL);
	}
	for (uint32_t i = 0; i < d->b->nexports; i++)
		if (!find_export(d->a, d->b->exports[i].slot))
			change(d, "export", '+', d->b->exports[i].slot, NULL,
			       export_text(p, &d->b->exports[i]));
}

/* ------------------------------------------------------- what is derived */

static bool same_bpf(const struct ward_net_bpf *a, const struct ward_net_bpf *b)
{
	if (a->nmaps != b->nmaps || a->nprogs != b->nprogs ||
	    a->nrelocs != b->nrelocs)
		return false;
	for (uint32_t i = 0; i < a->nmaps; i++) {
		const struct ward_net_map *x = &a->maps[i], *y = &b->maps[i];
		size_t n = (size_t)x->nentries * (x->key_size + x->value_size);
		if (x->role != y->role || x->type != y->type ||
		    x->key_size != y->key_size ||
		    x->value_size != y->value_size ||
		    x->max_entries != y->max_entries || x->flags != y->flags ||
		    x->nentries != y->nentries ||
		    (n && memcmp(x->entries, y->entries, n)))
			return false;
	}
	for (uint32_t i = 0; i < a->nprogs; i++) {
		const struct ward_net_prog *x = &a->progs[i], *y = &b->progs[i];
		if (x->type != y->type || x->attach_type != y->attach_type ||
		    x->ninsns != y->ninsns ||
		    (x->ninsns &&
		     memcmp(x->insns, y->insns, x->ninsns * sizeof(*x->insns))))
			return false;
	}
	for (uint32_t i = 0; i < a->nrelocs; i++)
		if (a->relocs[i].prog != b->relocs[i].prog ||
		    a->relocs[i].map != b->relocs[i].map ||
		    a->relocs[i].insn != b->relocs[i].insn)
			return false;
	return true;
}

static bool same_insns(const struct ward_seccomp *a,
		       const struct ward_seccomp *b)
{
	if (a->ninsns != b->ninsns)
		return false;
	for (uint32_t i = 0; i < a->ninsns; i++)
		if (a->insns[i].code != b->insns[i].code ||
		    a->insns[i].jt != b->insns[i].jt ||
		    a->insns[i].jf != b->insns[i].jf ||
		    a->insns[i].k != b->insns[i].k)
			return false;
	return true;
}

/* Whether any change of `section` was found since index `from`. */
static bool changed(const struct differ *d, size_t from, const char *section)
{
	const struct ward_change *c = d->changes->items;
	for (size_t i = from; i < d->changes->n; i++)
		if (!strcmp(c[i].section, section))
			return true;
	return false;
}

/* The program the kernel runs, the network's BPF and the host
 * requirements follow from the sections above: when they differ and the
 * sections do not, the difference is said as it is, neither wider nor
 * narrower, rather than not at all. */
static void diff_derived(struct differ *d, size_t from)
{
	struct ward_pool *p = d->pool;
	uint32_t ra = d->a->requirements & ~(uint32_t)WARD_REQ_HOST_GROUPS,
		 rb = d->b->requirements & ~(uint32_t)WARD_REQ_HOST_GROUPS;

	if (!changed(d, from, "syscalls") &&
	    !same_insns(&d->a->seccomp, &d->b->seccomp))
		change(d, "syscalls", '~', "program",
		       ward_pool_printf(p, "%u instructions",
					d->a->seccomp.ninsns),
		       ward_pool_printf(p, "%u instructions (other code)",
					d->b->seccomp.ninsns));
	if (!changed(d, from, "network") &&
	    !same_bpf(&d->a->net.bpf, &d->b->net.bpf))
		change(d, "network", '~', "programs", "A's BPF", "B's BPF");
	if (d->changes->n == from && ra != rb)
		change(d, "policy", '~', "host requirements",
		       ward_pool_printf(p, "%#x", ra),
		       ward_pool_printf(p, "%#x", rb));
}

size_t ward_policy_diff(struct ward_pool *pool, const struct ward_policy *a,
			const struct ward_policy *b, struct ward_vec *changes)
{
	struct differ d = {.pool = pool, .a = a, .b = b, .changes = changes};
	size_t from = changes->n;

	if (a->arch != b->arch) {
		change(&d, "policy", '~', "arch", describe_arch(a->arch),
		       describe_arch(b->arch));
		return changes->n - from;
	}
	diff_identity(&d);
	diff_env(&d);
	diff_mounts(&d);
	diff_landlock(&d);
	diff_limits(&d);
	diff_net(&d);
	diff_export(&d);
	diff_syscalls(&d);
	diff_derived(&d, from);
	return changes->n - from;
}
