/* SPDX-License-Identifier: MIT */
/*
 * netprobe: one network action, its result on stdout, for tests/net/run.sh
 * (run inside the sandbox by netrun, or outside as a control). Prints
 * "ok ..." or "err ENAME" (the errno of the attacked call), "timeout".
 *
 *   tcp ADDR PORT            connect, send "hello", read the echo
 *   udp ADDR PORT            sendto without connect, read the echo
 *   udpc ADDR PORT           connect, send, read the echo
 *   udpopt ADDR PORT         connect, set an IP option (NOPs), send
 *   reflect ADDR PORT OTHER  ask the echo server to answer from port OTHER
 *                            too: "ok PORT" if only PORT's answer arrives,
 *                            "leak OTHER" if the other one arrives
 *   bind ADDR PORT tcp|udp   bind a socket
 *   listen SECONDS           listen without bind (the kernel picks the
 *                            port), print "port N", wait for a connection
 *   socket DOMAIN TYPE PROTO numbers: create a socket
 *   abstract NAME            connect to the abstract unix socket @NAME
 *   abstract-self            connect to an abstract socket of our own
 *   many ADDR PORT COUNT     COUNT connects to PORT, PORT+1, ...
 *   loop N ADDR PORT         N connects and closes: "ok MEDIAN_US"
 *   mark ADDR TEXT           one UDP datagram TEXT to port 9, no answer
 *   procnet tcp PORT         is a socket of local port PORT in this
 *                            namespace's /proc/net/tcp or tcp6: "listed",
 *                            "not listed"
 *   procnet unix NAME        is @NAME in /proc/net/unix: the same
 *                            ("err ENAME" when /proc/net/tcp or unix
 *                            cannot be read: nothing is "not listed"
 *                            unless the file was read)
 *   procnet-own              a TCP listener of our own on 127.0.0.1, then
 *                            as procnet tcp for its port: the control that
 *                            this namespace's /proc/net/tcp is readable
 *                            and lists what is in it
 *   procnet-peer ADDR PORT   connect to ADDR:PORT (through the broker
 *                            when in ward), keep the connection, then as
 *                            procnet tcp PORT (the peer's port)
 *   unspec ADDR PORT         connect to ADDR, then disconnect (AF_UNSPEC)
 *                            and connect again to ADDR: "ok" or the error
 *                            of the step that failed
 *   serve ADDR PORT          accept and close connections until killed
 *                            (the benchmark's host: it never lags)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *ename(int e)
{
	static char buf[16];

	switch (e) {
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case EAFNOSUPPORT:
		return "EAFNOSUPPORT";
	case EPROTONOSUPPORT:
		return "EPROTONOSUPPORT";
	case ECONNREFUSED:
		return "ECONNREFUSED";
	case ENETUNREACH:
		return "ENETUNREACH";
	case EHOSTUNREACH:
		return "EHOSTUNREACH";
	case ETIMEDOUT:
		return "ETIMEDOUT";
	case EAGAIN:
		return "EAGAIN";
	case EINVAL:
		return "EINVAL";
	case ENOSYS:
		return "ENOSYS";
	case EADDRINUSE:
		return "EADDRINUSE";
	case ENOPROTOOPT:
		return "ENOPROTOOPT";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case EISCONN:
		return "EISCONN";
	case EALREADY:
		return "EALREADY";
	case ECONNABORTED:
		return "ECONNABORTED";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static int fail(const char *what)
{
	(void)what;
	printf("err %s\n", ename(errno));
	return 1;
}

struct addr {
	struct sockaddr_storage ss;
	socklen_t len;
	int family;
};

static struct addr parse(const char *a, const char *port)
{
	struct addr r;
	memset(&r, 0, sizeof(r));
	struct sockaddr_in *s4 = (struct sockaddr_in *)&r.ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&r.ss;

	if (inet_pton(AF_INET, a, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)atoi(port));
		r.len = sizeof(*s4);
		r.family = AF_INET;
	} else if (inet_pton(AF_INET6, a, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)atoi(port));
		r.len = sizeof(*s6);
		r.family = AF_INET6;
	} else {
		fprintf(stderr, "netprobe: bad address %s\n", a);
		exit(2);
	}
	return r;
}

static void timeouts(int fd, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int reply(int fd)
{
	char buf[256];
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

	if (n < 0) {
		if (errno == EAGAIN)
			return printf("timeout\n"), 1;
		return fail("recv");
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	printf("ok %s\n", buf);
	return 0;
}

static int tcp(struct addr a)
{
	int fd = socket(a.family, SOCK_STREAM, 0);

	if (fd < 0)
		return fail("socket");
	timeouts(fd, 2000);
	if (connect(fd, (struct sockaddr *)&a.ss, a.len) < 0)
		return fail("connect");
	if (send(fd, "hello\n", 6, 0) < 0)
		return fail("send");
	return reply(fd);
}

static int udp(struct addr a, bool connected, bool opts)
{
	int fd = socket(a.family, SOCK_DGRAM, 0);

	if (fd < 0)
		return fail("socket");
	timeouts(fd, 1000);
	if (connected && connect(fd, (struct sockaddr *)&a.ss, a.len) < 0)
		return fail("connect");
	if (opts) {
		static const unsigned char nops[4] = {1, 1, 1, 0};
		if (setsockopt(fd, IPPROTO_IP, IP_OPTIONS, nops, sizeof(nops)) <
		    0)
			return fail("IP_OPTIONS");
	}
	if ((connected ? send(fd, "hello\n", 6, 0)
		       : sendto(fd, "hello\n", 6, 0, (struct sockaddr *)&a.ss,
				a.len)) < 0)
		return fail("send");
	return reply(fd);
}

/* Ask the echo server at a to answer from port other as well. */
static int reflect(struct addr a, const char *other)
{
	int fd = socket(a.family, SOCK_DGRAM, 0);
	char msg[32], buf[64];
	bool own = false, leak = false;

	if (fd < 0)
		return fail("socket");
	timeouts(fd, 1500);
	snprintf(msg, sizeof(msg), "reflect:%s", other);
	if (sendto(fd, msg, strlen(msg), 0, (struct sockaddr *)&a.ss, a.len) <
	    0)
		return fail("sendto");
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n < 0)
			break;
		buf[n] = '\0';
		if (!strncmp(buf, "from-", 5) && !strcmp(buf + 5, other))
			leak = true;
		else
			own = true;
	}
	if (leak)
		printf("leak %s\n", other);
	else if (own)
		printf("ok own\n");
	else
		printf("timeout\n");
	return leak;
}

