/* SPDX-License-Identifier: MIT */
/* Unit tests of the archive inspection (launcher/unprivileged/export_archive.c)
 * and the CSV formula scan (launcher/unprivileged/export_csv.c): archives
 * crafted here byte by byte (zip, ustar, gzip through zlib), each attack
 * beside a control that differs from it only in what is attacked; and
 * every valid archive flipped bit by bit, which must be judged without a
 * sanitizer's complaint. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "blob.h"
#include "export_archive.h"
#include "export_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define MIB (1024u * 1024u)

/* ------------------------------------------------------------ buffers */

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	if (n)
		memcpy(b->p + b->n, d, n);
	b->n += n;
}

static void put16(struct buf *b, uint32_t v)
{
	uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
	put(b, x, 2);
}

static void put32(struct buf *b, uint32_t v)
{
	uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			(uint8_t)(v >> 24)};
	put(b, x, 4);
}

static void set32(struct buf *b, size_t off, uint32_t v)
{
	b->p[off] = (uint8_t)v;
	b->p[off + 1] = (uint8_t)(v >> 8);
	b->p[off + 2] = (uint8_t)(v >> 16);
	b->p[off + 3] = (uint8_t)(v >> 24);
}

/* Raw deflate of n bytes (zlib, level 9). */
static struct buf deflate_raw(const void *d, size_t n)
{
	struct buf out = {0};
	z_stream z = {0};

	assert_int_equal(
	    deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY),
	    Z_OK);
	out.cap = deflateBound(&z, n) + 16;
	out.p = malloc(out.cap);
	z.next_in = (Bytef *)d;
	z.avail_in = (uInt)n;
	z.next_out = out.p;
	z.avail_out = (uInt)out.cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	out.n = out.cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

/* The check, on a file holding b. */
static struct ward_archive_result check(const struct buf *b, uint32_t type,
					uint64_t per_file, uint64_t total)
{
	char path[] = "/tmp/ward-archive.XXXXXX";
	int fd = mkstemp(path);
	struct ward_archive_limits lim = {per_file, total};
	struct ward_archive_result r;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, b->p, b->n), (ssize_t)b->n);
	assert_int_equal(ward_archive_check(fd, b->n, type, &lim, &r), 0);
	close(fd);
	return r;
}

#define EXPECT(res, want, words)                                               \
	do {                                                                   \
		struct ward_archive_result r_ = (res);                         \
		if (r_.problem != (want) || !strstr(r_.detail, (words)))       \
			fail_msg("got problem %d \"%s\", want %d \"%s\"",      \
				 r_.problem, r_.detail, (want), (words));      \
	} while (0)

/* Every bit of b flipped in turn: judged, whatever the verdict, within
 * the sanitizers' view. */
static void flip_every_bit(const struct buf *b, uint32_t type)
{
	struct buf c = {0};

	put(&c, b->p, b->n);
	for (size_t i = 0; i < b->n; i++)
		for (int k = 0; k < 8; k++) {
			c.p[i] ^= (uint8_t)(1u << k);
			(void)check(&c, type, 5 * MIB, 40 * MIB);
			c.p[i] ^= (uint8_t)(1u << k);
		}
	free(c.p);
}

/* ---------------------------------------------------------------- zip */

struct zfile {
	const char *name;
	const void *data;
	size_t n;
	uint32_t mode;	   /* Unix mode for the external attributes; 0 none */
	bool deflate;	   /* method 8, else stored */
	bool descriptor;   /* flag 3: sizes after the data */
	uint32_t usize;	   /* declared unpacked size, 0: the real one */
	const char *upath; /* an Info-ZIP Unicode Path extra field */
};

static struct buf zip(const struct zfile *f, size_t n, size_t prefix)
{
	struct buf z = {0}, cd = {0};
	uint32_t offs[16];

