/* SPDX-License-Identifier: MIT */
/*
 * exporter.c: the safe exporter (exporter.h, docs/spec.md part 6).
 *
 * One pass over the slot, in sorted name order (the same slot gives the
 * same manifest), depth first:
 *
 *   every entry   fstatat(AT_SYMLINK_NOFOLLOW): its type before anything
 *                 is opened; its name checked (safefs.c)
 *   a directory   opened with openat2 beneath its parent, no symlinks, no
 *                 mount crossing; descended into up to a depth
 *   a file        refused if it is a hard link or setuid/setgid, or its
 *                 name matches no pattern, or the count is reached; else
 *                 opened (beneath, no symlinks, O_NONBLOCK so that a FIFO
 *                 swapped in cannot block us), checked to be the object
 *                 that was looked at, and copied into the staging
 *                 directory while it is hashed, typed and counted: the
 *                 copy stops one byte past what the caps allow
 *   anything else refused by its type, never opened
 *
 * With `on-violation refuse` (the default) the first violation ends the
 * walk and the staging directory is removed: nothing is exported. Otherwise
 * the staging directory is renamed `.ward-publish-<hex>` and its top-level
 * entries are renamed into the export directory, never over an existing
 * name; the directory goes last. A crash between those renames leaves the
 * `.ward-publish-` directory behind as the mark of a half-published result
 * (no manifest says `complete` either), and the next export into that
 * directory refuses to run beside it.
 */
#include "exporter.h"

#include "blob.h"
#include "export_archive.h"
#include "export_csv.h"
#include "export_sniff.h"
#include "json.h"
#include "safefs.h"
#include "sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define CHUNK	(64 * 1024)
#define REL_MAX (WARD_EXPORT_DEPTH_MAX * 256 + 512)

#define STAGE_PREFIX   ".ward-export-"
#define PUBLISH_PREFIX ".ward-publish-"

static const char *const reason_names[WARD_XR_COUNT] = {
    [WARD_XR_NONE] = NULL,
    [WARD_XR_SYMLINK] = "symlink",
    [WARD_XR_HARDLINK] = "hard-link",
    [WARD_XR_FIFO] = "fifo",
    [WARD_XR_SOCKET] = "socket",
    [WARD_XR_DEVICE] = "device",
    [WARD_XR_OTHER_TYPE] = "other-type",
    [WARD_XR_SETUID] = "setuid",
    [WARD_XR_BAD_NAME] = "bad-name",
    [WARD_XR_NAME] = "name-not-allowed",
    [WARD_XR_TYPE] = "type-not-allowed",
    [WARD_XR_UNKNOWN] = "type-unknown",
    [WARD_XR_MISMATCH] = "type-mismatch",
    [WARD_XR_PER_FILE] = "per-file-cap",
    [WARD_XR_TOTAL] = "total-cap",
    [WARD_XR_FILES] = "files-cap",
    [WARD_XR_DEPTH] = "too-deep",
    [WARD_XR_SCAN] = "scan-limit",
    [WARD_XR_UNREADABLE] = "unreadable",
    [WARD_XR_CHANGED] = "changed",
    [WARD_XR_EXISTS] = "exists",
    [WARD_XR_ARCHIVE_PATH] = "archive-path",
    [WARD_XR_ARCHIVE_LINK] = "archive-link",
    [WARD_XR_ARCHIVE_SPECIAL] = "archive-special",
    [WARD_XR_ARCHIVE_BOMB] = "archive-bomb",
    [WARD_XR_ARCHIVE_MALFORMED] = "archive-malformed",
    [WARD_XR_ARCHIVE_UNSUPPORTED] = "archive-unsupported",
};

const char *ward_xreason_name(enum ward_xreason r)
{
	return (unsigned)r < WARD_XR_COUNT ? reason_names[r] : NULL;
}

const char *ward_xstatus_name(enum ward_xstatus s)
{
	switch (s) {
	case WARD_XS_COMPLETE:
		return "complete";
	case WARD_XS_PARTIAL:
		return "partial";
	case WARD_XS_REFUSED:
		break;
	}
	return "refused";
}

/* A directory of the staging tree: made when its first file is staged. */
struct stage {
	struct stage *parent;
	const char *name; /* NULL: the staging root */
	int fd;		  /* -1 until made */
	uint64_t staged;  /* files staged in it or below */
};

