/* SPDX-License-Identifier: MIT */
/* Unit tests of the privilege mode, the id maps and the explanation of
 * hosts without unprivileged user namespaces (launcher/core/privilege.c). */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "privilege.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char p[128];

	snprintf(dir, sizeof(dir), "/tmp/ward-sysctl-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(p, sizeof(p), "%s/kernel", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/user", dir);
	mkdir(p, 0755);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void explain(void **state)
{
	char buf[400];

	/* Nothing known is set (or the files are absent). */
	assert_string_equal(ward_userns_explain(dir, buf, sizeof(buf)), "");
	put("kernel/unprivileged_userns_clone", "1\n");
	put("user/max_user_namespaces", "15000\n");
	put("kernel/apparmor_restrict_unprivileged_userns", "0\n");
	assert_string_equal(ward_userns_explain(dir, buf, sizeof(buf)), "");

	put("kernel/apparmor_restrict_unprivileged_userns", "1\n");
	ward_userns_explain(dir, buf, sizeof(buf));
	assert_non_null(
	    strstr(buf, "kernel.apparmor_restrict_unprivileged_userns = 1"));
	assert_non_null(strstr(buf, "`userns,`"));

	put("user/max_user_namespaces", "0\n");
	ward_userns_explain(dir, buf, sizeof(buf));
	assert_non_null(strstr(buf, "user.max_user_namespaces = 0"));

	put("kernel/unprivileged_userns_clone", "0\n");
	ward_userns_explain(dir, buf, sizeof(buf));
	assert_non_null(strstr(buf, "kernel.unprivileged_userns_clone = 0"));
	assert_non_null(
	    strstr(buf, "sysctl kernel.unprivileged_userns_clone=1"));
}

static void detect(void **state)
{
	struct ward_priv p;
	ward_err err = {0};

	if (geteuid() != 0) {
		assert_int_equal(ward_priv_detect(&p, -1, -1, &err), 0);
		assert_int_equal(p.mode, WARD_MODE_ROOTLESS);
		assert_int_equal(p.host_uid, getuid());
		assert_int_equal(
		    ward_priv_detect(&p, (int64_t)getuid() + 1, -1, &err), -1);
		skip();
	}
	assert_int_equal(ward_priv_detect(&p, -1, -1, &err), 0);
	assert_int_equal(p.mode, WARD_MODE_ROOT);
	assert_string_equal(ward_mode_name(p.mode), "root");
	assert_int_equal(p.caller_uid, 0);
	assert_int_equal(p.host_uid, 65534);
	assert_int_equal(p.host_gid, 65534);
	assert_int_equal(ward_priv_detect(&p, 4242, 4243, &err), 0);
	assert_int_equal(p.host_uid, 4242);
	assert_int_equal(p.host_gid, 4243);
	assert_int_equal(ward_priv_detect(&p, 0, -1, &err), -1);
	assert_non_null(strstr(err.msg, "never host root"));
	assert_int_equal(ward_priv_detect(&p, -1, 0, &err), -1);
}

