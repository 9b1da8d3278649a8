/* SPDX-License-Identifier: MIT */
/* Unit tests of what the launcher refuses before creating a process
 * (launcher/core/check.c). */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct sock_filter allow =
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
static struct ward_mount mounts[3];

static struct ward_policy base(void)
{
	mounts[0] = (struct ward_mount){.kind = WARD_MNT_TMPFS,
					.flags = WARD_MNT_F_RW,
					.dst = "/",
					.size = 1 << 20,
					.mode = 0755};
	return (struct ward_policy){
	    .arch = ward_native_arch(),
	    .identity = {65534, 65534, "sandbox", 0},
	    .mounts = mounts,
	    .nmounts = 1,
	    .seccomp = {ward_native_arch(), &allow, 1},
	};
}

static void refused(const struct ward_policy *p, const char *msg)
{
	ward_err err = {0};

	assert_int_equal(ward_check_policy(p, &err), -1);
	if (!strstr(err.msg, msg))
		fail_msg("\"%s\" lacks \"%s\"", err.msg, msg);
}

static void policy_ok(void **state)
{
	struct ward_policy p = base();
	ward_err err = {0};

	assert_int_equal(ward_check_policy(&p, &err), 0);
	/* rlimits and a kept capability are enforced here; so are the
	 * cgroup limits and the supervisor's (wall, output caps), whose
	 * host checks come later, with the cgroups. */
	p.limits.set = 1u << WARD_LIM_NOFILE | 1u << WARD_LIM_CPUTIME;
	p.identity.caps_keep = 1u << 10;
	assert_int_equal(ward_check_policy(&p, &err), 0);
	p.requirements = WARD_REQ_CGROUP_MEMORY | WARD_REQ_CGROUP_PIDS |
			 WARD_REQ_CGROUP_CPU | WARD_REQ_CGROUP_SWAP;
	p.limits.set = (1u << WARD_LIM_COUNT) - 1;
	assert_int_equal(ward_check_policy(&p, &err), 0);
}

/* The kill rules' notifications: the program and the requirement bit
 * agree, or the blob is refused. */
static void seccomp_notify(void **state)
{
	static const struct sock_filter notify[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 39, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	static const struct sock_filter ret_a[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	    BPF_STMT(BPF_RET | BPF_A, 0),
	};
	struct ward_policy p = base();
	ward_err err = {0};

	p.seccomp.insns = notify;
	p.seccomp.ninsns = 4;
	refused(&p, "does not declare");
	p.requirements = WARD_REQ_SECCOMP_NOTIFY;
	assert_int_equal(ward_check_policy(&p, &err), 0);
	p = base();
	p.requirements = WARD_REQ_SECCOMP_NOTIFY;
	refused(&p, "never returns");
	p = base();
	p.seccomp.insns = ret_a;
	p.seccomp.ninsns = 2;
	refused(&p, "computed action");
}

static void policy_refused(void **state)
{
	struct ward_policy p;
	ward_err err = {0};

	/* `landlock require;` with an ABI no kernel has (fail closed);
	 * `prefer` with the same ABI runs with what the kernel has. */
	p = base();
	p.requirements = WARD_REQ_LANDLOCK;
	p.landlock.mode = WARD_LANDLOCK_REQUIRE;
	p.landlock.abi = WARD_LL_ABI_MAX;
	refused(&p, "Landlock");
	p.landlock.mode = WARD_LANDLOCK_PREFER;
	p.requirements = 0;
	assert_int_equal(ward_check_policy(&p, &err), 0);
	p = base();
	p.arch = p.seccomp.arch =
	    WARD_ARCH_AARCH64 ^ WARD_ARCH_X86_64 ^ ward_native_arch();
	refused(&p, "another architecture");
	p = base();
	p.seccomp.ninsns = 0;
	refused(&p, "no seccomp program");
	p = base();
	mounts[0].dst = "/x";
	refused(&p, "first mount is not the root");
	p = base();
	p.identity.caps_keep = 1ull << 63;
	refused(&p, "keeps capability 63, unknown to this kernel");
}

static char dir[64];

static int setup(void **state)
{
	char p[128];

	snprintf(dir, sizeof(dir), "/tmp/ward-slots-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(p, sizeof(p), "%s/d", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/l", dir);
	return symlink("d", p);
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void slots(void **state)
{
	struct ward_policy p = base();
	struct ward_slot_src src[3];
	struct ward_slot_arg args[2];
	struct ward_cli cli = {.slots = args, .nslots = 1};
	char d[128], l[128], none[128];
	struct stat st;
	ward_err err = {0};

	snprintf(d, sizeof(d), "%s/d", dir);
	snprintf(l, sizeof(l), "%s/l", dir);
	snprintf(none, sizeof(none), "%s/none", dir);
	mounts[1] = (struct ward_mount){
	    .kind = WARD_MNT_SLOT, .src = "out", .dst = "/out"};
	mounts[2] = (struct ward_mount){.kind = WARD_MNT_DIR, .dst = "/x"};
	p.nmounts = 3;

	args[0] = (struct ward_slot_arg){"out", d};
	assert_int_equal(ward_check_slots(&p, &cli, src, &err), 0);
	assert_null(src[0].path);
	assert_string_equal(src[1].path, d);
	assert_true(src[1].is_dir);
	assert_int_equal(stat(d, &st), 0);
	assert_int_equal(src[1].dev, st.st_dev);
	assert_int_equal(src[1].ino, st.st_ino);
	assert_null(src[2].path);

	args[0].path = l;
	assert_int_equal(ward_check_slots(&p, &cli, src, &err), -1);
	assert_non_null(strstr(err.msg, "a symlink is not followed"));
	args[0].path = none;
	assert_int_equal(ward_check_slots(&p, &cli, src, &err), -1);
	assert_int_equal(err.code, ENOENT);
	args[0].path = "/dev/null";
	assert_int_equal(ward_check_slots(&p, &cli, src, &err), -1);
	assert_non_null(strstr(err.msg, "not a directory or a regular file"));

	args[0] = (struct ward_slot_arg){"in", d};
	assert_int_equal(ward_check_slots(&p, &cli, src, &err), -1);
	assert_non_null(strstr(err.msg, "--slot in: the policy declares no"));
	cli.nslots = 0;
	assert_int_equal(ward_check_slots(&p, &cli, src, &err), -1);
	assert_non_null(
	    strstr(err.msg, "slot out (at /out) needs --slot out=HOSTPATH"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(policy_ok),
	    cmocka_unit_test(policy_refused),
	    cmocka_unit_test(seccomp_notify),
	    cmocka_unit_test(slots),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