	assert_true(n <= 16);
	for (size_t i = 0; i < prefix; i++)
		put(&z, "J", 1);
	for (size_t i = 0; i < n; i++) {
		struct buf packed = {0};
		uint32_t crc = (uint32_t)crc32(0, f[i].data, (uInt)f[i].n);
		uint32_t usize = f[i].usize ? f[i].usize : (uint32_t)f[i].n;
		uint16_t flags = f[i].descriptor ? 0x8 : 0;
		struct buf extra = {0};
		if (f[i].deflate)
			packed = deflate_raw(f[i].data, f[i].n);
		else
			put(&packed, f[i].data, f[i].n);
		if (f[i].upath) {
			put16(&extra, 0x7075);
			put16(&extra, 5 + (uint32_t)strlen(f[i].upath));
			put(&extra, "\x01", 1);
			put32(&extra,
			      (uint32_t)crc32(0, (const Bytef *)f[i].name,
					      (uInt)strlen(f[i].name)));
			put(&extra, f[i].upath, strlen(f[i].upath));
		}
		offs[i] = (uint32_t)z.n;
		put32(&z, 0x04034b50);
		put16(&z, 20);
		put16(&z, flags);
		put16(&z, f[i].deflate ? 8 : 0);
		put32(&z, 0);
		put32(&z, f[i].descriptor ? 0 : crc);
		put32(&z, f[i].descriptor ? 0 : (uint32_t)packed.n);
		put32(&z, f[i].descriptor ? 0 : usize);
		put16(&z, (uint32_t)strlen(f[i].name));
		put16(&z, (uint32_t)extra.n);
		put(&z, f[i].name, strlen(f[i].name));
		put(&z, extra.p, extra.n);
		put(&z, packed.p, packed.n);
		if (f[i].descriptor) {
			put32(&z, 0x08074b50);
			put32(&z, crc);
			put32(&z, (uint32_t)packed.n);
			put32(&z, usize);
		}
		put32(&cd, 0x02014b50);
		put16(&cd, (3u << 8) | 20);
		put16(&cd, 20);
		put16(&cd, flags);
		put16(&cd, f[i].deflate ? 8 : 0);
		put32(&cd, 0);
		put32(&cd, crc);
		put32(&cd, (uint32_t)packed.n);
		put32(&cd, usize);
		put16(&cd, (uint32_t)strlen(f[i].name));
		put16(&cd, (uint32_t)extra.n);
		put16(&cd, 0);
		put16(&cd, 0);
		put16(&cd, 0);
		put32(&cd, f[i].mode << 16);
		put32(&cd, offs[i]);
		put(&cd, f[i].name, strlen(f[i].name));
		put(&cd, extra.p, extra.n);
		free(packed.p);
		free(extra.p);
	}
	uint32_t cd_off = (uint32_t)z.n;
	put(&z, cd.p, cd.n);
	put32(&z, 0x06054b50);
	put16(&z, 0);
	put16(&z, 0);
	put16(&z, (uint32_t)n);
	put16(&z, (uint32_t)n);
	put32(&z, (uint32_t)cd.n);
	put32(&z, cd_off);
	put16(&z, 0);
	free(cd.p);
	return z;
}

#define ZIP1(...)                                                              \
	({                                                                     \
		struct zfile f_[] = {__VA_ARGS__};                             \
		zip(f_, sizeof(f_) / sizeof(f_[0]), 0);                        \
	})

static const char hello[] = "hello, world\n";

