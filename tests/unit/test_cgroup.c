/* SPDX-License-Identifier: MIT */
/* Unit tests of the run's cgroups (launcher/cgroup*.c): detection from
 * mountinfo and /proc/self/cgroup, the plan (bases, refusals), the v2 and
 * v1 limit writers against a fake cgroupfs directory (file names and
 * values), the counters, the kill helpers, stale-run detection, and, when
 * run as root on a host with a v1 memory hierarchy, a real v1 run: create,
 * limits read back from the kernel, a process moved in, killed, removed. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmp[64];

static int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "/tmp/ward-cgtest-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void get_file(int dirfd, const char *name, char *buf, size_t len)
{
	int fd = openat(dirfd, name, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, len - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
}

static void mkdirs(const char *path)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	assert_int_equal(system(cmd), 0);
}

/* A hybrid host like the one these tests were written on: v1 controllers
 * (cpu and cpuacct apart, memory in a nested cgroup), cgroup2 without
 * controllers; mounted under tmp. */
static void fake_hybrid(char *mi, char *cg, size_t len)
{
	char path[256], text[2048];

	snprintf(path, sizeof(path), "%s/unified", tmp);
	mkdirs(path);
	put_file(path, "cgroup.controllers", "hugetlb\n");
	snprintf(text, sizeof(text),
		 "30 22 0:27 / %s rw,relatime - tmpfs tmpfs rw,mode=755\n"
		 "31 30 0:28 / %s/cpu rw,relatime - cgroup cgroup rw,cpu\n"
		 "32 30 0:29 / %s/cpuacct rw,relatime - cgroup cgroup "
		 "rw,cpuacct\n"
		 "34 30 0:31 / %s/memory rw,relatime - cgroup cgroup "
		 "rw,memory\n"
		 "36 30 0:33 / %s/freezer rw,relatime - cgroup cgroup "
		 "rw,freezer\n"
		 "38 30 0:35 / %s/pids rw,relatime - cgroup cgroup rw,pids\n"
		 "39 30 0:36 / %s/systemd rw,relatime - cgroup cgroup "
		 "rw,name=systemd\n"
		 "40 30 0:37 / %s/unified rw,relatime - cgroup2 cgroup2 rw\n"
		 "41 22 0:40 / /proc rw - proc proc rw\n",
		 tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp);
	put_file(tmp, "mountinfo", text);
	put_file(tmp, "cgroup",
		 "9:name=systemd:/\n8:pids:/\n6:freezer:/\n"
		 "4:memory:/process_api/abc\n2:cpuacct:/\n1:cpu:/\n0::/\n");
	snprintf(mi, len, "%s/mountinfo", tmp);
	snprintf(cg, len, "%s/cgroup", tmp);
}

static void detect_hybrid(void **state)
{
	struct ward_cg_host h;
	char mi[128], cg[128], want[256];
	ward_err err = {0};

	fake_hybrid(mi, cg, sizeof(mi));
	assert_int_equal(ward_cg_detect(mi, cg, &h, &err), 0);
	assert_int_equal(h.nhier, 6);
	for (int c = 0; c < WARD_CG_NCTRL; c++) {
		const struct ward_cg_hier *x = &h.hier[h.where[c]];

		assert_true(h.where[c] >= 0);
		assert_int_equal(x->version, 1);
		snprintf(want, sizeof(want), "%s/%s", tmp,
			 ward_cg_ctrl_name(c));
		assert_string_equal(x->mnt, want);
		assert_string_equal(
		    x->own, c == WARD_CG_MEMORY ? "/process_api/abc" : "/");
	}
	assert_true(h.v2 >= 0);
	assert_int_equal(h.hier[h.v2].version, 2);
	assert_int_equal(h.hier[h.v2].ctrls, 0); /* hugetlb is not ours */
	assert_string_equal(h.hier[h.v2].own, "/");
}

static void detect_pure_v2(void **state)
{
	struct ward_cg_host h;
	char path[256], text[512];
	ward_err err = {0};

	/* A mount point with a space (\040), our cgroup in a scope. */
	snprintf(path, sizeof(path), "%s/cg two", tmp);
	mkdirs(path);
	put_file(path, "cgroup.controllers", "cpuset cpu io memory pids\n");
	snprintf(text, sizeof(text),
		 "25 1 0:22 / %s/cg\\040two rw shared:4 - cgroup2 cgroup2 "
		 "rw,nsdelegate\n",
		 tmp);
	put_file(tmp, "mountinfo", text);
	put_file(tmp, "cgroup", "0::/user.slice/run-1.scope\n");
	snprintf(path, sizeof(path), "%s/mountinfo", tmp);
	snprintf(text, sizeof(text), "%s/cgroup", tmp);
	assert_int_equal(ward_cg_detect(path, text, &h, &err), 0);
	assert_int_equal(h.nhier, 1);
	assert_int_equal(h.v2, 0);
	assert_int_equal(h.where[WARD_CG_MEMORY], 0);
	assert_int_equal(h.where[WARD_CG_PIDS], 0);
	assert_int_equal(h.where[WARD_CG_CPU], 0);
	assert_int_equal(h.where[WARD_CG_CPUACCT], -1);
	assert_int_equal(h.where[WARD_CG_FREEZER], -1);
	snprintf(path, sizeof(path), "%s/cg two", tmp);
	assert_string_equal(h.hier[0].mnt, path);
	assert_string_equal(h.hier[0].own, "/user.slice/run-1.scope");
}

