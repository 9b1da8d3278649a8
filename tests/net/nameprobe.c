/* SPDX-License-Identifier: MIT */
/*
 * nameprobe.c: the sandbox's side of tests/net/names.sh (issue 22). Built
 * dynamically, so that getaddrinfo() is glibc's own, reading the
 * sandbox's nsswitch.conf and resolv.conf as any program does.
 *
 *   nameprobe resolve NAME          the IPv4 addresses, or "noaddr GAIERR"
 *   nameprobe connect NAME PORT     resolve, connect to the first, read:
 *                                   "ok ADDR DATA" or "refused ERRNO"
 *   nameprobe connectip ADDR PORT   the same to an address given
 *   nameprobe rawdns ADDR NAME      a query of our own to ADDR:53 (UDP):
 *                                   "answer" or "noanswer ERRNO"
 */
#define _GNU_SOURCE /* strerrorname_np, EAI_NODATA */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int dial(const char *addr, int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	char buf[64] = "";
	int s = socket(AF_INET, SOCK_STREAM, 0);
	ssize_t n;

	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1 || s < 0) {
		printf("error\n");
		return 1;
	}
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0) {
		printf("refused %s\n", strerrorname_np(errno));
		return 1;
	}
	n = read(s, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	printf("ok %s %s\n", addr, buf);
	return 0;
}

static int resolve(const char *name, char *first, size_t len)
{
	struct addrinfo hints = {.ai_family = AF_INET,
				 .ai_socktype = SOCK_STREAM};
	struct addrinfo *res, *r;
	int e = getaddrinfo(name, NULL, &hints, &res);

	if (e) {
		printf("noaddr %s\n", e == EAI_NONAME	? "EAI_NONAME"
				      : e == EAI_NODATA ? "EAI_NODATA"
				      : e == EAI_AGAIN	? "EAI_AGAIN"
							: "EAI_OTHER");
		return -1;
	}
	for (r = res; r; r = r->ai_next) {
		char a[INET_ADDRSTRLEN];

		inet_ntop(AF_INET,
			  &((struct sockaddr_in *)r->ai_addr)->sin_addr, a,
			  sizeof(a));
		if (r == res)
			snprintf(first, len, "%s", a);
	}
	freeaddrinfo(res);
	return 0;
}

static int rawdns(const char *addr, const char *name)
{
	unsigned char q[300] = {0x12, 0x34, 0x01, 0, 0, 1, 0, 0, 0, 0, 0, 0};
	size_t o = 12;
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(53)};
	struct pollfd pfd;
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	for (const char *p = name; *p;) {
		size_t l = strcspn(p, ".");
		q[o++] = (unsigned char)l;
		memcpy(q + o, p, l);
		o += l;
		p += l + (p[l] == '.');
	}
	q[o++] = 0;
	q[o++] = 0, q[o++] = 1, q[o++] = 0, q[o++] = 1;
	inet_pton(AF_INET, addr, &a.sin_addr);
	if (sendto(s, q, o, 0, (struct sockaddr *)&a, sizeof(a)) < 0) {
		printf("noanswer %s\n", strerrorname_np(errno));
		return 1;
	}
	pfd = (struct pollfd){s, POLLIN, 0};
	if (poll(&pfd, 1, 1000) == 1 && recv(s, q, sizeof(q), 0) > 0) {
		printf("answer\n");
		return 0;
	}
	printf("noanswer timeout\n");
	return 1;
}

int main(int argc, char **argv)
{
	char first[64];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 3 && !strcmp(argv[1], "resolve")) {
		if (resolve(argv[2], first, sizeof(first)) < 0)
			return 1;
		printf("addr %s\n", first);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "connect"))
		return resolve(argv[2], first, sizeof(first)) < 0
			   ? 1
			   : dial(first, atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "connectip"))
		return dial(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "rawdns"))
		return rawdns(argv[2], argv[3]);
	fprintf(stderr, "usage: see nameprobe.c\n");
	return 2;
}