static void zip_good(void **state)
{
	(void)state;
	struct buf z =
	    ZIP1({.name = "results/", .mode = S_IFDIR | 0755},
		 {.name = "results/data.csv",
		  .data = hello,
		  .n = 13,
		  .mode = S_IFREG | 0644},
		 {.name = "./notes.txt", .data = hello, .n = 13, .deflate = 1},
		 {.name = "word/document.xml",
		  .data = hello,
		  .n = 13,
		  .deflate = 1,
		  .descriptor = 1});
	struct ward_archive_result r = check(&z, WARD_EXPORT_T_ZIP, MIB, MIB);
	assert_int_equal(r.problem, WARD_AP_NONE);
	assert_int_equal(r.entries, 4);
	assert_int_equal(r.unpacked, 3 * 13);
	flip_every_bit(&z, WARD_EXPORT_T_ZIP);
	free(z.p);

	struct buf empty = zip(NULL, 0, 0);
	EXPECT(check(&empty, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_NONE, "");
	free(empty.p);
}

/* The attack the issue saw exported, and its kin. */
static void zip_paths(void **state)
{
	(void)state;
	static const struct {
		const char *name, *words;
	} bad[] = {
	    {"../../../../etc/cron.d/evil", "a `..` component"},
	    {"a/../../b", "a `..` component"},
	    {"/etc/passwd", "an absolute path"},
	    {"..\\..\\evil.bat", "a backslash"},
	    {"C:evil", "a drive letter"},
	    {"a//b", "an empty component"},
	    {"x/\x1b]0;pwned\x07", "control character"},
	    {"evil\xe2\x80\xae"
	     "txt.exe",
	     "bidirectional"},
	    {"-rf", "starts with `-`"},
	    {"\xff\xfe", "not valid UTF-8"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct buf z =
		    ZIP1({.name = bad[i].name, .data = hello, .n = 13});
		EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_PATH,
		       bad[i].words);
		free(z.p);
	}
	/* a second name, which Info-ZIP's unzip prefers when it is there */
	struct buf z = ZIP1({.name = "safe.txt",
			     .data = hello,
			     .n = 13,
			     .upath = "../../evil"});
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_PATH,
	       "the Unicode path of an entry `../../evil`");
	free(z.p);
	z = ZIP1({.name = "safe.txt",
		  .data = hello,
		  .n = 13,
		  .upath = "also-safe.txt"});
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_NONE, "");
	free(z.p);
}

static void zip_types(void **state)
{
	(void)state;
	static const struct {
		uint32_t mode;
		enum ward_archive_problem p;
		const char *words;
	} cases[] = {
	    {S_IFLNK | 0777, WARD_AP_LINK, "symbolic link"},
	    {S_IFCHR | 0666, WARD_AP_SPECIAL, "device, FIFO or socket"},
	    {S_IFBLK | 0600, WARD_AP_SPECIAL, "device"},
	    {S_IFIFO | 0644, WARD_AP_SPECIAL, "FIFO"},
	    {S_IFSOCK | 0644, WARD_AP_SPECIAL, "socket"},
	    {S_IFREG | 04755, WARD_AP_SPECIAL, "setuid"},
	    {S_IFREG | 02755, WARD_AP_SPECIAL, "setgid"},
	    {S_IFREG | 0755, WARD_AP_NONE, ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf z = ZIP1({.name = "x",
				     .data = "/etc/passwd",
				     .n = 11,
				     .mode = cases[i].mode});
		EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), cases[i].p,
		       cases[i].words);
		free(z.p);
	}
}

static void zip_bombs(void **state)
{
	(void)state;
	uint8_t *zeros = calloc(1, 10 * MIB);
	struct buf z;

	/* 10 MiB of zeros deflate to about 10 KB: past the per-file cap... */
	z = ZIP1(
	    {.name = "zeros.bin", .data = zeros, .n = 10 * MIB, .deflate = 1});
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, 5 * MIB, 40 * MIB), WARD_AP_BOMB,
	       "past the per-file cap");
	/* ...and, under caps it fits, past 100:1 */
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, 1024 * MIB, 1024 * MIB),
	       WARD_AP_BOMB, "past 100:1");
	free(z.p);
	/* a small entry may compress as it likes (the grace) */
	z = ZIP1({.name = "zeros.bin",
		  .data = zeros,
		  .n = 100 * 1024,
		  .deflate = 1});
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, 5 * MIB, 40 * MIB), WARD_AP_NONE,
	       "");
	free(z.p);
	/* a lie: 13 bytes declared as 4 GiB - 1 */
	z = ZIP1({.name = "x",
		  .data = hello,
		  .n = 13,
		  .deflate = 1,
		  .usize = 0xfffffffe});
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, 5 * MIB, 40 * MIB), WARD_AP_BOMB,
	       "unpacks to 4294967294 bytes");
	free(z.p);
	/* each entry within per-file, all of them past the total */
	z = ZIP1({.name = "a", .data = zeros, .n = 2 * MIB},
		 {.name = "b", .data = zeros, .n = 2 * MIB});
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, 2 * MIB, 3 * MIB), WARD_AP_BOMB,
	       "the rule's total");
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, 2 * MIB, 4 * MIB), WARD_AP_NONE,
	       "");
	free(z.p);
	free(zeros);
}