/* Pure cgroup2, root mode: the launcher's scope holds processes, so the
 * base is ward's own directory below the root, whose controllers it
 * enables; the run's directory is a leaf. */
static void plan_create_pure_v2(void **state)
{
	struct ward_cg_host h;
	struct ward_cgroup cg;
	struct ward_cg_request rq = {.need = WARD_CG_BIT(WARD_CG_MEMORY) |
					     WARD_CG_BIT(WARD_CG_PIDS) |
					     WARD_CG_BIT(WARD_CG_CPU),
				     .mode = WARD_MODE_ROOT};
	char mi[256], cgf[256], path[512], buf[64];
	ward_err err = {0};
	int fd;

	snprintf(path, sizeof(path), "%s/v2", tmp);
	mkdirs(path);
	put_file(path, "cgroup.controllers", "cpu io memory pids\n");
	put_file(path, "cgroup.subtree_control", "cpu memory pids\n");
	snprintf(mi, sizeof(mi), "25 1 0:22 / %s/v2 rw - cgroup2 cgroup2 rw\n",
		 tmp);
	put_file(tmp, "mountinfo", mi);
	put_file(tmp, "cgroup", "0::/user.slice/session-1.scope\n");
	snprintf(mi, sizeof(mi), "%s/mountinfo", tmp);
	snprintf(cgf, sizeof(cgf), "%s/cgroup", tmp);
	assert_int_equal(ward_cg_detect(mi, cgf, &h, &err), 0);
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	assert_int_equal(cg.ndirs, 1);
	assert_int_equal(cg.v2, 0);
	assert_int_equal(cg.by_ctrl[WARD_CG_MEMORY], 0);
	assert_int_equal(cg.by_ctrl[WARD_CG_CPU], 0);
	assert_string_equal(cg.dir[0].base, "/ward");

	/* ward's base, as the kernel would show it */
	snprintf(path, sizeof(path), "%s/v2/ward", tmp);
	mkdirs(path);
	put_file(path, "cgroup.subtree_control", "");
	assert_int_equal(ward_cg_create(&cg, &err), 0);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	get_file(fd, "cgroup.subtree_control", buf, sizeof(buf));
	assert_string_equal(buf, "+cpu"); /* the last of +memory +pids +cpu */
	close(fd);
	assert_true(cg.dir[0].fd >= 0);
	assert_int_equal(access(cg.dir[0].path, F_OK), 0);
	ward_cg_close(&cg);
	rmdir(cg.dir[0].path);

	/* The root that does not give memory to its children: refused with
	 * how to enable it; nothing written there. */
	put_file(tmp, "v2/cgroup.subtree_control", "cpu pids\n");
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	assert_int_equal(ward_cg_create(&cg, &err), -1);
	assert_non_null(strstr(err.msg, "cgroup.subtree_control"));
	snprintf(path, sizeof(path), "%s/v2", tmp);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	get_file(fd, "cgroup.subtree_control", buf, sizeof(buf));
	assert_string_equal(buf, "cpu pids\n");
	close(fd);
	assert_int_equal(access(cg.dir[0].path, F_OK), -1);

	/* A scope that already gives its children the controllers: the
	 * base is below it. */
	snprintf(path, sizeof(path), "%s/v2/user.slice/session-1.scope", tmp);
	mkdirs(path);
	put_file(path, "cgroup.subtree_control", "cpu memory pids\n");
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	assert_string_equal(cg.dir[0].base, "/user.slice/session-1.scope/ward");
}

/* Rootless on cgroup2, in a delegated scope (systemd-run --user --scope
 * -p Delegate=yes): ward, alone in it, moves into a leaf and gives the
 * controllers to its base; with another process there it refuses. */
