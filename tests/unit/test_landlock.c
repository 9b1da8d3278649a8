/* SPDX-License-Identifier: MIT */
/*
 * test_landlock.c: the compiler side of the Landlock layer (issue 20,
 * part 3): `landlock MODE;` in fs, the rule set derived from the mount
 * table (compiler/codegen/landlock_rules.c), the requirement bit, and the
 * reader's refusals of a section that disagrees with itself.
 */
#include "blob.h"
#include "blob_read.h"
#include "blob_write.h"
#include "landlock.h"
#include "landlock_rules.h"
#include "tests/lib/blob_corpus.h"
#include "tests/lib/compiled.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static const char head[] =
    "ward 1;\npolicy t;\nuse groups;\n"
    "identity { user 1000; group 1000; }\n"
    "syscalls default errno ENOSYS { allow @default; }\n"
    "fs {\n"
    "    bind /usr at /usr ro exec;\n"
    "    bind /etc/hostname at /etc/hostname ro optional;\n"
    "    tmpfs /tmp size 1M;\n"
    "    proc /proc;\n"
    "    dev /dev;\n"
    "    file /etc/motd \"hi\\n\";\n"
    "    symlink /bin -> usr/bin;\n"
    "    slot data at /data rw;\n"
    "    slot in at /tmp/in ro;\n";

/* Compile head, extra and the closing brace; 0 or -1. */
static int compile(const char *extra, struct ward_test_compiled *c)
{
	char path[] = "/tmp/ward-test-landlock-XXXXXX";
	char msg[256];
	int fd = mkstemp(path), rc;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	assert_non_null(f);
	fprintf(f, "%s%s}\n", head, extra);
	fclose(f);
	rc = ward_test_compile(path, c, msg, sizeof(msg));
	unlink(path);
	return rc;
}

static const struct ward_landlock_rule *rule(const struct ward_landlock *ll,
					     const char *path)
{
	for (uint32_t i = 0; i < ll->nrules; i++)
		if (!strcmp(ll->rules[i].path, path))
			return &ll->rules[i];
	return NULL;
}

static void assert_rule(const struct ward_landlock *ll, const char *path,
			uint64_t access, uint32_t flags)
{
	const struct ward_landlock_rule *r = rule(ll, path);

	if (!r)
		fail_msg("no Landlock rule for %s", path);
	if (r->access != access || r->flags != flags)
		fail_msg("%s: access %#llx flags %u, not %#llx %u", path,
			 (unsigned long long)r->access, r->flags,
			 (unsigned long long)access, flags);
}

/* prefer by default: one rule per mount destination with the mount's
 * rights, none for a symlink; every right handled, both scopes, ABI 6. */
static void test_default_prefer(void **state)
{
	struct ward_test_compiled c;
	const struct ward_landlock *ll;

	(void)state;
	assert_int_equal(compile("", &c), 0);
	ll = &c.blob.policy.landlock;
	assert_int_equal(ll->mode, WARD_LANDLOCK_PREFER);
	assert_false(c.blob.policy.requirements & WARD_REQ_LANDLOCK);
	assert_int_equal(ll->abi, 6);
	assert_int_equal(ll->handled_fs, WARD_LL_FS_ALL);
	assert_int_equal(ll->scoped, WARD_LL_SCOPE_ALL);
	assert_rule(ll, "/", WARD_LL_RO, 0);
	assert_rule(ll, "/usr", WARD_LL_RO | WARD_LL_FS_EXECUTE, 0);
	/* a read-only bind or slot is exec unless it says noexec */
	assert_rule(ll, "/etc/hostname", WARD_LL_RO | WARD_LL_FS_EXECUTE,
		    WARD_LL_R_OPTIONAL);
	assert_rule(ll, "/tmp", WARD_LL_RW, 0);
	assert_rule(ll, "/proc",
		    WARD_LL_RO | WARD_LL_FS_WRITE_FILE | WARD_LL_FS_TRUNCATE,
		    0);
	assert_rule(ll, "/dev",
		    WARD_LL_RO | WARD_LL_FS_WRITE_FILE | WARD_LL_FS_TRUNCATE |
			WARD_LL_FS_IOCTL_DEV,
		    0);
	assert_rule(ll, "/dev/shm", WARD_LL_RW | WARD_LL_FS_IOCTL_DEV, 0);
	assert_rule(ll, "/dev/mqueue", WARD_LL_RW | WARD_LL_FS_IOCTL_DEV, 0);
	assert_rule(ll, "/etc/motd", WARD_LL_FS_READ_FILE, 0);
	assert_rule(ll, "/data", WARD_LL_RW, 0);
	assert_rule(ll, "/tmp/in", WARD_LL_RO | WARD_LL_FS_EXECUTE, 0);
	assert_null(rule(ll, "/bin"));
	/* Never granted: device nodes are not made in the sandbox. */
	for (uint32_t i = 0; i < ll->nrules; i++)
		assert_false(ll->rules[i].access &
			     (WARD_LL_FS_MAKE_CHAR | WARD_LL_FS_MAKE_BLOCK));
	ward_test_compiled_release(&c);
}

