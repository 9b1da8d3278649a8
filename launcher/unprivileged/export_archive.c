/* SPDX-License-Identifier: MIT */
/*
 * export_archive.c: archives judged before they leave (export_archive.h).
 *
 * Everything read is hostile and every length in it a claim: each read is
 * bounded by the file's size, each loop by WARD_ARCHIVE_ENTRIES_MAX, each
 * buffer by WARD_ARCHIVE_META_MAX, and what a gzip inflates to by the
 * rule's caps. The first problem found ends the inspection.
 */
#include "export_archive.h"

#include "policy.h"
#include "safefs.h"
#include "sha256.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define CHUNK (64 * 1024)

struct ctx {
	int fd;
	uint64_t size;
	const struct ward_archive_limits *lim;
	struct ward_archive_result *res;
	int err; /* errno of a failed read, 0 */
};

/* The first problem found; returns false, to end the caller's loop. */
static bool problem(struct ctx *c, enum ward_archive_problem p, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
static bool problem(struct ctx *c, enum ward_archive_problem p, const char *fmt,
		    ...)
{
	va_list ap;

	if (c->res->problem != WARD_AP_NONE)
		return false;
	c->res->problem = p;
	va_start(ap, fmt);
	vsnprintf(c->res->detail, sizeof(c->res->detail), fmt, ap);
	va_end(ap);
	return false;
}

static bool stopped(const struct ctx *c)
{
	return c->err || c->res->problem != WARD_AP_NONE;
}

/* n bytes at off, all of them inside the file. false: a read error, or
 * (problem set) the file ends first. */
static bool read_at(struct ctx *c, uint64_t off, void *buf, size_t n,
		    const char *what)
{
	uint8_t *p = buf;

	if (off > c->size || n > c->size - off)
		return problem(c, WARD_AP_MALFORMED, "cut short in %s", what);
	while (n) {
		ssize_t r = pread(c->fd, p, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			c->err = r < 0 ? errno : EIO;
			return false;
		}
		p += r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	return true;
}

/* A name fit for a detail: printable ASCII, others as `?`, cut at 48. */
static const char *shown(const uint8_t *name, size_t n, char buf[52])
{
	size_t k = 0;

	for (; k < n && k < 48; k++)
		buf[k] =
		    name[k] >= 0x20 && name[k] < 0x7f ? (char)name[k] : '?';
	if (k < n)
		buf[k++] = '~';
	buf[k] = '\0';
	return buf;
}

/* ----------------------------------------------------------- the rules */

/*
 * The path an entry unpacks to, judged as the exporter judges its own
 * files: relative, no `..`, no backslash (a separator on Windows), no drive
 * letter, and every component a name the exporter would export
 * (ward_name_problem: UTF-8, no control or bidirectional character, no
 * leading `-`), `.` allowed. A trailing `/` (a directory) is allowed.
 */
static bool path_ok(struct ctx *c, const char *what, const uint8_t *name,
		    size_t n)
{
	char comp[256], b[52];
	size_t i = 0;

	if (n == 0)
		return problem(c, WARD_AP_PATH, "%s with an empty name", what);
	if (memchr(name, '\0', n))
		return problem(c, WARD_AP_PATH, "%s `%s`: a NUL in its name",
			       what, shown(name, n, b));
	if (name[0] == '/')
		return problem(c, WARD_AP_PATH, "%s `%s`: an absolute path",
			       what, shown(name, n, b));
	if (memchr(name, '\\', n))
		return problem(c, WARD_AP_PATH,
			       "%s `%s`: a backslash (a separator on Windows)",
			       what, shown(name, n, b));
	if (n >= 2 && name[1] == ':' &&
	    ((name[0] | 0x20) >= 'a' && (name[0] | 0x20) <= 'z'))
		return problem(c, WARD_AP_PATH, "%s `%s`: a drive letter", what,
			       shown(name, n, b));
	while (i < n) {
		const uint8_t *slash = memchr(name + i, '/', n - i);
		size_t len = slash ? (size_t)(slash - (name + i)) : n - i;
		const char *why;

		if (len == 0)
			return problem(c, WARD_AP_PATH,
				       "%s `%s`: an empty component", what,
				       shown(name, n, b));
		if (len == 2 && name[i] == '.' && name[i + 1] == '.')
			return problem(c, WARD_AP_PATH,
				       "%s `%s`: a `..` component", what,
				       shown(name, n, b));
		if (len >= sizeof(comp))
			return problem(c, WARD_AP_PATH,
				       "%s `%s`: a component of %zu bytes",
				       what, shown(name, n, b), len);
		memcpy(comp, name + i, len);
		comp[len] = '\0';
		if (strcmp(comp, ".") && (why = ward_name_problem(comp)))
			return problem(c, WARD_AP_PATH, "%s `%s`: %s", what,
				       shown(name, n, b), why);
		i += len + 1; /* past the slash: a trailing one ends here */
	}
	return true;
}

/* One more entry, of `size` bytes unpacked. */
static bool account(struct ctx *c, const uint8_t *name, size_t n, uint64_t size)
{
	struct ward_archive_result *r = c->res;
	char b[52];

	if (++r->entries > WARD_ARCHIVE_ENTRIES_MAX)
		return problem(c, WARD_AP_BOMB, "more than %d entries",
			       WARD_ARCHIVE_ENTRIES_MAX);
	if (size > c->lim->per_file)
		return problem(c, WARD_AP_BOMB,
			       "`%s` unpacks to %llu bytes, past the per-file "
			       "cap of %llu",
			       shown(name, n, b), (unsigned long long)size,
			       (unsigned long long)c->lim->per_file);
	if (__builtin_add_overflow(r->unpacked, size, &r->unpacked) ||
	    r->unpacked > c->lim->total)
		return problem(c, WARD_AP_BOMB,
			       "the entries unpack to more than %llu bytes, "
			       "the rule's total",
			       (unsigned long long)c->lim->total);
	return true;
}

/* unpacked bytes from packed ones: past the grace, at most the ratio. */
static bool ratio_ok(struct ctx *c, const char *what, uint64_t unpacked,
		     uint64_t packed)
{
	uint64_t bound;

	if (unpacked <= WARD_ARCHIVE_RATIO_GRACE)
		return true;
	if (!__builtin_mul_overflow(packed, (uint64_t)WARD_ARCHIVE_RATIO_MAX,
				    &bound) &&
	    unpacked > bound)
		return problem(
		    c, WARD_AP_BOMB, "%s: %llu bytes from %llu, past %d:1",
		    what, (unsigned long long)unpacked,
		    (unsigned long long)packed, WARD_ARCHIVE_RATIO_MAX);
	return true;
}

/* A Unix mode carried by an entry: regular files and directories only. */
static bool mode_ok(struct ctx *c, const uint8_t *name, size_t n, uint32_t mode)
{
	char b[52];

	switch (mode & S_IFMT) {
	case 0: /* no type given */
	case S_IFREG:
	case S_IFDIR:
		break;
	case S_IFLNK:
		return problem(c, WARD_AP_LINK, "`%s` is a symbolic link",
			       shown(name, n, b));
	default:
		return problem(c, WARD_AP_SPECIAL,
			       "`%s` is a device, FIFO or socket (mode %o)",
			       shown(name, n, b), (unsigned)mode);
	}
	if (mode & (S_ISUID | S_ISGID))
		return problem(c, WARD_AP_SPECIAL, "`%s` is setuid or setgid",
			       shown(name, n, b));
	return true;
}

/* ------------------------------------------------------------------ zip */

#define ZIP_LOCAL     0x04034b50u
#define ZIP_CENTRAL   0x02014b50u
#define ZIP_END	      0x06054b50u
#define ZIP_END64_LOC 0x07064b50u
#define ZIP_DESC      0x08074b50u
#define ZIP_END_SIZE  22

/* Where one entry lies, from its local header to the end of its data (and
 * data descriptor); and a digest of its name, to find a second entry of
 * the same name. */
struct zspan {
	uint64_t start, end;
	uint64_t name_hash;
};

static int cmp_start(const void *a, const void *b)
{
	const struct zspan *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_hash(const void *a, const void *b)
{
	const struct zspan *x = a, *y = b;
	return x->name_hash < y->name_hash ? -1 : x->name_hash > y->name_hash;
}

/* The extra fields of a header: the Info-ZIP Unicode Path (0x7075) is a
 * second name some readers prefer to the first, so it is judged too;
 * ZIP64 (0x0001) is not read here. */
static bool zip_extra(struct ctx *c, const uint8_t *x, size_t n,
		      const uint8_t *name, size_t nlen)
{
	char b[52];
	size_t i = 0;

	/* (fewer than 4 bytes left: padding, as zipalign leaves) */
	while (i + 4 <= n) {
		uint16_t id = ward_le16(x + i), len = ward_le16(x + i + 2);
		if (len > n - i - 4)
			return problem(c, WARD_AP_MALFORMED,
				       "`%s`: an extra field runs past its end",
				       shown(name, nlen, b));
		if (id == 0x0001)
			return problem(
			    c, WARD_AP_UNSUPPORTED,
			    "`%s`: ZIP64 (an entry of 4 GiB or more) "
			    "is not inspected",
			    shown(name, nlen, b));
		if (id == 0x7075 && len >= 5 &&
		    !path_ok(c, "the Unicode path of an entry", x + i + 9,
			     len - 5u))
			return false;
		i += 4u + len;
	}
	return true;
}

/* The end of central directory record: exactly one, ending the file. */
static bool zip_end(struct ctx *c, uint64_t *end_off, uint16_t *count,
		    uint32_t *cd_size, uint32_t *cd_off)
{
	size_t tail = c->size < ZIP_END_SIZE + 65535 ? (size_t)c->size
						     : ZIP_END_SIZE + 65535;
	_cleanup_free_ uint8_t *buf = NULL;
	size_t found = 0, seen = 0;

	if (c->size < ZIP_END_SIZE)
		return problem(c, WARD_AP_MALFORMED,
			       "shorter than a ZIP end record");
	if (!(buf = malloc(tail))) {
		c->err = ENOMEM;
		return false;
	}
	if (!read_at(c, c->size - tail, buf, tail, "the end record"))
		return false;
	for (size_t i = tail - ZIP_END_SIZE + 1; i-- > 0;)
		if (ward_le32(buf + i) == ZIP_END &&
		    i + ZIP_END_SIZE + ward_le16(buf + i + 20) == tail) {
			if (!seen++)
				found = i;
		}
	if (!seen)
		return problem(c, WARD_AP_MALFORMED,
			       "no end record at the end of the file");
	if (seen > 1)
		return problem(c, WARD_AP_MALFORMED,
			       "two end records: readers would disagree on "
			       "which holds");
	const uint8_t *e = buf + found;
	*end_off = c->size - tail + found;
	*count = ward_le16(e + 10);
	*cd_size = ward_le32(e + 12);
	*cd_off = ward_le32(e + 16);
	if (*count == 0xffff || *cd_size == 0xffffffffu ||
	    *cd_off == 0xffffffffu ||
	    (found >= 20 && ward_le32(e - 20) == ZIP_END64_LOC))
		return problem(c, WARD_AP_UNSUPPORTED,
			       "ZIP64 is not inspected");
	if (ward_le16(e + 4) || ward_le16(e + 6) || ward_le16(e + 8) != *count)
		return problem(c, WARD_AP_UNSUPPORTED, "a multi-disk archive");
	if ((uint64_t)*cd_off + *cd_size != *end_off)
		return problem(c, WARD_AP_MALFORMED,
			       "the central directory does not end where the "
			       "end record begins");
	if (*count > WARD_ARCHIVE_ENTRIES_MAX)
		return problem(c, WARD_AP_BOMB, "more than %d entries",
			       WARD_ARCHIVE_ENTRIES_MAX);
	return true;
}

/* One central directory entry (h: its 46 fixed bytes) against its local
 * header: the same name, method and sizes, or two readers would unpack
 * two different things. Fills the entry's span. */
static bool zip_local(struct ctx *c, const uint8_t *h, const uint8_t *name,
		      size_t nlen, uint64_t cd_off, struct zspan *span)
{
	uint16_t flags = ward_le16(h + 8), method = ward_le16(h + 10);
	uint32_t crc = ward_le32(h + 16), csize = ward_le32(h + 20),
		 usize = ward_le32(h + 24);
	uint64_t off = ward_le32(h + 42);
	uint8_t l[30], d[16];
	_cleanup_free_ uint8_t *lname = NULL, *lextra = NULL;
	char b[52];

	if (off + sizeof(l) > cd_off)
		return problem(c, WARD_AP_MALFORMED,
			       "`%s`: its local header is not before the "
			       "central directory",
			       shown(name, nlen, b));
	if (!read_at(c, off, l, sizeof(l), "a local header"))
		return false;
	uint16_t lnlen = ward_le16(l + 26), lxlen = ward_le16(l + 28);
	if (ward_le32(l) != ZIP_LOCAL)
		return problem(c, WARD_AP_MALFORMED,
			       "`%s`: no local header where the central "
			       "directory says",
			       shown(name, nlen, b));
	lname = malloc(lnlen + 1u);
	lextra = malloc(lxlen + 1u);
	if (!lname || !lextra) {
		c->err = ENOMEM;
		return false;
	}
	if (!read_at(c, off + 30, lname, lnlen, "a local header") ||
	    !read_at(c, off + 30 + lnlen, lextra, lxlen, "a local header"))
		return false;
	if (lnlen != nlen || memcmp(lname, name, nlen))
		return problem(c, WARD_AP_MALFORMED,
			       "`%s`: the local header names another file",
			       shown(name, nlen, b));
	if (ward_le16(l + 8) != method || ((ward_le16(l + 6) ^ flags) & 0x9))
		return problem(c, WARD_AP_MALFORMED,
			       "`%s`: the local header says another method "
			       "or flags",
			       shown(name, nlen, b));
	/* With a data descriptor (flag 3) the local fields may be 0. */
	for (int k = 0; k < 3; k++) {
		uint32_t v = ward_le32(l + 14 + 4 * k);
		uint32_t want = k == 0 ? crc : k == 1 ? csize : usize;
		if (v != want && !((flags & 0x8) && v == 0))
			return problem(c, WARD_AP_MALFORMED,
				       "`%s`: the local header gives other "
				       "sizes than the central directory",
				       shown(name, nlen, b));
	}
	if (!zip_extra(c, lextra, lxlen, name, nlen))
		return false;
	uint64_t end = off + 30 + lnlen + lxlen + (uint64_t)csize;
	if (end > cd_off)
		return problem(c, WARD_AP_MALFORMED,
			       "`%s`: its data runs into the central directory",
			       shown(name, nlen, b));
	if (flags & 0x8) {
		/* crc, sizes, with or without a signature in front */
		size_t n = cd_off - end < sizeof(d) ? (size_t)(cd_off - end)
						    : sizeof(d);
		if (!read_at(c, end, d, n, "a data descriptor"))
			return false;
		size_t skip = n >= 4 && ward_le32(d) == ZIP_DESC ? 4 : 0;
		if (n < skip + 12 || ward_le32(d + skip) != crc ||
		    ward_le32(d + skip + 4) != csize ||
		    ward_le32(d + skip + 8) != usize)
			return problem(c, WARD_AP_MALFORMED,
				       "`%s`: its data descriptor disagrees "
				       "with the central directory",
				       shown(name, nlen, b));
		end += skip + 12;
	}
	span->start = off;
	span->end = end;
	return true;
}

static bool zip_entry(struct ctx *c, const uint8_t *h, const uint8_t *name,
		      size_t nlen, const uint8_t *extra, size_t xlen,
		      uint64_t cd_off, struct zspan *span)
{
	uint16_t flags = ward_le16(h + 8), method = ward_le16(h + 10);
	uint32_t csize = ward_le32(h + 20), usize = ward_le32(h + 24);
	uint32_t mode = ward_le32(h + 38) >> 16;
	uint8_t digest[32];
	char b[52];

	if (flags & ((1u << 6) | (1u << 13)))
		return problem(c, WARD_AP_UNSUPPORTED,
			       "`%s`: strong encryption or a masked local "
			       "header",
			       shown(name, nlen, b));
	if (ward_le16(h + 34))
		return problem(c, WARD_AP_UNSUPPORTED, "a multi-disk archive");
	if (method == 0 && csize != usize)
		return problem(c, WARD_AP_MALFORMED,
			       "`%s`: stored, yet packed and unpacked sizes "
			       "differ",
			       shown(name, nlen, b));
	if (!path_ok(c, "an entry", name, nlen) ||
	    !zip_extra(c, extra, xlen, name, nlen) ||
	    /* the high half of the external attributes is a Unix mode
	     * (written by Unix hosts; 0 elsewhere): a reader that finds
	     * one makes a symlink or a device of it */
	    !mode_ok(c, name, nlen, mode) || !account(c, name, nlen, usize) ||
	    !ratio_ok(c, "an entry", usize, csize))
		return false;
	ward_sha256(name, nlen, digest);
	span->name_hash = ward_le64(digest);
	return zip_local(c, h, name, nlen, cd_off, span);
}

static bool zip_check(struct ctx *c)
{
	uint64_t end_off = 0, off;
	uint16_t count = 0;
	uint32_t cd_size = 0, cd_off = 0;
	_cleanup_free_ struct zspan *spans = NULL;
	_cleanup_free_ uint8_t *var = NULL;
	uint8_t h[46];

	if (!zip_end(c, &end_off, &count, &cd_size, &cd_off))
		return false;
	if (!(spans = calloc(count ? count : 1, sizeof(*spans))) ||
	    !(var = malloc(2 * 65536))) {
		c->err = ENOMEM;
		return false;
	}
	off = cd_off;
	for (uint16_t i = 0; i < count; i++) {
		if (!read_at(c, off, h, sizeof(h), "the central directory"))
			return false;
		if (ward_le32(h) != ZIP_CENTRAL)
			return problem(c, WARD_AP_MALFORMED,
				       "the central directory holds fewer "
				       "entries than the end record says");
		uint16_t nlen = ward_le16(h + 28), xlen = ward_le16(h + 30),
			 clen = ward_le16(h + 32);
		uint64_t next = off + sizeof(h) + nlen + xlen + clen;
		if (next > end_off)
			return problem(c, WARD_AP_MALFORMED,
				       "an entry runs past the central "
				       "directory");
		if (!read_at(c, off + sizeof(h), var, nlen + (size_t)xlen,
			     "the central directory") ||
		    !zip_entry(c, h, var, nlen, var + nlen, xlen, cd_off,
			       &spans[i]))
			return false;
		off = next;
	}
	if (off != end_off)
		return problem(c, WARD_AP_MALFORMED,
			       "the central directory holds more than the end "
			       "record says");
	/* Two entries of one name: which one lands depends on the reader. */
	qsort(spans, count, sizeof(*spans), cmp_hash);
	for (uint16_t i = 1; i < count; i++)
		if (spans[i].name_hash == spans[i - 1].name_hash)
			return problem(c, WARD_AP_MALFORMED,
				       "two entries of the same name");
	/* The entries tile the file up to the central directory: none
	 * overlaps another (the overlapping bomb), nothing hides between
	 * them (an entry a streaming reader would find and the central
	 * directory does not list), nothing is glued in front. */
	qsort(spans, count, sizeof(*spans), cmp_start);
	uint64_t at = 0;
	for (uint16_t i = 0; i < count; i++) {
		if (spans[i].start < at)
			return problem(c, WARD_AP_MALFORMED,
				       "two entries share their data");
		if (spans[i].start > at)
			return problem(
			    c, WARD_AP_MALFORMED,
			    "%llu bytes at offset %llu that no "
			    "entry owns",
			    (unsigned long long)(spans[i].start - at),
			    (unsigned long long)at);
		at = spans[i].end;
	}
	if (at != cd_off)
		return problem(c, WARD_AP_MALFORMED,
			       "%llu bytes before the central directory that "
			       "no entry owns",
			       (unsigned long long)(cd_off - at));
	return ratio_ok(c, "the archive", c->res->unpacked, c->size);
}

/* ------------------------------------------------------------------ tar */

/* A push parser: tar_feed() takes the stream in pieces of any size (the
 * file, or what a gzip inflates to), one 512-byte block at a time. */
struct tar {
	struct ctx *c;
	uint8_t blk[512];
	size_t have;
	enum { T_HEAD, T_DATA, T_META, T_END } st;
	uint64_t left;	   /* bytes of the member still to come (padded) */
	uint64_t want;	   /* T_META: the member's size, unpadded */
	char meta_type;	   /* 'L', 'K', 'x' or 'g' */
	uint8_t *meta;	   /* T_META: what was collected */
	size_t mlen;	   /* bytes of it */
	uint8_t *longname; /* from an 'L' member, for the next entry */
	size_t longlen;
	uint8_t *paxpath; /* from an 'x' member, for the next entry */
	size_t paxlen;
	bool paxsize_set, pending;
	uint64_t paxsize;
};

static void tar_free(struct tar *t)
{
	free(t->meta);
	free(t->longname);
	free(t->paxpath);
}

/* A numeric field: octal (spaces or NULs around it), or GNU base-256. */
static bool tar_number(const uint8_t *p, size_t n, uint64_t *v)
{
	size_t i = 0;

	*v = 0;
	if (p[0] & 0x80) {
		if (p[0] == 0xff)
			return false; /* negative */
		*v = p[0] & 0x7f;
		for (i = 1; i < n; i++) {
			if (*v > (UINT64_MAX >> 8))
				return false;
			*v = (*v << 8) | p[i];
		}
		return true;
	}
	while (i < n && (p[i] == ' ' || p[i] == '\0'))
		i++;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++) {
		if (*v > (UINT64_MAX >> 3))
			return false;
		*v = (*v << 3) | (uint64_t)(p[i] - '0');
	}
	for (; i < n; i++)
		if (p[i] != ' ' && p[i] != '\0')
			return false;
	return true;
}

static bool tar_header_sum_ok(const uint8_t *h)
{
	uint64_t stored;
	unsigned long u = 0;
	long s = 0;

	if (!tar_number(h + 148, 8, &stored))
		return false;
	for (int i = 0; i < 512; i++) {
		uint8_t b = i >= 148 && i < 156 ? ' ' : h[i];
		u += b;
		s += (signed char)b;
	}
	return stored == u || (long)stored == s;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* The records of a pax header: "LEN key=value\n". global: a 'g' header,
 * which applies to every entry after it. */
static bool tar_pax(struct tar *t, bool global)
{
	struct ctx *c = t->c;
	const uint8_t *m = t->meta;
	size_t i = 0;

	while (i < t->mlen) {
		uint64_t len = 0;
		size_t j = i;
		for (; j < t->mlen && m[j] >= '0' && m[j] <= '9'; j++)
			if ((len = len * 10 + (uint64_t)(m[j] - '0')) > t->mlen)
				break;
		if (j == i || j >= t->mlen || m[j] != ' ' ||
		    len > t->mlen - i || len < j - i + 3 ||
		    m[i + len - 1] != '\n')
			return problem(c, WARD_AP_MALFORMED,
				       "a pax header that cannot be read");
		const uint8_t *kv = m + j + 1;
		size_t kvlen = (size_t)(i + len - 1 - (j + 1));
		const uint8_t *eq = memchr(kv, '=', kvlen);
		if (!eq)
			return problem(c, WARD_AP_MALFORMED,
				       "a pax record without `=`");
		size_t klen = (size_t)(eq - kv), vlen = kvlen - klen - 1;
		const uint8_t *val = eq + 1;
#define KEY(s)	      (klen == sizeof(s) - 1 && !memcmp(kv, s, klen))
#define KEY_PREFIX(s) (klen >= sizeof(s) - 1 && !memcmp(kv, s, sizeof(s) - 1))
		if (KEY_PREFIX("GNU.sparse."))
			return problem(c, WARD_AP_UNSUPPORTED,
				       "a sparse file (its real size is not in "
				       "its header)");
		if (KEY_PREFIX("SCHILY.xattr.") ||
		    KEY_PREFIX("LIBARCHIVE.xattr."))
			return problem(c, WARD_AP_SPECIAL,
				       "an extended attribute (as "
				       "security.capability, it could give a "
				       "file privileges)");
		if (global && (KEY("path") || KEY("linkpath") || KEY("size")))
			return problem(c, WARD_AP_UNSUPPORTED,
				       "a global pax header that sets a path "
				       "or a size");
		if (KEY("path")) {
			free(t->paxpath);
			if (!(t->paxpath = malloc(vlen + 1))) {
				c->err = ENOMEM;
				return false;
			}
			memcpy(t->paxpath, val, vlen);
			t->paxlen = vlen;
		} else if (KEY("size")) {
			uint64_t v = 0;
			size_t k = 0;
			for (; k < vlen && val[k] >= '0' && val[k] <= '9'; k++)
				if (__builtin_mul_overflow(v, 10, &v) ||
				    __builtin_add_overflow(
					v, (uint64_t)(val[k] - '0'), &v))
					break;
			if (!vlen || k != vlen)
				return problem(c, WARD_AP_MALFORMED,
					       "a pax size that is not a "
					       "number");
			t->paxsize = v;
			t->paxsize_set = true;
		}
#undef KEY
#undef KEY_PREFIX
		i += (size_t)len;
	}
	return true;
}

/* The end of a long name or pax member. */
static bool tar_meta_done(struct tar *t)
{
	switch (t->meta_type) {
	case 'L':
		free(t->longname);
		t->longname = t->meta;
		t->longlen = strnlen((char *)t->meta, t->mlen);
		t->meta = NULL;
		break;
	case 'K': /* a long link name: links are refused anyway */
		break;
	case 'x':
	case 'g':
		if (!tar_pax(t, t->meta_type == 'g'))
			return false;
		break;
	}
	free(t->meta);
	t->meta = NULL;
	t->mlen = 0;
	t->pending = t->longname || t->paxpath || t->paxsize_set;
	return true;
}

static bool tar_header(struct tar *t, const uint8_t *h)
{
	struct ctx *c = t->c;
	uint64_t size, mode;
	uint8_t name[256 + 1];
	size_t nlen;
	char type = (char)h[156];
	/* POSIX ustar splits long names into a prefix; GNU tar keeps other
	 * fields there. */
	bool posix = !memcmp(h + 257, "ustar\00000", 8);

	if (!tar_header_sum_ok(h))
		return problem(c, WARD_AP_MALFORMED,
			       "a header whose checksum is wrong");
	if (!tar_number(h + 124, 12, &size) || !tar_number(h + 100, 8, &mode))
		return problem(c, WARD_AP_MALFORMED,
			       "a header with a size or mode that is not a "
			       "number");
	if (type == 'L' || type == 'K' || type == 'x' || type == 'g') {
		if (size > WARD_ARCHIVE_META_MAX)
			return problem(
			    c, WARD_AP_UNSUPPORTED,
			    "a long name or pax header of %llu bytes",
			    (unsigned long long)size);
		if (!(t->meta = malloc(size ? size : 1))) {
			c->err = ENOMEM;
			return false;
		}
		t->meta_type = type;
		t->want = size;
		t->mlen = 0;
		t->left = (size + 511) & ~(uint64_t)511;
		t->st = t->left ? T_META : T_HEAD;
		return t->left ? true : tar_meta_done(t);
	}

	/* A real entry. Its name, as each kind of reader sees it: the
	 * header's (with the ustar prefix), a GNU long name, a pax path.
	 * Each one is judged, whichever a reader prefers. */
	nlen = strnlen((const char *)h, 100);
	if (posix && h[345]) {
		size_t plen = strnlen((const char *)h + 345, 155);
		memcpy(name, h + 345, plen);
		name[plen] = '/';
		memcpy(name + plen + 1, h, nlen);
		nlen += plen + 1;
	} else {
		memcpy(name, h, nlen);
	}
	const uint8_t *shown_name = t->paxpath	  ? t->paxpath
				    : t->longname ? t->longname
						  : name;
	size_t shown_len = t->paxpath	 ? t->paxlen
			   : t->longname ? t->longlen
					 : nlen;
	if (!path_ok(c, "an entry", name, nlen) ||
	    (t->longname && !path_ok(c, "an entry", t->longname, t->longlen)) ||
	    (t->paxpath && !path_ok(c, "an entry", t->paxpath, t->paxlen)))
		return false;
	if (t->paxsize_set && t->paxsize != size)
		return problem(c, WARD_AP_UNSUPPORTED,
			       "a pax size that differs from the header's: "
			       "readers would disagree on where the next "
			       "entry starts");
	char b[52];
	switch (type) {
	case '0':
	case '\0':
	case '7': /* contiguous: a regular file */
		if (!mode_ok(c, shown_name, shown_len,
			     (uint32_t)(mode & 07777) | S_IFREG) ||
		    !account(c, shown_name, shown_len, size))
			return false;
		break;
	case '5':
		if (!mode_ok(c, shown_name, shown_len,
			     (uint32_t)(mode & 07777) | S_IFDIR) ||
		    !account(c, shown_name, shown_len, 0))
			return false;
		break;
	case '1':
		return problem(c, WARD_AP_LINK, "`%s` is a hard link",
			       shown(shown_name, shown_len, b));
	case '2':
		return problem(c, WARD_AP_LINK, "`%s` is a symbolic link",
			       shown(shown_name, shown_len, b));
	case '3':
	case '4':
	case '6':
		return problem(c, WARD_AP_SPECIAL, "`%s` is a device or a FIFO",
			       shown(shown_name, shown_len, b));
	case 'S':
		return problem(c, WARD_AP_UNSUPPORTED,
			       "`%s` is a sparse file (its real size is not "
			       "its size)",
			       shown(shown_name, shown_len, b));
	default:
		return problem(c, WARD_AP_UNSUPPORTED,
			       "`%s` has the entry type `%c`, not inspected",
			       shown(shown_name, shown_len, b),
			       type >= 0x20 && type < 0x7f ? type : '?');
	}
	free(t->longname);
	free(t->paxpath);
	t->longname = t->paxpath = NULL;
	t->paxsize_set = t->pending = false;
	t->left = (size + 511) & ~(uint64_t)511;
	t->st = t->left ? T_DATA : T_HEAD;
	return true;
}

static bool tar_block(struct tar *t, const uint8_t *b)
{
	if (t->st == T_END) {
		if (!all_zero(b, 512))
			return problem(
			    t->c, WARD_AP_MALFORMED,
			    "data after the end-of-archive mark (tar "
			    "--ignore-zeros would unpack it)");
		return true;
	}
	if (all_zero(b, 512)) {
		if (t->pending)
			return problem(t->c, WARD_AP_MALFORMED,
				       "a long name or pax header with no "
				       "entry after it");
		t->st = T_END;
		return true;
	}
	return tar_header(t, b);
}

static bool tar_feed(struct tar *t, const uint8_t *p, size_t n)
{
	while (n && !stopped(t->c)) {
		if (t->st == T_DATA || t->st == T_META) {
			size_t k = t->left < n ? (size_t)t->left : n;
			if (t->st == T_META && t->mlen < t->want) {
				size_t m = t->want - t->mlen < k
					       ? (size_t)(t->want - t->mlen)
					       : k;
				memcpy(t->meta + t->mlen, p, m);
				t->mlen += m;
			}
			p += k;
			n -= k;
			t->left -= k;
			if (!t->left) {
				bool meta = t->st == T_META;
				t->st = T_HEAD;
				if (meta && !tar_meta_done(t))
					return false;
			}
			continue;
		}
		size_t k = 512 - t->have < n ? 512 - t->have : n;
		memcpy(t->blk + t->have, p, k);
		t->have += k;
		p += k;
		n -= k;
		if (t->have == 512) {
			t->have = 0;
			if (!tar_block(t, t->blk))
				return false;
		}
	}
	return !stopped(t->c);
}

/* At the end of the stream. (Two zero blocks end an archive; a reader
 * that meets the end of the file at a header takes it as the end too.) */
static bool tar_end(struct tar *t)
{
	if (stopped(t->c))
		return false;
	if (t->st == T_DATA || t->st == T_META || t->have)
		return problem(t->c, WARD_AP_MALFORMED,
			       "cut short inside an entry");
	if (t->pending)
		return problem(t->c, WARD_AP_MALFORMED,
			       "a long name or pax header with no entry after "
			       "it");
	return true;
}

static bool tar_check(struct ctx *c)
{
	struct tar t = {.c = c};
	_cleanup_free_ uint8_t *buf = malloc(CHUNK);
	bool ok = true;

	if (!buf) {
		c->err = ENOMEM;
		return false;
	}
	for (uint64_t off = 0; ok && off < c->size;) {
		size_t n =
		    c->size - off < CHUNK ? (size_t)(c->size - off) : CHUNK;
		ok = read_at(c, off, buf, n, "the archive") &&
		     tar_feed(&t, buf, n);
		off += n;
	}
	ok = ok && tar_end(&t);
	tar_free(&t);
	return ok;
}

/* ----------------------------------------------------------------- gzip */

/* The file read in order, through a buffer that inflate reads too. */
struct seq {
	struct ctx *c;
	uint64_t off; /* of buf[len] in the file */
	uint8_t *buf;
	size_t pos, len;
};

/* Some bytes buffered; false at the end of the file (or on an error). */
static bool seq_fill(struct seq *s)
{
	if (s->pos < s->len)
		return true;
	if (s->off >= s->c->size)
		return false;
	size_t n =
	    s->c->size - s->off < CHUNK ? (size_t)(s->c->size - s->off) : CHUNK;
	if (!read_at(s->c, s->off, s->buf, n, "the file"))
		return false;
	s->off += n;
	s->pos = 0;
	s->len = n;
	return true;
}

/* The next byte, or -1 at the end of the file. */
static int seq_byte(struct seq *s)
{
	return seq_fill(s) ? s->buf[s->pos++] : -1;
}

static bool gz_bytes(struct seq *s, uint8_t *dst, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int b = seq_byte(s);
		if (b < 0)
			return stopped(s->c) ? false
					     : problem(s->c, WARD_AP_MALFORMED,
						       "cut short in a gzip "
						       "header or trailer");
		if (dst)
			dst[i] = (uint8_t)b;
	}
	return true;
}

/* A zero-terminated field of a gzip header: the stored name (which
 * `gunzip -N` gives the file it writes) is judged as a file name. */
static bool gz_string(struct seq *s, bool is_name)
{
	_cleanup_free_ uint8_t *v = malloc(WARD_ARCHIVE_META_MAX);
	size_t n = 0;
	int b;
	char sb[52];

	if (!v) {
		s->c->err = ENOMEM;
		return false;
	}
	while ((b = seq_byte(s)) > 0) {
		if (n == WARD_ARCHIVE_META_MAX - 1)
			return problem(s->c, WARD_AP_MALFORMED,
				       "a gzip header field longer than %d "
				       "bytes",
				       WARD_ARCHIVE_META_MAX);
		v[n++] = (uint8_t)b;
	}
	if (b < 0)
		return stopped(s->c) ? false
				     : problem(s->c, WARD_AP_MALFORMED,
					       "cut short in a gzip header");
	v[n] = '\0';
	if (!is_name)
		return true;
	const char *why = ward_name_problem((char *)v);
	if (why)
		return problem(s->c, WARD_AP_PATH,
			       "the stored name `%s` (gunzip -N writes it): %s",
			       shown(v, n, sb), why);
	return true;
}

static bool gz_head(struct seq *s)
{
	uint8_t h[10], x[2];

	if (!gz_bytes(s, h, sizeof(h)))
		return false;
	if (h[0] != 0x1f || h[1] != 0x8b || h[2] != 8)
		return problem(s->c, WARD_AP_MALFORMED,
			       "a gzip member that is not deflate");
	if (h[3] & 0xe0)
		return problem(s->c, WARD_AP_MALFORMED,
			       "reserved gzip flags set");
	if (h[3] & 0x04) { /* FEXTRA */
		if (!gz_bytes(s, x, 2) || !gz_bytes(s, NULL, ward_le16(x)))
			return false;
	}
	if ((h[3] & 0x08) && !gz_string(s, true)) /* FNAME */
		return false;
	if ((h[3] & 0x10) && !gz_string(s, false)) /* FCOMMENT */
		return false;
	return !(h[3] & 0x02) || gz_bytes(s, NULL, 2); /* FHCRC */
}

struct gz {
	struct ctx *c;
	struct tar tar;
	uint8_t head[512]; /* the first bytes out: a tar or not? */
	size_t hlen;
	int is_tar; /* -1 not known yet */
	uint64_t out;
};

/* What was inflated so far, within the caps: a tar unpacks to its entries
 * (each within per-file, all within the total: tar_header() checks those),
 * anything else to one file; the larger of the two while it is not known. */
static bool gz_cap(struct gz *g)
{
	const struct ward_archive_limits *l = g->c->lim;
	uint64_t cap = g->is_tar > 0		? l->total
		       : g->is_tar == 0		? l->per_file
		       : l->total > l->per_file ? l->total
						: l->per_file;

	if (g->out > cap)
		return problem(g->c, WARD_AP_BOMB,
			       "unpacks to more than %llu bytes, the rule's %s",
			       (unsigned long long)cap,
			       g->is_tar > 0 ? "total" : "per-file cap");
	return ratio_ok(g->c, "unpacked", g->out, g->c->size);
}

/* Bytes inflated: bounded, and fed to the tar parser when they are one. */
static bool gz_out(struct gz *g, const uint8_t *p, size_t n)
{
	g->out += n;
	if (g->is_tar < 0) {
		size_t k = sizeof(g->head) - g->hlen < n
			       ? sizeof(g->head) - g->hlen
			       : n;
		memcpy(g->head + g->hlen, p, k);
		g->hlen += k;
		p += k;
		n -= k;
		if (g->hlen == sizeof(g->head)) {
			g->is_tar = !all_zero(g->head, 512) &&
				    tar_header_sum_ok(g->head);
			if (g->is_tar && !tar_feed(&g->tar, g->head, g->hlen))
				return false;
		}
	}
	return gz_cap(g) && (g->is_tar <= 0 || tar_feed(&g->tar, p, n));
}

/* One member: header, deflate data, CRC and size. */
static bool gz_member(struct gz *g, struct seq *s, z_stream *z, uint8_t *out)
{
	struct ctx *c = g->c;
	uint32_t crc = (uint32_t)crc32(0, Z_NULL, 0);
	uint64_t mine = 0;
	uint8_t tr[8];
	int ret = Z_OK;

	if (!gz_head(s))
		return false;
	if (inflateReset(z) != Z_OK)
		return problem(c, WARD_AP_MALFORMED, "zlib: reset");
	while (ret != Z_STREAM_END) {
		/* (no input left is fine while inflate still has output) */
		bool have = seq_fill(s);
		if (!have && stopped(c))
			return false;
		z->next_in = s->buf + s->pos;
		z->avail_in = have ? (uInt)(s->len - s->pos) : 0;
		z->next_out = out;
		z->avail_out = CHUNK;
		ret = inflate(z, Z_NO_FLUSH);
		if (have)
			s->pos = s->len - z->avail_in;
		if (ret == Z_BUF_ERROR && !have)
			return problem(c, WARD_AP_MALFORMED,
				       "cut short in the compressed data");
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
			return problem(c, WARD_AP_MALFORMED,
				       "not valid deflate data (%.60s)",
				       z->msg ? z->msg : "zlib");
		size_t n = CHUNK - z->avail_out;
		crc = (uint32_t)crc32(crc, out, (uInt)n);
		mine += n;
		if (!gz_out(g, out, n))
			return false;
	}
	if (!gz_bytes(s, tr, sizeof(tr)))
		return false;
	if (ward_le32(tr) != crc)
		return problem(c, WARD_AP_MALFORMED,
			       "the CRC does not match the data");
	if (ward_le32(tr + 4) != (uint32_t)mine)
		return problem(c, WARD_AP_MALFORMED,
			       "the trailer's size is not what the data "
			       "unpacks to");
	return true;
}

static bool gz_check(struct ctx *c)
{
	struct gz g = {.c = c, .is_tar = -1};
	struct seq s = {.c = c};
	_cleanup_free_ uint8_t *out = malloc(CHUNK);
	z_stream z;
	uint8_t isize[4];
	bool ok;

	g.tar.c = c;
	s.buf = malloc(CHUNK);
	if (!out || !s.buf) {
		free(s.buf);
		c->err = ENOMEM;
		return false;
	}
	/* What the last member says it unpacks to (ISIZE, modulo 4 GiB):
	 * a claim, checked before any work, then measured below. */
	ok = c->size >= 18 ||
	     problem(c, WARD_AP_MALFORMED, "shorter than a gzip member");
	ok = ok && read_at(c, c->size - 4, isize, 4, "the trailer");
	if (ok && ward_le32(isize) > c->lim->per_file &&
	    ward_le32(isize) > c->lim->total)
		ok = problem(c, WARD_AP_BOMB,
			     "says it unpacks to %u bytes, past the rule's "
			     "caps",
			     ward_le32(isize));
	ok =
	    ok && ratio_ok(c, "its trailer (ISIZE)", ward_le32(isize), c->size);
	memset(&z, 0, sizeof(z));
	if (ok && inflateInit2(&z, -MAX_WBITS) != Z_OK) {
		c->err = ENOMEM;
		ok = false;
	}
	/* Members follow one another to the end of the file (gunzip reads
	 * them all, as one stream); anything else after one is refused. */
	while (ok) {
		ok = gz_member(&g, &s, &z, out);
		if (!ok || !seq_fill(&s))
			break;
		if (s.buf[s.pos] != 0x1f)
			ok = problem(c, WARD_AP_MALFORMED,
				     "bytes after the compressed data");
	}
	ok = ok && !stopped(c);
	if (ok && g.is_tar < 0) { /* under 512 bytes: not a tar */
		g.is_tar = 0;
		ok = gz_cap(&g);
	}
	if (ok && g.is_tar > 0)
		ok = tar_end(&g.tar);
	if (ok && !g.is_tar) { /* one file (a tar counted its entries) */
		c->res->entries = 1;
		c->res->unpacked = g.out;
	}
	inflateEnd(&z);
	tar_free(&g.tar);
	free(s.buf);
	return ok;
}

/* ---------------------------------------------------------------- entry */

int ward_archive_check(int fd, uint64_t size, uint32_t type,
		       const struct ward_archive_limits *lim,
		       struct ward_archive_result *res)
{
	struct ctx c = {.fd = fd, .size = size, .lim = lim, .res = res};

	memset(res, 0, sizeof(*res));
	if (type == WARD_EXPORT_T_ZIP)
		zip_check(&c);
	else if (type == WARD_EXPORT_T_TAR)
		tar_check(&c);
	else if (type == WARD_EXPORT_T_GZIP)
		gz_check(&c);
	if (c.err) {
		errno = c.err;
		return -1;
	}
	return 0;
}
