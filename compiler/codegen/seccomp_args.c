/* SPDX-License-Identifier: MIT */
/*
 * seccomp_args.c: the decision list of one syscall (seccomp_args.h).
 *
 * A comparison of a 64-bit argument is two 32-bit tests: the high word
 * decides unless it is equal to the constant's, then the low word does.
 * Each comparison is emitted as a small block of instructions whose jumps
 * go either to the next comparison ("pass": the end of the block) or to the
 * next rule ("fail"); the two are resolved once the rule's length is known.
 */
#include "seccomp_args.h"

#include "rules_meaning.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Symbolic jump targets while a rule is being assembled. */
enum {
	T_NEXT = 0,	/* the following instruction */
	T_PASS = 0x100, /* the end of this comparison's block */
	T_FAIL = 0x101	/* the start of the next rule */
};

struct asm_insn {
	uint16_t code;
	uint16_t jt, jf; /* T_NEXT, T_PASS or T_FAIL */
	uint32_t k;
};

/* One rule's comparisons being assembled (6 instructions at most each). */
struct rule_asm {
	struct asm_insn insn[WARD_ARGS_MAX_CMPS * 6];
	uint32_t pass_at[WARD_ARGS_MAX_CMPS * 6]; /* per insn: its T_PASS */
	uint32_t n;
	uint32_t block_start;
};

void ward_bpf_buf_free(struct ward_bpf_buf *b)
{
	free(b->insns);
	memset(b, 0, sizeof(*b));
}

int ward_bpf_push(struct ward_bpf_buf *b, struct sock_filter f)
{
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? b->cap * 2 : 64;
		struct sock_filter *ni = realloc(b->insns, cap * sizeof(*ni));
		if (!ni)
			return -1;
		b->insns = ni;
		b->cap = cap;
	}
	b->insns[b->n++] = f;
	return 0;
}

uint32_t ward_action_ret(const struct ward_action *a)
{
	/* A kill, a recorded refusal or a brokered call: the broker answers
	 * what the data bits say (policy.h, ward_action_notify_data). */
	if (ward_action_notifies(a))
		return SECCOMP_RET_USER_NOTIF | ward_action_notify_data(a);
	switch (a->kind) {
	case WARD_ACT_ALLOW:
		return SECCOMP_RET_ALLOW;
	case WARD_ACT_LOG:
		return SECCOMP_RET_LOG;
	case WARD_ACT_ERRNO:
		return SECCOMP_RET_ERRNO | (a->errno_nr & SECCOMP_RET_DATA);
	case WARD_ACT_TRAP:
		return SECCOMP_RET_TRAP;
	default:
		return SECCOMP_RET_USER_NOTIF; /* a kill: not reached */
	}
}

/* ------------------------------------------------------------ folding */

enum { C_VARIES, C_TRUE, C_FALSE };

/* Whether a comparison always holds, never holds, or depends on the
 * argument. */
static int cmp_const(const struct ward_cmp *c)
{
	switch (c->op) {
	case WARD_CMP_LT:
		return c->value == 0 ? C_FALSE : C_VARIES;
	case WARD_CMP_LE:
		return c->value == UINT64_MAX ? C_TRUE : C_VARIES;
	case WARD_CMP_GT:
		return c->value == UINT64_MAX ? C_FALSE : C_VARIES;
	case WARD_CMP_GE:
		return c->value == 0 ? C_TRUE : C_VARIES;
	case WARD_CMP_MASKED_EQ:
		if (c->value & ~c->mask)
			return C_FALSE;
		return c->mask == 0 ? C_TRUE : C_VARIES;
	case WARD_CMP_MASKED_NE:
		if (c->value & ~c->mask)
			return C_TRUE;
		return c->mask == 0 ? C_FALSE : C_VARIES;
	default: /* EQ, NE */
		return C_VARIES;
	}
}

/* The same for a conjunction. */
static int cond_const(const struct ward_cond_rule *c)
{
	int r = C_TRUE;
	for (uint32_t i = 0; i < c->ncmps; i++) {
		int k = cmp_const(&c->cmps[i]);
		if (k == C_FALSE)
			return C_FALSE;
		if (k == C_VARIES)
			r = C_VARIES;
	}
	return r;
}

/*
 * The decision list of sc: indexes of the rules to test, strictest action
 * first, in *order (*n of them), and the action when none matches in
 * *otherwise. Rules that never match are left out; a rule that always
 * matches ends the list (it becomes *otherwise); trailing rules whose
 * action is *otherwise change nothing and are left out too.
 */