static void rootless_delegated_v2(void **state)
{
	struct ward_cg_host h;
	struct ward_cgroup cg;
	struct ward_cg_request rq = {.need = WARD_CG_BIT(WARD_CG_MEMORY) |
					     WARD_CG_BIT(WARD_CG_PIDS),
				     .mode = WARD_MODE_ROOTLESS,
				     .uid = 1000};
	char mi[256], cgf[256], scope[512], path[600], buf[64], me[32];
	ward_err err = {0};
	int fd;

	snprintf(scope, sizeof(scope), "%s/v2/user.slice/app.scope", tmp);
	snprintf(path, sizeof(path), "%s/supervisor", scope);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/ward", scope);
	mkdirs(path);
	put_file(path, "cgroup.subtree_control", "");
	snprintf(path, sizeof(path), "%s/supervisor", scope);
	put_file(path, "cgroup.procs", "");
	snprintf(path, sizeof(path), "%s/v2", tmp);
	put_file(path, "cgroup.controllers", "cpu memory pids\n");
	put_file(path, "cgroup.subtree_control", "cpu memory pids\n");
	snprintf(path, sizeof(path), "%s/v2/user.slice", tmp);
	put_file(path, "cgroup.subtree_control", "memory pids\n");
	snprintf(me, sizeof(me), "%d\n", (int)getpid());
	put_file(scope, "cgroup.procs", me);
	put_file(scope, "cgroup.subtree_control", "");
	snprintf(mi, sizeof(mi), "25 1 0:22 / %s/v2 rw - cgroup2 cgroup2 rw\n",
		 tmp);
	put_file(tmp, "mountinfo", mi);
	put_file(tmp, "cgroup", "0::/user.slice/app.scope\n");
	snprintf(mi, sizeof(mi), "%s/mountinfo", tmp);
	snprintf(cgf, sizeof(cgf), "%s/cgroup", tmp);
	assert_int_equal(ward_cg_detect(mi, cgf, &h, &err), 0);
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	assert_string_equal(cg.dir[0].base, "/user.slice/app.scope/ward");
	assert_true(cg.dir[0].selfmove);
	if (ward_cg_create(&cg, &err) < 0)
		fail_msg("create: %s", err.msg);
	/* ward went to the leaf, the scope gives its children the
	 * controllers (pids is the last written), the base too */
	snprintf(path, sizeof(path), "%s/supervisor", scope);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	get_file(fd, "cgroup.procs", buf, sizeof(buf));
	assert_string_equal(buf, me);
	close(fd);
	fd = open(scope, O_RDONLY | O_DIRECTORY);
	get_file(fd, "cgroup.subtree_control", buf, sizeof(buf));
	assert_string_equal(buf, "+pids");
	close(fd);
	assert_int_equal(access(cg.dir[0].path, F_OK), 0);
	ward_cg_close(&cg);
	rmdir(cg.dir[0].path);

	/* with its courier, forked before the run's cgroups exist: the
	 * courier moves into the leaf too (the last pid written there) */
	put_file(scope, "cgroup.subtree_control", "");
	snprintf(buf, sizeof(buf), "%d\n4242\n", (int)getpid());
	put_file(scope, "cgroup.procs", buf);
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	cg.courier = 4242;
	if (ward_cg_create(&cg, &err) < 0)
		fail_msg("create with the courier: %s", err.msg);
	snprintf(path, sizeof(path), "%s/supervisor", scope);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	get_file(fd, "cgroup.procs", buf, sizeof(buf));
	assert_string_equal(buf, "4242\n");
	close(fd);
	ward_cg_close(&cg);
	rmdir(cg.dir[0].path);

	/* another process in the scope: no controllers can be given */
	put_file(scope, "cgroup.subtree_control", "");
	put_file(scope, "cgroup.procs", "1\n2\n");
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	assert_int_equal(ward_cg_create(&cg, &err), -1);
	assert_non_null(strstr(err.msg, "holds other processes"));
	assert_non_null(strstr(err.msg, "Delegate=yes"));
}

/* A mount of a subtree (a container's view): our cgroup relative to the
 * mount's root; a cgroup outside the mounted subtree is not usable. */
static void detect_subtree_mount(void **state)
{
	struct ward_cg_host h;
	char mi[128], cg[128], text[512];
	ward_err err = {0};

	snprintf(text, sizeof(text),
		 "50 1 0:31 /docker/c1 %s/memory rw - cgroup cgroup rw,memory\n"
		 "51 1 0:35 /other %s/pids rw - cgroup cgroup rw,pids\n",
		 tmp, tmp);
	put_file(tmp, "mountinfo", text);
	put_file(tmp, "cgroup", "4:memory:/docker/c1/job\n8:pids:/docker/c1\n");
	snprintf(mi, sizeof(mi), "%s/mountinfo", tmp);
	snprintf(cg, sizeof(cg), "%s/cgroup", tmp);
	assert_int_equal(ward_cg_detect(mi, cg, &h, &err), 0);
	assert_int_equal(h.nhier, 1);
	assert_string_equal(h.hier[h.where[WARD_CG_MEMORY]].own, "/job");
	assert_int_equal(h.where[WARD_CG_PIDS], -1);
	assert_int_equal(h.v2, -1);
}

