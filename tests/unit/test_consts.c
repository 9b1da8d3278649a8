/* The built-in constants: values from the headers, per target, and the
 * errno and capability lookups. */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "consts.h"
#include "policy.h"

#define X86 WARD_ARCH_X86_64
#define ARM WARD_ARCH_AARCH64

static uint64_t must(const char *name, uint32_t arch)
{
	uint64_t v = 0xdeadbeef;

	assert_int_equal(ward_const_lookup(name, arch, &v), WARD_CONST_OK);
	return v;
}

static void test_native_values(void **state)
{
	(void)state;
	assert_int_equal(must("AF_UNIX", X86), 1);
	assert_int_equal(must("O_CLOEXEC", X86), 02000000);
	assert_int_equal(must("O_DIRECTORY", X86), 0200000);
	/* the same as the headers this test is compiled with */
	assert_int_equal(must("O_CLOEXEC", X86), O_CLOEXEC);
	assert_int_equal(must("AF_INET6", X86), AF_INET6);
	/* enumeration-backed in glibc */
	assert_int_equal(must("SOCK_STREAM", X86), 1);
	assert_int_equal(must("SOCK_CLOEXEC", X86), 02000000);
	assert_int_equal(must("IPPROTO_TCP", X86), 6);
	/* negative values are sign-extended, as a register holds them */
	assert_int_equal(must("AT_FDCWD", X86), (uint64_t)-100);
	assert_int_equal(must("TIOCSTI", X86), 0x5412);
	assert_int_equal(must("CLONE_NEWUSER", X86), 0x10000000);
	assert_int_equal(must("PR_SET_NO_NEW_PRIVS", X86), 38);
}

/* Values that differ between the targets come from each target's headers. */
static void test_foreign_values(void **state)
{
	(void)state;
	assert_int_equal(must("AF_UNIX", ARM), 1);
	assert_int_equal(must("O_CLOEXEC", ARM), 02000000);
	assert_int_equal(must("O_DIRECTORY", ARM), 040000);
	assert_int_equal(must("O_NOFOLLOW", ARM), 0100000);
	assert_int_equal(must("O_NOFOLLOW", X86), 0400000);
	assert_int_equal(must("O_DIRECT", ARM), 0200000);
	assert_int_equal(must("O_DIRECT", X86), 040000);
	assert_int_equal(must("AT_FDCWD", ARM), (uint64_t)-100);
	assert_int_equal(must("TIOCSTI", ARM), 0x5412);
}

static void test_not_on_target(void **state)
{
	uint64_t v = 7;

	(void)state;
	/* aarch64 only */
	assert_int_equal(ward_const_lookup("PROT_BTI", X86, &v),
			 WARD_CONST_NOT_ON_TARGET);
	assert_int_equal(must("PROT_BTI", ARM), 0x10);
	/* x86_64 only */
	assert_int_equal(ward_const_lookup("MAP_32BIT", ARM, &v),
			 WARD_CONST_NOT_ON_TARGET);
	assert_int_equal(must("MAP_32BIT", X86), 0x40);
	/* an unsupported target knows nothing, but the name exists elsewhere */
	assert_int_equal(ward_const_lookup("AF_UNIX", 0x40000003u, &v),
			 WARD_CONST_NOT_ON_TARGET);
	assert_int_equal(ward_const_count(0x40000003u), 0);
	assert_null(ward_const_name(0x40000003u, 0));
	assert_int_equal(v, 7); /* untouched on failure */
}

static void test_unknown(void **state)
{
	static const char *const names[] = {
	    "AF_UNIXX",	    "af_unix",	"",
	    "AF_",	    "SIGRTMIN", /* a function call */
	    "SIG_DFL",			/* a pointer */
	    "CAP_LAST_CAP",		/* excluded */
	    "EOF",			/* no such prefix */
	};
	uint64_t v = 7;

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		assert_int_equal(ward_const_lookup(names[i], X86, &v),
				 WARD_CONST_UNKNOWN);
	assert_int_equal(v, 7);
}

static void check_table(uint32_t arch)
{
	size_t n = ward_const_count(arch);

	assert_true(n > 1000);
	assert_null(ward_const_name(arch, n));
	for (size_t i = 0; i < n; i++) {
		const char *name = ward_const_name(arch, i);
		uint64_t v;

		assert_non_null(name);
		if (i > 0) /* sorted, no duplicates */
			assert_true(strcmp(ward_const_name(arch, i - 1), name) <
				    0);
		assert_int_equal(ward_const_lookup(name, arch, &v),
				 WARD_CONST_OK);
		assert_int_equal(v, ward_const_value(arch, i));
	}
}

