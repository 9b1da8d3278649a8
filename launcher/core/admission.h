/* SPDX-License-Identifier: MIT */
/*
 * admission.h: the host's ceiling on sandboxes that exist at once, and the
 * first-come, first-served queue in front of it (docs/spec.md 3.10).
 *
 * A queue is a directory of empty files that nobody writes:
 *
 *   queue            each waiter holds a read lock (F_OFD_SETLK) on the
 *                    byte at its ticket, the CLOCK_MONOTONIC ns at which
 *                    it joined; the waiter with no lock below its own is
 *                    at the head
 *   slot-0 .. slot-K one flock(LOCK_EX) each: a run holds one from its
 *                    admission until its sandbox is gone
 *
 * Only the head tries the slots 0..ceiling-1, so runs start in the order
 * they came; waiters poll (admission.c says why not inotify). Every lock
 * is the kernel's, tied to an open file description: a ward that dies,
 * however, frees its place and its slot at once. Neither lock needs write
 * access, so a caller who may only read the files (rootless, in root's
 * /run/ward/admission, mode 0755 and 0644) shares the same ceiling.
 */
#ifndef WARD_ADMISSION_H
#define WARD_ADMISSION_H

#include "facts.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>

#define WARD_ADMIT_DIR "/run/ward/admission" /* root's, the host's */
#define WARD_ADMIT_MAX 256 /* slot files in a queue: the highest ceiling */

struct ward_admission {
	struct ward_queue q; /* what the report says */
	int slot_fd;	     /* the flock held, or -1 */
	int exit_code;	     /* after a refusal: 124, or 128 + signal */
};

/* The ceiling, the timeout and the directory from the command line
 * (max_sandboxes, queue_timeout, queue_dir: NULL when not given), else
 * the environment (WARD_MAX_SANDBOXES, WARD_QUEUE_TIMEOUT), else the
 * defaults: floor(1.5 x online CPUs), WARD_QUEUE_TIMEOUT_MS, and
 * WARD_ADMIT_DIR (rootless: that one if it may be read, else the
 * caller's own). */
int ward_admission_config(struct ward_admission *a, const char *max_sandboxes,
			  const char *queue_timeout, const char *queue_dir,
			  bool root, ward_err *err);

/* Wait for a slot, in turn. Returns 0 holding one (or at once without a
 * ceiling); -1 when the wait timed out (a->q.timed_out, exit code 124),
 * one of sigfd's signals came (a->q.interrupted, exit code 128 + N) or
 * the queue could not be used (125). sigfd may be -1. */
int ward_admit(struct ward_admission *a, bool root, int sigfd, ward_err *err);

/* The sandbox is gone: the next run may start. */
void ward_admission_release(struct ward_admission *a);

#endif
