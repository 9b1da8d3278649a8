/* SPDX-License-Identifier: MIT */
/*
 * lint_syscalls.c: the rules about the seccomp rule table (W2xx).
 *
 * A syscall is allowed when its fallback (an unconditional rule naming it
 * or a group holding it) allows it, or when it has no fallback and the
 * default action allows it, or, under a condition, when a conditional rule
 * allows it. `log` allows. In a fragment the default is the policy's
 * business, so only rules count there.
 */
#include "consts.h"
#include "lint_internal.h"
#include "syscalls.h"

#include <string.h>

enum how { NOT_ALLOWED, BY_DEFAULT, BY_RULE, WHEN };

static bool allows(struct ward_action a)
{
	return a.kind == WARD_ACT_ALLOW || a.kind == WARD_ACT_LOG;
}

static bool default_known(const struct lint_ctx *c)
{
	return lint_has_place(c->w->default_action);
}

static bool default_allows(const struct lint_ctx *c)
{
	return default_known(c) && allows(c->p->rules.default_action);
}

/* The rule table's entry for name and its index, or NULL (then *idx is
 * the count). *nr is -1 when the target lacks the syscall. */
static const struct ward_syscall_rule *
find_rule(const struct lint_ctx *c, const char *name, int32_t *nr, size_t *idx)
{
	const struct ward_rules *rs;

	*nr = ward_sys_nr(c->p->arch, name);
	rs = &c->p->rules;
	for (size_t i = 0; *nr >= 0 && i < rs->nsyscalls; i++)
		if (rs->syscalls[i].nr == *nr) {
			*idx = i;
			return &rs->syscalls[i];
		}
	*idx = rs->nsyscalls;
	return NULL;
}

/* The first conditional rule naming `name` whose action passes want (NULL:
 * any action), as written. */
static struct ward_loc cond_rule_loc(const struct lint_ctx *c, const char *name,
				     bool (*want)(enum ward_action_word))
{
	for (size_t f = 0; f < c->unit->nfiles; f++) {
		const struct ward_file *file = c->unit->files[f];
		for (size_t i = 0; i < file->nstmts; i++) {
			const struct ward_stmt *sec = file->stmts[i];
			if (!sec || sec->kind != WARD_S_SYSCALLS)
				continue;
			for (size_t k = 0; k < sec->nbody; k++) {
				const struct ward_stmt *st = sec->body[k];
				if (!st || st->kind != WARD_S_RULE ||
				    !st->cond || !st->action ||
				    (want && !want(st->action->word)))
					continue;
				for (size_t t = 0; t < st->ntargets; t++)
					if (!st->targets[t]->is_group &&
					    strcmp(st->targets[t]->name,
						   name) == 0)
						return st->targets[t]->loc;
			}
		}
	}
	return (struct ward_loc){.file = WARD_NO_FILE};
}

static bool word_allows(enum ward_action_word w)
{
	return w == WARD_A_ALLOW || w == WARD_A_LOG;
}

static bool word_logs(enum ward_action_word w)
{
	return w == WARD_A_LOG;
}

/* How `name` can be allowed, and where the deciding rule is. */
static enum how allowed(const struct lint_ctx *c, const char *name,
			struct ward_loc *loc)
{
	int32_t nr;
	size_t i;
	const struct ward_syscall_rule *r = find_rule(c, name, &nr, &i);
	if (nr < 0)
		return NOT_ALLOWED;
	if (r && r->has_fallback && allows(r->fallback)) {
		*loc = c->w->syscall_fallback[i];
		return BY_RULE;
	}
	if ((!r || !r->has_fallback) && default_allows(c)) {
		*loc = c->w->default_action;
		return BY_DEFAULT;
	}
	for (uint32_t k = 0; r && k < r->nconds; k++)
		if (allows(r->conds[k].action)) {
			*loc = cond_rule_loc(c, name, word_allows);
			if (!lint_has_place(*loc))
				*loc = c->w->syscall_cond[i];
			return WHEN;
		}
	return NOT_ALLOWED;
}

