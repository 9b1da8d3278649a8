/* SPDX-License-Identifier: MIT */
/*
 * channel.h: the courier's part of the output channel (docs/spec.md part
 * 6): the snapshots of the writable slots before and after the run (the
 * file diff), the exports into --export-dir once the sandbox is gone, and
 * their parts of the report. Everything here reads what the sandbox wrote,
 * so it runs only in the courier, which has no privilege.
 *
 * courier.c calls, in order: ward_channel_init; ward_channel_snapshot
 * (before the sandbox exists); ward_channel_finish (after it is gone);
 * ward_channel_report (from the report); ward_channel_free.
 */
#ifndef WARD_CHANNEL_H
#define WARD_CHANNEL_H

#include "exporter.h"
#include "facts.h"
#include "fsdiff.h"
#include "policy.h"
#include "util.h"

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* A slot as the command line (or the workspace) gave it. */
struct ward_channel_arg {
	const char *name;
	const char *path;
};

/* A writable slot whose writes the report lists. */
struct ward_channel_slot {
	const char *name;
	const char *path;
	dev_t dev;
	ino_t ino;
	bool have_before, have_after;
	struct ward_snap before, after;
};

struct ward_channel {
	int export_fd;	 /* --export-dir, or -1 */
	int manifest_fd; /* --manifest, or -1 */
	struct ward_channel_slot *slots;
	size_t nslots;
	struct ward_export_result *results; /* one per export rule, once run */
	size_t nresults;
	bool finished; /* the sandbox ran: diff and export were done */
	bool diff; /* a report will be written: snapshot for its file diff */
};

void ward_channel_init(struct ward_channel *ch);

/* Before the sandbox exists: check that every writable slot can be
 * written by the sandbox's host ids (ours), and snapshot it when the diff
 * has a reader (ch->diff: only the report shows it). Returns 0 or
 * -1 with err filled (the run is then refused). */
int ward_channel_snapshot(struct ward_channel *ch, const struct ward_policy *p,
			  const struct ward_channel_arg *args, size_t nargs,
			  ward_err *err);

/* After the sandbox is gone, when it ran: the "after" snapshots, the
 * exports and --manifest. Failures are recorded in the report's parts,
 * never fatal. */
void ward_channel_finish(struct ward_channel *ch, const struct ward_policy *p);

/* The report's members `"workspace": ..., "files": ..., "export": ...`,
 * each preceded by ", " (ch, ws may be NULL: null). */
void ward_channel_report(FILE *f, const struct ward_channel *ch,
			 const struct ward_workspace *ws);

void ward_channel_free(struct ward_channel *ch);

#endif
