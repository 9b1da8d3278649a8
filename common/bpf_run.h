/* SPDX-License-Identifier: MIT */
/*
 * bpf_run.h: a classic BPF interpreter for seccomp programs. The launcher's
 * broker runs the blob's program on a notification's struct seccomp_data to
 * learn what the program asked of it (the data bits of the
 * SECCOMP_RET_USER_NOTIF it returned, policy.h): the program is a pure
 * function of that struct, so the answer is the one the kernel got. The
 * tests use it as their oracle of what a program does. It is deliberately
 * plain: one switch, no optimisation, so that it can be checked by reading
 * it; it accepts what the kernel's seccomp_check_filter() accepts and
 * computes as the kernel does (a division by zero returns 0).
 */
#ifndef WARD_WARD_BPF_RUN_H
#define WARD_WARD_BPF_RUN_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>

/* Why a run ended without a return instruction. */
enum ward_bpf_run_fault {
	WARD_BPF_RUN_OK = 0,
	WARD_BPF_RUN_BAD_OPCODE, /* an opcode seccomp does not accept */
	WARD_BPF_RUN_BAD_LOAD,	 /* a load outside struct seccomp_data */
	WARD_BPF_RUN_BAD_JUMP,	 /* a jump or fall-through past the end */
	WARD_BPF_RUN_BAD_MEM	 /* a scratch slot index >= BPF_MEMWORDS */
};

/*
 * Run program p (n instructions) on d and return its 32-bit result. A
 * division by a zero X returns 0, as the kernel does. On a malformed program
 * the result is 0 and *fault (if not NULL) says why; it is
 * WARD_BPF_RUN_OK otherwise. *steps (if not NULL) receives the number of
 * instructions executed, the return included.
 */
uint32_t ward_bpf_run(const struct sock_filter *p, uint32_t n,
		      const struct seccomp_data *d, int *fault,
		      uint32_t *steps);

#endif