static const char *how_words(enum how h)
{
	switch (h) {
	case BY_DEFAULT:
		return "by the default action";
	case BY_RULE:
		return "by this rule";
	case WHEN:
		return "when this condition holds";
	case NOT_ALLOWED:
		break;
	}
	return "";
}

static bool same_loc(struct ward_loc a, struct ward_loc b)
{
	return a.file == b.file && a.line == b.line && a.col == b.col;
}

/* One finding per place: names allowed by one rule are listed together. */
struct hit {
	const char *name;
	enum how how;
	struct ward_loc loc;
	bool done;
};

static void report_hits(struct lint_ctx *c, const struct lint_rule *r,
			struct hit *hits, size_t n, const char *suffix)
{
	for (size_t i = 0; i < n; i++) {
		const char *names[64];
		size_t k = 0;
		const char *list;

		if (hits[i].done)
			continue;
		for (size_t j = i; j < n; j++) {
			if (hits[j].done || hits[j].how != hits[i].how ||
			    !same_loc(hits[j].loc, hits[i].loc) || k == 64)
				continue;
			names[k++] = hits[j].name;
			hits[j].done = true;
		}
		list = lint_name_list(c->pool, names, k);
		if (hits[i].how == NOT_ALLOWED)
			lint_add(c, r, hits[i].loc, list, "%s %s %s", list,
				 k > 1 ? "are" : "is", suffix);
		else
			lint_add(c, r, hits[i].loc, list, "%s %s allowed %s",
				 list, k > 1 ? "are" : "is",
				 how_words(hits[i].how));
	}
}

/* -------------------------------------------------- the default action */

void lint_sys_default_allow(struct lint_ctx *c, const struct lint_rule *r)
{
	if (default_allows(c))
		lint_add(c, r, c->w->default_action, "default",
			 "the default action is `%s`: every syscall the policy "
			 "does not name is allowed",
			 c->p->rules.default_action.kind == WARD_ACT_LOG
			     ? "log"
			     : "allow");
}

void lint_sys_default_eperm(struct lint_ctx *c, const struct lint_rule *r)
{
	struct ward_action a = c->p->rules.default_action;
	if (default_known(c) && a.kind == WARD_ACT_ERRNO && a.errno_nr == 1)
		lint_add(c, r, c->w->default_action, "default",
			 "the default action is `errno EPERM`: programs take "
			 "an unknown syscall for a forbidden one and do not "
			 "fall back");
}

void lint_sys_default_trap(struct lint_ctx *c, const struct lint_rule *r)
{
	if (default_known(c) &&
	    c->p->rules.default_action.kind == WARD_ACT_TRAP)
		lint_add(c, r, c->w->default_action, "default",
			 "the default action is `trap`: the program's SIGSYS "
			 "handler decides what follows a refused syscall");
}

void lint_sys_default_kill(struct lint_ctx *c, const struct lint_rule *r)
{
	if (default_known(c) &&
	    c->p->rules.default_action.kind == WARD_ACT_KILL)
		lint_add(c, r, c->w->default_action, "default",
			 "the default action is `kill`: a program probing for "
			 "a newer syscall dies instead of falling back");
}

void lint_sys_log_rule(struct lint_ctx *c, const struct lint_rule *r)
{
	const struct ward_rules *rs = &c->p->rules;
	struct ward_vec hits = {0};
	for (size_t i = 0; i < rs->nsyscalls; i++) {
		const struct ward_syscall_rule *s = &rs->syscalls[i];
		struct ward_loc loc = {.file = WARD_NO_FILE};
		struct hit *h;

		if (s->has_fallback && s->fallback.kind == WARD_ACT_LOG)
			loc = c->w->syscall_fallback[i];
		for (uint32_t k = 0; !lint_has_place(loc) && k < s->nconds; k++)
			if (s->conds[k].action.kind == WARD_ACT_LOG)
				loc = cond_rule_loc(c, s->name, word_logs);
		if (!lint_has_place(loc))
			continue;
		h = ward_vec_push(c->pool, &hits, sizeof(*h));
		*h = (struct hit){
		    .name = s->name, .how = NOT_ALLOWED, .loc = loc};
	}
	report_hits(c, r, hits.items, hits.n,
		    "allowed and logged by this rule");
}

