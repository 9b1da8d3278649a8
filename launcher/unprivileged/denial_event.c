/* SPDX-License-Identifier: MIT */
/*
 * denial_event.c: see denial_event.h.
 */
#include "denial_event.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>

/* How long a refused call may wait for the server to read: it keeps every
 * count exact while the server lives, and a server that stops reading
 * cannot stall the broker for long. */
#define EVENT_WAIT_MS 200

void ward_denial_send(int fd, const struct ward_denial_event *ev,
		      uint64_t *lost)
{
	struct ward_denial_event e = *ev;

	if (fd < 0)
		return;
	e.lost = *lost;
	for (int tries = 0; tries < 2; tries++) {
		struct pollfd p = {fd, POLLOUT, 0};

		if (send(fd, &e, sizeof(e), MSG_DONTWAIT | MSG_NOSIGNAL) ==
		    (ssize_t)sizeof(e))
			return;
		if (errno != EAGAIN && errno != EINTR)
			break;
		if (poll(&p, 1, EVENT_WAIT_MS) <= 0)
			break;
	}
	++*lost;
}