static int bind_port(struct addr a, const char *proto)
{
	int fd = socket(a.family,
			strcmp(proto, "udp") ? SOCK_STREAM : SOCK_DGRAM, 0);

	if (fd < 0)
		return fail("socket");
	if (bind(fd, (struct sockaddr *)&a.ss, a.len) < 0)
		return fail("bind");
	printf("ok\n");
	return 0;
}

static int listen_any(int seconds)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in s;
	socklen_t l = sizeof(s);

	if (fd < 0)
		return fail("socket");
	if (listen(fd, 4) < 0)
		return fail("listen");
	if (getsockname(fd, (struct sockaddr *)&s, &l) < 0)
		return fail("getsockname");
	printf("port %u\n", ntohs(s.sin_port));
	fflush(stdout);
	struct pollfd p = {fd, POLLIN, 0};
	if (poll(&p, 1, seconds * 1000) == 1) {
		/* Keep the connection a moment: the client sees it made. */
		int c = accept(fd, NULL, NULL);
		printf("accepted\n");
		usleep(500 * 1000);
		close(c);
		return 1;
	}
	printf("ok nothing accepted\n");
	return 0;
}

static int abstract(const char *name)
{
	struct sockaddr_un u = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	size_t n = strlen(name);

	if (fd < 0)
		return fail("socket");
	memcpy(u.sun_path + 1, name, n);
	if (connect(fd, (struct sockaddr *)&u,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
				n)) < 0)
		return fail("connect");
	printf("ok\n");
	return 0;
}

