/* SPDX-License-Identifier: MIT */
/*
 * test_seccomp.c: the seccomp BPF generator against the oracle.
 *
 * For a rule table, compile it, then run the program in the oracle's
 * interpreter for every syscall number 0..1023 of the target, the x32
 * numbers, foreign architectures, and for the syscalls with conditions many
 * argument vectors that hit and miss each comparison; every result must be
 * what rules_eval() says the language means. Hand-written tables cover each
 * feature; 1000 random tables per architecture cover their combinations. A
 * failing random table is shrunk to a minimal one and printed.
 *
 * The last tests install compiled programs for real in forked children
 * (x86_64) and watch the syscalls' results from the parent.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "bpf_run.h"
#include "policy.h"
#include "seccomp_gen.h"
#include "syscalls.h"
#include "tests/oracle/random_rules.h"
#include "tests/oracle/rules_eval.h"

#define NR_SWEEP      1024  /* syscall numbers checked for every table */
#define MAX_VALS      24    /* interesting values of one argument */
#define MAX_VECTORS   20000 /* argument vectors of one syscall */
#define RANDOM_TABLES 1000u

/* ------------------------------------------------------------ building */

#define CMP(a, o, v)                                                           \
	{                                                                      \
		.arg = (a), .op = WARD_CMP_##o, .value = (v)                   \
	}
#define MCMP(a, o, m, v)                                                       \
	{                                                                      \
		.arg = (a), .op = WARD_CMP_##o, .mask = (m), .value = (v)      \
	}
#define ACT(k)                                                                 \
	{                                                                      \
		.kind = WARD_ACT_##k                                           \
	}
#define ERRNO(n)                                                               \
	{                                                                      \
		.kind = WARD_ACT_ERRNO, .errno_nr = (n)                        \
	}
#define COND(act_, cmps_)                                                      \
	{                                                                      \
		.cmps = (cmps_), .ncmps = ARRAY_LEN(cmps_), .action = act_     \
	}
#define SYSCALL(n_, conds_)                                                    \
	{                                                                      \
		.nr = (n_), .name = #n_, .conds = (conds_),                    \
		.nconds = ARRAY_LEN(conds_)                                    \
	}
#define FALLBACK(n_, act_, conds_)                                             \
	{                                                                      \
		.nr = (n_), .name = #n_, .has_fallback = true,                 \
		.fallback = act_, .conds = (conds_),                           \
		.nconds = ARRAY_LEN(conds_)                                    \
	}
#define ONLY(n_, act_)                                                         \
	{                                                                      \
		.nr = (n_), .name = #n_, .has_fallback = true,                 \
		.fallback = act_                                               \
	}
#define RULES(dflt_, scs_)                                                     \
	{                                                                      \
		.default_action = dflt_, .syscalls = (scs_),                   \
		.nsyscalls = ARRAY_LEN(scs_)                                   \
	}

/* ------------------------------------------------------------ the oracle */

struct diff_stats {
	uint64_t calls; /* program runs compared */
	uint32_t mismatches;
};

static uint32_t arch_of_other(uint32_t arch)
{
	return arch == WARD_ARCH_X86_64 ? AUDIT_ARCH_I386 : AUDIT_ARCH_ARM;
}

static void add_val(uint64_t *vals, uint32_t *n, uint64_t v)
{
	for (uint32_t i = 0; i < *n; i++)
		if (vals[i] == v)
			return;
	if (*n < MAX_VALS)
		vals[(*n)++] = v;
}

/* The values of argument arg worth trying against sc's comparisons: each
 * compared value and its neighbours, the mask's bits set and flipped, and
 * the extremes. */
static uint32_t arg_values(const struct ward_syscall_rule *sc, unsigned arg,
			   uint64_t *vals)
{
	uint32_t n = 0;
	add_val(vals, &n, 0);
	add_val(vals, &n, UINT64_MAX);
	for (uint32_t j = 0; j < sc->nconds; j++)
		for (uint32_t k = 0; k < sc->conds[j].ncmps; k++) {
			const struct ward_cmp *c = &sc->conds[j].cmps[k];
			if (c->arg != arg)
				continue;
			uint64_t v = c->value, m = c->mask;
			add_val(vals, &n, v);
			add_val(vals, &n, v - 1);
			add_val(vals, &n, v + 1);
			if (c->op >= WARD_CMP_MASKED_EQ) {
				add_val(vals, &n, v | m);
				add_val(vals, &n, v | ~m);
				add_val(vals, &n, (v & m) ^ (m & -m));
				if (m)
					add_val(
					    vals, &n,
					    v ^ (1ull
						 << (63 - __builtin_clzll(m))));
				add_val(vals, &n, m);
				add_val(vals, &n, ~m);
			}
		}
	return n;
}

static uint32_t run(const struct sock_filter *p, uint32_t n, uint32_t arch,
		    int32_t nr, const uint64_t args[6])
{
	struct seccomp_data d = {.nr = nr, .arch = arch};
	int fault;
	memcpy(d.args, args, sizeof(d.args));
	d.instruction_pointer = 0x7f0000001000ull;
	uint32_t ret = ward_bpf_run(p, n, &d, &fault, NULL);
	return fault ? 0xdeadbeef : ret;
}

static void report(const char *what, uint32_t call_arch, int32_t nr,
		   const uint64_t a[6], uint32_t got, uint32_t want)
{
	fprintf(stderr,
		"  mismatch (%s): arch 0x%x nr %d args {0x%llx, 0x%llx, "
		"0x%llx, 0x%llx, 0x%llx, 0x%llx}: program 0x%08x, rules "
		"0x%08x\n",
		what, call_arch, nr, (unsigned long long)a[0],
		(unsigned long long)a[1], (unsigned long long)a[2],
		(unsigned long long)a[3], (unsigned long long)a[4],
		(unsigned long long)a[5], got, want);
}

static void check_call(const struct sock_filter *p, uint32_t n,
		       const struct ward_rules *r, uint32_t arch,
		       uint32_t call_arch, int32_t nr, const uint64_t args[6],
		       struct diff_stats *st, bool verbose, const char *what)
{
	uint32_t got = run(p, n, call_arch, nr, args);
	uint32_t want = rules_eval_call(r, arch, call_arch, nr, args);
	st->calls++;
	if (got != want) {
		if (verbose && st->mismatches < 5)
			report(what, call_arch, nr, args, got, want);
		st->mismatches++;
	}
}

