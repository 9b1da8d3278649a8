/* SPDX-License-Identifier: MIT */
/*
 * seccomp_args.h: the argument checks of one syscall, as BPF written here
 * rather than by libseccomp.
 *
 * The language's rule for a syscall (the strictest matching conditional
 * rule, else the fallback, else the default) is a decision list: test the
 * conditional rules from the strictest action to the least strict and
 * return the action of the first that matches; if none does, return the
 * fallback or the default. Each rule is a conjunction of 64-bit comparisons
 * tested word by word. The code reads every word it compares from struct
 * seccomp_data itself and assumes nothing of the accumulator, so it can be
 * entered from anywhere in a program.
 */
#ifndef WARD_SECCOMP_ARGS_H
#define WARD_SECCOMP_ARGS_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stdint.h>

#include "policy.h"
#include "util.h"

/* Comparisons in one conditional rule: a failing comparison jumps past the
 * rest of its rule, and a BPF conditional jump reaches 255 instructions. */
#define WARD_ARGS_MAX_CMPS 40

/* A growing BPF program. */
struct ward_bpf_buf {
	struct sock_filter *insns;
	uint32_t n, cap;
};

void ward_bpf_buf_free(struct ward_bpf_buf *b);

/* Append one instruction; -1 on out of memory. */
int ward_bpf_push(struct ward_bpf_buf *b, struct sock_filter f);

/* The seccomp return value of an action (SECCOMP_RET_*), as a program
 * returns it: ERRNO carries its number, KILL is USER_NOTIF (seccomp_gen.h). */
uint32_t ward_action_ret(const struct ward_action *a);

/* Fail unless every comparison of sc names an argument 0..5 and an
 * operator of enum ward_cmp_op, and no rule has more than
 * WARD_ARGS_MAX_CMPS comparisons. */
int ward_args_check(const struct ward_syscall_rule *sc, ward_err *err);

/*
 * If the action of sc does not depend on the arguments (no conditional
 * rule, or only comparisons that always or never hold), store it in
 * *action and return true; policy default dflt.
 */
bool ward_syscall_const_action(const struct ward_syscall_rule *sc,
			       const struct ward_action *dflt,
			       struct ward_action *action);

/*
 * Append to b the code that returns sc's action for the arguments in
 * struct seccomp_data (little-endian words: both targets are). Fails as
 * ward_args_check() does, or on out of memory.
 */
int ward_args_emit(const struct ward_syscall_rule *sc,
		   const struct ward_action *dflt, struct ward_bpf_buf *b,
		   ward_err *err);

#endif
