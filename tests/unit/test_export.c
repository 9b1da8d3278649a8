/* SPDX-License-Identifier: MIT */
/*
 * test_export.c: `wardc export` (compiler/interop/export.h).
 *
 * The seccomp entries are checked three ways against the language's own
 * meaning (tests/oracle/rules_eval.h):
 *   - exact entries for small tables (what a reviewer reads);
 *   - read directly: for every call, at most one entry of the syscall may
 *     match (the regions are disjoint), and its action, or the consumer's
 *     default, must be what the rules say;
 *   - built as a runtime builds them (crun's loop over the entries into
 *     libseccomp), the resulting BPF run in the oracle's interpreter.
 * Random rule tables cover the combinations. The config.json and the
 * Kubernetes documents of tests/export/sample.ward are compared with the
 * expected files (WARD_REGEN=1 rewrites them).
 */
#include <errno.h>
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "blob_read.h"
#include "bpf_run.h"
#include "driver.h"
#include "export.h"
#include "policy.h"
#include "syscalls.h"
#include "tests/lib/compiled.h"
#include "tests/oracle/random_rules.h"
#include "tests/oracle/rules_eval.h"

#define RANDOM_TABLES	    250u
#define VECTORS		    300 /* argument vectors per syscall with conditions */
#define RUNTIME_MAX_ENTRIES 300

static unsigned runtime_checked; /* tables built through libseccomp */

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

/* ------------------------------------------------------------ reading */

static bool xcmp_holds(const struct ward_xcmp *c, const uint64_t args[6])
{
	uint64_t a = args[c->arg];
	switch (c->op) {
	case WARD_XOP_EQ:
		return a == c->value;
	case WARD_XOP_NE:
		return a != c->value;
	case WARD_XOP_LT:
		return a < c->value;
	case WARD_XOP_LE:
		return a <= c->value;
	case WARD_XOP_GT:
		return a > c->value;
	case WARD_XOP_GE:
		return a >= c->value;
	case WARD_XOP_MASKED_EQ:
		return (a & c->value) == c->value_two;
	}
	return false;
}

static uint32_t ret_of(struct ward_action a)
{
	switch (a.kind) {
	case WARD_ACT_ALLOW:
		return SECCOMP_RET_ALLOW;
	case WARD_ACT_LOG:
		return SECCOMP_RET_LOG;
	case WARD_ACT_ERRNO:
		return SECCOMP_RET_ERRNO | a.errno_nr;
	case WARD_ACT_TRAP:
		return SECCOMP_RET_TRAP;
	}
	return SECCOMP_RET_KILL_PROCESS;
}

/* The entries naming each syscall number. */
struct entry_index {
	size_t *ids[1024];
	size_t n[1024];
};

static struct entry_index *index_entries(const struct ward_xseccomp *x,
					 uint32_t arch)
{
	struct entry_index *ix = calloc(1, sizeof(*ix));
	assert_non_null(ix);
	for (size_t i = 0; i < x->nentries; i++)
		for (uint32_t k = 0; k < x->entries[i].nnames; k++) {
			/* ward's table: the export names syscalls that
			 * libseccomp 2.5.4 has no name for */
			int nr = ward_sys_nr(arch, x->entries[i].names[k]);
			assert_true(nr >= 0 && nr < 1024);
			ix->ids[nr] = realloc(ix->ids[nr],
					      (ix->n[nr] + 1) * sizeof(size_t));
			assert_non_null(ix->ids[nr]);
			ix->ids[nr][ix->n[nr]++] = i;
		}
	return ix;
}

static void free_index(struct entry_index *ix)
{
	for (int i = 0; i < 1024; i++)
		free(ix->ids[i]);
	free(ix);
}

/* The entries' answer for a call of nr, read directly; *matches counts
 * the entries that match (more than one: the regions overlap). */
static uint32_t read_entries(const struct ward_xseccomp *x,
			     const struct entry_index *ix, int32_t nr,
			     const uint64_t args[6], unsigned *matches)
{
	uint32_t ret = ret_of(x->base);
	*matches = 0;
	for (size_t j = 0; j < ix->n[nr]; j++) {
		const struct ward_xentry *e = &x->entries[ix->ids[nr][j]];
		bool all = true;
		for (uint8_t k = 0; k < e->ncmps && all; k++)
			all = xcmp_holds(&e->cmps[k], args);
		if (all) {
			ret = ret_of(e->action);
			++*matches;
		}
	}
	return ret;
}

/* ---------------------------------------------- as a runtime builds it */

static uint32_t scmp_action(struct ward_action a)
{
	switch (a.kind) {
	case WARD_ACT_ALLOW:
		return SCMP_ACT_ALLOW;
	case WARD_ACT_LOG:
		return SCMP_ACT_LOG;
	case WARD_ACT_ERRNO:
		return SCMP_ACT_ERRNO(a.errno_nr);
	case WARD_ACT_TRAP:
		return SCMP_ACT_TRAP;
	}
	return SCMP_ACT_KILL_PROCESS;
}

