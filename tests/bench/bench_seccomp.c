/* SPDX-License-Identifier: MIT */
/*
 * bench_seccomp.c: what a compiled seccomp program costs.
 *
 * For a rule table (a Docker-like allow-list of ~300 x86_64 syscalls plus a
 * few argument-checked rules, or the rules of a compiled policy blob;
 * bench_rules() takes any table):
 *   - instructions and path lengths with libseccomp's binary tree
 *     (OPTIMIZE=2) and without it (OPTIMIZE=1), from bpf_info's paths;
 *   - nanoseconds per syscall in a child that installed the program, next
 *     to a child with no filter, for a few harmless syscalls: what the
 *     policy does with each (allowed and cached by the kernel, argument-
 *     checked, denied) is shown beside it. A probe the policy kills is
 *     left out.
 * Medians of RUNS children, the programs taking turns within each run;
 * figures are printed, never asserted.
 *
 *     bench_seccomp [-n ITERATIONS] [-r RUNS] [--blob POLICY.wardb]
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "blob_read.h"
#include "bpf_info.h"
#include "seccomp_gen.h"

#define MAX_PROBES 8
#define MAX_RUNS   31

struct probe {
	const char *label;
	long nr;
	long arg[3];
};

/* What the policy does with a probe, found by calling it once. */
struct probe_fate {
	bool killed; /* by the filter: not timed */
	long ret;
	int err;
};

enum { COL_NONE, COL_TREE, COL_LINEAR, NCOLS };
static const char *const col_names[NCOLS] = {"no filter", "tree (opt 2)",
					     "linear (opt 1)"};

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* vDSO: not a syscall */
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* In a child: install p (if any), time each probe, store ns per call in
 * out[], leave through exit_group (nothing else is allowed to run). */
static void child(const struct sock_filter *p, uint32_t n,
		  const struct probe *probes, size_t nprobes, long iters,
		  const bool *skip, volatile double *out)
{
	if (p) {
		struct sock_fprog prog = {(unsigned short)n,
					  (struct sock_filter *)p};
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			syscall(SYS_exit_group, 1);
	}
	for (size_t i = 0; i < nprobes; i++) {
		const struct probe *pr = &probes[i];
		if (skip[i])
			continue;
		for (long k = 0; k < iters / 10; k++) /* warm up */
			syscall(pr->nr, pr->arg[0], pr->arg[1], pr->arg[2]);
		double t0 = now_ns();
		for (long k = 0; k < iters; k++)
			syscall(pr->nr, pr->arg[0], pr->arg[1], pr->arg[2]);
		out[i] = (now_ns() - t0) / (double)iters;
	}
	syscall(SYS_exit_group, 0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One child's ns per call for each probe under program p (NULL: none). */
static int time_once(const struct sock_filter *p, uint32_t n,
		     const struct probe *probes, size_t nprobes, long iters,
		     const bool *skip, volatile double *shared, double *out)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child(p, n, probes, nprobes, iters, skip, shared);
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_seccomp: child failed (0x%x)\n", status);
		return -1;
	}
	for (size_t i = 0; i < nprobes; i++)
		out[i] = shared[i];
	return 0;
}

/* Medians over runs; the programs take turns within each run so that a
 * change in the machine's load hits them alike. */
static int time_programs(struct sock_filter *const *progs, const uint32_t *n,
			 int nprogs, const struct probe *probes, size_t nprobes,
			 const bool *skip, long iters, int runs,
			 double (*median)[MAX_PROBES])
{
	static double samples[4][MAX_PROBES][MAX_RUNS];
	double one[MAX_PROBES];
	volatile double *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (shared == MAP_FAILED)
		return -1;
	for (int r = 0; r < runs; r++)
		for (int c = 0; c < nprogs; c++) {
			if (time_once(progs[c], n[c], probes, nprobes, iters,
				      skip, shared, one) < 0)
				return -1;
			for (size_t i = 0; i < nprobes; i++)
				samples[c][i][r] = one[i];
		}
	for (int c = 0; c < nprogs; c++)
		for (size_t i = 0; i < nprobes; i++) {
			qsort(samples[c][i], (size_t)runs, sizeof(double),
			      cmp_double);
			median[c][i] = samples[c][i][runs / 2];
		}
	munmap((void *)shared, 4096);
	return 0;
}

