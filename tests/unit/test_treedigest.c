/* SPDX-License-Identifier: MIT */
/* Unit tests of the tree digest (common/treedigest.c, docs/spec.md 4.2):
 * the record encoding and its order against a digest computed here from
 * the spec's words, and that every field the spec lists (path, type, mode,
 * size, content, link target) changes the digest while a modification
 * time does not. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sha256.h"
#include "treedigest.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char top[64];

static void put(const char *rel, const char *data, mode_t mode)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, strlen(data)), (ssize_t)strlen(data));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static void dir(const char *rel, mode_t mode)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(chmod(p, mode), 0);
}

static void link_(const char *target, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	unlink(p);
	assert_int_equal(symlink(target, p), 0);
}

static void digest(bool normalise, char hex[65])
{
	struct ward_tree_digest d;
	ward_err err = {0};
	int fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(ward_tree_digest_dir(fd, normalise, &d, &err), 0);
	close(fd);
	ward_hex(d.sha256, 32, hex);
}

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/ward-treedigest.XXXXXX");
	assert_non_null(mkdtemp(top));
	/* "a-b" sorts before "a/x" ('-' < '/'), not after the directory's
	 * entries as a depth-first walk would put it. */
	put("a-b", "hello\n", 0644);
	dir("a", 0750);
	put("a/x", "", 0755);
	link_("../a-b", "l");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

static void add(struct ward_sha256 *h, const char *path, const char *type,
		const char *mode, const char *size, const char *content)
{
	const char *f[] = {path, type, mode, size, content};

	for (int i = 0; i < 5; i++)
		ward_sha256_update(h, f[i], strlen(f[i]) + 1);
}

/* The digest from the spec's words, computed here record by record. */
static void test_encoding(void **state)
{
	struct ward_sha256 h;
	uint8_t d[32];
	char want[65], got[65], sha_hello[65], sha_empty[65];

	(void)state;
	ward_sha256("hello\n", 6, d);
	ward_hex(d, 32, sha_hello);
	ward_sha256("", 0, d);
	ward_hex(d, 32, sha_empty);
	ward_sha256_init(&h);
	ward_sha256_update(&h, "ward-tree-1\n", 12);
	add(&h, "a", "dir", "0750", "0", "");
	add(&h, "a-b", "file", "0644", "6", sha_hello);
	add(&h, "a/x", "file", "0755", "0", sha_empty);
	add(&h, "l", "symlink", "0777", "6", "../a-b");
	ward_sha256_final(&h, d);
	ward_hex(d, 32, want);
	digest(false, got);
	assert_string_equal(got, want);
}

/* Each field changes the digest; the modification time does not. */
static void test_fields(void **state)
{
	char base[65], now[65], p[256];
	struct timespec ts[2] = {{1000, 0}, {1000, 0}};

	(void)state;
	digest(false, base);
	snprintf(p, sizeof(p), "%s/a-b", top);
	assert_int_equal(utimensat(AT_FDCWD, p, ts, 0), 0);
	digest(false, now);
	assert_string_equal(now, base);

	put("a-b", "hellO\n", 0644); /* content, same size */
	digest(false, now);
	assert_string_not_equal(now, base);
	put("a-b", "hello\n", 0644);
	digest(false, now);
	assert_string_equal(now, base);

	put("a-b", "hello\n", 0640); /* mode */
	digest(false, now);
	assert_string_not_equal(now, base);
	digest(true, now); /* ... but not a normalised one */
	put("a-b", "hello\n", 0644);
	digest(true, base);
	assert_string_equal(now, base);
	digest(false, base);

	link_("../a-c", "l"); /* link target */
	digest(false, now);
	assert_string_not_equal(now, base);
	link_("../a-b", "l");

	snprintf(p, sizeof(p), "%s/a/x", top); /* path */
	char q[256];
	snprintf(q, sizeof(q), "%s/a/y", top);
	assert_int_equal(rename(p, q), 0);
	digest(false, now);
	assert_string_not_equal(now, base);
	assert_int_equal(rename(q, p), 0);

	dir("e", 0755); /* an empty directory is an entry */
	digest(false, now);
	assert_string_not_equal(now, base);
	snprintf(p, sizeof(p), "%s/e", top);
	assert_int_equal(rmdir(p), 0);
	digest(false, now);
	assert_string_equal(now, base);
}

/* The records are in path order whatever order the directory lists
 * them in: names made in a shuffled order, the digest computed here in
 * sorted order. */
static void test_order(void **state)
{
	static const char order[] = "qwertyuiopasdfghjklzxcvbnm";
	struct ward_tree_digest d;
	struct ward_sha256 h;
	ward_err err = {0};
	uint8_t want[32], sha[32];
	char hex[65], p[256], name[2] = {0};
	int fd;

	(void)state;
	snprintf(p, sizeof(p), "%s/order", top);
	assert_int_equal(mkdir(p, 0755), 0);
	for (const char *c = order; *c; c++) {
		char rel[16];

		snprintf(rel, sizeof(rel), "order/%c", *c);
		name[0] = *c;
		put(rel, name, 0644);
	}
	ward_sha256_init(&h);
	ward_sha256_update(&h, "ward-tree-1\n", 12);
	for (char c = 'a'; c <= 'z'; c++) {
		name[0] = c;
		ward_sha256(name, 1, sha);
		ward_hex(sha, 32, hex);
		add(&h, name, "file", "0644", "1", hex);
	}
	ward_sha256_final(&h, want);
	fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(ward_tree_digest_dir(fd, false, &d, &err), 0);
	close(fd);
	assert_memory_equal(d.sha256, want, 32);
	assert_int_equal(d.entries, 26);
	for (char c = 'a'; c <= 'z'; c++) {
		snprintf(p, sizeof(p), "%s/order/%c", top, c);
		unlink(p);
	}
	snprintf(p, sizeof(p), "%s/order", top);
	rmdir(p);
}

/* A file input is a tree of that one file, under its own name. */
static void test_file_path(void **state)
{
	struct ward_tree_digest a, b;
	ward_err err = {0};
	char p[256];
	int fd;

	(void)state;
	snprintf(p, sizeof(p), "%s/a-b", top);
	assert_int_equal(ward_tree_digest_path(p, &a, &err), 0);
	char one[256];
	snprintf(one, sizeof(one), "%s/only", top);
	assert_int_equal(mkdir(one, 0755), 0);
	snprintf(p, sizeof(p), "%s/only/a-b", top);
	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600); /* normalised */
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hello\n", 6), 6);
	close(fd);
	assert_int_equal(ward_tree_digest_path(one, &b, &err), 0);
	assert_memory_equal(a.sha256, b.sha256, 32);
	assert_int_equal(b.entries, 1);
	assert_int_equal(b.bytes, 6);
	/* a symlink given as the input is not followed */
	snprintf(p, sizeof(p), "%s/l", top);
	assert_int_equal(ward_tree_digest_path(p, &b, &err), -1);
	snprintf(p, sizeof(p), "%s/only/a-b", top);
	unlink(p);
	rmdir(one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_encoding),
	    cmocka_unit_test(test_fields),
	    cmocka_unit_test(test_order),
	    cmocka_unit_test(test_file_path),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