/* Every argument vector of interest for one syscall with conditions. */
static void check_syscall_args(const struct sock_filter *p, uint32_t n,
			       const struct ward_rules *r, uint32_t arch,
			       const struct ward_syscall_rule *sc,
			       struct diff_stats *st, bool verbose,
			       uint64_t *rng)
{
	uint64_t vals[6][MAX_VALS];
	uint32_t nvals[6];
	uint64_t total = 1;

	for (unsigned a = 0; a < 6; a++) {
		nvals[a] = arg_values(sc, a, vals[a]);
		total *= nvals[a];
	}
	uint64_t args[6];
	if (total <= MAX_VECTORS) {
		/* the whole cross product */
		uint32_t idx[6] = {0};
		for (;;) {
			for (unsigned a = 0; a < 6; a++)
				args[a] = vals[a][idx[a]];
			check_call(p, n, r, arch, arch, sc->nr, args, st,
				   verbose, "cross product");
			int a = 5;
			for (; a >= 0; a--) {
				if (++idx[a] < nvals[a])
					break;
				idx[a] = 0;
			}
			if (a < 0)
				break;
		}
	} else {
		for (uint32_t i = 0; i < MAX_VECTORS; i++) {
			for (unsigned a = 0; a < 6; a++)
				args[a] = vals[a][rr_below(rng, nvals[a])];
			check_call(p, n, r, arch, arch, sc->nr, args, st,
				   verbose, "sampled product");
		}
	}
	/* arguments no rule looks at must not matter */
	for (uint32_t i = 0; i < 16; i++) {
		for (unsigned a = 0; a < 6; a++)
			args[a] = rr_next(rng);
		check_call(p, n, r, arch, arch, sc->nr, args, st, verbose,
			   "random");
	}
}

/* Compare the program p of r with the oracle; returns the statistics. */
static struct diff_stats diff_program(const struct sock_filter *p, uint32_t n,
				      const struct ward_rules *r, uint32_t arch,
				      bool verbose)
{
	struct diff_stats st = {0};
	uint64_t rng = 42;
	const uint64_t zero[6] = {0};
	uint64_t args[6];

	for (int32_t nr = 0; nr < NR_SWEEP; nr++) {
		check_call(p, n, r, arch, arch, nr, zero, &st, verbose,
			   "sweep");
		for (unsigned a = 0; a < 6; a++)
			args[a] = rr_next(&rng);
		check_call(p, n, r, arch, arch, nr, args, &st, verbose,
			   "sweep");
		/* the x32 ABI, other architectures */
		check_call(p, n, r, arch, arch, nr | 0x40000000, zero, &st,
			   verbose, "x32");
		check_call(p, n, r, arch, arch_of_other(arch), nr, zero, &st,
			   verbose, "foreign arch");
	}
	const int32_t odd[] = {-1, -2, INT32_MIN, 0x3fffffff, 0x7fffffff};
	for (size_t i = 0; i < ARRAY_LEN(odd); i++)
		check_call(p, n, r, arch, arch, odd[i], zero, &st, verbose,
			   "odd nr");
	check_call(p, n, r, arch, AUDIT_ARCH_X86_64 ^ AUDIT_ARCH_AARCH64 ^ arch,
		   0, zero, &st, verbose, "the other target");
	for (uint32_t i = 0; i < r->nsyscalls; i++)
		if (r->syscalls[i].nconds)
			check_syscall_args(p, n, r, arch, &r->syscalls[i], &st,
					   verbose, &rng);
	return st;
}

/* Compile with opts (NULL: defaults) and compare; -1 if it does not
 * compile (err filled). */
static int diff_rules_opts(const struct ward_rules *r, uint32_t arch,
			   const struct ward_seccomp_opts *opts,
			   struct diff_stats *st, bool verbose, ward_err *err)
{
	struct sock_filter *p = NULL;
	uint32_t n = 0;
	if (ward_seccomp_compile_opts(r, arch, opts, &p, &n, err) < 0)
		return -1;
	*st = diff_program(p, n, r, arch, verbose);
	/* no marker of the splice may be left, reachable or not */
	for (uint32_t i = 0; i < n; i++)
		if (p[i].code == (BPF_RET | BPF_K) &&
		    (p[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRACE)
			st->mismatches++;
	free(p);
	return 0;
}

static int diff_rules(const struct ward_rules *r, uint32_t arch,
		      struct diff_stats *st, bool verbose, ward_err *err)
{
	return diff_rules_opts(r, arch, NULL, st, verbose, err);
}

/* Compile (it must), compare (nothing may differ). */
static void assert_agrees_opts(const struct ward_rules *r, uint32_t arch,
			       const struct ward_seccomp_opts *opts)
{
	struct diff_stats st;
	ward_err err = {0};
	char buf[600];
	int rc = diff_rules_opts(r, arch, opts, &st, true, &err);
	if (rc < 0)
		fail_msg("compile: %s", ward_err_str(&err, buf, sizeof(buf)));
	if (st.mismatches) {
		rr_print(stderr, r);
		fail_msg("%u of %llu calls differ from the rules",
			 st.mismatches, (unsigned long long)st.calls);
	}
	assert_true(st.calls > 4 * NR_SWEEP);
}

static void assert_agrees(const struct ward_rules *r, uint32_t arch)
{
	assert_agrees_opts(r, arch, NULL);
}

static void assert_both_arches(const struct ward_rules *r)
{
	assert_agrees(r, WARD_ARCH_X86_64);
	assert_agrees(r, WARD_ARCH_AARCH64);
}

/* The program's result for one call, for exact spot checks. */
static uint32_t result_of(const struct ward_rules *r, uint32_t arch, int32_t nr,
			  uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct sock_filter *p = NULL;
	uint32_t n = 0;
	ward_err err = {0};
	const uint64_t args[6] = {a0, a1, a2, 0, 0, 0};
	assert_int_equal(ward_seccomp_compile(r, arch, &p, &n, &err), 0);
	uint32_t ret = run(p, n, arch, nr, args);
	free(p);
	return ret;
}

#define RET_ERRNO(n) (SECCOMP_RET_ERRNO | (n))

/* ------------------------------------------------------------ hand-written */

/* One syscall per comparison operator, 32- and 64-bit values. */
static void test_every_op(void **state)
{
	const struct ward_cmp eq[] = {CMP(0, EQ, 5)};
	const struct ward_cmp ne[] = {CMP(0, NE, 5)};
	const struct ward_cmp lt[] = {CMP(0, LT, 5)};
	const struct ward_cmp le[] = {CMP(0, LE, 5)};
	const struct ward_cmp gt[] = {CMP(0, GT, 5)};
	const struct ward_cmp ge[] = {CMP(0, GE, 5)};
	const struct ward_cmp meq[] = {MCMP(0, MASKED_EQ, 0xf0, 0x30)};
	const struct ward_cmp mne[] = {MCMP(0, MASKED_NE, 0xf0, 0x30)};
	const struct ward_cmp gt64[] = {CMP(1, GT, 0x100000000ull)};
	const struct ward_cmp lt64[] = {CMP(1, LT, 0x100000000ull)};
	const struct ward_cmp meq64[] = {
	    MCMP(2, MASKED_EQ, 0xffffffff00000000ull, 0x500000000ull)};
	const struct ward_cmp mne64[] = {
	    MCMP(2, MASKED_NE, 0x8000000100000001ull, 0x100000000ull)};
	const struct ward_cond_rule c_eq[] = {COND(ACT(ALLOW), eq)};
	const struct ward_cond_rule c_ne[] = {COND(ACT(ALLOW), ne)};
	const struct ward_cond_rule c_lt[] = {COND(ACT(ALLOW), lt)};
	const struct ward_cond_rule c_le[] = {COND(ACT(ALLOW), le)};
	const struct ward_cond_rule c_gt[] = {COND(ACT(ALLOW), gt)};
	const struct ward_cond_rule c_ge[] = {COND(ACT(ALLOW), ge)};
	const struct ward_cond_rule c_meq[] = {COND(ACT(ALLOW), meq)};
	const struct ward_cond_rule c_mne[] = {COND(ACT(ALLOW), mne)};
	const struct ward_cond_rule c_gt64[] = {COND(ACT(ALLOW), gt64)};
	const struct ward_cond_rule c_lt64[] = {COND(ACT(ALLOW), lt64)};
	const struct ward_cond_rule c_meq64[] = {COND(ACT(ALLOW), meq64)};
	const struct ward_cond_rule c_mne64[] = {COND(ACT(ALLOW), mne64)};
	const struct ward_syscall_rule sc[] = {
	    SYSCALL(0, c_eq),	SYSCALL(1, c_ne),     SYSCALL(2, c_lt),
	    SYSCALL(3, c_le),	SYSCALL(4, c_gt),     SYSCALL(5, c_ge),
	    SYSCALL(6, c_meq),	SYSCALL(7, c_mne),    SYSCALL(8, c_gt64),
	    SYSCALL(9, c_lt64), SYSCALL(10, c_meq64), SYSCALL(11, c_mne64)};
	const struct ward_rules r = RULES(ERRNO(38), sc);

	assert_both_arches(&r);
	/* spot checks, exact */
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 0, 5, 0, 0),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(
	    result_of(&r, WARD_ARCH_X86_64, 0, 5 | 1ull << 32, 0, 0),
	    RET_ERRNO(38));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 7, 0x3f, 0, 0),
			 RET_ERRNO(38));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 7, 0x20, 0, 0),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(
	    result_of(&r, WARD_ARCH_X86_64, 8, 0, 0x100000001ull, 0),
	    SECCOMP_RET_ALLOW);
	assert_int_equal(
	    result_of(&r, WARD_ARCH_X86_64, 8, 0, 0x100000000ull, 0),
	    RET_ERRNO(38));
}

