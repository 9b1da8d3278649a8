/* SPDX-License-Identifier: MIT */
/*
 * launchbench: interleaved wall-clock timing of launch commands.
 *
 *   launchbench RUNS UID BPFFILE "NAME CMD ARG..." ...
 *
 * Runs every command once per round, RUNS rounds (after 10 warm-up
 * rounds), each with fork + execvp + wait, as UID (-1: as is), stdout and
 * stderr to /dev/null. A command whose arguments contain "@BPF" gets
 * BPFFILE opened on fd 9 and "@BPF" replaced by "9" (bwrap --seccomp 9).
 * Prints the median, 10th and 90th percentiles per command, then the
 * ratio of the first command's median to each other's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXCMD 8
#define MAXARG 64

static char *argvs[MAXCMD][MAXARG];
static const char *bpf;

static double run(char **argv)
{
	struct timespec a, b;
	int st;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (bpf) {
			int fd = open(bpf, O_RDONLY);

			dup2(fd, 9);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "launchbench: %s failed (status 0x%x)\n",
			argv[0], st);
		exit(1);
	}
	return (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

int main(int argc, char **argv)
{
	int runs, ncmd = argc - 4;
	long uid;
	const char *names[MAXCMD];
	double *t[MAXCMD], med[MAXCMD];
	int uses_bpf[MAXCMD] = {0};

	if (argc < 5 || ncmd > MAXCMD) {
		fprintf(stderr, "usage: launchbench RUNS UID BPFFILE CMD...\n");
		return 2;
	}
	runs = atoi(argv[1]);
	uid = atol(argv[2]);
	for (int c = 0; c < ncmd; c++) {
		char *s = strdup(argv[4 + c]), *tok;
		int n = 0;

		names[c] = strtok(s, " ");
		while ((tok = strtok(NULL, " ")) && n < MAXARG - 1) {
			if (!strcmp(tok, "@BPF")) {
				tok = "9";
				uses_bpf[c] = 1;
			}
			argvs[c][n++] = tok;
		}
		t[c] = calloc((size_t)runs, sizeof(double));
	}
	if (uid >= 0 && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
			 setresuid(uid, uid, uid))) {
		perror("launchbench: drop to uid");
		return 1;
	}
	for (int r = -10; r < runs; r++)
		for (int c = 0; c < ncmd; c++) {
			double d;

			bpf = uses_bpf[c] ? argv[3] : NULL;
			d = run(argvs[c]);
			if (r >= 0)
				t[c][r] = d;
		}
	printf("%-10s %9s %9s %9s  (ms, %d interleaved runs each)\n", "command",
	       "median", "p10", "p90", runs);
	for (int c = 0; c < ncmd; c++) {
		qsort(t[c], (size_t)runs, sizeof(double), cmp);
		med[c] = t[c][runs / 2];
		printf("%-10s %9.3f %9.3f %9.3f\n", names[c], med[c],
		       t[c][runs / 10], t[c][runs - 1 - runs / 10]);
	}
	for (int c = 1; c < ncmd; c++)
		printf("ratio %s/%s = %.2f\n", names[0], names[c],
		       med[0] / med[c]);
	return 0;
}
