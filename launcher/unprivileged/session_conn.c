/* SPDX-License-Identifier: MIT */
/*
 * session_conn.c: the session server's callers (docs/spec.md 7.2): frames
 * taken as they complete, one at most held per caller, replies queued
 * under a cap, nothing waited for.
 */
#include "session_srv.h"

#include "json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

uint64_t ward_snow_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void ward_sconn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->in);
	free(c->out);
	*c = (struct conn){.fd = -1, .gen = c->gen + 1};
}

/* Queue one reply frame; a caller whose backlog passes the cap is dropped
 * (it stopped reading: it is not waited for). */
void ward_sconn_send(struct conn *c, const char *body, size_t len)
{
	uint8_t *n;
	size_t need;

	if (c->fd < 0 || c->dead)
		return;
	if (c->out_off == c->out_len)
		c->out_off = c->out_len = 0;
	need = c->out_len + 4 + len;
	if (need > WARD_SESSION_OUTBUF_MAX) {
		c->dead = true;
		c->out_off = c->out_len = 0;
		return;
	}
	n = realloc(c->out, need);
	if (!n) {
		c->dead = true;
		return;
	}
	c->out = n;
	n += c->out_len;
	n[0] = (uint8_t)(len >> 24);
	n[1] = (uint8_t)(len >> 16);
	n[2] = (uint8_t)(len >> 8);
	n[3] = (uint8_t)len;
	memcpy(n + 4, body, len);
	c->out_len = need;
}

FILE *ward_smsg_open(struct msg *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f;
}

/* Closes m; to c unless it is NULL; the body stays in m->buf. */
void ward_smsg_close(struct msg *m, struct conn *c)
{
	if (!m->f)
		return;
	fclose(m->f);
	m->f = NULL;
	if (c && m->buf)
		ward_sconn_send(c, m->buf, m->len);
}

void ward_smsg_send(struct msg *m, struct conn *c)
{
	ward_smsg_close(m, c);
	free(m->buf);
	m->buf = NULL;
}

void ward_serror(struct srv *s, struct conn *c, const char *code,
		 const char *text)
{
	struct msg m;

	s->refused++;
	if (!ward_smsg_open(&m))
		return;
	fputs("{\"type\":\"error\",\"code\":", m.f);
	ward_json_str(m.f, code);
	fputs(",\"message\":", m.f);
	ward_json_str(m.f, text);
	fputs("}", m.f);
	ward_smsg_send(&m, c);
}

struct conn *ward_sowner(struct srv *s, const struct cell *cl)
{
	struct conn *c;

	if (cl->conn < 0)
		return NULL;
	c = &s->conns[cl->conn];
	return c->fd >= 0 && c->gen == cl->gen ? c : NULL;
}

/* Some bytes of a non-blocking descriptor: their count, 0 when there are
 * none now, -1 at its end (or an error, which ends it too). */
ssize_t ward_sread_some(int fd, char *buf, size_t len)
{
	for (;;) {
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		return n > 0 ? n : -1;
	}
}

void ward_sconn_flush(struct conn *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n =
		    write(c->fd, c->out + c->out_off, c->out_len - c->out_off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			c->dead = true;
			c->out_off = c->out_len = 0;
			return;
		}
		c->out_off += (size_t)n;
	}
}

void ward_saccept(struct srv *s)
{
	int fd = accept4(s->cfg->listen_fd, NULL, NULL,
			 SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	for (int i = 0; i < WARD_SESSION_CONNS; i++) {
		if (s->conns[i].fd < 0) {
			s->conns[i].fd = fd;
			return;
		}
	}
	{
		struct conn tmp = {.fd = fd};

		ward_serror(s, &tmp, "too_many_connections",
			    "the session serves few callers at once");
		ward_sconn_flush(&tmp);
		ward_sconn_close(&tmp);
	}
}

void ward_sconn_read(struct srv *s, int ci)
{
	struct conn *c = &s->conns[ci];
	uint8_t buf[65536];

	for (;;) {
		ssize_t n = ward_sread_some(c->fd, (char *)buf, sizeof(buf));
		size_t off = 0;

		if (n < 0) {
			ward_sconn_close(c);
			return;
		}
		if (n == 0)
			break;
		/* Frames are taken from the buffer as they complete: at most
		 * one frame is ever held. */
		while (off < (size_t)n && !c->dead) {
			uint32_t flen = 0;
			size_t want, take;
			uint8_t *nb;
			const char *bad;

			want = c->in_len < 4 ? 4 : 0;
			if (!want) {
				bad = ward_sframe_len(c->in, &flen);
				if (bad) {
					ward_serror(s, c, bad,
						    "the frame's length is "
						    "refused");
					c->dead = true;
					break;
				}
				want = 4 + flen;
			}
			take = want - c->in_len;
			if (take > (size_t)n - off)
				take = (size_t)n - off;
			nb = realloc(c->in, c->in_len + take);
			if (!nb) {
				c->dead = true;
				break;
			}
			c->in = nb;
			memcpy(c->in + c->in_len, buf + off, take);
			c->in_len += take;
			off += take;
			if (c->in_len == want && want > 4) {
				ward_srequest(s, ci, c->in + 4, c->in_len - 4);
				c->in_len = 0;
			}
		}
		if (c->dead)
			return;
		c->partial_since =
		    c->in_len
			? (c->partial_since ? c->partial_since : ward_snow_ms())
			: 0;
	}
}
