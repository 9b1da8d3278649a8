/* SPDX-License-Identifier: MIT */
/*
 * report.h: the run report (--report FILE), JSON. A first, minimal version:
 * the supervision issue adds the limits, peaks, output and denials, and
 * documents the schema in docs/spec.md part 4.
 */
#ifndef WARD_REPORT_H
#define WARD_REPORT_H

#include "util.h"

struct ward_report {
	const char *policy_name; /* NULL when the blob was not read */
	const char *digest_hex;	 /* the blob file's SHA-256, or NULL */
	const char *mode;	 /* "root", "rootless", or NULL */
	const char *reason; /* exited, signaled, exec_failed, launcher_error */
	int exit_code;	    /* ward's own exit status */
	int target_exit;    /* -1 unless reason is exited */
	int signal;	    /* 0 unless reason is signaled */
	const char *error;  /* NULL, or why ward refused or failed */
};

int ward_report_write(int fd, const struct ward_report *r, ward_err *err);

#endif
