/* SPDX-License-Identifier: MIT */
/* Unit tests of reading the blob file (launcher/core/blobfile.c): who may have
 * written it, and the reviewed digest. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "blobfile.h"
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], file[128];
/* SHA-256 of "policy\n", as sha256sum prints it. */
static const char policy_sha[] =
    "c82fc52c78bf8154d4dd7d8766c422ab151052d72098d72ded237aafcd78e4e0";

static struct ward_priv me(void)
{
	return (struct ward_priv){.mode = geteuid() ? WARD_MODE_ROOTLESS
						    : WARD_MODE_ROOT,
				  .caller_uid = getuid(),
				  .caller_gid = getgid(),
				  .host_uid = 65534,
				  .host_gid = 65534};
}

static int setup(void **state)
{
	int fd;

	snprintf(dir, sizeof(dir), "/tmp/ward-blobfile-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	chmod(dir, 0755);
	snprintf(file, sizeof(file), "%s/p.wardb", dir);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || write(fd, "policy\n", 7) != 7)
		return -1;
	return close(fd);
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static int load(const char *path, const char *expect, ward_err *err)
{
	struct ward_priv p = me();
	uint8_t *buf = NULL, digest[32];
	size_t len = 0;
	int rc = ward_blobfile_load(path, &p, expect, &buf, &len, digest, err);

	if (rc == 0) {
		assert_int_equal(len, 7);
		assert_memory_equal(buf, "policy\n", 7);
	}
	free(buf);
	return rc;
}

static void reads(void **state)
{
	ward_err err = {0};

	assert_int_equal(load(file, "", &err), 0);
}

static void digest(void **state)
{
	uint8_t *buf = NULL, d[32];
	size_t len;
	struct ward_priv p = me();
	char hex[65], wrong[65];
	ward_err err = {0};

	assert_int_equal(ward_blobfile_load(file, &p, "", &buf, &len, d, &err),
			 0);
	free(buf);
	ward_hex(d, 32, hex);
	assert_string_equal(hex, policy_sha);
	/* The right digest passes; any other is refused, and the message
	 * shows both. */
	assert_int_equal(load(file, hex, &err), 0);
	memcpy(wrong, hex, sizeof(wrong));
	wrong[0] = wrong[0] == '0' ? '1' : '0';
	assert_int_equal(load(file, wrong, &err), -1);
	assert_non_null(strstr(err.msg, "digest mismatch"));
	assert_non_null(strstr(err.msg, hex));
	assert_non_null(strstr(err.msg, wrong));
}

static void untrusted(void **state)
{
	char sub[160], f2[200];
	ward_err err = {0};

	chmod(file, 0664);
	assert_int_equal(load(file, "", &err), -1);
	assert_non_null(strstr(err.msg, "writable by group or others"));
	chmod(file, 0646);
	assert_int_equal(load(file, "", &err), -1);
	chmod(file, 0644);

	if (geteuid() == 0) {
		assert_int_equal(chown(file, 4321, 0), 0);
		assert_int_equal(load(file, "", &err), -1);
		assert_non_null(strstr(err.msg, "owned by uid 4321"));
		/* In root mode, never a file of the sandbox's host uid. */
		assert_int_equal(chown(file, 65534, 0), 0);
		assert_int_equal(load(file, "", &err), -1);
		assert_int_equal(chown(file, 0, 0), 0);
	}

	/* A directory anyone can write to (and not sticky) could have had
	 * the file replaced. */
	snprintf(sub, sizeof(sub), "%s/open", dir);
	mkdir(sub, 0777);
	chmod(sub, 0777);
	snprintf(f2, sizeof(f2), "%s/p.wardb", sub);
	assert_int_equal(link(file, f2), 0);
	assert_int_equal(load(f2, "", &err), -1);
	assert_non_null(strstr(err.msg, "the policy's directory"));
	chmod(sub, 01777); /* sticky: others cannot replace it */
	assert_int_equal(load(f2, "", &err), 0);

	assert_int_equal(load(dir, "", &err), -1);
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_int_equal(load("/nonexistent/p.wardb", "", &err), -1);
	assert_int_equal(err.code, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(reads),
	    cmocka_unit_test(digest),
	    cmocka_unit_test(untrusted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
