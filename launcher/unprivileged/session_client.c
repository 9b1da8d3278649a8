/* SPDX-License-Identifier: MIT */
/*
 * session_client.c: `ward session exec|status|interrupt|stop SOCKET`, thin
 * clients of the protocol (docs/spec.md 7.2-7.4): one request, and every
 * reply frame until its answer, one JSON object a line on stdout.
 */
#include "session.h"
#include "session_proto.h"

#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* All of n bytes, either way (out: written); 0 or -1. */
static int full_io(int fd, void *b, size_t n, bool out)
{
	char *p = b;

	while (n) {
		ssize_t k = out ? write(fd, p, n) : read(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The code of an exec: the argument, or stdin for "-". */
static uint8_t *read_code(const char *arg, size_t *len)
{
	size_t cap = 4096, n = 0;
	uint8_t *b;

	if (strcmp(arg, "-")) {
		*len = strlen(arg);
		return (uint8_t *)strdup(arg);
	}
	b = malloc(cap);
	while (b) {
		ssize_t k = read(0, b + n, cap - n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
		if (n == cap) {
			uint8_t *nb = n > WARD_SESSION_CODE_MAX
					  ? NULL
					  : realloc(b, cap *= 2);

			if (!nb) {
				free(b);
				return NULL;
			}
			b = nb;
		}
	}
	*len = n;
	return b;
}

static bool has(const char *body, const char *type)
{
	char want[40];

	snprintf(want, sizeof(want), "{\"type\":\"%s\"", type);
	return !strncmp(body, want, strlen(want));
}

int ward_session_client(int argc, char **argv)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	uint64_t wall = 0, maxout = 0;
	const char *verb = argv[0], *sock;
	uint8_t *body = NULL, hdr[4];
	size_t blen = 0;
	int i = 1, fd, code = 0;

	while (i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-') {
		if (!strcmp(argv[i], "--timeout") &&
		    ward_parse_duration_ms(argv[i + 1], &wall) == 0)
			i += 2;
		else if (!strcmp(argv[i], "--max-output"))
			maxout = strtoull(argv[i + 1], NULL, 10), i += 2;
		else
			break;
	}
	if (i >= argc || wall > UINT32_MAX || maxout > UINT32_MAX) {
		fprintf(stderr, "ward session %s: bad arguments\n", verb);
		return 125;
	}
	sock = argv[i++];
	if (!strcmp(verb, "exec")) {
		size_t clen = 0;
		uint8_t *c = read_code(i < argc ? argv[i] : "-", &clen);

		if (!c || !(body = malloc(clen + 9))) {
			free(c);
			fprintf(stderr, "ward session exec: no code\n");
			return 125;
		}
		body[0] = WARD_SQ_EXEC;
		put32(body + 1, (uint32_t)wall);
		put32(body + 5, (uint32_t)maxout);
		memcpy(body + 9, c, clen);
		free(c);
		blen = clen + 9;
	} else {
		body = calloc(1, 5);
		if (!body)
			return 125;
		blen = 1;
		if (!strcmp(verb, "status"))
			body[0] = WARD_SQ_STATUS;
		else if (!strcmp(verb, "stop"))
			body[0] = WARD_SQ_STOP;
		else if (!strcmp(verb, "interrupt"))
			body[0] = WARD_SQ_INTERRUPT, blen = 5;
		else {
			free(body);
			fprintf(stderr, "ward session: unknown verb %s\n",
				verb);
			return 125;
		}
	}
	if (strlen(sock) >= sizeof(a.sun_path) ||
	    (fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		free(body);
		return 125;
	}
	memcpy(a.sun_path, sock, strlen(sock) + 1);
	put32(hdr, (uint32_t)blen);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    full_io(fd, hdr, 4, true) < 0 ||
	    full_io(fd, body, blen, true) < 0) {
		fprintf(stderr, "ward session %s: %s: %s\n", verb, sock,
			strerror(errno));
		free(body);
		close(fd);
		return 125;
	}
	free(body);
	for (;;) {
		uint32_t len;
		char *b;

		if (full_io(fd, hdr, 4, false) < 0 ||
		    ward_sframe_len(hdr, &len)) {
			code = code ? code : 125;
			break;
		}
		b = malloc(len + 1);
		if (!b || full_io(fd, b, len, false) < 0) {
			free(b);
			code = 125;
			break;
		}
		b[len] = '\0';
		printf("%s\n", b);
		fflush(stdout);
		if (has(b, "error") || has(b, "ended"))
			code = 125;
		if (has(b, "result"))
			code = strstr(b, "\"status\":\"ok\"") ? 0 : 1;
		if (has(b, "error") || has(b, "ended") || has(b, "result") ||
		    (strcmp(verb, "exec") && !has(b, "stdout") &&
		     !has(b, "stderr"))) {
			free(b);
			break;
		}
		free(b);
	}
	close(fd);
	return code;
}