/* ioctl-like: two allowed requests, a kill, and an overlapping errno
 * rule on two arguments. Given to libseccomp 2.5.4 as rules, this table
 * came out wrong: (a0 = 0, a1 = 0x5400) got ERRNO(1), because a test meant
 * for args[0] ran on args[1]'s word after a failed branch. */
static void test_overlapping_actions(void **state)
{
	const struct ward_cmp tcgets[] = {CMP(1, EQ, 0x5401)};
	const struct ward_cmp fionread[] = {CMP(1, EQ, 0x541b)};
	const struct ward_cmp tiocsti[] = {CMP(1, EQ, 0x5412)};
	const struct ward_cmp fd_req[] = {CMP(0, GT, 2), CMP(1, LT, 0x5410)};
	const struct ward_cond_rule conds[] = {
	    COND(ACT(ALLOW), tcgets), COND(ACT(ALLOW), fionread),
	    COND(ACT(KILL), tiocsti), COND(ERRNO(1), fd_req)};
	const struct ward_syscall_rule sc[] = {SYSCALL(16, conds)};
	const struct ward_rules r = RULES(ERRNO(38), sc);

	assert_both_arches(&r);
	/* TCGETS on fd 1: allowed; on fd 5: the errno rule is stricter */
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 16, 1, 0x5401, 0),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 16, 5, 0x5401, 0),
			 RET_ERRNO(1));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 16, 5, 0x5412, 0),
			 SECCOMP_RET_USER_NOTIF);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 16, 1, 0x5413, 0),
			 RET_ERRNO(38));
}

/* An unconditional rule with stricter exceptions. */
static void test_fallback_stricter_exceptions(void **state)
{
	const struct ward_cmp netlink[] = {CMP(0, EQ, 16)};
	const struct ward_cmp packet[] = {CMP(0, EQ, 17),
					  MCMP(1, MASKED_EQ, 0xf, 3)};
	const struct ward_cond_rule conds[] = {COND(ERRNO(97), netlink),
					       COND(ACT(KILL), packet)};
	const struct ward_syscall_rule sc[] = {FALLBACK(41, ACT(ALLOW), conds)};
	const struct ward_rules r = RULES(ERRNO(38), sc);

	assert_both_arches(&r);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 41, 2, 1, 0),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 41, 16, 3, 0),
			 RET_ERRNO(97));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 41, 17, 0x13, 0),
			 SECCOMP_RET_USER_NOTIF);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 41, 17, 0x14, 0),
			 SECCOMP_RET_ALLOW);
}

/* `kill setuid; allow setuid if arg0 == 1000`: the exception is less
 * strict than the fallback, and still wins where it matches. */
static void test_exception_less_strict(void **state)
{
	const struct ward_cmp uid[] = {CMP(0, EQ, 1000)};
	const struct ward_cond_rule conds[] = {COND(ACT(ALLOW), uid)};
	const struct ward_syscall_rule sc[] = {FALLBACK(105, ACT(KILL), conds)};
	const struct ward_rules r = RULES(ACT(ALLOW), sc);

	assert_both_arches(&r);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 105, 1000, 0, 0),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 105, 0, 0, 0),
			 SECCOMP_RET_USER_NOTIF);
	assert_int_equal(
	    result_of(&r, WARD_ARCH_X86_64, 105, 1000 | 1ull << 32, 0, 0),
	    SECCOMP_RET_USER_NOTIF);
}

/* errno numbers at both ends; two overlapping errno rules (the checker
 * rejects this, the compiler must still be deterministic: the lower
 * number wins). */
static void test_errno_values(void **state)
{
	const struct ward_cmp lo[] = {CMP(0, LT, 10)};
	const struct ward_cmp lo2[] = {CMP(0, LT, 5)};
	const struct ward_cond_rule conds[] = {COND(ERRNO(4094), lo),
					       COND(ERRNO(2), lo2)};
	const struct ward_syscall_rule sc[] = {FALLBACK(3, ERRNO(1), conds),
					       ONLY(4, ERRNO(4094))};
	const struct ward_rules r = RULES(ERRNO(38), sc);

	assert_both_arches(&r);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 3, 7, 0, 0),
			 RET_ERRNO(4094));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 3, 4, 0, 0),
			 RET_ERRNO(2));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 3, 10, 0, 0),
			 RET_ERRNO(1));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 4, 0, 0, 0),
			 RET_ERRNO(4094));
}

