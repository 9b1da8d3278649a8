/* SPDX-License-Identifier: MIT */
/*
 * relay.c: the relayed connections (relay.h). Every descriptor is
 * non-blocking: the broker's loop polls them beside the notifications and
 * never waits for a peer.
 */
#include "relay.h"

#include "broker_net.h"
#include "denial_event.h"
#include "dns.h"
#include "http_host.h"
#include "http_proxy.h"
#include "records.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define PIPE_BYTES (1 << 20) /* each pipe's size, where the host allows */
#define CHUNK	   (1 << 20)

static struct ward_relay relays[WARD_RELAY_MAX];

static void mono(struct timespec *t)
{
	clock_gettime(CLOCK_MONOTONIC, t);
}

static void close_all(struct ward_relay *r)
{
	if (r->in >= 0)
		close(r->in);
	if (r->out >= 0)
		close(r->out);
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < 2; k++)
			if (r->pipe[d][k] >= 0)
				close(r->pipe[d][k]);
}

/* Its record, once: refused ones as refused, with EPERM, and told to a
 * session's server as the broker's other refusals are (a cell's
 * denials). */
static void end(struct ward_broker *b, struct ward_relay *r, uint8_t how, int e)
{
	bool refused = how >= WARD_RELAY_NO_SNI && how <= WARD_RELAY_TIMEOUT;
	int i;

	r->rec.relay = how;
	r->rec.verdict = refused ? WARD_NV_REFUSED : WARD_NV_ALLOWED;
	r->rec.err = refused ? EPERM : e;
	i = ward_record_net(b->f, &r->rec);
	if (refused)
		ward_broker_net_event(b, WARD_NETEV_ATTEMPT, i);
	close_all(r);
	r->used = false;
}

static bool past(const struct timespec *until)
{
	struct timespec t;

	mono(&t);
	return t.tv_sec > until->tv_sec ||
	       (t.tv_sec == until->tv_sec && t.tv_nsec >= until->tv_nsec);
}

/* The server's connect (or the proxy's), once the ClientHello, if any,
 * is judged. With a proxy, its CONNECT request for the name judged, and
 * a time for all of it. false: ended. */
static bool start_up(struct ward_broker *b, struct ward_relay *r)
{
	r->hello = false;
	if (r->proxy == WARD_RP_REQUEST) {
		const char *name = r->rec.sni[0] ? r->rec.sni : r->rec.name;
		int n =
		    snprintf(r->req, sizeof(r->req),
			     "CONNECT %s:%u HTTP/1.1\r\nHost: %s:%u\r\n\r\n",
			     name, r->rec.port, name, r->rec.port);

		if (!name[0] || n < 0 || (size_t)n >= sizeof(r->req)) {
			end(b, r, WARD_RELAY_FAILED, EINVAL);
			return false;
		}
		r->rlen = (size_t)n;
		r->rsent = r->plen = 0;
		mono(&r->until);
		r->until.tv_sec += WARD_PROXY_MS / 1000;
	}
	if (connect(r->out, (const struct sockaddr *)&r->to, r->tolen) < 0 &&
	    errno != EINPROGRESS) {
		end(b, r, WARD_RELAY_FAILED, errno);
		return false;
	}
	r->connecting = true;
	return true;
}

/* recv(2) as recvmsg(2): the one the broker's own filter allows. */
static ssize_t take(int fd, uint8_t *m, size_t len, int flags)
{
	struct iovec v = {m, len};
	struct msghdr h = {.msg_iov = &v, .msg_iovlen = 1};

	return recvmsg(fd, &h, flags | MSG_DONTWAIT);
}

/* The proxy's side, before the tunnel: the request sent, the reply read
 * up to its empty line and no further (what follows is the server's):
 * what came is peeked behind what was taken before and judged, then taken
 * whole when the head has not ended in it (so the socket never stays
 * readable with nothing done: no spinning on a slow proxy), or exactly to
 * the head's end when it has. false: ended, or not yet through. */