/* Call probe i once under p in a child, to learn what the policy does
 * with it without risking the timing children. */
static int probe_fate(const struct sock_filter *p, uint32_t n,
		      const struct probe *pr, struct probe_fate *fate)
{
	volatile long *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct sock_fprog prog = {(unsigned short)n,
					  (struct sock_filter *)p};
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			syscall(SYS_exit_group, 1);
		errno = 0;
		shared[0] = syscall(pr->nr, pr->arg[0], pr->arg[1], pr->arg[2]);
		shared[1] = errno;
		syscall(SYS_exit_group, 0);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	fate->killed = !WIFEXITED(status);
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return -1;
	fate->ret = shared[0];
	fate->err = (int)shared[1];
	munmap((void *)shared, 4096);
	return 0;
}

struct shape {
	uint32_t ninsns, longest_allow;
	double mean_allow; /* mean longest allowed path, allowed syscalls */
	uint32_t arg_checked, const_allow;
	uint32_t probe_path[MAX_PROBES];
	bool probe_cached[MAX_PROBES], probe_checked[MAX_PROBES];
};

static int measure_shape(const struct sock_filter *p, uint32_t n,
			 const struct probe *probes, size_t nprobes,
			 struct shape *sh)
{
	struct ward_bpf_stats *st = calloc(1, sizeof(*st));
	ward_err err = {0};
	if (!st || ward_bpf_stats(p, n, WARD_ARCH_X86_64, st, &err) < 0) {
		fprintf(stderr, "bench_seccomp: stats: %s\n", err.msg);
		free(st);
		return -1;
	}
	double sum = 0;
	uint32_t count = 0;
	for (uint32_t nr = 0; nr < WARD_BPF_NR_COUNT; nr++)
		if (st->nr[nr].may_allow) {
			sum += st->nr[nr].longest_allow;
			count++;
		}
	sh->ninsns = n;
	sh->longest_allow = st->longest_allow;
	sh->mean_allow = count ? sum / count : 0;
	sh->arg_checked = st->n_arg_checked;
	sh->const_allow = st->n_const_allow;
	for (size_t i = 0; i < nprobes; i++) {
		const struct ward_bpf_nr_stat *ns = &st->nr[probes[i].nr];
		sh->probe_path[i] = ns->longest;
		sh->probe_cached[i] = ns->const_allow;
		sh->probe_checked[i] = ns->arg_checked;
	}
	free(st);
	return 0;
}

/* "allow, cached", "errno 38, checked", ... */
static void describe_fate(const struct shape *sh, size_t i,
			  const struct probe_fate *f, char *buf, size_t len)
{
	if (f->killed)
		snprintf(buf, len, "killed: not timed");
	else if (f->ret == -1)
		snprintf(buf, len, "errno %d%s", f->err,
			 sh->probe_checked[i] ? ", checked" : "");
	else
		snprintf(buf, len, "allow%s",
			 sh->probe_cached[i]	? ", cached"
			 : sh->probe_checked[i] ? ", checked"
						: "");
}

