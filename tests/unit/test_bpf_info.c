/* SPDX-License-Identifier: MIT */
/*
 * test_bpf_info.c: the BPF checker (against the kernel's verdict), the
 * disassembler (golden lines) and the path statistics (known programs).
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "bpf_info.h"
#include "bpf_run.h"
#include "seccomp_gen.h"

#define LD(off)	      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(k)	      BPF_STMT(BPF_RET | BPF_K, (k))
#define JEQ(k, t, f)  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define JSET(k, t, f) BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (k), (t), (f))
#define OFF_NR	      offsetof(struct seccomp_data, nr)
#define OFF_ARCH      offsetof(struct seccomp_data, arch)
#define OFF_ARG(i, hi)                                                         \
	(offsetof(struct seccomp_data, args) + 8 * (i) + 4 * (hi))
#define ALLOW SECCOMP_RET_ALLOW

/* ------------------------------------------------------------ listing */

static char *listing(const struct sock_filter *p, uint32_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ward_bpf_disasm(p, n, f), 0);
	fclose(f);
	return text;
}

static void test_disasm_golden(void **state)
{
	const struct sock_filter p[] = {
	    LD(OFF_ARCH),
	    JEQ(AUDIT_ARCH_X86_64, 0, 12),
	    LD(OFF_NR),
	    JEQ(39, 0, 8),
	    LD(OFF_ARG(1, 0)),
	    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff),
	    JSET(0x80, 1, 0),
	    BPF_STMT(BPF_JMP | BPF_JA, 2),
	    BPF_STMT(BPF_MISC | BPF_TAX, 0),
	    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_X, 0, 3, 4),
	    LD(OFF_ARG(5, 1)),
	    BPF_STMT(BPF_RET | BPF_A, 0),
	    RET(SECCOMP_RET_ERRNO | 38),
	    RET(ALLOW),
	    RET(SECCOMP_RET_KILL_PROCESS),
	};
	char *text = listing(p, ARRAY_LEN(p));
	assert_string_equal(text, "0000: ld [4]      ; arch\n"
				  "0001: jeq #0xc000003e, 0002, 0014\n"
				  "0002: ld [0]      ; nr\n"
				  "0003: jeq #0x27, 0004, 0012\n"
				  "0004: ld [24]     ; args[1] lo\n"
				  "0005: and #0xff\n"
				  "0006: jset #0x80, 0008, 0007\n"
				  "0007: ja 0010\n"
				  "0008: tax\n"
				  "0009: jge x, 0013, 0014\n"
				  "0010: ld [60]     ; args[5] hi\n"
				  "0011: ret a\n"
				  "0012: ret ERRNO(38)\n"
				  "0013: ret ALLOW\n"
				  "0014: ret KILL_PROCESS\n");
	free(text);
}

static void test_disasm_other_forms(void **state)
{
	const struct sock_filter p[] = {
	    BPF_STMT(BPF_LD | BPF_IMM, 7),
	    BPF_STMT(BPF_ST, 3),
	    BPF_STMT(BPF_LDX | BPF_MEM, 3),
	    BPF_STMT(BPF_ALU | BPF_SUB | BPF_X, 0),
	    BPF_STMT(BPF_ALU | BPF_NEG, 0),
	    BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0),
	    LD(8),
	    BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0),
	    RET(SECCOMP_RET_TRAP),
	    RET(SECCOMP_RET_LOG),
	    RET(SECCOMP_RET_KILL_THREAD),
	    RET(SECCOMP_RET_TRACE | 5),
	    RET(SECCOMP_RET_USER_NOTIF),
	    RET(0x12345678),
	};
	char *text = listing(p, ARRAY_LEN(p));
	assert_string_equal(text,
			    "0000: ld #0x7\n"
			    "0001: st M[3]\n"
			    "0002: ldx M[3]\n"
			    "0003: sub x\n"
			    "0004: neg\n"
			    "0005: ld len\n"
			    "0006: ld [8]      ; instruction_pointer lo\n"
			    "0007: .insn 0x0030, 0, 0, 0x0 ; not seccomp BPF\n"
			    "0008: ret TRAP\n"
			    "0009: ret LOG\n"
			    "0010: ret KILL_THREAD\n"
			    "0011: ret TRACE(5)\n"
			    "0012: ret USER_NOTIF\n"
			    "0013: ret 0x12345678\n");
	free(text);
}