static void test_trap_log_kill_default(void **state)
{
	const struct ward_cmp a[] = {MCMP(0, MASKED_EQ, 0x3, 1)};
	const struct ward_cond_rule conds[] = {COND(ACT(TRAP), a)};
	const struct ward_syscall_rule sc[] = {
	    ONLY(0, ACT(ALLOW)), ONLY(1, ACT(LOG)),
	    FALLBACK(2, ACT(LOG), conds), ONLY(60, ACT(ALLOW))};
	const struct ward_rules r = RULES(ACT(KILL), sc);

	assert_both_arches(&r);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 1, 0, 0, 0),
			 SECCOMP_RET_LOG);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 2, 5, 0, 0),
			 SECCOMP_RET_TRAP);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 2, 6, 0, 0),
			 SECCOMP_RET_LOG);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 59, 0, 0, 0),
			 SECCOMP_RET_USER_NOTIF);
}

static void test_allow_default(void **state)
{
	const struct ward_cmp a[] = {CMP(0, NE, 0)};
	const struct ward_cond_rule conds[] = {COND(ERRNO(1), a)};
	const struct ward_syscall_rule sc[] = {
	    SYSCALL(101, conds), ONLY(165, ERRNO(1)), ONLY(280, ACT(KILL))};
	const struct ward_rules r = RULES(ACT(ALLOW), sc);

	assert_both_arches(&r);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 101, 0, 0, 0),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 101, 1, 0, 0),
			 RET_ERRNO(1));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 999, 0, 0, 0),
			 SECCOMP_RET_ALLOW);
}

/* Comparisons that are constant: a masked == whose value has bits
 * outside the mask never holds, its != always does; mask 0. */
static void test_constant_comparisons(void **state)
{
	const struct ward_cmp never[] = {MCMP(0, MASKED_EQ, 0xf, 0x10)};
	const struct ward_cmp always[] = {MCMP(0, MASKED_NE, 0xf, 0x10)};
	const struct ward_cmp zero_eq[] = {MCMP(1, MASKED_EQ, 0, 0)};
	const struct ward_cmp zero_ne[] = {MCMP(1, MASKED_NE, 0, 0)};
	const struct ward_cond_rule c0[] = {COND(ACT(KILL), never)};
	const struct ward_cond_rule c1[] = {COND(ACT(KILL), always)};
	const struct ward_cond_rule c2[] = {COND(ACT(TRAP), zero_eq)};
	const struct ward_cond_rule c3[] = {COND(ACT(TRAP), zero_ne)};
	const struct ward_syscall_rule sc[] = {
	    FALLBACK(0, ACT(ALLOW), c0), FALLBACK(1, ACT(ALLOW), c1),
	    FALLBACK(2, ACT(ALLOW), c2), FALLBACK(3, ACT(ALLOW), c3)};
	const struct ward_rules r = RULES(ERRNO(38), sc);

	assert_both_arches(&r);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 0, 0x10, 0, 0),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 1, 0x10, 0, 0),
			 SECCOMP_RET_USER_NOTIF);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 2, 0, 7, 0),
			 SECCOMP_RET_TRAP);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 3, 0, 7, 0),
			 SECCOMP_RET_ALLOW);
}

/* Several comparisons on one argument (a libseccomp rule takes one):
 * ranges, a range with a mask, and a fallback with several exceptions on
 * one argument. */
static void test_same_argument_twice(void **state)
{
	const struct ward_cmp range[] = {CMP(0, GE, 3), CMP(0, LT, 1024)};
	const struct ward_cmp odd_big[] = {CMP(0, GT, 5),
					   MCMP(0, MASKED_EQ, 1, 1)};
	const struct ward_cmp r1[] = {CMP(1, EQ, 0x5401)};
	const struct ward_cmp r2[] = {CMP(1, EQ, 0x5402)};
	const struct ward_cmp r3[] = {CMP(1, EQ, 0x540b)};
	const struct ward_cmp r4[] = {CMP(1, EQ, 0x541b)};
	const struct ward_cmp r5[] = {CMP(1, EQ, 0x5421)};
	const struct ward_cond_rule c0[] = {COND(ACT(ALLOW), range)};
	const struct ward_cond_rule c1[] = {COND(ACT(ALLOW), odd_big)};
	const struct ward_cond_rule c16[] = {
	    COND(ACT(ALLOW), r1), COND(ACT(ALLOW), r2), COND(ACT(ALLOW), r3),
	    COND(ACT(ALLOW), r4), COND(ACT(ALLOW), r5)};
	const struct ward_syscall_rule sc[] = {SYSCALL(0, c0), SYSCALL(1, c1),
					       FALLBACK(16, ERRNO(25), c16)};
	const struct ward_rules r = RULES(ERRNO(38), sc);

	assert_both_arches(&r);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 0, 1023, 0, 0),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 0, 1024, 0, 0),
			 RET_ERRNO(38));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 1, 7, 0, 0),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 1, 8, 0, 0),
			 RET_ERRNO(38));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 16, 0, 0x5403, 0),
			 RET_ERRNO(25));
	assert_int_equal(result_of(&r, WARD_ARCH_X86_64, 16, 0, 0x540b, 0),
			 SECCOMP_RET_ALLOW);
}

/* Comparisons that always or never hold are folded away: such a syscall
 * is decided without reading its arguments (libseccomp's plain rule). */
static void test_constant_folding(void **state)
{
	const struct ward_cmp always[] = {CMP(0, GE, 0),
					  CMP(1, LE, UINT64_MAX)};
	const struct ward_cmp never[] = {CMP(0, LT, 0)};
	const struct ward_cmp varies[] = {CMP(0, EQ, 3)};
	const struct ward_cond_rule c_always[] = {COND(ACT(LOG), always),
						  COND(ACT(ALLOW), varies)};
	const struct ward_cond_rule c_never[] = {COND(ACT(KILL), never)};
	const struct ward_cond_rule c_same[] = {COND(ERRNO(38), varies)};
	const struct ward_cond_rule c_varies[] = {COND(ACT(KILL), varies),
						  COND(ACT(LOG), always)};
	const struct ward_syscall_rule always_log = SYSCALL(0, c_always);
	const struct ward_syscall_rule never_kill =
	    FALLBACK(1, ACT(ALLOW), c_never);
	const struct ward_syscall_rule same_as_default = SYSCALL(2, c_same);
	const struct ward_syscall_rule checked = SYSCALL(3, c_varies);
	const struct ward_action dflt = ERRNO(38);
	struct ward_action a;

	assert_true(ward_syscall_const_action(&always_log, &dflt, &a));
	assert_int_equal(a.kind, WARD_ACT_LOG);
	assert_true(ward_syscall_const_action(&never_kill, &dflt, &a));
	assert_int_equal(a.kind, WARD_ACT_ALLOW);
	assert_true(ward_syscall_const_action(&same_as_default, &dflt, &a));
	assert_int_equal(a.kind, WARD_ACT_ERRNO);
	assert_int_equal(a.errno_nr, 38);
	assert_false(ward_syscall_const_action(&checked, &dflt, &a));

	const struct ward_syscall_rule sc[] = {always_log, never_kill,
					       same_as_default, checked};
	const struct ward_rules r = RULES(ERRNO(38), sc);
	assert_both_arches(&r);
}

