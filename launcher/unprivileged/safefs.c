/* SPDX-License-Identifier: MIT */
/*
 * safefs.c: fd-relative helpers for hostile trees (safefs.h).
 */
#include "safefs.h"

#include "sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ------------------------------------------------------------- removal */

struct rm {
	int top;      /* where deep directories are moved */
	bool is_root; /* permissions do not stop us */
	struct ward_rm_stats *st;
	ward_err *err;
	int failed;
	/* Directories moved up to the top, still to remove. */
	char (*pending)[40];
	size_t npending, cap;
};

static void rm_fail(struct rm *r, int code, const char *what, const char *name)
{
	if (!r->failed)
		ward_fail(r->err, code, "remove %s %s", what, name);
	r->failed = 1;
}

/* The sandbox may have left a directory of ours without read, write or
 * search permission for us (rootless: its files are the caller's). Give
 * them back through the inode itself: chmod() of a /proc/self/fd link
 * reaches exactly the directory opened O_PATH, never a symlink. */
static int make_usable(struct rm *r, int dirfd, const char *name)
{
	_cleanup_close_ int fd =
	    ward_open_beneath(dirfd, name, O_PATH | O_DIRECTORY, 0);
	char proc[64];
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return -1;
	if ((st.st_mode & 0700) == 0700)
		return 0;
	if (st.st_uid != geteuid()) {
		errno = EACCES;
		return -1;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (chmod(proc, 0700) < 0)
		return -1;
	r->st->chmodded++;
	return 0;
}

static int open_dir(struct rm *r, int dirfd, const char *name)
{
	int fd = ward_open_beneath(dirfd, name, O_RDONLY | O_DIRECTORY, 0);

	if (fd >= 0 || errno != EACCES || r->is_root)
		return fd;
	if (make_usable(r, dirfd, name) < 0)
		return -1;
	return ward_open_beneath(dirfd, name, O_RDONLY | O_DIRECTORY, 0);
}

/* Move a directory too deep to the top, to be removed from there. */
static int flatten(struct rm *r, int dirfd, const char *name)
{
	char fresh[40];

	if (r->npending == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		void *p = realloc(r->pending, cap * sizeof(*r->pending));
		if (!p)
			return -1;
		r->pending = p;
		r->cap = cap;
	}
	if (ward_random_name(fresh, sizeof(fresh), ".ward-rm-") < 0 ||
	    renameat2(dirfd, name, r->top, fresh, RENAME_NOREPLACE) < 0)
		return -1;
	memcpy(r->pending[r->npending++], fresh, sizeof(fresh));
	r->st->flattened++;
	return 0;
}

static void rm_entry(struct rm *r, int dirfd, const char *name, unsigned depth);

/* Empty the directory fd: names are read in batches with the directory
 * stream closed before anything is removed, so that only one descriptor
 * per level is open while the levels below are removed. */
static void rm_children(struct rm *r, int fd, unsigned depth)
{
	enum { BATCH = 1024 };
	char(*names)[256] = malloc(BATCH * sizeof(*names));

	if (!names) {
		rm_fail(r, ENOMEM, "directory", "entries");
		return;
	}
	for (;;) {
		size_t n = 0;
		int dfd = dup(fd);
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
		struct dirent *e;

		if (!d) {
			if (dfd >= 0)
				close(dfd);
			rm_fail(r, errno, "directory", "(open)");
			break;
		}
		rewinddir(d);
		while (n < BATCH && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				memcpy(names[n++], e->d_name,
				       strlen(e->d_name) + 1);
		closedir(d);
		for (size_t i = 0; i < n; i++)
			rm_entry(r, fd, names[i], depth + 1);
		/* A batch that removed nothing would repeat for ever. */
		if (n < BATCH || r->failed)
			break;
	}
	free(names);
}

static void rm_entry(struct rm *r, int dirfd, const char *name, unsigned depth)
{
	_cleanup_close_ int fd = -1;

	/* Whatever is not a directory goes with one unlinkat(), which never
	 * follows a symlink and never opens a FIFO or a device. */
	if (unlinkat(dirfd, name, 0) == 0) {
		r->st->removed++;
		return;
	}
	if (errno == ENOENT)
		return;
	if (errno != EISDIR) {
		rm_fail(r, errno, "file", name);
		return;
	}
	if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0) {
		r->st->removed++;
		return;
	}
	if (errno != ENOTEMPTY && errno != EEXIST && errno != EACCES &&
	    errno != EPERM) {
		rm_fail(r, errno, "directory", name);
		return;
	}
	if (depth >= WARD_RMTREE_DEPTH) {
		if (flatten(r, dirfd, name) < 0)
			rm_fail(r, errno, "directory", name);
		return;
	}
	fd = open_dir(r, dirfd, name);
	if (fd < 0) {
		rm_fail(r, errno, "directory", name);
		return;
	}
	/* Entries of a directory that is not writable cannot be removed. */
	if (!r->is_root && make_usable(r, dirfd, name) < 0) {
		rm_fail(r, errno, "directory", name);
		return;
	}
	rm_children(r, fd, depth);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0)
		r->st->removed++;
	else if (errno != ENOENT)
		rm_fail(r, errno, "directory", name);
}

