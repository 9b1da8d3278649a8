/* SPDX-License-Identifier: MIT */
/*
 * fsutil.c: see fsutil.h.
 */
#include "fsutil.h"

#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

int ward_open_beneath(int dirfd, const char *path, int flags, mode_t mode)
{
	struct open_how how = {
	    .flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
	    .mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
	    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
		       RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

int ward_random_name(char *buf, size_t len, const char *prefix)
{
	uint8_t r[8];
	size_t n = strlen(prefix);

	if (len < n + 17) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return -1;
	memcpy(buf, prefix, n);
	ward_hex(r, sizeof(r), buf + n);
	return 0;
}

DIR *ward_dir_stream(int dirfd)
{
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	int e = errno;

	if (!d) {
		if (fd >= 0)
			close(fd);
		errno = e;
		return NULL;
	}
	rewinddir(d);
	return d;
}