/* What two readers could read two ways. */
static void zip_structure(void **state)
{
	(void)state;
	struct zfile two[] = {{.name = "a.txt", .data = hello, .n = 13},
			      {.name = "b.txt", .data = hello, .n = 13}};
	struct buf z;

	/* glued after something (a polyglot, a self-extractor) */
	z = zip(two, 2, 16);
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_MALFORMED,
	       "no entry owns");
	free(z.p);
	/* something glued after it */
	z = zip(two, 2, 0);
	put(&z, "trailing", 8);
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_MALFORMED,
	       "no end record at the end");
	free(z.p);
	/* cut short */
	z = zip(two, 2, 0);
	z.n /= 2;
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_MALFORMED, "");
	free(z.p);
	/* the local header names another file than the central directory */
	z = zip(two, 2, 0);
	z.p[30] = 'x'; /* a.txt -> x.txt in the first local header */
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_MALFORMED,
	       "the local header names another file");
	free(z.p);
	/* overlapping entries: a's data made to cover b (sizes in both
	 * headers), as the overlapping-files bomb does */
	z = zip(two, 2, 0);
	uint32_t cover = 13 + 30 + 5 + 13;
	set32(&z, 18, cover);
	set32(&z, 22, cover);
	size_t cd = z.n - 22 - 2 * (46 + 5);
	set32(&z, cd + 20, cover);
	set32(&z, cd + 24, cover);
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_MALFORMED,
	       "share their data");
	free(z.p);
	/* one name twice */
	struct zfile dup[] = {{.name = "a.txt", .data = hello, .n = 13},
			      {.name = "a.txt", .data = "evil\n", .n = 5}};
	z = zip(dup, 2, 0);
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_MALFORMED,
	       "two entries of the same name");
	free(z.p);
	/* ZIP64 is not read here */
	z = zip(two, 2, 0);
	z.p[z.n - 22 + 8] = z.p[z.n - 22 + 9] = 0xff;
	z.p[z.n - 22 + 10] = z.p[z.n - 22 + 11] = 0xff;
	EXPECT(check(&z, WARD_EXPORT_T_ZIP, MIB, MIB), WARD_AP_UNSUPPORTED,
	       "ZIP64");
	free(z.p);
}

/* ---------------------------------------------------------------- tar */

static void octal(uint8_t *f, size_t n, uint64_t v)
{
	/* n - 1 digits and a NUL, as tar writes them */
	f[n - 1] = '\0';
	for (size_t i = n - 1; i-- > 0; v >>= 3)
		f[i] = (uint8_t)('0' + (v & 7));
}

/* One ustar header (POSIX magic) and its data, padded. */
static void tar_put(struct buf *b, const char *name, char type, uint32_t mode,
		    const void *data, size_t n, const char *prefix)
{
	uint8_t h[512] = {0};
	unsigned sum = 0;

	memcpy(h, name, strlen(name) < 100 ? strlen(name) : 100);
	octal(h + 100, 8, mode);
	octal(h + 108, 8, 0);
	octal(h + 116, 8, 0);
	octal(h + 124, 12, n);
	octal(h + 136, 12, 0);
	h[156] = (uint8_t)type;
	memcpy(h + 257,
	       "ustar\0"
	       "00",
	       8);
	if (prefix)
		memcpy(h + 345, prefix, strlen(prefix));
	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	put(b, h, 512);
	put(b, data, n);
	static const uint8_t pad[512];
	put(b, pad, (512 - n % 512) % 512);
}

static void tar_close(struct buf *b)
{
	static const uint8_t zero[1024];
	put(b, zero, sizeof(zero));
}