static bool proxy_step(struct ward_broker *b, struct ward_relay *r,
		       const struct pollfd *out)
{
	uint8_t *m = r->reply;
	size_t head = 0;
	unsigned status = 0;
	ssize_t n;

	if (r->proxy == WARD_RP_REQUEST) {
		n = send(r->out, r->req + r->rsent, r->rlen - r->rsent,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			end(b, r, WARD_RELAY_FAILED, errno);
			return false;
		}
		if (n > 0)
			r->rsent += (size_t)n;
		if (r->rsent < r->rlen)
			return false;
		r->proxy = WARD_RP_REPLY;
		return false;
	}
	if (!(out->revents & (POLLIN | POLLHUP | POLLERR)))
		return false;
	n = take(r->out, m + r->plen, sizeof(r->reply) - r->plen, MSG_PEEK);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return false;
	if (n <= 0) {
		end(b, r, WARD_RELAY_PROXY_INVALID, n < 0 ? errno : ECONNRESET);
		return false;
	}
	switch (ward_proxy_reply(m, r->plen + (size_t)n, &head, &status)) {
	case WARD_PROXY_MORE:
		/* No end in it: all of it is the head's. */
		if (take(r->out, m + r->plen, (size_t)n, 0) != n) {
			end(b, r, WARD_RELAY_FAILED, EIO);
			return false;
		}
		r->plen += (size_t)n;
		return false;
	case WARD_PROXY_INVALID:
		end(b, r, WARD_RELAY_PROXY_INVALID, EPROTO);
		return false;
	case WARD_PROXY_OK:
		break;
	}
	r->rec.proxy = (uint16_t)status;
	if (status < 200 || status > 299) {
		end(b, r, WARD_RELAY_PROXY_REFUSED, ECONNREFUSED);
		return false;
	}
	/* Exactly to the head's end: it was peeked, so this reads no
	 * more. */
	if (take(r->out, m + r->plen, head - r->plen, 0) !=
	    (ssize_t)(head - r->plen)) {
		end(b, r, WARD_RELAY_FAILED, EIO);
		return false;
	}
	r->proxy = WARD_RP_TUNNEL;
	return true;
}

bool ward_relay_room(void)
{
	for (size_t i = 0; i < WARD_RELAY_MAX; i++)
		if (!relays[i].used)
			return true;
	return false;
}

int ward_relay_start(struct ward_broker *b, int in, int out,
		     const struct ward_net_record *rec,
		     const struct sockaddr_storage *to, socklen_t tolen)
{
	struct ward_relay *r = NULL;

	for (size_t i = 0; i < WARD_RELAY_MAX && !r; i++)
		if (!relays[i].used)
			r = &relays[i];
	if (!r) {
		close(in);
		close(out);
		return EAGAIN;
	}
	r->used = true;
	/* The ClientHello (or HTTP head) is read first on the ports that
	 * carry one; through a proxy, the other ports' connections of name
	 * rules come here too, and start at once. */
	r->hello = rec->port == WARD_RELAY_TLS || rec->port == WARD_RELAY_HTTP;
	r->up_connected = r->connecting = false;
	r->proxy = ward_proxy_on() ? WARD_RP_REQUEST : WARD_RP_NONE;
	if (r->proxy) {
		socklen_t plen;
		const struct sockaddr_storage *pa = ward_proxy_addr(&plen);

		r->to = *pa;
		r->tolen = plen;
	} else {
		r->to = *to;
		r->tolen = tolen;
	}
	r->in = in;
	r->out = out;
	r->hlen = r->hsent = 0;
	r->rec = *rec;
	r->rec.sni[0] = '\0';
	r->rec.sent = r->rec.received = 0;
	r->rec.proxy = r->proxy ? 1 : 0;
	for (int d = 0; d < 2; d++) {
		r->fill[d] = 0;
		r->eof[d] = r->done[d] = false;
		if (pipe2(r->pipe[d], O_NONBLOCK | O_CLOEXEC) < 0) {
			int e = errno;

			r->pipe[d][0] = r->pipe[d][1] = -1;
			if (d == 0)
				r->pipe[1][0] = r->pipe[1][1] = -1;
			close_all(r);
			r->used = false;
			return e;
		}
		fcntl(r->pipe[d][0], F_SETPIPE_SZ, PIPE_BYTES);
	}
	/* The pair's buffer: the most the host allows a user, to move as
	 * much per wakeup as TCP does. */
	setsockopt(in, SOL_SOCKET, SO_SNDBUF, &(int){PIPE_BYTES}, sizeof(int));
	mono(&r->until);
	r->until.tv_sec += WARD_RELAY_HELLO_MS / 1000;
	/* (On failure it ended, on the record: the task sees its end
	 * close, as a reset connection.) */
	if (!r->hello)
		start_up(b, r);
	return 0;
}