/* A condition longer than a BPF jump can skip is refused. */
static void test_comparison_cap(void **state)
{
	struct ward_cmp many[WARD_ARGS_MAX_CMPS + 1];
	for (uint32_t i = 0; i < ARRAY_LEN(many); i++)
		many[i] = (struct ward_cmp)MCMP(i % 6, MASKED_NE,
						0xffff0000ffffull << (i % 3),
						0x100000001ull << (i % 3));
	struct ward_cond_rule conds[] = {COND(ACT(ALLOW), many)};
	const struct ward_syscall_rule sc[] = {SYSCALL(0, conds)};
	const struct ward_rules r = RULES(ERRNO(38), sc);
	struct sock_filter *p = NULL;
	uint32_t n = 0;
	ward_err err = {0};

	assert_int_equal(
	    ward_seccomp_compile(&r, WARD_ARCH_X86_64, &p, &n, &err), -1);
	assert_null(p);
	assert_string_equal(err.msg, "seccomp: syscall 0 (nr 0): 41 "
				     "comparisons in one condition (at most "
				     "40)");
	/* 40 of the longest comparison still fit the jumps */
	conds[0].ncmps = WARD_ARGS_MAX_CMPS;
	assert_agrees(&r, WARD_ARCH_X86_64);
}

static void test_bad_input(void **state)
{
	const struct ward_cmp bad_arg[] = {CMP(6, EQ, 1)};
	const struct ward_cond_rule conds[] = {COND(ACT(ALLOW), bad_arg)};
	const struct ward_syscall_rule sc1[] = {SYSCALL(0, conds)};
	const struct ward_syscall_rule unsorted[] = {ONLY(5, ACT(ALLOW)),
						     ONLY(4, ACT(ALLOW))};
	const struct ward_syscall_rule ok[] = {ONLY(5, ACT(ALLOW))};
	const struct ward_rules r1 = RULES(ERRNO(38), sc1);
	const struct ward_rules r2 = RULES(ERRNO(38), unsorted);
	const struct ward_rules r3 = RULES(ERRNO(0), ok);
	const struct ward_rules r4 = RULES(ERRNO(4095), ok);
	const struct ward_rules r5 = RULES(ERRNO(38), ok);
	struct sock_filter *p = NULL;
	uint32_t n = 0;
	ward_err err = {0};

	assert_int_equal(
	    ward_seccomp_compile(&r1, WARD_ARCH_X86_64, &p, &n, &err), -1);
	assert_non_null(strstr(err.msg, "bad comparison (arg 6"));
	assert_int_equal(
	    ward_seccomp_compile(&r2, WARD_ARCH_X86_64, &p, &n, &err), -1);
	assert_non_null(strstr(err.msg, "not sorted"));
	assert_int_equal(
	    ward_seccomp_compile(&r3, WARD_ARCH_X86_64, &p, &n, &err), -1);
	assert_non_null(strstr(err.msg, "errno 0 outside 1..4094"));
	assert_int_equal(
	    ward_seccomp_compile(&r4, WARD_ARCH_X86_64, &p, &n, &err), -1);
	assert_non_null(strstr(err.msg, "errno 4095 outside 1..4094"));
	assert_int_equal(
	    ward_seccomp_compile(&r5, AUDIT_ARCH_I386, &p, &n, &err), -1);
	assert_non_null(strstr(err.msg, "is not a target"));
	assert_null(p);
}

/* ------------------------------------------------------------ newer syscalls
 */

/* A rule for each syscall of ward's table that libseccomp cannot name
 * (Linux 6.8 and later): every kind of action, some argument-checked,
 * beside a few it knows, on both targets. */
static void test_newer_syscalls(void **state)
{
	static const uint32_t arches[] = {WARD_ARCH_X86_64, WARD_ARCH_AARCH64};
	static const struct ward_cmp a0_is_3[] = {CMP(0, EQ, 3)};
	static const struct ward_cond_rule c_a0[] = {
	    COND(ERRNO(EXDEV), a0_is_3)};

	for (size_t a = 0; a < ARRAY_LEN(arches); a++) {
		struct ward_syscall_rule sc[512];
		uint32_t n = 0, newer = 0;

		for (int32_t nr = 0; nr < 512; nr++) {
			const char *name = ward_sys_name(arches[a], nr);
			char *lib;
			if (!name)
				continue;
			lib = seccomp_syscall_resolve_num_arch(arches[a], nr);
			free(lib);
			if (lib && nr % 7)
				continue; /* a few libseccomp knows */
			newer += !lib;
			sc[n] =
			    (struct ward_syscall_rule){.nr = nr, .name = name};
			if (n % 3 == 0) {
				sc[n].conds = c_a0;
				sc[n].nconds = 1;
			}
			if (n % 3 != 1) {
				static const struct ward_action acts[] = {
				    ACT(ALLOW), ACT(LOG), ERRNO(EPERM),
				    ACT(TRAP), ACT(KILL)};
				sc[n].has_fallback = true;
				sc[n].fallback = acts[n % ARRAY_LEN(acts)];
			}
			n++;
		}
		assert_true(newer >= 15); /* mseal, statmount, listns, ... */
		const struct ward_rules r = {.default_action = ERRNO(ENOSYS),
					     .syscalls = sc,
					     .nsyscalls = n};
		assert_agrees(&r, arches[a]);
		/* and in libseccomp's other layout */
		const struct ward_seccomp_opts list = {.optimize = 1};
		assert_agrees_opts(&r, arches[a], &list);
	}
}

/* Without such syscalls there is no dispatch of ward's: the program is
 * libseccomp's frame and the argument checks, as before. */
static void test_no_own_dispatch(void **state)
{
	const struct ward_syscall_rule sc[] = {ONLY(SYS_getppid, ACT(ALLOW))};
	const int32_t mseal = ward_sys_nr(WARD_ARCH_X86_64, "mseal");
	const struct ward_syscall_rule sc2[] = {ONLY(SYS_getppid, ACT(ALLOW)),
						{.nr = mseal,
						 .name = "mseal",
						 .has_fallback = true,
						 .fallback = ERRNO(EPERM)}};
	const struct ward_rules r = RULES(ERRNO(ENOSYS), sc);
	const struct ward_rules r2 = RULES(ERRNO(ENOSYS), sc2);
	struct sock_filter *p = NULL, *p2 = NULL;
	uint32_t n = 0, n2 = 0;
	ward_err err = {0};

	assert_int_equal(mseal, 462);
	assert_int_equal(
	    ward_seccomp_compile(&r, WARD_ARCH_X86_64, &p, &n, &err), 0);
	assert_int_equal(
	    ward_seccomp_compile(&r2, WARD_ARCH_X86_64, &p2, &n2, &err), 0);
	/* "ld nr; jeq 462; ret ERRNO(EPERM); ret default" */
	assert_int_equal(n2, n + 4);
	assert_int_equal(run(p2, n2, WARD_ARCH_X86_64, mseal, (uint64_t[6]){0}),
			 RET_ERRNO(EPERM));
	assert_int_equal(run(p, n, WARD_ARCH_X86_64, mseal, (uint64_t[6]){0}),
			 RET_ERRNO(ENOSYS));
	free(p);
	free(p2);
}

