/* SPDX-License-Identifier: MIT */
/*
 * sema_syscalls.c: syscall groups and rules.
 *
 * Names are resolved for the target architecture in ward's syscall table
 * (syscalls.h: the kernel's own numbers), groups are expanded, conditions
 * are brought to disjunctive normal form, and the rules are laid out per
 * syscall as policy.h's struct ward_rules, whose meaning is spec 1.7.6: the
 * strictest matching conditional rule, else the rule that names the syscall
 * directly, else the strictest group, else the default.
 */
#include "sema_internal.h"

#include "consts.h"
#include "rules_meaning.h"
#include "syscall_args.h"
#include "syscalls.h"

#include <stdlib.h>
#include <string.h>

#define MAX_NR		 4096 /* syscall numbers the table can hold */
#define MAX_CONJUNCTIONS 64   /* per rule and syscall, after normalisation */
#define MAX_CMPS	 16   /* comparisons in one conjunction */

/* ------------------------------------------------------------ names */

static const char *const *syscall_names(struct sema *s, size_t *n);

static void suggest_syscall(struct sema *s, const char *name)
{
	size_t n;
	const char *const *names = syscall_names(s, &n);
	const char *hit = ward_suggest(name, names, n);
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
}

/* Every syscall name of the two targets, for suggestions. */
static const char *const *syscall_names(struct sema *s, size_t *n)
{
	const char **names;

	if (s->sysnames) {
		*n = s->nsysnames;
		return s->sysnames;
	}
	*n = ward_sys_count();
	names = ward_pool_array(s->pool, *n ? *n : 1, sizeof(*names));
	for (size_t i = 0; i < *n; i++)
		names[i] = ward_sys_name_at(i);
	s->sysnames = names;
	s->nsysnames = *n;
	return s->sysnames;
}

enum resolved { SYS_OK, SYS_ELSEWHERE, SYS_UNKNOWN };

/* ward's own table (syscalls.h), which has the syscalls libseccomp 2.5.4
 * lacks; codegen passes those to the filter by number. */
static enum resolved resolve(struct sema *s, const char *name, int32_t *nr)
{
	switch (ward_sys_lookup(name, s->arch, nr)) {
	case WARD_SYS_OK:
		if (*nr < MAX_NR)
			return SYS_OK;
		*nr = -1;
		return SYS_ELSEWHERE;
	case WARD_SYS_NOT_ON_TARGET:
		return SYS_ELSEWHERE;
	default:
		return SYS_UNKNOWN;
	}
}

/* ------------------------------------------------------------ groups */

static const char *group_key(struct sema *s, const char *name)
{
	return name[0] == '@' ? name : ward_pool_printf(s->pool, "@%s", name);
}

static void unknown_group(struct sema *s, const struct ward_target *t)
{
	const char *hit;

	ward_diag(s->d, WARD_SEV_ERROR, t->loc, "unknown group `%s`", t->name);
	hit = ward_suggest(t->name, s->groups.order, s->groups.norder);
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
	else if (ward_symtab_get(&s->groups, "@system-service") == NULL)
		ward_diag_help(s->d, "the stdlib groups are defined in "
				     "`groups`: add `use groups;`");
}

static void expand(struct sema *s, struct sym_group *g, const char *key);

/* Add the syscalls of target t to g's members. */
static void add_member(struct sema *s, struct sym_group *g,
		       struct ward_symtab *seen, const struct ward_target *t)
{
	int32_t nr;
	struct group_member *member;

