/* SPDX-License-Identifier: MIT */
/*
 * session.h: `ward session ...` (docs/spec.md part 7). Unprivileged code:
 * the session wraps an ordinary run of ward, which does every privileged
 * step; the privileged core only dispatches here.
 */
#ifndef WARD_SESSION_H
#define WARD_SESSION_H

#include <stdbool.h>
#include <stddef.h>

/* argv[0] is "session". Returns the process's exit status. */
int ward_session_main(int argc, char **argv);

/* What the server is given by ward session start (session_start.c). */
struct ward_session_srv {
	int listen_fd;
	int to_driver, from_driver, driver_err; /* W's stdin, stdout, stderr */
	int parent;				/* socketpair to P */
	int events;		 /* from the broker (denial_event.h); -1 */
	const char *socket_path; /* printed once ready */
	unsigned long long idle_ms;
	/* the policy's stdout and stderr modes: text, escaped for display
	 * (as the courier does for a run), or raw */
	bool text[2];
};

/* From P to S: the run ended (its wait status; the report's descriptor
 * with it), or P got a signal. */
struct ward_session_pmsg {
	int kind; /* 1: the run ended; 2: a signal to P */
	int status;
};

/* S's life: serve until the run is gone; prints the session report.
 * Returns S's exit status. */
int ward_session_serve(const struct ward_session_srv *s);

/* S's own seccomp allow-list (session_filter.c), installed by S itself
 * after it dropped to nobody (root mode) and before it reads a byte of the
 * caller's or the driver's: anything else fails with EPERM; another
 * architecture or the x32 ABI kills S. Sets no_new_privs. Returns 0, or -1
 * with errno. */
extern const int ward_session_srv_syscalls[];
extern const size_t ward_session_srv_nsyscalls;
int ward_session_srv_filter(void);

/* The thin clients: exec, status, interrupt, stop. */
int ward_session_client(int argc, char **argv);

#endif
