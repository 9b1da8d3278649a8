/* SPDX-License-Identifier: MIT */
/*
 * test_syscall_table.c: ward's syscall table (common/syscalls.tsv, the
 * kernel's own numbers) against libseccomp's tables, which were written
 * independently: where both know a syscall they agree, libseccomp knows
 * no syscall the table lacks, and what libseccomp 2.5.4 lacks is only the
 * syscalls after its tables (Linux 6.8 and later, and x86_64's uprobes).
 * tests/syscalls/run.sh checks the table against the kernel headers.
 */
#include <seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy.h"
#include "syscalls.h"

static const uint32_t arches[] = {WARD_ARCH_X86_64, WARD_ARCH_AARCH64};

static void test_sorted_unique(void **state)
{
	for (size_t i = 1; i < ward_nsysents; i++)
		assert_true(
		    strcmp(ward_sysents[i - 1].name, ward_sysents[i].name) < 0);
	for (size_t a = 0; a < 2; a++) {
		static bool seen[1024];
		memset(seen, 0, sizeof(seen));
		for (size_t i = 0; i < ward_nsysents; i++) {
			int32_t nr =
			    ward_sys_nr(arches[a], ward_sysents[i].name);
			if (nr < 0)
				continue;
			assert_true(nr < 1024);
			assert_false(seen[nr]);
			seen[nr] = true;
			assert_string_equal(ward_sys_name(arches[a], nr),
					    ward_sysents[i].name);
		}
	}
}

static void test_agrees_with_libseccomp(void **state)
{
	for (size_t a = 0; a < 2; a++) {
		unsigned lacking = 0;
		for (int32_t nr = 0; nr < 1024; nr++) {
			char *name =
			    seccomp_syscall_resolve_num_arch(arches[a], nr);
			if (!name)
				continue;
			if (ward_sys_nr(arches[a], name) != nr)
				fail_msg(
				    "libseccomp: %s is %d, the table says %d",
				    name, nr, ward_sys_nr(arches[a], name));
			free(name);
		}
		for (size_t i = 0; i < ward_nsysents; i++) {
			const char *name = ward_sysents[i].name;
			int32_t nr = ward_sys_nr(arches[a], name);
			int lib =
			    seccomp_syscall_resolve_name_arch(arches[a], name);
			if (nr < 0)
				continue;
			if (lib == nr)
				continue;
			/* only the newest syscalls may be missing there */
			if (lib != __NR_SCMP_ERROR ||
			    (nr < 451 && strcmp(name, "uretprobe") &&
			     strcmp(name, "uprobe")))
				fail_msg("%s (%d): libseccomp says %d", name,
					 nr, lib);
			lacking++;
		}
		/* statmount .. file_setattr on both, at the least */
		assert_true(lacking >= 13);
	}
}

static void test_lookup(void **state)
{
	int32_t nr;

	assert_int_equal(ward_sys_lookup("mseal", WARD_ARCH_X86_64, &nr),
			 WARD_SYS_OK);
	assert_int_equal(nr, 462);
	assert_int_equal(ward_sys_lookup("mseal", WARD_ARCH_AARCH64, &nr),
			 WARD_SYS_OK);
	assert_int_equal(nr, 462);
	assert_int_equal(ward_sys_lookup("uretprobe", WARD_ARCH_X86_64, &nr),
			 WARD_SYS_OK);
	assert_int_equal(nr, 335);
	/* x86_64 only */
	assert_int_equal(ward_sys_lookup("uretprobe", WARD_ARCH_AARCH64, &nr),
			 WARD_SYS_NOT_ON_TARGET);
	assert_int_equal(nr, -1);
	assert_int_equal(ward_sys_lookup("open", WARD_ARCH_AARCH64, &nr),
			 WARD_SYS_NOT_ON_TARGET);
	/* i386 only: libseccomp's tables know it */
	assert_int_equal(ward_sys_lookup("socketcall", WARD_ARCH_X86_64, &nr),
			 WARD_SYS_NOT_ON_TARGET);
	assert_int_equal(ward_sys_lookup("sokcet", WARD_ARCH_X86_64, &nr),
			 WARD_SYS_UNKNOWN);
	assert_null(ward_sys_name(WARD_ARCH_X86_64, 1000));
	assert_null(ward_sys_name(WARD_ARCH_X86_64, -1));
	assert_int_equal(ward_sys_nr(0, "read"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sorted_unique),
	    cmocka_unit_test(test_agrees_with_libseccomp),
	    cmocka_unit_test(test_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