	if (t->is_group) {
		const char *key = group_key(s, t->name);
		struct sym_group *sub = ward_symtab_get(&s->groups, key);
		const struct group_member *m;

		if (!sub) {
			unknown_group(s, t);
			return;
		}
		if (sub->state == 1) {
			/* The chain from key's expansion down to here. */
			const char *chain = key;
			size_t i = s->ngroup_stack;
			while (i > 0 && strcmp(s->group_stack[i - 1], key))
				i--;
			for (; i > 0 && i < s->ngroup_stack; i++)
				chain =
				    ward_pool_printf(s->pool, "%s -> %s", chain,
						     s->group_stack[i]);
			ward_diag(s->d, WARD_SEV_ERROR, t->loc,
				  "group `%s` includes itself: %s -> %s", key,
				  chain, key);
			return;
		}
		expand(s, sub, key);
		m = sub->members.items;
		for (size_t i = 0; i < sub->members.n; i++)
			if (!ward_symtab_put(seen, m[i].name, (void *)1))
				*(struct group_member *)ward_vec_push(
				    s->pool, &g->members, sizeof(*m)) = m[i];
		return;
	}
	if (resolve(s, t->name, &nr) == SYS_UNKNOWN) {
		ward_diag(s->d, WARD_SEV_ERROR, t->loc, "unknown syscall `%s`",
			  t->name);
		suggest_syscall(s, t->name);
		return;
	}
	if (ward_symtab_put(seen, t->name, (void *)1))
		return; /* listed twice: a set has it once */
	member = ward_vec_push(s->pool, &g->members, sizeof(*member));
	member->name = t->name;
	member->nr = nr; /* -1: not on this target; skipped where used */
}

static void expand(struct sema *s, struct sym_group *g, const char *key)
{
	struct ward_symtab seen;

	if (g->state != 0)
		return;
	g->state = 1;
	if (s->ngroup_stack < ARRAY_LEN(s->group_stack))
		s->group_stack[s->ngroup_stack++] = key;
	ward_symtab_init(&seen, s->pool);
	for (size_t i = 0; i < g->stmt->ntargets; i++)
		add_member(s, g, &seen, g->stmt->targets[i]);
	if (s->ngroup_stack && s->group_stack[s->ngroup_stack - 1] == key)
		s->ngroup_stack--;
	g->state = 2;
}

void sema_check_groups(struct sema *s)
{
	for (size_t i = 0; i < s->groups.norder; i++) {
		const char *key = s->groups.order[i];
		expand(s, ward_symtab_get(&s->groups, key), key);
	}
}

/* ------------------------------------------------------------ actions */

static const char *const *errno_names(struct sema *s, size_t *n)
{
	struct ward_vec v = {0};
	for (int e = 1; e < 4096; e++) {
		const char *name = ward_errno_name(e);
		if (name)
			*(const char **)ward_vec_push(s->pool, &v,
						      sizeof(name)) = name;
	}
	*n = v.n;
	return v.items;
}

static bool check_errno(struct sema *s, const struct ward_action_ast *a,
			struct ward_action *out);

/* The `log` modifier: a refusal of the kernel's (errno) is recorded by the
 * launcher; nothing else can be, or needs to be. */
static bool check_log(struct sema *s, const struct ward_action_ast *a,
		      struct ward_action *out)
{
	if (!a->logged)
		return true;
	if (out->kind == WARD_ACT_ERRNO) {
		out->via = WARD_VIA_RECORD;
		return true;
	}
	ward_diag(s->d, WARD_SEV_ERROR, a->log_loc,
		  "`log` records refused calls: it follows `errno`");
	switch (out->kind) {
	case WARD_ACT_KILL:
		ward_diag_help(s->d, "a `kill` is always recorded in the run "
				     "report: drop the `log`");
		break;
	case WARD_ACT_TRAP:
		ward_diag_help(s->d, "a `trap` is the program's to handle; to "
				     "record the call, refuse it with "
				     "`errno E log`");
		break;
	default:
		ward_diag_help(s->d, "the `log` action allows a call and lets "
				     "the kernel log it; to record a refusal, "
				     "write `errno E log`");
		break;
	}
	return false;
}

static bool check_action(struct sema *s, const struct ward_action_ast *a,
			 struct ward_action *out)
{
	memset(out, 0, sizeof(*out));
	switch (a->word) {
	case WARD_A_ALLOW:
		out->kind = WARD_ACT_ALLOW;
		break;
	case WARD_A_LOG:
		out->kind = WARD_ACT_LOG;
		break;
	case WARD_A_TRAP:
		out->kind = WARD_ACT_TRAP;
		break;
	case WARD_A_KILL:
		out->kind = WARD_ACT_KILL;
		break;
	case WARD_A_ERRNO:
		if (!check_errno(s, a, out))
			return false;
		break;
	}
	return check_log(s, a, out);
}