static enum scmp_compare scmp_op(uint8_t op)
{
	static const enum scmp_compare ops[] = {
	    [WARD_XOP_EQ] = SCMP_CMP_EQ,
	    [WARD_XOP_NE] = SCMP_CMP_NE,
	    [WARD_XOP_LT] = SCMP_CMP_LT,
	    [WARD_XOP_LE] = SCMP_CMP_LE,
	    [WARD_XOP_GT] = SCMP_CMP_GT,
	    [WARD_XOP_GE] = SCMP_CMP_GE,
	    [WARD_XOP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
	};
	return ops[op];
}

/* crun's libcrun_generate_seccomp, in short: the default action, the
 * native architecture only, each entry's names with its comparisons;
 * entries with the default's action are skipped. */
static void runtime_build(const struct ward_xseccomp *x, int fd)
{
	uint32_t dflt = scmp_action(x->base);
	scmp_filter_ctx ctx = seccomp_init(dflt);
	if (!ctx)
		_exit(2);
	for (size_t i = 0; i < x->nentries; i++) {
		const struct ward_xentry *e = &x->entries[i];
		uint32_t act = scmp_action(e->action);
		if (act == dflt)
			continue;
		struct scmp_arg_cmp c[6];
		for (uint8_t k = 0; k < e->ncmps; k++)
			c[k] = (struct scmp_arg_cmp){
			    e->cmps[k].arg, scmp_op(e->cmps[k].op),
			    e->cmps[k].value, e->cmps[k].value_two};
		for (uint32_t k = 0; k < e->nnames; k++) {
			/* runtimes skip the names their libseccomp lacks */
			int nr = seccomp_syscall_resolve_name(e->names[k]);
			if (nr == __NR_SCMP_ERROR)
				continue;
			if (nr < 0 || seccomp_rule_add_array(ctx, act, nr,
							     e->ncmps, c) < 0)
				_exit(3);
		}
	}
	_exit(seccomp_export_bpf(ctx, fd) < 0 ? 4 : 0);
}

static unsigned runtime_hangs; /* libseccomp did not finish in time */

/* The program a runtime would load (malloc'd), built in a child: libseccomp
 * 2.5.4 can loop for ever on some rule sets (see lower() in
 * export_seccomp.c). NULL when it did not finish within 10 s. */
static struct sock_filter *runtime_program(const struct ward_xseccomp *x,
					   uint32_t *n)
{
	int fd = memfd_create("test-export", MFD_CLOEXEC);
	assert_true(fd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(10);
		runtime_build(x, fd);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		close(fd);
		runtime_hangs++;
		return NULL;
	}
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	struct sock_filter *p = malloc((size_t)st.st_size);
	assert_non_null(p);
	assert_int_equal(pread(fd, p, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	*n = (uint32_t)((size_t)st.st_size / sizeof(*p));
	return p;
}

static uint32_t run(const struct sock_filter *p, uint32_t n, uint32_t arch,
		    int32_t nr, const uint64_t args[6])
{
	struct seccomp_data d = {.nr = nr, .arch = arch};
	int fault;
	memcpy(d.args, args, sizeof(d.args));
	uint32_t ret = ward_bpf_run(p, n, &d, &fault, NULL);
	return fault ? 0xdeadbeef : ret;
}

/* ------------------------------------------------------------ vectors */

#define MAX_VALS 24

static void add_val(uint64_t *vals, uint32_t *n, uint64_t v)
{
	for (uint32_t i = 0; i < *n; i++)
		if (vals[i] == v)
			return;
	if (*n < MAX_VALS)
		vals[(*n)++] = v;
}

/* Values of argument arg worth trying against sc's comparisons. */
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
				add_val(vals, &n, v | ~m);
				add_val(vals, &n, (v & m) ^ (m & -m));
				add_val(vals, &n, v ^ (m & -m));
				add_val(vals, &n, m);
			}
		}
	return n;
}

struct checker {
	const struct ward_rules *r;
	const struct ward_xseccomp *x;
	const struct entry_index *ix;
	const struct sock_filter *prog; /* NULL: not built */
	uint32_t nprog;
	uint32_t arch;
	unsigned overlaps, direct, runtime; /* mismatches */
	uint64_t calls;
};

static void check(struct checker *c, int32_t nr, const char *name,
		  const uint64_t args[6])
{
	/* ward's own program answers `kill`, recorded refusals and the
	 * socket broker's calls with a notification for its broker; a
	 * runtime has none: the export kills, refuses with the errno,
	 * allows */
	uint32_t want = rules_eval_answer(rules_eval(c->r, nr, args));
	unsigned matches;
	uint32_t got = read_entries(c->x, c->ix, nr, args, &matches);
	c->calls++;
	if (matches > 1)
		c->overlaps++;
	if (got != want) {
		if (c->direct < 3)
			fprintf(stderr,
				"  direct: %s(0x%llx, 0x%llx, 0x%llx): "
				"0x%08x, rules 0x%08x\n",
				name, (unsigned long long)args[0],
				(unsigned long long)args[1],
				(unsigned long long)args[2], got, want);
		c->direct++;
	}
	/* a runtime skips the entries of syscalls its libseccomp cannot
	 * name (docs/export.md): they get the default there */
	if (c->prog && seccomp_syscall_resolve_name_arch(c->arch, name) >= 0) {
		got = run(c->prog, c->nprog, AUDIT_ARCH_X86_64, nr, args);
		if (got != want) {
			if (c->runtime < 3)
				fprintf(stderr,
					"  runtime: %s(0x%llx, 0x%llx, "
					"0x%llx): 0x%08x, rules 0x%08x\n",
					name, (unsigned long long)args[0],
					(unsigned long long)args[1],
					(unsigned long long)args[2], got, want);
			c->runtime++;
		}
	}
}

