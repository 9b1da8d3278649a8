/* SPDX-License-Identifier: MIT */
/*
 * cgroup_steps: the cost of each cgroup step of a launch, measured alone
 * with the launcher's own code (launcher/cgroup*.c), root only.
 *
 *   cgroup_steps RUNS
 *
 * Each round: plan + create the run's directories (memory, pids, cpu
 * limits, the way ward does on this host), write the limits, fork a child
 * that waits, place it (clone-like: the v1 cgroup.procs writes that ward
 * does while init is held), kill it, read the counters, remove the
 * directories. Prints the median and 90th percentile of every step in ms.
 */
#include "cgroup.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { S_CREATE, S_LIMITS, S_ATTACH, S_KILL, S_STATS, S_REMOVE, S_N };
static const char *const names[S_N] = {
    "mkdir (plan, stale scan, bases, run dirs)",
    "limits",
    "v1 cgroup.procs (init held)",
    "kill (cgroup.kill + reap)",
    "counters",
    "rmdir (checked empty)"};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 100;
	double *t[S_N];
	struct ward_cg_host h;
	ward_err err = {0};
	struct ward_limits l = {0};

	l.set = 1u << WARD_LIM_MEMORY | 1u << WARD_LIM_SWAP |
		1u << WARD_LIM_PIDS | 1u << WARD_LIM_CPU;
	l.value[WARD_LIM_MEMORY] = 512ull << 20;
	l.value[WARD_LIM_PIDS] = 256;
	l.value[WARD_LIM_CPU] = 500;
	if (ward_cg_detect("/proc/self/mountinfo", "/proc/self/cgroup", &h,
			   &err) < 0) {
		fprintf(stderr, "cgroup_steps: %s\n", err.msg);
		return 1;
	}
	for (int s = 0; s < S_N; s++)
		t[s] = calloc((size_t)runs, sizeof(double));
	for (int i = 0; i < runs; i++) {
		struct ward_cg_request rq = {.need =
						 WARD_CG_BIT(WARD_CG_MEMORY) |
						 WARD_CG_BIT(WARD_CG_PIDS) |
						 WARD_CG_BIT(WARD_CG_CPU),
					     .mode = WARD_MODE_ROOT};
		struct ward_cgroup cg;
		struct ward_cg_stats st;
		struct ward_cg_cleanup res;
		double a = now(), b;
		pid_t kid;

		if (ward_cg_plan(&h, &rq, &cg, &err) < 0 ||
		    ward_cg_create(&cg, &err) < 0) {
			fprintf(stderr, "cgroup_steps: %s\n", err.msg);
			return 1;
		}
		b = now();
		t[S_CREATE][i] = b - a;
		if (ward_cg_set_limits(&cg, &l, "/proc/swaps", &err) < 0) {
			fprintf(stderr, "cgroup_steps: %s\n", err.msg);
			return 1;
		}
		a = now();
		t[S_LIMITS][i] = a - b;
		kid = fork();
		if (kid == 0) {
			pause();
			_exit(0);
		}
		b = now();
		if (ward_cg_attach_v1(&cg, kid, &err) < 0) {
			fprintf(stderr, "cgroup_steps: %s\n", err.msg);
			kill(kid, SIGKILL);
			return 1;
		}
		a = now();
		t[S_ATTACH][i] = a - b;
		ward_cg_kill(&cg);
		kill(kid, SIGKILL); /* it is not in cgroup2 here */
		waitpid(kid, NULL, 0);
		b = now();
		t[S_KILL][i] = b - a;
		ward_cg_read_stats(&cg, &st);
		a = now();
		t[S_STATS][i] = a - b;
		ward_cg_remove(&cg, &res);
		b = now();
		t[S_REMOVE][i] = b - a;
		if (!res.removed) {
			fprintf(stderr, "cgroup_steps: not removed\n");
			return 1;
		}
	}
	printf("%-44s %8s %8s  (ms, %d rounds)\n", "step", "median", "p90",
	       runs);
	double total = 0;
	for (int s = 0; s < S_N; s++) {
		qsort(t[s], (size_t)runs, sizeof(double), cmp);
		printf("%-44s %8.3f %8.3f\n", names[s], t[s][runs / 2],
		       t[s][runs * 9 / 10]);
		if (s != S_KILL)
			total += t[s][runs / 2];
		free(t[s]);
	}
	printf("%-44s %8.3f\n", "sum of medians (without the kill)", total);
	return 0;
}