static void plan_root_hybrid(void **state)
{
	struct ward_cg_host h;
	struct ward_cgroup cg;
	struct ward_cg_request rq = {.need = WARD_CG_BIT(WARD_CG_MEMORY) |
					     WARD_CG_BIT(WARD_CG_PIDS),
				     .mode = WARD_MODE_ROOT};
	char mi[128], cgf[128], want[512];
	ward_err err = {0};

	fake_hybrid(mi, cgf, sizeof(mi));
	assert_int_equal(ward_cg_detect(mi, cgf, &h, &err), 0);
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	assert_true(cg.active);
	/* memory and pids (v1), and cgroup2 for the kill and the CPU time;
	 * no cpuacct or freezer since there is cgroup2 */
	assert_int_equal(cg.ndirs, 3);
	assert_true(cg.by_ctrl[WARD_CG_MEMORY] >= 0);
	assert_true(cg.by_ctrl[WARD_CG_PIDS] >= 0);
	assert_int_equal(cg.by_ctrl[WARD_CG_CPU], -1);
	assert_int_equal(cg.by_ctrl[WARD_CG_FREEZER], -1);
	assert_true(cg.v2 >= 0);
	assert_int_equal(strncmp(cg.run_id, "run-", 4), 0);
	snprintf(want, sizeof(want), "%s/memory/process_api/abc/ward/%s", tmp,
		 cg.run_id);
	assert_string_equal(cg.dir[cg.by_ctrl[WARD_CG_MEMORY]].path, want);
	assert_string_equal(cg.dir[cg.by_ctrl[WARD_CG_MEMORY]].base,
			    "/process_api/abc/ward");
	snprintf(want, sizeof(want), "%s/unified/ward/%s", tmp, cg.run_id);
	assert_string_equal(cg.dir[cg.v2].path, want);
	assert_int_equal(cg.dir[cg.v2].ctrls, 0);

	/* --cgroup-base, the same cgroup path in every hierarchy */
	rq.base = "/jobs/ward";
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	snprintf(want, sizeof(want), "%s/pids/jobs/ward/%s", tmp, cg.run_id);
	assert_string_equal(cg.dir[cg.by_ctrl[WARD_CG_PIDS]].path, want);
	static const char *const bad[] = {"/",	 "jobs",  "/a/../b",
					  "/a/", "/a//b", "/a/."};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rq.base = bad[i];
		assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), -1);
		assert_non_null(strstr(err.msg, "--cgroup-base"));
	}

	/* nothing needed: no cgroup at all */
	rq = (struct ward_cg_request){.mode = WARD_MODE_ROOT};
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	assert_false(cg.active);
	assert_int_equal(cg.ndirs, 0);
}

/* Without cgroup2, v1 cpuacct and freezer come along for the CPU time and
 * the kill. */
static void plan_root_v1_only(void **state)
{
	struct ward_cg_host h;
	struct ward_cgroup cg;
	struct ward_cg_request rq = {.need = WARD_CG_BIT(WARD_CG_CPU),
				     .mode = WARD_MODE_ROOT};
	char mi[128], cgf[128];
	ward_err err = {0};

	fake_hybrid(mi, cgf, sizeof(mi));
	assert_int_equal(ward_cg_detect(mi, cgf, &h, &err), 0);
	h.v2 = -1;
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	assert_int_equal(cg.ndirs, 3);
	assert_true(cg.by_ctrl[WARD_CG_CPU] >= 0);
	assert_true(cg.by_ctrl[WARD_CG_CPUACCT] >= 0);
	assert_true(cg.by_ctrl[WARD_CG_FREEZER] >= 0);
	assert_int_equal(cg.v2, -1);
	/* a network allow-list needs cgroup2 */
	rq.need_v2 = true;
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), -1);
	assert_non_null(strstr(err.msg, "cgroup2"));
}

static void plan_refusals(void **state)
{
	struct ward_cg_host h;
	struct ward_cgroup cg;
	struct ward_cg_request rq = {.need = WARD_CG_BIT(WARD_CG_MEMORY) |
					     WARD_CG_BIT(WARD_CG_CPU),
				     .mode = WARD_MODE_ROOTLESS,
				     .uid = 4242};
	char mi[128], cgf[128];
	ward_err err = {0};

	fake_hybrid(mi, cgf, sizeof(mi));
	assert_int_equal(ward_cg_detect(mi, cgf, &h, &err), 0);
	/* rootless on v1: no delegation, the refusal says how to get a base
	 * (the fake tree is writable by root, so only v1 is asked here) */
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), -1);
	assert_non_null(strstr(err.msg, "memory, cpu"));
	assert_non_null(strstr(err.msg, "is cgroup v1"));
	assert_non_null(strstr(err.msg, "--cgroup-base /ward-$USER"));
	/* a prepared base that does not exist */
	rq.base = "/nonexistent-base";
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), -1);
	assert_non_null(strstr(err.msg, "--cgroup-base /nonexistent-base"));
	assert_non_null(strstr(err.msg, "uid 4242"));
	/* a controller the host does not have */
	rq = (struct ward_cg_request){.need = WARD_CG_BIT(WARD_CG_PIDS),
				      .mode = WARD_MODE_ROOT};
	h.where[WARD_CG_PIDS] = -1;
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), -1);
	assert_non_null(strstr(err.msg, "the pids cgroup controller"));
}