static int decision_list(const struct ward_syscall_rule *sc,
			 const struct ward_action *dflt, uint32_t **order,
			 uint32_t *n, struct ward_action *otherwise)
{
	uint32_t *o = calloc(sc->nconds ? sc->nconds : 1, sizeof(*o));
	uint32_t len = 0;
	uint32_t out = 0;

	if (!o)
		return -1;
	/* insertion sort, stable: strictest action first */
	for (uint32_t i = 0; i < sc->nconds; i++) {
		uint32_t j = len;
		while (j > 0 &&
		       ward_action_cmp(&sc->conds[i].action,
				       &sc->conds[o[j - 1]].action) > 0) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = i;
		len++;
	}
	*otherwise = sc->has_fallback ? sc->fallback : *dflt;
	for (uint32_t i = 0; i < len; i++) {
		const struct ward_cond_rule *c = &sc->conds[o[i]];
		int k = cond_const(c);
		if (k == C_FALSE)
			continue;
		if (k == C_TRUE) {
			*otherwise = c->action;
			break;
		}
		o[out++] = o[i];
	}
	while (out > 0 &&
	       ward_action_cmp(&sc->conds[o[out - 1]].action, otherwise) == 0)
		out--;
	*order = o;
	*n = out;
	return 0;
}

bool ward_syscall_const_action(const struct ward_syscall_rule *sc,
			       const struct ward_action *dflt,
			       struct ward_action *action)
{
	_cleanup_free_ uint32_t *order = NULL;
	uint32_t n;

	if (decision_list(sc, dflt, &order, &n, action) < 0)
		return false; /* out of memory: emit the checks, which fail */
	return n == 0;
}

/* ------------------------------------------------------------ assembly */

static void emit(struct rule_asm *r, uint16_t code, uint32_t k, uint16_t jt,
		 uint16_t jf)
{
	r->insn[r->n++] = (struct asm_insn){code, jt, jf, k};
}

static void emit_load(struct rule_asm *r, uint32_t off)
{
	emit(r, BPF_LD | BPF_W | BPF_ABS, off, 0, 0);
}

static void emit_and(struct rule_asm *r, uint32_t m)
{
	if (m != UINT32_MAX)
		emit(r, BPF_ALU | BPF_AND | BPF_K, m, 0, 0);
}

static void emit_jump(struct rule_asm *r, uint16_t op, uint32_t k, uint16_t jt,
		      uint16_t jf)
{
	emit(r, BPF_JMP | op | BPF_K, k, jt, jf);
}

/* One comparison: fall through (to T_PASS) when it holds, jump to T_FAIL
 * when it does not. */
static void emit_cmp(struct rule_asm *r, const struct ward_cmp *c)
{
	uint32_t lo =
	    (uint32_t)offsetof(struct seccomp_data, args) + 8u * c->arg;
	uint32_t hi = lo + 4;
	uint32_t vlo = (uint32_t)c->value, vhi = (uint32_t)(c->value >> 32);
	uint32_t mlo = (uint32_t)c->mask, mhi = (uint32_t)(c->mask >> 32);

	r->block_start = r->n;
	switch (c->op) {
	case WARD_CMP_EQ:
		emit_load(r, hi);
		emit_jump(r, BPF_JEQ, vhi, T_NEXT, T_FAIL);
		emit_load(r, lo);
		emit_jump(r, BPF_JEQ, vlo, T_NEXT, T_FAIL);
		break;
	case WARD_CMP_NE:
		emit_load(r, hi);
		emit_jump(r, BPF_JEQ, vhi, T_NEXT, T_PASS);
		emit_load(r, lo);
		emit_jump(r, BPF_JEQ, vlo, T_FAIL, T_NEXT);
		break;
	case WARD_CMP_GT:
	case WARD_CMP_GE:
		/* high word above: holds; below: fails; equal: the low word */
		emit_load(r, hi);
		emit_jump(r, BPF_JGT, vhi, T_PASS, T_NEXT);
		emit_jump(r, BPF_JEQ, vhi, T_NEXT, T_FAIL);
		emit_load(r, lo);
		emit_jump(r, c->op == WARD_CMP_GT ? BPF_JGT : BPF_JGE, vlo,
			  T_NEXT, T_FAIL);
		break;
	case WARD_CMP_LT:
	case WARD_CMP_LE:
		emit_load(r, hi);
		emit_jump(r, BPF_JGT, vhi, T_FAIL, T_NEXT);
		emit_jump(r, BPF_JEQ, vhi, T_NEXT, T_PASS);
		emit_load(r, lo);
		/* a < v is !(a >= v); a <= v is !(a > v) */
		emit_jump(r, c->op == WARD_CMP_LT ? BPF_JGE : BPF_JGT, vlo,
			  T_FAIL, T_NEXT);
		break;
	case WARD_CMP_MASKED_EQ:
		/* a half of the mask that is zero always matches (the
		 * constant cases were folded away: v has no bit outside m) */
		if (mhi) {
			emit_load(r, hi);
			emit_and(r, mhi);
			emit_jump(r, BPF_JEQ, vhi, T_NEXT, T_FAIL);
		}
		if (mlo) {
			emit_load(r, lo);
			emit_and(r, mlo);
			emit_jump(r, BPF_JEQ, vlo, T_NEXT, T_FAIL);
		}
		break;
	case WARD_CMP_MASKED_NE:
		/* holds as soon as one half differs */
		if (mhi) {
			emit_load(r, hi);
			emit_and(r, mhi);
			if (mlo)
				emit_jump(r, BPF_JEQ, vhi, T_NEXT, T_PASS);
			else
				emit_jump(r, BPF_JEQ, vhi, T_FAIL, T_NEXT);
		}
		if (mlo) {
			emit_load(r, lo);
			emit_and(r, mlo);
			emit_jump(r, BPF_JEQ, vlo, T_FAIL, T_NEXT);
		}
		break;
	}
	/* the T_PASS of this block's instructions is its end */
	for (uint32_t i = r->block_start; i < r->n; i++)
		r->pass_at[i] = r->n;
}

