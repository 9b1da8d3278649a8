/* SPDX-License-Identifier: MIT */
/*
 * suggest.h: `wardc suggest` (docs/spec.md 4.9): records of recording runs
 * read (the reader is strict: a malformed line is an error naming its file
 * and line), then the smallest syscalls section that allows what they saw.
 *
 * What the section holds:
 *   - a stdlib group (a group not marked `log`) where every one of its
 *     syscalls was seen, the largest groups first;
 *   - the other syscalls seen, by name;
 *   - socket and ioctl with a condition on the values seen (domain,
 *     request) when there are few of them, else by name;
 *   - clone without namespace flags (the stdlib's clone-namespaces);
 *     clone3 ENOSYS;
 *   - never a dangerous syscall (danger.h), a syscall of a `log` group,
 *     TIOCSTI or TIOCLINUX: what a record saw of them is a comment; the
 *     dangerous groups are refused by name.
 * Each rule's comment says which records needed it.
 */
#ifndef WARD_SUGGEST_H
#define WARD_SUGGEST_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WARD_SUGGEST_MAX_RECORDS 32
#define WARD_SUGGEST_FEW	 16 /* values of an argument a condition lists */

/* One syscall seen (after merging records: one per name and arguments). */
struct ward_seen {
	char name[64];
	int32_t nr;
	uint64_t count;
	bool many;	  /* "args": "many": the values were not all kept */
	uint32_t mask;	  /* the arguments kept */
	uint64_t args[6]; /* their values */
	uint32_t records; /* bit i: records[i] saw it */
	bool refused;	  /* a "refused" line: the recording run refused it */
};

struct ward_seen_set {
	struct ward_seen *v;
	size_t n, cap;
	const char *records[WARD_SUGGEST_MAX_RECORDS]; /* their names */
	size_t nrecords;
	uint32_t arch; /* WARD_ARCH_* of the records */
};

void ward_seen_free(struct ward_seen_set *s);

/* Read one record's text (name: for errors and comments; kept, not
 * copied) into s. A line that is not what docs/spec.md 4.9 says, a record
 * without its header or end line, of another architecture than the
 * others': -1 and err says "NAME:LINE: what". */
int ward_record_read(struct ward_seen_set *s, const char *name,
		     const char *text, size_t len, ward_err *err);

/* A group the section may use: its name (with the @) and its syscalls on
 * the records' target. */
struct ward_suggest_group {
	const char *name;
	const char *const *members;
	size_t nmembers;
	bool logged; /* a `log` group: dangerous, never allowed */
};

/* Write the syscalls section for s, indented by nothing, to f. */
int ward_suggest_section(FILE *f, const struct ward_seen_set *s,
			 const struct ward_suggest_group *groups,
			 size_t ngroups, ward_err *err);

#endif
