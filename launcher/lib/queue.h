/* SPDX-License-Identifier: MIT */
/*
 * queue.h: the files of an admission queue (docs/spec.md 3.10), made
 * whole or not at all. The only part of admission that may run as root:
 * root's queue lives in /run/ward, which only root may write, so root
 * makes it (before the holder exists, launcher/supervisor/admit.c); the
 * holder (launcher/unprivileged/admission.c), never privileged, opens,
 * checks and locks it, and makes a rootless caller's own queue with the
 * same code. Nothing here opens a file that is there already, other than
 * the directory, and nothing reads a byte.
 */
#ifndef WARD_QUEUE_H
#define WARD_QUEUE_H

#include "util.h"

#include <stdbool.h>
#include <string.h>

#define WARD_ADMIT_DIR	"/run/ward/admission" /* root's, the host's */
#define WARD_ADMIT_MAX	256 /* slot files in a queue: the highest ceiling */
#define WARD_QUEUE_PATH 256 /* sizeof(struct ward_queue.dir) */

/* A queue's directory is an absolute path with room for its files. */
static inline bool ward_queue_path_ok(const char *path)
{
	return path[0] == '/' && strlen(path) < WARD_QUEUE_PATH - 32;
}

/* The queue at path exists when this returns 0: made when missing (root:
 * 0755, files 0644; rootless 0700, 0600), or an empty directory of the
 * caller's that nobody else can write filled in place, its files readable
 * by whom the directory is. A directory that is not the caller's is left
 * for the holder to judge. */
int ward_queue_ensure(const char *path, bool root, ward_err *err);

#endif