/* The jump offset of target t from instruction i of a rule whose
 * comparisons take ncmp instructions (the return follows them). */
static uint8_t target(const struct rule_asm *r, uint32_t i, uint16_t t,
		      uint32_t ncmp)
{
	switch (t) {
	case T_PASS:
		return (uint8_t)(r->pass_at[i] - i - 1);
	case T_FAIL: /* the instruction after the return */
		return (uint8_t)(ncmp - i);
	default:
		return 0;
	}
}

static int emit_rule(const struct ward_cond_rule *c, struct ward_bpf_buf *b)
{
	_cleanup_free_ struct rule_asm *r = calloc(1, sizeof(*r));
	struct sock_filter ret;

	if (!r)
		return -1;
	for (uint32_t i = 0; i < c->ncmps; i++)
		if (cmp_const(&c->cmps[i]) == C_VARIES)
			emit_cmp(r, &c->cmps[i]);
	for (uint32_t i = 0; i < r->n; i++) {
		const struct asm_insn *a = &r->insn[i];
		struct sock_filter f = {a->code, 0, 0, a->k};
		if (BPF_CLASS(a->code) == BPF_JMP) {
			f.jt = target(r, i, a->jt, r->n);
			f.jf = target(r, i, a->jf, r->n);
		}
		if (ward_bpf_push(b, f) < 0)
			return -1;
	}
	/* every comparison held: the rule's action */
	ret = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					   ward_action_ret(&c->action));
	return ward_bpf_push(b, ret);
}

int ward_args_check(const struct ward_syscall_rule *sc, ward_err *err)
{
	const char *name = sc->name ? sc->name : "?";

	for (uint32_t i = 0; i < sc->nconds; i++) {
		const struct ward_cond_rule *c = &sc->conds[i];
		if (c->ncmps > WARD_ARGS_MAX_CMPS)
			return ward_fail(err, 0,
					 "seccomp: syscall %s (nr %d): %u "
					 "comparisons in one condition (at "
					 "most %u)",
					 name, sc->nr, c->ncmps,
					 WARD_ARGS_MAX_CMPS);
		for (uint32_t j = 0; j < c->ncmps; j++)
			if (c->cmps[j].arg > 5 ||
			    c->cmps[j].op > WARD_CMP_MASKED_NE)
				return ward_fail(err, 0,
						 "seccomp: syscall %s (nr %d): "
						 "bad comparison (arg %u, op "
						 "%u)",
						 name, sc->nr, c->cmps[j].arg,
						 c->cmps[j].op);
	}
	return 0;
}

int ward_args_emit(const struct ward_syscall_rule *sc,
		   const struct ward_action *dflt, struct ward_bpf_buf *b,
		   ward_err *err)
{
	_cleanup_free_ uint32_t *order = NULL;
	struct ward_action otherwise;
	uint32_t n;
	const char *name = sc->name ? sc->name : "?";
	struct sock_filter last;

	if (ward_args_check(sc, err) < 0)
		return -1;
	if (decision_list(sc, dflt, &order, &n, &otherwise) < 0)
		return ward_fail(err, ENOMEM, "seccomp: syscall %s", name);
	for (uint32_t i = 0; i < n; i++)
		if (emit_rule(&sc->conds[order[i]], b) < 0)
			return ward_fail(err, ENOMEM, "seccomp: syscall %s",
					 name);
	last = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					    ward_action_ret(&otherwise));
	if (ward_bpf_push(b, last) < 0)
		return ward_fail(err, ENOMEM, "seccomp: syscall %s", name);
	return 0;
}
