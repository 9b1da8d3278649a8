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
 *   the OOM watch       the OOM killer killed in the run's memory
 *                       cgroup: the whole sandbox is killed (the first
 *                       seed: a limit ends the whole group)
 *   the courier         says when a stream of the target passed its
 *                       ceiling (the courier reads the streams, never
 *                       the supervisor): the sandbox is killed; its end
 *                       means nothing can leave the sandbox any more:
 *                       the sandbox is killed
 *   the notify socket   brings the seccomp listener from init, once: a
 *                       copy goes to the broker, which answers every
 *                       notification (broker_proc.h)
 *   the broker          says when a `kill` rule matched: the call never
 *                       runs, the sandbox is killed, the syscall is
 *                       recorded; its end means no notification can be
 *                       answered any more: the sandbox is killed
 *   the holder          says nothing once the run is admitted; its end
 *                       frees the run's sandbox slot, which the run may
 *                       not outlive (the ceiling): the sandbox is killed
 *
 * "Killed" is one act: cgroup.kill (or freeze and kill on v1) and SIGKILL
 * to init, whose death takes every process of its pid namespace with it.
 * init's messages are read once it has ended.
 */
#ifndef WARD_SUPERVISE_H
#define WARD_SUPERVISE_H

#include "broker_proc.h"
#include "cgroup.h"
#include "facts.h"
#include "ns.h"
#include "policy.h"
#include "util.h"

#include <sys/resource.h>

/* What the loop watches; everything but child and sigfd is optional. */
struct ward_watch {
	struct ward_child *child;
	int sigfd;	   /* signalfd of SIGTERM, SIGINT, SIGHUP */
	uint64_t wall_ms;  /* 0: no wall limit */
	uint64_t grace_ms; /* SIGTERM this long before the kill */
	int courier;	   /* the courier's messages, or -1 */
	int holder;	   /* the admission holder's socket, or -1 */
	int oom;	   /* ward_cg_oom_watch, or -1 */
	int notify_sock;   /* the seccomp listener comes here; -1 */
	bool dns_stub;	   /* ... then the DNS stub's socket (names) */
	struct ward_broker_proc *broker; /* NULL: none */
	struct ward_cgroup *cg;		 /* NULL or inactive: no cgroup */
	/* Called once when init says it is alone (WARD_MSG_ALONE: the
	 * target has ended and no other process of the sandbox is left)
	 * and ward did not stop the run: init is ending, the loop still
	 * waits for it. NULL: none. */
	void (*alone)(void *arg);
	void *arg;
	bool emptied; /* out: the courier's EMPTIED came during the loop
			 (the answer to a GONE told by alone) */
};

/* Supervise until init has ended and its messages are read. Closes the
 * child's descriptors and the listener. Fails only when the loop itself cannot
 * go on (then the sandbox has been killed). */
int ward_supervise(struct ward_watch *w, struct ward_outcome *o, ward_err *err);

/* Kill the whole sandbox now (cgroup and init). */
void ward_kill_sandbox(struct ward_watch *w);

/* ward's exit status for an outcome (exitcode.h). */
int ward_exit_code(const struct ward_outcome *o);

#endif
