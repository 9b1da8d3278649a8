/* SPDX-License-Identifier: MIT */
/*
 * courier.h: the unprivileged process that handles everything the sandbox
 * produces (docs/spec.md 3.1 and part 6).
 *
 * The supervisor forks it before the sandbox exists; it drops every
 * privilege (launcher/core/drop.h) before it reads a byte the sandbox
 * wrote, and then, in order:
 *
 *   before    checks and snapshots the writable slots; says READY (or why
 *             the run must be refused)
 *   setup     takes the sandbox's writable mounts from init (slotfs.h) and
 *             fills each read-write slot's tmpfs from its host directory
 *   during    drains, caps, digests and delivers the target's stdout and
 *             stderr; says OUTPUT when a stream passes its ceiling; reads
 *             how full each writable mount is
 *   after     once the supervisor says the sandbox is gone: the slots'
 *             tmpfs copied back to their host directories, the file diff,
 *             the exports, the manifest, the workspace emptied; says
 *             EMPTIED
 *   report    with the supervisor's facts (facts.h): why the run ended,
 *             the run report, the summary of -v
 *
 * Root mode: the courier has the sandbox's host ids, the only ones that
 * can read everything the sandbox wrote, and no capability; the sandbox,
 * in its own pid and user namespaces, cannot reach it.
 */
#ifndef WARD_COURIER_H
#define WARD_COURIER_H

#include "channel.h"
#include "evidence.h"
#include "facts.h"
#include "output.h"
#include "policy.h"
#include "slotfs.h"

#include <stdbool.h>
#include <sys/types.h>

#define WARD_COURIER_MOUNTS 64
/* How often the writable mounts' use is read while the sandbox runs. */
#define WARD_COURIER_SAMPLE_MS 50

struct ward_courier {
	/* What the supervisor knew at the fork (its memory is ours). */
	const struct ward_policy *policy; /* NULL: the blob was not read */
	const char *digest_hex;		  /* NULL: not known */
	const char *signer;		  /* NULL: no signature was verified */
	const char *mode;		  /* "root", "rootless", NULL */
	uid_t host_uid;
	gid_t host_gid;
	/* the supplementary groups init inherits, host numbering (report.h);
	 * nhost_groups -1: not known */
	gid_t host_groups[64];
	int nhost_groups;
	bool will_run; /* the supervisor means to start the sandbox */
	bool verbose;
	bool seccomp_listener; /* kill rules go through the supervisor */
	const struct ward_channel_arg
	    *slots; /* every --slot, workspace's too */
	size_t nslots;
	char *const *argv; /* the target's command line, for the report */
	const struct ward_channel_arg *inputs; /* every --input */
	size_t ninputs;
	struct ward_evidence ev; /* the report's digests (evidence.h) */
	int report_fd;		 /* -1: no report */
	bool have_out;		 /* the target's pipes exist */
	struct ward_output out;
	struct ward_channel ch;
	const struct ward_workspace *ws; /* NULL: none */
	/* To and from the supervisor. */
	int to_sup, from_sup;
	/* From init: the writable mounts (facts.h, struct ward_hand_msg),
	 * then the program file; -1 once init closed it. */
	int hand;
	/* ward session's (--session-events): S asks for each cell's file
	 * diff (cell_diff.c); -1 */
	int events_fd;
	struct ward_slotfs mounts[WARD_COURIER_MOUNTS];
	size_t nmounts;
	bool mounts_done;
};

/* The courier's whole life, once the privileges are dropped. Returns the
 * exit status of the courier's process. */
int ward_courier_run(struct ward_courier *c);

/* A request of S's on events_fd, answered (cell_diff.c). */
void ward_cell_diff_serve(struct ward_courier *c);

#endif
