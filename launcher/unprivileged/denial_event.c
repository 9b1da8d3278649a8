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

/* One message, waiting a bounded time for room; *lost counts it when it
 * could not go. */
static void send_bounded(int fd, const void *m, size_t len, uint64_t *lost)
{
	for (int tries = 0; tries < 2; tries++) {
		struct pollfd p = {fd, POLLOUT, 0};

		if (send(fd, m, len, MSG_DONTWAIT | MSG_NOSIGNAL) ==
		    (ssize_t)len)
			return;
		if (errno != EAGAIN && errno != EINTR)
			break;
		if (poll(&p, 1, EVENT_WAIT_MS) <= 0)
			break;
	}
	++*lost;
}

void ward_denial_send(int fd, const struct ward_denial_event *ev,
		      uint64_t *lost)
{
	struct ward_denial_event e = *ev;

	if (fd < 0)
		return;
	e.lost = *lost;
	send_bounded(fd, &e, sizeof(e), lost);
}

void ward_net_event_send(int fd, struct ward_net_event *ev, uint64_t *lost)
{
	if (fd < 0)
		return;
	ev->magic = WARD_NETEVENT_MAGIC;
	ev->lost = *lost;
	send_bounded(fd, ev, sizeof(*ev), lost);
}
