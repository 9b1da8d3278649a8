/* SPDX-License-Identifier: MIT */
/*
 * fsutil.h: the two file-system primitives both halves of the launcher use:
 * the privileged one to make the workspace, the unprivileged one to read
 * and remove what the sandbox left in it.
 */
#ifndef WARD_FSUTIL_H
#define WARD_FSUTIL_H

#include <dirent.h>
#include <stddef.h>
#include <sys/types.h>

/* openat2() under dirfd with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV, and O_NOFOLLOW | O_CLOEXEC
 * added to flags. Returns the descriptor or -1 with errno set. */
int ward_open_beneath(int dirfd, const char *path, int flags, mode_t mode);

/* A random name: prefix followed by 16 hex digits, in buf (len >= strlen
 * (prefix) + 17). Returns 0 or -1 (errno set). */
int ward_random_name(char *buf, size_t len, const char *prefix);

/* A directory stream over a copy of dirfd (close-on-exec), rewound: the
 * caller's descriptor stays its own. NULL with errno set. closedir() it. */
DIR *ward_dir_stream(int dirfd);

#endif
