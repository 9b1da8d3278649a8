/* SPDX-License-Identifier: MIT */
/*
 * treecopy.h: a copy of a file or a tree, fd-relative, for the courier,
 * which has no privilege: its copy of --input into the workspace (the
 * caller's files, before the run, read with the sandbox's host ids:
 * inputs.h), and its copies between a writable slot's host directory and
 * the tmpfs that holds it during the run (what the sandbox wrote). No
 * privileged process copies a tree: every copy belongs to whoever makes
 * it, the sandbox's host ids.
 *
 * Nothing is followed: a symlink is copied as a symlink (inside the sandbox
 * it resolves in the sandbox's own root), a directory is entered through
 * openat2(RESOLVE_BENEATH|NO_SYMLINKS|NO_XDEV), a file is opened O_NOFOLLOW
 * and checked to be the object that was listed. FIFOs, sockets and devices
 * are never opened.
 */
#ifndef WARD_TREECOPY_H
#define WARD_TREECOPY_H

#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct ward_copy_stats {
	uint64_t files, dirs, links, bytes;
	uint64_t skipped;   /* what could not be read, or is not a file,
			       directory or symlink (skip mode) */
	uint64_t unchanged; /* left as it was (changed_only) */
};

struct ward_treecopy {
	const char *what; /* for messages: "--input DIR", "slot output" */
	/* Modes: false: 0644, or 0755 with any execute bit (--input's
	 * normalised copy); true: the permission bits as they were, without
	 * setuid or setgid. */
	bool keep_modes;
	/* An existing entry at the destination is replaced (a directory is
	 * merged); otherwise it is an error. */
	bool replace;
	/* With replace: an entry that is the same is left as it is (a file
	 * of the same size, modification time and mode bits, a link to the
	 * same target, a directory of the same mode), so that copying back
	 * what the sandbox did not touch changes nothing on the host: not
	 * its owner, not a setuid bit. Every copy keeps the source's
	 * modification time. */
	bool changed_only;
	/* What cannot be copied (unreadable, or a FIFO, socket, device) is
	 * counted in skipped; otherwise it is an error. */
	bool skip;
	unsigned max_depth;
	struct ward_copy_stats *st;
	ward_err *err;
};

/* Copy the contents of the directory sfd into the directory dfd. */
int ward_tree_copy(const struct ward_treecopy *o, int sfd, int dfd);

/* The same, depth levels down already (bounded by max_depth). */
int ward_tree_copy_depth(const struct ward_treecopy *o, int sfd, int dfd,
			 unsigned depth);

/* Copy the entry name of sfd (a file, a directory, a symlink) into dfd
 * under the same name. */
int ward_tree_copy_entry(const struct ward_treecopy *o, int sfd, int dfd,
			 const char *name, unsigned depth);

#endif