/* ------------------------------------------------------------ checking */

struct check_case {
	const char *name;
	struct sock_filter p[6];
	uint32_t n;
	const char *error; /* NULL: valid; else a part of the message */
};

/* Valid programs end in "ret ALLOW" on every path so that a child can
 * install them and still exit. */
static const struct check_case cases[] = {
    {"minimal", {RET(ALLOW)}, 1, NULL},
    {"every register op",
     {BPF_STMT(BPF_LDX | BPF_IMM, 3), BPF_STMT(BPF_STX, 15),
      BPF_STMT(BPF_LD | BPF_MEM, 15), BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 31),
      BPF_STMT(BPF_LD | BPF_IMM, ALLOW), BPF_STMT(BPF_RET | BPF_A, 0)},
     6,
     NULL},
    {"jumps with x",
     {BPF_STMT(BPF_LDX | BPF_W | BPF_LEN, 0), LD(OFF_NR),
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_X, 0, 0, 1),
      BPF_STMT(BPF_ALU | BPF_DIV | BPF_X, 0), RET(ALLOW)},
     5,
     NULL},
    {"last argument word", {LD(OFF_ARG(5, 1)), RET(ALLOW)}, 2, NULL},
    {"mod",
     {BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, 3), RET(ALLOW)},
     2,
     "opcode 0x0094 is not allowed"},
    {"byte load",
     {BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0), RET(ALLOW)},
     2,
     "opcode 0x0030 is not allowed"},
    {"indirect load",
     {BPF_STMT(BPF_LD | BPF_W | BPF_IND, 0), RET(ALLOW)},
     2,
     "opcode 0x0040 is not allowed"},
    {"load past the end", {LD(64), RET(ALLOW)}, 2, "load at offset 64"},
    {"unaligned load", {LD(2), RET(ALLOW)}, 2, "load at offset 2"},
    {"jump past the end",
     {BPF_STMT(BPF_JMP | BPF_JA, 1), RET(ALLOW)},
     2,
     "insn 0: jump past the end"},
    {"branch past the end",
     {LD(OFF_NR), JEQ(1, 0, 1), RET(ALLOW)},
     3,
     "insn 1: jump past the end"},
    {"no return at the end",
     {RET(ALLOW), LD(OFF_NR)},
     2,
     "last instruction is not a return"},
    {"scratch read before write",
     {LD(OFF_NR), JEQ(1, 0, 1), BPF_STMT(BPF_ST, 2),
      BPF_STMT(BPF_LD | BPF_MEM, 2), RET(ALLOW)},
     5,
     "insn 3: reads scratch slot 2 before any write"},
    {"scratch slot 16",
     {BPF_STMT(BPF_ST, 16), RET(ALLOW)},
     2,
     "scratch slot 16"},
    {"division by zero",
     {BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0), RET(ALLOW)},
     2,
     "division by 0"},
    {"shift by 32",
     {BPF_STMT(BPF_ALU | BPF_RSH | BPF_K, 32), RET(ALLOW)},
     2,
     "shift by 32"},
};

static void test_check_messages(void **state)
{
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		ward_err err = {0};
		int rc = ward_bpf_check(cases[i].p, cases[i].n, &err);
		if (!cases[i].error) {
			if (rc != 0)
				fail_msg("%s: %s", cases[i].name, err.msg);
			continue;
		}
		if (rc != -1 || !strstr(err.msg, cases[i].error))
			fail_msg("%s: got %d \"%s\"", cases[i].name, rc,
				 err.msg);
	}
	ward_err err = {0};
	const struct sock_filter one = RET(ALLOW);
	assert_int_equal(ward_bpf_check(&one, 0, &err), -1);
	assert_string_equal(err.msg,
			    "bpf: 0 instructions (the kernel takes 1..4096)");
}