/* The benchmark of one rule table on x86_64. */
static int bench_rules(const char *title, const struct ward_rules *r,
		       const struct probe *probes, size_t nprobes, long iters,
		       int runs)
{
	struct sock_filter *prog[NCOLS] = {NULL};
	uint32_t n[NCOLS] = {0};
	struct shape sh[NCOLS] = {{0}};
	struct probe_fate fate[MAX_PROBES] = {{0}};
	bool skip[MAX_PROBES] = {0};
	double ns[NCOLS][MAX_PROBES];
	ward_err err = {0};
	int rc = -1;

	for (int c = COL_TREE; c < NCOLS; c++) {
		struct ward_seccomp_opts o = {.optimize =
						  c == COL_TREE ? 2 : 1};
		if (ward_seccomp_compile_opts(r, WARD_ARCH_X86_64, &o, &prog[c],
					      &n[c], &err) < 0) {
			fprintf(stderr, "bench_seccomp: compile: %s\n",
				err.msg);
			goto out;
		}
		if (measure_shape(prog[c], n[c], probes, nprobes, &sh[c]) < 0)
			goto out;
	}
	for (size_t i = 0; i < nprobes; i++) {
		if (probe_fate(prog[COL_TREE], n[COL_TREE], &probes[i],
			       &fate[i]) < 0) {
			fprintf(stderr, "bench_seccomp: probe %s failed\n",
				probes[i].label);
			goto out;
		}
		skip[i] = fate[i].killed;
	}
	if (time_programs(prog, n, NCOLS, probes, nprobes, skip, iters, runs,
			  ns) < 0)
		goto out;

	printf("%s\n", title);
	printf("  %u syscalls with rules; in the program %u are "
	       "argument-checked, %u allowed without a filter run (kernel "
	       "cache)\n",
	       r->nsyscalls, sh[COL_TREE].arg_checked,
	       sh[COL_TREE].const_allow);
	printf("  %-30s %14s %14s %7s\n", "program", col_names[COL_TREE],
	       col_names[COL_LINEAR], "ratio");
	printf("  %-30s %14u %14u %7.2f\n", "instructions", sh[COL_TREE].ninsns,
	       sh[COL_LINEAR].ninsns,
	       (double)sh[COL_TREE].ninsns / sh[COL_LINEAR].ninsns);
	printf("  %-30s %14u %14u %7.2f\n", "longest allowed path (insns)",
	       sh[COL_TREE].longest_allow, sh[COL_LINEAR].longest_allow,
	       (double)sh[COL_TREE].longest_allow /
		   sh[COL_LINEAR].longest_allow);
	printf("  %-30s %14.1f %14.1f %7.2f\n", "mean allowed path (insns)",
	       sh[COL_TREE].mean_allow, sh[COL_LINEAR].mean_allow,
	       sh[COL_TREE].mean_allow / sh[COL_LINEAR].mean_allow);
	printf("\n  ns per call, median of %d runs x %ld calls; path = "
	       "instructions on the syscall's longest path, tree/linear\n",
	       runs, iters);
	printf("  %-26s %-24s %7s %10s %14s %14s\n", "syscall", "policy",
	       "path", col_names[COL_NONE], col_names[COL_TREE],
	       col_names[COL_LINEAR]);
	for (size_t i = 0; i < nprobes; i++) {
		char what[48], path[16];
		describe_fate(&sh[COL_TREE], i, &fate[i], what, sizeof(what));
		snprintf(path, sizeof(path), "%u/%u",
			 sh[COL_TREE].probe_path[i],
			 sh[COL_LINEAR].probe_path[i]);
		if (skip[i]) {
			printf("  %-26s %-24s %7s\n", probes[i].label, what,
			       path);
			continue;
		}
		printf("  %-26s %-24s %7s %10.1f %14.1f %14.1f\n",
		       probes[i].label, what, path, ns[COL_NONE][i],
		       ns[COL_TREE][i], ns[COL_LINEAR][i]);
	}
	rc = 0;
out:
	for (int c = 0; c < NCOLS; c++)
		free(prog[c]);
	return rc;
}

/* ------------------------------------------------------------ the table */

/* Not in a container's allow-list: Docker's default profile refuses these
 * (or allows them only under capabilities a sandbox does not have). */