static bool check_errno(struct sema *s, const struct ward_action_ast *a,
			struct ward_action *out)
{
	const struct ward_value *v;
	uint64_t nr;

	switch (a->word) {
	case WARD_A_ERRNO:
		break;
	default:
		return false;
	}
	out->kind = WARD_ACT_ERRNO;
	v = a->errno_value;
	if (v->kind == WARD_V_NAME && !ward_symtab_get(&s->consts, v->str)) {
		int e = ward_errno_lookup(v->str);
		if (e < 0) {
			size_t n;
			const char *const *names;
			const char *hit;

			ward_diag(s->d, WARD_SEV_ERROR, v->loc,
				  "unknown errno name `%s`", v->str);
			names = errno_names(s, &n);
			hit = ward_suggest(v->str, names, n);
			if (hit)
				ward_diag_help(s->d, "did you mean `%s`?", hit);
			return false;
		}
		out->errno_nr = (uint32_t)e;
		return true;
	}
	if (!sema_int(s, v, "`errno`", &nr) ||
	    !sema_range(s, v->loc, "the errno value", nr, 1, 4094, NULL))
		return false;
	out->errno_nr = (uint32_t)nr;
	return true;
}

/* Is a stricter than b? (spec 1.7.6; among errno values the lower number
 * wins, so that the result is defined even where the checker reported the
 * conflict.) */
static bool stricter(struct ward_action a, struct ward_action b)
{
	return ward_action_cmp(&a, &b) > 0;
}

static bool same_action(struct ward_action a, struct ward_action b)
{
	return ward_action_cmp(&a, &b) == 0;
}

static const char *action_text(struct sema *s, struct ward_action a)
{
	return ward_action_name(s->pool, a);
}

/* ------------------------------------------------------------ conditions */

struct conj {
	struct ward_cmp cmps[MAX_CMPS];
	uint32_t n;
};

struct dnf {
	struct conj *c;
	size_t n;
	bool overflow;
};

/* The argument index an operand names, for the syscall of target t. */
static int arg_index(struct sema *s, const struct ward_target *t,
		     const struct ward_cond *c)
{
	const char *a = c->arg;
	size_t n = 0;
	const char *const *names;
	const char *hit;

	for (size_t i = 0; i < t->nparams; i++)
		if (strcmp(t->params[i], a) == 0)
			return (int)i;
	if (strncmp(a, "arg", 3) == 0 && a[3] >= '0' && a[3] <= '5' && !a[4])
		return a[3] - '0';
	if (!t->has_parens) {
		int i = ward_syscall_arg_index(t->name, a, s->arch);
		if (i >= 0)
			return i;
	}
	ward_diag(s->d, WARD_SEV_ERROR, c->arg_loc,
		  "`%s` is not an argument of `%s`", a, t->name);
	names = t->has_parens ? t->params
			      : ward_syscall_arg_names(t->name, s->arch, &n);
	if (t->has_parens)
		n = t->nparams;
	hit = names ? ward_suggest(a, names, n) : NULL;
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
	else if (t->has_parens)
		ward_diag_help(s->d,
			       "name it in `%s(...)` or write `arg0` .. "
			       "`arg5`",
			       t->name);
	else
		ward_diag_help(s->d,
			       "write `arg0` .. `arg5`, or name the "
			       "arguments: `%s(a, b)`",
			       t->name);
	return -1;
}

static enum ward_cmp_op cmp_op(enum ward_relop op, bool masked)
{
	if (masked)
		return op == WARD_OP_NE ? WARD_CMP_MASKED_NE
					: WARD_CMP_MASKED_EQ;
	switch (op) {
	case WARD_OP_EQ:
		return WARD_CMP_EQ;
	case WARD_OP_NE:
		return WARD_CMP_NE;
	case WARD_OP_LT:
		return WARD_CMP_LT;
	case WARD_OP_LE:
		return WARD_CMP_LE;
	case WARD_OP_GT:
		return WARD_CMP_GT;
	case WARD_OP_GE:
		return WARD_CMP_GE;
	}
	return WARD_CMP_EQ;
}

