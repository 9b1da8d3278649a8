/* SPDX-License-Identifier: MIT */
/*
 * broker_net.c: connect() and sendto() through the socket broker
 * (broker_net.h, docs/spec.md 5.6).
 *
 * With an allow-list the sandbox has a network namespace of its own, with
 * loopback only; every connect() and every sendto() with an address comes
 * here. What the broker does, and why each is safe whatever the task
 * rewrites in its memory or its descriptor table meanwhile:
 *
 *   connect   always performed by the broker, on its own descriptor of the
 *             task's socket and its own copy of the address, never let
 *             through (SECCOMP_USER_NOTIF_FLAG_CONTINUE would have the
 *             kernel read both again):
 *               to an allowed destination, from a sandbox socket: a socket
 *                 of the host's namespace, made and connected by the
 *                 broker, installed in place of the task's;
 *               from a socket of the host's (one the broker installed):
 *                 TCP is never connected again nor disconnected (its state
 *                 is answered, as connect() would); UDP only to an allowed
 *                 destination;
 *               anything else, on the task's own socket: its loopback, a
 *                 unix socket (resolved in the task's file system), a
 *                 refused destination's refusal;
 *   sendto    a UDP datagram to an allowed destination is sent by the
 *             broker (the payload copied once, after which the
 *             notification is checked again); a refused one is refused;
 *             any other is let through: TCP ignores the address, a unix
 *             or sandbox socket reaches only the sandbox, and a socket of
 *             the host's that the task slips in meanwhile is a UDP one
 *             (TCP ignores the address) only where the cgroup programs
 *             check every datagram (WARD_REQ_NET_BPF: UDP rules need root
 *             mode and cgroup2).
 *
 * A socket of the host's, once installed, holds: listen() on it fails
 * (never unconnected), bind() fails (bound), a connect hidden in a send
 * (MSG_FASTOPEN) and source routes (IP options, IPv6 routing headers) are
 * refused by the program (compiler/codegen/net_rules.c).
 */
#include "broker_net.h"

#include "denial_event.h"

#include "dns.h"
#include "http_proxy.h"
#include "records.h"
#include "relay.h"
#include "sockaddr.h"
#include "unixpath.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

#define PENDING (-2) /* the call waits in the pending table */
#define GONE	(-1) /* the notification went away: nothing to answer */

/* ------------------------------------------------------------ probe */

/* kernel.yama.ptrace_scope, 0 without Yama. */
static int yama_scope(void)
{
	_cleanup_close_ int fd =
	    open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);
	char c = '0';

	if (fd >= 0 && read(fd, &c, 1) != 1)
		c = '3';
	return c - '0';
}

int ward_broker_net_probe(struct ward_broker *b, ward_err *err)
{
	int scope = yama_scope();
	socklen_t len = sizeof(b->host_cookie);
	_cleanup_close_ int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	/* The broker reads the sandbox's memory and takes its descriptors
	 * with no privilege: as the same user, and (Yama's scope 1) as the
	 * owner of its user namespace, which a root-mode broker is not. */
	if (scope >= 2 || (scope == 1 && b->root_mode))
		return ward_fail(
		    err, 0,
		    "the socket broker reads the address of the sandbox's "
		    "connect() and takes its socket, which "
		    "kernel.yama.ptrace_scope = %d forbids to a process "
		    "without privilege%s: give the policy `net none`, or set "
		    "the sysctl to %s",
		    scope,
		    scope == 1 ? " that is not the owner of the "
				 "sandbox's user namespace (in root "
				 "mode it is root's); rootless ward "
				 "is"
			       : "",
		    scope == 1 ? "0" : "1 and run ward rootless");
	if (s < 0)
		s = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return ward_fail(err, errno, "the socket broker: a socket");
	if (getsockopt(s, SOL_SOCKET, SO_NETNS_COOKIE, &b->host_cookie, &len) <
	    0)
		return ward_fail(
		    err, errno,
		    "the socket broker needs SO_NETNS_COOKIE (Linux 5.14, "
		    "with SECCOMP_ADDFD_FLAG_SEND) to tell the sockets it "
		    "made from the sandbox's: give the policy `net none`, or "
		    "use a newer kernel");
	return 0;
}

/* ------------------------------------------------------------ the call */

