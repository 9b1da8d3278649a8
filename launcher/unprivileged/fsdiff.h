/* SPDX-License-Identifier: MIT */
/*
 * fsdiff.h: what a run added, changed and deleted in a writable slot
 * (docs/spec.md part 6, "The file diff"): a snapshot of the slot before the
 * run, one after, and the difference, for the report, so that a reviewer
 * sees every write.
 *
 * A snapshot records, for every entry (found fd-relative, never following
 * a symlink, never opening anything but regular files and directories):
 * its path, type, permission bits, size, mtime and inode, a symlink's
 * target, and the SHA-256 of regular files up to a size (bounded in total
 * too: a slot of the caller's may be large).
 */
#ifndef WARD_FSDIFF_H
#define WARD_FSDIFF_H

#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define WARD_SNAP_ENTRIES    100000 /* then the snapshot stops */
#define WARD_SNAP_DEPTH	     64
#define WARD_SNAP_HASH_FILE  (1024 * 1024)	/* hash files up to 1 MiB */
#define WARD_SNAP_HASH_TOTAL (64 * 1024 * 1024) /* and 64 MiB in all */
#define WARD_DIFF_LIST_MAX   1000		/* per list in the report */

struct ward_snap_entry {
	char *path;  /* relative to the slot */
	mode_t mode; /* type and permission bits */
	uint64_t size;
	int64_t mtime_ns;
	uint64_t ino;
	char *link; /* a symlink's target, or NULL */
	bool hashed;
	uint8_t sha256[32];
};

struct ward_snap {
	struct ward_snap_entry *e; /* sorted by path (strcmp) */
	size_t n, cap;
	bool truncated; /* stopped at WARD_SNAP_ENTRIES or WARD_SNAP_DEPTH */
	uint64_t hashed_bytes;
};

/* Snapshot the tree under the directory dirfd. Returns 0 or -1 with err
 * filled (out of memory, the directory unreadable); entries that cannot be
 * read are recorded without a digest. */
int ward_snap_take(int dirfd, struct ward_snap *s, ward_err *err);
void ward_snap_free(struct ward_snap *s);

/* What changed about an entry present in both snapshots (bits). */
enum {
	WARD_CH_TYPE = 1u << 0,
	WARD_CH_CONTENT = 1u << 1, /* digests differ, or sizes, or a link's
				      target */
	WARD_CH_MODE = 1u << 2,
	WARD_CH_MTIME = 1u << 3,
	WARD_CH_INODE = 1u << 4 /* replaced by another file */
};
uint32_t ward_snap_changes(const struct ward_snap_entry *a,
			   const struct ward_snap_entry *b);

/* The diff as the report's object for one slot:
 * {"slot": ..., "added": [...], "changed": [...], "deleted": [...],
 *  "counts": {"added": N, "changed": N, "deleted": N}, "truncated": bool}
 * (lists cut at WARD_DIFF_LIST_MAX; counts are complete). */
void ward_snap_diff_json(FILE *f, const char *slot,
			 const struct ward_snap *before,
			 const struct ward_snap *after);
/* The same, each list cut at cap entries. */
void ward_snap_diff_json_cap(FILE *f, const char *slot,
			     const struct ward_snap *before,
			     const struct ward_snap *after, uint64_t cap);

#endif
