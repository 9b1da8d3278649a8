/* SPDX-License-Identifier: MIT */
/*
 * import.h: a Docker or OCI seccomp profile (JSON, read with libyaml) as a
 * readable ward policy (docs/export.md).
 *
 * The policy says what a container runtime (crun, runc) does with the
 * profile through libseccomp, on the target architecture, for a container
 * that keeps the capabilities caps (none by default):
 *   - entries whose action is the default action are skipped (runtimes
 *     skip them), and so are entries whose includes/excludes rule them out;
 *   - an entry's comparisons are ANDed, unless it tests one argument twice:
 *     runtimes then add each comparison as a rule of its own (ORed);
 *   - an unconditional entry for a syscall silences every conditional one
 *     for it, and of two unconditional ones the first wins (libseccomp);
 *   - syscall names the target does not know are skipped, with a comment.
 * Actions ward lacks are mapped to the nearest stricter or equal one:
 * SCMP_ACT_KILL and _KILL_THREAD to kill (the process), SCMP_ACT_TRACE and
 * _NOTIFY to errno ENOSYS (what the kernel answers with no tracer or
 * listener).
 */
#ifndef WARD_IMPORT_H
#define WARD_IMPORT_H

#include "export.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

struct ward_import_opts {
	uint32_t arch;	      /* the target, WARD_ARCH_* */
	const char *source;   /* the profile's path: messages, header, name */
	const char **incdirs; /* -I: where `use groups;` is found */
	size_t nincdirs;
	uint64_t caps; /* capabilities the container keeps (bit = number) */
};

/*
 * Translate the profile json[0..len) into policy source (*text, malloc'd,
 * NUL-terminated). Warnings (skipped names, silenced entries, overlaps)
 * are added to *warnings. Returns 0, or -1 with err naming the place in
 * the profile ("PATH:LINE:COL: ...") for a profile it cannot translate.
 */
int ward_import_docker(const char *json, size_t len,
		       const struct ward_import_opts *o, char **text,
		       struct ward_notes *warnings, ward_err *err);

#endif
