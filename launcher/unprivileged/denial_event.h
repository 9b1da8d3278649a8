/* SPDX-License-Identifier: MIT */
/*
 * denial_event.h: from the broker to the session server (docs/spec.md
 * 7.6), one SOCK_SEQPACKET message a recorded refusal, sent before the
 * refused call is answered: once a cell's driver says it is done, every
 * refusal of that cell is already in the server's socket.
 */
#ifndef WARD_DENIAL_EVENT_H
#define WARD_DENIAL_EVENT_H

#include "broker_facts.h"
#include "facts.h"

#include <stdint.h>

#define WARD_DENIAL_MAGIC 0x77644531u /* "wdE1" */

struct ward_denial_event {
	uint32_t magic;
	int32_t nr;
	uint32_t arch;
	uint32_t errno_nr;
	uint64_t args[3];
	/* the broker's count of this (nr, arch, errno) so far, this one
	 * included: a lost event is made up by the next one */
	uint64_t total;
	uint64_t lost; /* events the broker could not send, so far */
};

/* A network attempt the broker refused, or a DNS query the stub refused
 * (or could not read), as the broker recorded it (facts.h), sent before
 * the call or the query is answered: index is the record's place in the
 * broker's table (stable: records are only ever added), total its count
 * so far, this one included; a cell's count is the difference, as for a
 * syscall (docs/spec.md 7.6). */
#define WARD_NETEVENT_MAGIC 0x77644e31u /* "wdN1" */
enum { WARD_NETEV_ATTEMPT = 1, WARD_NETEV_DNS = 2 };

struct ward_net_event {
	uint32_t magic;
	uint32_t kind;	/* WARD_NETEV_* */
	uint32_t index; /* in the broker's net or dns table */
	uint32_t reserved;
	uint64_t total;
	uint64_t lost;
	union {
		struct ward_net_record net;
		struct ward_dns_record dns;
	} r;
};

/* S to the courier, and back: the files a cell changed in the writable
 * slots. S asks at a cell's start (the courier snapshots each read-write
 * slot's tmpfs, then answers with an empty body) and at its end (the
 * courier answers with a JSON array of fsdiff.h's objects, the lists cut
 * at WARD_CELL_DIFF_LIST entries, counts complete; "[]" with no slot).
 * Both wait for the answer (bounded): the cell starts after the snapshot,
 * and its reply is sent after the diff. */
#define WARD_CELLSNAP_MAGIC  0x77645331u /* "wdS1": S's request */
#define WARD_CELLDIFF_MAGIC  0x77644431u /* "wdD1": the courier's answer */
#define WARD_CELL_DIFF_LIST  100
#define WARD_CELL_DIFF_BYTES (48u << 10) /* an answer's body, at most */

enum { WARD_CELL_START = 1, WARD_CELL_END = 2 };

struct ward_cell_msg {
	uint32_t magic;
	uint32_t kind;
	uint64_t cell;
	/* the courier's answer: the body follows */
};

/* The broker's side (broker.c): the event, waiting a bounded time for the
 * server to take it. fd < 0: nothing. */
void ward_denial_send(int fd, const struct ward_denial_event *ev,
		      uint64_t *lost);
void ward_net_event_send(int fd, struct ward_net_event *ev, uint64_t *lost);

#endif
