/* SPDX-License-Identifier: MIT */
/*
 * channel.h: the supervisor's part of the output channel
 * (docs/spec.md part 6): the workspace that gives read-write slots a fresh
 * directory and --input copies their place, the snapshots of the writable
 * slots before and after the run (the file diff), the exports into
 * --export-dir once the sandbox is gone, and their parts of the report.
 *
 * main.c calls, in order: ward_channel_init; ward_channel_prepare (in
 * prepare, before the slots are matched: it adds the workspace's slots to
 * the command line's); ward_channel_finish (in finish, after the sandbox
 * is gone and its cgroup removed); ward_channel_report (from the report);
 * ward_channel_free.
 */
#ifndef WARD_CHANNEL_H
#define WARD_CHANNEL_H

#include "cli.h"
#include "exporter.h"
#include "fsdiff.h"
#include "policy.h"
#include "privilege.h"
#include "util.h"
#include "workspace.h"

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

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
	struct ward_workspace ws;
	bool have_ws;
	char **paths; /* the workspace's slot paths (cli->slots point here) */
	size_t npaths;
	int export_fd;	 /* --export-dir, or -1 */
	int manifest_fd; /* --manifest, or -1 */
	struct ward_channel_slot *slots;
	size_t nslots;
	struct ward_export_result *results; /* one per export rule, once run */
	size_t nresults;
	bool finished; /* the sandbox ran: diff and export were done */
};

void ward_channel_init(struct ward_channel *ch);

/* Before the slots are matched (ward_check_slots): open --export-dir and
 * --manifest, make the workspace when a read-write slot has no --slot or
 * an --input is given, copy the inputs, append the workspace's slots to
 * cli->slots, and snapshot every writable slot. Returns 0 or -1 with err
 * filled (what was made is destroyed by ward_channel_finish). */
int ward_channel_prepare(struct ward_channel *ch, const struct ward_policy *p,
			 struct ward_cli *cli, const struct ward_priv *priv,
			 ward_err *err);

/* After the sandbox is gone: when it ran (ran), the "after" snapshots and
 * the exports (and --manifest); on every path, the workspace destroyed.
 * Failures are recorded in the report's parts, never fatal. */
void ward_channel_finish(struct ward_channel *ch, const struct ward_policy *p,
			 bool ran);

/* The report's members `"workspace": ..., "files": ..., "export": ...`,
 * each preceded by ", " (ch may be NULL: all null). */
void ward_channel_report(FILE *f, const struct ward_channel *ch);

void ward_channel_free(struct ward_channel *ch);

#endif