/* A cgroup2 directory as the kernel makes one: the files exist, empty. */
static int fake_v2_dir(const char *name)
{
	static const char *const files[] = {
	    "cgroup.procs",  "cgroup.kill", "memory.max",  "memory.swap.max",
	    "pids.max",	     "cpu.max",	    "cpu.stat",	   "memory.peak",
	    "memory.events", "pids.peak",   "pids.events", "memory.oom.group"};
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	mkdirs(path);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put_file(path, files[i], "");
	return open(path, O_RDONLY | O_DIRECTORY);
}

static struct ward_limits limits(void)
{
	struct ward_limits l = {0};

	l.set = 1u << WARD_LIM_MEMORY | 1u << WARD_LIM_SWAP |
		1u << WARD_LIM_PIDS | 1u << WARD_LIM_CPU |
		1u << WARD_LIM_NOFILE;
	l.value[WARD_LIM_MEMORY] = 512ull << 20;
	l.value[WARD_LIM_SWAP] = 0;
	l.value[WARD_LIM_PIDS] = 256;
	l.value[WARD_LIM_CPU] = 500;
	l.value[WARD_LIM_NOFILE] = 64;
	return l;
}

static const uint32_t ALL = WARD_CG_BIT(WARD_CG_MEMORY) |
			    WARD_CG_BIT(WARD_CG_PIDS) |
			    WARD_CG_BIT(WARD_CG_CPU);

static void writer_v2(void **state)
{
	struct ward_limits l = limits();
	struct ward_cgroup cg = {0};
	ward_err err = {0};
	char buf[128];
	int fd = fake_v2_dir("v2run");

	assert_true(fd >= 0);
	assert_int_equal(ward_cg_write_limits(fd, 2, ALL, &l, true, &cg, &err),
			 0);
	get_file(fd, "memory.max", buf, sizeof(buf));
	assert_string_equal(buf, "536870912");
	get_file(fd, "memory.swap.max", buf, sizeof(buf));
	assert_string_equal(buf, "0");
	get_file(fd, "pids.max", buf, sizeof(buf));
	assert_string_equal(buf, "256");
	get_file(fd, "cpu.max", buf, sizeof(buf));
	assert_string_equal(buf, "50000 100000");
	/* what the report says was enforced, and where */
	assert_int_equal(cg.napplied, 4);
	assert_int_equal(cg.applied[0].limit, WARD_LIM_MEMORY);
	assert_string_equal(cg.applied[0].where, "cgroup v2 memory.max");
	assert_string_equal(cg.applied[1].where, "cgroup v2 memory.swap.max");
	assert_string_equal(cg.applied[2].where, "cgroup v2 pids.max");
	assert_string_equal(cg.applied[3].where, "cgroup v2 cpu.max");
	assert_int_equal(cg.applied[3].value, 500);

	/* only the controllers this directory serves */
	put_file(tmp, "v2run/pids.max", "max");
	assert_int_equal(ward_cg_write_limits(fd, 2, WARD_CG_BIT(WARD_CG_CPU),
					      &l, true, NULL, &err),
			 0);
	get_file(fd, "pids.max", buf, sizeof(buf));
	assert_string_equal(buf, "max");

	/* a file the kernel does not offer is an error, never created */
	unlinkat(fd, "cpu.max", 0);
	assert_int_equal(ward_cg_write_limits(fd, 2, ALL, &l, true, NULL, &err),
			 -1);
	assert_non_null(strstr(err.msg, "cpu.max"));
	assert_int_equal(faccessat(fd, "cpu.max", F_OK, 0), -1);
	close(fd);
}

static int fake_v1_dir(const char *name)
{
	static const char *const files[] = {"cgroup.procs",
					    "memory.limit_in_bytes",
					    "memory.memsw.limit_in_bytes",
					    "memory.oom_control",
					    "pids.max",
					    "cpu.cfs_period_us",
					    "cpu.cfs_quota_us"};
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	mkdirs(path);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put_file(path, files[i], "");
	return open(path, O_RDONLY | O_DIRECTORY);
}

