/* SPDX-License-Identifier: MIT */
/*
 * safefs.h: file-system helpers for trees the sandbox has written: the
 * workspace, a slot being exported or compared. Such a tree is hostile: it
 * may hold symlinks to anywhere, hard links to host files, FIFOs that block
 * a reader, device nodes, directories 100,000 levels deep, or directories
 * the sandbox made unreadable. Everything here works relative to a
 * directory descriptor, never follows a symlink and never crosses a mount.
 */
#ifndef WARD_SAFEFS_H
#define WARD_SAFEFS_H

#include "facts.h"
#include "fsutil.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The name the report and the manifest give a file's type: "file", "dir",
 * "symlink", "fifo", "socket", "device" or "other". */
const char *ward_file_kind(mode_t m);

/* What ward_rmtree did: struct ward_rm_stats (facts.h). */

/* The depth below which ward_rmtree moves a directory up to the top before
 * going on, so that neither the stack nor the descriptors grow with the
 * depth of the tree. */
#define WARD_RMTREE_DEPTH 32

/*
 * Remove the entry `name` of directory dirfd and, if it is a directory,
 * everything under it: fd-relative unlinkat(), never following a symlink
 * (a symlink is removed, not its target), never crossing into another
 * mount (refused, and left), whatever the modes (a directory of ours that
 * the sandbox made 0000 is made 0700 first; as root, permissions do not
 * stop us). Directories deeper than WARD_RMTREE_DEPTH are renamed into
 * dirfd under a random name and removed from there. ENOENT is not an
 * error. Returns 0, or -1 with err filled (the first failure; the removal
 * goes on as far as it can).
 */
int ward_rmtree(int dirfd, const char *name, struct ward_rm_stats *st,
		ward_err *err);
/* The same for everything inside the directory dirfd, which stays (deep
 * directories are moved up into it). */
int ward_rmtree_contents(int dirfd, struct ward_rm_stats *st, ward_err *err);
/* The same for the directory name of dirfd, whose permissions are given
 * back first if it is ours (the sandbox may have made it 0000). */
int ward_rmtree_inside(int dirfd, const char *name, struct ward_rm_stats *st,
		       ward_err *err);

/* Names a file of the sandbox may have in what the host shows to people:
 * valid UTF-8, no control character (C0, DEL, C1), no bidirectional
 * formatting character (a name that displays as another), not empty, no
 * `/`, not `.` or `..`, not starting with `-` (an option to a shell tool).
 * Returns NULL when fine, else why not ("a control character"). */
const char *ward_name_problem(const char *name);

#endif
