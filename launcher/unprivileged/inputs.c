/* SPDX-License-Identifier: MIT */
/*
 * inputs.c: see inputs.h.
 */
#include "inputs.h"

#include "fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file is copied under its own name, through its directory, opened
 * again beneath nothing but itself. */
static int copy_file(const struct ward_treecopy *o, const char *name,
		     const char *src, int slot)
{
	const char *base = strrchr(src, '/');
	char dir[PATH_MAX];
	_cleanup_close_ int dfd = -1;

	base = base ? base + 1 : src;
	if (!*base || (size_t)(base - src) >= sizeof(dir))
		return ward_fail(o->err, EINVAL, "--input %s=%s", name, src);
	snprintf(dir, sizeof(dir), "%.*s", (int)(base - src),
		 base == src ? "." : src);
	dfd = open(base == src ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return ward_fail(o->err, errno, "--input %s=%s", name, src);
	return ward_tree_copy_entry(o, dfd, slot, base, 0);
}

int ward_input_copy(int ws_fd, const char *name, const char *src,
		    struct ward_copy_stats *st, ward_err *err)
{
	struct ward_copy_stats dummy = {0};
	char what[PATH_MAX + 16];
	/* A snapshot in normalised modes; every entry is ours, the
	 * sandbox's ids' (a read-only slot stays read-only for the
	 * sandbox: it is mounted so). */
	const struct ward_treecopy o = {
	    .what = what,
	    .max_depth = WARD_INPUT_COPY_DEPTH,
	    .st = st ? st : &dummy,
	    .err = err,
	};
	_cleanup_close_ int in = -1, slot = -1;
	struct stat sb;

	snprintf(what, sizeof(what), "--input %s", src);
	/* O_NONBLOCK: a FIFO given as the input must not block us. */
	in = open(src,
		  O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (in < 0 || fstat(in, &sb) < 0)
		return ward_fail(err, errno,
				 "--input %s=%s (a symlink is not followed)",
				 name, src);
	slot = ward_open_beneath(ws_fd, name, O_RDONLY | O_DIRECTORY, 0);
	if (slot < 0)
		return ward_fail(err, errno, "--input %s: the slot directory",
				 name);
	if (S_ISDIR(sb.st_mode))
		return ward_tree_copy(&o, in, slot);
	if (S_ISREG(sb.st_mode))
		return copy_file(&o, name, src, slot);
	return ward_fail(err, 0,
			 "--input %s=%s: not a file or a directory (a FIFO, a "
			 "socket or a device is never copied)",
			 name, src);
}
