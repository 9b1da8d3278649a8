/* SPDX-License-Identifier: MIT */
/*
 * mount_hide.h: what the mount table hides of the host: the masked parts
 * of the sandbox's /proc, and the host paths of its read-only directory
 * slots in /proc/self/mountinfo.
 */
#ifndef WARD_MOUNT_HIDE_H
#define WARD_MOUNT_HIDE_H

#include "util.h"

/* A detached read-only tmpfs holding an empty file "f" (0444) and an empty
 * directory "d" (0555): the masks' source. Returns its mount's fd. */
int ward_hide_scratch(ward_err *err);

/* On the proc mount procmnt (attached): ward_proc_readonly bound over
 * themselves read-only, then the empty file over ward_proc_masked_files
 * and the empty directory over ward_proc_masked_dirs (common/proc_mask.h).
 * What this kernel lacks is skipped. */
int ward_proc_mask(int procmnt, int scratch, const char *dst, ward_err *err);

/* A read-only directory slot src (an O_PATH descriptor) as a detached
 * mount whose mountinfo names no host path: an overlay whose only layers
 * are a detached copy of src and scratch's empty directory, given by
 * descriptor. Returns the mount's fd, -1 with err, or -2 when this kernel
 * cannot (no overlayfs, or layers by descriptor: before Linux 6.7). */
int ward_hide_slot(int src, int scratch, unsigned attrs, const char *dst,
		   ward_err *err);

#endif