static void writer_v1(void **state)
{
	struct ward_limits l = limits();
	struct ward_cgroup cg = {0};
	ward_err err = {0};
	char buf[128];
	int fd = fake_v1_dir("v1run");

	l.value[WARD_LIM_SWAP] = 64ull << 20;
	assert_true(fd >= 0);
	assert_int_equal(ward_cg_write_limits(fd, 1, ALL, &l, true, &cg, &err),
			 0);
	get_file(fd, "memory.limit_in_bytes", buf, sizeof(buf));
	assert_string_equal(buf, "536870912");
	/* memsw counts memory and swap together */
	get_file(fd, "memory.memsw.limit_in_bytes", buf, sizeof(buf));
	assert_string_equal(buf, "603979776");
	get_file(fd, "pids.max", buf, sizeof(buf));
	assert_string_equal(buf, "256");
	get_file(fd, "cpu.cfs_period_us", buf, sizeof(buf));
	assert_string_equal(buf, "100000");
	get_file(fd, "cpu.cfs_quota_us", buf, sizeof(buf));
	assert_string_equal(buf, "50000");
	assert_int_equal(cg.napplied, 4);
	assert_string_equal(cg.applied[0].where,
			    "cgroup v1 memory.limit_in_bytes");
	assert_string_equal(cg.applied[1].where,
			    "cgroup v1 memory.memsw.limit_in_bytes");
	assert_int_equal(cg.applied[1].value, 64ull << 20);
	assert_string_equal(cg.applied[3].where, "cgroup v1 cpu.cfs_quota_us");

	/* Without swap accounting: `swap 0` holds on a host without swap,
	 * and nothing else does. */
	unlinkat(fd, "memory.memsw.limit_in_bytes", 0);
	l.value[WARD_LIM_SWAP] = 0;
	cg = (struct ward_cgroup){0};
	assert_int_equal(ward_cg_write_limits(fd, 1, ALL, &l, false, &cg, &err),
			 0);
	assert_true(cg.swap_by_host);
	assert_string_equal(cg.applied[1].where,
			    "host: no swap configured (/proc/swaps)");
	assert_int_equal(ward_cg_write_limits(fd, 1, ALL, &l, true, NULL, &err),
			 -1);
	assert_non_null(strstr(err.msg, "no swap accounting"));
	assert_non_null(strstr(err.msg, "while it has swap"));
	l.value[WARD_LIM_SWAP] = 1 << 20;
	assert_int_equal(
	    ward_cg_write_limits(fd, 1, ALL, &l, false, NULL, &err), -1);
	/* swap without memory makes no sense on v1 */
	l.set &= ~(1u << WARD_LIM_MEMORY);
	assert_int_equal(
	    ward_cg_write_limits(fd, 1, ALL, &l, false, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "needs a memory limit"));
	close(fd);
}

static void counters(void **state)
{
	struct ward_cg_stats st;
	int v2 = fake_v2_dir("v2stats"), v1 = fake_v1_dir("v1stats");
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/v2stats", tmp);
	put_file(dir, "memory.peak", "1234567\n");
	put_file(dir, "memory.events",
		 "low 0\nhigh 0\nmax 17\noom 2\noom_kill 1\n"
		 "oom_group_kill 0\n");
	put_file(dir, "cpu.stat",
		 "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n"
		 "nr_periods 0\n");
	put_file(dir, "pids.peak", "31\n");
	put_file(dir, "pids.events", "max 4\n");
	ward_cg_read_stats_at(v2, 2, v2, v2, 2, &st);
	assert_true(st.have_mem_peak);
	assert_int_equal(st.mem_peak, 1234567);
	assert_string_equal(st.mem_peak_src, "memory.peak");
	assert_true(st.have_oom);
	assert_int_equal(st.oom_kills, 1);
	assert_int_equal(st.mem_max_hits, 17);
	assert_string_equal(st.oom_src, "memory.events");
	assert_true(st.have_cpu);
	assert_int_equal(st.cpu_user_usec, 1000);
	assert_int_equal(st.cpu_sys_usec, 500);
	assert_true(st.have_pids_peak);
	assert_int_equal(st.pids_peak, 31);
	assert_true(st.have_pids_events);
	assert_int_equal(st.pids_max_hits, 4);

	snprintf(dir, sizeof(dir), "%s/v1stats", tmp);
	put_file(dir, "memory.max_usage_in_bytes", "67108864\n");
	put_file(dir, "memory.oom_control",
		 "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");
	put_file(dir, "memory.failcnt", "5\n");
	put_file(dir, "memory.memsw.failcnt", "9\n");
	put_file(dir, "cpuacct.usage_user", "2000000\n");
	put_file(dir, "cpuacct.usage_sys", "7000\n");
	ward_cg_read_stats_at(v1, 1, -1, v1, 1, &st);
	assert_int_equal(st.mem_peak, 67108864);
	assert_string_equal(st.mem_peak_src, "memory.max_usage_in_bytes");
	assert_int_equal(st.oom_kills, 3);
	assert_int_equal(st.mem_max_hits, 9);
	assert_string_equal(st.oom_src, "memory.oom_control");
	assert_int_equal(st.cpu_user_usec, 2000);
	assert_int_equal(st.cpu_sys_usec, 7);
	assert_false(st.have_pids_peak);
	assert_false(st.have_pids_events);
	assert_false(st.have_throttle);
	/* the quota's counters: v1 in ns, v2 in us */
	put_file(dir, "cpu.stat",
		 "nr_periods 30\nnr_throttled 12\nthrottled_time 5000000\n");
	ward_cg_read_throttle(v1, 1, &st);
	assert_true(st.have_throttle);
	assert_int_equal(st.nr_throttled, 12);
	assert_int_equal(st.throttled_usec, 5000);
	snprintf(dir, sizeof(dir), "%s/v2stats", tmp);
	put_file(dir, "cpu.stat",
		 "usage_usec 9\nnr_periods 3\nnr_throttled 2\n"
		 "throttled_usec 777\n");
	ward_cg_read_throttle(v2, 2, &st);
	assert_int_equal(st.nr_throttled, 2);
	assert_int_equal(st.throttled_usec, 777);
	close(v1);
	close(v2);
}