static int abstract_self(void)
{
	struct sockaddr_un u = {.sun_family = AF_UNIX};
	int l = socket(AF_UNIX, SOCK_STREAM, 0), c;
	int n = snprintf(u.sun_path + 1, sizeof(u.sun_path) - 1,
			 "ward-probe-%d", (int)getpid());
	socklen_t len =
	    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);

	if (l < 0 || bind(l, (struct sockaddr *)&u, len) < 0 ||
	    listen(l, 1) < 0)
		return fail("listen");
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&u, len) < 0)
		return fail("connect");
	printf("ok\n");
	return 0;
}

static int many(const char *addr, int port, int count)
{
	int refused = 0;

	for (int i = 0; i < count; i++) {
		char p[8];
		snprintf(p, sizeof(p), "%d", port + i);
		struct addr a = parse(addr, p);
		int fd = socket(a.family, SOCK_STREAM, 0);
		if (fd < 0)
			return fail("socket");
		if (connect(fd, (struct sockaddr *)&a.ss, a.len) < 0 &&
		    errno == EPERM)
			refused++;
		close(fd);
	}
	printf("ok %d refused\n", refused);
	return 0;
}

/* Is pattern in one of the files? 1 or 0; -1 (errno set) when the first
 * cannot be read, so that an unreadable /proc never passes for "not
 * listed" (the others may be missing: no IPv6). */
static int listed(const char *const *files, const char *pattern)
{
	char line[512];

	for (const char *const *p = files; *p; p++) {
		FILE *f = fopen(*p, "r");

		if (!f && p == files)
			return -1;
		while (f && fgets(line, sizeof(line), f))
			if (strstr(line, pattern)) {
				fclose(f);
				return 1;
			}
		if (f)
			fclose(f);
	}
	return 0;
}

static const char *const procnet_tcp[] = {"/proc/net/tcp", "/proc/net/tcp6",
					  NULL};

/* listed()'s answer on stdout. */
static int say_listed(int r)
{
	if (r < 0)
		return fail("read /proc/net");
	printf("%s\n", r ? "listed" : "not listed");
	return 0;
}

static int procnet_port(int port)
{
	char pat[16];

	snprintf(pat, sizeof(pat), ":%04X ", (unsigned)port);
	return say_listed(listed(procnet_tcp, pat));
}

static int procnet(const char *what, const char *arg)
{
	static const char *const unix_[] = {"/proc/net/unix", NULL};
	char pat[128];

	if (!strcmp(what, "tcp"))
		return procnet_port(atoi(arg));
	snprintf(pat, sizeof(pat), "@%s", arg);
	return say_listed(listed(unix_, pat));
}

/* A listener of our own, then is its port listed? */
static int procnet_own(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return fail("socket");
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 1) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0)
		return fail("listen");
	return procnet_port(ntohs(a.sin_port));
}

/* A connection kept open, then is its peer's port listed? */
static int procnet_peer(struct addr a, int port)
{
	int fd = socket(a.family, SOCK_STREAM, 0);

	if (fd < 0)
		return fail("socket");
	timeouts(fd, 2000);
	if (connect(fd, (struct sockaddr *)&a.ss, a.len) < 0)
		return fail("connect");
	return procnet_port(port);
}

