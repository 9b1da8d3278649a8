/* SPDX-License-Identifier: MIT */
/*
 * cli.h: ward's command line.
 *
 *   ward [OPTIONS] POLICY.wardb -- PROGRAM [ARGS...]
 */
#ifndef WARD_CLI_H
#define WARD_CLI_H

#include "signature.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>

struct ward_slot_arg {
	const char *name; /* points into argv, up to the '=' (NUL put there) */
	const char *path;
};

struct ward_cli {
	const char *blob_path;
	char **argv; /* PROGRAM and its arguments, NULL-terminated */
	struct ward_slot_arg *slots;
	size_t nslots;
	const char *report_path; /* NULL: no report */
	const char *record_path; /* --record: NULL, not recording */
	int events_fd; /* --session-events FD: the broker's denials; -1 */
	char expect_digest[65]; /* lower-case hex, "" when not given */
	/* --trusted-key PUBKEY, repeated (at most WARD_SIG_TRUSTED_MAX). */
	const char *trusted_keys[WARD_SIG_TRUSTED_MAX];
	size_t ntrusted;
	const char *stdin_path;	    /* NULL: /dev/null; "-": ward's stdin */
	int64_t host_uid, host_gid; /* -1 when not given */
	const char *stdout_path;    /* NULL: ward's own stdout */
	const char *stderr_path;    /* NULL: ward's own stderr */
	const char *cgroup_base;    /* NULL: the default base */
	const char *upstream_proxy; /* --upstream-proxy ADDR:PORT, or NULL */
	/* The output channel (channel.h, docs/spec.md part 6). */
	struct ward_slot_arg *inputs; /* --input NAME=HOSTPATH: copied in */
	size_t ninputs;
	const char *export_dir;	    /* --export-dir DIR, or NULL */
	const char *manifest_path;  /* --manifest FILE, or NULL */
	const char *workspace_base; /* --workspace-base DIR, or NULL */
	bool keep_workspace;	    /* --keep-workspace */
	bool replace; /* --replace: an existing output file of ours goes */
	/* Admission (admission.h): parsed there; NULL when not given. */
	const char *max_sandboxes; /* --max-sandboxes N */
	const char *queue_timeout; /* --queue-timeout DURATION */
	const char *queue_dir;	   /* --queue-dir DIR */
	bool help, version, verbose;
};

/* Parse argv (whose strings it may modify). Returns 0, or -1 with err
 * filled (a usage error). On success with help or version set, nothing
 * else need be looked at. */
int ward_cli_parse(int argc, char **argv, struct ward_cli *cli, ward_err *err);
void ward_cli_free(struct ward_cli *cli);
void ward_cli_usage(FILE *f);

#endif
