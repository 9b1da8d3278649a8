/* SPDX-License-Identifier: MIT */
/*
 * slotfs.c: see slotfs.h.
 */
#include "slotfs.h"

#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define WALK_MAX   20000 /* entries looked at by one walk */
#define COPY_DEPTH 64

static int open_host(const struct ward_slotfs *m, ward_err *err)
{
	int fd = open(m->host, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return ward_fail(err, errno, "slot %s: open %s", m->name,
				 m->host);
	return fd;
}

int ward_slotfs_fill(struct ward_slotfs *m, ward_err *err)
{
	char what[256];
	const struct ward_treecopy o = {
	    .what = what,
	    .keep_modes = true,
	    .skip = true,
	    .max_depth = COPY_DEPTH,
	    .st = &m->in,
	    .err = err,
	};
	_cleanup_close_ int host = -1;

	if (!m->host || m->fd < 0)
		return 0;
	snprintf(what, sizeof(what), "slot %s", m->name);
	if ((host = open_host(m, err)) < 0)
		return -1;
	/* More than the slot holds: refused, not cut short. */
	if (ward_tree_copy(&o, host, m->fd) < 0)
		return errno == ENOSPC || err->code == ENOSPC
			   ? ward_fail(err, ENOSPC,
				       "slot %s: %s holds more than the slot's "
				       "size (%llu bytes)",
				       m->name, m->host,
				       (unsigned long long)m->size)
			   : -1;
	return 0;
}

void ward_slotfs_sample(struct ward_slotfs *m)
{
	struct statfs s;
	uint64_t used;

	if (m->fd < 0 || fstatfs(m->fd, &s) < 0)
		return;
	used = (uint64_t)(s.f_blocks - s.f_bfree) * (uint64_t)s.f_bsize;
	m->sampled = true;
	m->used_end = used;
	if (used > m->used_peak)
		m->used_peak = used;
	/* No block left, or no inode: a write inside got ENOSPC. */
	if (s.f_bavail == 0 || (s.f_files && s.f_ffree == 0))
		m->full = true;
}

/* Entries of host (the slot's directory) that the tmpfs no longer has:
 * removed by the sandbox, kept on the host. */
static void count_kept(int host, int tmp, unsigned depth, uint64_t *n,
		       size_t *seen)
{
	DIR *d = ward_dir_stream(host);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && (*seen)++ < WALK_MAX) {
		struct stat a, b;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (tmp < 0 ||
		    fstatat(tmp, e->d_name, &b, AT_SYMLINK_NOFOLLOW) < 0) {
			(*n)++;
			continue;
		}
		if (depth < COPY_DEPTH &&
		    fstatat(host, e->d_name, &a, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(a.st_mode) && S_ISDIR(b.st_mode)) {
			_cleanup_close_ int h2 = ward_open_beneath(
			    host, e->d_name, O_RDONLY | O_DIRECTORY, 0);
			_cleanup_close_ int t2 = ward_open_beneath(
			    tmp, e->d_name, O_RDONLY | O_DIRECTORY, 0);
			if (h2 >= 0)
				count_kept(h2, t2, depth + 1, n, seen);
		}
	}
	closedir(d);
}

void ward_slotfs_copy_back(struct ward_slotfs *m)
{
	ward_err err = {0};
	char what[256];
	const struct ward_treecopy o = {
	    .what = what,
	    .keep_modes = true,
	    .replace = true,
	    .changed_only = true,
	    .skip = true,
	    .max_depth = COPY_DEPTH,
	    .st = &m->back,
	    .err = &err,
	};
	_cleanup_close_ int host = -1;
	size_t seen = 0;

	if (!m->host || m->fd < 0)
		return;
	snprintf(what, sizeof(what), "slot %s", m->name);
	if ((host = open_host(m, &err)) < 0 ||
	    ward_tree_copy(&o, m->fd, host) < 0) {
		ward_err_str(&err, m->error, sizeof(m->error));
		return;
	}
	count_kept(host, m->fd, 0, &m->kept_deleted, &seen);
}

static bool at_size(int fd, uint64_t size, unsigned depth, size_t *seen,
		    char *buf, size_t len)
{
	DIR *d = ward_dir_stream(fd);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d)) && (*seen)++ < WALK_MAX) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISREG(st.st_mode) && (uint64_t)st.st_size == size) {
			snprintf(buf, len, "%s", e->d_name);
			found = true;
		} else if (S_ISDIR(st.st_mode) && depth < COPY_DEPTH) {
			_cleanup_close_ int sub = ward_open_beneath(
			    fd, e->d_name, O_RDONLY | O_DIRECTORY, 0);
			char inner[512];

			if (sub >= 0 && at_size(sub, size, depth + 1, seen,
						inner, sizeof(inner))) {
				snprintf(buf, len, "%s/%s", e->d_name, inner);
				found = true;
			}
		}
	}
	closedir(d);
	return found;
}

bool ward_slotfs_at_size(int fd, uint64_t size, char *buf, size_t len)
{
	size_t seen = 0;

	return fd >= 0 && at_size(fd, size, 0, &seen, buf, len);
}
