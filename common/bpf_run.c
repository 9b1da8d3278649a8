/* SPDX-License-Identifier: MIT */
/*
 * bpf_run.c: see bpf_run.h.
 */
#include "bpf_run.h"

#include <stdbool.h>
#include <string.h>

/* The 32-bit word at byte offset k of d, in host byte order (the kernel
 * hands seccomp_data to the filter in the same layout). */
static int load_word(const struct seccomp_data *d, uint32_t k, uint32_t *out)
{
	if (k % 4 != 0 || k > sizeof(*d) - 4)
		return -1;
	memcpy(out, (const uint8_t *)d + k, 4);
	return 0;
}

static uint32_t fail(int *fault, int why)
{
	if (fault)
		*fault = why;
	return 0;
}

uint32_t ward_bpf_run(const struct sock_filter *p, uint32_t n,
		      const struct seccomp_data *d, int *fault, uint32_t *steps)
{
	uint32_t A = 0, X = 0, mem[BPF_MEMWORDS] = {0};
	uint32_t pc = 0, count = 0;

	if (fault)
		*fault = WARD_BPF_RUN_OK;
	while (pc < n) {
		const struct sock_filter *i = &p[pc];
		uint32_t k = i->k;
		uint32_t src = BPF_SRC(i->code) == BPF_X ? X : k;
		bool taken;

		count++;
		if (steps)
			*steps = count;
		pc++;
		switch (i->code) {
		/* loads */
		case BPF_LD | BPF_W | BPF_ABS:
			if (load_word(d, k, &A) < 0)
				return fail(fault, WARD_BPF_RUN_BAD_LOAD);
			continue;
		case BPF_LD | BPF_W | BPF_LEN:
			A = sizeof(*d);
			continue;
		case BPF_LDX | BPF_W | BPF_LEN:
			X = sizeof(*d);
			continue;
		case BPF_LD | BPF_IMM:
			A = k;
			continue;
		case BPF_LDX | BPF_IMM:
			X = k;
			continue;
		case BPF_LD | BPF_MEM:
			if (k >= BPF_MEMWORDS)
				return fail(fault, WARD_BPF_RUN_BAD_MEM);
			A = mem[k];
			continue;
		case BPF_LDX | BPF_MEM:
			if (k >= BPF_MEMWORDS)
				return fail(fault, WARD_BPF_RUN_BAD_MEM);
			X = mem[k];
			continue;
		/* stores */
		case BPF_ST:
			if (k >= BPF_MEMWORDS)
				return fail(fault, WARD_BPF_RUN_BAD_MEM);
			mem[k] = A;
			continue;
		case BPF_STX:
			if (k >= BPF_MEMWORDS)
				return fail(fault, WARD_BPF_RUN_BAD_MEM);
			mem[k] = X;
			continue;
		/* arithmetic, 32-bit unsigned */
		case BPF_ALU | BPF_ADD | BPF_K:
		case BPF_ALU | BPF_ADD | BPF_X:
			A += src;
			continue;
		case BPF_ALU | BPF_SUB | BPF_K:
		case BPF_ALU | BPF_SUB | BPF_X:
			A -= src;
			continue;
		case BPF_ALU | BPF_MUL | BPF_K:
		case BPF_ALU | BPF_MUL | BPF_X:
			A *= src;
			continue;
		case BPF_ALU | BPF_DIV | BPF_K:
		case BPF_ALU | BPF_DIV | BPF_X:
			if (src == 0)
				return 0;
			A /= src;
			continue;
		case BPF_ALU | BPF_MOD | BPF_K:
		case BPF_ALU | BPF_MOD | BPF_X:
			if (src == 0)
				return 0;
			A %= src;
			continue;
		case BPF_ALU | BPF_AND | BPF_K:
		case BPF_ALU | BPF_AND | BPF_X:
			A &= src;
			continue;
		case BPF_ALU | BPF_OR | BPF_K:
		case BPF_ALU | BPF_OR | BPF_X:
			A |= src;
			continue;
		case BPF_ALU | BPF_XOR | BPF_K:
		case BPF_ALU | BPF_XOR | BPF_X:
			A ^= src;
			continue;
		case BPF_ALU | BPF_LSH | BPF_K:
		case BPF_ALU | BPF_LSH | BPF_X:
			A = src >= 32 ? 0 : A << src;
			continue;
		case BPF_ALU | BPF_RSH | BPF_K:
		case BPF_ALU | BPF_RSH | BPF_X:
			A = src >= 32 ? 0 : A >> src;
			continue;
		case BPF_ALU | BPF_NEG:
			A = -A;
			continue;
		/* register moves */
		case BPF_MISC | BPF_TAX:
			X = A;
			continue;
		case BPF_MISC | BPF_TXA:
			A = X;
			continue;
		/* jumps: offsets count from the next instruction */
		case BPF_JMP | BPF_JA:
			if (k >= n - pc)
				return fail(fault, WARD_BPF_RUN_BAD_JUMP);
			pc += k;
			continue;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JEQ | BPF_X:
			taken = A == src;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_X:
			taken = A > src;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_X:
			taken = A >= src;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_X:
			taken = (A & src) != 0;
			break;
		/* returns */
		case BPF_RET | BPF_K:
			return k;
		case BPF_RET | BPF_A:
			return A;
		default:
			return fail(fault, WARD_BPF_RUN_BAD_OPCODE);
		}
		/* a conditional jump */
		pc += taken ? i->jt : i->jf;
	}
	return fail(fault, WARD_BPF_RUN_BAD_JUMP);
}
