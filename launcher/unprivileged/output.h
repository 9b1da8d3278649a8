/* SPDX-License-Identifier: MIT */
/*
 * output.h: the target's stdout and stderr, each on a pipe of its own that
 * the supervisor drains, caps, digests and passes on to the caller.
 *
 * Per stream: the first `cap` bytes (limits stdout / stderr, and together
 * no more than limits output) are kept and delivered to the caller (ward's
 * own stdout and stderr, or --stdout/--stderr FILE); everything after is
 * read and dropped, so that the target never blocks on a full pipe, while
 * a SHA-256 of the whole stream and its last 4 KiB (the tail) are kept.
 * Reading past the ceiling, max(16 x the stream's cap, 64 MiB), ends the
 * run (reason output_limit): a target that only prints cannot keep the
 * supervisor busy forever. A stream without any cap is passed on whole.
 *
 * A stream in text mode (the policy's `streams`) is delivered safe to
 * display (textsafe.h); the cap, the digest and the tail are of the raw
 * bytes, and the report says how many were escaped.
 *
 * Delivery never blocks the courier's loop: kept bytes wait in a
 * buffer, written when the destination is writable; while the buffer is
 * full the pipe is not read (the target waits, the timer still runs).
 */
#ifndef WARD_OUTPUT_H
#define WARD_OUTPUT_H

#include "policy.h"
#include "sha256.h"
#include "textsafe.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>

#define WARD_OUT_TAIL	       4096
#define WARD_OUT_BUF	       (64 * 1024)
#define WARD_OUT_CEILING_MIN   (64ull << 20)
#define WARD_OUT_CEILING_TIMES 16
#define WARD_OUT_NONE	       UINT64_MAX /* no cap, no ceiling */

enum { WARD_STDOUT = 0, WARD_STDERR = 1 };

struct ward_stream {
	const char *name; /* "stdout", "stderr" */
	int rd;		  /* the pipe's read end; -1 at EOF */
	int dest;	  /* where kept bytes go; -1 after a failed write */
	bool dest_file;	  /* a regular file: written at once, never blocks */
	uint64_t cap;	  /* own cap, WARD_OUT_NONE when unset */
	uint64_t ceiling; /* bytes read before the run is ended */
	uint64_t total;	  /* bytes read */
	uint64_t kept;	  /* bytes kept (delivered or waiting) */
	bool over_ceiling;
	bool text; /* delivered safe to display (textsafe.h) */
	struct ward_textsafe ts;
	struct ward_sha256 sha;
	uint8_t digest[32]; /* after ward_output_finish */
	uint8_t tail[WARD_OUT_TAIL];
	uint8_t pend[WARD_OUT_BUF]; /* kept, not yet delivered */
	size_t pend_off, pend_len;
};

struct ward_output {
	struct ward_stream s[2];
	uint64_t total_cap; /* limits output, WARD_OUT_NONE when unset */
	uint64_t kept_total;
};

/* Caps and ceilings from the limits; rd -1 (set by the caller once the
 * pipes exist); dest: the caller's descriptors. */
void ward_output_init(struct ward_output *o, const struct ward_limits *l,
		      int out_dest, int err_dest);

/* Take n bytes just read from stream i: count, hash and tail all of them;
 * returns how many of them (a prefix) are kept. Sets over_ceiling when the
 * stream passed its ceiling. */
size_t ward_output_account(struct ward_output *o, int i, const uint8_t *data,
			   size_t n);

/* Whether stream i's pipe may be read now (it is open, and kept bytes
 * have room to wait). */
bool ward_output_can_read(const struct ward_output *o, int i);

/* Read once from stream i's pipe. Returns 1 after data, 0 at EOF (rd is
 * closed and set to -1), -1 on EAGAIN. */
int ward_output_read(struct ward_output *o, int i);

/* Whether stream i has kept bytes waiting for its destination. */
bool ward_output_pending(const struct ward_output *o, int i);

/* Deliver waiting bytes of stream i: to a regular file all of them, to
 * anything else one PIPE_BUF piece (the caller polled POLLOUT). A failed
 * write (the caller closed its end) stops delivery, not the draining. */
void ward_output_flush(struct ward_output *o, int i);

/* The final digests. */
void ward_output_finish(struct ward_output *o);

/* The tail of stream i, oldest byte first, into out (WARD_OUT_TAIL
 * bytes); returns its length. */
size_t ward_output_tail(const struct ward_stream *s, uint8_t *out);

#endif
