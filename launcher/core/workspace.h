/* SPDX-License-Identifier: MIT */
/*
 * workspace.h: a fresh directory tree on the host for one run
 * (docs/spec.md part 6, "The workspace"), destroyed after it.
 *
 *   BASE/                 made if missing; must be ours, not a symlink, not
 *                         writable by anyone else (root: /run/ward, 0711;
 *                         rootless: $XDG_RUNTIME_DIR/ward or /tmp/ward-UID,
 *                         0700)
 *   BASE/ws-<16 hex>/     the workspace: ward's; rootless 0700; root mode
 *                         0711 (search only: init opens the slots below it
 *                         before its id maps exist, see workspace.c)
 *   BASE/ws-.../SLOT/     a read-write slot the caller gave no path for:
 *                         0700, owned by the sandbox's host ids (root mode:
 *                         the mapped --host-uid; rootless: the caller);
 *                         or a slot filled by --input (a copy the
 *                         courier makes: launcher/unprivileged/inputs.h)
 *
 * Everything below the workspace belongs to the sandbox's host ids. The
 * sandbox writes into the slot directories; what it left is hostile, and
 * root never reads it: the unprivileged courier empties the directories
 * (launcher/unprivileged/workspace.h), then the supervisor removes the
 * empty directories and the workspace (ward_workspace_remove), without
 * ever descending into one.
 *
 * A workspace is flock()ed by the ward that made it for as long as it runs
 * (init inherits the descriptor, so until the sandbox is gone too). A ward
 * killed before it could destroy its workspace leaves it unlocked; the next
 * ward that makes a workspace in the same base reclaims it. It is made
 * under a temporary name and renamed to ws-... once locked, so no
 * reclaimer ever sees a live workspace unlocked. A kept one holds a `.keep`
 * file and is never reclaimed.
 */
#ifndef WARD_WORKSPACE_H
#define WARD_WORKSPACE_H

#include "facts.h"
#include "util.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#define WARD_WS_ID_PREFIX "ws-"
/* A workspace being made, before it is locked and renamed. */
#define WARD_WS_NEW_PREFIX ".new-ws-"
/* The marker of a --keep-workspace workspace, in its top directory. */
#define WARD_WS_KEEP_MARK ".keep"
/* Stale workspaces reclaimed by one ward at most (the rest: next time). */
#define WARD_WS_RECLAIM_MAX 16
/* Entries of the base looked at for them by one ward at most. */
#define WARD_WS_RECLAIM_SCAN 256
/* A .new-ws-... directory older than this is a dead ward's. */
#define WARD_WS_NEW_STALE_SEC 60
/* Entries of a workspace (its slots) the removal looks at. */
#define WARD_WS_SLOTS_MAX 64

/* struct ward_workspace: facts.h. */

/* Nothing to destroy yet; safe to destroy. */
void ward_workspace_init(struct ward_workspace *ws);

/* The default base for this caller: root: "/run/ward"; rootless:
 * "$XDG_RUNTIME_DIR/ward" when XDG_RUNTIME_DIR is an absolute directory
 * of ours with mode 0700, else "/tmp/ward-UID". */
void ward_workspace_default_base(bool root, char *buf, size_t len);

/* Make (or check) base, reclaim the stale workspaces in it, and make a
 * fresh workspace, owned by uid:gid, locked; keep: marked to be kept (not
 * removed by destroy, never reclaimed). Returns 0 or -1 with err filled
 * (nothing is left behind then). */
int ward_workspace_create(struct ward_workspace *ws, const char *base,
			  uid_t uid, gid_t gid, bool keep, ward_err *err);

/* A dead ward's workspace, opened and locked (ward_workspace_stale). */
struct ward_stale_ws {
	int fd;
	char name[32];
};

/* The workspaces of dead wards in the open base directory base_fd
 * (unlocked ws-... without .keep; .new-ws-... older than a minute), at most
 * max, each opened and locked (flock) for the caller to empty and remove.
 * Returns how many. */
size_t ward_workspace_stale(int base_fd, struct ward_stale_ws *out, size_t max);

/* A fresh directory for slot `name` in the workspace, its absolute path in
 * path. writable: 0700 and owned by the sandbox's ids; else 0755, ours. */
int ward_workspace_slot(struct ward_workspace *ws, const char *name,
			bool writable, char *path, size_t len, ward_err *err);

/* The names in the workspace ws_fd (ward made each: the sandbox sees only
 * the slots below it), at most max. */
size_t ward_workspace_entries(int ws_fd, char (*names)[NAME_MAX + 1],
			      size_t max);

/* The supervisor's half of the removal, once the courier has emptied the
 * workspace's directories: each entry removed if it is empty, then the
 * workspace (unless keep); closes it and records the time and the outcome
 * in ws. Never descends into a directory. Safe on every path, more than
 * once. Returns 0, or -1 with err filled (ws->error says it too). */
int ward_workspace_remove(struct ward_workspace *ws, ward_err *err);

#endif
