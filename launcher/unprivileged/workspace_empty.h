/* SPDX-License-Identifier: MIT */
/*
 * workspace_empty.h: the courier's half of a workspace's removal, and its
 * part of the report (docs/spec.md 6.3). The supervisor made the
 * workspace and removes its empty directories; what the sandbox left in
 * them is removed here, by a process without privilege whose ids own it.
 */
#ifndef WARD_WORKSPACE_EMPTY_H
#define WARD_WORKSPACE_EMPTY_H

#include "facts.h"
#include "util.h"

#include <stdio.h>

/* Empty every directory of the workspace ws_fd that belongs to us (a
 * descriptor the supervisor opened: its entries can be listed whatever
 * the workspace's mode). The directories themselves stay. Returns 0, or
 * -1 with err filled at the first failure (the rest is still tried). */
int ward_workspace_empty(int ws_fd, struct ward_rm_stats *st, ward_err *err);

/* The report's "workspace" object: id, path, created, destroyed, kept,
 * removed, entries removed, reclaimed, error. */
void ward_workspace_json(FILE *f, const struct ward_workspace *ws);

#endif