/* ------------------------------------------------------------ pools */

/* Syscall numbers for random tables: any number below 480, on both
 * targets. Those libseccomp has no name for (on aarch64 the numbers it
 * does not know, and the syscalls newer than its tables on both) go to
 * ward's own dispatch (seccomp_gen.c). */
static uint32_t make_pool(uint32_t arch, int32_t *pool, uint32_t max)
{
	uint32_t n = 0;
	for (int32_t nr = 0; nr < 480 && n < max; nr++)
		pool[n++] = nr;
	return n;
}

/* Every syscall libseccomp knows on aarch64, each with a rule: the
 * number translation through native names must land on each one. */
static void test_aarch64_every_number(void **state)
{
	int32_t pool[512];
	uint32_t n = 0;
	for (int32_t nr = 0; nr < 512; nr++) {
		char *name =
		    seccomp_syscall_resolve_num_arch(WARD_ARCH_AARCH64, nr);
		if (name)
			pool[n++] = nr;
		free(name);
	}
	struct ward_syscall_rule *sc = calloc(n, sizeof(*sc));
	assert_non_null(sc);
	assert_true(n > 250);
	for (uint32_t i = 0; i < n; i++) {
		sc[i].nr = pool[i];
		sc[i].name = "any";
		sc[i].has_fallback = true;
		sc[i].fallback.kind = i % 2 ? WARD_ACT_ALLOW : WARD_ACT_LOG;
	}
	const struct ward_rules r = {
	    .default_action = ERRNO(38), .syscalls = sc, .nsyscalls = n};
	assert_agrees(&r, WARD_ARCH_AARCH64);
	free(sc);
}

/* A container-sized table: every other syscall number libseccomp knows on
 * aarch64 (x86_64 takes any number) with a rule of some kind, every fifth
 * of those argument-checked, under both of libseccomp's layouts (binary
 * tree and list). */
static void test_big_table_both_layouts(void **state)
{
	static struct ward_syscall_rule sc[160];
	static const struct ward_cmp a0_small[] = {CMP(0, LT, 16)};
	static const struct ward_cmp a1_flag[] = {
	    MCMP(1, MASKED_EQ, 0x80000, 0x80000), CMP(2, NE, 0)};
	static const struct ward_cond_rule conds[] = {
	    COND(ACT(ALLOW), a0_small), COND(ERRNO(1), a1_flag)};
	const struct ward_action acts[] = {ACT(ALLOW), ACT(LOG), ERRNO(13),
					   ACT(TRAP), ACT(KILL)};
	uint32_t n = 0;
	int32_t pool[512];
	uint32_t npool = make_pool(WARD_ARCH_AARCH64, pool, ARRAY_LEN(pool));

	for (uint32_t i = 0; i < npool && n < ARRAY_LEN(sc); i += 2) {
		struct ward_syscall_rule *s = &sc[n];
		memset(s, 0, sizeof(*s));
		s->nr = pool[i];
		s->name = "big";
		s->has_fallback = true;
		s->fallback = acts[n % ARRAY_LEN(acts)];
		if (n % 5 == 0) {
			s->conds = conds;
			s->nconds = ARRAY_LEN(conds);
		}
		n++;
	}
	const struct ward_rules r = {
	    .default_action = ERRNO(38), .syscalls = sc, .nsyscalls = n};
	const struct ward_seccomp_opts tree = {.optimize = 2};
	const struct ward_seccomp_opts list = {.optimize = 1};
	assert_true(n > 120);
	for (int a = 0; a < 2; a++) {
		uint32_t arch = a ? WARD_ARCH_AARCH64 : WARD_ARCH_X86_64;
		assert_agrees_opts(&r, arch, &tree);
		assert_agrees_opts(&r, arch, &list);
	}
}

/* ------------------------------------------------------------ random */

struct shrink_ctx {
	uint32_t arch;
};

static bool still_fails(const struct ward_rules *r, void *ctx)
{
	const struct shrink_ctx *sc = ctx;
	struct diff_stats st;
	ward_err err = {0};
	if (diff_rules(r, sc->arch, &st, false, &err) < 0)
		return false;
	return st.mismatches > 0;
}

static void random_tables(uint32_t arch, uint64_t seed)
{
	int32_t pool[512];
	uint32_t npool = make_pool(arch, pool, ARRAY_LEN(pool));
	/* a few syscalls, from a small part of the pool, so that the
	 * tables meet the same numbers often */
	const struct rr_params params = {.pool = pool,
					 .npool = npool < 64 ? npool : 64,
					 .max_syscalls = 4,
					 .max_conds = 4,
					 .max_cmps = 3};
	uint64_t rng = seed;
	uint32_t failed = 0;
	uint64_t calls = 0;
	char buf[600];

	for (uint32_t t = 0; t < RANDOM_TABLES; t++) {
		struct ward_rules r;
		struct diff_stats st;
		ward_err err = {0};
		assert_int_equal(rr_generate(&rng, &params, &r), 0);
		if (diff_rules(&r, arch, &st, false, &err) < 0) {
			rr_print(stderr, &r);
			fail_msg("table %u: %s", t,
				 ward_err_str(&err, buf, sizeof(buf)));
		} else if (st.mismatches) {
			struct shrink_ctx ctx = {arch};
			fprintf(stderr, "table %u: %u mismatches; shrunk:\n", t,
				st.mismatches);
			assert_int_equal(rr_shrink(&r, still_fails, &ctx), 0);
			rr_print(stderr, &r);
			diff_rules(&r, arch, &st, true, &err);
			failed++;
		}
		calls += st.calls;
		rr_free(&r);
		if (failed >= 3)
			break;
	}
	fprintf(stderr, "  arch 0x%x: %u tables, %llu calls compared\n", arch,
		RANDOM_TABLES, (unsigned long long)calls);
	assert_int_equal(failed, 0);
}

static void test_random_x86_64(void **state)
{
	random_tables(WARD_ARCH_X86_64, 0x5eed0001);
}

static void test_random_aarch64(void **state)
{
	random_tables(WARD_ARCH_AARCH64, 0x5eed0002);
}

/* The shrinker itself: a predicate that fails while syscall 7 has a
 * comparison against 0x100 must shrink to exactly that. */
static bool has_cmp_0x100(const struct ward_rules *r, void *ctx)
{
	for (uint32_t i = 0; i < r->nsyscalls; i++)
		for (uint32_t j = 0; j < r->syscalls[i].nconds; j++)
			for (uint32_t k = 0; k < r->syscalls[i].conds[j].ncmps;
			     k++)
				if (r->syscalls[i].nr == 7 &&
				    r->syscalls[i].conds[j].cmps[k].value ==
					0x100)
					return true;
	return false;
}