/* A child in a new user namespace gets exactly the one uid and gid. */
static void maps(void **state)
{
	struct ward_priv p = {
	    .mode = WARD_MODE_ROOT, .host_uid = 4242, .host_gid = 4243};
	int go[2], ready[2], status;
	ward_err err = {0};
	pid_t pid;
	char c;

	if (geteuid() != 0)
		skip();
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	if (pid == 0) {
		char buf[128] = "";
		int fd;

		if (unshare(CLONE_NEWUSER) < 0)
			_exit(10);
		write(ready[1], "r", 1);
		if (read(go[0], &c, 1) != 1)
			_exit(11);
		fd = open("/proc/self/uid_map", O_RDONLY);
		read(fd, buf, sizeof(buf) - 1);
		if (!strstr(buf, "1000       4242          1"))
			_exit(12);
		/* The child is host root, unmapped here, until it becomes
		 * the one mapped user. */
		if (getuid() != 65534 || setresgid(1001, 1001, 1001) ||
		    setresuid(1000, 1000, 1000) || getuid() != 1000 ||
		    getgid() != 1001)
			_exit(13);
		fd = open("/proc/self/setgroups", O_RDONLY);
		memset(buf, 0, sizeof(buf));
		read(fd, buf, sizeof(buf) - 1);
		_exit(strcmp(buf, "deny\n") ? 14 : 0);
	}
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(ward_priv_write_maps(&p, pid, 1000, 1001, &err), 0);
	write(go[1], "g", 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* A process that is gone has no maps to write. */
	assert_int_equal(ward_priv_write_maps(&p, pid, 1000, 1001, &err), -1);
	assert_int_equal(err.code, ENOENT);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

/* Root mode's per-run ids: concurrent runs never share one, a lock given
 * up (a run's end, or ward's death: its descriptor closed by the kernel)
 * frees it, and a lock file that is not root's alone is refused. */
static void run_ids(void **state)
{
	struct ward_priv a = {.mode = WARD_MODE_ROOT},
			 b = {.mode = WARD_MODE_ROOT};
	char path[] = "/tmp/ward-runids.XXXXXX", file[64];
	int fa = -1, fb = -1, held[64];
	uid_t ids[64];
	ward_err err = {0};

	if (geteuid() != 0) {
		skip();
		return;
	}
	assert_non_null(mkdtemp(path));
	snprintf(file, sizeof(file), "%s/run-ids", path);
	assert_int_equal(ward_priv_run_ids(&a, file, &fa, &err), 0);
	assert_true(a.run_ids);
	assert_true(a.host_uid >= WARD_RUN_ID_FIRST &&
		    a.host_uid < WARD_RUN_ID_FIRST + WARD_RUN_ID_COUNT);
	assert_int_equal(a.host_uid, a.host_gid);
	/* many at once: all different */
	for (int i = 0; i < 64; i++) {
		struct ward_priv p = {.mode = WARD_MODE_ROOT};

		assert_int_equal(ward_priv_run_ids(&p, file, &held[i], &err),
				 0);
		ids[i] = p.host_uid;
		assert_int_not_equal(ids[i], a.host_uid);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(ids[j], ids[i]);
	}
	/* held, an id's byte is locked for everyone else; given up (the
	 * descriptor closed, as the kernel does when ward dies), it is
	 * free again */
	for (int i = 1; i < 64; i++)
		close(held[i]);
	close(fa);
	fa = -1;
	for (int i = 0; i < 2; i++) {
		int probe = open(file, O_RDWR | O_CLOEXEC);
		struct flock fl = {.l_type = F_WRLCK,
				   .l_whence = SEEK_SET,
				   .l_start =
				       (off_t)(ids[i] - WARD_RUN_ID_FIRST),
				   .l_len = 1};

		assert_true(probe >= 0);
		assert_int_equal(fcntl(probe, F_OFD_GETLK, &fl), 0);
		assert_int_equal(fl.l_type, i == 0 ? F_WRLCK : F_UNLCK);
		close(probe);
	}
	/* rootless: nothing taken */
	b.mode = WARD_MODE_ROOTLESS;
	assert_int_equal(ward_priv_run_ids(&b, file, &fb, &err), 0);
	assert_false(b.run_ids);
	assert_int_equal(fb, -1);
	close(held[0]);
	/* a lock file others may write is refused */
	assert_int_equal(chmod(file, 0666), 0);
	b.mode = WARD_MODE_ROOT;
	assert_int_equal(ward_priv_run_ids(&b, file, &fb, &err), -1);
	assert_non_null(strstr(err.msg, "0600"));
	unlink(file);
	rmdir(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(explain),
	    cmocka_unit_test(detect),
	    cmocka_unit_test(maps),
	    cmocka_unit_test(run_ids),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
