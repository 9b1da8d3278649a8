/* SPDX-License-Identifier: MIT */
/*
 * seccomp_gen.h: the seccomp BPF program of a rule table.
 *
 * The program returns, for a call of syscall S on the policy's
 * architecture, the strictest action among the conditional rules of S that
 * match, else S's fallback, else the default action (policy.h); the
 * policy's `kill`, a recorded refusal (`errno E log`) and a call for the
 * socket broker are SECCOMP_RET_USER_NOTIF with the data bits of
 * policy.h's ward_action_notify_data, which the launcher's broker answers
 * (a kill by killing the whole sandbox and naming the syscall; the blob
 * then requires WARD_REQ_SECCOMP_NOTIFY). Every other
 * architecture, and on x86_64 the x32 ABI (nr >= 0x40000000, but -1), is
 * killed by the kernel (SECCOMP_RET_KILL_PROCESS).
 *
 * libseccomp writes the frame: the architecture and x32 checks, the
 * dispatch on the syscall number (a binary tree) and the syscalls whose
 * action does not depend on their arguments. The argument checks are
 * written by seccomp_args.c, because libseccomp 2.5.4 miscompiles some
 * argument trees (after a failed comparison of one argument it can test
 * another argument's word against a constant meant for the first).
 */
#ifndef WARD_SECCOMP_GEN_H
#define WARD_SECCOMP_GEN_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stdint.h>

#include "policy.h"
#include "seccomp_args.h"
#include "util.h"

struct ward_seccomp_opts {
	/* libseccomp's SCMP_FLTATR_CTL_OPTIMIZE: 2 (the default, also
	 * when 0) sorts the syscalls into a binary tree, 1 tests them one
	 * after the other. */
	uint32_t optimize;
};

/*
 * Compile rules for arch (WARD_ARCH_X86_64 or WARD_ARCH_AARCH64) into a
 * malloc'd program (*insns, *ninsns), with default options (opts NULL).
 * The syscall numbers in rules are the target's. Fails, with *err naming
 * the cause, on a malformed rule table (unsorted or repeated syscalls, bad
 * actions, errno outside 1..4094, bad comparisons), or a program longer
 * than the kernel's 4096 instructions.
 */
int ward_seccomp_compile(const struct ward_rules *rules, uint32_t arch,
			 struct sock_filter **insns, uint32_t *ninsns,
			 ward_err *err);

/* Does the program return SECCOMP_RET_USER_NOTIF anywhere (a `kill` rule,
 * a recorded refusal, a brokered call)? The blob must then require a
 * listener (WARD_REQ_SECCOMP_NOTIFY). */
bool ward_seccomp_notifies(const struct sock_filter *insns, uint32_t ninsns);

/* Does one of those returns ask for more than a kill (data bits set)? The
 * blob must then require a launcher that answers (WARD_REQ_SECCOMP_ANSWER). */
bool ward_seccomp_answers(const struct sock_filter *insns, uint32_t ninsns);

int ward_seccomp_compile_opts(const struct ward_rules *rules, uint32_t arch,
			      const struct ward_seccomp_opts *opts,
			      struct sock_filter **insns, uint32_t *ninsns,
			      ward_err *err);

#endif
