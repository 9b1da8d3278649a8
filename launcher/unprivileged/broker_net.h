/* SPDX-License-Identifier: MIT */
/*
 * broker_net.h: the socket broker's part of the broker (broker.h): what
 * the broker does with a connect() and a sendto() the program sends it,
 * and the state it shares with the broker's loop.
 */
#ifndef WARD_BROKER_NET_H
#define WARD_BROKER_NET_H

#include "facts.h"
#include "notif.h"
#include "policy.h"
#include "recording.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* Connects in progress for a task that waits for them (a blocking
 * connect): the broker never waits for a peer itself. Past this many at
 * once, a connect fails with EAGAIN. */
#define WARD_PENDING_MAX 64

struct ward_pending {
	bool used;
	uint64_t id;   /* the notification */
	pid_t tid;     /* its task */
	int num;       /* the task's descriptor number */
	int sock;      /* the broker's descriptor of the socket */
	bool install;  /* a socket the broker made: install it when done */
	bool cloexec;  /* ... close-on-exec */
	int fl;	       /* the task's file status flags, given back */
	bool deadline; /* the task's send timeout, if it has one */
	struct timespec until; /* CLOCK_MONOTONIC */
	bool record;
	struct ward_net_record rec;
};

struct ward_broker {
	const struct ward_policy *policy;
	bool root_mode;
	int sup;      /* to the supervisor */
	int listener; /* -1 until it comes */
	bool killed;  /* the kill is reported */
	bool net;     /* an allow-list: sockets of the host's are made */
	uint64_t host_cookie; /* SO_NETNS_COOKIE of the broker's namespace */
	struct ward_broker_facts *f;
	struct ward_pending pend[WARD_PENDING_MAX];
	uint8_t *payload; /* a datagram's copy, 64 KiB */
	int record_fd;	  /* --record FILE: a recording run; else -1 */
	int events_fd;	  /* ward session's (denial_event.h); -1 */
	uint64_t events_lost;
	struct ward_recording *rec; /* what it saw (recording.h) */
	int dns_stub;		    /* names: the stub's socket (dns.h); -1 */
	int dns_upstream;	    /* names: to the host's resolver; -1 */
};

/* ward session's: the net or dns record at index (of b->f) to the session
 * server (denial_event.h: struct ward_net_event), before the call or the
 * query it records is answered; index < 0 or no server: nothing
 * (broker.c). */
void ward_broker_net_event(struct ward_broker *b, uint32_t kind, int index);

/* Check that this kernel has what the socket broker needs (or refuse the
 * run): a socket's namespace cookie (Linux 5.14, which also has every
 * SECCOMP_IOCTL_NOTIF_ADDFD flag used here) and access to the sandbox's
 * memory and descriptors under the host's ptrace policy (Yama). */
int ward_broker_net_probe(struct ward_broker *b, ward_err *err);

/* A connect() notification; a sendto() with an address. Each answers the
 * notification, or leaves it in the pending table (answered later by
 * ward_broker_pending_done), or drops it when it went away. */
void ward_broker_connect(struct ward_broker *b, const struct ward_notif *n);
void ward_broker_sendto(struct ward_broker *b, const struct ward_notif *n);

/* A pending connect whose socket polled, or whose time ran out: answer
 * it. */
void ward_broker_pending_done(struct ward_broker *b, struct ward_pending *p,
			      bool timed_out);

/* Drop pending connects whose task went away, and those past their time;
 * with all, every one (the end of the run). */
void ward_broker_pending_sweep(struct ward_broker *b, bool all);

#endif
