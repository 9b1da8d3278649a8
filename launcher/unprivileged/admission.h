/* SPDX-License-Identifier: MIT */
/*
 * admission.h: the holder, the process that waits in the host's queue of
 * sandboxes and holds the run's slot (docs/spec.md 3.10). It never has a
 * privilege: the supervisor forks it and it drops everything first
 * (launcher/core/drop.c: in root mode the run's host ids, no capability,
 * no_new_privs, a seccomp allow-list of its own, ward_holder_syscalls);
 * the supervisor only hears its answer and keeps the socket to it
 * (launcher/supervisor/admit.c).
 *
 * A queue is a directory of empty files that nobody writes (made by
 * launcher/lib/queue.c):
 *
 *   queue            each waiter holds a read lock (F_OFD_SETLK) on the
 *                    byte at its ticket, the CLOCK_MONOTONIC ns at which
 *                    it joined; the waiter with no lock below its own is
 *                    at the head
 *   slot-0 .. slot-K one flock(LOCK_EX) each: the holder takes one at its
 *                    admission and keeps it until its run's sandbox is
 *                    gone (the supervisor kills it then)
 *
 * Only the head tries the slots 0..ceiling-1, so runs start in the order
 * they came; waiters poll (admission.c says why not inotify). Every lock
 * is the kernel's, tied to an open file description: a holder that dies
 * (and it dies with its ward: PR_SET_PDEATHSIG) frees its place and its
 * slot at once. Neither lock needs write access, so a holder that may
 * only read the files (rootless, or root's own holder as the run's ids,
 * in root's /run/ward/admission, mode 0755 and 0644) shares the same
 * ceiling.
 */
#ifndef WARD_ADMISSION_H
#define WARD_ADMISSION_H

#include "facts.h"
#include "queue.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* From the holder to the supervisor, in SOCK_SEQPACKET records: JOINED
 * once it is in line (q: the queue, the ticket), then once ADMITTED (q
 * says which slot, when; or q.used is false: no ceiling) or REFUSED (text
 * says why; q says whether the wait timed out). Nothing else comes. */
enum ward_admit_kind {
	WARD_ADMIT_ADMITTED = 1,
	WARD_ADMIT_REFUSED = 2,
	WARD_ADMIT_JOINED = 3, /* before them: in line (q: where, when) */
};

struct ward_admit_answer {
	uint32_t kind;
	struct ward_queue q;
	char text[WARD_ERR_MSG_MAX];
};

/* The holder's seccomp allow-list: the basics, the locks, and what making
 * a rootless caller's own queue needs; no socket, no exec, no kill. */
extern const int ward_holder_syscalls[];
extern const size_t ward_holder_nsyscalls;

/* Wait in the queue q->dir for a slot, in turn, in this process (own_base:
 * where a rootless caller's own queue goes when q->dir is "" and the
 * host's may not be read). Returns the locked slot's descriptor, or -1:
 * the wait timed out (q->timed_out) or the queue could not be used (err
 * says which). wake_fd (-1: none) is the supervisor's socket: told
 * JOINED once in line; a readable or hung-up wake_fd ends the wait too:
 * -1 with q->timed_out false. */
int ward_queue_take(struct ward_queue *q, bool root, const char *own_base,
		    int wake_fd, ward_err *err);

/* The ceiling, the timeout and the directory from the command line
 * (max_sandboxes, queue_timeout, queue_dir: NULL when not given), else
 * the environment (WARD_MAX_SANDBOXES, WARD_QUEUE_TIMEOUT), else the
 * defaults: floor(1.5 x online CPUs), WARD_QUEUE_TIMEOUT_MS, and
 * WARD_ADMIT_DIR (rootless: that one if it may be read, else the
 * caller's own, chosen by ward_queue_take). */
int ward_queue_config(struct ward_queue *q, const char *max_sandboxes,
		      const char *queue_timeout, const char *queue_dir,
		      bool root, ward_err *err);

/* What the holder is given (the supervisor's command line, in its copy of
 * the supervisor's memory). */
struct ward_admit_args {
	const char *max_sandboxes, *queue_timeout, *queue_dir; /* or NULL */
	bool root;
	const char *own_base; /* see ward_queue_take */
};

/* The holder's life once its privileges are dropped: read the settings,
 * take a slot, answer on sock (ADMITTED at once without a ceiling), hold
 * the slot until sock ends (or anything comes on it). The exit status. */
int ward_admission_hold(const struct ward_admit_args *args, int sock);

#endif