/* The supervisor's OOM watch on cgroup2 sleeps until memory.events
 * changes: a cgroup file, like this regular one, always polls as POLLIN,
 * and a watch that asked for it woke the supervisor at once, for ever (a
 * whole CPU spent by ward beside every run on a pure-v2 host). What it
 * reads comes through the watch itself (which re-arms it in the kernel). */
static void oom_watch_v2(void **state)
{
	struct ward_cgroup cg;
	struct pollfd p;
	char dir[256];
	ward_err err = {0};
	int w;

	memset(&cg, 0, sizeof(cg));
	for (int c = 0; c < WARD_CG_NCTRL; c++)
		cg.by_ctrl[c] = -1;
	cg.active = true;
	cg.ndirs = 1;
	cg.v2 = 0;
	cg.by_ctrl[WARD_CG_MEMORY] = 0;
	cg.dir[0].version = 2;
	cg.dir[0].fd = fake_v2_dir("oomwatch");
	snprintf(dir, sizeof(dir), "%s/oomwatch", tmp);
	put_file(dir, "memory.events",
		 "low 0\nhigh 0\nmax 3\noom 0\noom_kill 0\n");
	w = ward_cg_oom_watch(&cg, &err);
	assert_true(w >= 0);
	p = (struct pollfd){w, ward_cg_oom_events(&cg), 0};
	assert_int_equal(p.events & POLLIN, 0);
	assert_int_equal(poll(&p, 1, 50), 0);
	assert_false(ward_cg_oom_killed(&cg, w));
	put_file(dir, "memory.events",
		 "low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n");
	assert_true(ward_cg_oom_killed(&cg, w));
	assert_true(ward_cg_oom_killed(&cg, w)); /* read again from the top */
	/* v1's watch is an eventfd: POLLIN */
	cg.dir[0].version = 1;
	assert_int_equal(ward_cg_oom_events(&cg), POLLIN);
	close(w);
	close(cg.dir[0].fd);
}

/* The pids listed in cgroup.procs get SIGKILL; nothing else does. */
static void kill_listed(void **state)
{
	pid_t kids[3], spared;
	char text[128] = "";
	int fd = fake_v2_dir("killme"), st;

	for (int i = 0; i < 3; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			pause();
			_exit(0);
		}
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "%d\n", (int)kids[i]);
	}
	spared = fork();
	if (spared == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pause();
		_exit(0);
	}
	snprintf(text + strlen(text), sizeof(text) - strlen(text), "0\n-1\n");
	{
		char dir[256];

		snprintf(dir, sizeof(dir), "%s/killme", tmp);
		put_file(dir, "cgroup.procs", text);
	}
	assert_int_equal(ward_cg_kill_listed(fd), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), SIGKILL);
	}
	assert_int_equal(waitpid(spared, &st, WNOHANG), 0);
	kill(spared, SIGTERM);
	waitpid(spared, &st, 0);
	close(fd);
}

static void freezer_file(void **state)
{
	char buf[32], dir[256];
	int fd = fake_v1_dir("frz");

	snprintf(dir, sizeof(dir), "%s/frz", tmp);
	put_file(dir, "freezer.state", "THAWED\n");
	assert_int_equal(ward_cg_freeze(fd, true), 0);
	get_file(fd, "freezer.state", buf, sizeof(buf));
	assert_string_equal(buf, "FROZEN");
	assert_int_equal(ward_cg_freeze(fd, false), 0);
	get_file(fd, "freezer.state", buf, sizeof(buf));
	assert_int_equal(strncmp(buf, "THAWED", 6), 0);
	close(fd);
}

static void stale_runs(void **state)
{
	char id[48], name[64];
	bool is_run;
	unsigned long long start;

	assert_int_equal(ward_cg_run_id(id, sizeof(id), NULL), 0);
	/* ourselves: alive */
	assert_true(ward_cg_owner_alive("/proc", id, &is_run));
	assert_true(is_run);
	/* our pid with another start time: a dead supervisor whose pid was
	 * reused */
	assert_int_equal(sscanf(id, "run-%*d-%llu", &start), 1);
	snprintf(name, sizeof(name), "run-%d-%llu", (int)getpid(), start + 1);
	assert_false(ward_cg_owner_alive("/proc", name, &is_run));
	assert_true(is_run);
	/* no such process */
	assert_false(ward_cg_owner_alive("/proc", "run-999999999-5", &is_run));
	assert_true(is_run);
	/* not a run directory: never touched */
	static const char *const other[] = {"supervisor", "run-",   "run-12",
					    "run-1a-2",	  "run--3", "run-1-2x",
					    "run-1-"};
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		assert_true(ward_cg_owner_alive("/proc", other[i], &is_run));
		assert_false(is_run);
	}
}

