/* SPDX-License-Identifier: MIT */
/*
 * cmdline.h: init forgets the supervisor's command line and environment.
 */
#ifndef WARD_CMDLINE_H
#define WARD_CMDLINE_H

#include "launch.h"
#include "util.h"

/* init is a clone of ward, not a new program: its argument and
 * environment areas are ward's own. Copy what init still needs from them
 * (the target's argv, the slots' host paths: l->argv and l->slots are
 * replaced by copies), then zero both areas and point the process's
 * argument area at "ward-init" (PR_SET_MM_MAP), so that /proc/1/cmdline
 * and /proc/1/environ hold nothing the caller passed. procdir is the host's
 * "/proc" (still visible: called before any mount). */
int ward_forget_cmdline(struct ward_launch *l, const char *procdir,
			ward_err *err);

#endif
