/* SPDX-License-Identifier: MIT */
/*
 * outputs.h: the files and directories ward makes for the caller and for
 * the run, opened by the supervisor before anything of the run exists:
 *
 *   --report, --stdout, --stderr, --manifest   files ward writes for the
 *       caller: created with O_EXCL, never a symlink, so that a file
 *       planted there by someone else is refused, not reused (with
 *       --replace an existing file of ours is removed first, then the
 *       new one created with O_EXCL all the same)
 *   --export-dir   made if missing, never a symlink; in root mode it
 *       belongs to the sandbox's host ids while the courier writes into
 *       it, and is given back to its owner afterwards
 *   the workspace  (workspace.h) when a read-write slot has no --slot or
 *       an --input is given; its slots join the command line's
 *
 * Every descriptor here is handed to the courier, which writes through it;
 * the supervisor never reads any of them.
 */
#ifndef WARD_OUTPUTS_H
#define WARD_OUTPUTS_H

#include "cli.h"
#include "facts.h"
#include "policy.h"
#include "privilege.h"
#include "util.h"

#include <stdbool.h>

struct ward_outputs {
	int report_fd, stdout_fd, stderr_fd; /* -1 when not given */
	int manifest_fd, export_fd;	     /* -1 when not given */
	bool export_lent;		     /* chowned to the sandbox's ids */
	uid_t export_uid;		     /* its owner before that */
	gid_t export_gid;
	struct ward_workspace ws;
	bool have_ws;
	char **paths; /* the workspace's slot paths (cli->slots point here) */
	size_t npaths;
};

void ward_outputs_init(struct ward_outputs *o);

/* --report, --stdout, --stderr: first of all, so that a bad path is refused
 * before anything else is done. */
int ward_outputs_open_files(struct ward_outputs *o, const struct ward_cli *cli,
			    ward_err *err);

/* Before the slots are matched (ward_check_slots): --export-dir and
 * --manifest; the workspace when a read-write slot has no --slot or an
 * --input is given, the inputs copied in, its slots appended to
 * cli->slots. */
int ward_outputs_prepare(struct ward_outputs *o, const struct ward_policy *p,
			 struct ward_cli *cli, const struct ward_priv *priv,
			 ward_err *err);

/* Once the courier is done with --export-dir: its owner back. */
void ward_outputs_restore(struct ward_outputs *o);

/* Close everything (the workspace is removed by ward_workspace_remove). */
void ward_outputs_free(struct ward_outputs *o);

#endif
