/* SPDX-License-Identifier: MIT */
/*
 * output.c: see output.h.
 */
#include "output.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t limit_or_none(const struct ward_limits *l, enum ward_limit k)
{
	return ward_limit_is_set(l, k) ? l->value[k] : WARD_OUT_NONE;
}

void ward_output_init(struct ward_output *o, const struct ward_limits *l,
		      int out_dest, int err_dest)
{
	static const char *const names[2] = {"stdout", "stderr"};
	const enum ward_limit caps[2] = {WARD_LIM_STDOUT, WARD_LIM_STDERR};
	const int dests[2] = {out_dest, err_dest};

	o->total_cap = limit_or_none(l, WARD_LIM_OUTPUT);
	o->kept_total = 0;
	for (int i = 0; i < 2; i++) {
		struct ward_stream *s = &o->s[i];
		uint64_t eff;
		struct stat st;

		/* Everything but the two buffers (the tail and the pending
		 * bytes, 68 KiB a stream), of which only what the counters
		 * cover is ever read: zeroing them would touch every page
		 * of them in the courier, a fresh fork, for a run that may
		 * write nothing. */
		memset(s, 0, offsetof(struct ward_stream, tail));
		s->pend_off = s->pend_len = 0;
		s->name = names[i];
		s->rd = -1;
		s->dest = dests[i];
		s->dest_file = dests[i] >= 0 && fstat(dests[i], &st) == 0 &&
			       S_ISREG(st.st_mode);
		s->cap = limit_or_none(l, caps[i]);
		s->text = ward_stream_text(l, i);
		/* The ceiling follows the most the stream can keep; with
		 * `STREAM-at-cap kill` it is that: one byte past it ends the
		 * run (seed 004: stop at the cap, with an error). */
		eff = min_u64(s->cap, o->total_cap);
		if (eff != WARD_OUT_NONE && ward_stream_kills_at_cap(l, i))
			s->ceiling = eff;
		else if (eff == WARD_OUT_NONE)
			s->ceiling = WARD_OUT_NONE;
		else if (eff > (WARD_OUT_NONE - 1) / WARD_OUT_CEILING_TIMES)
			s->ceiling = WARD_OUT_NONE - 1;
		else
			s->ceiling =
			    eff * WARD_OUT_CEILING_TIMES < WARD_OUT_CEILING_MIN
				? WARD_OUT_CEILING_MIN
				: eff * WARD_OUT_CEILING_TIMES;
		ward_sha256_init(&s->sha);
	}
}

static void add_tail(struct ward_stream *s, const uint8_t *data, size_t n)
{
	/* The ring is indexed by the stream offset: byte k sits at
	 * k % WARD_OUT_TAIL. s->total is the offset of data[0]. */
	if (n >= WARD_OUT_TAIL) {
		uint64_t first = s->total + n - WARD_OUT_TAIL;

		data += n - WARD_OUT_TAIL;
		n = WARD_OUT_TAIL;
		for (size_t k = 0; k < n; k++)
			s->tail[(first + k) % WARD_OUT_TAIL] = data[k];
		return;
	}
	for (size_t k = 0; k < n; k++)
		s->tail[(s->total + k) % WARD_OUT_TAIL] = data[k];
}

/* Room left for kept bytes of s: none means what comes is dropped. */
static uint64_t keep_room(const struct ward_output *o,
			  const struct ward_stream *s)
{
	return min_u64(
	    s->cap == WARD_OUT_NONE ? WARD_OUT_NONE : s->cap - s->kept,
	    o->total_cap == WARD_OUT_NONE ? WARD_OUT_NONE
					  : o->total_cap - o->kept_total);
}

size_t ward_output_account(struct ward_output *o, int i, const uint8_t *data,
			   size_t n)
{
	struct ward_stream *s = &o->s[i];
	size_t keep = (size_t)min_u64(keep_room(o, s), n);

	ward_sha256_update(&s->sha, data, n);
	add_tail(s, data, n);
	s->total += n;
	s->kept += keep;
	o->kept_total += keep;
	if (s->ceiling != WARD_OUT_NONE && s->total > s->ceiling)
		s->over_ceiling = true;
	return keep;
}

/* Room for what n more raw bytes may become in the waiting buffer. */
static size_t raw_room(const struct ward_stream *s)
{
	size_t room = WARD_OUT_BUF - s->pend_off - s->pend_len;

	if (!s->text)
		return room;
	/* Escapes grow, and the end of the stream may add a held-back
	 * character's. */
	return room > 4 * WARD_TEXT_GROWTH ? room / WARD_TEXT_GROWTH - 4 : 0;
}

bool ward_output_can_read(const struct ward_output *o, int i)
{
	const struct ward_stream *s = &o->s[i];

	if (s->rd < 0)
		return false;
	/* Past its cap a stream is only drained: nothing waits. */
	if (keep_room(o, s) == 0 || s->dest < 0)
		return true;
	return raw_room(s) > 0;
}

int ward_output_read(struct ward_output *o, int i)
{
	static uint8_t scratch[WARD_OUT_BUF];
	struct ward_stream *s = &o->s[i];
	bool drop = keep_room(o, s) == 0 || s->dest < 0;
	uint8_t *end = s->pend + s->pend_off + s->pend_len;
	uint8_t *at = drop || s->text ? scratch : end;
	size_t room = drop ? sizeof(scratch) : raw_room(s);
	ssize_t n;
	size_t keep;

	if (room == 0)
		return -1;
	do
		n = read(s->rd, at, room);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return -1;
	if (n <= 0) {
		close(s->rd);
		s->rd = -1;
		/* A character held back that no read will finish. */
		if (s->text && s->dest >= 0)
			s->pend_len +=
			    ward_text_escape(&s->ts, NULL, 0, end, 1);
		return 0;
	}
	keep = ward_output_account(o, i, at, (size_t)n);
	/* The kept prefix is already in place; what follows it in the
	 * buffer is simply not counted. */
	if (!drop && s->dest >= 0)
		s->pend_len +=
		    s->text ? ward_text_escape(&s->ts, at, keep, end, 0) : keep;
	return 1;
}

bool ward_output_pending(const struct ward_output *o, int i)
{
	return o->s[i].dest >= 0 && o->s[i].pend_len > 0;
}

void ward_output_flush(struct ward_output *o, int i)
{
	struct ward_stream *s = &o->s[i];

	while (s->pend_len > 0 && s->dest >= 0) {
		size_t want = s->dest_file || s->pend_len < PIPE_BUF
				  ? s->pend_len
				  : PIPE_BUF;
		ssize_t n = write(s->dest, s->pend + s->pend_off, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0 && errno == EAGAIN)
				return;
			/* EPIPE and the like: the caller stopped reading.
			 * The stream is still drained and digested. */
			s->dest = -1;
			break;
		}
		s->pend_off += (size_t)n;
		s->pend_len -= (size_t)n;
		if (!s->dest_file)
			break; /* one piece per POLLOUT */
	}
	if (s->pend_len == 0 || s->dest < 0)
		s->pend_off = s->pend_len = 0;
}

void ward_output_finish(struct ward_output *o)
{
	for (int i = 0; i < 2; i++)
		ward_sha256_final(&o->s[i].sha, o->s[i].digest);
}

size_t ward_output_tail(const struct ward_stream *s, uint8_t *out)
{
	size_t n = s->total < WARD_OUT_TAIL ? (size_t)s->total : WARD_OUT_TAIL;
	uint64_t first = s->total - n;

	for (size_t k = 0; k < n; k++)
		out[k] = s->tail[(first + k) % WARD_OUT_TAIL];
	return n;
}
