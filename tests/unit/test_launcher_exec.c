/* SPDX-License-Identifier: MIT */
/* Unit tests of the target's environment and program lookup
 * (launcher/core/exec.c). */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void env_exact(void **state)
{
	static const struct ward_env_var vars[] = {
	    {"PATH", "/usr/bin"}, {"HOME", NULL},      {"MISSING", NULL},
	    {"EMPTY", ""},	  {"LANG", "C.UTF-8"},
	};
	struct ward_policy p = {.env = vars, .nenv = 5};
	char *caller[] = {"HOME=/home/me", "SECRET=1", "PATH=/caller",
			  "HOMEX=no", NULL};
	ward_err err = {0};
	char **env = ward_build_env(&p, caller, &err);

	assert_non_null(env);
	assert_string_equal(env[0], "PATH=/usr/bin");
	assert_string_equal(env[1], "HOME=/home/me");
	assert_string_equal(env[2], "EMPTY=");
	assert_string_equal(env[3], "LANG=C.UTF-8");
	assert_null(env[4]);
	assert_string_equal(ward_env_get(env, "PATH"), "/usr/bin");
	assert_string_equal(ward_env_get(env, "EMPTY"), "");
	assert_null(ward_env_get(env, "PAT"));
	assert_null(ward_env_get(env, "SECRET"));
	free(env);
}

static void env_empty(void **state)
{
	struct ward_policy p = {0};
	ward_err err = {0};
	char **env = ward_build_env(&p, NULL, &err);

	assert_non_null(env);
	assert_null(env[0]);
	free(env);
}

/* A directory with an executable "run", a non-executable "data" and a
 * directory "dir". */
static char dir[64];

static int setup(void **state)
{
	char p[128];
	int fd;

	snprintf(dir, sizeof(dir), "/tmp/ward-exec-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(p, sizeof(p), "%s/run", dir);
	fd = open(p, O_CREAT | O_WRONLY, 0755);
	close(fd);
	snprintf(p, sizeof(p), "%s/data", dir);
	fd = open(p, O_CREAT | O_WRONLY, 0644);
	close(fd);
	snprintf(p, sizeof(p), "%s/dir", dir);
	mkdir(p, 0755);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void find(void **state)
{
	char out[256], path[256], want[128];
	ward_err err = {0};

	snprintf(path, sizeof(path), "/nonexistent:%s/dir:%s", dir, dir);
	assert_int_equal(ward_find_program("run", path, out, sizeof(out), &err),
			 0);
	snprintf(want, sizeof(want), "%s/run", dir);
	assert_string_equal(out, want);

	/* Root may execute anything with an x bit; as anyone, "data" has
	 * none. */
	assert_int_equal(
	    ward_find_program("data", path, out, sizeof(out), &err), -1);
	assert_int_equal(err.code, EACCES);
	assert_int_equal(
	    ward_find_program("nope", path, out, sizeof(out), &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_non_null(strstr(err.msg, "not found inside the sandbox (its PATH is"));
	/* A directory is not a program. */
	snprintf(path, sizeof(path), "%s", dir);
	assert_int_equal(ward_find_program("dir", path, out, sizeof(out), &err),
			 -1);
	assert_int_equal(err.code, ENOENT);
}

static void find_special(void **state)
{
	char out[16];
	ward_err err = {0};

	/* With a slash, as is, looked at by execve itself. */
	assert_int_equal(
	    ward_find_program("./x/y", "/bin", out, sizeof(out), &err), 0);
	assert_string_equal(out, "./x/y");
	assert_int_equal(ward_find_program("/a/b/c/d/e/f/g/h/i", NULL, out,
					   sizeof(out), &err),
			 -1);
	assert_int_equal(err.code, ENAMETOOLONG);
	/* No PATH: only absolute names. */
	assert_int_equal(ward_find_program("sh", NULL, out, sizeof(out), &err),
			 -1);
	assert_int_equal(err.code, ENOENT);
	assert_non_null(strstr(err.msg, "sets no PATH"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(env_exact),
	    cmocka_unit_test(env_empty),
	    cmocka_unit_test(find),
	    cmocka_unit_test(find_special),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
