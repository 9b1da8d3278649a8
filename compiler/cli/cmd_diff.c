/* SPDX-License-Identifier: MIT */
/*
 * cmd_diff.c: `wardc diff A B`: what B allows that A does not, and the
 * reverse, section by section, as a reviewer reads a change. Each change is
 * marked `+` (B allows more), `-` (B allows less) or `~` (different, neither
 * wider nor narrower). Exit 0 when the policies are equal, 1 when not.
 */
#include "blob.h"
#include "blob_read.h"
#include "commands.h"
#include "consts.h"
#include "describe.h"
#include "doc.h"
#include "rules_meaning.h"
#include "units.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

struct change {
	const char *section;
	char sign; /* '+', '-' or '~' */
	const char *what;
	const char *a, *b; /* NULL when absent on that side */
};

struct differ {
	struct ward_pool *pool;
	const struct ward_policy *a, *b;
	struct ward_vec changes;
};

static void change(struct differ *d, const char *section, char sign,
		   const char *what, const char *a, const char *b)
{
	struct change *c = ward_vec_push(d->pool, &d->changes, sizeof(*c));
	*c = (struct change){section, sign, what, a, b};
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
	size_t before = d->changes.n;
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
	if (!order_same && d->changes.n == before)
		change(d, "mounts", '~', "order", "A's order", "B's order");
	bool xa = d->a->exec & WARD_EXEC_MEMFD,
	     xb = d->b->exec & WARD_EXEC_MEMFD;
	if (xa != xb)
		change(d, "mounts", xb ? '+' : '-', "memfd",
		       xa ? "exec" : "noexec", xb ? "exec" : "noexec");
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
	for (int side = 0; side < 2; side++) {
		const struct ward_net *x = side ? b : a, *y = side ? a : b;
		for (uint32_t i = 0; i < x->nhosts; i++) {
			bool found = false;
			const char *t;

			for (uint32_t k = 0; k < y->nhosts; k++)
				found |= !strcmp(x->hosts[i].name,
						 y->hosts[k].name) &&
					 !memcmp(x->hosts[i].addr,
						 y->hosts[k].addr, 16);
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

/* ----------------------------------------------------------------- output */

static void print_text(struct differ *d, const char *na, const char *nb)
{
	const struct change *c = d->changes.items;
	const char *section = NULL;

	printf("--- %s\n+++ %s\n(+ B allows more, - B allows less, ~ "
	       "changed)\n",
	       na, nb);
	for (size_t i = 0; i < d->changes.n; i++) {
		if (!section || strcmp(section, c[i].section)) {
			section = c[i].section;
			printf("%s:\n", section);
		}
		if (c[i].a && c[i].b)
			printf("  %c %s: %s -> %s\n", c[i].sign, c[i].what,
			       c[i].a, c[i].b);
		else
			printf("  %c %s: %s%s\n", c[i].sign, c[i].what,
			       c[i].a ? c[i].a : c[i].b,
			       c[i].a ? " (only in A)" : "");
	}
}

static struct doc *changes_doc(struct differ *d)
{
	struct ward_pool *p = d->pool;
	struct doc *root = doc_map(p);
	struct doc *list;
	const struct change *c;

	doc_set_bool(p, root, "equal", d->changes.n == 0);
	list = doc_add(root, "changes", doc_list(p));
	c = d->changes.items;
	for (size_t i = 0; i < d->changes.n; i++) {
		struct doc *m = doc_add(list, NULL, doc_map(p));
		doc_set_str(p, m, "section", c[i].section);
		doc_set_str(p, m, "sign", ward_pool_printf(p, "%c", c[i].sign));
		doc_set_str(p, m, "what", c[i].what);
		doc_set_str(p, m, "a", c[i].a);
		doc_set_str(p, m, "b", c[i].b);
	}
	return root;
}

int cmd_diff(struct wardc_args *a)
{
	const char *fmt;
	struct differ d;
	struct ward_blob xa, xb;
	ward_err err = {0};
	char msg[WARD_ERR_MSG_MAX + 128];
	size_t la = 0, lb = 0;
	int rc;

	if (a->nfiles != 2) {
		fprintf(stderr, "wardc diff: give two blobs or sources\n");
		return WARDC_USAGE;
	}
	fmt = a->out_format;
	if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "yaml")) {
		fprintf(stderr, "wardc diff: unknown format `%s`\n", fmt);
		return WARDC_USAGE;
	}
	_cleanup_free_ uint8_t *ba = NULL, *bb = NULL;
	rc = ward_driver_blob(a->files[0], &a->opts, &ba, &la);
	if (rc != WARDC_OK)
		return rc == WARDC_POLICY_ERROR ? WARDC_USAGE : rc;
	rc = ward_driver_blob(a->files[1], &a->opts, &bb, &lb);
	if (rc != WARDC_OK)
		return rc == WARDC_POLICY_ERROR ? WARDC_USAGE : rc;

	if (ward_blob_read(ba, la, 0, &xa, &err) < 0) {
		fprintf(stderr, "wardc: %s: %s\n", a->files[0],
			ward_err_str(&err, msg, sizeof(msg)));
		return WARDC_USAGE;
	}
	if (ward_blob_read(bb, lb, 0, &xb, &err) < 0) {
		fprintf(stderr, "wardc: %s: %s\n", a->files[1],
			ward_err_str(&err, msg, sizeof(msg)));
		ward_blob_release(&xa);
		return WARDC_USAGE;
	}
	d = (struct differ){
	    .pool = ward_pool_new(), .a = &xa.policy, .b = &xb.policy};
	if (xa.policy.arch != xb.policy.arch) {
		change(&d, "policy", '~', "arch", describe_arch(xa.policy.arch),
		       describe_arch(xb.policy.arch));
	} else {
		diff_identity(&d);
		diff_env(&d);
		diff_mounts(&d);
		diff_limits(&d);
		diff_net(&d);
		diff_export(&d);
		diff_syscalls(&d);
	}
	if (!strcmp(fmt, "text")) {
		if (d.changes.n)
			print_text(&d, a->files[0], a->files[1]);
	} else if (!strcmp(fmt, "json")) {
		doc_print_json(changes_doc(&d), stdout);
	} else {
		doc_print_yaml(changes_doc(&d), stdout);
	}
	rc = d.changes.n ? 1 : 0;
	ward_pool_free(d.pool);
	ward_blob_release(&xa);
	ward_blob_release(&xb);
	return rc;
}