/* What Landlock cannot narrow: a read-only slot inside a read-write
 * tmpfs gets the tmpfs's rights through the rule above it. */
static void test_wider_above(void **state)
{
	struct ward_test_compiled c;
	const struct ward_landlock *ll;
	uint32_t above = 99, in = 0, usr = 0;

	(void)state;
	assert_int_equal(compile("", &c), 0);
	ll = &c.blob.policy.landlock;
	for (uint32_t i = 0; i < ll->nrules; i++) {
		if (!strcmp(ll->rules[i].path, "/tmp/in"))
			in = i;
		if (!strcmp(ll->rules[i].path, "/usr"))
			usr = i;
	}
	assert_int_equal(ward_landlock_wider(ll, in, &above),
			 WARD_LL_RW & ~WARD_LL_RO);
	assert_string_equal(ll->rules[above].path, "/tmp");
	assert_int_equal(ward_landlock_wider(ll, usr, &above), 0);
	ward_test_compiled_release(&c);
}

static void test_require_and_off(void **state)
{
	struct ward_test_compiled c;

	(void)state;
	assert_int_equal(compile("    landlock require;\n", &c), 0);
	assert_int_equal(c.blob.policy.landlock.mode, WARD_LANDLOCK_REQUIRE);
	assert_true(c.blob.policy.requirements & WARD_REQ_LANDLOCK);
	ward_test_compiled_release(&c);

	assert_int_equal(compile("    landlock off;\n", &c), 0);
	assert_int_equal(c.blob.policy.landlock.mode, WARD_LANDLOCK_OFF);
	assert_int_equal(c.blob.policy.landlock.nrules, 0);
	assert_false(c.blob.policy.requirements & WARD_REQ_LANDLOCK);
	ward_test_compiled_release(&c);

	assert_int_equal(compile("    landlock prefer;\n", &c), 0);
	assert_int_equal(c.blob.policy.landlock.mode, WARD_LANDLOCK_PREFER);
	ward_test_compiled_release(&c);

	/* Unknown modes and a second `landlock` are errors. */
	assert_int_equal(compile("    landlock requir;\n", &c), -1);
	ward_test_compiled_release(&c);
	assert_int_equal(
	    compile("    landlock prefer;\n    landlock require;\n", &c), -1);
	ward_test_compiled_release(&c);
}

/* The reader refuses a landlock section that disagrees with itself or
 * with the header. */
static void refused(const struct ward_policy *p, const char *want)
{
	uint8_t *buf = NULL;
	size_t len;
	ward_err err = {0};
	struct ward_blob b;

	assert_int_equal(ward_blob_write_unchecked(p, &buf, &len, &err), 0);
	assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), -1);
	if (!strstr(err.msg, want))
		fail_msg("`%s` does not say `%s`", err.msg, want);
	free(buf);
}

