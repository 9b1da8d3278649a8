/* SPDX-License-Identifier: MIT */
/*
 * denial_event.h: from the broker to the session server (docs/spec.md
 * 7.6), one SOCK_SEQPACKET message a recorded refusal, sent before the
 * refused call is answered: once a cell's driver says it is done, every
 * refusal of that cell is already in the server's socket.
 */
#ifndef WARD_DENIAL_EVENT_H
#define WARD_DENIAL_EVENT_H

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

/* The broker's side (broker.c): the event, waiting a bounded time for the
 * server to take it. fd < 0: nothing. */
void ward_denial_send(int fd, const struct ward_denial_event *ev,
		      uint64_t *lost);

#endif