static void test_tables_sorted(void **state)
{
	(void)state;
	check_table(X86);
	check_table(ARM);
}

static void test_errno(void **state)
{
	(void)state;
	assert_int_equal(ward_errno_lookup("EPERM"), 1);
	assert_int_equal(ward_errno_lookup("ENOSYS"), 38);
	assert_int_equal(ward_errno_lookup("EACCES"), EACCES);
	assert_int_equal(ward_errno_lookup("EWOULDBLOCK"), 11);
	assert_int_equal(ward_errno_lookup("ENOTSUP"), 95);
	assert_int_equal(ward_errno_lookup("EPOLLIN"), -1); /* not an errno */
	assert_int_equal(ward_errno_lookup("AF_UNIX"), -1);
	assert_int_equal(ward_errno_lookup("ENOPE"), -1);
	assert_int_equal(ward_errno_lookup(""), -1);
	assert_string_equal(ward_errno_name(1), "EPERM");
	assert_string_equal(ward_errno_name(38), "ENOSYS");
	/* canonical names, not aliases */
	assert_string_equal(ward_errno_name(11), "EAGAIN");
	assert_string_equal(ward_errno_name(95), "EOPNOTSUPP");
	assert_string_equal(ward_errno_name(35), "EDEADLK");
	assert_null(ward_errno_name(0));
	assert_null(ward_errno_name(-1));
	assert_null(ward_errno_name(4095));
}

static void test_cap(void **state)
{
	(void)state;
	assert_int_equal(ward_cap_lookup("CAP_CHOWN"), 0);
	assert_int_equal(ward_cap_lookup("CAP_SYS_ADMIN"), 21);
	assert_int_equal(ward_cap_lookup("CAP_NET_BIND_SERVICE"),
			 CAP_NET_BIND_SERVICE);
	assert_int_equal(ward_cap_lookup("CAP_CHECKPOINT_RESTORE"), 40);
	assert_int_equal(ward_cap_lookup("CAP_LAST_CAP"), -1);
	assert_int_equal(ward_cap_lookup("CAP_TO_INDEX"),
			 -1); /* a function-like macro */
	assert_int_equal(ward_cap_lookup("SYS_ADMIN"), -1);
	assert_int_equal(ward_cap_lookup("EPERM"), -1);
	assert_string_equal(ward_cap_name(21), "CAP_SYS_ADMIN");
	assert_string_equal(ward_cap_name(40), "CAP_CHECKPOINT_RESTORE");
	/* every capability up to the headers' last one has a name */
	for (int i = 0; i <= CAP_LAST_CAP; i++) {
		const char *name = ward_cap_name(i);

		assert_non_null(name);
		assert_int_equal(ward_cap_lookup(name), i);
	}
	assert_null(ward_cap_name(CAP_LAST_CAP + 1));
	assert_null(ward_cap_name(-1));
}

/* consts.h promises that error numbers and capabilities are the same on
 * both targets: every errno or CAP_ entry of one table is in the other, with
 * the same value and kind. */
static size_t check_kinds_in(const struct ward_const_table *t, uint32_t other)
{
	size_t checked = 0;

	for (size_t i = 0; i < t->count; i++) {
		const struct ward_const_entry *e = &t->entries[i];
		uint64_t v;

		if (e->kind == WARD_CONST_KIND_PLAIN)
			continue;
		assert_int_equal(ward_const_lookup(e->name, other, &v),
				 WARD_CONST_OK);
		assert_int_equal(v, e->value);
		if (e->kind == WARD_CONST_KIND_ERRNO)
			assert_int_equal(ward_errno_lookup(e->name),
					 (int)e->value);
		else
			assert_int_equal(ward_cap_lookup(e->name),
					 (int)e->value);
		checked++;
	}
	return checked;
}

static void test_errno_cap_same_on_targets(void **state)
{
	size_t per_table[2] = {0, 0};

	(void)state;
	assert_int_equal(ward_const_ntables, 2);
	for (size_t i = 0; i < ward_const_ntables; i++) {
		const struct ward_const_table *t = &ward_const_tables[i];

		per_table[i] = check_kinds_in(t, t->arch == X86 ? ARM : X86);
	}
	assert_int_equal(per_table[0], per_table[1]);
	assert_true(per_table[0] >
		    170); /* about 134 errno names, 41 capabilities */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_native_values),
	    cmocka_unit_test(test_foreign_values),
	    cmocka_unit_test(test_not_on_target),
	    cmocka_unit_test(test_unknown),
	    cmocka_unit_test(test_tables_sorted),
	    cmocka_unit_test(test_errno),
	    cmocka_unit_test(test_cap),
	    cmocka_unit_test(test_errno_cap_same_on_targets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
