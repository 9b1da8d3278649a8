/* SPDX-License-Identifier: MIT */
/*
 * broker.c: see broker.h.
 */
#include "broker.h"

#include "bpf_run.h"
#include "broker_net.h"
#include "denial_event.h"
#include "dns.h"
#include "fdpass.h"
#include "notif.h"
#include "recording.h"
#include "records.h"
#include "relay.h"
#include "syscall_names.h"
#include "syscalls_base.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* What the broker may call (its own seccomp filter, launcher/core/drop.c):
 * reading and writing the descriptors it has, its memory, time, the
 * listener's ioctls, sockets to connect and send, and the sandbox's
 * memory and descriptors to read. No exec, no mount, no kill, no change of
 * ids, no ptrace, no write to another process's memory. */
const int ward_broker_syscalls[] = {
    WARD_SYSCALLS_BASE,
    SYS_seccomp, /* SECCOMP_GET_NOTIF_SIZES; a filter only restricts */
    SYS_ioctl,	 /* the requests below only */
    SYS_socket,	 /* AF_INET, AF_INET6 only */
    SYS_connect,
    SYS_sendto,
    SYS_sendmsg,
    SYS_recvmsg,
    SYS_getsockopt,
    SYS_setsockopt,
    SYS_process_vm_readv,
    SYS_pidfd_open,
    SYS_pidfd_getfd,
    SYS_socketpair, /* relay.h: the task's end of a relayed connection */
    SYS_pipe2,
    SYS_splice,
    SYS_shutdown,
#ifdef SYS_poll /* x86_64; aarch64 has only ppoll */
    SYS_poll,
    SYS_open,
    SYS_stat,
    SYS_dup2,
#endif
};
const size_t ward_broker_nsyscalls = ARRAY_LEN(ward_broker_syscalls);

const uint32_t ward_broker_ioctls[] = {
    SECCOMP_IOCTL_NOTIF_RECV,
    SECCOMP_IOCTL_NOTIF_SEND,
    SECCOMP_IOCTL_NOTIF_ID_VALID,
    SECCOMP_IOCTL_NOTIF_ADDFD,
};
const size_t ward_broker_nioctls = ARRAY_LEN(ward_broker_ioctls);

/* The flood control: notifications are answered at RATE a second on
 * average and BURST at once; past that the broker stops reading them for a
 * moment, and the sandbox's calls wait in the kernel: the sandbox, not the
 * broker, pays for its flood, and a kill among them waits too (it never
 * runs meanwhile). */
#define RATE  20000.0
#define BURST 4096.0

