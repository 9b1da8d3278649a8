/* SPDX-License-Identifier: MIT */
/*
 * treedigest.h: one SHA-256 for a file tree (docs/spec.md 4.2, "The tree
 * digest"): the run report's digest of each --input snapshot, and what
 * `wardc replay` compares it with before it runs anything again.
 *
 * The digest is over one record per entry below the root (not the root
 * itself), in the bytewise order of their relative paths:
 *
 *     path NUL type NUL mode NUL size NUL content NUL
 *
 * type "file", "dir", "symlink" or "other"; mode the permission bits in
 * four octal digits; size in decimal (a file's bytes, a link's target
 * length, 0 otherwise); content a file's SHA-256 in hex, a link's target,
 * empty otherwise. The digest is SHA-256 of "ward-tree-1\n" and the
 * records. Nothing is followed: a symlink is a record, never a way in.
 */
#ifndef WARD_TREEDIGEST_H
#define WARD_TREEDIGEST_H

#include "util.h"

#include <stdbool.h>
#include <stdint.h>

#define WARD_TREE_DEPTH	  64	  /* as deep as --input copies */
#define WARD_TREE_ENTRIES 1000000 /* a bound on the records held */

struct ward_tree_digest {
	uint8_t sha256[32];
	uint64_t entries; /* records */
	uint64_t bytes;	  /* of the files' contents */
};

/* The digest of the entries below the directory dfd. normalise: each mode
 * as the --input copy makes it (a file 0755 with any execute bit, else
 * 0644; a directory 0755; a link 0777), so that a host tree and its
 * snapshot have the same digest. Returns 0, or -1 with err filled. */
int ward_tree_digest_dir(int dfd, bool normalise, struct ward_tree_digest *out,
			 ward_err *err);

/* The digest of what --input NAME=path puts into a slot: a directory's
 * entries, or a file under its own name (normalised). */
int ward_tree_digest_path(const char *path, struct ward_tree_digest *out,
			  ward_err *err);

#endif
