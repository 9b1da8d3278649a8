/* SPDX-License-Identifier: MIT */
/*
 * launch.h: what the supervisor hands to the sandbox's init, and the
 * messages init and the target send back.
 *
 * The supervisor (ward's own process, outside every namespace) decides
 * everything before it creates a process: the blob is validated, the
 * policy checked against the host, the environment built, the slots
 * matched. struct ward_launch carries that plan across clone3() (the child
 * gets a copy of the supervisor's memory); init and the target only apply
 * it. Nothing in it is changed after the clone.
 */
#ifndef WARD_LAUNCH_H
#define WARD_LAUNCH_H

#include "facts.h"
#include "policy.h"
#include "privilege.h"
#include "util.h"

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A slot's host path, and the object the supervisor saw there: init opens
 * the path again inside the new mount namespace and binds it only if it is
 * the same object (st_dev, st_ino). */
struct ward_slot_src {
	const char *path; /* NULL for mount entries that are not slots */
	dev_t dev;
	ino_t ino;
	bool is_dir;
};

struct ward_launch {
	const struct ward_policy *policy;
	struct ward_priv priv;
	char *const *argv;	     /* PROGRAM ARGS... */
	char **envp;		     /* exactly the policy's environment */
	struct ward_slot_src *slots; /* one per mount entry */
	mode_t umask;		     /* the caller's, restored for the target */
	/* Descriptors, opened by the supervisor before the clone. */
	int stdio[3];  /* become the target's 0, 1, 2 */
	int sync_rd;   /* init waits here until its id maps are written;
			  then it is the lifeline: EOF = supervisor gone */
	int msg_wr;    /* init and target report here (struct ward_msg) */
	int cgroup_fd; /* the run's cgroup2 directory: clone3
			  CLONE_INTO_CGROUP puts init there; or -1 */
	int hand_wr;   /* init hands the courier its writable mounts here
			  (facts.h, struct ward_hand_msg); or -1 */
	int notify_wr; /* the blob's kill rules are USER_NOTIF returns: init
			  sends the target's seccomp listener here
			  (SCM_RIGHTS) to the supervisor; or -1 */
};

/* Messages from inside to the supervisor, one write(2) each (smaller than
 * PIPE_BUF, so never interleaved). WARD_MSG_BACKSTOP: init's own timer
 * fired (wall + grace + WARD_BACKSTOP_MARGIN_MS, so the supervisor's timers
 * did not end the run: it is stopped or stuck); init exits right after,
 * which ends the whole pid namespace. */
enum ward_msg_kind {
	WARD_MSG_SETUP_FAILED = 1,  /* code: errno; text: what failed */
	WARD_MSG_EXEC_FAILED = 2,   /* code: errno of the program lookup or
				       execve; text: the program */
	WARD_MSG_TARGET_STATUS = 3, /* code: the target's wait status */
	WARD_MSG_IDENTITY = 4,	    /* text: struct ward_measured */
	WARD_MSG_BACKSTOP = 5,	    /* code: the timer's delay in ms */
	WARD_MSG_ALONE = 6	    /* after TARGET_STATUS: init has no child
				       left, so no process of the sandbox
				       but init, which exits now */
};

struct ward_msg {
	uint32_t kind;
	int32_t code;
	char text[WARD_ERR_MSG_MAX];
};

_Static_assert(sizeof(struct ward_measured) <= WARD_ERR_MSG_MAX,
	       "the measured identity fits in a message");

/* Send a message (best effort: the supervisor may be gone). */
void ward_msg_send(int fd, uint32_t kind, int32_t code, const char *text);
void ward_msg_send_raw(int fd, uint32_t kind, const void *data, size_t len);

/* Init: the child of clone3(), PID 1 of the new pid namespace. Never
 * returns. */
_Noreturn void ward_init_main(const struct ward_launch *l);

#endif