static bool v1_memory_here(struct ward_cg_host *h)
{
	ward_err err = {0};

	if (geteuid() != 0 || ward_cg_detect("/proc/self/mountinfo",
					     "/proc/self/cgroup", h, &err) < 0)
		return false;
	return h->where[WARD_CG_MEMORY] >= 0 &&
	       h->hier[h->where[WARD_CG_MEMORY]].version == 1 &&
	       h->where[WARD_CG_PIDS] >= 0 &&
	       h->hier[h->where[WARD_CG_PIDS]].version == 1;
}

/* For real, on this host's v1 hierarchies: the kernel reads the limits
 * back, a process is moved in, killed and the directories removed; once
 * with cgroup2 (if the host has it), once without, when the v1 freezer
 * does the kill. */
static void real_v1_run(bool without_v2);

static void real_v1(void **state)
{
	real_v1_run(false);
}

static void real_v1_freezer(void **state)
{
	real_v1_run(true);
}

static void real_v1_run(bool without_v2)
{
	struct ward_cg_host h;
	struct ward_cgroup cg;
	struct ward_cg_request rq = {.need = WARD_CG_BIT(WARD_CG_MEMORY) |
					     WARD_CG_BIT(WARD_CG_PIDS),
				     .mode = WARD_MODE_ROOT,
				     .base = NULL};
	struct ward_limits l = limits();
	struct ward_cg_cleanup res;
	struct ward_cg_stats st;
	ward_err err = {0};
	char buf[128], path[2 * WARD_CG_PATH + 64];
	int m, p, status;
	pid_t kid;

	if (!v1_memory_here(&h))
		skip();
	if (without_v2) {
		if (h.where[WARD_CG_FREEZER] < 0 ||
		    h.hier[h.where[WARD_CG_FREEZER]].version != 1)
			skip();
		h.v2 = -1;
	}
	l.set &= ~(1u << WARD_LIM_CPU);
	assert_int_equal(ward_cg_plan(&h, &rq, &cg, &err), 0);
	assert_int_equal(cg.by_ctrl[WARD_CG_FREEZER] >= 0, without_v2);
	if (ward_cg_create(&cg, &err) < 0)
		fail_msg("create: %s", err.msg);
	assert_int_equal(ward_cg_set_limits(&cg, &l, "/proc/swaps", &err), 0);
	m = cg.dir[cg.by_ctrl[WARD_CG_MEMORY]].fd;
	p = cg.dir[cg.by_ctrl[WARD_CG_PIDS]].fd;
	get_file(m, "memory.limit_in_bytes", buf, sizeof(buf));
	assert_string_equal(buf, "536870912\n");
	get_file(p, "pids.max", buf, sizeof(buf));
	assert_string_equal(buf, "256\n");
	kid = fork();
	if (kid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pause();
		_exit(0);
	}
	assert_int_equal(ward_cg_attach_v1(&cg, kid, &err), 0);
	get_file(p, "cgroup.procs", buf, sizeof(buf));
	assert_int_equal(atoi(buf), kid);
	ward_cg_read_stats(&cg, &st);
	assert_true(st.have_mem_peak);
	assert_true(st.have_oom);
	assert_int_equal(st.oom_kills, 0);
	ward_cg_kill(&cg);
	assert_int_equal(waitpid(kid, &status, 0), kid);
	assert_true(WIFSIGNALED(status));
	snprintf(path, sizeof(path), "%s", cg.dir[0].path);
	ward_cg_remove(&cg, &res);
	assert_true(res.removed);
	assert_int_equal(res.procs_left, 0);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(detect_hybrid, setup, teardown),
	    cmocka_unit_test_setup_teardown(detect_pure_v2, setup, teardown),
	    cmocka_unit_test_setup_teardown(detect_subtree_mount, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(plan_root_hybrid, setup, teardown),
	    cmocka_unit_test_setup_teardown(plan_root_v1_only, setup, teardown),
	    cmocka_unit_test_setup_teardown(plan_refusals, setup, teardown),
	    cmocka_unit_test_setup_teardown(rootless_delegated_v2, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(plan_create_pure_v2, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(writer_v2, setup, teardown),
	    cmocka_unit_test_setup_teardown(writer_v1, setup, teardown),
	    cmocka_unit_test_setup_teardown(counters, setup, teardown),
	    cmocka_unit_test_setup_teardown(oom_watch_v2, setup, teardown),
	    cmocka_unit_test_setup_teardown(kill_listed, setup, teardown),
	    cmocka_unit_test_setup_teardown(freezer_file, setup, teardown),
	    cmocka_unit_test(stale_runs),
	    cmocka_unit_test(real_v1),
	    cmocka_unit_test(real_v1_freezer),
	};

	alarm(60); /* a hang is a failure, not a stuck suite */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
