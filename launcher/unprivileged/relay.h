/* SPDX-License-Identifier: MIT */
/*
 * relay.h: connections the broker relays instead of handing over
 * (docs/spec.md 5.11): a TCP connect allowed by a name rule to a TLS port
 * (WARD_RELAY_TLS), or to plain HTTP's port (WARD_RELAY_HTTP, where the
 * first request's Host is read the same way, http_host.h). The task gets one
 * end of a socket pair in place of its socket; the broker reads the ClientHello
 * from the other (at most WARD_TLS_HELLO_MAX bytes, for at most
 * WARD_RELAY_HELLO_MS), and only when its server name is one whose answer gave
 * the address (a shared address serves many names: the program must not reach
 * another one through it) sends it on, then moves the bytes both ways with
 * splice() through a pipe each, never reading them, without ever blocking. Each
 * connection is one record: its name, server name, bytes each way and
 * how it ended (facts.h, enum ward_relay_end).
 *
 * With ward --upstream-proxy (http_proxy.h) every connection of a name rule
 * is relayed, on any port: the relay connects to the proxy instead, asks
 * it for `CONNECT NAME:PORT` (NAME: the judged server name on a TLS or
 * HTTP port, else the name whose answer gave the address), reads its
 * reply strictly and opens the tunnel only on a 2xx; the ClientHello goes
 * on after that. On the other ports nothing is read before: the relay
 * starts at once, as a connect would.
 */
#ifndef WARD_RELAY_H
#define WARD_RELAY_H

#include "broker_facts.h"
#include "facts.h"
#include "http_proxy.h"
#include "tls_hello.h"

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

struct ward_broker;

#define WARD_RELAY_MAX	    32	  /* at once; beyond, a connect gets EAGAIN */
#define WARD_RELAY_HELLO_MS 10000 /* the ClientHello's time to come */
#define WARD_RELAY_TLS	    443	  /* the TLS port relayed */
#define WARD_RELAY_HTTP	    80	  /* the plain HTTP port relayed */

struct ward_relay {
	bool used;
	bool hello;	       /* still reading the ClientHello */
	bool connecting;       /* the server's connect started */
	bool up_connected;     /* ... and finished */
	uint8_t proxy;	       /* enum ward_relay_proxy */
	int in;		       /* the broker's end of the task's pair */
	int out;	       /* the socket to the server (host namespace) */
	int pipe[2][2];	       /* [0]: in to out, [1]: out to in */
	size_t fill[2];	       /* bytes in each pipe */
	bool eof[2];	       /* the direction's source ended */
	bool done[2];	       /* ... and all of it was passed on */
	struct timespec until; /* CLOCK_MONOTONIC: the ClientHello's end */
	size_t hlen, hsent;    /* ClientHello bytes read, sent on */
	uint8_t buf[WARD_TLS_HELLO_MAX];
	struct ward_net_record rec;
	struct sockaddr_storage to; /* the server, connected after the hello */
	socklen_t tolen;
	char req[640]; /* the CONNECT request (two names of 253 at most) */
	size_t rlen, rsent;
	uint8_t reply[WARD_PROXY_REPLY_MAX]; /* the proxy's reply head so far */
	size_t plen;
};

enum ward_relay_proxy {
	WARD_RP_NONE,	 /* straight to the server */
	WARD_RP_REQUEST, /* sending the proxy the CONNECT request */
	WARD_RP_REPLY,	 /* reading its reply */
	WARD_RP_TUNNEL,	 /* its 2xx came: the server's bytes from here */
};

/* Is a relay free? */
bool ward_relay_room(void);

/* Relay the connect of rec (to `to`, allowed by a name rule): in is the
 * broker's end of the pair whose other end the task gets, out a socket of
 * the host's, connected to `to` only once the ClientHello is judged
 * (nothing reaches the server before). Both taken. 0, or an errno. */
int ward_relay_start(struct ward_broker *b, int in, int out,
		     const struct ward_net_record *rec,
		     const struct sockaddr_storage *to, socklen_t tolen);

/* The descriptors to poll: fills pfd (2 per relay in use) and which;
 * returns how many pollfds. */
size_t ward_relay_poll(struct ward_broker *b, struct pollfd *pfd,
		       struct ward_relay **which);

/* After poll: pfd[0..1] are r's. */
void ward_relay_event(struct ward_broker *b, struct ward_relay *r,
		      const struct pollfd *pfd);

/* The ClientHellos past their time; with all, every relay (the end of the
 * run). */
void ward_relay_sweep(struct ward_broker *b, bool all);

#endif
