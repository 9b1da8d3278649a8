/* SPDX-License-Identifier: MIT */
/*
 * reclaim.h: the workspaces of dead wards (docs/spec.md 6.3).
 */
#ifndef WARD_RECLAIM_H
#define WARD_RECLAIM_H

#include <stdbool.h>

/* Remove the workspaces of dead wards in the open base directory base_fd
 * (at most WARD_WS_RECLAIM_MAX). What a sandbox left in one is removed by
 * a child that has the ids of its owner and no privilege (root never reads
 * it); the empty directories are removed here. root: root mode (the
 * children change their ids). Returns how many were removed; what cannot
 * be removed now stays for a later ward. */
unsigned ward_reclaim(int base_fd, bool root);

#endif