/* cond -> DNF; false after an error. */
static bool to_dnf(struct sema *s, const struct ward_target *t,
		   const struct ward_cond *c, struct dnf *out)
{
	struct dnf l, r;
	bool okl;
	bool okr;

	memset(out, 0, sizeof(*out));
	if (c->kind == WARD_C_CMP) {
		int arg = arg_index(s, t, c);
		uint64_t v, mask = 0;
		bool ok = arg >= 0;
		if (!sema_int(s, c->value, "a comparison", &v))
			ok = false;
		if (c->mask && !sema_int(s, c->mask, "a mask", &mask))
			ok = false;
		if (c->mask && c->op != WARD_OP_EQ && c->op != WARD_OP_NE) {
			ward_diag(s->d, WARD_SEV_ERROR, c->loc,
				  "a masked comparison takes `==` or `!=`");
			ok = false;
		}
		if (!ok)
			return false;
		out->c = ward_pool_alloc(s->pool, sizeof(*out->c));
		out->n = 1;
		out->c[0].n = 1;
		out->c[0].cmps[0] = (struct ward_cmp){
		    .arg = (uint8_t)arg,
		    .op = (uint8_t)cmp_op(c->op, c->mask != NULL),
		    .mask = mask,
		    .value = v,
		};
		return true;
	}
	okl = to_dnf(s, t, c->lhs, &l);
	okr = to_dnf(s, t, c->rhs, &r);
	if (!okl || !okr)
		return false;
	if (l.overflow || r.overflow) {
		out->overflow = true;
		return true;
	}
	if (c->kind == WARD_C_OR) {
		if (l.n + r.n > MAX_CONJUNCTIONS) {
			out->overflow = true;
			return true;
		}
		out->n = l.n + r.n;
		out->c = ward_pool_array(s->pool, out->n, sizeof(*out->c));
		memcpy(out->c, l.c, l.n * sizeof(*l.c));
		memcpy(out->c + l.n, r.c, r.n * sizeof(*r.c));
		return true;
	}
	/* AND: distribute. */
	if (l.n * r.n > MAX_CONJUNCTIONS) {
		out->overflow = true;
		return true;
	}
	out->c = ward_pool_array(s->pool, l.n * r.n, sizeof(*out->c));
	for (size_t i = 0; i < l.n; i++) {
		for (size_t k = 0; k < r.n; k++) {
			struct conj *d;

			if (l.c[i].n + r.c[k].n > MAX_CMPS) {
				out->overflow = true;
				return true;
			}
			d = &out->c[out->n++];
			*d = l.c[i];
			memcpy(d->cmps + d->n, r.c[k].cmps,
			       r.c[k].n * sizeof(struct ward_cmp));
			d->n += r.c[k].n;
		}
	}
	return true;
}

/* A canonical conjunction: sorted, without repeated comparisons. */
static void canonical(struct conj *c)
{
	uint32_t o = 0;

	qsort(c->cmps, c->n, sizeof(c->cmps[0]), ward_cmp_qsort);
	for (uint32_t i = 0; i < c->n; i++)
		if (!o || ward_cmp_order(&c->cmps[o - 1], &c->cmps[i]) != 0)
			c->cmps[o++] = c->cmps[i];
	c->n = o;
}

/* Could both conjunctions hold for one call? Exact where an argument is
 * pinned by `==`, and for ranges and masked equalities; otherwise it
 * answers yes, which can only make the checker stricter. */
static bool may_overlap(const struct conj *a, const struct conj *b)
{
	for (uint8_t arg = 0; arg < 6; arg++) {
		const struct ward_cmp *cs[2 * MAX_CMPS];
		size_t n = 0;
		const struct ward_cmp *eq = NULL;
		uint64_t lo = 0, hi = UINT64_MAX, fixed_mask = 0, fixed = 0;

		for (uint32_t i = 0; i < a->n; i++)
			if (a->cmps[i].arg == arg)
				cs[n++] = &a->cmps[i];
		for (uint32_t i = 0; i < b->n; i++)
			if (b->cmps[i].arg == arg)
				cs[n++] = &b->cmps[i];
		for (size_t i = 0; i < n; i++) {
			const struct ward_cmp *c = cs[i];
			switch (c->op) {
			case WARD_CMP_EQ:
				eq = c;
				break;
			case WARD_CMP_LT:
				if (c->value == 0)
					return false;
				if (c->value - 1 < hi)
					hi = c->value - 1;
				break;
			case WARD_CMP_LE:
				if (c->value < hi)
					hi = c->value;
				break;
			case WARD_CMP_GT:
				if (c->value == UINT64_MAX)
					return false;
				if (c->value + 1 > lo)
					lo = c->value + 1;
				break;
			case WARD_CMP_GE:
				if (c->value > lo)
					lo = c->value;
				break;
			case WARD_CMP_MASKED_EQ:
				if (c->value & ~c->mask)
					return false;
				if ((fixed ^ c->value) & fixed_mask & c->mask)
					return false;
				fixed |= c->value;
				fixed_mask |= c->mask;
				break;
			default:
				break;
			}
		}
		if (lo > hi)
			return false;
		if (eq)
			for (size_t i = 0; i < n; i++)
				if (!ward_cmp_holds(cs[i], eq->value))
					return false;
	}
	return true;
}

