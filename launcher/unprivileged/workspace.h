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
 *                         or a slot filled by --input (a copy)
 *
 * The sandbox writes into the slot directories; it is dead by the time the
 * workspace is destroyed, but what it left is hostile: destruction goes
 * through ward_rmtree (safefs.h).
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

#include "safefs.h"
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
/* Levels of a tree --input copies. */
#define WARD_WS_COPY_DEPTH 64

struct ward_workspace {
	char id[32];	     /* "ws-" and 16 hex digits: the directory name */
	char base[PATH_MAX]; /* absolute */
	char path[PATH_MAX]; /* base/id */
	int base_fd, fd;     /* -1 when not open */
	uid_t uid;	     /* the sandbox's host ids: owner of what the */
	gid_t gid;	     /* sandbox may write */
	bool keep;	     /* --keep-workspace: not removed */
	struct timespec created, destroyed; /* CLOCK_REALTIME; 0: not yet */
	bool removed;			    /* destroy removed it all */
	unsigned reclaimed; /* stale workspaces of dead wards removed */
	struct ward_rm_stats rm;
	char error[WARD_ERR_MSG_MAX]; /* why destroy failed, or "" */
};

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

/* Remove the workspaces of dead wards in the open base directory base_fd
 * (unlocked ws-... without .keep; .new-ws-... older than a minute), at most
 * WARD_WS_RECLAIM_MAX. Returns how many were removed; what cannot be
 * removed now stays for a later ward. */
unsigned ward_workspace_reclaim(int base_fd);

/* A fresh directory for slot `name` in the workspace, its absolute path in
 * path. writable: 0700 and owned by the sandbox's ids; else 0755, ours. */
int ward_workspace_slot(struct ward_workspace *ws, const char *name,
			bool writable, char *path, size_t len, ward_err *err);

struct ward_copy_stats {
	uint64_t files, dirs, links, bytes;
};

/*
 * --input NAME=SRC: copy the caller's file or tree SRC into the slot
 * directory `name` (made by ward_workspace_slot). The copy is a snapshot
 * (later changes of SRC do not reach the sandbox) made without following
 * symlinks (a symlink is copied as a symlink) and without devices, FIFOs
 * or sockets (refused: an error); modes are normalised (0644, 0755 for
 * executables and directories; no setuid, setgid or sticky bit); a file of
 * SRC is copied into the directory under its own name.
 */
int ward_workspace_copy_in(struct ward_workspace *ws, const char *name,
			   bool writable, const char *src,
			   struct ward_copy_stats *st, ward_err *err);

/* Remove the workspace (unless keep) and close it; records the time and
 * the outcome in ws. Safe to call on every path, more than once. Returns
 * 0, or -1 with err filled (ws->error says it too). */
int ward_workspace_destroy(struct ward_workspace *ws, ward_err *err);

/* The report's "workspace" object: id, path, base, created, destroyed,
 * kept, removed, entries removed, reclaimed, error. */
void ward_workspace_json(FILE *f, const struct ward_workspace *ws);

#endif