static const char *const denied[] = {
    "acct",
    "add_key",
    "bpf",
    "clock_adjtime",
    "clock_settime",
    "create_module",
    "delete_module",
    "finit_module",
    "get_kernel_syms",
    "get_mempolicy",
    "init_module",
    "ioperm",
    "iopl",
    "kcmp",
    "kexec_file_load",
    "kexec_load",
    "keyctl",
    "lookup_dcookie",
    "mbind",
    "mount",
    "move_pages",
    "name_to_handle_at",
    "nfsservctl",
    "open_by_handle_at",
    "perf_event_open",
    "pivot_root",
    "process_vm_readv",
    "process_vm_writev",
    "ptrace",
    "query_module",
    "quotactl",
    "reboot",
    "request_key",
    "set_mempolicy",
    "setns",
    "settimeofday",
    "swapon",
    "swapoff",
    "sysfs",
    "_sysctl",
    "umount2",
    "unshare",
    "uselib",
    "userfaultfd",
    "ustat",
    "vhangup",
    "syslog",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "move_mount",
    "open_tree",
    "mount_setattr",
    "chroot",
    "tuxcall",
    "security",
    "afs_syscall",
    "putpmsg",
    "getpmsg",
    "vserver",
    "modify_ldt",
    "lookup_dcookie",
    "quotactl_fd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
};

static bool is_denied(const char *name)
{
	for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
		if (strcmp(name, denied[i]) == 0)
			return true;
	return false;
}

#define ACT_ALLOW                                                              \
	{                                                                      \
		WARD_ACT_ALLOW, 0                                              \
	}
#define CMP_EQ(a, v)                                                           \
	{                                                                      \
		.arg = (a), .op = WARD_CMP_EQ, .value = (v)                    \
	}

/* personality: the values Docker allows */
static const struct ward_cmp pers[5][1] = {{CMP_EQ(0, 0)},
					   {CMP_EQ(0, 8)},
					   {CMP_EQ(0, 0x20000)},
					   {CMP_EQ(0, 0x20008)},
					   {CMP_EQ(0, 0xffffffff)}};
static const struct ward_cond_rule pers_rules[5] = {{pers[0], 1, ACT_ALLOW},
						    {pers[1], 1, ACT_ALLOW},
						    {pers[2], 1, ACT_ALLOW},
						    {pers[3], 1, ACT_ALLOW},
						    {pers[4], 1, ACT_ALLOW}};
/* socket: local and IP families */
static const struct ward_cmp sock[3][1] = {
    {CMP_EQ(0, AF_UNIX)}, {CMP_EQ(0, AF_INET)}, {CMP_EQ(0, AF_INET6)}};
static const struct ward_cond_rule sock_rules[3] = {
    {sock[0], 1, ACT_ALLOW}, {sock[1], 1, ACT_ALLOW}, {sock[2], 1, ACT_ALLOW}};
/* clone: no new namespaces */
static const struct ward_cmp clone_ns[1] = {
    {.arg = 0,
     .op = WARD_CMP_MASKED_EQ,
     .mask = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |
	     CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP,
     .value = 0}};
static const struct ward_cond_rule clone_rules[1] = {{clone_ns, 1, ACT_ALLOW}};
/* ioctl: allowed but TIOCSTI */
static const struct ward_cmp tiocsti[1] = {CMP_EQ(1, TIOCSTI)};
static const struct ward_cond_rule ioctl_rules[1] = {
    {tiocsti, 1, {WARD_ACT_KILL, 0}}};
/* prctl: allowed but PR_SET_MM */
static const struct ward_cmp set_mm[1] = {CMP_EQ(0, PR_SET_MM)};
static const struct ward_cond_rule prctl_rules[1] = {
    {set_mm, 1, {WARD_ACT_ERRNO, EPERM}}};

