/* SPDX-License-Identifier: MIT */
/*
 * treecopy.c: see treecopy.h.
 */
#include "treecopy.h"

#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

static mode_t file_mode(const struct ward_treecopy *o, mode_t m)
{
	if (o->keep_modes)
		return m & 01777 & ~(mode_t)(S_ISUID | S_ISGID);
	return (m & 0111) ? 0755 : 0644;
}

/* Something that cannot be copied: an error, or (skip) one more skipped. */
static int cannot(const struct ward_treecopy *o, int code, const char *verb,
		  const char *name)
{
	if (o->skip) {
		o->st->skipped++;
		return 0;
	}
	return ward_fail(o->err, code, "%s: %s %s", o->what, verb, name);
}

/* Make room for name in dfd: replace mode removes a file or link there
 * (a directory is merged into). */
static int make_room(const struct ward_treecopy *o, int dfd, const char *name)
{
	struct stat st;

	if (!o->replace || fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return 0;
	return unlinkat(dfd, name, 0);
}

/* changed_only: the file at name in dfd is the same as src already. */
static bool same_file(const struct ward_treecopy *o, int dfd, const char *name,
		      const struct stat *src)
{
	struct stat d;

	return o->changed_only &&
	       fstatat(dfd, name, &d, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISREG(d.st_mode) && d.st_size == src->st_size &&
	       d.st_mtim.tv_sec == src->st_mtim.tv_sec &&
	       d.st_mtim.tv_nsec == src->st_mtim.tv_nsec &&
	       file_mode(o, d.st_mode) == file_mode(o, src->st_mode);
}

static int copy_file(const struct ward_treecopy *o, int sfd, int dfd,
		     const char *name, const struct stat *st)
{
	_cleanup_close_ int in = -1, out = -1;
	static uint8_t buf[65536];
	struct timespec times[2] = {{0, UTIME_OMIT}, st->st_mtim};
	struct stat now;
	ssize_t n;

	if (same_file(o, dfd, name, st)) {
		o->st->unchanged++;
		return 0;
	}

	in = ward_open_beneath(sfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0);
	if (in < 0 || fstat(in, &now) < 0)
		return cannot(o, errno, "open", name);
	if (!S_ISREG(now.st_mode) || now.st_ino != st->st_ino ||
	    now.st_dev != st->st_dev)
		return ward_fail(o->err, 0,
				 "%s: %s changed while it was copied", o->what,
				 name);
	if (make_room(o, dfd, name) < 0)
		return ward_fail(o->err, errno, "%s: replace %s", o->what,
				 name);
	out =
	    openat(dfd, name,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0)
		return ward_fail(o->err, errno, "%s: create %s", o->what, name);
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ward_fail(o->err, errno, "%s: read %s", o->what,
					 name);
		for (ssize_t k = 0; k < n;) {
			ssize_t w = write(out, buf + k, (size_t)(n - k));
			if (w < 0 && errno != EINTR)
				return ward_fail(o->err, errno, "%s: write %s",
						 o->what, name);
			k += w > 0 ? w : 0;
		}
		o->st->bytes += (uint64_t)n;
	}
	times[1] = now.st_mtim;
	if (fchmod(out, file_mode(o, now.st_mode)) < 0 ||
	    futimens(out, times) < 0)
		return ward_fail(o->err, errno, "%s: mode of %s", o->what,
				 name);
	o->st->files++;
	return 0;
}

static int copy_link(const struct ward_treecopy *o, int sfd, int dfd,
		     const char *name)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(sfd, name, target, sizeof(target) - 1);

	if (n < 0)
		return cannot(o, errno, "read the link", name);
	target[n] = '\0';
	if (o->changed_only) {
		char have[PATH_MAX];
		ssize_t h = readlinkat(dfd, name, have, sizeof(have) - 1);

		if (h == n && !memcmp(have, target, (size_t)n)) {
			o->st->unchanged++;
			return 0;
		}
	}
	if (make_room(o, dfd, name) < 0 || symlinkat(target, dfd, name) < 0)
		return ward_fail(o->err, errno, "%s: copy the link %s", o->what,
				 name);
	o->st->links++;
	return 0;
}

static int copy_dir(const struct ward_treecopy *o, int sfd, int dfd,
		    const char *name, const struct stat *st, unsigned depth)
{
	_cleanup_close_ int s2 = -1, d2 = -1;
	struct stat had;
	bool same;

	if (depth + 1 > o->max_depth)
		return ward_fail(o->err, 0,
				 "%s: more than %u levels of directories",
				 o->what, o->max_depth);
	s2 = ward_open_beneath(sfd, name, O_RDONLY | O_DIRECTORY, 0);
	if (s2 < 0)
		return cannot(o, errno, "open the directory", name);
	same = o->changed_only &&
	       fstatat(dfd, name, &had, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISDIR(had.st_mode) &&
	       file_mode(o, had.st_mode) == file_mode(o, st->st_mode);
	if (make_room(o, dfd, name) < 0 ||
	    (mkdirat(dfd, name, 0700) < 0 && !(o->replace && errno == EEXIST)))
		return ward_fail(o->err, errno, "%s: copy %s", o->what, name);
	d2 = ward_open_beneath(dfd, name, O_RDONLY | O_DIRECTORY, 0);
	if (d2 < 0)
		return ward_fail(o->err, errno, "%s: copy %s", o->what, name);
	if (ward_tree_copy_depth(o, s2, d2, depth + 1) < 0)
		return -1;
	if (same)
		return 0;
	if (fchmod(d2, o->keep_modes ? file_mode(o, st->st_mode) : 0755) < 0)
		return ward_fail(o->err, errno, "%s: mode of %s", o->what,
				 name);
	o->st->dirs++;
	return 0;
}

int ward_tree_copy_entry(const struct ward_treecopy *o, int sfd, int dfd,
			 const char *name, unsigned depth)
{
	struct stat st;

	if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return cannot(o, errno, "stat", name);
	switch (st.st_mode & S_IFMT) {
	case S_IFREG:
		return copy_file(o, sfd, dfd, name, &st);
	case S_IFLNK:
		return copy_link(o, sfd, dfd, name);
	case S_IFDIR:
		return copy_dir(o, sfd, dfd, name, &st, depth);
	}
	return cannot(o, 0,
		      "copy a FIFO, a socket or a device (only files, "
		      "directories and symlinks are copied):",
		      name);
}

int ward_tree_copy_depth(const struct ward_treecopy *o, int sfd, int dfd,
			 unsigned depth)
{
	DIR *d = ward_dir_stream(sfd);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return ward_fail(o->err, errno, "%s: read", o->what);
	while (rc == 0 && (errno = 0, e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc =
			    ward_tree_copy_entry(o, sfd, dfd, e->d_name, depth);
	if (rc == 0 && errno)
		rc = ward_fail(o->err, errno, "%s: read", o->what);
	closedir(d);
	return rc;
}

int ward_tree_copy(const struct ward_treecopy *o, int sfd, int dfd)
{
	return ward_tree_copy_depth(o, sfd, dfd, 0);
}