size_t ward_relay_poll(struct ward_broker *b, struct pollfd *pfd,
		       struct ward_relay **which)
{
	size_t n = 0;

	(void)b;
	for (size_t i = 0; i < WARD_RELAY_MAX; i++) {
		struct ward_relay *r = &relays[i];
		short ein = 0, eout = 0;

		if (!r->used)
			continue;
		if (r->hello) {
			ein = POLLIN;
		} else if (!r->up_connected) {
			eout = POLLOUT;
		} else if (r->proxy == WARD_RP_REQUEST) {
			eout = POLLOUT;
		} else if (r->proxy == WARD_RP_REPLY) {
			eout = POLLIN;
		} else if (r->hello || r->hsent < r->hlen) {
			ein = r->hello ? POLLIN : 0;
			eout = r->hello ? 0 : POLLOUT;
		} else {
			/* Direction 0 reads in and writes out; 1 the other
			 * way. A full pipe waits for its writer. */
			if (!r->eof[0] && r->fill[0] < PIPE_BYTES)
				ein |= POLLIN;
			if (r->fill[0])
				eout |= POLLOUT;
			if (!r->eof[1] && r->fill[1] < PIPE_BYTES)
				eout |= POLLIN;
			if (r->fill[1])
				ein |= POLLOUT;
		}
		which[n / 2] = r;
		pfd[n++] = (struct pollfd){r->in, ein, 0};
		pfd[n++] =
		    (struct pollfd){r->connecting ? r->out : -1, eout, 0};
	}
	return n;
}

/* The ClientHello so far: read more, judge it. false: ended. */
static bool read_hello(struct ward_broker *b, struct ward_relay *r)
{
	static const uint8_t how[] = {
	    [WARD_HELLO_NO_SNI] = WARD_RELAY_NO_SNI,
	    [WARD_HELLO_ECH] = WARD_RELAY_ECH,
	    [WARD_HELLO_INVALID] = WARD_RELAY_INVALID,
	};
	struct ward_addr a = {.family = r->rec.family, .port = r->rec.port};
	enum ward_hello h;
	ssize_t n = read(r->in, r->buf + r->hlen, sizeof(r->buf) - r->hlen);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	if (n <= 0) {
		end(b, r, WARD_RELAY_INVALID, 0);
		return false;
	}
	r->hlen += (size_t)n;
	h = r->rec.port == WARD_RELAY_HTTP
		? ward_http_host(r->buf, r->hlen, r->rec.sni)
		: ward_tls_hello(r->buf, r->hlen, r->rec.sni);
	if (h == WARD_HELLO_MORE && r->hlen < sizeof(r->buf))
		return true;
	if (h == WARD_HELLO_MORE)
		h = WARD_HELLO_INVALID; /* longer than one record */
	if (h != WARD_HELLO_SNI) {
		end(b, r, how[h], 0);
		return false;
	}
	memcpy(a.addr, r->rec.addr, sizeof(a.addr));
	if (!ward_dns_learned_as(b, &a, r->rec.sni)) {
		end(b, r, WARD_RELAY_OTHER, 0);
		return false;
	}
	return start_up(b, r);
}

/* Move what one direction can: source to its pipe, its pipe to the
 * destination, until either would block (a bounded number of rounds: the
 * loop serves the notifications too). false: ended. */
