/* SPDX-License-Identifier: MIT */
/*
 * syscalls.c: the lookups of syscalls.h in the generated table.
 */
#include "syscalls.h"

#include "policy.h"

#include <seccomp.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct ward_sysent *)elem)->name);
}

static const struct ward_sysent *find(const char *name)
{
	return bsearch(name, ward_sysents, ward_nsysents,
		       sizeof(ward_sysents[0]), by_name);
}

static int32_t nr_on(const struct ward_sysent *e, uint32_t arch)
{
	if (arch == WARD_ARCH_X86_64)
		return e->x86_64;
	if (arch == WARD_ARCH_AARCH64)
		return e->aarch64;
	return -1;
}

int32_t ward_sys_nr(uint32_t arch, const char *name)
{
	const struct ward_sysent *e = find(name);
	return e ? nr_on(e, arch) : -1;
}

enum ward_sys_status ward_sys_lookup(const char *name, uint32_t arch,
				     int32_t *nr)
{
	const struct ward_sysent *e = find(name);
	int r;

	*nr = e ? nr_on(e, arch) : -1;
	if (*nr >= 0)
		return WARD_SYS_OK;
	if (e)
		return WARD_SYS_NOT_ON_TARGET;
	/* libseccomp gives a name of any architecture it knows a negative
	 * "pseudo" number on the others, and __NR_SCMP_ERROR to no name. */
	r = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, name);
	return r == __NR_SCMP_ERROR ? WARD_SYS_UNKNOWN : WARD_SYS_NOT_ON_TARGET;
}

const char *ward_sys_name(uint32_t arch, int32_t nr)
{
	if (nr < 0)
		return NULL;
	for (size_t i = 0; i < ward_nsysents; i++)
		if (nr_on(&ward_sysents[i], arch) == nr)
			return ward_sysents[i].name;
	return NULL;
}

size_t ward_sys_count(void)
{
	return ward_nsysents;
}

const char *ward_sys_name_at(size_t i)
{
	return i < ward_nsysents ? ward_sysents[i].name : NULL;
}