/* ------------------------------------------------------------ per syscall */

struct cond_entry {
	struct conj conj;
	struct ward_action action;
	struct ward_loc loc;
};

struct sys_info {
	const char *name;
	bool direct_set, group_set;
	struct ward_action direct, group;
	struct ward_loc direct_loc, group_loc;
	const char *group_name;
	bool group_errno_conflict;
	struct ward_action group_other;
	struct ward_loc group_other_loc;
	const char *group_other_name;
	struct ward_vec conds; /* struct cond_entry */
};

struct table {
	struct sys_info *by_nr; /* MAX_NR entries */
	bool any;
};

static struct sys_info *info(struct sema *s, struct table *t, int32_t nr,
			     const char *name)
{
	struct sys_info *i = &t->by_nr[nr];
	if (!i->name)
		i->name = name;
	t->any = true;
	return i;
}

static void add_group_rule(struct sema *s, struct table *t,
			   const struct ward_target *tg, struct ward_action a,
			   struct ward_loc loc)
{
	const char *key = group_key(s, tg->name);
	struct sym_group *g = ward_symtab_get(&s->groups, key);
	const struct group_member *m;

	if (!g) {
		unknown_group(s, tg);
		return;
	}
	m = g->members.items;
	for (size_t i = 0; i < g->members.n; i++) {
		struct sys_info *si;

		if (m[i].nr < 0)
			continue; /* not on this target */
		si = info(s, t, m[i].nr, m[i].name);
		if (!si->group_set) {
			si->group_set = true;
			si->group = a;
			si->group_loc = loc;
			si->group_name = key;
			continue;
		}
		if (a.kind == WARD_ACT_ERRNO &&
		    si->group.kind == WARD_ACT_ERRNO &&
		    a.errno_nr != si->group.errno_nr) {
			si->group_errno_conflict = true;
			si->group_other = a;
			si->group_other_loc = loc;
			si->group_other_name = key;
		}
		if (stricter(a, si->group)) {
			si->group = a;
			si->group_loc = loc;
			si->group_name = key;
		}
	}
}

static void add_direct_rule(struct sema *s, struct table *t,
			    const struct ward_target *tg, int32_t nr,
			    struct ward_action a)
{
	struct sys_info *si = info(s, t, nr, tg->name);
	if (!si->direct_set) {
		si->direct_set = true;
		si->direct = a;
		si->direct_loc = tg->loc;
		return;
	}
	if (same_action(si->direct, a)) {
		ward_diag(s->d, WARD_SEV_WARNING, tg->loc,
			  "`%s` already has this rule", tg->name);
		ward_diag_note(s->d, si->direct_loc, "first given here");
		return;
	}
	ward_diag(s->d, WARD_SEV_ERROR, tg->loc,
		  "contradictory rules for `%s`: %s here, %s before", tg->name,
		  action_text(s, a), action_text(s, si->direct));
	ward_diag_note(s->d, si->direct_loc, "the first rule is here");
	ward_diag_help(s->d, "keep one of them; to make an exception, add a "
			     "condition (`if ...`)");
}