/* ---------------------------------------------------- syscall families */

void lint_sys_family(struct lint_ctx *c, const struct lint_rule *r)
{
	struct ward_vec hits = {0};
	for (const char *const *n = r->syscalls; n && *n; n++) {
		struct ward_loc loc;
		enum how h = allowed(c, *n, &loc);
		struct hit *x;

		if (h == NOT_ALLOWED)
			continue;
		x = ward_vec_push(c->pool, &hits, sizeof(*x));
		*x = (struct hit){.name = *n, .how = h, .loc = loc};
	}
	report_hits(c, r, hits.items, hits.n, "");
}

/* -------------------------------------------------------------- clone */

/* Bits of arg0 that the conjunction forces to zero. */
static uint64_t forced_zero(const struct ward_cond_rule *cr)
{
	uint64_t z = 0;
	for (uint32_t i = 0; i < cr->ncmps; i++) {
		const struct ward_cmp *m = &cr->cmps[i];
		if (m->arg != 0)
			continue;
		if (m->op == WARD_CMP_MASKED_EQ)
			z |= m->mask & ~m->value;
		else if (m->op == WARD_CMP_EQ)
			z |= ~m->value;
	}
	return z;
}

/* Is the conjunction true of every call whose arg0 has bit set? */
static bool implied_by_bit(const struct ward_cond_rule *cr, uint64_t bit)
{
	if (cr->ncmps == 0)
		return false;
	for (uint32_t i = 0; i < cr->ncmps; i++) {
		const struct ward_cmp *m = &cr->cmps[i];
		bool yes = false;
		if (m->arg == 0 && m->op == WARD_CMP_MASKED_NE)
			yes = (m->mask & bit) && !(m->value & bit);
		else if (m->arg == 0 && m->op == WARD_CMP_MASKED_EQ)
			yes = m->mask == bit && m->value == bit;
		else if (m->arg == 0 && m->op == WARD_CMP_GE)
			yes = m->value <= bit;
		else if (m->arg == 0 && m->op == WARD_CMP_GT)
			yes = m->value < bit;
		if (!yes)
			return false;
	}
	return true;
}

void lint_sys_clone_ns(struct lint_ctx *c, const struct lint_rule *r)
{
	static const char *const flags[] = {
	    "CLONE_NEWUSER", "CLONE_NEWNS",  "CLONE_NEWNET",	"CLONE_NEWPID",
	    "CLONE_NEWIPC",  "CLONE_NEWUTS", "CLONE_NEWCGROUP",
	};
	int32_t nr;
	size_t idx;
	const struct ward_syscall_rule *s = find_rule(c, "clone", &nr, &idx);
	bool fb_allows;
	bool def_allows;
	const char *open[8];
	size_t nopen = 0;
	const char *list;
	struct ward_loc loc;
	const char *how;

	if (nr < 0)
		return;
	fb_allows = s && s->has_fallback && allows(s->fallback);
	def_allows = (!s || !s->has_fallback) && default_allows(c);
	for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
		uint64_t bit;
		bool denied, reaches;

		if (ward_const_lookup(flags[f], c->p->arch, &bit) !=
		    WARD_CONST_OK)
			continue;
		denied = false;
		reaches = fb_allows || def_allows;
		for (uint32_t k = 0; s && k < s->nconds; k++) {
			const struct ward_cond_rule *cr = &s->conds[k];
			if (!allows(cr->action) && implied_by_bit(cr, bit))
				denied = true;
			if (allows(cr->action) && !(forced_zero(cr) & bit))
				reaches = true;
		}
		if (reaches && !denied)
			open[nopen++] = flags[f];
	}
	if (nopen == 0)
		return;
	list = lint_name_list(c->pool, open, nopen);
	if (fb_allows) {
		loc = c->w->syscall_fallback[idx];
		how = "this rule allows it whatever its flags";
	} else if (def_allows) {
		loc = c->w->default_action;
		how = "the default action allows it whatever its flags";
	} else {
		loc = cond_rule_loc(c, "clone", word_allows);
		how = "this condition does not exclude them";
	}
	lint_add(c, r, loc, "clone", "`clone` is allowed with %s: %s", list,
		 how);
}

