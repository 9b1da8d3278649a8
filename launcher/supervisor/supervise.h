/* SPDX-License-Identifier: MIT */
/*
 * supervise.h: the supervisor's loop, from init's release to its end.
 *
 * One poll() loop over descriptors, and nothing else decides when a run
 * ends:
 *
 *   init's pidfd        init ended: the whole pid namespace is gone
 *   signalfd            SIGTERM, SIGINT, SIGHUP to ward: passed to the
 *                       target, then the sandbox is killed (after `grace`)
 *   timerfd             `wall` expired: SIGTERM to the target if the
 *                       policy gives a `grace`, then the sandbox is killed
 *   stdout, stderr      the target's pipes: capped, digested (output.h);
 *                       past the ceiling the sandbox is killed
 *   the notify socket   brings the seccomp listener from init, once
 *   the listener        a `kill` rule matched: the call never runs, the
 *                       sandbox is killed, the syscall is recorded
 *
 * "Killed" is one act: cgroup.kill (or freeze and kill on v1) and SIGKILL
 * to init, whose death takes every process of its pid namespace with it.
 * init's messages are read once it has ended.
 */
#ifndef WARD_SUPERVISE_H
#define WARD_SUPERVISE_H

#include "cgroup.h"
#include "ns.h"
#include "output.h"
#include "policy.h"
#include "util.h"

#include <sys/resource.h>

enum ward_end {
	WARD_END_UNKNOWN = 0, /* init ended without a word */
	WARD_END_STATUS,      /* the target ran and ended: status */
	WARD_END_SETUP,	      /* setup failed: err */
	WARD_END_EXEC	      /* the program could not be run: err */
};

/* Why the supervisor ended the run itself (the first reason wins). */
enum ward_stop {
	WARD_STOP_NONE = 0,
	WARD_STOP_TIMEOUT, /* wall */
	WARD_STOP_OUTPUT,  /* a stream passed its ceiling */
	WARD_STOP_SECCOMP, /* a kill rule matched */
	WARD_STOP_SIGNAL   /* ward got SIGTERM, SIGINT or SIGHUP */
};

/* The syscall a kill rule stopped. */
struct ward_violation {
	bool seen;
	bool nr_known; /* false: the notification went away unread */
	int32_t nr;
	uint32_t arch;
	const char *name; /* NULL when neither table knows it */
};

/* What the loop watches; everything but child and sigfd is optional. */
struct ward_watch {
	struct ward_child *child;
	int sigfd;		 /* signalfd of SIGTERM, SIGINT, SIGHUP */
	uint64_t wall_ms;	 /* 0: no wall limit */
	uint64_t grace_ms;	 /* SIGTERM this long before the kill */
	struct ward_output *out; /* NULL: the target writes to ward's own */
	int notify_sock;	 /* the seccomp listener comes here; -1 */
	const struct ward_rules *rules; /* syscall names, may be NULL */
	struct ward_cgroup *cg;		/* NULL or inactive: no cgroup */
};

struct ward_outcome {
	enum ward_end end;
	int status;    /* WARD_END_STATUS: the target's wait status */
	ward_err err;  /* WARD_END_SETUP, WARD_END_EXEC */
	int init_code; /* init's si_code (CLD_EXITED, CLD_KILLED...) */
	int init_status;
	enum ward_stop stop;
	int stop_signal; /* WARD_STOP_SIGNAL: ward's signal */
	bool term_sent;	 /* the grace SIGTERM went to the target */
	bool backstop;	 /* init's backstop timer ended the run
			    (WARD_MSG_BACKSTOP): the supervisor did not */
	struct ward_violation seccomp;
	bool have_rusage;
	struct rusage rusage; /* init and everything it reaped */
	uint64_t wall_ms;     /* from the release of init to its end */
	long pids_sampled;    /* the most pids.current seen, or -1 */
};

/* Supervise until init has ended, its messages are read and the output
 * is drained and delivered. Closes the child's descriptors and the
 * listener. Fails only when the loop itself cannot go on (then the
 * sandbox has been killed). */
int ward_supervise(struct ward_watch *w, struct ward_outcome *o, ward_err *err);

/* Kill the whole sandbox now (cgroup and init). */
void ward_kill_sandbox(struct ward_watch *w);

/* ward's exit status for an outcome (exitcode.h). */
int ward_exit_code(const struct ward_outcome *o);

/* The seccomp listener's fd from a message on sock (SCM_RIGHTS), or -1. */
int ward_recv_fd(int sock);

/* Send fd on sock (SCM_RIGHTS). */
int ward_send_fd(int sock, int fd);

#endif