static void add_cond_rule(struct sema *s, struct table *t,
			  const struct ward_target *tg, int32_t nr,
			  struct ward_action a, const struct dnf *d,
			  struct ward_loc loc)
{
	struct sys_info *si = info(s, t, nr, tg->name);
	for (size_t k = 0; k < d->n; k++) {
		struct conj c = d->c[k];
		const struct cond_entry *old;
		bool dup = false;
		struct cond_entry *e;

		canonical(&c);
		old = si->conds.items;
		for (size_t i = 0; i < si->conds.n; i++) {
			/* field by field (ward_cmp_order), not memcmp: a
			 * comparison has padding after its op */
			bool same_conj = old[i].conj.n == c.n;

			for (uint32_t j = 0; same_conj && j < c.n; j++)
				same_conj = ward_cmp_order(&old[i].conj.cmps[j],
							   &c.cmps[j]) == 0;
			if (same_conj && same_action(old[i].action, a)) {
				ward_diag(s->d, WARD_SEV_WARNING, loc,
					  "`%s` already has this rule with "
					  "this condition",
					  tg->name);
				ward_diag_note(s->d, old[i].loc,
					       "first given here");
				dup = true;
				break;
			}
			if (a.kind == WARD_ACT_ERRNO &&
			    old[i].action.kind == WARD_ACT_ERRNO &&
			    a.errno_nr != old[i].action.errno_nr &&
			    may_overlap(&old[i].conj, &c)) {
				ward_diag(s->d, WARD_SEV_ERROR, loc,
					  "for `%s`, this rule and an earlier "
					  "one can both match with different "
					  "errno values (%s and %s)",
					  tg->name, action_text(s, a),
					  action_text(s, old[i].action));
				ward_diag_note(s->d, old[i].loc,
					       "the earlier rule is here");
				ward_diag_help(s->d, "make the conditions "
						     "exclude each other");
				dup = true;
				break;
			}
		}
		if (dup)
			continue;
		e = ward_vec_push(s->pool, &si->conds, sizeof(*e));
		e->conj = c;
		e->action = a;
		e->loc = loc;
	}
}

static void check_params(struct sema *s, const struct ward_target *tg)
{
	if (tg->nparams > 6) {
		ward_diag(s->d, WARD_SEV_ERROR, tg->param_locs[6],
			  "a syscall has at most 6 arguments");
		return;
	}
	for (size_t i = 0; i < tg->nparams; i++) {
		bool twice = false;
		int builtin;

		for (size_t k = 0; k < i && !twice; k++)
			twice = strcmp(tg->params[i], tg->params[k]) == 0;
		if (twice) {
			ward_diag(s->d, WARD_SEV_ERROR, tg->param_locs[i],
				  "argument name `%s` is used twice",
				  tg->params[i]);
			continue;
		}
		builtin =
		    ward_syscall_arg_index(tg->name, tg->params[i], s->arch);
		if (builtin >= 0 && (size_t)builtin != i) {
			ward_diag(s->d, WARD_SEV_WARNING, tg->param_locs[i],
				  "`%s` is argument %d of `%s`, but this names "
				  "argument %zu `%s`",
				  tg->params[i], builtin, tg->name, i,
				  tg->params[i]);
			ward_diag_help(s->d,
				       "arguments are named by "
				       "position; use `arg%zu` if this "
				       "is what you mean",
				       i);
		}
	}
}

static void check_rule(struct sema *s, struct table *t,
		       const struct ward_stmt *st)
{
	struct ward_action a;
	if (!check_action(s, st->action, &a))
		return;
	for (size_t i = 0; i < st->ntargets; i++) {
		const struct ward_target *tg = st->targets[i];
		int32_t nr;
		struct dnf d;

		if (tg->is_group) {
			if (st->cond) {
				ward_diag(s->d, WARD_SEV_ERROR, tg->loc,
					  "a condition applies to syscalls, "
					  "not to a group (`%s`)",
					  tg->name);
				ward_diag_help(s->d, "write the syscalls the "
						     "condition is about");
				continue;
			}
			add_group_rule(s, t, tg, a, st->kw_loc);
			continue;
		}
		check_params(s, tg);
		switch (resolve(s, tg->name, &nr)) {
		case SYS_UNKNOWN:
			ward_diag(s->d, WARD_SEV_ERROR, tg->loc,
				  "unknown syscall `%s`", tg->name);
			suggest_syscall(s, tg->name);
			continue;
		case SYS_ELSEWHERE:
			ward_diag(s->d, WARD_SEV_WARNING, tg->loc,
				  "`%s` does not exist on %s: this rule has no "
				  "effect there",
				  tg->name, s->arch_name);
			continue;
		case SYS_OK:
			break;
		}
		if (!st->cond) {
			add_direct_rule(s, t, tg, nr, a);
			continue;
		}
		if (!to_dnf(s, tg, st->cond, &d))
			continue;
		if (d.overflow) {
			ward_diag(s->d, WARD_SEV_ERROR, st->cond->loc,
				  "this condition expands to more than %d "
				  "alternatives",
				  MAX_CONJUNCTIONS);
			ward_diag_help(s->d, "split the rule in several");
			continue;
		}
		add_cond_rule(s, t, tg, nr, a, &d, st->kw_loc);
	}
}

