/* SPDX-License-Identifier: MIT */
/*
 * cell_diff.c: the courier's side of a session's file diff per cell
 * (docs/spec.md 7.6, denial_event.h): at a cell's start a snapshot of
 * each read-write slot's tmpfs (the sandbox's own view, through the
 * directory init handed the courier), at its end another and the
 * difference, bounded, to S. The run's own file diff (channel.c) is
 * untouched: it compares the host directories before and after the run.
 */
#include "courier.h"

#include "denial_event.h"
#include "fsdiff.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct ward_snap before[WARD_COURIER_MOUNTS];
static bool have[WARD_COURIER_MOUNTS];

static void answer(struct ward_courier *c, const struct ward_cell_msg *q,
		   const char *body, size_t len)
{
	static uint8_t out[sizeof(struct ward_cell_msg) + WARD_CELL_DIFF_BYTES];
	struct ward_cell_msg a = {WARD_CELLDIFF_MAGIC, q->kind, q->cell};

	if (len > WARD_CELL_DIFF_BYTES)
		len = 0;
	memcpy(out, &a, sizeof(a));
	if (len)
		memcpy(out + sizeof(a), body, len);
	/* S waits for it; the socket has room for one answer */
	(void)!write(c->events_fd, out, sizeof(a) + len);
}

/* The end's diffs, at cap entries a list. */
static char *diffs(struct ward_courier *c, uint64_t cap, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	bool any = false;

	if (!f)
		return NULL;
	fputc('[', f);
	for (size_t i = 0; i < c->nmounts; i++) {
		struct ward_slotfs *m = &c->mounts[i];
		struct ward_snap after = {0};
		ward_err err = {0};

		if (!m->name || m->fd < 0 || !have[i] ||
		    ward_snap_take(m->fd, &after, &err) < 0)
			continue;
		if (any)
			fputc(',', f);
		ward_snap_diff_json_cap(f, m->name, &before[i], &after, cap);
		any = true;
		ward_snap_free(&after);
	}
	fputc(']', f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void ward_cell_diff_serve(struct ward_courier *c)
{
	struct ward_cell_msg q;
	/* read and write: the courier's allow-list (a message a call on
	 * SOCK_SEQPACKET; S's is one of 16 bytes) */
	ssize_t n = read(c->events_fd, &q, sizeof(q));

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		c->events_fd = -1; /* S is gone */
		return;
	}
	if (n != (ssize_t)sizeof(q) || q.magic != WARD_CELLSNAP_MAGIC)
		return;
	if (q.kind == WARD_CELL_START) {
		for (size_t i = 0; i < c->nmounts; i++) {
			ward_err err = {0};

			if (have[i])
				ward_snap_free(&before[i]);
			memset(&before[i], 0, sizeof(before[i]));
			have[i] = c->mounts[i].name && c->mounts[i].fd >= 0 &&
				  ward_snap_take(c->mounts[i].fd, &before[i],
						 &err) == 0;
		}
		answer(c, &q, NULL, 0);
	} else if (q.kind == WARD_CELL_END) {
		size_t len = 0;
		char *body = diffs(c, WARD_CELL_DIFF_LIST, &len);

		/* too long with the lists: the counts alone */
		if (body && len > WARD_CELL_DIFF_BYTES) {
			free(body);
			body = diffs(c, 0, &len);
		}
		answer(c, &q, body ? body : "null", body ? len : 4);
		free(body);
	}
}