static void say(const struct ward_broker *b, uint32_t kind, int32_t nr,
		uint32_t arch, bool known, const char *text)
{
	struct ward_broker_msg m = {
	    .kind = kind, .nr = nr, .arch = arch, .nr_known = known};

	if (text)
		snprintf(m.text, sizeof(m.text), "%s", text);
	while (send(b->sup, &m, sizeof(m), MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

/* The records, packed (broker_facts.h), one message after its header. */
static void send_records(const struct ward_broker *b)
{
	struct ward_broker_msg m = {.kind = WARD_B_RECORDS};
	struct iovec iov[1 + WARD_BROKER_FACTS_IOV] = {{&m, sizeof(m)}};
	struct msghdr mh = {.msg_iov = iov};

	mh.msg_iovlen = 1 + (size_t)ward_broker_facts_iov(b->f, iov + 1);

	while (sendmsg(b->sup, &mh, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

/* ------------------------------------------------------------ dispatch */

/* ward session's: the refusal to the server, before it is answered. */
static void denial_event(struct ward_broker *b, const struct seccomp_data *d,
			 uint32_t e)
{
	struct ward_denial_event ev = {.magic = WARD_DENIAL_MAGIC,
				       .nr = d->nr,
				       .arch = d->arch,
				       .errno_nr = e};

	if (b->events_fd < 0)
		return;
	memcpy(ev.args, d->args, sizeof(ev.args));
	for (uint32_t i = 0; i < b->f->nsys; i++)
		if (b->f->sys[i].nr == d->nr && b->f->sys[i].arch == d->arch &&
		    b->f->sys[i].errno_nr == e)
			ev.total = b->f->sys[i].count;
	ward_denial_send(b->events_fd, &ev, &b->events_lost);
}

void ward_broker_net_event(struct ward_broker *b, uint32_t kind, int index)
{
	struct ward_net_event ev = {.kind = kind};

	if (b->events_fd < 0 || index < 0)
		return;
	ev.index = (uint32_t)index;
	if (kind == WARD_NETEV_ATTEMPT) {
		ev.r.net = b->f->net[index];
		ev.total = ev.r.net.count;
	} else {
		ev.r.dns = b->f->dns[index];
		ev.total = ev.r.dns.count;
	}
	ward_net_event_send(b->events_fd, &ev, &b->events_lost);
}

/* A refusal recorded as a network attempt. */
static void record_net_refusal(struct ward_broker *b,
			       const struct seccomp_data *d, uint32_t e)
{
	struct ward_net_record r = {
	    .verdict = WARD_NV_REFUSED,
	    .err = (int32_t)e,
	};

	if (d->nr == SYS_socket) {
		/* Its family and type, for the report; an argument out of
		 * range is kept as the largest value. */
		uint32_t kind = (uint32_t)d->args[1] & 0xf;

		r.call = WARD_NC_SOCKET;
		r.domain = d->args[0] > 0xffff ? 0xffff : (uint16_t)d->args[0];
		r.type = d->args[1] > 0xffffffffu ? 0xffffffffu
						  : (uint32_t)d->args[1];
		r.proto = d->args[2] > 0xff ? 0xff : (uint8_t)d->args[2];
		r.family = d->args[0] == AF_INET    ? 4
			   : d->args[0] == AF_INET6 ? 6
						    : 0;
		/* Protocol 0: the type's own (TCP for a stream, UDP for a
		 * datagram socket of IPv4 or IPv6). */
		if (r.family && !r.proto)
			r.proto = kind == SOCK_STREAM  ? IPPROTO_TCP
				  : kind == SOCK_DGRAM ? IPPROTO_UDP
						       : 0;
	} else {
		r.call = WARD_NC_OTHER;
		r.nr = d->nr;
	}
	ward_broker_net_event(b, WARD_NETEV_ATTEMPT, ward_record_net(b->f, &r));
}

static void on_notification(struct ward_broker *b)
{
	static struct ward_notif n;
	const struct ward_seccomp *sc = &b->policy->seccomp;
	const struct seccomp_data *d = &n.u.n.data;
	uint32_t ret, data, e;
	int fault = 0;

	if (ward_notif_recv(b->listener, &n) < 0)
		return; /* gone before it was read: its call did not run */
	b->f->notified++;
	/* What the program asked: the data bits of its USER_NOTIF, as the
	 * kernel computed them on the same struct. */
	ret = ward_bpf_run(sc->insns, sc->ninsns, d, &fault, NULL);
	data = ret & SECCOMP_RET_DATA;
	e = WARD_NOTIFY_ERRNO_OF(data);
	if (fault ||
	    (ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_USER_NOTIF) {
		/* Cannot be (the kernel's own answer was a notification):
		 * refused, and said. */
		snprintf(b->f->error, sizeof(b->f->error),
			 "the program's answer to syscall %d was 0x%08x, not a "
			 "notification: refused",
			 d->nr, ret);
		ward_notif_answer(b->listener, n.u.n.id, EPERM, 0);
		return;
	}
	switch (WARD_NOTIFY_KIND(data)) {
	case WARD_NOTIFY_KILL:
		/* Never answered: the thread waits in the kernel until the
		 * supervisor's kill ends it. */
		if (!b->killed)
			say(b, WARD_B_KILL, d->nr, d->arch, true, NULL);
		b->killed = true;
		return;
	case WARD_NOTIFY_ERRNO:
		ward_record_syscall(b->f, d, e);
		denial_event(b, d, e);
		ward_notif_answer(b->listener, n.u.n.id, (int)e, 0);
		return;
	case WARD_NOTIFY_NET_ERRNO:
		record_net_refusal(b, d, e);
		ward_notif_answer(b->listener, n.u.n.id, (int)e, 0);
		return;
	case WARD_NOTIFY_CONNECT:
		if (b->net && d->nr == SYS_connect) {
			ward_broker_connect(b, &n);
			return;
		}
		break;
	case WARD_NOTIFY_SENDTO:
		if (b->net && d->nr == SYS_sendto) {
			ward_broker_sendto(b, &n);
			return;
		}
		break;
	case WARD_NOTIFY_OBSERVE:
		if (b->rec) {
			ward_rec_add(b->rec, d, e & 0x3f);
			ward_notif_continue(b->listener, n.u.n.id);
			return;
		}
		break;
	}
	/* A disposition this broker does not know, or one for another call
	 * than it names: refused. */
	ward_notif_answer(b->listener, n.u.n.id, EPERM, 0);
}

/* ------------------------------------------------------------ the loop */

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Until the supervisor says the sandbox is gone (true), or is gone itself
 * (false). */
static bool serve(struct ward_broker *b)
{
	struct pollfd pfd[3 + WARD_PENDING_MAX + 2 * WARD_RELAY_MAX];
	struct ward_pending *which[WARD_PENDING_MAX];
	struct ward_relay *relay[WARD_RELAY_MAX];
	double tokens = BURST, last = seconds();
	bool hup = false, held = false;

	for (;;) {
		double t = seconds();
		int timeout = 1000, n;
		size_t np = 0, nr;

		tokens += (t - last) * RATE;
		if (tokens > BURST)
			tokens = BURST;
		last = t;
		if (tokens < 1) {
			timeout = (int)((1 - tokens) / RATE * 1000) + 1;
			b->f->throttled += !held;
			held = true;
		} else {
			held = false;
		}
		pfd[0] = (struct pollfd){b->sup, POLLIN, 0};
		pfd[1] = (struct pollfd){
		    b->listener >= 0 && !hup && !held ? b->listener : -1,
		    POLLIN, 0};
		/* The DNS stub's queries count against the same flood
		 * control as the notifications. */
		pfd[2] = (struct pollfd){held ? -1 : b->dns_stub, POLLIN, 0};
		for (size_t i = 0; i < WARD_PENDING_MAX; i++)
			if (b->pend[i].used) {
				which[np] = &b->pend[i];
				pfd[3 + np++] = (struct pollfd){b->pend[i].sock,
								POLLOUT, 0};
			}
		ward_relay_sweep(b, false);
		nr = ward_relay_poll(b, pfd + 3 + np, relay);
		n = poll(pfd, 3 + np + nr, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		if (n == 0) {
			ward_broker_pending_sweep(b, false);
			continue;
		}
		if (pfd[0].revents) {
			char byte;
			int fd;

			if (ward_recv_msg(b->sup, &byte, 1, &fd) <= 0)
				return false;
			if (byte == WARD_S_LISTENER && fd >= 0 &&
			    b->listener < 0)
				b->listener = fd;
			else if (byte == WARD_S_DNS && fd >= 0 &&
				 b->dns_stub < 0 && b->policy->net.nnames)
				b->dns_stub = fd;
			else if (fd >= 0)
				close(fd);
			if (byte == WARD_S_END)
				return true;
		}
		if (pfd[1].revents & POLLIN) {
			on_notification(b);
			tokens -= 1;
		} else if (pfd[1].revents) {
			hup = true; /* no task of the filter is left */
		}
		if (pfd[2].revents & POLLIN) {
			ward_dns_serve(b);
			tokens -= 1;
		}
		for (size_t i = 0; i < np; i++)
			if (pfd[3 + i].revents)
				ward_broker_pending_done(b, which[i], false);
		for (size_t i = 0; i < nr; i += 2)
			if (pfd[3 + np + i].revents || pfd[4 + np + i].revents)
				ward_relay_event(b, relay[i / 2],
						 pfd + 3 + np + i);
	}
}

/* The record, once the sandbox is gone: through the descriptor the
 * supervisor opened for --record. */
static int write_recording(struct ward_broker *b)
{
	FILE *f = fdopen(b->record_fd, "w");
	int rc;

	if (!f)
		return -1;
	rc = ward_rec_write(f, b->rec, b->policy, b->f, ward_syscall_name);
	return fclose(f) != 0 ? -1 : rc;
}

int ward_broker_run(const struct ward_broker_ctx *c)
{
	static struct ward_recording rec;
	static struct ward_broker_facts facts;
	static uint8_t payload[65536];
	struct ward_broker b = {
	    .policy = c->policy,
	    .root_mode = c->root_mode,
	    .sup = c->sup,
	    .listener = -1,
	    .net = c->policy->net.mode == WARD_NET_ALLOWLIST,
	    .f = &facts,
	    .payload = payload,
	    .record_fd = c->record_fd,
	    .events_fd = c->events_fd,
	    .rec = c->record_fd >= 0 ? &rec : NULL,
	    .dns_stub = -1,
	    .dns_upstream = c->dns_upstream,
	};
	ward_err err = {0};
	char byte = 0;
	int fd = -1;

	/* Signals to the caller's process group are the supervisor's. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	/* In its cgroup (root mode) before it makes any socket. */
	if (ward_recv_msg(b.sup, &byte, 1, &fd) <= 0 || byte != WARD_S_GO)
		return 1;
	if (fd >= 0)
		close(fd);
	if (ward_notif_check_sizes(&err) < 0 ||
	    (b.net && ward_broker_net_probe(&b, &err) < 0)) {
		char buf[WARD_ERR_MSG_MAX];

		say(&b, WARD_B_REFUSE, 0, 0, false,
		    ward_err_str(&err, buf, sizeof(buf)));
		return 1;
	}
	facts.records = true;
	say(&b, WARD_B_READY, 0, 0, false, NULL);
	if (!serve(&b))
		return 1;
	facts.ran = b.listener >= 0;
	ward_broker_pending_sweep(&b, true);
	ward_relay_sweep(&b, true);
	if (b.rec && write_recording(&b) < 0)
		snprintf(facts.error, sizeof(facts.error),
			 "--record: the record could not be written");
	send_records(&b);
	return 0;
}