/*
 * A conditional rule whose action is what the syscall gets anyway cannot
 * change anything (the strictest matching rule wins, so it never overrides
 * another one). It is the trap of `allow @network-io; allow socket if
 * domain == AF_UNIX;`, which allows every socket: say so.
 */
static void warn_no_effect(struct sema *s, const struct sys_info *si,
			   struct ward_action def)
{
	struct ward_action fb = si->direct_set	? si->direct
				: si->group_set ? si->group
						: def;
	const struct cond_entry *ce = si->conds.items;
	const struct ward_loc *last = NULL;
	for (size_t i = 0; i < si->conds.n; i++) {
		if (!same_action(ce[i].action, fb))
			continue;
		if (last && !memcmp(last, &ce[i].loc, sizeof(*last)))
			continue; /* one rule, several alternatives */
		last = &ce[i].loc;
		ward_diag(s->d, WARD_SEV_WARNING, ce[i].loc,
			  "this condition cannot change what `%s` does: it "
			  "gets %s anyway",
			  si->name, action_text(s, fb));
		if (si->direct_set)
			ward_diag_note(s->d, si->direct_loc,
				       "`%s` is given %s here", si->name,
				       action_text(s, fb));
		else if (si->group_set)
			ward_diag_note(s->d, si->group_loc,
				       "`%s` gets it from `%s` here", si->name,
				       si->group_name);
		else
			ward_diag_help(s->d, "it is the default action");
	}
}

/* An errno refusal, not yet recorded, becomes a recorded one. */
static void record(struct ward_action *a)
{
	if (a->kind == WARD_ACT_ERRNO && a->via == WARD_VIA_NONE)
		a->via = WARD_VIA_RECORD;
}

/*
 * The calls of a group marked `log` (the stdlib's dangerous groups:
 * mounting, modules, BPF, namespaces...) are recorded whenever an errno
 * refuses them, by a rule or by the default: what a hostile program tried
 * is evidence (docs/spec.md 4.8). A call such a rule allows stays allowed,
 * and one the policy kills is recorded anyway. A call no rule names gets
 * an entry of its own, so that its default refusal is recorded too.
 */
static void record_logged_groups(struct sema *s, struct table *t,
				 struct ward_action def)
{
	for (size_t g = 0; g < s->groups.norder; g++) {
		const char *key = s->groups.order[g];
		const struct sym_group *grp = ward_symtab_get(&s->groups, key);
		const struct group_member *m;

		if (!grp || !(grp->stmt->opts & WARD_OPT_LOG))
			continue;
		m = grp->members.items;
		for (size_t i = 0; i < grp->members.n; i++) {
			struct sys_info *si;
			struct cond_entry *ce;

			if (m[i].nr < 0)
				continue; /* not on this target */
			if (!t->by_nr[m[i].nr].name &&
			    def.kind != WARD_ACT_ERRNO)
				continue; /* the default allows it */
			si = info(s, t, m[i].nr, m[i].name);
			if (si->direct_set)
				record(&si->direct);
			if (si->group_set)
				record(&si->group);
			ce = si->conds.items;
			for (size_t k = 0; k < si->conds.n; k++)
				record(&ce[k].action);
			if (!si->direct_set && !si->group_set &&
			    def.kind == WARD_ACT_ERRNO) {
				si->group_set = true;
				si->group = def;
				record(&si->group);
				si->group_loc = grp->stmt->opts_loc;
				si->group_name = key;
			}
		}
	}
}

