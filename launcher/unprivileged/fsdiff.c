/* SPDX-License-Identifier: MIT */
/*
 * fsdiff.c: snapshots of a slot and their difference (fsdiff.h).
 */
#include "fsdiff.h"

#include "json.h"
#include "safefs.h"
#include "sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct walk {
	struct ward_snap *s;
	ward_err *err;
	char rel[PATH_MAX];
	uint8_t buf[65536];
	int failed;
	bool full; /* WARD_SNAP_ENTRIES reached: stop */
};

static struct ward_snap_entry *add(struct walk *w)
{
	struct ward_snap *s = w->s;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		void *p = realloc(s->e, cap * sizeof(*s->e));
		if (!p)
			return NULL;
		s->e = p;
		s->cap = cap;
	}
	struct ward_snap_entry *e = &s->e[s->n];
	memset(e, 0, sizeof(*e));
	if (!(e->path = strdup(w->rel)))
		return NULL;
	s->n++;
	return e;
}

/* The digest of a small regular file, opened beneath its directory
 * without blocking (a FIFO swapped in opens and fails the check). */
static void hash(struct walk *w, int dirfd, const char *name,
		 struct ward_snap_entry *e)
{
	_cleanup_close_ int fd = -1;
	struct ward_sha256 h;
	struct stat st;
	uint64_t got = 0;
	ssize_t n;

	if (e->size > WARD_SNAP_HASH_FILE ||
	    w->s->hashed_bytes + e->size > WARD_SNAP_HASH_TOTAL)
		return;
	fd =
	    ward_open_beneath(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_ino != e->ino)
		return;
	ward_sha256_init(&h);
	while (got <= WARD_SNAP_HASH_FILE &&
	       (n = read(fd, w->buf, sizeof(w->buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return;
		ward_sha256_update(&h, w->buf, (size_t)n);
		got += (uint64_t)n;
	}
	if (got != e->size) /* it changed under us: no digest */
		return;
	ward_sha256_final(&h, e->sha256);
	e->hashed = true;
	w->s->hashed_bytes += got;
}

static void walk_dir(struct walk *w, int dirfd, size_t rlen, unsigned depth)
{
	int dfd = dup(dirfd);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	rewinddir(d);
	while (!w->failed && !w->full && (de = readdir(d))) {
		const char *name = de->d_name;
		size_t len = strlen(name);
		struct ward_snap_entry *e;
		struct stat st;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (w->s->n >= WARD_SNAP_ENTRIES ||
		    rlen + 1 + len + 1 > sizeof(w->rel)) {
			w->s->truncated = w->full = true;
			break;
		}
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue; /* gone */
		if (rlen)
			w->rel[rlen] = '/';
		memcpy(w->rel + rlen + !!rlen, name, len + 1);
		if (!(e = add(w))) {
			w->failed = ward_fail(w->err, ENOMEM, "snapshot");
			break;
		}
		e->mode = st.st_mode;
		e->size = (uint64_t)st.st_size;
		e->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 +
			      st.st_mtim.tv_nsec;
		e->ino = st.st_ino;
		if (S_ISREG(st.st_mode)) {
			hash(w, dirfd, name, e);
		} else if (S_ISLNK(st.st_mode)) {
			char t[PATH_MAX];
			ssize_t n = readlinkat(dirfd, name, t, sizeof(t) - 1);
			if (n >= 0) {
				t[n] = '\0';
				e->link = strdup(t);
			}
		} else if (S_ISDIR(st.st_mode)) {
			if (depth + 1 > WARD_SNAP_DEPTH) {
				w->s->truncated = true;
			} else {
				_cleanup_close_ int sub = ward_open_beneath(
				    dirfd, name, O_RDONLY | O_DIRECTORY, 0);
				if (sub >= 0)
					walk_dir(w, sub, rlen + !!rlen + len,
						 depth + 1);
			}
		}
		w->rel[rlen] = '\0';
	}
	closedir(d);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct ward_snap_entry *)a)->path,
		      ((const struct ward_snap_entry *)b)->path);
}

int ward_snap_take(int dirfd, struct ward_snap *s, ward_err *err)
{
	struct walk *w = calloc(1, sizeof(*w));

	memset(s, 0, sizeof(*s));
	if (!w)
		return ward_fail(err, ENOMEM, "snapshot");
	w->s = s;
	w->err = err;
	walk_dir(w, dirfd, 0, 0);
	int rc = w->failed ? -1 : 0;
	free(w);
	if (rc == 0 && s->n)
		qsort(s->e, s->n, sizeof(*s->e), by_path);
	return rc;
}

void ward_snap_free(struct ward_snap *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->e[i].path);
		free(s->e[i].link);
	}
	free(s->e);
	memset(s, 0, sizeof(*s));
}