/* Connect, disconnect (AF_UNSPEC), connect again. */
static int unspec(struct addr a)
{
	struct sockaddr un = {.sa_family = AF_UNSPEC};
	int fd = socket(a.family, SOCK_STREAM, 0);

	if (fd < 0)
		return fail("socket");
	timeouts(fd, 2000);
	if (connect(fd, (struct sockaddr *)&a.ss, a.len) < 0)
		return fail("connect");
	if (connect(fd, &un, sizeof(un)) < 0)
		return fail("disconnect");
	if (connect(fd, (struct sockaddr *)&a.ss, a.len) < 0)
		return fail("connect again");
	printf("ok\n");
	return 0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static int loop(int n, struct addr a)
{
	double *us = calloc((size_t)n, sizeof(*us));

	if (!us)
		return 2;
	for (int i = 0; i < n; i++) {
		struct timespec t0, t1;
		int fd = socket(a.family, SOCK_STREAM, 0);
		if (fd < 0)
			return fail("socket");
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (connect(fd, (struct sockaddr *)&a.ss, a.len) < 0)
			return fail("connect");
		clock_gettime(CLOCK_MONOTONIC, &t1);
		us[i] = (t1.tv_sec - t0.tv_sec) * 1e6 +
			(t1.tv_nsec - t0.tv_nsec) / 1e3;
		close(fd);
	}
	qsort(us, (size_t)n, sizeof(*us), cmp_double);
	printf("ok %.2f\n", us[n / 2]);
	free(us);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: netprobe ACTION ARGS...\n");
		return 2;
	}
	const char *a = argv[1];
	if (!strcmp(a, "tcp") && argc == 4)
		return tcp(parse(argv[2], argv[3]));
	if (!strcmp(a, "udp") && argc == 4)
		return udp(parse(argv[2], argv[3]), false, false);
	if (!strcmp(a, "udpc") && argc == 4)
		return udp(parse(argv[2], argv[3]), true, false);
	if (!strcmp(a, "udpopt") && argc == 4)
		return udp(parse(argv[2], argv[3]), true, true);
	if (!strcmp(a, "reflect") && argc == 5)
		return reflect(parse(argv[2], argv[3]), argv[4]);
	if (!strcmp(a, "bind") && argc == 5)
		return bind_port(parse(argv[2], argv[3]), argv[4]);
	if (!strcmp(a, "listen") && argc == 3)
		return listen_any(atoi(argv[2]));
	if (!strcmp(a, "socket") && argc == 5) {
		int fd = socket(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
		if (fd < 0)
			return fail("socket");
		printf("ok\n");
		return 0;
	}
	if (!strcmp(a, "abstract") && argc == 3)
		return abstract(argv[2]);
	if (!strcmp(a, "abstract-self") && argc == 2)
		return abstract_self();
	if (!strcmp(a, "many") && argc == 5)
		return many(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (!strcmp(a, "mark") && argc == 4) {
		struct addr m = parse(argv[2], "9");
		int fd = socket(m.family, SOCK_DGRAM, 0);
		if (fd < 0 || sendto(fd, argv[3], strlen(argv[3]), 0,
				     (struct sockaddr *)&m.ss, m.len) < 0)
			return fail("mark");
		return 0;
	}
	if (!strcmp(a, "serve") && argc == 4) {
		struct addr m = parse(argv[2], argv[3]);
		int one = 1, fd = socket(m.family, SOCK_STREAM, 0);
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (fd < 0 || bind(fd, (struct sockaddr *)&m.ss, m.len) < 0 ||
		    listen(fd, 4096) < 0)
			return fail("serve");
		printf("ok\n");
		for (;;) {
			int c = accept(fd, NULL, NULL);
			if (c >= 0)
				close(c);
		}
	}
	if (!strcmp(a, "procnet") && argc == 4)
		return procnet(argv[2], argv[3]);
	if (!strcmp(a, "procnet-own") && argc == 2)
		return procnet_own();
	if (!strcmp(a, "procnet-peer") && argc == 4)
		return procnet_peer(parse(argv[2], argv[3]), atoi(argv[3]));
	if (!strcmp(a, "unspec") && argc == 4)
		return unspec(parse(argv[2], argv[3]));
	if (!strcmp(a, "loop") && argc == 5)
		return loop(atoi(argv[2]), parse(argv[3], argv[4]));
	fprintf(stderr, "netprobe: bad action %s\n", a);
	return 2;
}
