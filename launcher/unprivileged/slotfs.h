/* SPDX-License-Identifier: MIT */
/*
 * slotfs.h: the writable places of a run, as the courier sees them
 * (docs/spec.md 3.5, 6.3).
 *
 * Every writable mount of the sandbox is a tmpfs of a size the policy
 * states: the policy's own tmpfs mounts, and each read-write slot, which
 * is a tmpfs holding a copy of its host directory rather than the host
 * directory itself (a bind would let the run put unbounded bytes on the
 * host's disk). init makes them and hands the courier a directory of each
 * root; tmpfs pages are charged to the memory cgroup of the process that
 * writes them, so what the sandbox writes counts against its `memory`.
 *
 * The courier, with the sandbox's host ids and no privilege:
 *
 *   fill        copies the slot's host directory into its tmpfs before the
 *               target starts (what it cannot read is skipped and counted:
 *               the sandbox could not have read it either)
 *   sample      reads each tmpfs's use (fstatfs) while the sandbox runs:
 *               the peak, and whether it was ever full (ENOSPC inside)
 *   copy back   after the sandbox is gone, copies what the slot's tmpfs
 *               holds back into the host directory: new and changed files,
 *               directories and symlinks, at most the slot's size; what the
 *               sandbox deleted stays on the host (a sandbox never deletes
 *               a host file), and the report says how many
 *
 * A file that ends exactly at the `filesize` limit is the trace of a write
 * the kernel refused with EFBIG (or a SIGXFSZ): ward_slotfs_at_size finds
 * one after the run.
 */
#ifndef WARD_SLOTFS_H
#define WARD_SLOTFS_H

#include "treecopy.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>

struct ward_slotfs {
	uint32_t index;	  /* the mount table's entry */
	const char *dst;  /* where the sandbox sees it */
	const char *name; /* the slot's name; NULL for a policy tmpfs */
	const char *host; /* the slot's host path; NULL for a policy tmpfs */
	uint64_t size;	  /* the tmpfs's size, bytes */
	int fd;		  /* a directory of its root (from init), or -1 */
	uint64_t used_peak, used_end;
	bool sampled, full;
	struct ward_copy_stats in, back;
	uint64_t kept_deleted; /* entries the sandbox removed, kept */
	bool at_size;	       /* a file ends at `filesize` (EFBIG) */
	char at_size_path[256];
	char error[WARD_ERR_MSG_MAX];
};

/* The slot's host directory into its tmpfs. */
int ward_slotfs_fill(struct ward_slotfs *m, ward_err *err);

/* Read the tmpfs's use now. */
void ward_slotfs_sample(struct ward_slotfs *m);

/* The slot's tmpfs back into its host directory (after the run). Failures
 * are recorded in m->error. */
void ward_slotfs_copy_back(struct ward_slotfs *m);

/* A regular file of the tree at fd that is exactly size bytes, its path in
 * buf (at most 20,000 entries are looked at). */
bool ward_slotfs_at_size(int fd, uint64_t size, char *buf, size_t len);

#endif