static struct buf pax(const char *records)
{
	struct buf b = {0};
	tar_put(&b, "PaxHeaders/x", 'x', 0644, records, strlen(records), NULL);
	return b;
}

static void tar_good(void **state)
{
	(void)state;
	struct buf t = {0};

	tar_put(&t, "results/", '5', 0755, NULL, 0, NULL);
	tar_put(&t, "results/data.csv", '0', 0644, hello, 13, NULL);
	tar_put(&t, "data.csv", '0', 0644, hello, 13, "./deep/er");
	tar_close(&t);
	struct ward_archive_result r = check(&t, WARD_EXPORT_T_TAR, MIB, MIB);
	assert_int_equal(r.problem, WARD_AP_NONE);
	assert_int_equal(r.entries, 3);
	assert_int_equal(r.unpacked, 26);
	/* (the first 1.5 KiB: three headers and data) */
	struct buf head = {0};
	put(&head, t.p, 1536);
	tar_close(&head);
	flip_every_bit(&head, WARD_EXPORT_T_TAR);
	free(head.p);
	free(t.p);
}

static void tar_attacks(void **state)
{
	(void)state;
	static const struct {
		const char *name, *prefix;
		char type;
		uint32_t mode;
		enum ward_archive_problem p;
		const char *words;
	} cases[] = {
	    {"../../../../etc/cron.d/evil", NULL, '0', 0644, WARD_AP_PATH,
	     "`..`"},
	    {"/etc/passwd", NULL, '0', 0644, WARD_AP_PATH, "absolute"},
	    {"x", "a/../..", '0', 0644, WARD_AP_PATH, "`..`"},
	    {"passwd", NULL, '2', 0777, WARD_AP_LINK, "symbolic link"},
	    {"shadow", NULL, '1', 0644, WARD_AP_LINK, "hard link"},
	    {"null", NULL, '3', 0666, WARD_AP_SPECIAL, "device"},
	    {"disk", NULL, '4', 0600, WARD_AP_SPECIAL, "device"},
	    {"fifo", NULL, '6', 0644, WARD_AP_SPECIAL, "FIFO"},
	    {"sh", NULL, '0', 04755, WARD_AP_SPECIAL, "setuid"},
	    {"sparse", NULL, 'S', 0644, WARD_AP_UNSUPPORTED, "sparse"},
	    {"vol", NULL, 'V', 0644, WARD_AP_UNSUPPORTED, "entry type `V`"},
	    {"fine", NULL, '0', 0644, WARD_AP_NONE, ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf t = {0};
		tar_put(&t, cases[i].name, cases[i].type, cases[i].mode, hello,
			cases[i].type == '0' ? 13 : 0, cases[i].prefix);
		tar_close(&t);
		EXPECT(check(&t, WARD_EXPORT_T_TAR, MIB, MIB), cases[i].p,
		       cases[i].words);
		free(t.p);
	}
}

static void tar_long_names_and_pax(void **state)
{
	(void)state;
	struct buf t = {0};

	/* a GNU long name */
	const char *up = "../../../../home/user/.bashrc";
	tar_put(&t, "././@LongLink", 'L', 0644, up, strlen(up) + 1, NULL);
	tar_put(&t, "harmless", '0', 0644, hello, 13, NULL);
	tar_close(&t);
	EXPECT(check(&t, WARD_EXPORT_T_TAR, MIB, MIB), WARD_AP_PATH,
	       "../../../../home/user/.bashrc");
	free(t.p);

	static const struct {
		const char *records;
		enum ward_archive_problem p;
		const char *words;
	} cases[] = {
	    {"25 path=../../etc/passwd\n", WARD_AP_PATH, "`..`"},
	    {"20 path=a-long-name\n", WARD_AP_NONE, ""},
	    {"53 SCHILY.xattr.security.capability=0123456789abcdef\n",
	     WARD_AP_SPECIAL, "extended attribute"},
	    {"11 size=99\n", WARD_AP_UNSUPPORTED, "differs from the header"},
	    {"29 GNU.sparse.realsize=99999\n", WARD_AP_UNSUPPORTED, "sparse"},
	    {"21 path=a-long-nam\n", WARD_AP_MALFORMED, "cannot be read"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = pax(cases[i].records);
		tar_put(&t, "harmless", '0', 0644, hello, 13, NULL);
		tar_close(&t);
		EXPECT(check(&t, WARD_EXPORT_T_TAR, MIB, MIB), cases[i].p,
		       cases[i].words);
		free(t.p);
	}
	/* a global header that would rename every entry after it */
	t = (struct buf){0};
	tar_put(&t, "g", 'g', 0644, "25 path=../../etc/passwd\n", 25, NULL);
	tar_put(&t, "harmless", '0', 0644, hello, 13, NULL);
	tar_close(&t);
	EXPECT(check(&t, WARD_EXPORT_T_TAR, MIB, MIB), WARD_AP_UNSUPPORTED,
	       "global pax header");
	free(t.p);
}

static void tar_structure(void **state)
{
	(void)state;
	struct buf t = {0};

	/* an entry after the end mark: tar --ignore-zeros unpacks it */
	tar_put(&t, "fine", '0', 0644, hello, 13, NULL);
	tar_close(&t);
	tar_put(&t, "../evil", '0', 0644, hello, 13, NULL);
	EXPECT(check(&t, WARD_EXPORT_T_TAR, MIB, MIB), WARD_AP_MALFORMED,
	       "after the end-of-archive mark");
	free(t.p);
	/* a checksum that does not hold */
	t = (struct buf){0};
	tar_put(&t, "fine", '0', 0644, hello, 13, NULL);
	t.p[0] = 'F';
	tar_close(&t);
	EXPECT(check(&t, WARD_EXPORT_T_TAR, MIB, MIB), WARD_AP_MALFORMED,
	       "checksum");
	free(t.p);
	/* cut inside the data */
	t = (struct buf){0};
	tar_put(&t, "fine", '0', 0644, hello, 13, NULL);
	t.n = 520;
	EXPECT(check(&t, WARD_EXPORT_T_TAR, MIB, MIB), WARD_AP_MALFORMED,
	       "cut short");
	free(t.p);
	/* (the end of the file at a header ends the archive too) */
	t = (struct buf){0};
	tar_put(&t, "fine", '0', 0644, hello, 13, NULL);
	EXPECT(check(&t, WARD_EXPORT_T_TAR, MIB, MIB), WARD_AP_NONE, "");
	free(t.p);
}

/* --------------------------------------------------------------- gzip */

/* One gzip member of d (a stored name if fname), crc and size right
 * unless isize is given. */
static void gz_put(struct buf *b, const void *d, size_t n, const char *fname,
		   const uint32_t *isize)
{
	struct buf raw = deflate_raw(d, n);
	uint8_t h[10] = {0x1f, 0x8b, 8, fname ? 0x08 : 0, 0, 0, 0, 0, 2, 3};

	put(b, h, sizeof(h));
	if (fname)
		put(b, fname, strlen(fname) + 1);
	put(b, raw.p, raw.n);
	put32(b, (uint32_t)crc32(0, d, (uInt)n));
	put32(b, isize ? *isize : (uint32_t)n);
	free(raw.p);
}

static void gzip_good(void **state)
{
	(void)state;
	struct buf g = {0};

	gz_put(&g, "a,b\n1,2\n", 8, "data.csv", NULL);
	struct ward_archive_result r = check(&g, WARD_EXPORT_T_GZIP, MIB, MIB);
	assert_int_equal(r.problem, WARD_AP_NONE);
	assert_int_equal(r.unpacked, 8);
	flip_every_bit(&g, WARD_EXPORT_T_GZIP);
	/* two members are one stream (gunzip concatenates them) */
	gz_put(&g, hello, 13, NULL, NULL);
	r = check(&g, WARD_EXPORT_T_GZIP, MIB, MIB);
	assert_int_equal(r.problem, WARD_AP_NONE);
	assert_int_equal(r.unpacked, 8 + 13);
	free(g.p);
}

static void gzip_bombs(void **state)
{
	(void)state;
	uint8_t *zeros = calloc(1, 10 * MIB), *noise = malloc(10 * MIB);
	struct buf g = {0};
	uint32_t small = 100, x = 12345;

	/* (noise does not compress: the caps, not the ratio, stop it) */
	for (size_t i = 0; i < 10 * MIB; i++)
		noise[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 24);

	/* what it says it unpacks to, checked before any work */
	gz_put(&g, zeros, 10 * MIB, NULL, NULL);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, 5 * MIB, 5 * MIB), WARD_AP_BOMB,
	       "says it unpacks to 10485760 bytes");
	/* past 100:1 under caps it fits */
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, 1024 * MIB, 1024 * MIB),
	       WARD_AP_BOMB, "past 100:1");
	free(g.p);
	/* a lying trailer: measured, and stopped at the cap... */
	g = (struct buf){0};
	gz_put(&g, noise, 10 * MIB, NULL, &small);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, 5 * MIB, 5 * MIB), WARD_AP_BOMB,
	       "unpacks to more than 5242880 bytes");
	free(g.p);
	/* ...or at the ratio */
	g = (struct buf){0};
	gz_put(&g, zeros, 10 * MIB, NULL, &small);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, 1024 * MIB, 1024 * MIB),
	       WARD_AP_BOMB, "past 100:1");
	free(g.p);
	/* the bomb in a first member, an innocent last one (whose size is
	 * the only one the trailer at the end of the file gives) */
	g = (struct buf){0};
	gz_put(&g, noise, 10 * MIB, NULL, NULL);
	gz_put(&g, hello, 13, NULL, NULL);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, 5 * MIB, 5 * MIB), WARD_AP_BOMB,
	       "unpacks to more than");
	free(g.p);
	free(noise);
	free(zeros);
}

