/* SPDX-License-Identifier: MIT */
/*
 * driver.h: one compilation, from a source path to checked policy or blob
 * bytes, shared by the wardc commands.
 */
#ifndef WARD_DRIVER_H
#define WARD_DRIVER_H

#include "diag.h"
#include "load.h"
#include "sema.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes of wardc (spec 1.8). */
enum { WARDC_OK = 0, WARDC_POLICY_ERROR = 1, WARDC_USAGE = 2 };

struct ward_opts {
	const char **incdirs; /* -I, in order */
	size_t nincdirs;
	uint32_t arch; /* WARD_ARCH_* */
	bool werror;
	enum ward_diag_format format;
	enum ward_color color;
	FILE *diag_out; /* where diagnostics go (stderr) */
	bool record;	/* compile --record: the recording variant */
	/* -D NAME=VALUE, in order: string constants defined as if by
	 * `const NAME = "VALUE";` in a file read before the policy's
	 * (docs/spec.md 1.9); checked by the option parser */
	const char **defines;
	size_t ndefines;
};

/* Everything one compilation holds, released in one place. */
struct ward_session {
	struct ward_sources *src;
	struct ward_diags *diags;
	struct ward_search_path sp;
	struct ward_unit unit;
	struct ward_checked checked; /* .where: provenance for lint */
	bool sp_init;
};

/* Load and check path (diagnostics printed as o says), then add what its
 * net section implies (net_apply.h), so that the session holds the policy
 * as it will run, but for the seccomp program. Returns a WARDC_* code; the
 * session must be closed in every case. */
int ward_session_open(struct ward_session *s, const char *path,
		      const struct ward_opts *o);
void ward_session_close(struct ward_session *s);

/* The longest value of a -D option. */
#define WARD_DEFINE_MAX 1024

/* Is def a -D option's NAME=VALUE (docs/spec.md 1.9)? Returns 0, or -1
 * with what is wrong in err. */
int ward_define_check(const char *def, ward_err *err);

/* Check one file (a policy or a fragment). Returns a WARDC_* code. */
int ward_driver_check(const char *path, const struct ward_opts *o);

/* Compile a policy into blob bytes (malloc'd). Returns a WARDC_* code. */
int ward_driver_compile(const char *path, const struct ward_opts *o,
			uint8_t **blob, size_t *len);

/* Read a file whole (at most max bytes). Returns 0 or -1 with errno set. */
int ward_read_file(const char *path, size_t max, uint8_t **data, size_t *len);

/* Blob bytes from a path: a blob file is read as it is, a source file
 * (anything not starting with the blob magic) is compiled. Returns a
 * WARDC_* code. */
int ward_driver_blob(const char *path, const struct ward_opts *o,
		     uint8_t **blob, size_t *len);

#endif
