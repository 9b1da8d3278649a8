/* SPDX-License-Identifier: MIT */
/*
 * rules_eval.h: what a rule table says about one call, straight from the
 * language's definition (docs/spec.md 1.7.6, policy.h), with no code shared
 * with the BPF generator. The test oracle for compiled seccomp programs.
 */
#ifndef WARD_RULES_EVAL_H
#define WARD_RULES_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "policy.h"

/* Whether comparison c holds for the argument vector args. */
bool rules_eval_cmp(const struct ward_cmp *c, const uint64_t args[6]);

/*
 * The seccomp return value the program must give for syscall nr with args
 * on the rule table's own architecture: SECCOMP_RET_ALLOW, SECCOMP_RET_LOG,
 * SECCOMP_RET_ERRNO | errno, SECCOMP_RET_TRAP or, for what the launcher's
 * broker answers, SECCOMP_RET_USER_NOTIF with the disposition in bits
 * 15..12 and the errno in 11..0 (a `kill` is 0: the broker kills the
 * sandbox).
 */
uint32_t rules_eval(const struct ward_rules *r, int32_t nr,
		    const uint64_t args[6]);

/* What a call gets from a return of ward's program once the launcher's
 * broker has answered it: a recorded refusal (USER_NOTIF with an errno
 * disposition) is that errno, a brokered connect or sendto is allowed
 * (where it may go is the allow-list's business), a kill is
 * SECCOMP_RET_KILL_PROCESS; any other return is itself. */
uint32_t rules_eval_answer(uint32_t ret);

/* The same for any call: a foreign arch, and on x86_64 every nr >=
 * 0x40000000 (the x32 ABI) but -1, are SECCOMP_RET_KILL_PROCESS. */
uint32_t rules_eval_call(const struct ward_rules *r, uint32_t policy_arch,
			 uint32_t call_arch, int32_t nr,
			 const uint64_t args[6]);

#endif