static void gzip_structure(void **state)
{
	(void)state;
	struct buf g = {0};

	gz_put(&g, hello, 13, "../../.bashrc", NULL);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, MIB, MIB), WARD_AP_PATH,
	       "the stored name");
	free(g.p);
	g = (struct buf){0};
	gz_put(&g, hello, 13, NULL, NULL);
	g.p[g.n - 8] ^= 1;
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, MIB, MIB), WARD_AP_MALFORMED,
	       "CRC");
	g.p[g.n - 8] ^= 1;
	put(&g, "junk", 4); /* (and 4 bytes that read as a small size) */
	put32(&g, 13);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, MIB, MIB), WARD_AP_MALFORMED,
	       "after the compressed data");
	/* the trailer cut to its last 4 bytes (which still read as a size) */
	g.n -= 8 + 8;
	put32(&g, 13);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, MIB, MIB), WARD_AP_MALFORMED,
	       "cut short");
	free(g.p);
}

/* A .tar.gz: its entries are judged as a tar's. */
static void tgz(void **state)
{
	(void)state;
	struct buf t = {0}, g = {0};

	tar_put(&t, "fine.txt", '0', 0644, hello, 13, NULL);
	tar_put(&t, "../../../../etc/cron.d/evil", '0', 0644, hello, 13, NULL);
	tar_close(&t);
	gz_put(&g, t.p, t.n, NULL, NULL);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, MIB, MIB), WARD_AP_PATH,
	       "../../../../etc/cron.d/evil");
	free(g.p);
	free(t.p);

	t = (struct buf){0};
	g = (struct buf){0};
	tar_put(&t, "link", '2', 0777, NULL, 0, NULL);
	tar_close(&t);
	gz_put(&g, t.p, t.n, NULL, NULL);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, MIB, MIB), WARD_AP_LINK,
	       "symbolic link");
	free(g.p);
	free(t.p);

	/* control: the same without the attack; a tar unpacks within the
	 * total, each entry within per-file */
	t = (struct buf){0};
	g = (struct buf){0};
	tar_put(&t, "fine.txt", '0', 0644, hello, 13, NULL);
	tar_put(&t, "more.txt", '0', 0644, hello, 13, NULL);
	tar_close(&t);
	gz_put(&g, t.p, t.n, NULL, NULL);
	struct ward_archive_result r = check(&g, WARD_EXPORT_T_GZIP, 100, MIB);
	assert_int_equal(r.problem, WARD_AP_NONE);
	assert_int_equal(r.entries, 2);
	EXPECT(check(&g, WARD_EXPORT_T_GZIP, 100, 1000), WARD_AP_BOMB,
	       "unpacks to");
	free(g.p);
	free(t.p);
}

