/* SPDX-License-Identifier: MIT */
/*
 * admit.h: the supervisor's side of admission, the host's ceiling on
 * sandboxes that exist at once (docs/spec.md 3.10).
 *
 * In root mode the supervisor makes root's queue when it is missing
 * (launcher/lib/queue.c); then it forks the holder, which drops every
 * privilege before it reads the settings (option, environment, default)
 * or opens a file of the queue, waits in turn and holds the slot
 * (launcher/unprivileged/admission.h). The supervisor only hears the
 * holder's one answer, and keeps the socket to it and its pid: killing
 * it frees the slot.
 */
#ifndef WARD_ADMIT_H
#define WARD_ADMIT_H

#include "facts.h"
#include "privilege.h"
#include "util.h"

#include <stdbool.h>
#include <sys/types.h>

struct ward_admission {
	struct ward_queue q; /* what the report says */
	pid_t holder;	     /* the holder, holding the slot; 0: none */
	int sock;	     /* our end of the holder's socket, or -1 */
	int exit_code;	     /* after a refusal: 124, or 128 + signal */
};

/* Wait for a slot, in turn, through the holder (made with priv's host
 * ids in root mode), which reads the settings (admission.h,
 * ward_queue_config: max_sandboxes, queue_timeout, queue_dir are the
 * command line's, NULL when not given). Returns 0 holding one (or at
 * once without a ceiling: no holder); -1 when the wait timed out
 * (a->q.timed_out, exit code 124), one of sigfd's signals came
 * (a->q.interrupted, exit code 128 + N), a setting was refused or the
 * queue could not be used (125). sigfd may be -1. a must be zero but for
 * sock, -1. */
int ward_admit(struct ward_admission *a, const char *max_sandboxes,
	       const char *queue_timeout, const char *queue_dir,
	       const struct ward_priv *priv, int sigfd, ward_err *err);

/* The sandbox is gone: the holder is killed, and the slot is free for the
 * next run as soon as the kernel has ended it. Not waited for here: the
 * supervisor's last step does that (ward_admission_reap), while the
 * courier exports, so that no launch waits on a process's teardown. */
void ward_admission_release(struct ward_admission *a);

/* The holder, killed if it was not yet, reaped. Idempotent. */
void ward_admission_reap(struct ward_admission *a);

#endif
