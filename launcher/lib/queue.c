/* SPDX-License-Identifier: MIT */
/*
 * queue.c: see queue.h.
 */
#include "queue.h"

#include "fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The slots first, the queue last: a caller takes a queue whose "queue"
 * file it can open as complete. A file another ward made meanwhile is
 * left as it is. */
static int make_files(int dfd, mode_t mode, ward_err *err)
{
	for (unsigned k = 0; k <= WARD_ADMIT_MAX; k++) {
		char name[32];
		int fd;

		if (k == WARD_ADMIT_MAX)
			snprintf(name, sizeof(name), "queue");
		else
			snprintf(name, sizeof(name), "slot-%u", k);
		fd = openat(
		    dfd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno == EEXIST)
			continue;
		/* Exactly the mode, whatever the caller's umask. */
		if (fd < 0 || fchmod(fd, mode) < 0) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			return ward_fail(err, e, "make %s in the queue", name);
		}
		close(fd);
	}
	return 0;
}

static void remove_files(int dfd)
{
	unlinkat(dfd, "queue", 0);
	for (unsigned k = 0; k < WARD_ADMIT_MAX; k++) {
		char name[32];

		snprintf(name, sizeof(name), "slot-%u", k);
		unlinkat(dfd, name, 0);
	}
}

/* Make the queue at path, whole or not at all: it is filled under a
 * random name and renamed into place, so that no caller ever sees a
 * queue with some slots missing. Losing the race to another ward is
 * fine: its queue is the same. */
static int make_queue(const char *path, bool root, ward_err *err)
{
	const mode_t dmode = root ? 0755 : 0700, fmode = root ? 0644 : 0600;
	char parent[WARD_QUEUE_PATH], tmp[WARD_QUEUE_PATH + 40], name[32];
	const char *slash = strrchr(path, '/');
	_cleanup_close_ int dfd = -1;
	int rc;

	snprintf(parent, sizeof(parent), "%.*s",
		 slash && slash != path ? (int)(slash - path) : 1, path);
	/* One level, as the workspace's base: /run/ward, /tmp/ward-UID. */
	if (mkdir(parent, root ? 0711 : 0700) < 0 && errno != EEXIST)
		return ward_fail(err, errno, "make %s for the queue", parent);
	if (ward_random_name(name, sizeof(name), ".queue-") < 0)
		return ward_fail(err, errno, "getrandom");
	snprintf(tmp, sizeof(tmp), "%s/%s", parent, name);
	if (mkdir(tmp, 0700) < 0)
		return ward_fail(err, errno, "make the queue %s", tmp);
	dfd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		rc = ward_fail(err, errno, "open %s", tmp);
		rmdir(tmp);
		return rc;
	}
	if (make_files(dfd, fmode, err) < 0 ||
	    (fchmod(dfd, dmode) < 0 &&
	     ward_fail(err, errno, "chmod %s", tmp))) {
		remove_files(dfd);
		rmdir(tmp);
		return -1;
	}
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) < 0) {
		int e = errno;

		remove_files(dfd);
		rmdir(tmp);
		if (e != EEXIST)
			return ward_fail(err, e, "make the queue %s", path);
	}
	return 0;
}

int ward_queue_ensure(const char *path, bool root, ward_err *err)
{
	_cleanup_close_ int fd =
	    open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0 && errno == ENOENT)
		return make_queue(path, root, err);
	/* Anything else (not a directory, not ours) is the holder's to
	 * refuse, with the reason. */
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		return 0;
	/* An empty directory of ours (an administrator's, made to share
	 * the queue with a group: 0750): filled in place, its files
	 * readable by whom the directory is. */
	if (faccessat(fd, "queue", F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT)
		return make_files(fd, 0600 | (st.st_mode & 0044), err);
	return 0;
}