/* Every syscall number with a name, zero and random arguments; the
 * syscalls with conditions with vectors that hit and miss each. */
static void check_all(struct checker *c, uint64_t *rng)
{
	uint64_t args[6] = {0};
	for (int32_t nr = 0; nr < 512; nr++) {
		const char *name = ward_sys_name(c->arch, nr);
		if (!name)
			continue;
		memset(args, 0, sizeof(args));
		check(c, nr, name, args);
		for (unsigned a = 0; a < 6; a++)
			args[a] = rr_next(rng);
		check(c, nr, name, args);
	}
	for (uint32_t i = 0; i < c->r->nsyscalls; i++) {
		const struct ward_syscall_rule *sc = &c->r->syscalls[i];
		if (!sc->nconds)
			continue;
		uint64_t vals[6][MAX_VALS];
		uint32_t nvals[6];
		for (unsigned a = 0; a < 6; a++)
			nvals[a] = arg_values(sc, a, vals[a]);
		for (unsigned v = 0; v < VECTORS; v++) {
			for (unsigned a = 0; a < 6; a++)
				args[a] = vals[a][rr_below(rng, nvals[a])];
			check(c, sc->nr, sc->name, args);
		}
	}
}

/* Name every syscall of a random table as libseccomp does. */
static void name_syscalls(struct ward_rules *r, uint32_t arch)
{
	struct ward_syscall_rule *sc = (struct ward_syscall_rule *)r->syscalls;
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		static char names[512][40];
		char *n = seccomp_syscall_resolve_num_arch(arch, sc[i].nr);
		assert_non_null(n);
		snprintf(names[sc[i].nr], sizeof(names[0]), "%s", n);
		free(n);
		sc[i].name = names[sc[i].nr];
	}
}

/* Export r for base and check it every way; returns the mismatches, or
 * -1 when the export gives up (too many entries) and too_big is set. */
static int check_table_or_big(const struct ward_rules *r, uint32_t arch,
			      struct ward_action base, bool runtime,
			      uint64_t seed, bool *too_big)
{
	struct ward_pool *p = ward_pool_new();
	struct ward_xseccomp x;
	ward_err err = {0};
	char buf[600];
	if (ward_export_seccomp(p, r, arch, base, &x, &err) < 0) {
		ward_pool_free(p);
		if (too_big && strstr(err.msg, "entries")) {
			*too_big = true;
			return 0;
		}
		fail_msg("export: %s", ward_err_str(&err, buf, sizeof(buf)));
	}
	struct entry_index *ix = index_entries(&x, arch);
	struct checker c = {.r = r, .x = &x, .ix = ix, .arch = arch};
	/* libseccomp takes seconds for thousands of rules: a runtime is run
	 * on the tables of a plausible size */
	if (runtime && x.nentries <= RUNTIME_MAX_ENTRIES) {
		c.prog = runtime_program(&x, &c.nprog);
		runtime_checked += c.prog != NULL;
	}
	uint64_t rng = seed;
	check_all(&c, &rng);
	if (c.overlaps || c.direct || c.runtime) {
		rr_print(stderr, r);
		fprintf(stderr,
			"%u overlapping, %u direct and %u runtime mismatches "
			"in %llu calls\n",
			c.overlaps, c.direct, c.runtime,
			(unsigned long long)c.calls);
	}
	free((void *)c.prog);
	free_index(ix);
	ward_pool_free(p);
	return (int)(c.overlaps + c.direct + c.runtime);
}

static unsigned check_table(const struct ward_rules *r, uint32_t arch,
			    struct ward_action base, bool runtime,
			    uint64_t seed)
{
	return (unsigned)check_table_or_big(r, arch, base, runtime, seed, NULL);
}

/* -------------------------------------------------------- exact entries */