struct xctx {
	const struct ward_export_rule *rule;
	const struct ward_export_hook *hook;
	struct ward_export_result *res;
	ward_err *err;
	uint8_t *buf;
	char rel[REL_MAX]; /* the path being looked at, from the slot */
	size_t listed;	   /* refused entries listed */
	bool halt;	   /* stop walking */
	bool refused;	   /* publish nothing (`refuse`, or a failure) */
	bool failed;	   /* an operational failure (err is filled) */
	dev_t dest_dev, stage_dev;
	ino_t dest_ino, stage_ino;
};

/* ------------------------------------------------------------- entries */

static struct ward_export_entry *add_entry(struct xctx *x, const char *kind)
{
	struct ward_export_result *r = x->res;

	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		void *p = realloc(r->entries, cap * sizeof(*r->entries));
		if (!p)
			return NULL;
		r->entries = p;
		r->cap = cap;
	}
	struct ward_export_entry *e = &r->entries[r->n];
	memset(e, 0, sizeof(*e));
	if (!(e->path = strdup(x->rel)))
		return NULL;
	e->kind = kind;
	r->n++;
	return e;
}

/* Forget the last entry (a directory that was fine). */
static void drop_last(struct xctx *x)
{
	free(x->res->entries[--x->res->n].path);
}

