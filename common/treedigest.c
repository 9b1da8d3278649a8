/* SPDX-License-Identifier: MIT */
/*
 * treedigest.c: see treedigest.h.
 */
#include "treedigest.h"

#include "sha256.h"
#include "sha256x.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

struct walk {
	bool normalise;
	char **recs; /* each: the record's five fields, path first */
	size_t n, cap;
	uint64_t bytes;
	ward_err *err;
};

static unsigned mode_of(const struct walk *w, const struct stat *st)
{
	if (!w->normalise)
		return st->st_mode & 07777;
	if (S_ISDIR(st->st_mode))
		return 0755;
	if (S_ISLNK(st->st_mode))
		return 0777;
	return (st->st_mode & 0111) ? 0755 : 0644;
}

static int file_sha(struct walk *w, int dfd, const char *name, const char *path,
		    const struct stat *st, char hex[65], uint64_t *size)
{
	_cleanup_close_ int fd =
	    openat(dfd, name,
		   O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct ward_sha256x h;
	uint8_t buf[65536], d[32];
	struct stat now;
	ssize_t n;

	if (fd < 0 || fstat(fd, &now) < 0)
		return ward_fail(w->err, errno, "digest %s", path);
	if (!S_ISREG(now.st_mode) || now.st_ino != st->st_ino ||
	    now.st_dev != st->st_dev)
		return ward_fail(w->err, 0, "digest %s: replaced while read",
				 path);
	ward_sha256x_init(&h);
	*size = 0;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ward_fail(w->err, errno, "digest %s", path);
		ward_sha256x_update(&h, buf, (size_t)n);
		*size += (uint64_t)n;
	}
	ward_sha256x_final(&h, d);
	ward_hex(d, sizeof(d), hex);
	w->bytes += *size;
	return 0;
}

static int add(struct walk *w, const char *path, const char *type,
	       unsigned mode, uint64_t size, const char *content, size_t clen)
{
	size_t plen = strlen(path), tlen = strlen(type), len;
	char num[48], *r;
	int k = snprintf(num, sizeof(num), "%04o%c%llu", mode, '\0',
			 (unsigned long long)size);

	if (w->n == WARD_TREE_ENTRIES)
		return ward_fail(w->err, 0, "digest: more than %d entries",
				 WARD_TREE_ENTRIES);
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		char **v = realloc(w->recs, cap * sizeof(*v));

		if (!v)
			return ward_fail(w->err, ENOMEM, "digest");
		w->recs = v;
		w->cap = cap;
	}
	len = plen + 1 + tlen + 1 + (size_t)k + 1 + clen + 1;
	if (!(r = malloc(len)))
		return ward_fail(w->err, ENOMEM, "digest");
	memcpy(r, path, plen + 1);
	memcpy(r + plen + 1, type, tlen + 1);
	memcpy(r + plen + tlen + 2, num, (size_t)k + 1);
	memcpy(r + plen + tlen + (size_t)k + 3, content, clen);
	r[len - 1] = '\0';
	w->recs[w->n++] = r;
	return 0;
}

static int walk_dir(struct walk *w, int dfd, const char *rel, unsigned depth);