/* The entries as one line each: "names action [args]". */
static char *entries_text(const struct ward_rules *r, uint32_t arch,
			  struct ward_action base)
{
	struct ward_pool *p = ward_pool_new();
	struct ward_xseccomp x;
	ward_err err = {0};
	assert_int_equal(ward_export_seccomp(p, r, arch, base, &x, &err), 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	for (size_t i = 0; i < x.nentries; i++) {
		const struct ward_xentry *e = &x.entries[i];
		for (uint32_t k = 0; k < e->nnames; k++)
			fprintf(f, "%s%s", k ? "," : "", e->names[k]);
		fprintf(f, " %s", ward_xaction_name(e->action));
		if (e->action.kind == WARD_ACT_ERRNO)
			fprintf(f, "(%u)", e->action.errno_nr);
		for (uint8_t k = 0; k < e->ncmps; k++)
			fprintf(f, " a%u %s 0x%llx 0x%llx", e->cmps[k].arg,
				ward_xop_name(e->cmps[k].op) + 9,
				(unsigned long long)e->cmps[k].value,
				(unsigned long long)e->cmps[k].value_two);
		fputc('\n', f);
	}
	fclose(f);
	ward_pool_free(p);
	return text;
}

static void assert_entries(const struct ward_rules *r, struct ward_action base,
			   const char *want)
{
	char *got = entries_text(r, WARD_ARCH_X86_64, base);
	if (strcmp(got, want))
		fail_msg("entries:\n%s\nwanted:\n%s", got, want);
	free(got);
	unsigned hangs = runtime_hangs;
	assert_int_equal(check_table(r, WARD_ARCH_X86_64, base, true, 1), 0);
	assert_int_equal(runtime_hangs, hangs);
}

/* Unconditional rules: one entry per action, names in number order, none
 * for the default. */
static void test_plain(void **state)
{
	const struct ward_syscall_rule sc[] = {
	    {.nr = 0,
	     .name = "read",
	     .has_fallback = true,
	     .fallback = ACT(ALLOW)},
	    {.nr = 1,
	     .name = "write",
	     .has_fallback = true,
	     .fallback = ACT(ALLOW)},
	    {.nr = 101,
	     .name = "ptrace",
	     .has_fallback = true,
	     .fallback = ACT(KILL)},
	    {.nr = 165,
	     .name = "mount",
	     .has_fallback = true,
	     .fallback = ERRNO(1)},
	    {.nr = 166,
	     .name = "umount2",
	     .has_fallback = true,
	     .fallback = ERRNO(38)},
	};
	const struct ward_rules r = {.default_action = ERRNO(38),
				     .syscalls = sc,
				     .nsyscalls = ARRAY_LEN(sc)};
	assert_entries(&r, r.default_action,
		       "read,write SCMP_ACT_ALLOW\n"
		       "mount SCMP_ACT_ERRNO(1)\n"
		       "ptrace SCMP_ACT_KILL_PROCESS\n");
}

/* An allowed exception and its complement: `allow socket if domain ==
 * AF_UNIX` with an errno fallback needs the != region. */
static void test_exception(void **state)
{
	const struct ward_cmp unix_[] = {CMP(0, EQ, 1)};
	const struct ward_cond_rule conds[] = {COND(ACT(ALLOW), unix_)};
	const struct ward_syscall_rule sc[] = {
	    {.nr = 41,
	     .name = "socket",
	     .has_fallback = true,
	     .fallback = ERRNO(97),
	     .conds = conds,
	     .nconds = 1},
	};
	const struct ward_rules r = {
	    .default_action = ERRNO(38), .syscalls = sc, .nsyscalls = 1};
	assert_entries(&r, r.default_action,
		       "socket SCMP_ACT_ALLOW a0 EQ 0x1 0x0\n"
		       "socket SCMP_ACT_ERRNO(97) a0 NE 0x1 0x0\n");
}

/* A stricter two-argument rule over an errno rule over an allow fallback:
 * the kill region first, then errno where kill does not hold, then the
 * allow fallback over what is left. On two arguments only == and masked
 * == are used: a0 outside {16, 17} is the blocks of [0, 15] and
 * [18, 2^64), and a1 & 0xf != 3 is four masks. */
static void test_stricter_first(void **state)
{
	const struct ward_cmp netlink[] = {CMP(0, EQ, 16)};
	const struct ward_cmp packet[] = {CMP(0, EQ, 17),
					  MCMP(1, MASKED_EQ, 0xf, 3)};
	const struct ward_cond_rule conds[] = {COND(ERRNO(97), netlink),
					       COND(ACT(KILL), packet)};
	const struct ward_syscall_rule sc[] = {
	    {.nr = 41,
	     .name = "socket",
	     .has_fallback = true,
	     .fallback = ACT(ALLOW),
	     .conds = conds,
	     .nconds = 2},
	};
	const struct ward_rules r = {
	    .default_action = ERRNO(38), .syscalls = sc, .nsyscalls = 1};
	char *text = entries_text(&r, WARD_ARCH_X86_64, r.default_action);
	const char *head =
	    "socket SCMP_ACT_KILL_PROCESS a0 EQ 0x11 0x0 a1 MASKED_EQ 0xf "
	    "0x3\n"
	    "socket SCMP_ACT_ERRNO(97) a0 EQ 0x10 0x0\n"
	    "socket SCMP_ACT_ALLOW a0 MASKED_EQ 0xfffffffffffffff0 0x0\n"
	    "socket SCMP_ACT_ALLOW a0 MASKED_EQ 0xfffffffffffffffe 0x12\n"
	    "socket SCMP_ACT_ALLOW a0 MASKED_EQ 0xfffffffffffffffc 0x14\n";
	if (strncmp(text, head, strlen(head)))
		fail_msg("entries:\n%s", text);
	assert_non_null(strstr(text,
			       "socket SCMP_ACT_ALLOW a0 MASKED_EQ "
			       "0x8000000000000000 0x8000000000000000\n"));
	assert_non_null(strstr(text, "socket SCMP_ACT_ALLOW a0 EQ 0x11 0x0 "
				     "a1 MASKED_EQ 0xe 0x0\n"));
	unsigned lines = 0;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	/* kill, errno; [0, 15] is one block, [18, 2^64) 62; four masks */
	assert_int_equal(lines, 2 + 1 + 62 + 4);
	free(text);
	assert_int_equal(
	    check_table(&r, WARD_ARCH_X86_64, r.default_action, true, 3), 0);
}

/* A range with two bounds is no libseccomp comparison: aligned blocks. */
static void test_range(void **state)
{
	const struct ward_cmp range[] = {CMP(0, GE, 5), CMP(0, LT, 10)};
	const struct ward_cond_rule conds[] = {COND(ACT(ALLOW), range)};
	const struct ward_syscall_rule sc[] = {
	    {.nr = 135, .name = "personality", .conds = conds, .nconds = 1},
	};
	const struct ward_rules r = {
	    .default_action = ERRNO(1), .syscalls = sc, .nsyscalls = 1};
	assert_entries(&r, r.default_action,
		       "personality SCMP_ACT_ALLOW a0 EQ 0x5 0x0\n"
		       "personality SCMP_ACT_ALLOW a0 MASKED_EQ "
		       "0xfffffffffffffffe 0x6\n"
		       "personality SCMP_ACT_ALLOW a0 MASKED_EQ "
		       "0xfffffffffffffffe 0x8\n");
}

/* A conditional rule that can never hold and one that always holds. */
static void test_constant_conditions(void **state)
{
	const struct ward_cmp never[] = {MCMP(0, MASKED_EQ, 0x1, 0x2)};
	const struct ward_cmp always[] = {CMP(1, GE, 0)};
	const struct ward_cond_rule conds[] = {COND(ACT(KILL), never),
					       COND(ACT(LOG), always)};
	const struct ward_syscall_rule sc[] = {
	    {.nr = 39,
	     .name = "getpid",
	     .has_fallback = true,
	     .fallback = ACT(ALLOW),
	     .conds = conds,
	     .nconds = 2},
	};
	const struct ward_rules r = {
	    .default_action = ERRNO(38), .syscalls = sc, .nsyscalls = 1};
	assert_entries(&r, r.default_action, "getpid SCMP_ACT_LOG\n");
}

/* The Kubernetes case: the consumer's default is EPERM, the policy's
 * ENOSYS: every other syscall is named with ENOSYS. */
static void test_other_base(void **state)
{
	const struct ward_cmp unix_[] = {CMP(0, EQ, 1)};
	const struct ward_cond_rule conds[] = {COND(ACT(ALLOW), unix_)};
	const struct ward_syscall_rule sc[] = {
	    {.nr = 0,
	     .name = "read",
	     .has_fallback = true,
	     .fallback = ACT(ALLOW)},
	    {.nr = 41, .name = "socket", .conds = conds, .nconds = 1},
	    {.nr = 165,
	     .name = "mount",
	     .has_fallback = true,
	     .fallback = ERRNO(1)},
	};
	const struct ward_rules r = {.default_action = ERRNO(38),
				     .syscalls = sc,
				     .nsyscalls = ARRAY_LEN(sc)};
	const struct ward_action eperm = ERRNO(1);
	char *text = entries_text(&r, WARD_ARCH_X86_64, eperm);
	/* socket's other region and every unnamed syscall: ENOSYS */
	assert_non_null(strstr(text, "socket SCMP_ACT_ERRNO(38) a0 NE 0x1"));
	assert_non_null(strstr(text, "\nwrite,open,close,"));
	assert_null(strstr(text, "mount SCMP"));
	assert_null(strstr(text, ",mount,"));
	free(text);
	assert_int_equal(check_table(&r, WARD_ARCH_X86_64, eperm, true, 2), 0);
}

static void test_overlap(void **state)
{
	const struct ward_cmp a[] = {CMP(0, GE, 5)};
	const struct ward_cmp b[] = {CMP(0, LT, 5)};
	const struct ward_cmp c[] = {CMP(0, LE, 5), CMP(1, EQ, 7)};
	const struct ward_cmp d[] = {MCMP(0, MASKED_EQ, 0xf0, 0x10)};
	const struct ward_cmp e[] = {CMP(0, NE, 0x10)};
	const struct ward_cmp f[] = {CMP(0, EQ, 0x10)};
	assert_false(ward_conj_overlap(a, 1, b, 1));
	assert_true(ward_conj_overlap(a, 1, c, 2));
	assert_true(ward_conj_overlap(d, 1, e, 1));
	assert_false(ward_conj_overlap(e, 1, f, 1));
	assert_true(ward_conj_overlap(d, 1, f, 1));
	assert_false(ward_conj_overlap(c, 2, d, 1));
}

/* Random tables: regions disjoint, and the same answers read directly and
 * through libseccomp as a runtime builds them. */
static void test_random(void **state)
{
	int32_t pool[64];
	uint32_t npool = 0;
	for (int32_t nr = 0; nr < 460 && npool < ARRAY_LEN(pool); nr++) {
		char *n =
		    seccomp_syscall_resolve_num_arch(WARD_ARCH_X86_64, nr);
		if (n)
			pool[npool++] = nr;
		free(n);
	}
	/* conditions of two comparisons: with more, the generator's masks
	 * and bounds make most tables too big for the format (refused) */
	const struct rr_params params = {.pool = pool,
					 .npool = npool,
					 .max_syscalls = 4,
					 .max_conds = 4,
					 .max_cmps = 2};
	uint64_t rng = 7;
	unsigned bad = 0, big = 0;
	for (uint32_t t = 0; t < RANDOM_TABLES; t++) {
		struct ward_rules r;
		bool too_big = false;
		assert_int_equal(rr_generate(&rng, &params, &r), 0);
		name_syscalls(&r, WARD_ARCH_X86_64);
		int m = check_table_or_big(&r, WARD_ARCH_X86_64,
					   r.default_action, true, t, &too_big);
		/* and for a consumer whose default is EPERM */
		const struct ward_action eperm = ERRNO(1);
		if (t % 8 == 0 && !too_big)
			m += check_table_or_big(&r, WARD_ARCH_X86_64, eperm,
						true, t, &too_big);
		if (m)
			fprintf(stderr, "table %u fails\n", t);
		bad += m != 0;
		big += too_big;
		rr_free(&r);
	}
	assert_int_equal(bad, 0);
	/* the generator's masks and bounds cut sets into many pieces, and
	 * on several arguments only == and masked == are used (lower() in
	 * export_seccomp.c): many tables are refused as too big for the
	 * format; the rest must agree */
	assert_true(RANDOM_TABLES - big > RANDOM_TABLES / 2);
	assert_true(runtime_checked > RANDOM_TABLES / 3);
	/* libseccomp's own loops, on tables no policy writes: rare */
	if (runtime_hangs)
		fprintf(stderr, "libseccomp did not finish %u tables\n",
			runtime_hangs);
	assert_true(runtime_hangs < RANDOM_TABLES / 50);
}

/* The operator's CRD (values below 2^63): random tables exported, made to
 * fit (ward_xseccomp_spo), and read directly with argument vectors whose
 * bit 63 is clear, where the entries must still answer as the rules do
 * and never overlap; no value of 2^63 or more is left. */
static void test_random_spo(void **state)
{
	int32_t pool[32];
	uint32_t npool = 0;
	for (int32_t nr = 0; nr < 100 && npool < ARRAY_LEN(pool); nr++)
		if (ward_sys_name(WARD_ARCH_X86_64, nr))
			pool[npool++] = nr;
	const struct rr_params params = {.pool = pool,
					 .npool = npool,
					 .max_syscalls = 3,
					 .max_conds = 3,
					 .max_cmps = 2};
	uint64_t rng = 63;
	unsigned checked = 0, refused = 0, widened = 0;
	for (uint32_t t = 0; t < RANDOM_TABLES / 2; t++) {
		struct ward_rules r;
		struct ward_pool *p = ward_pool_new();
		struct ward_notes notes = {.pool = p};
		struct ward_xseccomp x;
		ward_err err = {0};
		assert_int_equal(rr_generate(&rng, &params, &r), 0);
		name_syscalls(&r, WARD_ARCH_X86_64);
		if (ward_export_seccomp(p, &r, WARD_ARCH_X86_64,
					r.default_action, &x, &err) < 0 ||
		    ward_xseccomp_int63(p, &x, &notes, &err) < 0) {
			/* too big, or a value of the rules above 2^63 */
			refused++;
			ward_pool_free(p);
			rr_free(&r);
			continue;
		}
		widened += notes.n > 0;
		for (size_t i = 0; i < x.nentries; i++)
			for (uint8_t k = 0; k < x.entries[i].ncmps; k++) {
				const struct ward_xcmp *c =
				    &x.entries[i].cmps[k];
				assert_true(c->value < (1ull << 63));
				assert_true(c->value_two < (1ull << 63));
			}
		struct entry_index *ix = index_entries(&x, WARD_ARCH_X86_64);
		for (uint32_t i = 0; i < r.nsyscalls; i++) {
			const struct ward_syscall_rule *sc = &r.syscalls[i];
			uint64_t vals[6][MAX_VALS], args[6];
			uint32_t nvals[6];
			for (unsigned a = 0; a < 6; a++)
				nvals[a] = arg_values(sc, a, vals[a]);
			for (unsigned v = 0; v < VECTORS; v++) {
				unsigned matches;
				for (unsigned a = 0; a < 6; a++)
					args[a] =
					    vals[a][rr_below(&rng, nvals[a])] &
					    ~(1ull << 63);
				/* what a runtime does for the broker's
				 * answers, as in check() */
				uint32_t want = rules_eval_answer(
				    rules_eval(&r, sc->nr, args));
				uint32_t got = read_entries(&x, ix, sc->nr,
							    args, &matches);
				if (got != want || matches > 1)
					rr_print(stderr, &r);
				assert_int_equal(got, want);
				assert_true(matches <= 1);
				checked++;
			}
		}
		free_index(ix);
		ward_pool_free(p);
		rr_free(&r);
	}
	assert_true(refused < RANDOM_TABLES / 4);
	assert_true(widened > 0);
	assert_true(checked > RANDOM_TABLES * VECTORS / 4);
}

/* Conditions on one argument keep <=, >= and != (readable): random tables
 * whose comparisons all test argument 1, through libseccomp. */
static void test_random_one_argument(void **state)
{
	int32_t pool[64];
	uint32_t npool = 0;
	for (int32_t nr = 0; nr < 460 && npool < ARRAY_LEN(pool); nr++) {
		char *n =
		    seccomp_syscall_resolve_num_arch(WARD_ARCH_X86_64, nr);
		if (n)
			pool[npool++] = nr;
		free(n);
	}
	const struct rr_params params = {.pool = pool,
					 .npool = npool,
					 .max_syscalls = 4,
					 .max_conds = 4,
					 .max_cmps = 3};
	uint64_t rng = 99;
	unsigned bad = 0, big = 0, before = runtime_checked;
	for (uint32_t t = 0; t < RANDOM_TABLES / 2; t++) {
		struct ward_rules r;
		bool too_big = false;
		assert_int_equal(rr_generate(&rng, &params, &r), 0);
		name_syscalls(&r, WARD_ARCH_X86_64);
		for (uint32_t i = 0; i < r.nsyscalls; i++)
			for (uint32_t j = 0; j < r.syscalls[i].nconds; j++) {
				const struct ward_cond_rule *c =
				    &r.syscalls[i].conds[j];
				for (uint32_t k = 0; k < c->ncmps; k++)
					((struct ward_cmp *)c->cmps)[k].arg = 1;
			}
		bad +=
		    check_table_or_big(&r, WARD_ARCH_X86_64, r.default_action,
				       true, t, &too_big) != 0;
		big += too_big;
		rr_free(&r);
	}
	assert_int_equal(bad, 0);
	assert_true(big < RANDOM_TABLES / 20);
	assert_true(runtime_checked - before > RANDOM_TABLES / 4);
}

/* aarch64 numbers and names, read directly (no aarch64 libseccomp run). */
static void test_random_aarch64(void **state)
{
	int32_t pool[64];
	uint32_t npool = 0;
	for (int32_t nr = 0; nr < 460 && npool < ARRAY_LEN(pool); nr++) {
		char *n =
		    seccomp_syscall_resolve_num_arch(WARD_ARCH_AARCH64, nr);
		if (n)
			pool[npool++] = nr;
		free(n);
	}
	const struct rr_params params = {.pool = pool,
					 .npool = npool,
					 .max_syscalls = 4,
					 .max_conds = 4,
					 .max_cmps = 2};
	uint64_t rng = 11;
	unsigned bad = 0, big = 0;
	for (uint32_t t = 0; t < RANDOM_TABLES / 4; t++) {
		struct ward_rules r;
		bool too_big = false;
		assert_int_equal(rr_generate(&rng, &params, &r), 0);
		name_syscalls(&r, WARD_ARCH_AARCH64);
		bad +=
		    check_table_or_big(&r, WARD_ARCH_AARCH64, r.default_action,
				       false, t, &too_big) != 0;
		big += too_big;
		rr_free(&r);
	}
	assert_int_equal(bad, 0);
	assert_true(big < RANDOM_TABLES / 8);
}

/* What a runtime's libseccomp does with the other ABIs when the profile
 * lists x86_64 alone: its bad-architecture action, SCMP_ACT_KILL (the
 * thread), as the notes say. */
static void test_other_abis(void **state)
{
	const struct ward_syscall_rule sc[] = {
	    {.nr = 39,
	     .name = "getpid",
	     .has_fallback = true,
	     .fallback = ACT(ALLOW)},
	};
	const struct ward_rules r = {
	    .default_action = ACT(ALLOW), .syscalls = sc, .nsyscalls = 1};
	struct ward_pool *p = ward_pool_new();
	struct ward_xseccomp x;
	ward_err err = {0};
	const struct ward_action eperm = ERRNO(1);
	assert_int_equal(
	    ward_export_seccomp(p, &r, WARD_ARCH_X86_64, eperm, &x, &err), 0);
	uint32_t n;
	struct sock_filter *prog = runtime_program(&x, &n);
	assert_non_null(prog);
	const uint64_t zero[6] = {0};
	assert_int_equal(run(prog, n, AUDIT_ARCH_X86_64, 39, zero),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(run(prog, n, AUDIT_ARCH_X86_64, 40, zero),
			 SECCOMP_RET_ALLOW);
	assert_int_equal(run(prog, n, AUDIT_ARCH_X86_64, 0x40000000 | 39, zero),
			 SECCOMP_RET_KILL_THREAD);
	assert_int_equal(run(prog, n, AUDIT_ARCH_I386, 20, zero),
			 SECCOMP_RET_KILL_THREAD);
	free(prog);
	ward_pool_free(p);
}

/* ------------------------------------------------------------- goldens */

static char *slurp(const char *path)
{
	uint8_t *data = NULL;
	size_t len = 0;
	if (ward_read_file(path, 1u << 24, &data, &len) < 0)
		return NULL;
	char *s = realloc(data, len + 1);
	assert_non_null(s);
	s[len] = 0;
	return s;
}

static void compare_golden(const char *path, const char *got)
{
	if (getenv("WARD_REGEN")) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		fclose(f);
	}
	char *want = slurp(path);
	if (!want)
		fail_msg("cannot read %s (WARD_REGEN=1 writes it)", path);
	if (strcmp(want, got)) {
		fprintf(stderr, "---- got:\n%s", got);
		fail_msg("%s differs (WARD_REGEN=1 rewrites it)", path);
	}
	free(want);
}

#define compiled ward_test_compiled

static void compile(const char *src, struct compiled *c)
{
	char msg[600];
	if (ward_test_compile(src, c, msg, sizeof(msg)) < 0)
		fail_msg("%s", msg);
	assert_true(c->blob.has_rules);
}

static void release(struct compiled *c)
{
	ward_test_compiled_release(c);
}

static void test_oci_golden(void **state)
{
	struct compiled c;
	compile("tests/export/sample.ward", &c);
	struct ward_pool *p = ward_pool_new();
	struct ward_notes notes = {.pool = p};
	ward_err err = {0};
	struct doc *d = ward_export_oci(p, &c.blob.policy, NULL, &notes, &err);
	assert_non_null(d);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(doc_print_json(d, f), 0);
	fclose(f);
	compare_golden("tests/export/sample.oci.json", text);
	/* each note is in the annotation too */
	assert_true(notes.n >= 10);
	for (size_t i = 0; i < notes.n; i++)
		assert_non_null(strstr(text, notes.items[i]));
	free(text);
	ward_pool_free(p);
	release(&c);
}

static void test_k8s_golden(void **state)
{
	struct compiled c;
	compile("tests/export/sample.ward", &c);
	struct ward_pool *p = ward_pool_new();
	struct ward_notes notes = {.pool = p};
	ward_err err = {0};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(ward_export_k8s(p, &c.blob.policy, WARD_SPO_CLUSTER,
					 &notes, f, &err),
			 0);
	fclose(f);
	compare_golden("tests/export/sample.k8s.yaml", text);
	free(text);
	ward_pool_free(p);
	release(&c);
}

static bool has_note(const struct ward_notes *n, const char *part)
{
	for (size_t i = 0; i < n->n; i++)
		if (strstr(n->items[i], part))
			return true;
	return false;
}

/* A read-write slot's size, `groups keep`, text streams and the OOM
 * scope: what neither format says is noted, and only what differs. */
static void test_outputs_notes(void **state)
{
	struct compiled c;
	compile("tests/export/outputs.ward", &c);
	struct ward_pool *p = ward_pool_new();
	struct ward_notes oci = {.pool = p}, k8s = {.pool = p};
	ward_err err = {0};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(ward_export_oci(p, &c.blob.policy, NULL, &oci, &err));
	assert_int_equal(
	    ward_export_k8s(p, &c.blob.policy, WARD_SPO_CLUSTER, &k8s, f, &err),
	    0);
	fclose(f);
	assert_true(has_note(&oci, "slot `out` at /out: ward mounts a "
				   "read-write directory slot as a tmpfs of "
				   "8 MiB"));
	assert_true(has_note(&k8s, "ward's is a tmpfs of 8 MiB"));
	for (int i = 0; i < 2; i++) {
		const struct ward_notes *n = i ? &k8s : &oci;
		assert_true(has_note(n, "identity: `groups keep`"));
		assert_true(has_note(n, "output: `stdout text`"));
		assert_true(has_note(n, "output: `stderr text`"));
	}
	/* `oom process` is what runtimes do anyway; the kubelet does not */
	assert_false(has_note(&oci, "oom"));
	assert_true(has_note(&k8s, "limits: `oom process`"));
	free(text);
	ward_pool_free(p);
	release(&c);
}

/* The egress allow-list: a NetworkPolicy rule per allow, hostAliases for
 * the pinned names; for OCI, a note per rule and host. */
static void test_net(void **state)
{
	struct compiled c;
	compile("tests/export/net.ward", &c);
	struct ward_pool *p = ward_pool_new();
	struct ward_notes notes = {.pool = p};
	ward_err err = {0};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(ward_export_k8s(p, &c.blob.policy, WARD_SPO_CLUSTER,
					 &notes, f, &err),
			 0);
	fclose(f);
	const char *netpol = strstr(text, "kind: \"NetworkPolicy\"");
	assert_non_null(netpol);
	assert_non_null(strstr(netpol, "policyTypes:\n"
				       "  - \"Ingress\"\n"
				       "  - \"Egress\"\n"
				       "  ingress: []\n"
				       "  egress:\n"
				       "  - to:\n"
				       "    - ipBlock:\n"
				       "        cidr: \"192.0.2.10/32\"\n"
				       "    ports:\n"
				       "    - protocol: \"TCP\"\n"
				       "      port: 443\n"));
	assert_non_null(strstr(netpol, "        cidr: \"198.51.100.0/24\"\n"
				       "    ports:\n"
				       "    - protocol: \"UDP\"\n"
				       "      port: 5000\n"
				       "      endPort: 5010\n"));
	assert_non_null(strstr(netpol, "cidr: \"2001:db8::10/128\""));
	assert_non_null(strstr(text, "  hostAliases:\n"
				     "  - ip: \"192.0.2.10\"\n"
				     "    hostnames:\n"
				     "    - \"mirror\"\n"));
	free(text);
	ward_pool_free(p);

	p = ward_pool_new();
	notes = (struct ward_notes){.pool = p};
	assert_non_null(ward_export_oci(p, &c.blob.policy, NULL, &notes, &err));
	unsigned net = 0;
	for (size_t i = 0; i < notes.n; i++)
		net += !strncmp(notes.items[i], "net: ", 5);
	assert_int_equal(net, 3 + 2); /* three allows, two host addresses */
	ward_pool_free(p);
	release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain),
	    cmocka_unit_test(test_exception),
	    cmocka_unit_test(test_stricter_first),
	    cmocka_unit_test(test_range),
	    cmocka_unit_test(test_constant_conditions),
	    cmocka_unit_test(test_other_base),
	    cmocka_unit_test(test_overlap),
	    cmocka_unit_test(test_random),
	    cmocka_unit_test(test_random_spo),
	    cmocka_unit_test(test_random_one_argument),
	    cmocka_unit_test(test_random_aarch64),
	    cmocka_unit_test(test_other_abis),
	    cmocka_unit_test(test_oci_golden),
	    cmocka_unit_test(test_k8s_golden),
	    cmocka_unit_test(test_outputs_notes),
	    cmocka_unit_test(test_net),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
