/* SPDX-License-Identifier: MIT */
#include "rules_eval.h"

#include <linux/seccomp.h>

bool rules_eval_cmp(const struct ward_cmp *c, const uint64_t args[6])
{
	uint64_t a = args[c->arg];

	switch (c->op) {
	case WARD_CMP_EQ:
		return a == c->value;
	case WARD_CMP_NE:
		return a != c->value;
	case WARD_CMP_LT:
		return a < c->value;
	case WARD_CMP_LE:
		return a <= c->value;
	case WARD_CMP_GT:
		return a > c->value;
	case WARD_CMP_GE:
		return a >= c->value;
	case WARD_CMP_MASKED_EQ:
		return (a & c->mask) == c->value;
	case WARD_CMP_MASKED_NE:
		return (a & c->mask) != c->value;
	default:
		return false;
	}
}

static uint32_t action_ret(const struct ward_action *a)
{
	/* Through the launcher's broker (docs/spec.md 4.6): a user
	 * notification whose data bits are the disposition (the via) and
	 * the errno; a kill is 0. */
	if (a->kind == WARD_ACT_KILL)
		return SECCOMP_RET_USER_NOTIF;
	if (a->via != WARD_VIA_NONE)
		return SECCOMP_RET_USER_NOTIF | a->via << 12 |
		       (a->kind == WARD_ACT_ERRNO ? a->errno_nr : 0);
	switch (a->kind) {
	case WARD_ACT_ALLOW:
		return SECCOMP_RET_ALLOW;
	case WARD_ACT_LOG:
		return SECCOMP_RET_LOG;
	case WARD_ACT_ERRNO:
		return SECCOMP_RET_ERRNO | a->errno_nr;
	case WARD_ACT_TRAP:
		return SECCOMP_RET_TRAP;
	default:
		/* a policy's `kill`: the supervisor's listener kills */
		return SECCOMP_RET_USER_NOTIF;
	}
}

/* a is stricter than b: the kind's order, then the lower errno number. */
static bool stricter(const struct ward_action *a, const struct ward_action *b)
{
	if (a->kind != b->kind)
		return a->kind > b->kind;
	if (a->kind == WARD_ACT_ERRNO && a->errno_nr != b->errno_nr)
		return a->errno_nr < b->errno_nr;
	return a->via > b->via; /* recorded, brokered: the stricter */
}

uint32_t rules_eval(const struct ward_rules *r, int32_t nr,
		    const uint64_t args[6])
{
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		const struct ward_syscall_rule *sc = &r->syscalls[i];
		if (sc->nr != nr)
			continue;
		/* 1. the strictest matching conditional rule */
		const struct ward_action *best = NULL;
		for (uint32_t j = 0; j < sc->nconds; j++) {
			const struct ward_cond_rule *c = &sc->conds[j];
			bool all = true;
			for (uint32_t k = 0; k < c->ncmps; k++)
				all = all && rules_eval_cmp(&c->cmps[k], args);
			if (all && (!best || stricter(&c->action, best)))
				best = &c->action;
		}
		if (best)
			return action_ret(best);
		/* 2. the unconditional rule */
		if (sc->has_fallback)
			return action_ret(&sc->fallback);
		break;
	}
	/* 3. the default */
	return action_ret(&r->default_action);
}

uint32_t rules_eval_answer(uint32_t ret)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	if ((ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_USER_NOTIF)
		return ret;
	switch (data >> 12) {
	case WARD_VIA_RECORD:
	case WARD_VIA_RECORD_NET:
		return SECCOMP_RET_ERRNO | (data & 0xfff);
	case WARD_VIA_CONNECT:
	case WARD_VIA_SENDTO:
		return SECCOMP_RET_ALLOW;
	default:
		return SECCOMP_RET_KILL_PROCESS;
	}
}

uint32_t rules_eval_call(const struct ward_rules *r, uint32_t policy_arch,
			 uint32_t call_arch, int32_t nr, const uint64_t args[6])
{
	if (call_arch != policy_arch)
		return SECCOMP_RET_KILL_PROCESS;
	/* The x32 ABI sets bit 30 of nr. nr == -1 is what a tracer leaves
	 * for a skipped call; the kernel runs no syscall for it, and it gets
	 * the default like any number without rules. */
	if (policy_arch == WARD_ARCH_X86_64 && (uint32_t)nr >= 0x40000000u &&
	    nr != -1)
		return SECCOMP_RET_KILL_PROCESS;
	return rules_eval(r, nr, args);
}
