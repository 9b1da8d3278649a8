/* SPDX-License-Identifier: MIT */
/*
 * syscalls.h: syscall names and numbers of the two targets, from
 * common/syscalls.tsv (the kernel's own tables; tools/update-syscalls.sh),
 * compiled in by tools/gen-syscall-table.sh.
 *
 * wardc resolves names here rather than in libseccomp: Debian 12's
 * libseccomp 2.5.4 has no names for the syscalls of Linux 6.8 and later
 * (mseal, statmount, listmount, ...), and a policy must be able to name
 * every syscall a kernel it runs on has. How such a syscall reaches the
 * filter is codegen's business (seccomp_gen.c).
 */
#ifndef WARD_SYSCALLS_H
#define WARD_SYSCALLS_H

#include <stddef.h>
#include <stdint.h>

struct ward_sysent {
	const char *name;
	int32_t x86_64, aarch64; /* -1: not a syscall of that target */
};

/* Sorted by name (strcmp order); generated. */
extern const struct ward_sysent ward_sysents[];
extern const size_t ward_nsysents;

enum ward_sys_status {
	WARD_SYS_OK,
	WARD_SYS_NOT_ON_TARGET, /* a syscall of another architecture */
	WARD_SYS_UNKNOWN,	/* no architecture has it */
};

/* NAME on ARCH (WARD_ARCH_* of policy.h): *nr is its number on WARD_SYS_OK,
 * else -1. Names of architectures ward does not target (socketcall of
 * i386) are known through libseccomp's tables, as NOT_ON_TARGET. */
enum ward_sys_status ward_sys_lookup(const char *name, uint32_t arch,
				     int32_t *nr);

/* The name of syscall NR on ARCH, or NULL. */
const char *ward_sys_name(uint32_t arch, int32_t nr);

/* The number of NAME on ARCH, or -1. */
int32_t ward_sys_nr(uint32_t arch, const char *name);

/* Every name of either target, sorted, for did-you-mean. */
size_t ward_sys_count(void);
const char *ward_sys_name_at(size_t i);

#endif
