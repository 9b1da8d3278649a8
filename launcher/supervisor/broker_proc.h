/* SPDX-License-Identifier: MIT */
/*
 * broker_proc.h: the broker's process, as the supervisor makes and ends it
 * (the broker itself is launcher/unprivileged/broker.c; docs/spec.md 3.1).
 *
 *   spawn   a fork, while init is held (its user namespace exists, the
 *           target does not): the child drops every privilege (drop.c,
 *           with the broker's own seccomp allow-list) and waits; the
 *           supervisor moves it into its cgroup (root mode with cgroup2:
 *           the directory the network's programs are attached to, so that
 *           they filter every socket it makes), says GO; then (ready),
 *           once the supervisor's other work before the release is done,
 *           waits for READY or the reason it refuses the run.
 *           The socket broker reads the target's memory and takes its
 *           descriptors, which the kernel allows a process with no
 *           privilege only in the target's user namespace or as its
 *           owner. Rootless, the broker is the owner (the caller's uid,
 *           as every other process of the caller's). In root mode the
 *           owner is root: the broker (with an allow-list) joins the
 *           sandbox's user namespace before it drops everything, and
 *           becomes the sandbox's user there, whose host ids are the
 *           run's: the target's peer, with no capability anywhere.
 *   listen  the target's listener, once init has sent it: a copy to the
 *           broker; the supervisor keeps its own and never reads it, so
 *           that the broker's death cannot make the kernel fail a waiting
 *           call with ENOSYS (a kill rule's call would then return): the
 *           call waits until the supervisor, which sees the broker end,
 *           kills the sandbox
 *   end     once nothing of the sandbox is left: END, the records back
 *           (passed on to the courier unread), the broker reaped
 *
 * The supervisor acts only on the kind of what the broker says (READY,
 * REFUSE, KILL): never on its records.
 */
#ifndef WARD_BROKER_PROC_H
#define WARD_BROKER_PROC_H

#include "facts.h"
#include "policy.h"
#include "privilege.h"
#include "util.h"

#include <sys/types.h>

struct ward_broker_proc {
	pid_t pid; /* 0: none */
	int sock;  /* the supervisor's end, or -1 */
};

/* Make the broker, in the cgroup directory cg_fd when it is >= 0, and say
 * GO; on failure it is gone. events_fd: ward session's (--session-events)
 * or -1. record_fd: the record file (ward --record) or
 * -1. */
int ward_broker_start(const struct ward_policy *p, const struct ward_priv *priv,
		      int cg_fd, pid_t init, int record_fd, int events_fd,
		      struct ward_broker_proc *b, ward_err *err);

/* Wait until the broker started is ready (it drops its privileges while
 * the supervisor does other work); on failure it is gone, and err says why
 * (its own reason when it refused). */
int ward_broker_ready(struct ward_broker_proc *b, ward_err *err);

/* Does the broker join the sandbox's user namespace (root mode with an
 * allow-list)? It opens init's namespace, which init allows only until it
 * is made non-dumpable, just after its release: such a broker must be
 * ready before it. */
bool ward_broker_joins(const struct ward_policy *p,
		       const struct ward_priv *priv);

/* Send it the listener (the caller keeps its own). */
int ward_broker_listen(struct ward_broker_proc *b, int listener);

/* Another descriptor for the broker, with its kind (WARD_S_DNS). */
int ward_broker_give(struct ward_broker_proc *b, char what, int fd);

/* The sandbox is gone: its records into *f (f->records false when none
 * came). The broker is reaped now when wait is true (its cgroup goes
 * next), else by ward_broker_reap, as the supervisor's last step: having
 * sent its records, it has nothing left to do, and no launch should wait
 * on its teardown. Idempotent. */
void ward_broker_end(struct ward_broker_proc *b, struct ward_broker_carried *f,
		     bool wait);

/* The broker, killed if it still runs, reaped. Idempotent. */
void ward_broker_reap(struct ward_broker_proc *b);

#endif
