/* SPDX-License-Identifier: MIT */
/*
 * unixpath.h: connect a unix socket of the sandbox's as the sandbox would,
 * from outside it (the broker performs every connect() of an allow-list
 * run itself: docs/spec.md 5.6 says why).
 */
#ifndef WARD_UNIXPATH_H
#define WARD_UNIXPATH_H

#include "sockaddr.h"

#include <sys/types.h>

/*
 * Connect sock (the broker's descriptor of a unix socket of task tid) to
 * the address a (AF_UNIX). An abstract name is looked up in the socket's
 * own network namespace, the sandbox's. A path is resolved in the task's
 * file system, never in the broker's: from its root (/proc/TID/root with
 * RESOLVE_IN_ROOT, so that neither `..` nor a symlink leads out of it), or,
 * relative, from its working directory (RESOLVE_BENEATH: a path that would
 * climb above it, or an absolute symlink on the way, is refused); then the
 * socket is connected through the descriptor of what was found
 * (/proc/self/fd/N), never through the path again. Returns 0 or an errno.
 */
int ward_unix_connect(pid_t tid, int sock, const struct ward_addr *a);

#endif
