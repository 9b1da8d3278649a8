/* SPDX-License-Identifier: MIT */
/*
 * consts.c: the lookups of consts.h in the tables of built-in constants
 * that tools/gen-consts.sh writes from the system headers at build time
 * (consts_table.c). Each table is sorted by name, so a lookup is a binary
 * search; a name that only another target's table has is reported as
 * such, so that the checker can say "not on aarch64" rather than
 * "unknown".
 */
#include "consts.h"

#include <string.h>

static const struct ward_const_table *table_of(uint32_t arch)
{
	for (size_t i = 0; i < ward_const_ntables; i++)
		if (ward_const_tables[i].arch == arch)
			return &ward_const_tables[i];
	return NULL;
}

/* The generator puts the build host's own table first. Error numbers and
 * capabilities number the same on every target, so any table answers for
 * them; the native one is the one compiled from the headers directly. */
static const struct ward_const_table *native_table(void)
{
	return &ward_const_tables[0];
}

static const struct ward_const_entry *find(const struct ward_const_table *t,
					   const char *name)
{
	size_t lo = 0, hi = t ? t->count : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, t->entries[mid].name);

		if (c == 0)
			return &t->entries[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

enum ward_const_status ward_const_lookup(const char *name, uint32_t arch,
					 uint64_t *value)
{
	const struct ward_const_entry *e = find(table_of(arch), name);

	if (e) {
		*value = e->value;
		return WARD_CONST_OK;
	}
	for (size_t i = 0; i < ward_const_ntables; i++)
		if (ward_const_tables[i].arch != arch &&
		    find(&ward_const_tables[i], name))
			return WARD_CONST_NOT_ON_TARGET;
	return WARD_CONST_UNKNOWN;
}

size_t ward_const_count(uint32_t arch)
{
	const struct ward_const_table *t = table_of(arch);

	return t ? t->count : 0;
}

const char *ward_const_name(uint32_t arch, size_t i)
{
	const struct ward_const_table *t = table_of(arch);

	return t && i < t->count ? t->entries[i].name : NULL;
}

uint64_t ward_const_value(uint32_t arch, size_t i)
{
	const struct ward_const_table *t = table_of(arch);

	return t && i < t->count ? t->entries[i].value : 0;
}

static int kind_lookup(const char *name, enum ward_const_kind kind)
{
	const struct ward_const_entry *e = find(native_table(), name);

	if (!e || e->kind != kind || e->value > INT32_MAX)
		return -1;
	return (int)e->value;
}

static const char *kind_name(int nr, enum ward_const_kind kind)
{
	const struct ward_const_table *t = native_table();

	if (nr < 0)
		return NULL;
	for (size_t i = 0; i < t->count; i++) {
		const struct ward_const_entry *e = &t->entries[i];

		if (e->kind == kind && !e->alias && e->value == (uint64_t)nr)
			return e->name;
	}
	return NULL;
}

int ward_errno_lookup(const char *name)
{
	return kind_lookup(name, WARD_CONST_KIND_ERRNO);
}

const char *ward_errno_name(int nr)
{
	return kind_name(nr, WARD_CONST_KIND_ERRNO);
}

int ward_cap_lookup(const char *name)
{
	return kind_lookup(name, WARD_CONST_KIND_CAP);
}

const char *ward_cap_name(int nr)
{
	return kind_name(nr, WARD_CONST_KIND_CAP);
}