/* One entry name of dfd, at relative path path. */
static int entry(struct walk *w, int dfd, const char *name, const char *path,
		 unsigned depth)
{
	struct stat st;
	char hex[65], target[PATH_MAX];
	uint64_t size = 0;
	ssize_t n;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return ward_fail(w->err, errno, "digest %s", path);
	switch (st.st_mode & S_IFMT) {
	case S_IFREG:
		if (file_sha(w, dfd, name, path, &st, hex, &size) < 0)
			return -1;
		return add(w, path, "file", mode_of(w, &st), size, hex, 64);
	case S_IFLNK:
		n = readlinkat(dfd, name, target, sizeof(target));
		if (n < 0 || (size_t)n == sizeof(target))
			return ward_fail(w->err, n < 0 ? errno : ENAMETOOLONG,
					 "digest %s", path);
		return add(w, path, "symlink", mode_of(w, &st), (uint64_t)n,
			   target, (size_t)n);
	case S_IFDIR: {
		_cleanup_close_ int sub = -1;

		if (depth >= WARD_TREE_DEPTH)
			return ward_fail(w->err, 0,
					 "digest %s: deeper than %d levels",
					 path, WARD_TREE_DEPTH);
		sub = openat(dfd, name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			return ward_fail(w->err, errno, "digest %s", path);
		if (add(w, path, "dir", mode_of(w, &st), 0, "", 0) < 0)
			return -1;
		return walk_dir(w, sub, path, depth + 1);
	}
	default:
		return add(w, path, "other", mode_of(w, &st), 0, "", 0);
	}
}

static int walk_dir(struct walk *w, int dfd, const char *rel, unsigned depth)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	int rc = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return ward_fail(w->err, errno, "digest %s", rel ? rel : ".");
	}
	errno = 0;
	while (rc == 0 && (e = readdir(d))) {
		char path[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s%s%s",
				     rel ? rel : "", rel ? "/" : "",
				     e->d_name) >= sizeof(path))
			rc = ward_fail(w->err, ENAMETOOLONG, "digest %s/%s",
				       rel ? rel : ".", e->d_name);
		else
			rc = entry(w, dirfd(d), e->d_name, path, depth);
		errno = 0;
	}
	if (rc == 0 && errno)
		rc = ward_fail(w->err, errno, "digest %s", rel ? rel : ".");
	closedir(d);
	return rc;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_free(struct walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->recs[i]);
	free(w->recs);
}

/* The records in path order, then their digest. */
static void finish(struct walk *w, struct ward_tree_digest *out)
{
	static const char magic[] = "ward-tree-1\n";
	struct ward_sha256 h;

	/* Each record starts with its NUL-terminated path: sorting the
	 * pointers sorts by path (a path is unique); a record's length is
	 * that of its five NUL-terminated fields (a link target has no
	 * NUL). */
	qsort(w->recs, w->n, sizeof(*w->recs), by_path);
	ward_sha256_init(&h);
	ward_sha256_update(&h, magic, sizeof(magic) - 1);
	for (size_t i = 0; i < w->n; i++) {
		const char *r = w->recs[i];
		size_t len = 0;

		for (int f = 0; f < 5; f++)
			len += strlen(r + len) + 1;
		ward_sha256_update(&h, r, len);
	}
	ward_sha256_final(&h, out->sha256);
	out->entries = w->n;
	out->bytes = w->bytes;
}

int ward_tree_digest_dir(int dfd, bool normalise, struct ward_tree_digest *out,
			 ward_err *err)
{
	struct walk w = {.normalise = normalise, .err = err};
	int rc = walk_dir(&w, dfd, NULL, 0);

	if (rc == 0)
		finish(&w, out);
	walk_free(&w);
	return rc;
}

int ward_tree_digest_path(const char *path, struct ward_tree_digest *out,
			  ward_err *err)
{
	struct walk w = {.normalise = true, .err = err};
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
						O_NOCTTY | O_CLOEXEC);
	struct stat st;
	int rc;

	if (fd < 0 || fstat(fd, &st) < 0)
		return ward_fail(err, errno, "%s (a symlink is not followed)",
				 path);
	if (S_ISDIR(st.st_mode)) {
		rc = walk_dir(&w, fd, NULL, 0);
	} else if (S_ISREG(st.st_mode)) {
		/* Under its own name, as the copy puts it in the slot. */
		const char *base = strrchr(path, '/');
		char dir[PATH_MAX];
		_cleanup_close_ int dfd = -1;

		base = base ? base + 1 : path;
		snprintf(dir, sizeof(dir), "%.*s", (int)(base - path), path);
		dfd = open(base == path ? "." : dir,
			   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			return ward_fail(err, errno, "%s", path);
		rc = entry(&w, dfd, base, base, 0);
	} else {
		return ward_fail(err, 0, "%s: not a file or a directory", path);
	}
	if (rc == 0)
		finish(&w, out);
	walk_free(&w);
	return rc;
}
