/* SPDX-License-Identifier: MIT */
/*
 * outputs.h: the files and directories ward makes for the caller and for
 * the run, opened by the supervisor before anything of the run exists:
 *
 *   --report, --stdout, --stderr, --manifest, --record   files ward writes for
 * the caller: created with O_EXCL, never a symlink, so that a file planted
 * there by someone else is refused, not reused (with
 *       --replace an existing file of ours is removed first, then the
 *       new one created with O_EXCL all the same)
 *   --export-dir   made if missing, never a symlink
 *   lending       root mode: --export-dir and each read-write --slot of
 *       the caller's belong to the sandbox's host ids (a run's own) for
 *       the run, so that the sandbox and the courier, which have only
 *       those ids, can write there; owner and mode are given back
 *       afterwards, through the descriptor opened before the run
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

/* A host file or directory lent to the sandbox's host ids for the run. */
struct ward_lent {
	int fd;
	uid_t uid; /* its owner and mode before */
	gid_t gid;
	mode_t mode;
};

#define WARD_LENT_MAX 64

struct ward_outputs {
	int report_fd, stdout_fd, stderr_fd; /* -1 when not given */
	int manifest_fd, export_fd;	     /* -1 when not given */
	int record_fd; /* --record: the broker writes it; -1 */
	struct ward_lent lent[WARD_LENT_MAX]; /* --export-dir, read-write */
	size_t nlent;			      /* slots of the caller's */
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
 * --input is given (the inputs' directories made, empty: the courier
 * fills them), its slots appended to cli->slots. */
int ward_outputs_prepare(struct ward_outputs *o, const struct ward_policy *p,
			 struct ward_cli *cli, const struct ward_priv *priv,
			 ward_err *err);

/* Root mode, after ward_check_slots: lend the caller's read-write slots
 * (the objects checked there) to the sandbox's host ids. */
int ward_outputs_lend_slots(struct ward_outputs *o, const struct ward_policy *p,
			    const struct ward_cli *cli,
			    const struct ward_priv *priv, ward_err *err);

/* Once the courier is done: what was lent given back. */
void ward_outputs_restore(struct ward_outputs *o);

/* Close everything (the workspace is removed by ward_workspace_remove). */
void ward_outputs_free(struct ward_outputs *o);

#endif