/* 0: the kernel installed it; 1: EINVAL; 2: something else went wrong. */
static int kernel_accepts(const struct sock_filter *p, uint32_t n)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sock_fprog prog = {(unsigned short)n,
					  (struct sock_filter *)p};
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			syscall(SYS_exit_group, 2);
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			syscall(SYS_exit_group, errno == EINVAL ? 1 : 2);
		syscall(SYS_exit_group, 0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The checker and the kernel agree on every case. */
static void test_check_agrees_with_kernel(void **state)
{
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		int k = kernel_accepts(cases[i].p, cases[i].n);
		assert_int_not_equal(k, 2);
		bool ours = ward_bpf_check(cases[i].p, cases[i].n, NULL) == 0;
		if (ours != (k == 0))
			fail_msg("%s: checker says %s, the kernel %s",
				 cases[i].name, ours ? "valid" : "invalid",
				 k == 0 ? "installed it" : "refused it");
	}
}

/* ------------------------------------------------------------ stats */

static void test_stats_compiled(void **state)
{
	const struct ward_cmp flags0[] = {{.arg = 2, .op = WARD_CMP_EQ}};
	const struct ward_cond_rule dup3[] = {
	    {.cmps = flags0, .ncmps = 1, .action = {WARD_ACT_ALLOW, 0}}};
	const struct ward_syscall_rule sc[] = {
	    {.nr = 110, .name = "getppid", .has_fallback = true},
	    {.nr = 292, .name = "dup3", .conds = dup3, .nconds = 1},
	};
	const struct ward_rules r = {.default_action = {WARD_ACT_ERRNO, 38},
				     .syscalls = sc,
				     .nsyscalls = 2};
	struct sock_filter *p = NULL;
	uint32_t n = 0;
	ward_err err = {0};
	struct ward_bpf_stats *st = calloc(1, sizeof(*st));

	assert_non_null(st);
	assert_int_equal(
	    ward_seccomp_compile(&r, WARD_ARCH_X86_64, &p, &n, &err), 0);
	assert_int_equal(ward_bpf_stats(p, n, WARD_ARCH_X86_64, st, &err), 0);
	assert_int_equal(st->ninsns, n);
	/* getppid: allowed, constant, cached by the kernel */
	assert_int_equal(st->nr[110].action, ALLOW);
	assert_false(st->nr[110].arg_checked);
	assert_true(st->nr[110].const_allow);
	assert_int_equal(st->nr[110].noutcomes, 1);
	/* dup3: depends on flags */
	assert_int_equal(st->nr[292].action, ALLOW);
	assert_true(st->nr[292].arg_checked);
	assert_false(st->nr[292].const_allow);
	assert_true(st->nr[292].may_allow);
	assert_int_equal(st->nr[292].noutcomes, 2);
	/* anything else: the default, without looking at arguments */
	for (uint32_t nr = 0; nr < WARD_BPF_NR_COUNT; nr++) {
		if (nr == 110 || nr == 292)
			continue;
		assert_int_equal(st->nr[nr].action, SECCOMP_RET_ERRNO | 38);
		assert_false(st->nr[nr].arg_checked);
		assert_false(st->nr[nr].may_allow);
	}
	assert_int_equal(st->n_arg_checked, 1);
	assert_int_equal(st->n_const_allow, 1);
	assert_int_equal(st->longest_allow_nr, 292);
	assert_int_equal(st->x32_action, SECCOMP_RET_KILL_PROCESS);
	assert_int_equal(st->badarch_action, SECCOMP_RET_KILL_PROCESS);

	/* the longest allowed path, measured by the oracle's interpreter on
	 * the arguments that take it (flags == 0) */
	struct seccomp_data d = {.nr = 292, .arch = WARD_ARCH_X86_64};
	uint32_t steps = 0;
	assert_int_equal(ward_bpf_run(p, n, &d, NULL, &steps), ALLOW);
	assert_int_equal(st->longest_allow, steps);
	free(p);
	free(st);
}

/*
 * A hand-built program for syscall 1 with two allowed paths of different
 * lengths, and a second test of args[0] that the first one decides: its
 * "kill" branch cannot be taken and must not count as an outcome.
 */