static bool pump(struct ward_broker *b, struct ward_relay *r, int d)
{
	int src = d == 0 ? r->in : r->out, dst = d == 0 ? r->out : r->in;
	uint64_t *count = d == 0 ? &r->rec.sent : &r->rec.received;
	bool moved = true;
	ssize_t n;

	for (int round = 0; moved && round < 64; round++) {
		moved = false;
		if (!r->eof[d] && r->fill[d] < PIPE_BYTES) {
			n = splice(src, NULL, r->pipe[d][1], NULL, CHUNK,
				   SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
			if (n > 0) {
				r->fill[d] += (size_t)n;
				moved = true;
			} else if (n == 0) {
				r->eof[d] = true;
			} else if (errno != EAGAIN && errno != EINTR) {
				end(b, r, WARD_RELAY_FAILED, errno);
				return false;
			}
		}
		while (r->fill[d]) {
			n = splice(r->pipe[d][0], NULL, dst, NULL, r->fill[d],
				   SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
			if (n > 0) {
				r->fill[d] -= (size_t)n;
				*count += (uint64_t)n;
				moved = true;
				continue;
			}
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				break;
			/* The reader is gone (EPIPE, a reset): over. */
			end(b, r, WARD_RELAY_CLOSED, 0);
			return false;
		}
	}
	if (r->eof[d] && !r->fill[d] && !r->done[d]) {
		r->done[d] = true;
		shutdown(dst, SHUT_WR);
	}
	return true;
}

void ward_relay_event(struct ward_broker *b, struct ward_relay *r,
		      const struct pollfd *pfd)
{
	if (!r->used)
		return;
	if (r->hello && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) &&
	    !read_hello(b, r))
		return;
	if (r->connecting && !r->up_connected && pfd[1].revents) {
		int e = 0;
		socklen_t len = sizeof(e);

		if (getsockopt(r->out, SOL_SOCKET, SO_ERROR, &e, &len) < 0)
			e = errno;
		if (e) {
			end(b, r, WARD_RELAY_FAILED, e);
			return;
		}
		r->up_connected = true;
	}
	if (r->hello || !r->up_connected)
		return;
	if ((r->proxy == WARD_RP_REQUEST || r->proxy == WARD_RP_REPLY) &&
	    !proxy_step(b, r, &pfd[1]))
		return;
	if (r->hsent < r->hlen) {
		ssize_t n = send(r->out, r->buf + r->hsent, r->hlen - r->hsent,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			end(b, r, WARD_RELAY_FAILED, errno);
			return;
		}
		if (n > 0) {
			r->hsent += (size_t)n;
			r->rec.sent += (uint64_t)n;
		}
		if (r->hsent < r->hlen)
			return;
	}
	if (!pump(b, r, 0) || !pump(b, r, 1))
		return;
	/* Both ways ended, or the task's end closed and nothing is left
	 * for it to send. */
	if ((r->done[0] && r->done[1]) ||
	    ((pfd[0].revents & POLLHUP) && r->done[0]))
		end(b, r, WARD_RELAY_CLOSED, 0);
}

/* The sandbox is gone: what its side closed, and what is left to pass
 * on, seen before the records are made (the end of the run may come
 * before the broker's loop saw the task's end close). Never waits. */
static void drain(struct ward_broker *b)
{
	struct pollfd pfd[2 * WARD_RELAY_MAX];
	struct ward_relay *which[WARD_RELAY_MAX];

	for (int round = 0; round < 8; round++) {
		size_t n = ward_relay_poll(b, pfd, which);

		if (n == 0 || poll(pfd, n, 0) <= 0)
			return;
		for (size_t i = 0; i < n; i += 2)
			if (pfd[i].revents || pfd[i + 1].revents)
				ward_relay_event(b, which[i / 2], pfd + i);
	}
}

void ward_relay_sweep(struct ward_broker *b, bool all)
{
	if (all)
		drain(b);
	for (size_t i = 0; i < WARD_RELAY_MAX; i++) {
		struct ward_relay *r = &relays[i];

		if (!r->used)
			continue;
		if (all)
			end(b, r,
			    r->hello ? WARD_RELAY_TIMEOUT : WARD_RELAY_RUN_END,
			    0);
		else if (r->hello && past(&r->until))
			end(b, r, WARD_RELAY_TIMEOUT, 0);
		else if (r->proxy != WARD_RP_NONE &&
			 r->proxy != WARD_RP_TUNNEL && past(&r->until))
			end(b, r, WARD_RELAY_PROXY_TIMEOUT, ETIMEDOUT);
	}
}