/* --------------------------------- syscalls whose arguments matter */

/* Allowed without a condition; *refusing: some conditions refuse. */
static bool unconditional(struct lint_ctx *c, const char *name,
			  struct ward_loc *loc, bool *refusing)
{
	int32_t nr;
	size_t idx;
	const struct ward_syscall_rule *s = find_rule(c, name, &nr, &idx);
	if (nr < 0)
		return false;
	*refusing = false;
	for (uint32_t k = 0; s && k < s->nconds; k++)
		if (!allows(s->conds[k].action))
			*refusing = true;
	if (s && s->has_fallback && allows(s->fallback)) {
		*loc = c->w->syscall_fallback[idx];
		return true;
	}
	if ((!s || !s->has_fallback) && default_allows(c)) {
		*loc = c->w->default_action;
		return true;
	}
	return false;
}

void lint_sys_personality(struct lint_ctx *c, const struct lint_rule *r)
{
	struct ward_loc loc;
	bool refusing;
	if (unconditional(c, "personality", &loc, &refusing))
		lint_add(c, r, loc, "personality",
			 "`personality` is allowed for every persona%s",
			 refusing ? " but those the conditions refuse" : "");
}

void lint_sys_ioctl(struct lint_ctx *c, const struct lint_rule *r)
{
	struct ward_loc loc;
	bool refusing;
	if (unconditional(c, "ioctl", &loc, &refusing))
		lint_add(c, r, loc, "ioctl",
			 "`ioctl` is allowed for every request%s",
			 refusing ? " but those the conditions refuse" : "");
}

/* ------------------------------------------------------------ hot path */

void lint_sys_hot_path(struct lint_ctx *c, const struct lint_rule *r)
{
	static const char *const hot[] = {
	    "read",	    "write",	   "readv",	      "writev",
	    "pread64",	    "pwrite64",	   "close",	      "lseek",
	    "mmap",	    "munmap",	   "mprotect",	      "madvise",
	    "brk",	    "futex",	   "fstat",	      "newfstatat",
	    "statx",	    "openat",	   "getdents64",      "fcntl",
	    "poll",	    "ppoll",	   "select",	      "pselect6",
	    "epoll_wait",   "epoll_pwait", "epoll_ctl",	      "recvfrom",
	    "sendto",	    "recvmsg",	   "sendmsg",	      "clock_gettime",
	    "gettimeofday", "nanosleep",   "clock_nanosleep", "sched_yield",
	    "getpid",	    "gettid",	   "rt_sigprocmask",  "rt_sigaction",
	    "rt_sigreturn", "getrandom",
	};
	struct ward_vec hits = {0};
	for (size_t h = 0; h < sizeof(hot) / sizeof(hot[0]); h++) {
		int32_t nr;
		size_t idx;
		const struct ward_syscall_rule *s =
		    find_rule(c, hot[h], &nr, &idx);
		struct hit *x;

		if (!s || s->nconds == 0)
			continue;
		/* The allow-list's own checks (sendto with an address goes
		 * to the socket broker, docs/spec.md 5.3) are its cost, said
		 * there, not the policy author's to fix. */
		if (!memcmp(&c->w->syscall_cond[idx], &c->w->net,
			    sizeof(c->w->net)))
			continue;
		x = ward_vec_push(c->pool, &hits, sizeof(*x));
		*x = (struct hit){.name = hot[h],
				  .how = NOT_ALLOWED,
				  .loc = c->w->syscall_cond[idx]};
	}
	report_hits(c, r, hits.items, hits.n,
		    "checked by argument on every call: the kernel cannot "
		    "cache the filter's answer");
}

bool lint_sys_may_call(const struct lint_ctx *c, const char *name)
{
	struct ward_loc loc;

	return allowed(c, name, &loc) != NOT_ALLOWED;
}