/* Lay the table out as struct ward_rules, by syscall number. */
static void emit(struct sema *s, struct table *t, struct ward_action def)
{
	struct ward_vec out = {0}, fb_locs = {0}, cond_locs = {0};
	for (int32_t nr = 0; t->any && nr < MAX_NR; nr++) {
		struct sys_info *si = &t->by_nr[nr];
		struct ward_syscall_rule *r;
		struct ward_loc *fl;
		struct ward_loc *cl;
		const struct cond_entry *ce;
		struct ward_cond_rule *conds;

		if (!si->name)
			continue;
		if (!si->direct_set && si->group_errno_conflict &&
		    si->group.kind == WARD_ACT_ERRNO) {
			ward_diag(s->d, WARD_SEV_ERROR, si->group_other_loc,
				  "`%s` gets %s from `%s` and %s from `%s`",
				  si->name, action_text(s, si->group_other),
				  si->group_other_name,
				  action_text(s, si->group), si->group_name);
			ward_diag_note(s->d, si->group_loc,
				       "the other rule is here");
			ward_diag_help(s->d,
				       "name `%s` in a rule of its own "
				       "to decide",
				       si->name);
		}
		warn_no_effect(s, si, def);
		r = ward_vec_push(s->pool, &out, sizeof(*r));
		fl = ward_vec_push(s->pool, &fb_locs, sizeof(*fl));
		cl = ward_vec_push(s->pool, &cond_locs, sizeof(*cl));
		*fl = si->direct_set  ? si->direct_loc
		      : si->group_set ? si->group_loc
				      : sema_noloc();
		*cl = si->conds.n
			  ? ((struct cond_entry *)si->conds.items)[0].loc
			  : sema_noloc();
		r->nr = nr;
		r->name = si->name;
		if (si->direct_set) {
			r->has_fallback = true;
			r->fallback = si->direct;
		} else if (si->group_set) {
			r->has_fallback = true;
			r->fallback = si->group;
		}
		ce = si->conds.items;
		conds =
		    ward_pool_array(s->pool, si->conds.n + 1, sizeof(*conds));
		for (size_t i = 0; i < si->conds.n; i++) {
			struct ward_cmp *cmps = ward_pool_array(
			    s->pool, ce[i].conj.n + 1, sizeof(*cmps));
			memcpy(cmps, ce[i].conj.cmps,
			       ce[i].conj.n * sizeof(*cmps));
			conds[i].cmps = cmps;
			conds[i].ncmps = ce[i].conj.n;
			conds[i].action = ce[i].action;
		}
		r->conds = conds;
		r->nconds = (uint32_t)si->conds.n;
	}
	s->out->rules.default_action = def;
	s->out->rules.syscalls = out.items;
	s->out->rules.nsyscalls = (uint32_t)out.n;
	s->where->syscall_fallback = fb_locs.items;
	s->where->syscall_cond = cond_locs.items;
}

void sema_syscalls(struct sema *s)
{
	struct ward_action def = {.kind = WARD_ACT_ERRNO, .errno_nr = 38};
	struct table t;
	const struct ward_stmt **rules;

	if (s->default_stmt) {
		const struct ward_action_ast *da = s->default_stmt->action;
		if (check_action(s, da, &def) && def.kind == WARD_ACT_ERRNO &&
		    def.errno_nr == 1) {
			ward_diag(s->d, WARD_SEV_WARNING, da->loc,
				  "`errno EPERM` as the default breaks libc "
				  "fallbacks for syscalls the policy does not "
				  "know");
			ward_diag_help(s->d,
				       "use `errno ENOSYS`: glibc then falls "
				       "back (e.g. from clone3 to clone) as "
				       "on an older kernel");
		}
	}
	t = (struct table){
	    .by_nr = ward_pool_array(s->pool, MAX_NR, sizeof(struct sys_info)),
	};
	rules = s->rules.items;
	for (size_t i = 0; i < s->rules.n; i++)
		if (rules[i]->kind == WARD_S_RULE)
			check_rule(s, &t, rules[i]);
	record_logged_groups(s, &t, def);
	emit(s, &t, def);
}