static void test_shrinker(void **state)
{
	const struct ward_cmp a[] = {CMP(0, EQ, 5), CMP(1, GT, 0x100),
				     CMP(2, LT, 9)};
	const struct ward_cmp b[] = {CMP(0, NE, 3)};
	const struct ward_cond_rule conds[] = {COND(ACT(ALLOW), b),
					       COND(ACT(KILL), a)};
	const struct ward_syscall_rule sc[] = {FALLBACK(3, ACT(TRAP), conds),
					       FALLBACK(7, ACT(LOG), conds)};
	const struct ward_rules src = RULES(ERRNO(38), sc);
	struct ward_rules r;

	assert_int_equal(rr_clone(&src, &r), 0);
	assert_int_equal(rr_shrink(&r, has_cmp_0x100, NULL), 0);
	assert_int_equal(r.nsyscalls, 1);
	assert_int_equal(r.syscalls[0].nr, 7);
	assert_false(r.syscalls[0].has_fallback);
	assert_int_equal(r.syscalls[0].nconds, 1);
	assert_int_equal(r.syscalls[0].conds[0].ncmps, 1);
	assert_int_equal(r.syscalls[0].conds[0].cmps[0].arg, 0);
	assert_int_equal(r.syscalls[0].conds[0].cmps[0].op, WARD_CMP_EQ);
	assert_int_equal(r.syscalls[0].conds[0].action.kind, WARD_ACT_ALLOW);
	rr_free(&r);
}

/* ------------------------------------------------------------ size */

/* Enough argument-checked syscalls to pass 4096 instructions. */
static void test_too_many_instructions(void **state)
{
	enum { NSC = 300, NCONDS = 4 };
	struct ward_syscall_rule *sc = calloc(NSC, sizeof(*sc));
	struct ward_cond_rule *conds = calloc(NSC * NCONDS, sizeof(*conds));
	struct ward_cmp *cmps = calloc(NSC * NCONDS, sizeof(*cmps));
	assert_true(sc && conds && cmps);
	for (uint32_t i = 0; i < NSC; i++) {
		sc[i].nr = (int32_t)i;
		sc[i].name = "big";
		sc[i].conds = &conds[i * NCONDS];
		sc[i].nconds = NCONDS;
		for (uint32_t j = 0; j < NCONDS; j++) {
			struct ward_cmp *c = &cmps[i * NCONDS + j];
			c->arg = (uint8_t)j;
			c->op = WARD_CMP_EQ;
			c->value = 1000 + i;
			conds[i * NCONDS + j] = (struct ward_cond_rule){
			    .cmps = c, .ncmps = 1, .action = ACT(ALLOW)};
		}
	}
	const struct ward_rules r = {
	    .default_action = ERRNO(38), .syscalls = sc, .nsyscalls = NSC};
	struct sock_filter *p = NULL;
	uint32_t n = 0;
	ward_err err = {0};

	assert_int_equal(
	    ward_seccomp_compile(&r, WARD_ARCH_X86_64, &p, &n, &err), -1);
	assert_null(p);
	unsigned got = 0;
	assert_int_equal(sscanf(err.msg, "seccomp: the program has %u", &got),
			 1);
	assert_true(got > 4096);
	assert_non_null(
	    strstr(err.msg, "more than the kernel's limit of 4096"));

	/* a quarter of it fits */
	struct ward_rules small = r;
	small.nsyscalls = NSC / 4;
	assert_int_equal(
	    ward_seccomp_compile(&small, WARD_ARCH_X86_64, &p, &n, &err), 0);
	assert_true(n <= 4096);
	free(p);
	free(sc);
	free(conds);
	free(cmps);
}

/* ------------------------------------------------------------ real loading */

/*
 * Run body() in a child that installed the program of r, and report how it
 * ended. body() exits through exit_group directly (no atexit handlers,
 * which may make syscalls the filter forbids) with a code it chooses.
 */
struct outcome {
	bool signaled;
	int sig;  /* signaled */
	int code; /* exited */
};

static void exit_now(int code)
{
	syscall(SYS_exit_group, code);
	__builtin_unreachable();
}

static struct outcome in_child(const struct ward_rules *r, int (*body)(void *),
			       void *arg)
{
#ifndef __x86_64__
	skip(); /* the programs are compiled for x86_64 */
#endif
	struct sock_filter *p = NULL;
	uint32_t n = 0;
	ward_err err = {0};
	struct outcome o = {0};

	if (ward_seccomp_compile(r, WARD_ARCH_X86_64, &p, &n, &err) < 0)
		fail_msg("compile: %s", err.msg);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sock_fprog prog = {.len = (unsigned short)n,
					  .filter = p};
		/* a seccomp kill must not leave a core file behind */
		struct rlimit no_core = {0, 0};
		if (setrlimit(RLIMIT_CORE, &no_core) < 0 ||
		    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
			exit_now(199);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			exit_now(200);
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			exit_now(201);
		exit_now(body(arg));
	}
	free(p);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status)) {
		o.signaled = true;
		o.sig = WTERMSIG(status);
	} else {
		o.code = WEXITSTATUS(status);
	}
	return o;
}