/* What the broker knows of the task's socket. */
struct sock_info {
	int fd; /* the broker's descriptor of it (pidfd_getfd) */
	int domain, type, protocol;
	bool host; /* in the broker's network namespace: one it made */
	int fl;	   /* its file status flags */
};

struct call {
	const struct ward_notif *n;
	uint64_t id;
	pid_t tid;
	int num; /* the task's descriptor number */
	int pidfd;
	struct sock_info s;
	struct ward_addr a;
};

static void call_close(struct call *c)
{
	if (c->s.fd >= 0)
		close(c->s.fd);
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->s.fd = c->pidfd = -1;
}

static int opt_int(int fd, int level, int name, int *v)
{
	socklen_t len = sizeof(*v);

	return getsockopt(fd, level, name, v, &len);
}

static int sock_info(struct ward_broker *b, int pidfd, int num,
		     struct sock_info *s)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);

	s->fd = ward_task_getfd(pidfd, num);
	if (s->fd < 0)
		return errno;
	if (opt_int(s->fd, SOL_SOCKET, SO_DOMAIN, &s->domain) < 0 ||
	    opt_int(s->fd, SOL_SOCKET, SO_TYPE, &s->type) < 0 ||
	    opt_int(s->fd, SOL_SOCKET, SO_PROTOCOL, &s->protocol) < 0)
		return errno == ENOTSOCK ? ENOTSOCK : errno;
	if (getsockopt(s->fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) < 0)
		return errno;
	s->host = cookie == b->host_cookie;
	s->fl = fcntl(s->fd, F_GETFL);
	return s->fl < 0 ? errno : 0;
}

/* Steps 2 and 3 of notif.h: the task's socket num, one copy of the
 * address at ptr, then the notification checked. 0, an errno to answer,
 * or GONE. */
static int take(struct ward_broker *b, struct call *c, int num, uint64_t ptr,
		uint64_t len)
{
	int e;

	c->id = c->n->u.n.id;
	c->tid = (pid_t)c->n->u.n.pid;
	c->num = num;
	c->pidfd = ward_task_pidfd(c->tid);
	if (c->pidfd < 0)
		return ward_notif_valid(b->listener, c->id) ? EPERM : GONE;
	e = sock_info(b, c->pidfd, num, &c->s);
	if (!e)
		e = ward_addr_copy(c->tid, ptr, len, &c->a);
	if (!ward_notif_valid(b->listener, c->id))
		return GONE;
	return e;
}

static uint8_t proto_of(const struct sock_info *s)
{
	if (s->type == SOCK_STREAM &&
	    (s->protocol == 0 || s->protocol == IPPROTO_TCP))
		return IPPROTO_TCP;
	if (s->type == SOCK_DGRAM &&
	    (s->protocol == 0 || s->protocol == IPPROTO_UDP))
		return IPPROTO_UDP;
	return 0;
}

static struct ward_net_record rec_of(const struct call *c, uint8_t call)
{
	struct ward_net_record r = {
	    .call = call,
	    .family = c->a.family,
	    .proto = proto_of(&c->s),
	    .port = c->a.port,
	    .domain = (uint16_t)c->s.domain,
	    .type = (uint32_t)c->s.type,
	};

	memcpy(r.addr, c->a.addr, sizeof(r.addr));
	return r;
}

static void record(struct ward_broker *b, struct ward_net_record *r,
		   uint8_t verdict, int e)
{
	int i;

	r->verdict = verdict;
	r->err = e;
	i = ward_record_net(b->f, r);
	/* a session's cell is told of a refusal, before it is answered */
	if (verdict == WARD_NV_REFUSED)
		ward_broker_net_event(b, WARD_NETEV_ATTEMPT, i);
}

static void answer(struct ward_broker *b, const struct call *c, int e,
		   int64_t val)
{
	/* ENOENT: it went away meanwhile; nothing is owed to it. */
	ward_notif_answer(b->listener, c->id, e, val);
}

/* ------------------------------------------------------------ sockets */

/* The options a program sets before connecting, which the socket the
 * broker makes in place of its own must have too: values the kernel keeps
 * for the socket, read from it (never from the task's memory) and written
 * where they differ from a new socket's. */
