/* SPDX-License-Identifier: MIT */
/*
 * session_proto.h: the session protocol's pieces that parse hostile input
 * (docs/spec.md part 7): the caller's frames and requests, the driver's
 * lines, base64. Pure functions, unit-tested; the server (session_server.c)
 * only moves bytes between them.
 */
#ifndef WARD_SESSION_PROTO_H
#define WARD_SESSION_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WARD_SESSION_CODE_MAX	 (1024u * 1024u)
#define WARD_SESSION_FRAME_MAX	 (WARD_SESSION_CODE_MAX + 1024u)
#define WARD_SESSION_QUEUE	 16
#define WARD_SESSION_CONNS	 8
#define WARD_SESSION_OUTBUF_MAX	 (4u << 20)
#define WARD_SESSION_LINE_MAX	 (4u << 20)
#define WARD_SESSION_GRACE_MS	 2000
#define WARD_SESSION_PARTIAL_MS	 10000
#define WARD_SESSION_OUTPUT_DEF	 (1024u * 1024u)
#define WARD_SESSION_RESULT_MAX	 (64u * 1024u)
#define WARD_SESSION_NAME_MAX	 256u
#define WARD_SESSION_MESSAGE_MAX (4u * 1024u)
#define WARD_SESSION_FIGURES	 64
#define WARD_SESSION_FIGNAME_MAX 128

enum ward_sreq_type {
	WARD_SQ_EXEC = 1,
	WARD_SQ_INTERRUPT = 2,
	WARD_SQ_STOP = 3,
	WARD_SQ_STATUS = 4,
};

struct ward_sreq {
	uint8_t type;
	uint32_t wall_ms;    /* exec: 0, none */
	uint32_t max_output; /* exec: 0, the default */
	uint32_t cell;	     /* interrupt: 0, the running one */
	const uint8_t *code; /* exec: into the body */
	size_t code_len;
};

/* A frame's 4-byte header: NULL and *len, or the error code to reply. */
const char *ward_sframe_len(const uint8_t hdr[4], uint32_t *len);

/* One frame's body: NULL and *rq, or the error code to reply. */
const char *ward_sreq_parse(const uint8_t *body, size_t len,
			    struct ward_sreq *rq);

/* Standard base64 with padding; malloc'ed, NUL-terminated; NULL: no
 * memory. */
char *ward_b64_encode(const uint8_t *p, size_t n);

/* Strict: only the alphabet, padding at the end. The bytes (malloc'ed, one
 * NUL past them) in *out; -1 if s is not base64 or no memory. */
int ward_b64_decode(const char *s, size_t n, uint8_t **out, size_t *outlen);

enum ward_dline_kind {
	WARD_DL_READY = 1,
	WARD_DL_OUT,
	WARD_DL_ERR,
	WARD_DL_DONE,
	WARD_DL_FIGURE, /* a file the driver says it wrote: a name */
};

#define WARD_DL_FIELDS 4 /* done: result, name, message, traceback */

struct ward_dline {
	enum ward_dline_kind kind;
	uint64_t cell;
	char status[12]; /* done: ok, error, interrupted */
	uint64_t cpu_us, maxrss_kib;
	/* out/err: field[0] is the chunk; done: the four; base64, into the
	 * line */
	const char *field[WARD_DL_FIELDS];
	size_t field_len[WARD_DL_FIELDS];
};

/* One line of the driver's (no newline), checked: 0, or -1 if it is not
 * one of part 7.5's. The fields are checked for base64's alphabet only;
 * they are decoded by the caller. */
int ward_dline_parse(const char *line, size_t len, struct ward_dline *d);

/* The run report's seccomp denials, one a call (*it is NULL at first):
 * 1 with the object's text and its "first" time (NULL if it has none), 0
 * after the last. The report is ward's own JSON (report.c's spelling);
 * the scan never leaves the string. */
int ward_sdenial_next(const char *report, const char **it, const char **obj,
		      size_t *len, const char **first, size_t *first_len);

/* Whether the RFC 3339 time t (n bytes) is within [from, to], which are
 * NUL-terminated and of the same form. */
bool ward_stime_within(const char *t, size_t n, const char *from,
		       const char *to);

#endif