/* Exit codes: 0 as expected, 1.. which check failed. */
static int body_basic(void *arg)
{
	struct utsname u;
	int fds[2];
	pid_t parent = *(pid_t *)arg;

	if (syscall(SYS_getppid) != parent)
		return 1;
	/* errno rule with a chosen number */
	if (syscall(SYS_uname, &u) != -1 || errno != ENOMSG)
		return 2;
	/* a condition on dup3's flags */
	if (pipe(fds) < 0)
		return 3;
	if (syscall(SYS_dup3, fds[0], 100, O_CLOEXEC) != -1 || errno != EAGAIN)
		return 4;
	if (syscall(SYS_dup3, fds[0], 100, 0) != 100)
		return 5;
	/* a condition on prctl's option */
	if (syscall(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0) != -1 ||
	    errno != EXDEV)
		return 6;
	if (syscall(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return 7;
	/* log: allowed */
	if (syscall(SYS_getuid) != (long)getuid())
		return 8;
	return 0;
}

static int body_call_nr(void *arg)
{
	long nr = *(long *)arg;
	syscall(nr, 0, 0, 0, 0, 0, 0);
	return 99; /* still alive */
}

static int body_call_enosys(void *arg)
{
	long nr = *(long *)arg;
	if (syscall(nr, 0, 0, 0, 0, 0, 0) != -1 || errno != ENOSYS)
		return 1;
	return 0;
}

static void test_load_basic(void **state)
{
	const struct ward_cmp cloexec[] = {
	    MCMP(2, MASKED_EQ, O_CLOEXEC, O_CLOEXEC)};
	const struct ward_cmp dumpable[] = {CMP(0, EQ, PR_GET_DUMPABLE)};
	const struct ward_cond_rule c_dup3[] = {COND(ERRNO(EAGAIN), cloexec)};
	const struct ward_cond_rule c_prctl[] = {COND(ERRNO(EXDEV), dumpable)};
	/* sorted by number, as the contract wants */
	const struct ward_syscall_rule sc[] = {
	    ONLY(SYS_uname, ERRNO(ENOMSG)),	      /* 63 */
	    ONLY(SYS_getuid, ACT(LOG)),		      /* 102 */
	    ONLY(SYS_getpgrp, ACT(KILL)),	      /* 111 */
	    FALLBACK(SYS_prctl, ACT(ALLOW), c_prctl), /* 157 */
	    SYSCALL(SYS_dup3, c_dup3),		      /* 292 */
	};
	const struct ward_rules r = RULES(ACT(ALLOW), sc);
	pid_t me = getpid();
	long nr;
	struct outcome o;

	o = in_child(&r, body_basic, &me);
	assert_false(o.signaled);
	assert_int_equal(o.code, 0);

	/* a kill rule is a user notification that ward's supervisor answers
	 * by killing the sandbox; with no listener (no supervisor) the call
	 * does not run and fails with ENOSYS */
	nr = SYS_getpgrp;
	o = in_child(&r, body_call_enosys, &nr);
	assert_false(o.signaled);
	assert_int_equal(o.code, 0);

	/* the x32 ABI: killed even though getppid is allowed */
	nr = SYS_getppid | 0x40000000;
	o = in_child(&r, body_call_nr, &nr);
	assert_true(o.signaled);
	assert_int_equal(o.sig, SIGSYS);

	/* and the same call through the x86_64 ABI lives */
	nr = SYS_getppid;
	o = in_child(&r, body_call_nr, &nr);
	assert_false(o.signaled);
	assert_int_equal(o.code, 99);
}

static volatile sig_atomic_t trapped_nr = -1;

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	trapped_nr = si->si_syscall;
}

/* trap: SIGSYS the program catches; it learns the syscall number. */
static int body_trap(void *arg)
{
	struct sigaction sa = {.sa_sigaction = on_sigsys,
			       .sa_flags = SA_SIGINFO};
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) < 0)
		return 1;
	syscall(SYS_getpriority, 0, 0);
	if (trapped_nr != -1)
		return 2; /* who 0: allowed */
	syscall(SYS_getpriority, 1, 0);
	if (trapped_nr != SYS_getpriority)
		return 3;
	return 0;
}

/* A deny-by-default program: only what the child needs is allowed. */
static int body_default_errno(void *arg)
{
	if (syscall(SYS_getuid) != -1 || errno != ENOSYS)
		return 1;
	if (syscall(SYS_getppid) <= 0)
		return 2;
	return 0;
}

static void test_load_trap_and_default(void **state)
{
	const struct ward_cmp which[] = {CMP(0, NE, 0)};
	const struct ward_cond_rule c_prio[] = {COND(ACT(TRAP), which)};
	const struct ward_syscall_rule sc[] = {
	    ONLY(SYS_rt_sigaction, ACT(ALLOW)),		   /* 13 */
	    ONLY(SYS_rt_sigreturn, ACT(ALLOW)),		   /* 15 */
	    ONLY(SYS_getppid, ACT(ALLOW)),		   /* 110 */
	    FALLBACK(SYS_getpriority, ACT(ALLOW), c_prio), /* 140 */
	    ONLY(SYS_exit_group, ACT(ALLOW)),		   /* 231 */
	};
	const struct ward_rules r = RULES(ERRNO(ENOSYS), sc);
	struct outcome o;

	o = in_child(&r, body_trap, NULL);
	assert_false(o.signaled);
	assert_int_equal(o.code, 0);
	o = in_child(&r, body_default_errno, NULL);
	assert_false(o.signaled);
	assert_int_equal(o.code, 0);
}

/* Syscalls newer than libseccomp's tables, on the running kernel: an errno
 * rule answers, an allowed one reaches the kernel (which may lack it: then
 * the kernel's own ENOSYS), the default answers the rest. */
struct newer_calls {
	long mseal, statmount, future, unlisted;
};

static int body_newer(void *arg)
{
	const struct newer_calls *c = arg;
	long r;

	if (syscall(c->mseal, 0, 0, 0) != -1 || errno != EPERM)
		return 1;
	/* allowed: the kernel's own answer, never the policy's errnos */
	r = syscall(c->statmount, 0, 0, 0, 0);
	if (r != -1 || errno == EPERM || errno == EOWNERDEAD)
		return 2;
	/* allowed, and newer than any kernel: the kernel says ENOSYS */
	if (syscall(c->future, 0, 0, 0) != -1 || errno != ENOSYS)
		return 3;
	/* no rule: the default */
	if (syscall(c->unlisted, 0, 0, 0) != -1 || errno != EOWNERDEAD)
		return 4;
	return 0;
}

static void test_load_newer_syscalls(void **state)
{
	const struct newer_calls c = {
	    .mseal = ward_sys_nr(WARD_ARCH_X86_64, "mseal"),
	    .statmount = ward_sys_nr(WARD_ARCH_X86_64, "statmount"),
	    .future = 1000, /* no kernel has it yet */
	    .unlisted = ward_sys_nr(WARD_ARCH_X86_64, "listmount")};
	const struct ward_syscall_rule sc[] = {
	    ONLY(SYS_exit_group, ACT(ALLOW)), /* 231 */
	    {.nr = c.statmount,
	     .name = "statmount",
	     .has_fallback = true,
	     .fallback = ACT(ALLOW)},
	    {.nr = c.mseal,
	     .name = "mseal",
	     .has_fallback = true,
	     .fallback = ERRNO(EPERM)},
	    {.nr = 1000,
	     .name = "future",
	     .has_fallback = true,
	     .fallback = ACT(ALLOW)},
	};
	const struct ward_rules r = RULES(ERRNO(EOWNERDEAD), sc);
	struct outcome o;

	assert_true(c.statmount == 457 && c.mseal == 462 && c.unlisted == 458);
	o = in_child(&r, body_newer, (void *)&c);
	assert_false(o.signaled);
	assert_int_equal(o.code, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_op),
	    cmocka_unit_test(test_overlapping_actions),
	    cmocka_unit_test(test_fallback_stricter_exceptions),
	    cmocka_unit_test(test_exception_less_strict),
	    cmocka_unit_test(test_errno_values),
	    cmocka_unit_test(test_trap_log_kill_default),
	    cmocka_unit_test(test_allow_default),
	    cmocka_unit_test(test_constant_comparisons),
	    cmocka_unit_test(test_same_argument_twice),
	    cmocka_unit_test(test_constant_folding),
	    cmocka_unit_test(test_comparison_cap),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_newer_syscalls),
	    cmocka_unit_test(test_no_own_dispatch),
	    cmocka_unit_test(test_aarch64_every_number),
	    cmocka_unit_test(test_big_table_both_layouts),
	    cmocka_unit_test(test_shrinker),
	    cmocka_unit_test(test_random_x86_64),
	    cmocka_unit_test(test_random_aarch64),
	    cmocka_unit_test(test_too_many_instructions),
	    cmocka_unit_test(test_load_basic),
	    cmocka_unit_test(test_load_trap_and_default),
	    cmocka_unit_test(test_load_newer_syscalls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
