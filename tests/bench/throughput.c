/* SPDX-License-Identifier: MIT */
/*
 * throughput: launches per second of a command, by several launchers at
 * once.
 *
 *   throughput SECONDS WORKERS BPFFILE "NAME CMD ARG..." ...
 *
 * For each command in turn: WORKERS processes each run it (fork + execvp +
 * wait, stdout and stderr to /dev/null) again and again until SECONDS
 * have passed; prints the runs per second, and how many runs failed (a
 * non-zero status). "@BPF" in the arguments becomes fd 9, BPFFILE opened
 * there (bwrap --seccomp 9), as in launchbench.c.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXARG 64

static const char *bpf;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int run(char **argv)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 1);
		dup2(null, 2);
		if (bpf) {
			int fd = open(bpf, O_RDONLY);

			if (fd >= 0 && fd != 9) {
				dup2(fd, 9);
				close(fd);
			}
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	return !WIFEXITED(st) || WEXITSTATUS(st) != 0;
}

int main(int argc, char **argv)
{
	double secs;
	int workers;

	if (argc < 5) {
		fprintf(stderr, "usage: throughput SECONDS WORKERS BPFFILE "
				"\"NAME CMD...\"...\n");
		return 2;
	}
	secs = atof(argv[1]);
	workers = atoi(argv[2]);
	bpf = argv[3];
	for (int c = 4; c < argc; c++) {
		char *words[MAXARG + 1], *name, *save = NULL;
		long *counts = mmap(NULL, 2 * sizeof(long) * (size_t)workers,
				    PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		long runs = 0, fails = 0;
		int n = 0;
		double start, end;

		name = strtok_r(strdup(argv[c]), " ", &save);
		for (char *w; n < MAXARG && (w = strtok_r(NULL, " ", &save));)
			words[n++] = strcmp(w, "@BPF") ? w : "9";
		words[n] = NULL;
		start = now();
		end = start + secs;
		for (int w = 0; w < workers; w++)
			if (fork() == 0) {
				long r = 0, f = 0;

				while (now() < end) {
					f += run(words);
					r++;
				}
				counts[2 * w] = r;
				counts[2 * w + 1] = f;
				_exit(0);
			}
		while (wait(NULL) > 0)
			;
		for (int w = 0; w < workers; w++) {
			runs += counts[2 * w];
			fails += counts[2 * w + 1];
		}
		printf("%-10s %7.1f runs/s  (%ld runs in %.1f s, %d launchers, "
		       "%ld failed)\n",
		       name, (double)runs / (now() - start), runs,
		       now() - start, workers, fails);
		fflush(stdout);
	}
	return 0;
}
