/* SPDX-License-Identifier: MIT */
/*
 * unixpath.c: see unixpath.h.
 */
#include "unixpath.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static int connect_errno(int sock, const void *addr, socklen_t len)
{
	return connect(sock, addr, len) < 0 ? errno : 0;
}

int ward_unix_connect(pid_t tid, int sock, const struct ward_addr *a)
{
	const size_t off = offsetof(struct sockaddr_un, sun_path);
	char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	char dir[64];
	struct open_how how = {.flags = O_PATH | O_CLOEXEC};
	struct sockaddr_un via = {.sun_family = AF_UNIX};
	_cleanup_close_ int dirfd = -1, target = -1;
	size_t n;

	/* Unnamed (autobind) or abstract: nothing of a file system. */
	if (a->len <= off || ((const char *)&a->raw)[off] == '\0')
		return connect_errno(sock, &a->raw, a->len);
	/* The kernel's reading of sun_path: up to the length given or a
	 * NUL, whichever comes first. */
	n = a->len - off;
	if (n > sizeof(path) - 1)
		return EINVAL;
	memcpy(path, (const char *)&a->raw + off, n);
	path[n] = '\0';
	snprintf(dir, sizeof(dir), "/proc/%d/%s", (int)tid,
		 path[0] == '/' ? "root" : "cwd");
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return errno == ENOENT ? ESRCH : errno;
	how.resolve = RESOLVE_NO_MAGICLINKS |
		      (path[0] == '/' ? RESOLVE_IN_ROOT : RESOLVE_BENEATH);
	target = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	if (target < 0)
		return errno == EXDEV ? EACCES : errno;
	snprintf(via.sun_path, sizeof(via.sun_path), "/proc/self/fd/%d",
		 target);
	return connect_errno(sock, &via, sizeof(via));
}
