/* SPDX-License-Identifier: MIT */
/*
 * callcost: what a refused call costs inside the sandbox, by the way it is
 * refused (run by tests/bench/bench_broker.sh under the python profile):
 *
 *   callcost ROUNDS BATCH
 *
 * Each round times BATCH calls of each kind, one kind after the other, so
 * that the machine's load falls on all alike:
 *   recorded  reboot(): `errno EPERM` of a group marked `log`, answered
 *             and recorded by the broker (a notification)
 *   errno     ioctl() with a request the profile does not allow: `errno
 *             ENOTTY`, answered by the kernel
 *   allowed   getppid(): allowed, the filter's constant answer
 * Between rounds it sleeps long enough for the broker's flood control to
 * refill (BATCH calls take no more than its burst), so that what is timed
 * is the notification, not the throttle. Prints the median ns per call of
 * each kind.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double batch(int kind, int n)
{
	double t0 = now_ns();

	for (int i = 0; i < n; i++)
		switch (kind) {
		case 0:
			syscall(SYS_reboot, 0, 0, 0x1234567, NULL);
			break;
		case 1:
			syscall(SYS_ioctl, 0, 0x5401ff, 0);
			break;
		default:
			syscall(SYS_getppid);
			break;
		}
	return (now_ns() - t0) / n;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	int n = argc > 2 ? atoi(argv[2]) : 1000;
	static const char *const names[] = {"recorded", "errno", "allowed"};
	double *r[3];

	for (int k = 0; k < 3; k++)
		r[k] = calloc((size_t)rounds, sizeof(double));
	for (int i = 0; i < rounds; i++) {
		for (int k = 0; k < 3; k++)
			r[k][i] = batch(k, n);
		usleep(250 * 1000);
	}
	for (int k = 0; k < 3; k++) {
		qsort(r[k], (size_t)rounds, sizeof(double), cmp);
		printf("%s %.0f\n", names[k], r[k][rounds / 2]);
	}
	return 0;
}
