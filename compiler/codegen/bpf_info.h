/* SPDX-License-Identifier: MIT */
/*
 * bpf_info.h: reading a seccomp BPF program back, for `wardc explain`,
 * `--bpf` and the tests: a well-formedness check (the rules the kernel
 * applies when a filter is installed), a disassembler, and per-syscall
 * statistics found by exploring every path of the program.
 */
#ifndef WARD_BPF_INFO_H
#define WARD_BPF_INFO_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/*
 * Fail (-1, *err filled) unless p could be installed as a seccomp filter:
 * 1..BPF_MAXINSNS instructions, only the opcodes seccomp accepts, loads
 * aligned and inside struct seccomp_data, scratch slots < BPF_MEMWORDS and
 * written before read on every path, no division by a constant zero, no
 * shift by 32 or more, every jump inside the program, and a return as the
 * last instruction (so every path ends in a return: jumps go forward only).
 */
int ward_bpf_check(const struct sock_filter *p, uint32_t n, ward_err *err);

/* "ALLOW", "LOG", "ERRNO(38)", "TRAP", "KILL_PROCESS", "KILL_THREAD",
 * "TRACE(n)", "USER_NOTIF" (a kill), "USER_NOTIF(errno 1)" and the other
 * dispositions of the broker, or "0x%08x"; returns buf. */
const char *ward_bpf_action_name(uint32_t ret, char *buf, size_t len);

/*
 * A listing, one instruction a line:
 *     0000: ld [4]                  ; arch
 *     0001: jeq #0xc000003e, 0002, 0042
 *     0042: ret KILL_PROCESS
 * Loads of struct seccomp_data name the field; jump targets are absolute.
 * Returns -1 and sets errno if writing fails.
 */
int ward_bpf_disasm(const struct sock_filter *p, uint32_t n, FILE *out);

/* Syscall numbers 0 .. WARD_BPF_NR_COUNT - 1 are examined. */
#define WARD_BPF_NR_COUNT 1024

struct ward_bpf_nr_stat {
	uint32_t action;  /* the result when every argument is zero */
	uint16_t longest; /* instructions on the longest path, ret incl. */
	uint16_t longest_allow; /* the longest path ending in ALLOW; 0: none */
	uint8_t noutcomes;	/* distinct results over all paths (max 255) */
	bool arg_checked;	/* some path loads args[] or the IP */
	bool may_allow;		/* some arguments make it ALLOW */
	bool const_allow;	/* allowed without reading anything but nr
				   and arch: the kernel (>= 5.11) caches it */
};

struct ward_bpf_stats {
	uint32_t arch; /* the AUDIT_ARCH_* the statistics were taken for */
	uint32_t ninsns;
	struct ward_bpf_nr_stat nr[WARD_BPF_NR_COUNT];
	uint32_t n_arg_checked;	  /* syscall numbers with arg_checked */
	uint32_t n_const_allow;	  /* ... with const_allow */
	uint32_t longest_allow;	  /* the longest path ending in ALLOW */
	int32_t longest_allow_nr; /* its syscall number; -1: nothing allowed */
	uint32_t longest;	  /* the longest path of all */
	int32_t longest_nr;
	uint32_t x32_action;	 /* x86_64 only: nr 0x40000000, args zero */
	uint32_t badarch_action; /* another arch (i386 or arm), args zero */
};

/*
 * Check p (ward_bpf_check) and fill *st for arch (an AUDIT_ARCH_* value):
 * each syscall number is followed along every path the program can take
 * when the arguments and the instruction pointer are unknown.
 */
int ward_bpf_stats(const struct sock_filter *p, uint32_t n, uint32_t arch,
		   struct ward_bpf_stats *st, ward_err *err);

#endif
