/* The built-in argument names of syscalls (spec appendix A). */
#include <ctype.h>
#include <seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "policy.h"
#include "syscall_args.h"

#define X86 WARD_ARCH_X86_64
#define ARM WARD_ARCH_AARCH64

static void test_indexes(void **state)
{
	static const struct {
		const char *sys, *arg;
		int index;
	} cases[] = {
	    {"socket", "domain", 0},
	    {"socket", "type", 1},
	    {"socket", "protocol", 2},
	    {"socketpair", "sv", 3},
	    {"ioctl", "fd", 0},
	    {"ioctl", "request", 1},
	    {"ioctl", "arg", 2},
	    {"fcntl", "cmd", 1},
	    {"prctl", "option", 0},
	    /* argN are positions, never table names (prctl's man page). */
	    {"prctl", "arg2", -1},
	    {"prctl", "arg5", -1},
	    {"mmap", "prot", 2},
	    {"mmap", "flags", 3},
	    {"mmap", "fd", 4},
	    {"mmap", "offset", 5},
	    {"mprotect", "prot", 2},
	    {"open", "flags", 1},
	    {"open", "mode", 2},
	    {"openat", "dirfd", 0},
	    {"openat", "flags", 2},
	    {"kill", "sig", 1},
	    {"tgkill", "sig", 2},
	    {"setsockopt", "level", 1},
	    {"setsockopt", "optname", 2},
	    {"getsockopt", "optlen", 4},
	    {"personality", "persona", 0},
	    {"unshare", "flags", 0},
	    {"setns", "nstype", 1},
	    {"futex", "futex_op", 1},
	    {"mremap", "new_address", 4},
	    {"madvise", "advice", 2},
	    {"sendto", "dest_addr", 4},
	    {"recvfrom", "src_addr", 4},
	    {"accept4", "flags", 3},
	    {"dup3", "flags", 2},
	    {"pipe2", "flags", 1},
	    {"eventfd2", "flags", 1},
	    {"memfd_create", "flags", 1},
	    {"epoll_create1", "flags", 0},
	    {"getrandom", "flags", 2},
	    {"clock_gettime", "clockid", 0},
	    {"setresuid", "suid", 2},
	    {"fchmodat", "mode", 2},
	    {"chmod", "mode", 1},
	    {"fchmod", "mode", 1},
	    {"write", "count", 2},
	    {"clone3", "size", 1},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int x = ward_syscall_arg_index(cases[i].sys, cases[i].arg, X86);
		int a = ward_syscall_arg_index(cases[i].sys, cases[i].arg, ARM);

		if (x != cases[i].index || a != cases[i].index)
			fail_msg("%s(%s): %d on x86_64, %d on aarch64, want %d",
				 cases[i].sys, cases[i].arg, x, a,
				 cases[i].index);
	}
}

static void test_clone_order_per_arch(void **state)
{
	static const char *const x86[] = {"flags", "stack", "parent_tid",
					  "child_tid", "tls"};
	static const char *const arm[] = {"flags", "stack", "parent_tid", "tls",
					  "child_tid"};
	const char *const *names;
	size_t n;

	(void)state;
	assert_int_equal(ward_syscall_arg_index("clone", "child_tid", X86), 3);
	assert_int_equal(ward_syscall_arg_index("clone", "tls", X86), 4);
	assert_int_equal(ward_syscall_arg_index("clone", "tls", ARM), 3);
	assert_int_equal(ward_syscall_arg_index("clone", "child_tid", ARM), 4);
	assert_int_equal(ward_syscall_arg_index("clone", "flags", ARM), 0);

	names = ward_syscall_arg_names("clone", X86, &n);
	assert_non_null(names);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(names[i], x86[i]);
	names = ward_syscall_arg_names("clone", ARM, &n);
	assert_non_null(names);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(names[i], arm[i]);
}

static void test_unknown(void **state)
{
	size_t n = 99;

	(void)state;
	assert_int_equal(ward_syscall_arg_index("socket", "family", X86), -1);
	assert_int_equal(ward_syscall_arg_index("socket", "arg0", X86), -1);
	assert_int_equal(ward_syscall_arg_index("sokcet", "domain", X86), -1);
	assert_int_equal(ward_syscall_arg_index("", "", X86), -1);
	assert_null(
	    ward_syscall_arg_names("getpid", X86, &n)); /* no arguments */
	assert_int_equal(n, 0);
	n = 99;
	assert_null(ward_syscall_arg_names("no_such_syscall", ARM, &n));
	assert_int_equal(n, 0);
	assert_null(ward_syscall_args_syscall(ward_syscall_args_count()));
}

static int valid_arg_name(const char *s)
{
	if (!*s || !(islower((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) ||
		      isdigit((unsigned char)*s) || *s == '_'))
			return 0;
	return 1;
}

/* Each arch's list: 1..6 valid, distinct names; the aarch64 list is a
 * permutation of the x86_64 one. */
static void check_entry(const char *sys)
{
	size_t nx, na;
	const char *const *x = ward_syscall_arg_names(sys, X86, &nx);
	const char *const *a = ward_syscall_arg_names(sys, ARM, &na);

	assert_non_null(x);
	assert_non_null(a);
	assert_int_equal(nx, na);
	assert_true(nx >= 1 && nx <= 6);
	for (size_t i = 0; i < nx; i++) {
		if (!valid_arg_name(x[i]))
			fail_msg("%s: bad argument name `%s`", sys, x[i]);
		for (size_t j = 0; j < i; j++)
			if (strcmp(x[i], x[j]) == 0)
				fail_msg("%s: `%s` twice", sys, x[i]);
		assert_int_equal(ward_syscall_arg_index(sys, x[i], X86),
				 (int)i);
		assert_true(ward_syscall_arg_index(sys, x[i], ARM) >= 0);
	}
}

static void test_table(void **state)
{
	size_t n = ward_syscall_args_count(), differ = 0;

	(void)state;
	assert_true(n >= 80);
	for (size_t i = 0; i < n; i++) {
		const char *sys = ward_syscall_args_syscall(i);
		size_t nx, na;
		const char *const *x, *const *a;

		assert_non_null(sys);
		if (i > 0) /* sorted, no duplicates */
			assert_true(
			    strcmp(ward_syscall_args_syscall(i - 1), sys) < 0);
		check_entry(sys);
		x = ward_syscall_arg_names(sys, X86, &nx);
		a = ward_syscall_arg_names(sys, ARM, &na);
		for (size_t k = 0; k < nx; k++)
			if (strcmp(x[k], a[k]) != 0) {
				differ++;
				break;
			}
	}
	assert_int_equal(differ, 1); /* clone only */
}

/* Every syscall of the table exists for libseccomp on some target. */
static void test_known_to_libseccomp(void **state)
{
	size_t n = ward_syscall_args_count();

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const char *sys = ward_syscall_args_syscall(i);
		int x =
		    seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, sys);
		int a =
		    seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, sys);

		if (x < 0 && a < 0)
			fail_msg(
			    "`%s` is a syscall of neither x86_64 nor aarch64",
			    sys);
	}
	/* the check itself can fail */
	assert_true(
	    seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, "sokcet") < 0);
	assert_true(
	    seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, "open") < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_indexes),
	    cmocka_unit_test(test_clone_order_per_arch),
	    cmocka_unit_test(test_unknown),
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_known_to_libseccomp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