static int docker_like(struct ward_syscall_rule *sc, uint32_t max,
		       uint32_t want)
{
	uint32_t n = 0;
	for (int nr = 0; nr < 512 && n < max; nr++) {
		char *name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);
		if (!name)
			continue;
		bool skip = is_denied(name);
		free(name);
		if (skip)
			continue;
		struct ward_syscall_rule *s = &sc[n];
		memset(s, 0, sizeof(*s));
		s->nr = nr;
		s->name = "allowed";
		switch (nr) {
		case SYS_personality:
			s->conds = pers_rules;
			s->nconds = 5;
			break;
		case SYS_socket:
			s->conds = sock_rules;
			s->nconds = 3;
			break;
		case SYS_clone:
			s->conds = clone_rules;
			s->nconds = 1;
			break;
		case SYS_ioctl:
			s->has_fallback = true;
			s->conds = ioctl_rules;
			s->nconds = 1;
			break;
		case SYS_prctl:
			s->has_fallback = true;
			s->conds = prctl_rules;
			s->nconds = 1;
			break;
		default:
			s->has_fallback = true;
			break;
		}
		s->fallback = (struct ward_action)ACT_ALLOW;
		n++;
		if (n == want)
			break;
	}
	return (int)n;
}

/* The rules of a compiled policy; *buf backs the blob's strings. */
static int read_blob(const char *path, uint8_t **buf, struct ward_blob *blob)
{
	ward_err err = {0};
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 1 << 16, len = 0, got;
	*buf = malloc(cap);
	while (*buf && (got = fread(*buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap)
			*buf = realloc(*buf, cap *= 2);
	}
	fclose(f);
	if (!*buf ||
	    ward_blob_read(*buf, len, WARD_ARCH_X86_64, blob, &err) < 0) {
		fprintf(stderr, "bench_seccomp: %s: %s\n", path,
			*buf ? err.msg : "out of memory");
		return -1;
	}
	if (!blob->has_rules) {
		fprintf(stderr,
			"bench_seccomp: %s: the blob has no rule table\n",
			path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long iters = 200000;
	int runs = 7;
	const char *blob_path = NULL;
	struct ward_syscall_rule sc[512];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			iters = atol(argv[++i]);
		else if (!strcmp(argv[i], "-r") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--blob") && i + 1 < argc)
			blob_path = argv[++i];
		else
			iters = -1;
	}
	if (iters <= 0 || runs <= 0 || runs > MAX_RUNS) {
		fprintf(stderr,
			"usage: bench_seccomp [-n ITERATIONS] [-r RUNS<=%d] "
			"[--blob POLICY.wardb]\n",
			MAX_RUNS);
		return 2;
	}
	const struct probe probes[] = {
	    {"getppid", SYS_getppid, {0}},
	    {"prctl(PR_GET_DUMPABLE)", SYS_prctl, {PR_GET_DUMPABLE}},
	    {"personality(0xffffffff)", SYS_personality, {0xffffffff}},
	    {"sysfs(3)", SYS_sysfs, {3}},
	};
	const size_t nprobes = sizeof(probes) / sizeof(probes[0]);
	char title[256];

	if (blob_path) {
		uint8_t *buf = NULL;
		struct ward_blob blob;
		int rc = read_blob(blob_path, &buf, &blob);
		if (rc == 0) {
			snprintf(title, sizeof(title),
				 "seccomp: policy %s (%s)",
				 blob.policy.meta.policy_name, blob_path);
			rc = bench_rules(title, &blob.policy.rules, probes,
					 nprobes, iters, runs);
			ward_blob_release(&blob);
		}
		free(buf);
		return rc < 0;
	}
	int n = docker_like(sc, 512, 300);
	const struct ward_rules rules = {
	    .default_action = {WARD_ACT_ERRNO, ENOSYS},
	    .syscalls = sc,
	    .nsyscalls = (uint32_t)n};
	snprintf(title, sizeof(title),
		 "seccomp: Docker-like allow-list, %d x86_64 syscalls, "
		 "default errno ENOSYS",
		 n);
	return bench_rules(title, &rules, probes, nprobes, iters, runs) < 0;
}