static void copy_options(int from, int to, int type)
{
	static const struct {
		int level, name;
		bool stream;
	} ints[] = {
	    {SOL_SOCKET, SO_KEEPALIVE, false},
	    {SOL_SOCKET, SO_OOBINLINE, false},
	    {SOL_SOCKET, SO_PRIORITY, false},
	    {SOL_SOCKET, SO_BROADCAST, false},
	    {SOL_SOCKET, SO_RCVLOWAT, false},
	    {IPPROTO_IP, IP_TOS, false},
	    {IPPROTO_IP, IP_TTL, false},
	    {IPPROTO_IPV6, IPV6_V6ONLY, false},
	    {IPPROTO_IPV6, IPV6_TCLASS, false},
	    {IPPROTO_IPV6, IPV6_UNICAST_HOPS, false},
	    {IPPROTO_TCP, TCP_NODELAY, true},
	    {IPPROTO_TCP, TCP_KEEPIDLE, true},
	    {IPPROTO_TCP, TCP_KEEPINTVL, true},
	    {IPPROTO_TCP, TCP_KEEPCNT, true},
	    {IPPROTO_TCP, TCP_USER_TIMEOUT, true},
	};
	static const int halved[] = {SO_RCVBUF, SO_SNDBUF};
	static const int times[] = {SO_RCVTIMEO, SO_SNDTIMEO};
	struct linger l;
	socklen_t len;

	for (size_t i = 0; i < ARRAY_LEN(ints); i++) {
		int v, d;

		if ((ints[i].stream && type != SOCK_STREAM) ||
		    opt_int(from, ints[i].level, ints[i].name, &v) < 0 ||
		    opt_int(to, ints[i].level, ints[i].name, &d) < 0 || v == d)
			continue;
		setsockopt(to, ints[i].level, ints[i].name, &v, sizeof(v));
	}
	/* The kernel doubles what is set, and reports the doubled value. */
	for (size_t i = 0; i < ARRAY_LEN(halved); i++) {
		int v, d;

		if (opt_int(from, SOL_SOCKET, halved[i], &v) < 0 ||
		    opt_int(to, SOL_SOCKET, halved[i], &d) < 0 || v == d)
			continue;
		v /= 2;
		setsockopt(to, SOL_SOCKET, halved[i], &v, sizeof(v));
	}
	for (size_t i = 0; i < ARRAY_LEN(times); i++) {
		struct timeval tv = {0};

		len = sizeof(tv);
		if (getsockopt(from, SOL_SOCKET, times[i], &tv, &len) == 0 &&
		    (tv.tv_sec || tv.tv_usec))
			setsockopt(to, SOL_SOCKET, times[i], &tv, sizeof(tv));
	}
	len = sizeof(l);
	if (getsockopt(from, SOL_SOCKET, SO_LINGER, &l, &len) == 0 && l.l_onoff)
		setsockopt(to, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
}

/* A socket of the host's like the task's, not blocking (the broker never
 * waits), its options copied; -1 with errno. */
static int host_socket(const struct sock_info *s)
{
	int h = socket(s->domain, s->type | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       s->protocol);

	if (h >= 0)
		copy_options(s->fd, h, s->type);
	return h;
}

/* Put h in the task's table at the number of its own socket, with the
 * file status flags the task's had. 0, or GONE. */
static int install(struct ward_broker *b, const struct call *c, int h)
{
	fcntl(h, F_SETFL, c->s.fl);
	if (ward_notif_install(b->listener, c->id, h, c->num,
			       ward_task_cloexec(c->tid, c->num)) < 0)
		return GONE;
	return 0;
}

/* ------------------------------------------------------------ pending */

static void now(struct timespec *t)
{
	clock_gettime(CLOCK_MONOTONIC, t);
}

/* Wait for a connect in progress without waiting: the answer comes when
 * sock polls writable (ward_broker_pending_done). sock is taken. */
static int pend(struct ward_broker *b, const struct call *c, int sock,
		bool inst, const struct ward_net_record *r)
{
	struct ward_pending *p = NULL;
	struct timeval tv = {0};
	socklen_t len = sizeof(tv);

	for (size_t i = 0; i < WARD_PENDING_MAX && !p; i++)
		if (!b->pend[i].used)
			p = &b->pend[i];
	if (!p) {
		close(sock);
		return EAGAIN;
	}
	*p = (struct ward_pending){
	    .used = true,
	    .id = c->id,
	    .tid = c->tid,
	    .num = c->num,
	    .sock = sock,
	    .install = inst,
	    .cloexec = inst && ward_task_cloexec(c->tid, c->num),
	    .fl = c->s.fl,
	    .record = r != NULL,
	};
	if (r)
		p->rec = *r;
	/* A blocking connect gives up after the socket's send timeout. */
	if (getsockopt(c->s.fd, SOL_SOCKET, SO_SNDTIMEO, &tv, &len) == 0 &&
	    (tv.tv_sec || tv.tv_usec)) {
		now(&p->until);
		p->until.tv_sec += tv.tv_sec;
		p->until.tv_nsec += tv.tv_usec * 1000L;
		if (p->until.tv_nsec >= 1000000000L) {
			p->until.tv_sec++;
			p->until.tv_nsec -= 1000000000L;
		}
		p->deadline = true;
	}
	return PENDING;
}

static void drop(struct ward_pending *p)
{
	close(p->sock);
	p->used = false;
}

void ward_broker_pending_done(struct ward_broker *b, struct ward_pending *p,
			      bool timed_out)
{
	int e = timed_out ? ETIMEDOUT : 0;
	socklen_t len = sizeof(e);

	if (!timed_out &&
	    getsockopt(p->sock, SOL_SOCKET, SO_ERROR, &e, &len) < 0)
		e = errno;
	if (!e && p->install) {
		fcntl(p->sock, F_SETFL, p->fl);
		if (ward_notif_install(b->listener, p->id, p->sock, p->num,
				       p->cloexec) < 0) {
			drop(p); /* it went away */
			return;
		}
	}
	if (p->record) {
		p->rec.err = e;
		ward_record_net(b->f, &p->rec);
	}
	ward_notif_answer(b->listener, p->id, e, 0);
	drop(p);
}

void ward_broker_pending_sweep(struct ward_broker *b, bool all)
{
	struct timespec t;

	now(&t);
	for (size_t i = 0; i < WARD_PENDING_MAX; i++) {
		struct ward_pending *p = &b->pend[i];

		if (!p->used)
			continue;
		if (all || !ward_notif_valid(b->listener, p->id))
			drop(p);
		else if (p->deadline && (t.tv_sec > p->until.tv_sec ||
					 (t.tv_sec == p->until.tv_sec &&
					  t.tv_nsec >= p->until.tv_nsec)))
			ward_broker_pending_done(b, p, true);
	}
}

/* ------------------------------------------------------------ connect */

/* connect() on the task's own socket, by the broker, without blocking it:
 * a blocking socket is made non-blocking for the call (the flags are
 * shared with the task's file) and the call waits in the pending table.
 * r: the record to make of it, or NULL. */
static int own_connect(struct ward_broker *b, struct call *c,
		       struct ward_net_record *r)
{
	bool blocking = !(c->s.fl & O_NONBLOCK);
	int e;

	if (blocking)
		fcntl(c->s.fd, F_SETFL, c->s.fl | O_NONBLOCK);
	if (c->s.domain == AF_UNIX && c->a.sa_family == AF_UNIX)
		e = ward_unix_connect(c->tid, c->s.fd, &c->a);
	else
		e = connect(c->s.fd, (const struct sockaddr *)&c->a.raw,
			    c->a.len) < 0
			? errno
			: 0;
	if (blocking)
		fcntl(c->s.fd, F_SETFL, c->s.fl);
	if (e == EINPROGRESS && blocking) {
		e = pend(b, c, c->s.fd, false, r);
		c->s.fd = -1;
		if (e == PENDING)
			return PENDING;
	}
	if (r)
		record(b, r, r->verdict, e);
	return e;
}

/* To an allowed destination, from a socket of the sandbox's: a socket of
 * the host's, connected by the broker, installed in place of the task's. */
static int connect_out(struct ward_broker *b, struct call *c,
		       struct ward_net_record *r)
{
	bool blocking = !(c->s.fl & O_NONBLOCK);
	int h = host_socket(&c->s), e = 0;

	r->verdict = WARD_NV_ALLOWED;
	if (h < 0) {
		e = errno;
		record(b, r, WARD_NV_ALLOWED, e);
		return e;
	}
	if (connect(h, (const struct sockaddr *)&c->a.raw, c->a.len) < 0)
		e = errno;
	if (e && e != EINPROGRESS) {
		close(h);
		record(b, r, WARD_NV_ALLOWED, e);
		return e;
	}
	if (e == EINPROGRESS && blocking) {
		e = pend(b, c, h, true, r);
		if (e == PENDING)
			return PENDING;
		record(b, r, WARD_NV_ALLOWED, e);
		return e;
	}
	/* Connected (a datagram socket, a fast loopback), or in progress on
	 * a socket the task made non-blocking: its answer now. */
	if (install(b, c, h) < 0) {
		close(h);
		return GONE;
	}
	close(h);
	/* In progress is no failure: the task learns the end itself. */
	record(b, r, WARD_NV_ALLOWED, e == EINPROGRESS ? 0 : e);
	return e;
}

/* To a TLS port, allowed by a name rule: relayed (relay.h). The task gets
 * one end of a socket pair, connected at once; the relay connects to the
 * server only once the ClientHello's name is judged. */
static int connect_relay(struct ward_broker *b, struct call *c,
			 struct ward_net_record *r)
{
	int sp[2], h, e = 0;

	if (!ward_relay_room()) {
		record(b, r, WARD_NV_ALLOWED, EAGAIN);
		return EAGAIN;
	}
	/* (Through ward --upstream-proxy, of the proxy's family.) */
	h = socket(ward_proxy_on() ? ward_proxy_addr(&(socklen_t){0})->ss_family
				   : c->s.domain,
		   SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
	if (h < 0) {
		e = errno;
		record(b, r, WARD_NV_ALLOWED, e);
		return e;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
		       sp) < 0) {
		e = errno;
		close(h);
		record(b, r, WARD_NV_ALLOWED, e);
		return e;
	}
	if (install(b, c, sp[1]) < 0) {
		close(sp[0]);
		close(sp[1]);
		close(h);
		return GONE;
	}
	close(sp[1]);
	/* Recorded when it ends; the task sees the pair closed if it cannot
	 * start. */
	ward_relay_start(b, sp[0], h, r, &c->a.raw, c->a.len);
	return 0;
}

/* From a socket of the host's, one the broker installed. */
static int connect_again(struct ward_broker *b, struct call *c,
			 struct ward_net_record *r)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	int e = 0;

	/* Disconnecting it (AF_UNSPEC) would let it be connected anywhere
	 * or listen: refused. */
	if (c->a.sa_family == AF_UNSPEC) {
		record(b, r, WARD_NV_REFUSED, EOPNOTSUPP);
		return EOPNOTSUPP;
	}
	if (c->s.type == SOCK_STREAM) {
		/* Never connected again: its state is what connect() would
		 * say, without the kernel's connect, which would take a
		 * socket whose connection failed to a new destination. */
		if (getsockopt(c->s.fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
			return errno;
		if (ti.tcpi_state == TCP_SYN_SENT)
			return EALREADY;
		if (ti.tcpi_state != TCP_CLOSE)
			return EISCONN;
		len = sizeof(e);
		if (getsockopt(c->s.fd, SOL_SOCKET, SO_ERROR, &e, &len) < 0 ||
		    !e)
			e = ECONNABORTED;
		return e;
	}
	/* UDP, where UDP is allowed (with the cgroup programs beside): an
	 * allowed destination, connected by the broker. */
	if (c->a.family &&
	    ward_addr_allowed(&b->policy->net, &c->a, proto_of(&c->s))) {
		if (connect(c->s.fd, (const struct sockaddr *)&c->a.raw,
			    c->a.len) < 0)
			e = errno;
		record(b, r, WARD_NV_ALLOWED, e);
		return e;
	}
	record(b, r, WARD_NV_REFUSED, EPERM);
	return EPERM;
}

static int do_connect(struct ward_broker *b, struct call *c)
{
	struct ward_net_record r = rec_of(c, WARD_NC_CONNECT);
	bool ip = c->s.domain == AF_INET || c->s.domain == AF_INET6;
	uint8_t proto = proto_of(&c->s);
	const char *name = NULL;

	if (c->s.host)
		return connect_again(b, c, &r);
	if (ip && c->a.family) {
		/* An address rule, or an address an answer for an allowed
		 * name gave during this run (dns.h). */
		if (proto && ward_addr_allowed(&b->policy->net, &c->a, proto))
			return connect_out(b, c, &r);
		if (proto == IPPROTO_TCP && ward_dns_learned(b, &c->a, &name)) {
			snprintf(r.name, sizeof(r.name), "%s", name);
			/* Through ward --upstream-proxy every port's:
			 * the proxy is asked for the name (relay.h). */
			if (c->a.port == WARD_RELAY_TLS ||
			    c->a.port == WARD_RELAY_HTTP || ward_proxy_on())
				return connect_relay(b, c, &r);
			return connect_out(b, c, &r);
		}
		if (ward_addr_local(&c->a)) {
			/* The sandbox's own loopback, in its own
			 * namespace. */
			r.verdict = WARD_NV_LOCAL;
			return own_connect(b, c, &r);
		}
		record(b, &r, WARD_NV_REFUSED, EPERM);
		return EPERM;
	}
	/* A unix socket, another family, AF_UNSPEC, an address too short:
	 * the task's own socket, in the sandbox's namespace; the kernel
	 * answers. */
	return own_connect(b, c, NULL);
}

void ward_broker_connect(struct ward_broker *b, const struct ward_notif *n)
{
	const __u64 *arg = n->u.n.data.args;
	struct call c = {.n = n, .pidfd = -1, .s = {.fd = -1}};
	int e = take(b, &c, (int)arg[0], arg[1], arg[2]);

	if (!e)
		e = do_connect(b, &c);
	else if (e != GONE) {
		/* Unreadable (EFAULT, EPERM), not a socket: refused. A task
		 * the broker may not read is recorded, address unknown. */
		struct ward_net_record r = rec_of(&c, WARD_NC_CONNECT);

		if (e == EPERM)
			record(b, &r, WARD_NV_REFUSED, e);
	}
	if (e != GONE && e != PENDING)
		answer(b, &c, e, 0);
	call_close(&c);
}

/* ------------------------------------------------------------ sendto */

/* A datagram to an allowed destination: the payload copied once, then the
 * notification checked again (the task that made the call is the one
 * whose bytes are sent); from the task's own socket of the host's, or from
 * one the broker makes and installs in place of the task's, so that the
 * answers come to it. */
static int send_out(struct ward_broker *b, struct call *c,
		    struct ward_net_record *r, int64_t *sent)
{
	const __u64 *arg = c->n->u.n.data.args;
	const int flags = (int)arg[3] & (MSG_CONFIRM | MSG_DONTROUTE |
					 MSG_NOSIGNAL | MSG_MORE);
	size_t len = (size_t)arg[2];
	int h = c->s.fd, e = 0;
	ssize_t n;

	if (arg[2] > 65535)
		return EMSGSIZE;
	if (ward_task_read(c->tid, arg[1], b->payload, len) < 0)
		return EFAULT;
	if (!ward_notif_valid(b->listener, c->id))
		return GONE;
	if (!c->s.host && (h = host_socket(&c->s)) < 0) {
		e = errno;
		record(b, r, WARD_NV_ALLOWED, e);
		return e;
	}
	n = sendto(h, b->payload, len, flags | MSG_DONTWAIT,
		   (const struct sockaddr *)&c->a.raw, c->a.len);
	e = n < 0 ? errno : 0;
	if (!c->s.host) {
		if (!e && install(b, c, h) < 0)
			e = GONE;
		close(h);
	}
	if (e != GONE)
		record(b, r, WARD_NV_ALLOWED, e);
	*sent = n;
	return e;
}

void ward_broker_sendto(struct ward_broker *b, const struct ward_notif *n)
{
	const __u64 *arg = n->u.n.data.args;
	struct call c = {.n = n, .pidfd = -1, .s = {.fd = -1}};
	int e = take(b, &c, (int)arg[0], arg[4], arg[5]);
	struct ward_net_record r;
	int64_t sent = 0;

	if (e)
		goto out;
	r = rec_of(&c, WARD_NC_SENDTO);
	if (c.s.type != SOCK_DGRAM ||
	    (c.s.domain != AF_INET && c.s.domain != AF_INET6) || !c.a.family) {
		/* Not a datagram to an IP destination (file header). */
		ward_notif_continue(b->listener, c.id);
		e = GONE;
	} else if (ward_addr_allowed(&b->policy->net, &c.a, proto_of(&c.s))) {
		e = send_out(b, &c, &r, &sent);
	} else if (!c.s.host && ward_addr_local(&c.a)) {
		/* The sandbox's own loopback. */
		record(b, &r, WARD_NV_LOCAL, 0);
		ward_notif_continue(b->listener, c.id);
		e = GONE;
	} else {
		record(b, &r, WARD_NV_REFUSED, EPERM);
		e = EPERM;
	}
out:
	if (e != GONE)
		answer(b, &c, e, sent);
	call_close(&c);
}
