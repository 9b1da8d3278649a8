/* SPDX-License-Identifier: MIT */
/*
 * recording.h: what a recording run saw (ward --record FILE with a blob of
 * `wardc compile --record`; docs/spec.md 4.9), kept by the broker and
 * written once the sandbox is gone, as JSON lines.
 *
 * Bounded whatever the sandbox does: calls alike (one syscall, the same
 * logged arguments) are one entry with a count; a syscall seen with more
 * than WARD_REC_PER_SYSCALL different arguments counts the rest in one
 * entry of its own, "args": "many"; past WARD_REC_MAX entries a call is
 * only counted (the end line's "dropped"). The file is at most about
 * WARD_REC_MAX lines of 200 bytes.
 */
#ifndef WARD_RECORDING_H
#define WARD_RECORDING_H

#include "broker_facts.h"
#include "facts.h"
#include "policy.h"

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define WARD_REC_MAX	     2048
#define WARD_REC_PER_SYSCALL 32

struct ward_rec_entry {
	int32_t nr;
	uint32_t arch;
	uint32_t mask; /* the arguments logged: bit i = args[i] */
	bool many;     /* the overflow entry of a syscall: args not kept */
	bool used;
	uint64_t args[6]; /* the logged ones; 0 elsewhere */
	uint64_t count;
};

struct ward_recording {
	struct ward_rec_entry e[WARD_REC_MAX * 2]; /* open addressing */
	uint32_t n;				   /* entries used */
	uint64_t calls;				   /* every call logged */
	uint64_t dropped; /* calls that found no free entry */
};

/* Log one call the program let through (mask: the arguments to keep). */
void ward_rec_add(struct ward_recording *r, const struct seccomp_data *d,
		  uint32_t mask);

/* Write the record to f: the header, an entry a line, the refusals of f's
 * records, the end line. name(nr) names a syscall or returns NULL. 0 or -1
 * (errno) when f could not be written. */
int ward_rec_write(FILE *f, const struct ward_recording *r,
		   const struct ward_policy *p,
		   const struct ward_broker_facts *facts,
		   const char *(*name)(int nr));

#endif