static void test_reader_refuses(void **state)
{
	struct ward_policy p = *ward_test_policy_rich();
	struct ward_landlock_rule rules[2] = {
	    {WARD_LL_RO, 0, "/"},
	    {WARD_LL_RW, 0, "/tmp"},
	};
	const struct ward_policy base = p;

	(void)state;
	p.landlock.rules = rules;
	p.landlock.nrules = 2;
	p.landlock.mode = 3;
	refused(&p, "unknown mode 3");
	p = base;
	p.requirements &= ~(uint32_t)WARD_REQ_LANDLOCK;
	refused(&p, "requirement and the landlock section's mode disagree");
	p = base;
	p.landlock.mode = WARD_LANDLOCK_PREFER;
	refused(&p, "requirement and the landlock section's mode disagree");
	p = base;
	p.landlock.abi = 5; /* scopes need 6 */
	refused(&p, "ABI 5 is below what its rights need (6)");
	p = base;
	p.landlock.abi = WARD_LL_ABI_MAX + 1;
	refused(&p, "above 255");
	p = base;
	p.landlock.handled_fs = 1ull << 16;
	refused(&p, "unknown or no access rights");
	p = base;
	p.landlock.handled_fs = WARD_LL_FS_ABI1;
	p.landlock.scoped = 0;
	p.landlock.abi = 1;
	p.landlock.rules = rules;
	p.landlock.nrules = 2;
	refused(&p, "rule 1: access");
	p = base;
	rules[1] = (struct ward_landlock_rule){WARD_LL_RO, 2, "/tmp"};
	p.landlock.rules = rules;
	p.landlock.nrules = 2;
	refused(&p, "rule 1: unknown flags 0x2");
	rules[1] = (struct ward_landlock_rule){WARD_LL_RO, 0, "tmp"};
	refused(&p, "path is not absolute");
	rules[1] = (struct ward_landlock_rule){0, 0, "/tmp"};
	refused(&p, "access 0x0: none");
}

/* A high ABI is the blob's to ask (a later kernel's): read back as is. */
static void test_reader_keeps_abi(void **state)
{
	struct ward_policy p = *ward_test_policy_rich();
	uint8_t *buf = NULL;
	size_t len;
	ward_err err = {0};
	struct ward_blob b;

	(void)state;
	p.landlock.abi = 99;
	assert_int_equal(ward_blob_write(&p, &buf, &len, &err), 0);
	assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), 0);
	assert_int_equal(b.policy.landlock.abi, 99);
	ward_blob_release(&b);
	free(buf);
}

/* The launcher's downgrade: what each ABI knows of the blob's rights. */
static void test_abi_downgrade(void **state)
{
	(void)state;
	assert_int_equal(ward_landlock_fs_known(1), WARD_LL_FS_ABI1);
	assert_int_equal(ward_landlock_fs_known(2),
			 WARD_LL_FS_ABI1 | WARD_LL_FS_REFER);
	for (int abi = 3; abi <= 4; abi++)
		assert_int_equal(ward_landlock_fs_known(abi),
				 WARD_LL_FS_ABI1 | WARD_LL_FS_REFER |
				     WARD_LL_FS_TRUNCATE);
	for (int abi = 5; abi <= 7; abi++)
		assert_int_equal(ward_landlock_fs_known(abi), WARD_LL_FS_ALL);
	/* the blob's minimum ABI agrees with what the launcher masks */
	for (int abi = 1; abi <= 6; abi++)
		assert_true(ward_landlock_min_abi(ward_landlock_fs_known(abi),
						  0) <= (uint32_t)abi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_default_prefer),
	    cmocka_unit_test(test_wider_above),
	    cmocka_unit_test(test_require_and_off),
	    cmocka_unit_test(test_reader_refuses),
	    cmocka_unit_test(test_reader_keeps_abi),
	    cmocka_unit_test(test_abi_downgrade),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
