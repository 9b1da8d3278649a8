/* SPDX-License-Identifier: MIT */
/*
 * mounts.h: the sandbox's file system, built from the policy's mount table.
 */
#ifndef WARD_MOUNTS_H
#define WARD_MOUNTS_H

#include "launch.h"
#include "util.h"

/* Size of the /dev tmpfs (only mount points and symlinks live there);
 * /dev/shm's, WARD_SHM_SIZE, is in policy.h (lint reads it too). */
#define WARD_DEV_SIZE (64u * 1024)

struct ward_mounts;

/* In init, in its new mount namespace, before anything has changed there:
 * make every mount private and open every source (bind, slot, /dev node)
 * with init's rights at that point, the caller's. Returns NULL with err
 * filled on failure. */
struct ward_mounts *ward_mounts_open(const struct ward_launch *l,
				     ward_err *err);

/* Then, once init is the sandbox user (whose ids own what is created):
 * build the new root on a fresh tmpfs with the table's entries in order,
 * remount it read-only, pivot_root into it and detach the old root. */
int ward_mounts_build(struct ward_mounts *m, ward_err *err);

void ward_mounts_free(struct ward_mounts *m);

#endif
