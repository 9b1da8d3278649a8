/* SPDX-License-Identifier: MIT */
/*
 * bpf_interp.h: a classic BPF interpreter for seccomp programs, used as a
 * test oracle. It is deliberately plain: one switch, no optimisation, so that
 * it can be checked by reading it.
 */
#ifndef WARD_BPF_INTERP_H
#define WARD_BPF_INTERP_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>

/* Why a run ended without a return instruction. */
enum bpf_interp_fault {
	BPF_INTERP_OK = 0,
	BPF_INTERP_BAD_OPCODE, /* an opcode seccomp does not accept */
	BPF_INTERP_BAD_LOAD,   /* a load outside struct seccomp_data */
	BPF_INTERP_BAD_JUMP,   /* a jump or fall-through past the end */
	BPF_INTERP_BAD_MEM     /* a scratch slot index >= BPF_MEMWORDS */
};

/*
 * Run program p (n instructions) on d and return its 32-bit result. A
 * division by a zero X returns 0, as the kernel does. On a malformed program
 * the result is 0 and *fault (if not NULL) says why; it is
 * BPF_INTERP_OK otherwise. *steps (if not NULL) receives the number of
 * instructions executed, the return included.
 */
uint32_t bpf_interp_run(const struct sock_filter *p, uint32_t n,
			const struct seccomp_data *d, int *fault,
			uint32_t *steps);

#endif