/* ---------------------------------------------------------------- csv */

static struct ward_csv_scan scan(const char *text, bool tsv, size_t split)
{
	struct ward_csv_scan s;
	size_t n = strlen(text);

	if (split > n)
		split = n;
	ward_csv_init(&s, tsv);
	ward_csv_feed(&s, (const uint8_t *)text, split);
	ward_csv_feed(&s, (const uint8_t *)text + split, n - split);
	ward_csv_done(&s);
	return s;
}

static void csv_formulas(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		uint64_t want, row, col;
		char trigger;
	} cases[] = {
	    {"name,total\nalice,=1+1\n", 1, 2, 2, '='},
	    {"a,b\n\"=HYPERLINK(\"\"http://x\"\")\",2\n", 1, 2, 1, '='},
	    {"a;@SUM(A1:A9)\n", 1, 1, 2, '@'},
	    {"a, =cmd|' /C calc'!A0\n", 1, 1, 2, '='},
	    {"a,\t=1\n", 1, 1, 2, '='},
	    {"a,\tplain\n", 1, 1, 2, '\t'},
	    {"x,+1+cmd\n", 1, 1, 2, '+'},
	    {"x,-2+3\n", 1, 1, 2, '-'},
	    {"\xef\xbb\xbf=1+1,a\n", 1, 1, 1, '='},
	    {"\"multi\nline\",\"=x\"\r\nnext,=y\n", 2, 1, 2, '='},
	    /* not formulas: numbers, a dash, an escaped cell, quoted text */
	    {"a,b\n-3,+1.5e3\n-20%,-\n'=1,\"a=b\"\n", 0, 0, 0, 0},
	    {"", 0, 0, 0, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t k = 0; k <= strlen(cases[i].text); k++) {
			struct ward_csv_scan s = scan(cases[i].text, false, k);
			if (s.formulas != cases[i].want ||
			    s.first_row != cases[i].row ||
			    s.first_col != cases[i].col ||
			    s.first_trigger != cases[i].trigger)
				fail_msg(
				    "case %zu split %zu: %llu at %llu,%llu", i,
				    k, (unsigned long long)s.formulas,
				    (unsigned long long)s.first_row,
				    (unsigned long long)s.first_col);
		}
	/* a .tsv: only tabs separate */
	struct ward_csv_scan s = scan("a,=b\tc\n", true, 0);
	assert_int_equal(s.formulas, 0);
	s = scan("a,b\t=c\n", true, 3);
	assert_int_equal(s.formulas, 1);
	assert_int_equal(s.first_col, 2);
	bool tsv;
	assert_true(ward_csv_name("Data.CSV", &tsv) && !tsv);
	assert_true(ward_csv_name("t.tsv", &tsv) && tsv);
	assert_false(ward_csv_name("notes.txt", &tsv));
	assert_false(ward_csv_name(".csv", &tsv));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(zip_good),
	    cmocka_unit_test(zip_paths),
	    cmocka_unit_test(zip_types),
	    cmocka_unit_test(zip_bombs),
	    cmocka_unit_test(zip_structure),
	    cmocka_unit_test(tar_good),
	    cmocka_unit_test(tar_attacks),
	    cmocka_unit_test(tar_long_names_and_pax),
	    cmocka_unit_test(tar_structure),
	    cmocka_unit_test(gzip_good),
	    cmocka_unit_test(gzip_bombs),
	    cmocka_unit_test(gzip_structure),
	    cmocka_unit_test(tgz),
	    cmocka_unit_test(csv_formulas),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
