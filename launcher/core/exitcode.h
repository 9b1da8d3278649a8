/* SPDX-License-Identifier: MIT */
/*
 * exitcode.h: ward's exit status, in the manner of env(1) and timeout(1).
 *
 *   0..255    the target's own exit status, when it exited
 *   128 + N   the target was killed by signal N; 137 (SIGKILL) when the
 *             supervisor killed the sandbox (wall time, output ceiling) and
 *             the target could not say otherwise; 159 (SIGSYS) for a
 *             seccomp `kill` rule; 128 + N when ward itself got signal N
 *             (SIGTERM, SIGINT, SIGHUP)
 *   124       the run never started: no sandbox slot of the host's came
 *             free within the queue timeout (as timeout(1)'s 124)
 *   125       ward refused or failed before the target ran: bad usage, a
 *             bad or unreviewed blob, a policy this host cannot enforce, a
 *             setup step that failed (the message says which)
 *   126       the program was found but could not be executed
 *   127       the program was not found inside the sandbox
 *
 * A target may itself exit with 125..127 or above 128; the run report
 * (--report) tells the cases apart.
 */
#ifndef WARD_EXITCODE_H
#define WARD_EXITCODE_H

#define WARD_EXIT_QUEUE_TIMEOUT 124
#define WARD_EXIT_REFUSED	125
#define WARD_EXIT_CANNOT_EXEC	126
#define WARD_EXIT_NOT_FOUND	127
#define WARD_EXIT_SIGNAL_BASE	128

#endif