static int rm_run(int dirfd, const char *name, struct ward_rm_stats *st,
		  ward_err *err)
{
	struct ward_rm_stats dummy = {0};
	struct rm r = {
	    .top = dirfd,
	    .is_root = geteuid() == 0,
	    .st = st ? st : &dummy,
	    .err = err,
	};

	if (name)
		rm_entry(&r, dirfd, name, 0);
	else
		rm_children(&r, dirfd, 0);
	while (r.npending) {
		char fresh[40];

		memcpy(fresh, r.pending[--r.npending], sizeof(fresh));
		rm_entry(&r, dirfd, fresh, 0);
	}
	free(r.pending);
	return r.failed ? -1 : 0;
}

int ward_rmtree(int dirfd, const char *name, struct ward_rm_stats *st,
		ward_err *err)
{
	return rm_run(dirfd, name, st, err);
}

int ward_rmtree_contents(int dirfd, struct ward_rm_stats *st, ward_err *err)
{
	return rm_run(dirfd, NULL, st, err);
}

int ward_rmtree_inside(int dirfd, const char *name, struct ward_rm_stats *st,
		       ward_err *err)
{
	struct ward_rm_stats dummy = {0};
	struct rm r = {.top = dirfd,
		       .is_root = geteuid() == 0,
		       .st = st ? st : &dummy,
		       .err = err};
	_cleanup_close_ int fd = open_dir(&r, dirfd, name);

	/* The sandbox may have taken our own permissions away from it. */
	if (fd < 0 || (!r.is_root && make_usable(&r, dirfd, name) < 0))
		return ward_fail(err, errno, "open the directory %s", name);
	return rm_run(fd, NULL, r.st, err);
}

/* ---------------------------------------------------------------- names */

/* The code point of the valid UTF-8 sequence at s (its length in *len),
 * or -1: no overlong forms, no surrogates, nothing above U+10FFFF. */
static int32_t utf8_next(const unsigned char *s, size_t *len)
{
	unsigned char c = s[0];
	int32_t cp;
	size_t n;

	if (c < 0x80) {
		*len = 1;
		return c;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return -1;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = n;
	return cp;
}

static bool is_bidi_control(int32_t cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

const char *ward_name_problem(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;

	if (!*s)
		return "an empty name";
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return "a `.` or `..` name";
	if (*s == '-')
		return "a name that starts with `-` (an option to a tool)";
	for (size_t i = 0, len; s[i]; i += len) {
		int32_t cp = utf8_next(s + i, &len);

		if (cp < 0)
			return "a name that is not valid UTF-8";
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
			return "a control character in the name";
		if (cp == '/')
			return "a `/` in the name";
		if (is_bidi_control(cp))
			return "a bidirectional control character in the name";
	}
	return NULL;
}

const char *ward_file_kind(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG:
		return "file";
	case S_IFDIR:
		return "dir";
	case S_IFLNK:
		return "symlink";
	case S_IFIFO:
		return "fifo";
	case S_IFSOCK:
		return "socket";
	case S_IFCHR:
	case S_IFBLK:
		return "device";
	}
	return "other";
}