static void fail(struct xctx *x, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(struct xctx *x, int code, const char *fmt, ...)
{
	char msg[WARD_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!x->failed)
		ward_fail(x->err, code, "export: %s", msg);
	x->failed = x->halt = x->refused = true;
}

/* The entry e (the last one) broke the rule: record why; with `refuse`
 * the walk ends here. Past the listing limit the entry is only counted. */
static void refuse(struct xctx *x, struct ward_export_entry *e,
		   enum ward_xreason why, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void refuse(struct xctx *x, struct ward_export_entry *e,
		   enum ward_xreason why, const char *fmt, ...)
{
	va_list ap;

	e->verdict = WARD_XV_REFUSED;
	e->reason = why;
	x->res->nrefused++;
	va_start(ap, fmt);
	vsnprintf(e->detail, sizeof(e->detail), fmt, ap);
	va_end(ap);
	if (x->rule->on_violation == WARD_EXPORT_REFUSE && !x->refused) {
		x->halt = x->refused = true;
		x->res->refusal = why;
		x->res->refusal_path = strdup(e->path);
	}
	if (x->listed < WARD_EXPORT_LIST_MAX) {
		x->listed++;
		return;
	}
	x->res->omitted[why]++;
	drop_last(x);
}

/* ------------------------------------------------------------- staging */

static int stage_open(struct xctx *x, struct stage *s)
{
	if (s->fd >= 0)
		return s->fd;
	if (stage_open(x, s->parent) < 0)
		return -1;
	if (mkdirat(s->parent->fd, s->name, 0755) < 0 ||
	    (s->fd = ward_open_beneath(s->parent->fd, s->name,
				       O_RDONLY | O_DIRECTORY, 0)) < 0) {
		fail(x, errno, "make the directory %s in the staging area",
		     s->name);
		return -1;
	}
	return s->fd;
}

/* Leave a staged directory: flush it, or remove it when nothing was
 * staged there after all. */
static void stage_close(struct xctx *x, struct stage *s)
{
	if (s->fd < 0)
		return;
	if (s->staged && fsync(s->fd) < 0)
		fail(x, errno, "fsync %s", s->name);
	close(s->fd);
	s->fd = -1;
	if (!s->staged && unlinkat(s->parent->fd, s->name, AT_REMOVEDIR) < 0)
		fail(x, errno, "remove the empty %s", s->name);
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* ---------------------------------------------------------------- files */

static bool name_allowed(const struct ward_export_rule *r, const char *name)
{
	if (!r->nnames)
		return true;
	for (uint32_t i = 0; i < r->nnames; i++)
		if (fnmatch(r->names[i], name, 0) == 0)
			return true;
	return false;
}

static const char *type_name(uint32_t t)
{
	return t ? ward_export_type_name(t) : "unknown";
}

/* Copy the open file in into out, hashing, typing and counting as it
 * goes; stop one byte past limit. Returns the bytes read, or -1 (errno)
 * on a read error (*werr: on a write error). */
static int64_t copy(struct xctx *x, int in, int out, uint64_t limit, int dirfd,
		    const char *name, struct ward_export_entry *e,
		    struct ward_text_check *text, struct ward_csv_scan *csv,
		    uint8_t *head, size_t *hlen, bool *werr)
{
	struct ward_sha256 h;
	uint64_t got = 0;

	ward_sha256_init(&h);
	for (;;) {
		uint64_t room = limit + 1 - got;
		size_t want = room < CHUNK ? (size_t)room : CHUNK;
		ssize_t n = read(in, x->buf, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (uint64_t)n;
		ward_sha256_update(&h, x->buf, (size_t)n);
		ward_text_feed(text, x->buf, (size_t)n);
		if (csv)
			ward_csv_feed(csv, x->buf, (size_t)n);
		if (*hlen < WARD_SNIFF_HEAD) {
			size_t k = WARD_SNIFF_HEAD - *hlen;
			if (k > (size_t)n)
				k = (size_t)n;
			memcpy(head + *hlen, x->buf, k);
			*hlen += k;
		}
		if (got > limit)
			break; /* refused: what is past the cap is not kept */
		if (write_all(out, x->buf, (size_t)n) < 0) {
			*werr = true;
			return -1;
		}
		if (x->hook && x->hook->after_chunk)
			x->hook->after_chunk(x->hook->arg, dirfd, name, got);
	}
	ward_sha256_final(&h, e->sha256);
	e->has_digest = true;
	e->has_size = true;
	e->size = got;
	return (int64_t)got;
}

/* An archive the rule allows: what it would unpack, judged on the staged
 * copy (fd), which is what would be published. */
static bool archive_ok(struct xctx *x, struct ward_export_entry *e, int fd)
{
	static const enum ward_xreason why[] = {
	    [WARD_AP_PATH] = WARD_XR_ARCHIVE_PATH,
	    [WARD_AP_LINK] = WARD_XR_ARCHIVE_LINK,
	    [WARD_AP_SPECIAL] = WARD_XR_ARCHIVE_SPECIAL,
	    [WARD_AP_BOMB] = WARD_XR_ARCHIVE_BOMB,
	    [WARD_AP_MALFORMED] = WARD_XR_ARCHIVE_MALFORMED,
	    [WARD_AP_UNSUPPORTED] = WARD_XR_ARCHIVE_UNSUPPORTED,
	};
	const struct ward_export_rule *r = x->rule;
	struct ward_archive_limits lim = {.per_file = r->per_file,
					  .total = r->total};
	struct ward_archive_result ar;

	if (!(e->type &
	      (WARD_EXPORT_T_ZIP | WARD_EXPORT_T_TAR | WARD_EXPORT_T_GZIP)))
		return true;
	/* Without a total, what the files may add up to. */
	if (!lim.total && __builtin_mul_overflow((uint64_t)r->max_files,
						 r->per_file, &lim.total))
		lim.total = UINT64_MAX;
	if (ward_archive_check(fd, e->size, e->type, &lim, &ar) < 0) {
		fail(x, errno, "read back the staged %s", e->path);
		return false;
	}
	if (ar.problem != WARD_AP_NONE) {
		refuse(x, e, why[ar.problem], "%s", ar.detail);
		return false;
	}
	e->archive = true;
	e->archive_entries = ar.entries;
	e->archive_unpacked = ar.unpacked;
	return true;
}

/* Check what was read: its type allowed, and what its name claims. */
static bool type_ok(struct xctx *x, struct ward_export_entry *e,
		    const char *name)
{
	uint32_t claims = ward_name_claims(name);

	if (!e->type) {
		refuse(x, e, WARD_XR_UNKNOWN,
		       "the content is none of the known types");
		return false;
	}
	if (!(x->rule->types & e->type)) {
		refuse(x, e, WARD_XR_TYPE, "the content is %s, not allowed",
		       type_name(e->type));
		return false;
	}
	if (claims && !(claims & e->type)) {
		refuse(x, e, WARD_XR_MISMATCH,
		       "the name says %s, the content is %s",
		       type_name(claims & -claims), type_name(e->type));
		return false;
	}
	return true;
}

static void export_file(struct xctx *x, int dirfd, const char *name,
			const struct stat *st, struct stage *sd,
			struct ward_export_entry *e)
{
	const struct ward_export_rule *r = x->rule;
	_cleanup_close_ int in = -1, out = -1;
	struct ward_text_check text;
	struct ward_csv_scan csv;
	uint8_t head[WARD_SNIFF_HEAD];
	size_t hlen = 0;
	struct stat now;
	bool werr = false, tsv, is_csv = ward_csv_name(name, &tsv);
	int sfd;

	if (st->st_mode & (S_ISUID | S_ISGID)) {
		refuse(x, e, WARD_XR_SETUID, "mode %04o",
		       (unsigned)(st->st_mode & 07777));
		return;
	}
	if (st->st_nlink > 1) {
		refuse(x, e, WARD_XR_HARDLINK,
		       "%lu links: the other names may be anywhere",
		       (unsigned long)st->st_nlink);
		return;
	}
	if (!name_allowed(r, name)) {
		refuse(x, e, WARD_XR_NAME, "no `names` pattern matches");
		return;
	}
	if (x->res->files >= r->max_files) {
		refuse(x, e, WARD_XR_FILES, "%u files are exported already",
		       r->max_files);
		return;
	}
	/* O_NONBLOCK: should a FIFO take the file's place between the stat
	 * and the open, the open returns at once (and fails the check). */
	in =
	    ward_open_beneath(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0);
	if (in < 0) {
		refuse(x, e,
		       errno == ELOOP ? WARD_XR_CHANGED : WARD_XR_UNREADABLE,
		       "open: %s", strerror(errno));
		return;
	}
	if (fstat(in, &now) < 0 || !S_ISREG(now.st_mode) ||
	    now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
	    now.st_nlink > 1 || (now.st_mode & (S_ISUID | S_ISGID))) {
		refuse(x, e, WARD_XR_CHANGED,
		       "replaced or changed between its stat and its open");
		return;
	}
	if ((sfd = stage_open(x, sd)) < 0)
		return;
	/* (read and write: an archive is inspected on its staged copy) */
	out = openat(sfd, name,
		     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		fail(x, errno, "create %s in the staging area", e->path);
		return;
	}
	uint64_t left = r->total ? r->total - x->res->bytes : UINT64_MAX;
	uint64_t limit = r->per_file < left ? r->per_file : left;
	ward_text_init(&text);
	ward_csv_init(&csv, tsv);
	int64_t got = copy(x, in, out, limit, dirfd, name, e, &text,
			   is_csv ? &csv : NULL, head, &hlen, &werr);
	bool keep = false;
	if (got < 0 && werr)
		fail(x, errno, "write %s in the staging area", e->path);
	else if (got < 0)
		refuse(x, e, WARD_XR_UNREADABLE, "read: %s", strerror(errno));
	else if ((uint64_t)got > r->per_file)
		refuse(x, e, WARD_XR_PER_FILE,
		       "more than the per-file cap of %llu bytes",
		       (unsigned long long)r->per_file);
	else if ((uint64_t)got > limit)
		refuse(x, e, WARD_XR_TOTAL,
		       "would take the export past its total of %llu bytes",
		       (unsigned long long)r->total);
	else {
		e->sniffed = true;
		e->type = ward_sniff(head, hlen, ward_text_done(&text));
		keep = type_ok(x, e, name) && archive_ok(x, e, out);
		if (keep && is_csv && e->type == WARD_EXPORT_T_TEXT) {
			ward_csv_done(&csv);
			e->formulas = csv.formulas;
			e->formula_row = csv.first_row;
			e->formula_col = csv.first_col;
			e->formula_trigger = csv.first_trigger;
		}
	}
	if (keep && fsync(out) < 0) {
		fail(x, errno, "fsync %s", e->path);
		keep = false;
	}
	if (!keep) {
		/* (e may be gone: refuse() forgets entries past the list) */
		if (unlinkat(sfd, name, 0) < 0 && !x->failed)
			fail(x, errno, "remove the refused %s", name);
		return;
	}
	e->verdict = WARD_XV_EXPORTED;
	x->res->files++;
	x->res->bytes += (uint64_t)got;
	for (struct stage *s = sd; s; s = s->parent)
		s->staged++;
}

/* ---------------------------------------------------------------- walk */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of directory fd, sorted, at most max of them (*more: there
 * were others). */
static char **list_dir(int fd, size_t max, size_t *n, bool *more)
{
	int dfd = dup(fd);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	char **names = NULL;
	size_t cap = 0;
	struct dirent *de;

	*n = 0;
	*more = false;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return NULL;
	}
	rewinddir(d);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*n == max) {
			*more = true;
			break;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 32;
			char **p = realloc(names, cap * sizeof(*p));
			if (!p)
				goto oom;
			names = p;
		}
		if (!(names[*n] = strdup(de->d_name)))
			goto oom;
		(*n)++;
	}
	closedir(d);
	if (!names) /* an empty directory */
		names = calloc(1, sizeof(*names));
	if (names)
		qsort(names, *n, sizeof(*names), cmp_names);
	return names;
oom:
	closedir(d);
	for (size_t i = 0; i < *n; i++)
		free(names[i]);
	free(names);
	return NULL;
}

static void walk(struct xctx *x, int dirfd, struct stage *sd, size_t rlen,
		 unsigned depth);

static void visit(struct xctx *x, int dirfd, const char *name, struct stage *sd,
		  size_t rlen, unsigned depth)
{
	struct ward_export_entry *e;
	const char *bad;
	struct stat st, now;
	enum ward_xreason why = WARD_XR_NONE;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if ((e = add_entry(x, "other")))
			refuse(x, e, WARD_XR_UNREADABLE, "stat: %s",
			       strerror(errno));
		else
			fail(x, ENOMEM, "manifest");
		return;
	}
	if (!(e = add_entry(x, ward_file_kind(st.st_mode)))) {
		fail(x, ENOMEM, "manifest");
		return;
	}
	if ((bad = ward_name_problem(name))) {
		refuse(x, e, WARD_XR_BAD_NAME, "%s", bad);
		return;
	}
	switch (st.st_mode & S_IFMT) {
	case S_IFREG:
		export_file(x, dirfd, name, &st, sd, e);
		return;
	case S_IFLNK:
		refuse(x, e, WARD_XR_SYMLINK,
		       "symlinks are never followed nor copied");
		return;
	case S_IFIFO:
		refuse(x, e, WARD_XR_FIFO, "never opened");
		return;
	case S_IFSOCK:
		refuse(x, e, WARD_XR_SOCKET, "never opened");
		return;
	case S_IFCHR:
	case S_IFBLK:
		refuse(x, e, WARD_XR_DEVICE, "device %u:%u, never opened",
		       major(st.st_rdev), minor(st.st_rdev));
		return;
	case S_IFDIR:
		break;
	default:
		refuse(x, e, WARD_XR_OTHER_TYPE, "mode %o",
		       (unsigned)st.st_mode);
		return;
	}
	if ((st.st_dev == x->dest_dev && st.st_ino == x->dest_ino) ||
	    (st.st_dev == x->stage_dev && st.st_ino == x->stage_ino)) {
		refuse(x, e, WARD_XR_OTHER_TYPE, "the export directory itself");
		return;
	}
	if (depth + 1 > WARD_EXPORT_DEPTH_MAX) {
		refuse(x, e, WARD_XR_DEPTH, "more than %d levels",
		       WARD_EXPORT_DEPTH_MAX);
		return;
	}
	_cleanup_close_ int fd =
	    ward_open_beneath(dirfd, name, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		why = errno == ELOOP || errno == EXDEV ? WARD_XR_CHANGED
						       : WARD_XR_UNREADABLE;
	else if (fstat(fd, &now) < 0 || now.st_dev != st.st_dev ||
		 now.st_ino != st.st_ino)
		why = WARD_XR_CHANGED;
	if (why) {
		refuse(x, e, why, "open: %s",
		       fd < 0 ? strerror(errno) : "replaced");
		return;
	}
	drop_last(x); /* a directory is listed only when refused */
	struct stage child = {.parent = sd, .name = name, .fd = -1};
	walk(x, fd, &child, rlen, depth + 1);
	stage_close(x, &child);
}

static void walk(struct xctx *x, int dirfd, struct stage *sd, size_t rlen,
		 unsigned depth)
{
	size_t n;
	bool more;
	char **names = list_dir(dirfd, WARD_EXPORT_SCAN_MAX + 1, &n, &more);

	if (!names) {
		fail(x, errno ? errno : ENOMEM, "read the directory %s",
		     rlen ? x->rel : "(the slot)");
		return;
	}
	for (size_t i = 0; i < n && !x->halt; i++) {
		size_t len = strlen(names[i]);

		if (++x->res->examined > WARD_EXPORT_SCAN_MAX) {
			x->res->truncated = true;
			x->res->examined--;
			/* Not a verdict on one file, but `refuse` refuses. */
			if (x->rule->on_violation == WARD_EXPORT_REFUSE &&
			    !x->refused) {
				x->refused = true;
				x->res->refusal = WARD_XR_SCAN;
				x->res->refusal_path =
				    strdup(rlen ? x->rel : "");
			}
			x->halt = true;
			break;
		}
		if (rlen + 1 + len + 1 > sizeof(x->rel)) {
			fail(x, ENAMETOOLONG, "path under %s", x->rel);
			break;
		}
		if (rlen)
			x->rel[rlen] = '/';
		memcpy(x->rel + rlen + (rlen ? 1 : 0), names[i], len + 1);
		visit(x, dirfd, names[i], sd, rlen + (rlen ? 1 : 0) + len,
		      depth);
		x->rel[rlen] = '\0';
	}
	if (more && !x->halt) {
		/* (the count above stops the walk before this can happen) */
		x->res->truncated = x->halt = true;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* ------------------------------------------------------------- publish */

/* Entries under the top-level name `top`: the rename of top decides them. */
static bool under(const char *path, const char *top)
{
	size_t n = strlen(top);
	return !strncmp(path, top, n) && (path[n] == '\0' || path[n] == '/');
}

static void unexport(struct xctx *x, const char *top, enum ward_xverdict v,
		     enum ward_xreason why)
{
	for (size_t i = 0; i < x->res->n; i++) {
		struct ward_export_entry *e = &x->res->entries[i];
		if (e->verdict != WARD_XV_EXPORTED ||
		    (top && !under(e->path, top)))
			continue;
		e->verdict = v;
		e->reason = why;
		if (v == WARD_XV_REFUSED)
			x->res->nrefused++;
		if (why == WARD_XR_EXISTS)
			snprintf(e->detail, sizeof(e->detail),
				 "the export directory has `%s` already", top);
		x->res->files--;
		x->res->bytes -= e->size;
	}
}

/* Mark the staging directory as publishing: from here until it is removed,
 * dest may hold part of this result (see interrupted()). The rename is
 * durable before the first entry moves. */
static void begin_publish(struct xctx *x, int dest_fd, char *stage_name,
			  size_t len)
{
	char pub[64];
	int n = snprintf(pub, sizeof(pub), "%s%s", PUBLISH_PREFIX,
			 stage_name + strlen(STAGE_PREFIX));

	if (n < 0 || (size_t)n >= len || (size_t)n >= sizeof(pub)) {
		fail(x, ENAMETOOLONG, "name the staging directory");
		return;
	}
	if (renameat2(dest_fd, stage_name, dest_fd, pub, RENAME_NOREPLACE) <
	    0) {
		fail(x, errno, "rename the staging directory");
		return;
	}
	memcpy(stage_name, pub, (size_t)n + 1);
	if (fsync(dest_fd) < 0)
		fail(x, errno, "fsync the export directory");
}

/* Move the staged tree's top-level entries into dest, never over a name
 * there. With `refuse`, one clash puts back what was moved. */
static void publish(struct xctx *x, int stage_fd, int dest_fd)
{
	size_t n;
	bool more;
	char **names = list_dir(stage_fd, SIZE_MAX, &n, &more);
	size_t moved = 0;

	if (!names) {
		fail(x, errno ? errno : ENOMEM, "read the staging area");
		return;
	}
	for (; moved < n; moved++) {
		if (renameat2(stage_fd, names[moved], dest_fd, names[moved],
			      RENAME_NOREPLACE) == 0) {
			if (x->hook && x->hook->after_rename)
				x->hook->after_rename(x->hook->arg,
						      names[moved]);
			continue;
		}
		if (errno != EEXIST) {
			fail(x, errno, "rename %s into the export directory",
			     names[moved]);
			break;
		}
		if (x->rule->on_violation == WARD_EXPORT_SKIP) {
			unexport(x, names[moved], WARD_XV_REFUSED,
				 WARD_XR_EXISTS);
			continue;
		}
		x->res->refusal = WARD_XR_EXISTS;
		x->res->refusal_path = strdup(names[moved]);
		unexport(x, names[moved], WARD_XV_REFUSED, WARD_XR_EXISTS);
		x->refused = true;
		break;
	}
	if (x->refused) /* put back what went out: all or nothing */
		for (size_t i = 0; i < moved; i++)
			if (renameat2(dest_fd, names[i], stage_fd, names[i],
				      RENAME_NOREPLACE) < 0)
				fail(x, errno, "take %s back out", names[i]);
	if (!x->refused && fsync(dest_fd) < 0)
		fail(x, errno, "fsync the export directory");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* A `.ward-publish-` directory in dest: an export that was publishing when
 * its ward died (or one publishing right now). dest then holds part of
 * another run's result, and adding this run's would make a mixture that no
 * manifest describes. Returns 0 with name filled, or -1 (none, or dest
 * unreadable: the export fails on it later). */
static int interrupted(int dest_fd, char *name, size_t len)
{
	int fd = dup(dest_fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int rc = -1;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rewinddir(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, PUBLISH_PREFIX,
			     strlen(PUBLISH_PREFIX))) {
			snprintf(name, len, "%s", de->d_name);
			rc = 0;
			break;
		}
	closedir(d);
	return rc;
}

/* --------------------------------------------------------------- entry */

int ward_export(const struct ward_export_rule *rule, int slot_fd, int dest_fd,
		const struct ward_export_hook *hook,
		struct ward_export_result *res, ward_err *err)
{
	struct xctx *x = calloc(1, sizeof(*x));
	char stage_name[64], other[NAME_MAX + 1];
	struct stage root = {.fd = -1};
	struct stat st;
	ward_err rmerr;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	res->rule = rule;
	if (!x || !(x->buf = malloc(CHUNK))) {
		free(x);
		ward_fail(err, ENOMEM, "export");
		snprintf(res->error, sizeof(res->error), "out of memory");
		return -1;
	}
	*x = (struct xctx){
	    .rule = rule, .hook = hook, .res = res, .err = err, .buf = x->buf};
	if (fstat(dest_fd, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fail(x, errno, "the export directory");
		goto out;
	}
	x->dest_dev = st.st_dev;
	x->dest_ino = st.st_ino;
	if (interrupted(dest_fd, other, sizeof(other)) == 0) {
		fail(x, EEXIST,
		     "the export directory holds %.64s, left by an export "
		     "that was publishing when it stopped: what is there may "
		     "be half of another run's result; remove it (and that "
		     "result) first",
		     other);
		goto out;
	}
	if (ward_random_name(stage_name, sizeof(stage_name), STAGE_PREFIX) <
		0 ||
	    mkdirat(dest_fd, stage_name, 0700) < 0) {
		fail(x, errno,
		     "make a staging directory in the export "
		     "directory");
		goto out;
	}
	root.fd =
	    ward_open_beneath(dest_fd, stage_name, O_RDONLY | O_DIRECTORY, 0);
	if (root.fd < 0 || fstat(root.fd, &st) < 0) {
		fail(x, errno, "open the staging directory");
	} else {
		x->stage_dev = st.st_dev;
		x->stage_ino = st.st_ino;
		walk(x, slot_fd, &root, 0, 0);
		if (!x->refused && root.staged && fsync(root.fd) < 0)
			fail(x, errno, "fsync the staging directory");
		if (!x->refused)
			begin_publish(x, dest_fd, stage_name,
				      sizeof(stage_name));
		if (!x->refused)
			publish(x, root.fd, dest_fd);
	}
	if (x->refused)
		unexport(x, NULL, WARD_XV_WITHHELD, WARD_XR_NONE);
	if (root.fd >= 0)
		close(root.fd);
	/* Whatever is left in the staging area goes (all of it when the
	 * export was refused). */
	if (ward_rmtree(dest_fd, stage_name, NULL, &rmerr) < 0 && !x->failed)
		fail(x, rmerr.code, "remove the staging directory: %s",
		     rmerr.msg);
out:
	for (size_t i = 0; i < res->n; i++)
		res->flagged += res->entries[i].formulas != 0;
	if (x->refused)
		res->status = WARD_XS_REFUSED;
	else if (res->nrefused || res->truncated)
		res->status = res->files ? WARD_XS_PARTIAL : WARD_XS_REFUSED;
	else
		res->status = WARD_XS_COMPLETE;
	res->exported = res->status == WARD_XS_COMPLETE;
	if (x->failed) {
		ward_err_str(err, res->error, sizeof(res->error));
		rc = -1;
	}
	free(x->buf);
	free(x);
	return rc;
}

void ward_export_result_free(struct ward_export_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		free(res->entries[i].path);
	free(res->entries);
	free(res->refusal_path);
	memset(res, 0, sizeof(*res));
}

/* ------------------------------------------------------------ manifest */

static void manifest_entry(FILE *f, const struct ward_export_entry *e)
{
	static const char *const verdicts[] = {"exported", "refused",
					       "withheld"};
	char hex[65];

	fputs("{\"path\":", f);
	ward_json_str(f, e->path);
	fprintf(f, ",\"kind\":\"%s\",\"size\":", e->kind);
	if (e->has_size)
		fprintf(f, "%llu", (unsigned long long)e->size);
	else
		fputs("null", f);
	fputs(",\"sha256\":", f);
	if (e->has_digest) {
		ward_hex(e->sha256, 32, hex);
		fprintf(f, "\"%s\"", hex);
	} else {
		fputs("null", f);
	}
	fputs(",\"type\":", f);
	ward_json_str(f, e->sniffed ? type_name(e->type) : NULL);
	fprintf(f, ",\"verdict\":\"%s\",\"reason\":", verdicts[e->verdict]);
	ward_json_str(f, ward_xreason_name(e->reason));
	fputs(",\"detail\":", f);
	ward_json_str(f, e->detail[0] ? e->detail : NULL);
	fputs(",\"archive\":", f);
	if (e->archive)
		fprintf(f, "{\"entries\":%llu,\"unpacked\":%llu}",
			(unsigned long long)e->archive_entries,
			(unsigned long long)e->archive_unpacked);
	else
		fputs("null", f);
	fputs(",\"warnings\":[", f);
	if (e->formulas) {
		char t[8];
		if (e->formula_trigger == '\t' || e->formula_trigger == '\r')
			snprintf(t, sizeof(t), "%s",
				 e->formula_trigger == '\t' ? "a tab" : "a CR");
		else
			snprintf(t, sizeof(t), "`%c`", e->formula_trigger);
		fprintf(f,
			"{\"warning\":\"csv-formula\",\"cells\":%llu,"
			"\"row\":%llu,\"column\":%llu,\"detail\":\"%llu "
			"cell%s a spreadsheet would run as a formula; the "
			"first, at row %llu column %llu, starts with %s\"}",
			(unsigned long long)e->formulas,
			(unsigned long long)e->formula_row,
			(unsigned long long)e->formula_col,
			(unsigned long long)e->formulas,
			e->formulas == 1 ? "" : "s",
			(unsigned long long)e->formula_row,
			(unsigned long long)e->formula_col, t);
	}
	fputs("]}", f);
}

void ward_export_manifest(FILE *f, const struct ward_export_result *r)
{
	const struct ward_export_rule *x = r->rule;
	bool first = true;

	fputs("{\"version\":1,\"slot\":", f);
	ward_json_str(f, x->slot);
	fprintf(f, ",\"rule\":{\"files\":%u,\"per_file\":%llu,\"total\":",
		x->max_files, (unsigned long long)x->per_file);
	if (x->total)
		fprintf(f, "%llu", (unsigned long long)x->total);
	else
		fputs("null", f);
	fputs(",\"names\":[", f);
	for (uint32_t i = 0; i < x->nnames; i++) {
		fputs(i ? "," : "", f);
		ward_json_str(f, x->names[i]);
	}
	fputs("],\"types\":[", f);
	for (uint32_t bit = 1; bit & WARD_EXPORT_T_ALL; bit <<= 1)
		if (x->types & bit) {
			fprintf(f, "%s\"%s\"", first ? "" : ",",
				ward_export_type_name(bit));
			first = false;
		}
	fprintf(f,
		"],\"on_violation\":\"%s\"},\"status\":\"%s\","
		"\"exported\":%s",
		x->on_violation == WARD_EXPORT_SKIP ? "skip" : "refuse",
		ward_xstatus_name(r->status), r->exported ? "true" : "false");
	fputs(",\"refusal\":", f);
	if (r->refusal) {
		fprintf(f, "{\"reason\":\"%s\",\"path\":",
			ward_xreason_name(r->refusal));
		ward_json_str(f, r->refusal_path);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fputs(",\"error\":", f);
	ward_json_str(f, r->error[0] ? r->error : NULL);
	fprintf(f,
		",\"files\":%llu,\"bytes\":%llu,\"examined\":%llu,"
		"\"truncated\":%s,\"flagged\":%llu,\"entries\":[",
		(unsigned long long)r->files, (unsigned long long)r->bytes,
		(unsigned long long)r->examined,
		r->truncated ? "true" : "false",
		(unsigned long long)r->flagged);
	for (size_t i = 0; i < r->n; i++) {
		fputs(i ? "," : "", f);
		manifest_entry(f, &r->entries[i]);
	}
	fputs("],\"omitted\":{", f);
	first = true;
	for (int k = 1; k < WARD_XR_COUNT; k++)
		if (r->omitted[k]) {
			fprintf(f, "%s\"%s\":%llu", first ? "" : ",",
				ward_xreason_name(k),
				(unsigned long long)r->omitted[k]);
			first = false;
		}
	fputs("}}", f);
}
