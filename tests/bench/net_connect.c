/* SPDX-License-Identifier: MIT */
/*
 * net_connect: the cost of the network allow-list, measured in pairs so
 * that the load of a shared machine falls on both sides alike (run by
 * tests/bench/bench_net.sh, as root, inside a test network namespace):
 *
 *   net_connect connect BLOB CGDIR ADDR PORT ROUNDS BATCH
 *     attaches BLOB's programs to CGDIR/with, none to CGDIR/without;
 *     a socket's programs are those of the cgroup it was made in, so this
 *     process makes BATCH sockets in each, then times connect() on them
 *     alternately (with, without, without, with, ...) to ADDR:PORT;
 *     prints the medians and the median of the paired differences, in us.
 *
 *   net_connect setup BLOB CGDIR COUNT
 *     COUNT times: a fresh cgroup, ward_net_setup, teardown, rmdir;
 *     prints the median, min and max of the setup, in ms.
 */
#include "blob_read.h"
#include "net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static void die(const char *what, const ward_err *err)
{
	char buf[WARD_ERR_MSG_MAX + 64];

	fprintf(stderr, "net_connect: %s: %s\n", what,
		err ? ward_err_str(err, buf, sizeof(buf)) : strerror(errno));
	exit(1);
}

static void load(const char *path, struct ward_blob *b)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	uint8_t *buf;
	ward_err err = {0};

	if (fd < 0 || fstat(fd, &st) < 0 || !(buf = malloc(st.st_size)) ||
	    read(fd, buf, st.st_size) != st.st_size)
		die(path, NULL);
	close(fd);
	if (ward_blob_read(buf, st.st_size, 0, b, &err) < 0)
		die(path, &err);
	/* buf stays: the policy points into it. */
}

static void join(const char *dir)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "0", 1) != 1)
		die(path, NULL);
	close(fd);
}

static void sockets(const char *dir, int *fds, int n)
{
	join(dir);
	for (int i = 0; i < n; i++)
		if ((fds[i] = socket(AF_INET, SOCK_STREAM, 0)) < 0)
			die("socket", NULL);
}

static double timed_connect(int fd, const struct sockaddr_in *a)
{
	double t0 = now_us();

	if (connect(fd, (const struct sockaddr *)a, sizeof(*a)) < 0)
		die("connect", NULL);
	double t = now_us() - t0;
	close(fd);
	return t;
}

static int cmd_connect(char **argv)
{
	struct ward_blob b;
	struct ward_net_state st;
	ward_err err = {0};
	char with[512], without[512], home[512];
	int rounds = atoi(argv[4]), batch = atoi(argv[5]);
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)atoi(argv[3]))};

	if (inet_pton(AF_INET, argv[2], &a.sin_addr) != 1 || batch < 1 ||
	    rounds < 1)
		return 2;
	load(argv[0], &b);
	snprintf(with, sizeof(with), "%s/with", argv[1]);
	snprintf(without, sizeof(without), "%s/without", argv[1]);
	snprintf(home, sizeof(home), "%s", argv[1]);
	if ((mkdir(with, 0755) < 0 && errno != EEXIST) ||
	    (mkdir(without, 0755) < 0 && errno != EEXIST))
		die("mkdir", NULL);
	int cg = open(with, O_RDONLY | O_DIRECTORY);
	if (cg < 0 || ward_net_setup(&b.policy.net, cg, &st, &err) < 0)
		die("setup", &err);

	size_t n = (size_t)rounds * batch;
	double *tw = calloc(n, sizeof(double)), *to = calloc(n, sizeof(double));
	double *d = calloc(n, sizeof(double));
	int *fw = calloc(batch, sizeof(int)), *fo = calloc(batch, sizeof(int));
	if (!tw || !to || !d || !fw || !fo)
		die("calloc", NULL);
	size_t k = 0;
	for (int r = 0; r < rounds; r++) {
		sockets(with, fw, batch);
		sockets(without, fo, batch);
		join(home); /* the parent of both: no cgroup of ours */
		for (int i = 0; i < batch; i++, k++) {
			if ((i + r) % 2) {
				tw[k] = timed_connect(fw[i], &a);
				to[k] = timed_connect(fo[i], &a);
			} else {
				to[k] = timed_connect(fo[i], &a);
				tw[k] = timed_connect(fw[i], &a);
			}
			d[k] = tw[k] - to[k];
		}
	}
	double mw = median(tw, n), mo = median(to, n), md = median(d, n);
	printf("%.2f %.2f %.2f\n", mo, mw, md);
	ward_net_teardown(&st);
	close(cg);
	return 0;
}

static int cmd_setup(char **argv)
{
	struct ward_blob b;
	ward_err err = {0};
	int count = atoi(argv[2]);
	double *t = calloc(count > 0 ? count : 1, sizeof(double));

	if (!t || count < 1)
		return 2;
	load(argv[0], &b);
	for (int i = 0; i < count; i++) {
		char dir[512];
		struct ward_net_state st;

		snprintf(dir, sizeof(dir), "%s/s%d", argv[1], i);
		if (mkdir(dir, 0755) < 0)
			die(dir, NULL);
		int cg = open(dir, O_RDONLY | O_DIRECTORY);
		double t0 = now_us();
		if (cg < 0 || ward_net_setup(&b.policy.net, cg, &st, &err) < 0)
			die("setup", &err);
		t[i] = (now_us() - t0) / 1e3;
		ward_net_teardown(&st);
		close(cg);
		if (rmdir(dir) < 0)
			die(dir, NULL);
	}
	qsort(t, count, sizeof(double), cmp_double);
	printf("%.2f %.2f %.2f\n", t[count / 2], t[0], t[count - 1]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 8 && !strcmp(argv[1], "connect"))
		return cmd_connect(argv + 2);
	if (argc == 5 && !strcmp(argv[1], "setup"))
		return cmd_setup(argv + 2);
	fprintf(stderr, "usage: net_connect connect BLOB CGDIR ADDR PORT "
			"ROUNDS BATCH | setup BLOB CGDIR COUNT\n");
	return 2;
}