static void test_stats_hand_built(void **state)
{
	const struct sock_filter p[] = {
	    /* 0 */ LD(OFF_ARCH),
	    /* 1 */ JEQ(AUDIT_ARCH_X86_64, 0, 11), /* -> 13 */
	    /* 2 */ LD(OFF_NR),
	    /* 3 */ JEQ(1, 0, 8), /* -> 12 */
	    /* 4 */ LD(OFF_ARG(0, 0)),
	    /* 5 */ JEQ(5, 0, 3), /* -> 9 */
	    /* 6 */ LD(OFF_ARG(0, 0)),
	    /* 7 */ JEQ(5, 0, 5), /* -> 13: never taken */
	    /* 8 */ RET(ALLOW),	  /* path 0..8: 9 insns */
	    /* 9 */ LD(OFF_ARG(1, 0)),
	    /* 10 */ JSET(1, 0, 1), /* -> 12 */
	    /* 11 */ RET(ALLOW),    /* path 0..5,9,10,11: 9 insns */
	    /* 12 */ RET(SECCOMP_RET_ERRNO | 1),
	    /* 13 */ RET(SECCOMP_RET_KILL_PROCESS),
	};
	struct ward_bpf_stats *st = calloc(1, sizeof(*st));
	ward_err err = {0};

	assert_non_null(st);
	assert_int_equal(
	    ward_bpf_stats(p, ARRAY_LEN(p), AUDIT_ARCH_X86_64, st, &err), 0);
	assert_int_equal(st->nr[1].longest, 9);
	assert_int_equal(st->nr[1].longest_allow, 9);
	assert_int_equal(st->nr[1].noutcomes, 2); /* ALLOW, ERRNO(1) */
	assert_true(st->nr[1].arg_checked);
	assert_false(st->nr[1].const_allow);
	assert_int_equal(st->nr[1].action, SECCOMP_RET_ERRNO | 1);
	assert_int_equal(st->nr[0].longest, 5);
	assert_int_equal(st->nr[0].longest_allow, 0);
	assert_false(st->nr[0].may_allow);
	assert_int_equal(st->longest_allow, 9);
	assert_int_equal(st->longest_allow_nr, 1);
	assert_int_equal(st->badarch_action, SECCOMP_RET_KILL_PROCESS);
	/* this program has no x32 check */
	assert_int_equal(st->x32_action, SECCOMP_RET_ERRNO | 1);

	/* a malformed program is refused with the checker's message */
	assert_int_equal(ward_bpf_stats(p, 5, AUDIT_ARCH_X86_64, st, &err), -1);
	assert_string_equal(err.msg, "bpf: insn 1: jump past the end");
	free(st);
}

/* The kernel cache emulation: an "and" before the comparison is fine, a
 * load of anything but nr/arch is not. */
static void test_stats_const_allow(void **state)
{
	const struct sock_filter p[] = {
	    LD(OFF_NR),	  BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff),
	    JEQ(7, 0, 1), RET(ALLOW),
	    JEQ(8, 0, 2), LD(OFF_ARG(0, 0)),
	    RET(ALLOW),	  RET(SECCOMP_RET_KILL_PROCESS),
	};
	struct ward_bpf_stats *st = calloc(1, sizeof(*st));

	assert_non_null(st);
	assert_int_equal(
	    ward_bpf_stats(p, ARRAY_LEN(p), AUDIT_ARCH_X86_64, st, NULL), 0);
	assert_true(st->nr[7].const_allow);
	assert_true(st->nr[7 + 256].const_allow); /* masked to 7 */
	assert_false(st->nr[8].const_allow);	  /* loads args[0] */
	assert_true(st->nr[8].may_allow);
	assert_true(st->nr[8].arg_checked);
	assert_int_equal(st->nr[8].noutcomes, 1);
	assert_false(st->nr[9].may_allow);
	assert_int_equal(st->n_const_allow, 4); /* 7, 263, 519, 775 */
	free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_disasm_golden),
	    cmocka_unit_test(test_disasm_other_forms),
	    cmocka_unit_test(test_check_messages),
	    cmocka_unit_test(test_check_agrees_with_kernel),
	    cmocka_unit_test(test_stats_compiled),
	    cmocka_unit_test(test_stats_hand_built),
	    cmocka_unit_test(test_stats_const_allow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
