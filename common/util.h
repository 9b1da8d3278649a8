/* SPDX-License-Identifier: MIT */
/*
 * util.h: the one error-path style and the cleanup attributes used by every
 * part of ward (launcher, blob reader, compiler).
 *
 * Error style (crun's): a fallible function returns a negative value and
 * fills a ward_err; the caller propagates in one line:
 *
 *     if (fd < 0)
 *         return ward_fail(err, errno, "open %s", path);
 *
 * The message names the operation and the path; ward_fail appends nothing,
 * the printer appends strerror(code) when code != 0. Only main() functions
 * print an error and choose an exit code.
 */
#ifndef WARD_UTIL_H
#define WARD_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WARD_ERR_MSG_MAX 512

typedef struct ward_err {
	int code; /* errno value, or 0 when not a system error */
	char msg[WARD_ERR_MSG_MAX]; /* "operation path: detail" */
} ward_err;

/* Fill *err (if not NULL) and return -1. */
int ward_fail(ward_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "msg: strerror(code)" or "msg" into buf; returns buf. */
const char *ward_err_str(const ward_err *err, char *buf, size_t len);

/* A duration as the language writes it: 12s, 500ms, 2m, 1h, 1.5s (at most
 * three decimals, a whole number of ms). Returns 0 or -1. */
int ward_parse_duration_ms(const char *s, uint64_t *ms);

/* T_queue: how long ward waits by default for one of the host's sandbox
 * slots before it refuses the run (--queue-timeout), and so what `wardc
 * explain`'s budget counts for queueing (the first seed's 12 s). */
#define WARD_QUEUE_TIMEOUT_MS 12000

#define WARD_UNLIKELY(x) __builtin_expect(!!(x), 0)

static inline void ward_freep(void *p)
{
	free(*(void **)p);
}
static inline void ward_closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}
static inline void ward_fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

#define _cleanup_free_	 __attribute__((cleanup(ward_freep)))
#define _cleanup_close_	 __attribute__((cleanup(ward_closep)))
#define _cleanup_fclose_ __attribute__((cleanup(ward_fclosep)))

/* Hand ownership out of a cleanup variable. */
#define steal_pointer(pp)                                                      \
	({                                                                     \
		__typeof__(*(pp)) _p = *(pp);                                  \
		*(pp) = NULL;                                                  \
		_p;                                                            \
	})
#define steal_fd(fdp)                                                          \
	({                                                                     \
		int _fd = *(fdp);                                              \
		*(fdp) = -1;                                                   \
		_fd;                                                           \
	})

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Little-endian fixed-width access, unaligned-safe. */
static inline uint16_t ward_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t ward_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}
static inline uint64_t ward_le64(const uint8_t *p)
{
	return (uint64_t)ward_le32(p) | ((uint64_t)ward_le32(p + 4) << 32);
}

#endif
