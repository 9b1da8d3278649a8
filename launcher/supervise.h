/* SPDX-License-Identifier: MIT */
/*
 * supervise.h: the supervisor's loop, from init's creation to its end.
 *
 * One poll() loop over descriptors: init's pidfd and the supervisor's
 * signals; init's messages are read once init has ended. The supervision
 * issue adds its sources to the same loop (the target's stdout and stderr
 * pipes, the wall timer, cgroup events) and its fields to struct
 * ward_outcome.
 */
#ifndef WARD_SUPERVISE_H
#define WARD_SUPERVISE_H

#include "ns.h"
#include "util.h"

enum ward_end {
	WARD_END_UNKNOWN = 0, /* init ended without a word */
	WARD_END_STATUS,      /* the target ran and ended: status */
	WARD_END_SETUP,	      /* setup failed: err */
	WARD_END_EXEC	      /* the program could not be run: err */
};

struct ward_outcome {
	enum ward_end end;
	int status;    /* WARD_END_STATUS: the target's wait status */
	ward_err err;  /* WARD_END_SETUP, WARD_END_EXEC */
	int init_code; /* init's si_code (CLD_EXITED, CLD_KILLED...) */
	int init_status;
};

/* Supervise until init has ended and every message is read; sigfd: a
 * signalfd for SIGTERM, SIGINT and SIGHUP, which are passed on to init
 * (and by init to the target). Closes the child's descriptors. */
int ward_supervise(struct ward_child *c, int sigfd, struct ward_outcome *o,
		   ward_err *err);

/* ward's exit status for an outcome (exitcode.h). */
int ward_exit_code(const struct ward_outcome *o);

#endif