uint32_t ward_snap_changes(const struct ward_snap_entry *a,
			   const struct ward_snap_entry *b)
{
	uint32_t c = 0;

	if ((a->mode & S_IFMT) != (b->mode & S_IFMT))
		return WARD_CH_TYPE;
	if (S_ISREG(a->mode) &&
	    (a->size != b->size ||
	     (a->hashed && b->hashed && memcmp(a->sha256, b->sha256, 32))))
		c |= WARD_CH_CONTENT;
	if (S_ISLNK(a->mode) &&
	    (!a->link || !b->link || strcmp(a->link, b->link)))
		c |= WARD_CH_CONTENT;
	if ((a->mode & 07777) != (b->mode & 07777))
		c |= WARD_CH_MODE;
	/* A directory's mtime moves with its entries, which are listed. */
	if (!S_ISDIR(a->mode) && a->mtime_ns != b->mtime_ns)
		c |= WARD_CH_MTIME;
	if (a->ino != b->ino)
		c |= WARD_CH_INODE;
	return c;
}

/* ------------------------------------------------------------------ json */

static void str(FILE *f, const char *s)
{
	ward_json_bytes(f, (const uint8_t *)s, strlen(s));
}

static void entry_json(FILE *f, const struct ward_snap_entry *e)
{
	char hex[65];

	fputs("{\"path\":", f);
	str(f, e->path);
	fprintf(f, ",\"kind\":\"%s\",\"size\":%llu,\"mode\":\"%04o\"",
		ward_file_kind(e->mode), (unsigned long long)e->size,
		(unsigned)(e->mode & 07777));
	if (e->hashed) {
		ward_hex(e->sha256, 32, hex);
		fprintf(f, ",\"sha256\":\"%s\"", hex);
	} else {
		fputs(",\"sha256\":null", f);
	}
	if (e->link) {
		fputs(",\"target\":", f);
		str(f, e->link);
	}
	fputc('}', f);
}

static void change_json(FILE *f, const struct ward_snap_entry *a,
			const struct ward_snap_entry *b, uint32_t c)
{
	static const char *const what[] = {"type", "content", "mode", "mtime",
					   "inode"};
	bool first = true;

	fputs("{\"path\":", f);
	str(f, b->path);
	fputs(",\"what\":[", f);
	for (unsigned i = 0; i < ARRAY_LEN(what); i++)
		if (c & (1u << i)) {
			fprintf(f, "%s\"%s\"", first ? "" : ",", what[i]);
			first = false;
		}
	fputs("],\"before\":", f);
	entry_json(f, a);
	fputs(",\"after\":", f);
	entry_json(f, b);
	fputc('}', f);
}

struct lists {
	FILE *f[3];
	char *buf[3];
	size_t len[3];
	uint64_t count[3];
	uint64_t cap;
};

enum { ADDED, CHANGED, DELETED };

static FILE *item(struct lists *l, int which)
{
	FILE *f = l->f[which];

	l->count[which]++;
	if (!f || l->count[which] > l->cap)
		return NULL;
	if (l->count[which] > 1)
		fputc(',', f);
	return f;
}

void ward_snap_diff_json(FILE *f, const char *slot, const struct ward_snap *a,
			 const struct ward_snap *b)
{
	ward_snap_diff_json_cap(f, slot, a, b, WARD_DIFF_LIST_MAX);
}

void ward_snap_diff_json_cap(FILE *f, const char *slot,
			     const struct ward_snap *a,
			     const struct ward_snap *b, uint64_t cap)
{
	static const char *const names[] = {"added", "changed", "deleted"};
	struct lists l = {.cap = cap};
	size_t i = 0, k = 0;
	FILE *o;

	for (int n = 0; n < 3; n++)
		l.f[n] = open_memstream(&l.buf[n], &l.len[n]);
	while (i < a->n || k < b->n) {
		int c = i == a->n   ? 1
			: k == b->n ? -1
				    : strcmp(a->e[i].path, b->e[k].path);
		if (c < 0) {
			if ((o = item(&l, DELETED)))
				entry_json(o, &a->e[i]);
			i++;
		} else if (c > 0) {
			if ((o = item(&l, ADDED)))
				entry_json(o, &b->e[k]);
			k++;
		} else {
			uint32_t ch = ward_snap_changes(&a->e[i], &b->e[k]);
			if (ch && (o = item(&l, CHANGED)))
				change_json(o, &a->e[i], &b->e[k], ch);
			i++;
			k++;
		}
	}
	fputs("{\"slot\":", f);
	str(f, slot);
	for (int n = 0; n < 3; n++) {
		if (l.f[n])
			fclose(l.f[n]);
		fprintf(f, ",\"%s\":[", names[n]);
		if (l.buf[n])
			fwrite(l.buf[n], 1, l.len[n], f);
		fputc(']', f);
		free(l.buf[n]);
	}
	fprintf(
	    f,
	    ",\"counts\":{\"added\":%llu,\"changed\":%llu,\"deleted\":%llu},"
	    "\"truncated\":%s}",
	    (unsigned long long)l.count[ADDED],
	    (unsigned long long)l.count[CHANGED],
	    (unsigned long long)l.count[DELETED],
	    a->truncated || b->truncated ? "true" : "false");
}
