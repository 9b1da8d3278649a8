/* SPDX-License-Identifier: MIT */
/*
 * inputs.h: --input NAME=SRC, copied into the workspace by the courier
 * (docs/spec.md 3.1, 6), never by a privileged process.
 *
 * The supervisor makes the slot's directory in the workspace, owned by the
 * sandbox's host ids; the courier, which has those ids and nothing else,
 * reads SRC and copies it there before it says READY, so before the target
 * starts. Root mode: SRC is read with the run's host ids, so only what
 * they may read can be given (a caller's private file is refused with the
 * reason, never read by root); rootless: with the caller's.
 */
#ifndef WARD_INPUTS_H
#define WARD_INPUTS_H

#include "treecopy.h"
#include "util.h"

#include <stdbool.h>

/* Levels of a tree --input copies. */
#define WARD_INPUT_COPY_DEPTH 64

/* Copy the caller's file or tree SRC into the directory `name` of the
 * workspace ws_fd. The copy is a snapshot (later changes of SRC do not
 * reach the sandbox) made without following symlinks (a symlink is
 * copied as a symlink) and without devices, FIFOs or sockets (refused:
 * an error); modes are normalised (0644, 0755 for executables and
 * directories; no setuid, setgid or sticky bit); a file of SRC is copied
 * into the directory under its own name. st may be NULL. */
int ward_input_copy(int ws_fd, const char *name, const char *src,
		    struct ward_copy_stats *st, ward_err *err);

#endif
